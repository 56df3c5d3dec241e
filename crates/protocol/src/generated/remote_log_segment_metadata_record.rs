//! Generated from `RemoteLogSegmentMetadataRecord.json` by fjord-codegen. Do not edit.

#[allow(unused_imports)]
use crate::codec::*;
#[allow(unused_imports)]
use crate::error::{DecodeError, EncodeError};
#[allow(unused_imports)]
use crate::payload::Records;
#[allow(unused_imports)]
use bytes::Bytes;
#[allow(unused_imports)]
use uuid::Uuid;

/// The `RemoteLogSegmentMetadataRecord` remote-log-metadata (type 0, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct RemoteLogSegmentMetadataRecord {
    /// Unique representation of the remote log segment.
    ///
    /// Versions 0+.
    pub remote_log_segment_id: RemoteLogSegmentIdEntry,
    /// Start offset  of the segment.
    ///
    /// Versions 0+.
    pub start_offset: i64,
    /// End offset  of the segment.
    ///
    /// Versions 0+.
    pub end_offset: i64,
    /// Broker id from which this event is generated.
    ///
    /// Versions 0+.
    pub broker_id: i32,
    /// Maximum timestamp in milliseconds with in this segment.
    ///
    /// Versions 0+.
    pub max_timestamp_ms: i64,
    /// Epoch time in milliseconds at which this event is generated.
    ///
    /// Versions 0+.
    pub event_timestamp_ms: i64,
    /// Leader epoch to start-offset mappings for the records with in this segment.
    ///
    /// Versions 0+.
    pub segment_leader_epochs: Vec<SegmentLeaderEpochEntry>,
    /// Segment size in bytes.
    ///
    /// Versions 0+.
    pub segment_size_in_bytes: i32,
    /// Custom metadata.
    ///
    /// Versions 0+; nullable 0+.
    pub custom_metadata: Option<Bytes>,
    /// State identifier of the remote log segment, which is RemoteLogSegmentState.id().
    ///
    /// Versions 0+.
    pub remote_log_segment_state: i8,
    /// Flag to indicate if the transaction index is empty.
    ///
    /// Versions 0+; tag 0 in 0+.
    pub txn_index_empty: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for RemoteLogSegmentMetadataRecord {
    fn default() -> Self {
        RemoteLogSegmentMetadataRecord {
            remote_log_segment_id: RemoteLogSegmentIdEntry::default(),
            start_offset: 0,
            end_offset: 0,
            broker_id: 0,
            max_timestamp_ms: 0,
            event_timestamp_ms: 0,
            segment_leader_epochs: Vec::<SegmentLeaderEpochEntry>::new(),
            segment_size_in_bytes: 0,
            custom_metadata: None,
            remote_log_segment_state: 0,
            txn_index_empty: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl RemoteLogSegmentMetadataRecord {
    /// The message name.
    pub const NAME: &'static str = "RemoteLogSegmentMetadataRecord";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "RemoteLogSegmentMetadataRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        (&self.remote_log_segment_id).encode(w, version)?;
        w.put_i64(*(&self.start_offset));
        w.put_i64(*(&self.end_offset));
        w.put_i32(*(&self.broker_id));
        w.put_i64(*(&self.max_timestamp_ms));
        w.put_i64(*(&self.event_timestamp_ms));
        write_len_prefix(w, (&self.segment_leader_epochs).len(), flexible)?; for e0 in (&self.segment_leader_epochs).iter() { e0.encode(w, version)?; }
        w.put_i32(*(&self.segment_size_in_bytes));
        match (&self.custom_metadata) { Some(x) => { write_bytes(w, x, flexible)?; } None => { write_null(w, flexible); } }
        w.put_i8(*(&self.remote_log_segment_state));
        if !((false) || (true)) { if self.txn_index_empty != false { return Err(EncodeError::FieldNotInVersion { field: "TxnIndexEmpty", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if true && self.txn_index_empty != false { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.txn_index_empty != false { write_uvarint(w, 0); write_uvarint(w, (1) as u32); write_bool(w, *(&self.txn_index_empty)); }
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += (&self.remote_log_segment_id).encoded_len(version);
        n += 8;
        n += 8;
        n += 4;
        n += 8;
        n += 8;
        n += len_prefix_len((&self.segment_leader_epochs).len(), flexible) + (&self.segment_leader_epochs).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += 4;
        n += match (&self.custom_metadata) { Some(x) => bytes_len(x, flexible), None => null_len(flexible) };
        n += 1;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if true && self.txn_index_empty != false { count += 1; let s = 1; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "RemoteLogSegmentMetadataRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.remote_log_segment_id = RemoteLogSegmentIdEntry::decode(buf, version)?;
        v.start_offset = read_i64(buf)?;
        v.end_offset = read_i64(buf)?;
        v.broker_id = read_i32(buf)?;
        v.max_timestamp_ms = read_i64(buf)?;
        v.event_timestamp_ms = read_i64(buf)?;
        v.segment_leader_epochs = { let n = read_array_len_non_null(buf, flexible, "SegmentLeaderEpochs")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(SegmentLeaderEpochEntry::decode(buf, version)?); } v };
        v.segment_size_in_bytes = read_i32(buf)?;
        v.custom_metadata = read_nullable_bytes(buf, flexible)?;
        v.remote_log_segment_state = read_i8(buf)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 => { let buf = &mut field; v.txn_index_empty = read_bool(buf)?; finish_tagged_field(buf, 0)?; }
                    _ => v.unknown_tagged_fields.push(RawTaggedField { tag, data: field }),
                }
            }
        }
        Ok(v)
    }

    /// A random value that is valid at `version` (for tests and fuzzing).
    #[cfg(feature = "sample")]
    pub fn sample(g: &mut crate::sample::SampleRng, version: i16) -> Self {
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.remote_log_segment_id = RemoteLogSegmentIdEntry::sample(g, version);
        v.start_offset = g.i64();
        v.end_offset = g.i64();
        v.broker_id = g.i32();
        v.max_timestamp_ms = g.i64();
        v.event_timestamp_ms = g.i64();
        v.segment_leader_epochs = (0..g.collection_len()).map(|_| SegmentLeaderEpochEntry::sample(g, version)).collect();
        v.segment_size_in_bytes = g.i32();
        v.custom_metadata = if (true) && g.chance(4) { None } else { Some(g.bytes()) };
        v.remote_log_segment_state = g.i8();
        if (true) && g.bool() { v.txn_index_empty = g.bool(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        self.remote_log_segment_id.each_error_code(f);
        for x in &self.segment_leader_epochs { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        self.remote_log_segment_id.each_nullable_string(version, f);
        for x in &mut self.segment_leader_epochs { x.each_nullable_string(version, f); }
    }
}

/// Unique representation of the remote log segment.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoteLogSegmentIdEntry {
    /// Represents unique topic partition.
    ///
    /// Versions 0+.
    pub topic_id_partition: TopicIdPartitionEntry,
    /// Unique identifier of the remote log segment.
    ///
    /// Versions 0+.
    pub id: Uuid,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for RemoteLogSegmentIdEntry {
    fn default() -> Self {
        RemoteLogSegmentIdEntry {
            topic_id_partition: TopicIdPartitionEntry::default(),
            id: Uuid::nil(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl RemoteLogSegmentIdEntry {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        (&self.topic_id_partition).encode(w, version)?;
        write_uuid(w, (&self.id));
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += (&self.topic_id_partition).encoded_len(version);
        n += 16;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.topic_id_partition = TopicIdPartitionEntry::decode(buf, version)?;
        v.id = read_uuid(buf)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    _ => v.unknown_tagged_fields.push(RawTaggedField { tag, data: field }),
                }
            }
        }
        Ok(v)
    }

    /// A random value that is valid at `version` (for tests and fuzzing).
    #[cfg(feature = "sample")]
    pub fn sample(g: &mut crate::sample::SampleRng, version: i16) -> Self {
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.topic_id_partition = TopicIdPartitionEntry::sample(g, version);
        v.id = g.uuid();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        self.topic_id_partition.each_error_code(f);
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        self.topic_id_partition.each_nullable_string(version, f);
    }
}

/// Represents unique topic partition.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicIdPartitionEntry {
    /// Topic name.
    ///
    /// Versions 0+.
    pub name: String,
    /// Unique identifier of the topic.
    ///
    /// Versions 0+.
    pub id: Uuid,
    /// Partition number.
    ///
    /// Versions 0+.
    pub partition: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopicIdPartitionEntry {
    fn default() -> Self {
        TopicIdPartitionEntry {
            name: String::new(),
            id: Uuid::nil(),
            partition: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicIdPartitionEntry {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.name), flexible)?;
        write_uuid(w, (&self.id));
        w.put_i32(*(&self.partition));
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.name), flexible);
        n += 16;
        n += 4;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = read_string(buf, flexible, "Name")?;
        v.id = read_uuid(buf)?;
        v.partition = read_i32(buf)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    _ => v.unknown_tagged_fields.push(RawTaggedField { tag, data: field }),
                }
            }
        }
        Ok(v)
    }

    /// A random value that is valid at `version` (for tests and fuzzing).
    #[cfg(feature = "sample")]
    pub fn sample(g: &mut crate::sample::SampleRng, version: i16) -> Self {
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = g.string();
        v.id = g.uuid();
        v.partition = g.i32();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
    }
}

/// Leader epoch to start-offset mappings for the records with in this segment.
#[derive(Debug, Clone, PartialEq)]
pub struct SegmentLeaderEpochEntry {
    /// Leader epoch
    ///
    /// Versions 0+.
    pub leader_epoch: i32,
    /// Start offset for the leader epoch.
    ///
    /// Versions 0+.
    pub offset: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for SegmentLeaderEpochEntry {
    fn default() -> Self {
        SegmentLeaderEpochEntry {
            leader_epoch: 0,
            offset: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SegmentLeaderEpochEntry {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.leader_epoch));
        w.put_i64(*(&self.offset));
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
        n += 8;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.leader_epoch = read_i32(buf)?;
        v.offset = read_i64(buf)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    _ => v.unknown_tagged_fields.push(RawTaggedField { tag, data: field }),
                }
            }
        }
        Ok(v)
    }

    /// A random value that is valid at `version` (for tests and fuzzing).
    #[cfg(feature = "sample")]
    pub fn sample(g: &mut crate::sample::SampleRng, version: i16) -> Self {
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.leader_epoch = g.i32();
        v.offset = g.i64();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
    }
}
