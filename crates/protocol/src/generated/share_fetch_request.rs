//! Generated from `ShareFetchRequest.json` by fjord-codegen. Do not edit.

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

/// The `ShareFetchRequest` request (api key 78, versions 1-2).
#[derive(Debug, Clone, PartialEq)]
pub struct ShareFetchRequest {
    /// The group identifier.
    ///
    /// Versions 0+; nullable 0+.
    pub group_id: Option<String>,
    /// The member ID.
    ///
    /// Versions 0+; nullable 0+.
    pub member_id: Option<String>,
    /// The current share session epoch: 0 to open a share session; -1 to close it; otherwise increments for consecutive requests.
    ///
    /// Versions 0+.
    pub share_session_epoch: i32,
    /// The maximum time in milliseconds to wait for the response.
    ///
    /// Versions 0+.
    pub max_wait_ms: i32,
    /// The minimum bytes to accumulate in the response.
    ///
    /// Versions 0+.
    pub min_bytes: i32,
    /// The maximum bytes to fetch. See KIP-74 for cases where this limit may not be honored.
    ///
    /// Versions 0+.
    pub max_bytes: i32,
    /// The maximum number of records to fetch. This limit can be exceeded for alignment of batch boundaries.
    ///
    /// Versions 1+.
    pub max_records: i32,
    /// The optimal number of records for batches of acquired records and acknowledgements.
    ///
    /// Versions 1+.
    pub batch_size: i32,
    /// The acquire mode to control the fetch behavior - 0:batch-optimized,1:record-limit.
    ///
    /// Versions 2+.
    pub share_acquire_mode: i8,
    /// Whether Renew type acknowledgements present in AcknowledgementBatches.
    ///
    /// Versions 2+.
    pub is_renew_ack: bool,
    /// The topics to fetch.
    ///
    /// Versions 0+.
    pub topics: Vec<FetchTopic>,
    /// The partitions to remove from this share session.
    ///
    /// Versions 0+.
    pub forgotten_topics_data: Vec<ForgottenTopic>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ShareFetchRequest {
    fn default() -> Self {
        ShareFetchRequest {
            group_id: None,
            member_id: Some(String::new()),
            share_session_epoch: 0,
            max_wait_ms: 0,
            min_bytes: 0,
            max_bytes: 2147483647,
            max_records: 0,
            batch_size: 0,
            share_acquire_mode: 0,
            is_renew_ack: false,
            topics: Vec::<FetchTopic>::new(),
            forgotten_topics_data: Vec::<ForgottenTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ShareFetchRequest {
    /// The message name.
    pub const NAME: &'static str = "ShareFetchRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 2;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(1);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=2).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ShareFetchRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        match (&self.group_id) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        match (&self.member_id) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        w.put_i32(*(&self.share_session_epoch));
        w.put_i32(*(&self.max_wait_ms));
        w.put_i32(*(&self.min_bytes));
        w.put_i32(*(&self.max_bytes));
        w.put_i32(*(&self.max_records));
        w.put_i32(*(&self.batch_size));
        if version >= 2 { w.put_i8(*(&self.share_acquire_mode)); }
        if version >= 2 { write_bool(w, *(&self.is_renew_ack)); }
        if !(version >= 2) { if self.is_renew_ack != false { return Err(EncodeError::FieldNotInVersion { field: "IsRenewAck", version }); } }
        write_len_prefix(w, (&self.topics).len(), flexible)?; for e0 in (&self.topics).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.forgotten_topics_data).len(), flexible)?; for e0 in (&self.forgotten_topics_data).iter() { e0.encode(w, version)?; }
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
        n += match (&self.group_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += match (&self.member_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += 4;
        n += 4;
        n += 4;
        n += 4;
        n += 4;
        n += 4;
        if version >= 2 { n += 1; }
        if version >= 2 { n += 1; }
        n += len_prefix_len((&self.topics).len(), flexible) + (&self.topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.forgotten_topics_data).len(), flexible) + (&self.forgotten_topics_data).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=2).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ShareFetchRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.group_id = read_nullable_string(buf, flexible)?;
        v.member_id = read_nullable_string(buf, flexible)?;
        v.share_session_epoch = read_i32(buf)?;
        v.max_wait_ms = read_i32(buf)?;
        v.min_bytes = read_i32(buf)?;
        v.max_bytes = read_i32(buf)?;
        v.max_records = read_i32(buf)?;
        v.batch_size = read_i32(buf)?;
        if version >= 2 { v.share_acquire_mode = read_i8(buf)?; }
        if version >= 2 { v.is_renew_ack = read_bool(buf)?; }
        v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(FetchTopic::decode(buf, version)?); } v };
        v.forgotten_topics_data = { let n = read_array_len_non_null(buf, flexible, "ForgottenTopicsData")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(ForgottenTopic::decode(buf, version)?); } v };
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
        v.group_id = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.member_id = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.share_session_epoch = g.i32();
        v.max_wait_ms = g.i32();
        v.min_bytes = g.i32();
        v.max_bytes = g.i32();
        v.max_records = g.i32();
        v.batch_size = g.i32();
        if version >= 2 { v.share_acquire_mode = g.i8(); }
        if version >= 2 { v.is_renew_ack = g.bool(); }
        v.topics = (0..g.collection_len()).map(|_| FetchTopic::sample(g, version)).collect();
        v.forgotten_topics_data = (0..g.collection_len()).map(|_| ForgottenTopic::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.topics { x.each_error_code(f); }
        for x in &self.forgotten_topics_data { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("GroupId", &mut self.group_id);
        f("MemberId", &mut self.member_id);
        for x in &mut self.topics { x.each_nullable_string(version, f); }
        for x in &mut self.forgotten_topics_data { x.each_nullable_string(version, f); }
    }
}

/// The topics to fetch.
#[derive(Debug, Clone, PartialEq)]
pub struct FetchTopic {
    /// The unique topic ID.
    ///
    /// Versions 0+.
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
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.topic_id = g.uuid();
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
    pub partition_index: i32,
    /// The maximum bytes to fetch from this partition. 0 when only acknowledgement with no fetching is required. See KIP-74 for cases where this limit may not be honored.
    ///
    /// Versions 0.
    pub partition_max_bytes: i32,
    /// Record batches to acknowledge.
    ///
    /// Versions 0+.
    pub acknowledgement_batches: Vec<AcknowledgementBatch>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for FetchPartition {
    fn default() -> Self {
        FetchPartition {
            partition_index: 0,
            partition_max_bytes: 0,
            acknowledgement_batches: Vec::<AcknowledgementBatch>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchPartition {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.partition_index));
        if !(false) { if self.partition_max_bytes != 0 { return Err(EncodeError::FieldNotInVersion { field: "PartitionMaxBytes", version }); } }
        write_len_prefix(w, (&self.acknowledgement_batches).len(), flexible)?; for e0 in (&self.acknowledgement_batches).iter() { e0.encode(w, version)?; }
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
        n += len_prefix_len((&self.acknowledgement_batches).len(), flexible) + (&self.acknowledgement_batches).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.acknowledgement_batches = { let n = read_array_len_non_null(buf, flexible, "AcknowledgementBatches")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(AcknowledgementBatch::decode(buf, version)?); } v };
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
        v.acknowledgement_batches = (0..g.collection_len()).map(|_| AcknowledgementBatch::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.acknowledgement_batches { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.acknowledgement_batches { x.each_nullable_string(version, f); }
    }
}

/// Record batches to acknowledge.
#[derive(Debug, Clone, PartialEq)]
pub struct AcknowledgementBatch {
    /// First offset of batch of records to acknowledge.
    ///
    /// Versions 0+.
    pub first_offset: i64,
    /// Last offset (inclusive) of batch of records to acknowledge.
    ///
    /// Versions 0+.
    pub last_offset: i64,
    /// Array of acknowledge types - 0:Gap,1:Accept,2:Release,3:Reject,4:Renew.
    ///
    /// Versions 0+.
    pub acknowledge_types: Vec<i8>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for AcknowledgementBatch {
    fn default() -> Self {
        AcknowledgementBatch {
            first_offset: 0,
            last_offset: 0,
            acknowledge_types: Vec::<i8>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AcknowledgementBatch {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i64(*(&self.first_offset));
        w.put_i64(*(&self.last_offset));
        write_len_prefix(w, (&self.acknowledge_types).len(), flexible)?; for e0 in (&self.acknowledge_types).iter() { w.put_i8(*e0); }
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
        n += len_prefix_len((&self.acknowledge_types).len(), flexible) + (&self.acknowledge_types).len() * 1;
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
        v.acknowledge_types = { let n = read_array_len_non_null(buf, flexible, "AcknowledgeTypes")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i8(buf)?); } v };
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
        v.acknowledge_types = (0..g.collection_len()).map(|_| g.i8()).collect();
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

/// The partitions to remove from this share session.
#[derive(Debug, Clone, PartialEq)]
pub struct ForgottenTopic {
    /// The unique topic ID.
    ///
    /// Versions 0+.
    pub topic_id: Uuid,
    /// The partitions indexes to forget.
    ///
    /// Versions 0+.
    pub partitions: Vec<i32>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ForgottenTopic {
    fn default() -> Self {
        ForgottenTopic {
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
        let flexible = true;
        write_uuid(w, (&self.topic_id));
        write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { w.put_i32(*e0); }
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
        n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).len() * 4;
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
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
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
        v.partitions = (0..g.collection_len()).map(|_| g.i32()).collect();
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
