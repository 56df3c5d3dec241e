//! Generated from `GetReplicaLogInfoResponse.json` by fjord-codegen. Do not edit.

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

/// The `GetReplicaLogInfoResponse` response (api key 1000, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct GetReplicaLogInfoResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 0+.
    pub throttle_time_ms: i32,
    /// The epoch of the answering broker's registration.
    ///
    /// Versions 0+.
    pub broker_epoch: i64,
    /// True if more partitions were asked than one response answers; ask again for the rest.
    ///
    /// Versions 0+.
    pub has_more_data: bool,
    /// The log information of each answered topic.
    ///
    /// Versions 0+.
    pub topic_partition_log_info_list: Vec<TopicPartitionLogInfo>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for GetReplicaLogInfoResponse {
    fn default() -> Self {
        GetReplicaLogInfoResponse {
            throttle_time_ms: 0,
            broker_epoch: 0,
            has_more_data: false,
            topic_partition_log_info_list: Vec::<TopicPartitionLogInfo>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl GetReplicaLogInfoResponse {
    /// The message name.
    pub const NAME: &'static str = "GetReplicaLogInfoResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "GetReplicaLogInfoResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.throttle_time_ms));
        w.put_i64(*(&self.broker_epoch));
        write_bool(w, *(&self.has_more_data));
        write_len_prefix(w, (&self.topic_partition_log_info_list).len(), flexible)?; for e0 in (&self.topic_partition_log_info_list).iter() { e0.encode(w, version)?; }
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
        n += 1;
        n += len_prefix_len((&self.topic_partition_log_info_list).len(), flexible) + (&self.topic_partition_log_info_list).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "GetReplicaLogInfoResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        v.broker_epoch = read_i64(buf)?;
        v.has_more_data = read_bool(buf)?;
        v.topic_partition_log_info_list = { let n = read_array_len_non_null(buf, flexible, "TopicPartitionLogInfoList")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicPartitionLogInfo::decode(buf, version)?); } v };
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
        v.throttle_time_ms = g.i32();
        v.broker_epoch = g.i64();
        v.has_more_data = g.bool();
        v.topic_partition_log_info_list = (0..g.collection_len()).map(|_| TopicPartitionLogInfo::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.topic_partition_log_info_list { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.topic_partition_log_info_list { x.each_nullable_string(version, f); }
    }
}

/// The log information of each answered topic.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicPartitionLogInfo {
    /// The topic ID.
    ///
    /// Versions 0+.
    pub topic_id: Uuid,
    /// The log information of each answered partition.
    ///
    /// Versions 0+.
    pub partition_log_info: Vec<PartitionLogInfo>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopicPartitionLogInfo {
    fn default() -> Self {
        TopicPartitionLogInfo {
            topic_id: Uuid::nil(),
            partition_log_info: Vec::<PartitionLogInfo>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicPartitionLogInfo {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_uuid(w, (&self.topic_id));
        write_len_prefix(w, (&self.partition_log_info).len(), flexible)?; for e0 in (&self.partition_log_info).iter() { e0.encode(w, version)?; }
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
        n += 16;
        n += len_prefix_len((&self.partition_log_info).len(), flexible) + (&self.partition_log_info).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.topic_id = read_uuid(buf)?;
        v.partition_log_info = { let n = read_array_len_non_null(buf, flexible, "PartitionLogInfo")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(PartitionLogInfo::decode(buf, version)?); } v };
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
        v.topic_id = g.uuid();
        v.partition_log_info = (0..g.collection_len()).map(|_| PartitionLogInfo::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.partition_log_info { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.partition_log_info { x.each_nullable_string(version, f); }
    }
}

/// The log information of each answered partition.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionLogInfo {
    /// The partition index.
    ///
    /// Versions 0+.
    pub partition: i32,
    /// The current leader epoch of the partition, from this broker's view.
    ///
    /// Versions 0+.
    pub partition_leader_epoch: i32,
    /// The log end offset of this replica.
    ///
    /// Versions 0+.
    pub log_end_offset: i64,
    /// The partition error code, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The latest epoch in this replica's leader-epoch cache.
    ///
    /// Versions 0+; tag 0 in 0+.
    pub last_written_leader_epoch: i32,
    /// The last high watermark this replica knew.
    ///
    /// Versions 0+; tag 1 in 0+.
    pub high_watermark: i64,
    /// The log start offset of this replica.
    ///
    /// Versions 0+; tag 2 in 0+.
    pub log_start_offset: i64,
    /// The replica's leader-epoch cache, oldest first, at most its last 100 entries.
    ///
    /// Versions 0+; tag 3 in 0+.
    pub leader_epochs: Vec<EpochEntry>,
    /// The first offset on this replica's local disk; below it, down to LogStartOffset, its records are in tiered storage.
    ///
    /// Versions 0+; tag 4 in 0+.
    pub local_log_start_offset: i64,
    /// The first offset of this replica's history that tiered storage holds, or -1 if it holds none.
    ///
    /// Versions 0+; tag 5 in 0+.
    pub remote_log_start_offset: i64,
    /// The offset after the last record tiered storage holds for the partition, of any history, or -1 if it holds none.
    ///
    /// Versions 0+; tag 6 in 0+.
    pub remote_log_end_offset: i64,
    /// The offsets tiered storage holds that this replica's history does not share (lost from the store if it is elected), at most the first 100 ranges.
    ///
    /// Versions 0+; tag 7 in 0+.
    pub remote_unshared_ranges: Vec<OffsetRange>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for PartitionLogInfo {
    fn default() -> Self {
        PartitionLogInfo {
            partition: 0,
            partition_leader_epoch: 0,
            log_end_offset: 0,
            error_code: 0,
            last_written_leader_epoch: -1,
            high_watermark: -1,
            log_start_offset: -1,
            leader_epochs: Vec::<EpochEntry>::new(),
            local_log_start_offset: -1,
            remote_log_start_offset: -1,
            remote_log_end_offset: -1,
            remote_unshared_ranges: Vec::<OffsetRange>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionLogInfo {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.partition));
        w.put_i32(*(&self.partition_leader_epoch));
        w.put_i64(*(&self.log_end_offset));
        w.put_i16(*(&self.error_code));
        if !((false) || (true)) { if self.last_written_leader_epoch != -1 { return Err(EncodeError::FieldNotInVersion { field: "LastWrittenLeaderEpoch", version }); } }
        if !((false) || (true)) { if self.high_watermark != -1 { return Err(EncodeError::FieldNotInVersion { field: "HighWatermark", version }); } }
        if !((false) || (true)) { if self.log_start_offset != -1 { return Err(EncodeError::FieldNotInVersion { field: "LogStartOffset", version }); } }
        if !((false) || (true)) { if self.leader_epochs != Vec::<EpochEntry>::new() { return Err(EncodeError::FieldNotInVersion { field: "LeaderEpochs", version }); } }
        if !((false) || (true)) { if self.local_log_start_offset != -1 { return Err(EncodeError::FieldNotInVersion { field: "LocalLogStartOffset", version }); } }
        if !((false) || (true)) { if self.remote_log_start_offset != -1 { return Err(EncodeError::FieldNotInVersion { field: "RemoteLogStartOffset", version }); } }
        if !((false) || (true)) { if self.remote_log_end_offset != -1 { return Err(EncodeError::FieldNotInVersion { field: "RemoteLogEndOffset", version }); } }
        if !((false) || (true)) { if self.remote_unshared_ranges != Vec::<OffsetRange>::new() { return Err(EncodeError::FieldNotInVersion { field: "RemoteUnsharedRanges", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if true && self.last_written_leader_epoch != -1 { count += 1; }
            if true && self.high_watermark != -1 { count += 1; }
            if true && self.log_start_offset != -1 { count += 1; }
            if true && self.leader_epochs != Vec::<EpochEntry>::new() { count += 1; }
            if true && self.local_log_start_offset != -1 { count += 1; }
            if true && self.remote_log_start_offset != -1 { count += 1; }
            if true && self.remote_log_end_offset != -1 { count += 1; }
            if true && self.remote_unshared_ranges != Vec::<OffsetRange>::new() { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.last_written_leader_epoch != -1 { write_uvarint(w, 0); write_uvarint(w, (4) as u32); w.put_i32(*(&self.last_written_leader_epoch)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 1 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.high_watermark != -1 { write_uvarint(w, 1); write_uvarint(w, (8) as u32); w.put_i64(*(&self.high_watermark)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 2 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.log_start_offset != -1 { write_uvarint(w, 2); write_uvarint(w, (8) as u32); w.put_i64(*(&self.log_start_offset)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 3 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.leader_epochs != Vec::<EpochEntry>::new() { write_uvarint(w, 3); write_uvarint(w, (len_prefix_len((&self.leader_epochs).len(), true) + (&self.leader_epochs).iter().map(|e0| e0.encoded_len(version)).sum::<usize>()) as u32); write_len_prefix(w, (&self.leader_epochs).len(), true)?; for e0 in (&self.leader_epochs).iter() { e0.encode(w, version)?; } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 4 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.local_log_start_offset != -1 { write_uvarint(w, 4); write_uvarint(w, (8) as u32); w.put_i64(*(&self.local_log_start_offset)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 5 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.remote_log_start_offset != -1 { write_uvarint(w, 5); write_uvarint(w, (8) as u32); w.put_i64(*(&self.remote_log_start_offset)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 6 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.remote_log_end_offset != -1 { write_uvarint(w, 6); write_uvarint(w, (8) as u32); w.put_i64(*(&self.remote_log_end_offset)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 7 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.remote_unshared_ranges != Vec::<OffsetRange>::new() { write_uvarint(w, 7); write_uvarint(w, (len_prefix_len((&self.remote_unshared_ranges).len(), true) + (&self.remote_unshared_ranges).iter().map(|e0| e0.encoded_len(version)).sum::<usize>()) as u32); write_len_prefix(w, (&self.remote_unshared_ranges).len(), true)?; for e0 in (&self.remote_unshared_ranges).iter() { e0.encode(w, version)?; } }
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
        n += 4;
        n += 8;
        n += 2;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if true && self.last_written_leader_epoch != -1 { count += 1; let s = 4; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            if true && self.high_watermark != -1 { count += 1; let s = 8; n += uvarint_len(1) + uvarint_len(s as u32) + s; }
            if true && self.log_start_offset != -1 { count += 1; let s = 8; n += uvarint_len(2) + uvarint_len(s as u32) + s; }
            if true && self.leader_epochs != Vec::<EpochEntry>::new() { count += 1; let s = len_prefix_len((&self.leader_epochs).len(), true) + (&self.leader_epochs).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); n += uvarint_len(3) + uvarint_len(s as u32) + s; }
            if true && self.local_log_start_offset != -1 { count += 1; let s = 8; n += uvarint_len(4) + uvarint_len(s as u32) + s; }
            if true && self.remote_log_start_offset != -1 { count += 1; let s = 8; n += uvarint_len(5) + uvarint_len(s as u32) + s; }
            if true && self.remote_log_end_offset != -1 { count += 1; let s = 8; n += uvarint_len(6) + uvarint_len(s as u32) + s; }
            if true && self.remote_unshared_ranges != Vec::<OffsetRange>::new() { count += 1; let s = len_prefix_len((&self.remote_unshared_ranges).len(), true) + (&self.remote_unshared_ranges).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); n += uvarint_len(7) + uvarint_len(s as u32) + s; }
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
        v.partition = read_i32(buf)?;
        v.partition_leader_epoch = read_i32(buf)?;
        v.log_end_offset = read_i64(buf)?;
        v.error_code = read_i16(buf)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 => { let buf = &mut field; v.last_written_leader_epoch = read_i32(buf)?; finish_tagged_field(buf, 0)?; }
                    1 => { let buf = &mut field; v.high_watermark = read_i64(buf)?; finish_tagged_field(buf, 1)?; }
                    2 => { let buf = &mut field; v.log_start_offset = read_i64(buf)?; finish_tagged_field(buf, 2)?; }
                    3 => { let buf = &mut field; v.leader_epochs = { let n = read_array_len_non_null(buf, true, "LeaderEpochs")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(EpochEntry::decode(buf, version)?); } v }; finish_tagged_field(buf, 3)?; }
                    4 => { let buf = &mut field; v.local_log_start_offset = read_i64(buf)?; finish_tagged_field(buf, 4)?; }
                    5 => { let buf = &mut field; v.remote_log_start_offset = read_i64(buf)?; finish_tagged_field(buf, 5)?; }
                    6 => { let buf = &mut field; v.remote_log_end_offset = read_i64(buf)?; finish_tagged_field(buf, 6)?; }
                    7 => { let buf = &mut field; v.remote_unshared_ranges = { let n = read_array_len_non_null(buf, true, "RemoteUnsharedRanges")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(OffsetRange::decode(buf, version)?); } v }; finish_tagged_field(buf, 7)?; }
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
        v.partition = g.i32();
        v.partition_leader_epoch = g.i32();
        v.log_end_offset = g.i64();
        v.error_code = g.i16();
        if (true) && g.bool() { v.last_written_leader_epoch = g.i32(); }
        if (true) && g.bool() { v.high_watermark = g.i64(); }
        if (true) && g.bool() { v.log_start_offset = g.i64(); }
        if (true) && g.bool() { v.leader_epochs = (0..g.collection_len()).map(|_| EpochEntry::sample(g, version)).collect(); }
        if (true) && g.bool() { v.local_log_start_offset = g.i64(); }
        if (true) && g.bool() { v.remote_log_start_offset = g.i64(); }
        if (true) && g.bool() { v.remote_log_end_offset = g.i64(); }
        if (true) && g.bool() { v.remote_unshared_ranges = (0..g.collection_len()).map(|_| OffsetRange::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.leader_epochs { x.each_error_code(f); }
        for x in &self.remote_unshared_ranges { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if (false) || (true) { for x in &mut self.leader_epochs { x.each_nullable_string(version, f); } }
        if (false) || (true) { for x in &mut self.remote_unshared_ranges { x.each_nullable_string(version, f); } }
    }
}

/// The replica's leader-epoch cache, oldest first, at most its last 100 entries.
#[derive(Debug, Clone, PartialEq)]
pub struct EpochEntry {
    /// The leader epoch.
    ///
    /// Versions 0+.
    pub epoch: i32,
    /// The offset of the first record written in that epoch.
    ///
    /// Versions 0+.
    pub start_offset: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for EpochEntry {
    fn default() -> Self {
        EpochEntry {
            epoch: 0,
            start_offset: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl EpochEntry {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.epoch));
        w.put_i64(*(&self.start_offset));
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
        v.epoch = read_i32(buf)?;
        v.start_offset = read_i64(buf)?;
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
        v.epoch = g.i32();
        v.start_offset = g.i64();
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

/// The offsets tiered storage holds that this replica's history does not share (lost from the store if it is elected), at most the first 100 ranges.
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetRange {
    /// The first offset of the range.
    ///
    /// Versions 0+.
    pub start_offset: i64,
    /// The offset after the range's last.
    ///
    /// Versions 0+.
    pub end_offset: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for OffsetRange {
    fn default() -> Self {
        OffsetRange {
            start_offset: 0,
            end_offset: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetRange {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i64(*(&self.start_offset));
        w.put_i64(*(&self.end_offset));
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
        n += 8;
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
        v.start_offset = read_i64(buf)?;
        v.end_offset = read_i64(buf)?;
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
        v.start_offset = g.i64();
        v.end_offset = g.i64();
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
