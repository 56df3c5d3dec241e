//! Generated from `ShareFetchResponse.json` by fjord-codegen. Do not edit.

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

/// The `ShareFetchResponse` response (api key 78, versions 1-2).
#[derive(Debug, Clone, PartialEq)]
pub struct ShareFetchResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 0+.
    pub throttle_time_ms: i32,
    /// The top-level response error code.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    ///
    /// Versions 0+; nullable 0+.
    pub error_message: Option<String>,
    /// The time in milliseconds for which the acquired records are locked.
    ///
    /// Versions 1+.
    pub acquisition_lock_timeout_ms: i32,
    /// The response topics.
    ///
    /// Versions 0+.
    pub responses: Vec<ShareFetchableTopicResponse>,
    /// Endpoints for all current leaders enumerated in PartitionData with error NOT_LEADER_OR_FOLLOWER.
    ///
    /// Versions 0+.
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ShareFetchResponse {
    fn default() -> Self {
        ShareFetchResponse {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: None,
            acquisition_lock_timeout_ms: 0,
            responses: Vec::<ShareFetchableTopicResponse>::new(),
            node_endpoints: Vec::<NodeEndpoint>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ShareFetchResponse {
    /// The message name.
    pub const NAME: &'static str = "ShareFetchResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 2;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(1);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=2).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ShareFetchResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.throttle_time_ms));
        w.put_i16(*(&self.error_code));
        match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        w.put_i32(*(&self.acquisition_lock_timeout_ms));
        write_len_prefix(w, (&self.responses).len(), flexible)?; for e0 in (&self.responses).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.node_endpoints).len(), flexible)?; for e0 in (&self.node_endpoints).iter() { e0.encode(w, version)?; }
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
        n += 2;
        n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += 4;
        n += len_prefix_len((&self.responses).len(), flexible) + (&self.responses).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.node_endpoints).len(), flexible) + (&self.node_endpoints).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=2).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ShareFetchResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        v.error_code = read_i16(buf)?;
        v.error_message = read_nullable_string(buf, flexible)?;
        v.acquisition_lock_timeout_ms = read_i32(buf)?;
        v.responses = { let n = read_array_len_non_null(buf, flexible, "Responses")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(ShareFetchableTopicResponse::decode(buf, version)?); } v };
        v.node_endpoints = { let n = read_array_len_non_null(buf, flexible, "NodeEndpoints")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(NodeEndpoint::decode(buf, version)?); } v };
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
        v.error_code = g.i16();
        v.error_message = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.acquisition_lock_timeout_ms = g.i32();
        v.responses = (0..g.collection_len()).map(|_| ShareFetchableTopicResponse::sample(g, version)).collect();
        v.node_endpoints = (0..g.collection_len()).map(|_| NodeEndpoint::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.responses { x.each_error_code(f); }
        for x in &self.node_endpoints { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("ErrorMessage", &mut self.error_message);
        for x in &mut self.responses { x.each_nullable_string(version, f); }
        for x in &mut self.node_endpoints { x.each_nullable_string(version, f); }
    }
}

/// The response topics.
#[derive(Debug, Clone, PartialEq)]
pub struct ShareFetchableTopicResponse {
    /// The unique topic ID.
    ///
    /// Versions 0+.
    pub topic_id: Uuid,
    /// The topic partitions.
    ///
    /// Versions 0+.
    pub partitions: Vec<PartitionData>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ShareFetchableTopicResponse {
    fn default() -> Self {
        ShareFetchableTopicResponse {
            topic_id: Uuid::nil(),
            partitions: Vec::<PartitionData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ShareFetchableTopicResponse {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_uuid(w, (&self.topic_id));
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
        let flexible = true;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 16;
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
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.topic_id = read_uuid(buf)?;
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(PartitionData::decode(buf, version)?); } v };
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
        v.partitions = (0..g.collection_len()).map(|_| PartitionData::sample(g, version)).collect();
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

/// The topic partitions.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions 0+.
    pub partition_index: i32,
    /// The fetch error code, or 0 if there was no fetch error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The fetch error message, or null if there was no fetch error.
    ///
    /// Versions 0+; nullable 0+.
    pub error_message: Option<String>,
    /// The acknowledge error code, or 0 if there was no acknowledge error.
    ///
    /// Versions 0+.
    pub acknowledge_error_code: i16,
    /// The acknowledge error message, or null if there was no acknowledge error.
    ///
    /// Versions 0+; nullable 0+.
    pub acknowledge_error_message: Option<String>,
    /// The current leader of the partition.
    ///
    /// Versions 0+.
    pub current_leader: LeaderIdAndEpoch,
    /// The record data.
    ///
    /// Versions 0+; nullable 0.
    pub records: Option<Records>,
    /// The acquired records.
    ///
    /// Versions 0+.
    pub acquired_records: Vec<AcquiredRecords>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for PartitionData {
    fn default() -> Self {
        PartitionData {
            partition_index: 0,
            error_code: 0,
            error_message: None,
            acknowledge_error_code: 0,
            acknowledge_error_message: None,
            current_leader: LeaderIdAndEpoch::default(),
            records: None,
            acquired_records: Vec::<AcquiredRecords>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionData {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.partition_index));
        w.put_i16(*(&self.error_code));
        match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        w.put_i16(*(&self.acknowledge_error_code));
        match (&self.acknowledge_error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        (&self.current_leader).encode(w, version)?;
        match (&self.records) { Some(x) => { write_records(w, x, flexible)?; } None => { if !(false) { return Err(EncodeError::NullNotAllowed { field: "Records", version }); } write_null(w, flexible); } }
        write_len_prefix(w, (&self.acquired_records).len(), flexible)?; for e0 in (&self.acquired_records).iter() { e0.encode(w, version)?; }
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
        n += 2;
        n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += 2;
        n += match (&self.acknowledge_error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += (&self.current_leader).encoded_len(version);
        n += match (&self.records) { Some(x) => records_len(x, flexible), None => null_len(flexible) };
        n += len_prefix_len((&self.acquired_records).len(), flexible) + (&self.acquired_records).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.partition_index = read_i32(buf)?;
        v.error_code = read_i16(buf)?;
        v.error_message = read_nullable_string(buf, flexible)?;
        v.acknowledge_error_code = read_i16(buf)?;
        v.acknowledge_error_message = read_nullable_string(buf, flexible)?;
        v.current_leader = LeaderIdAndEpoch::decode(buf, version)?;
        v.records = Some(Records::from(read_bytes(buf, flexible, "Records")?));
        v.acquired_records = { let n = read_array_len_non_null(buf, flexible, "AcquiredRecords")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(AcquiredRecords::decode(buf, version)?); } v };
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
        v.partition_index = g.i32();
        v.error_code = g.i16();
        v.error_message = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.acknowledge_error_code = g.i16();
        v.acknowledge_error_message = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.current_leader = LeaderIdAndEpoch::sample(g, version);
        v.records = Some(Records::from(g.bytes()));
        v.acquired_records = (0..g.collection_len()).map(|_| AcquiredRecords::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        self.current_leader.each_error_code(f);
        for x in &self.acquired_records { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("ErrorMessage", &mut self.error_message);
        f("AcknowledgeErrorMessage", &mut self.acknowledge_error_message);
        self.current_leader.each_nullable_string(version, f);
        for x in &mut self.acquired_records { x.each_nullable_string(version, f); }
    }
}

/// The current leader of the partition.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderIdAndEpoch {
    /// The ID of the current leader or -1 if the leader is unknown.
    ///
    /// Versions 0+.
    pub leader_id: i32,
    /// The latest known leader epoch.
    ///
    /// Versions 0+.
    pub leader_epoch: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for LeaderIdAndEpoch {
    fn default() -> Self {
        LeaderIdAndEpoch {
            leader_id: 0,
            leader_epoch: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl LeaderIdAndEpoch {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.leader_id));
        w.put_i32(*(&self.leader_epoch));
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
        v.leader_id = read_i32(buf)?;
        v.leader_epoch = read_i32(buf)?;
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
        v.leader_id = g.i32();
        v.leader_epoch = g.i32();
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

/// The acquired records.
#[derive(Debug, Clone, PartialEq)]
pub struct AcquiredRecords {
    /// The earliest offset in this batch of acquired records.
    ///
    /// Versions 0+.
    pub first_offset: i64,
    /// The last offset of this batch of acquired records.
    ///
    /// Versions 0+.
    pub last_offset: i64,
    /// The delivery count of this batch of acquired records.
    ///
    /// Versions 0+.
    pub delivery_count: i16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for AcquiredRecords {
    fn default() -> Self {
        AcquiredRecords {
            first_offset: 0,
            last_offset: 0,
            delivery_count: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AcquiredRecords {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i64(*(&self.first_offset));
        w.put_i64(*(&self.last_offset));
        w.put_i16(*(&self.delivery_count));
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
        n += 2;
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
        v.first_offset = read_i64(buf)?;
        v.last_offset = read_i64(buf)?;
        v.delivery_count = read_i16(buf)?;
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
        v.first_offset = g.i64();
        v.last_offset = g.i64();
        v.delivery_count = g.i16();
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

/// Endpoints for all current leaders enumerated in PartitionData with error NOT_LEADER_OR_FOLLOWER.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeEndpoint {
    /// The ID of the associated node.
    ///
    /// Versions 0+.
    pub node_id: i32,
    /// The node's hostname.
    ///
    /// Versions 0+.
    pub host: String,
    /// The node's port.
    ///
    /// Versions 0+.
    pub port: i32,
    /// The rack of the node, or null if it has not been assigned to a rack.
    ///
    /// Versions 0+; nullable 0+.
    pub rack: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for NodeEndpoint {
    fn default() -> Self {
        NodeEndpoint {
            node_id: 0,
            host: String::new(),
            port: 0,
            rack: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl NodeEndpoint {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.node_id));
        write_string(w, (&self.host), flexible)?;
        w.put_i32(*(&self.port));
        match (&self.rack) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
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
        n += string_len((&self.host), flexible);
        n += 4;
        n += match (&self.rack) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
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
        v.node_id = read_i32(buf)?;
        v.host = read_string(buf, flexible, "Host")?;
        v.port = read_i32(buf)?;
        v.rack = read_nullable_string(buf, flexible)?;
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
        v.node_id = g.i32();
        v.host = g.string();
        v.port = g.i32();
        v.rack = if (true) && g.chance(4) { None } else { Some(g.string()) };
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
        f("Rack", &mut self.rack);
    }
}
