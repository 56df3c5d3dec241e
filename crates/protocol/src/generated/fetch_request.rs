//! Generated from `FetchRequest.json` by fjord-codegen. Do not edit.

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

/// The `FetchRequest` request (api key 1, versions 4-18).
#[derive(Debug, Clone, PartialEq)]
pub struct FetchRequest {
    /// The clusterId if known. This is used to validate metadata fetches prior to broker registration.
    ///
    /// Versions 12+; nullable 12+; tag 0 in 12+.
    pub cluster_id: Option<String>,
    /// The broker ID of the follower, of -1 if this request is from a consumer.
    ///
    /// Versions 0-14.
    pub replica_id: i32,
    /// The state of the replica in the follower.
    ///
    /// Versions 15+; tag 1 in 15+.
    pub replica_state: ReplicaState,
    /// The maximum time in milliseconds to wait for the response.
    ///
    /// Versions 0+.
    pub max_wait_ms: i32,
    /// The minimum bytes to accumulate in the response.
    ///
    /// Versions 0+.
    pub min_bytes: i32,
    /// The maximum bytes to fetch.  See KIP-74 for cases where this limit may not be honored.
    ///
    /// Versions 3+.
    pub max_bytes: i32,
    /// This setting controls the visibility of transactional records. Using READ_UNCOMMITTED (isolation_level = 0) makes all records visible. With READ_COMMITTED (isolation_level = 1), non-transactional and COMMITTED transactional records are visible. To be more concrete, READ_COMMITTED returns all data from offsets smaller than the current LSO (last stable offset), and enables the inclusion of the list of aborted transactions in the result, which allows consumers to discard ABORTED transactional records.
    ///
    /// Versions 4+.
    pub isolation_level: i8,
    /// The fetch session ID.
    ///
    /// Versions 7+.
    pub session_id: i32,
    /// The fetch session epoch, which is used for ordering requests in a session.
    ///
    /// Versions 7+.
    pub session_epoch: i32,
    /// The topics to fetch.
    ///
    /// Versions 0+.
    pub topics: Vec<FetchTopic>,
    /// In an incremental fetch request, the partitions to remove.
    ///
    /// Versions 7+.
    pub forgotten_topics_data: Vec<ForgottenTopic>,
    /// Rack ID of the consumer making this request.
    ///
    /// Versions 11+.
    pub rack_id: String,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for FetchRequest {
    fn default() -> Self {
        FetchRequest {
            cluster_id: None,
            replica_id: -1,
            replica_state: ReplicaState::default(),
            max_wait_ms: 0,
            min_bytes: 0,
            max_bytes: 2147483647,
            isolation_level: 0,
            session_id: 0,
            session_epoch: -1,
            topics: Vec::<FetchTopic>::new(),
            forgotten_topics_data: Vec::<ForgottenTopic>::new(),
            rack_id: String::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchRequest {
    /// The message name.
    pub const NAME: &'static str = "FetchRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 4;
    /// The highest version.
    pub const MAX_VERSION: i16 = 18;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(12);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(4..=18).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "FetchRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 12;
        if version <= 14 { w.put_i32(*(&self.replica_id)); }
        if !(version <= 14) { if self.replica_id != -1 { return Err(EncodeError::FieldNotInVersion { field: "ReplicaId", version }); } }
        if !((false) || (version >= 15)) { if self.replica_state != ReplicaState::default() { return Err(EncodeError::FieldNotInVersion { field: "ReplicaState", version }); } }
        w.put_i32(*(&self.max_wait_ms));
        w.put_i32(*(&self.min_bytes));
        w.put_i32(*(&self.max_bytes));
        w.put_i8(*(&self.isolation_level));
        if version >= 7 { w.put_i32(*(&self.session_id)); }
        if version >= 7 { w.put_i32(*(&self.session_epoch)); }
        write_len_prefix(w, (&self.topics).len(), flexible)?; for e0 in (&self.topics).iter() { e0.encode(w, version)?; }
        if version >= 7 { write_len_prefix(w, (&self.forgotten_topics_data).len(), flexible)?; for e0 in (&self.forgotten_topics_data).iter() { e0.encode(w, version)?; } }
        if !(version >= 7) { if self.forgotten_topics_data != Vec::<ForgottenTopic>::new() { return Err(EncodeError::FieldNotInVersion { field: "ForgottenTopicsData", version }); } }
        if version >= 11 { write_string(w, (&self.rack_id), flexible)?; }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 12 && self.cluster_id != None { count += 1; }
            if version >= 15 && self.replica_state != ReplicaState::default() { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 12 && self.cluster_id != None { write_uvarint(w, 0); write_uvarint(w, (match (&self.cluster_id) { Some(x) => string_len(x, true), None => nullable_string_len(None, true) }) as u32); match (&self.cluster_id) { Some(x) => { write_string(w, x, true)?; } None => { if !(version >= 12) { return Err(EncodeError::NullNotAllowed { field: "ClusterId", version }); } write_nullable_string(w, None, true)?; } } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 1 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 15 && self.replica_state != ReplicaState::default() { write_uvarint(w, 1); write_uvarint(w, ((&self.replica_state).encoded_len(version)) as u32); (&self.replica_state).encode(w, version)?; }
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version <= 14 { n += 4; }
        n += 4;
        n += 4;
        n += 4;
        n += 1;
        if version >= 7 { n += 4; }
        if version >= 7 { n += 4; }
        n += len_prefix_len((&self.topics).len(), flexible) + (&self.topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if version >= 7 { n += len_prefix_len((&self.forgotten_topics_data).len(), flexible) + (&self.forgotten_topics_data).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if version >= 11 { n += string_len((&self.rack_id), flexible); }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 12 && self.cluster_id != None { count += 1; let s = match (&self.cluster_id) { Some(x) => string_len(x, true), None => nullable_string_len(None, true) }; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            if version >= 15 && self.replica_state != ReplicaState::default() { count += 1; let s = (&self.replica_state).encoded_len(version); n += uvarint_len(1) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(4..=18).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "FetchRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 14 { v.replica_id = read_i32(buf)?; }
        v.max_wait_ms = read_i32(buf)?;
        v.min_bytes = read_i32(buf)?;
        v.max_bytes = read_i32(buf)?;
        v.isolation_level = read_i8(buf)?;
        if version >= 7 { v.session_id = read_i32(buf)?; }
        if version >= 7 { v.session_epoch = read_i32(buf)?; }
        v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(FetchTopic::decode(buf, version)?); } v };
        if version >= 7 { v.forgotten_topics_data = { let n = read_array_len_non_null(buf, flexible, "ForgottenTopicsData")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(ForgottenTopic::decode(buf, version)?); } v }; }
        if version >= 11 { v.rack_id = read_string(buf, flexible, "RackId")?; }
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 if version >= 12 => { let buf = &mut field; v.cluster_id = if version >= 12 { read_nullable_string(buf, true)? } else { Some(read_string(buf, true, "ClusterId")?) }; finish_tagged_field(buf, 0)?; }
                    1 if version >= 15 => { let buf = &mut field; v.replica_state = ReplicaState::decode(buf, version)?; finish_tagged_field(buf, 1)?; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if (version >= 12) && g.bool() { v.cluster_id = if (version >= 12) && g.chance(4) { None } else { Some(g.string()) }; }
        if version <= 14 { v.replica_id = g.i32(); }
        if (version >= 15) && g.bool() { v.replica_state = ReplicaState::sample(g, version); }
        v.max_wait_ms = g.i32();
        v.min_bytes = g.i32();
        v.max_bytes = g.i32();
        v.isolation_level = g.i8();
        if version >= 7 { v.session_id = g.i32(); }
        if version >= 7 { v.session_epoch = g.i32(); }
        v.topics = (0..g.collection_len()).map(|_| FetchTopic::sample(g, version)).collect();
        if version >= 7 { v.forgotten_topics_data = (0..g.collection_len()).map(|_| ForgottenTopic::sample(g, version)).collect(); }
        if version >= 11 { v.rack_id = g.string(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        self.replica_state.each_error_code(f);
        for x in &self.topics { x.each_error_code(f); }
        for x in &self.forgotten_topics_data { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if (false) || (version >= 12) { f("ClusterId", &mut self.cluster_id); }
        if (false) || (version >= 15) { self.replica_state.each_nullable_string(version, f); }
        for x in &mut self.topics { x.each_nullable_string(version, f); }
        if version >= 7 { for x in &mut self.forgotten_topics_data { x.each_nullable_string(version, f); } }
    }
}

/// The state of the replica in the follower.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaState {
    /// The replica ID of the follower, or -1 if this request is from a consumer.
    ///
    /// Versions 15+.
    pub replica_id: i32,
    /// The epoch of this follower, or -1 if not available.
    ///
    /// Versions 15+.
    pub replica_epoch: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ReplicaState {
    fn default() -> Self {
        ReplicaState {
            replica_id: -1,
            replica_epoch: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ReplicaState {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        if version >= 15 { w.put_i32(*(&self.replica_id)); }
        if !(version >= 15) { if self.replica_id != -1 { return Err(EncodeError::FieldNotInVersion { field: "ReplicaId", version }); } }
        if version >= 15 { w.put_i64(*(&self.replica_epoch)); }
        if !(version >= 15) { if self.replica_epoch != -1 { return Err(EncodeError::FieldNotInVersion { field: "ReplicaEpoch", version }); } }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 15 { n += 4; }
        if version >= 15 { n += 8; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 15 { v.replica_id = read_i32(buf)?; }
        if version >= 15 { v.replica_epoch = read_i64(buf)?; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 15 { v.replica_id = g.i32(); }
        if version >= 15 { v.replica_epoch = g.i64(); }
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

/// The topics to fetch.
#[derive(Debug, Clone, PartialEq)]
pub struct FetchTopic {
    /// The name of the topic to fetch.
    ///
    /// Versions 0-12.
    pub topic: String,
    /// The unique topic ID.
    ///
    /// Versions 13+.
    pub topic_id: Uuid,
    /// The partitions to fetch.
    ///
    /// Versions 0+.
    pub partitions: Vec<FetchPartition>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for FetchTopic {
    fn default() -> Self {
        FetchTopic {
            topic: String::new(),
            topic_id: Uuid::nil(),
            partitions: Vec::<FetchPartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchTopic {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        if version <= 12 { write_string(w, (&self.topic), flexible)?; }
        if version >= 13 { write_uuid(w, (&self.topic_id)); }
        write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { e0.encode(w, version)?; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version <= 12 { n += string_len((&self.topic), flexible); }
        if version >= 13 { n += 16; }
        n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 12 { v.topic = read_string(buf, flexible, "Topic")?; }
        if version >= 13 { v.topic_id = read_uuid(buf)?; }
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(FetchPartition::decode(buf, version)?); } v };
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 12 { v.topic = g.string(); }
        if version >= 13 { v.topic_id = g.uuid(); }
        v.partitions = (0..g.collection_len()).map(|_| FetchPartition::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.partitions { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.partitions { x.each_nullable_string(version, f); }
    }
}

/// The partitions to fetch.
#[derive(Debug, Clone, PartialEq)]
pub struct FetchPartition {
    /// The partition index.
    ///
    /// Versions 0+.
    pub partition: i32,
    /// The current leader epoch of the partition.
    ///
    /// Versions 9+.
    pub current_leader_epoch: i32,
    /// The message offset.
    ///
    /// Versions 0+.
    pub fetch_offset: i64,
    /// The epoch of the last fetched record or -1 if there is none.
    ///
    /// Versions 12+.
    pub last_fetched_epoch: i32,
    /// The earliest available offset of the follower replica.  The field is only used when the request is sent by the follower.
    ///
    /// Versions 5+.
    pub log_start_offset: i64,
    /// The maximum bytes to fetch from this partition.  See KIP-74 for cases where this limit may not be honored.
    ///
    /// Versions 0+.
    pub partition_max_bytes: i32,
    /// The directory id of the follower fetching.
    ///
    /// Versions 17+; tag 0 in 17+.
    pub replica_directory_id: Uuid,
    /// The high-watermark known by the replica. -1 if the high-watermark is not known and 9223372036854775807 if the feature is not supported.
    ///
    /// Versions 18+; tag 1 in 18+.
    pub high_watermark: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for FetchPartition {
    fn default() -> Self {
        FetchPartition {
            partition: 0,
            current_leader_epoch: -1,
            fetch_offset: 0,
            last_fetched_epoch: -1,
            log_start_offset: -1,
            partition_max_bytes: 0,
            replica_directory_id: Uuid::nil(),
            high_watermark: 9223372036854775807,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchPartition {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        w.put_i32(*(&self.partition));
        if version >= 9 { w.put_i32(*(&self.current_leader_epoch)); }
        w.put_i64(*(&self.fetch_offset));
        if version >= 12 { w.put_i32(*(&self.last_fetched_epoch)); }
        if !(version >= 12) { if self.last_fetched_epoch != -1 { return Err(EncodeError::FieldNotInVersion { field: "LastFetchedEpoch", version }); } }
        if version >= 5 { w.put_i64(*(&self.log_start_offset)); }
        w.put_i32(*(&self.partition_max_bytes));
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 17 && self.replica_directory_id != Uuid::nil() { count += 1; }
            if version >= 18 && self.high_watermark != 9223372036854775807 { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 17 && self.replica_directory_id != Uuid::nil() { write_uvarint(w, 0); write_uvarint(w, (16) as u32); write_uuid(w, (&self.replica_directory_id)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 1 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 18 && self.high_watermark != 9223372036854775807 { write_uvarint(w, 1); write_uvarint(w, (8) as u32); w.put_i64(*(&self.high_watermark)); }
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
        if version >= 9 { n += 4; }
        n += 8;
        if version >= 12 { n += 4; }
        if version >= 5 { n += 8; }
        n += 4;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 17 && self.replica_directory_id != Uuid::nil() { count += 1; let s = 16; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            if version >= 18 && self.high_watermark != 9223372036854775807 { count += 1; let s = 8; n += uvarint_len(1) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.partition = read_i32(buf)?;
        if version >= 9 { v.current_leader_epoch = read_i32(buf)?; }
        v.fetch_offset = read_i64(buf)?;
        if version >= 12 { v.last_fetched_epoch = read_i32(buf)?; }
        if version >= 5 { v.log_start_offset = read_i64(buf)?; }
        v.partition_max_bytes = read_i32(buf)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 if version >= 17 => { let buf = &mut field; v.replica_directory_id = read_uuid(buf)?; finish_tagged_field(buf, 0)?; }
                    1 if version >= 18 => { let buf = &mut field; v.high_watermark = read_i64(buf)?; finish_tagged_field(buf, 1)?; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.partition = g.i32();
        if version >= 9 { v.current_leader_epoch = g.i32(); }
        v.fetch_offset = g.i64();
        if version >= 12 { v.last_fetched_epoch = g.i32(); }
        if version >= 5 { v.log_start_offset = g.i64(); }
        v.partition_max_bytes = g.i32();
        if (version >= 17) && g.bool() { v.replica_directory_id = g.uuid(); }
        if (version >= 18) && g.bool() { v.high_watermark = g.i64(); }
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

/// In an incremental fetch request, the partitions to remove.
#[derive(Debug, Clone, PartialEq)]
pub struct ForgottenTopic {
    /// The topic name.
    ///
    /// Versions 7-12.
    pub topic: String,
    /// The unique topic ID.
    ///
    /// Versions 13+.
    pub topic_id: Uuid,
    /// The partitions indexes to forget.
    ///
    /// Versions 7+.
    pub partitions: Vec<i32>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ForgottenTopic {
    fn default() -> Self {
        ForgottenTopic {
            topic: String::new(),
            topic_id: Uuid::nil(),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ForgottenTopic {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        if (version >= 7 && version <= 12) { write_string(w, (&self.topic), flexible)?; }
        if version >= 13 { write_uuid(w, (&self.topic_id)); }
        if version >= 7 { write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { w.put_i32(*e0); } }
        if !(version >= 7) { if self.partitions != Vec::<i32>::new() { return Err(EncodeError::FieldNotInVersion { field: "Partitions", version }); } }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if (version >= 7 && version <= 12) { n += string_len((&self.topic), flexible); }
        if version >= 13 { n += 16; }
        if version >= 7 { n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).len() * 4; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if (version >= 7 && version <= 12) { v.topic = read_string(buf, flexible, "Topic")?; }
        if version >= 13 { v.topic_id = read_uuid(buf)?; }
        if version >= 7 { v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v }; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if (version >= 7 && version <= 12) { v.topic = g.string(); }
        if version >= 13 { v.topic_id = g.uuid(); }
        if version >= 7 { v.partitions = (0..g.collection_len()).map(|_| g.i32()).collect(); }
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
