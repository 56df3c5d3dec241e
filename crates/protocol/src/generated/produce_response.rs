//! Generated from `ProduceResponse.json` by fjord-codegen. Do not edit.

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

/// The `ProduceResponse` response (api key 0, versions 3-13).
#[derive(Debug, Clone, PartialEq)]
pub struct ProduceResponse {
    /// Each produce response.
    ///
    /// Versions 0+.
    pub responses: Vec<TopicProduceResponse>,
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 1+.
    pub throttle_time_ms: i32,
    /// Endpoints for all current-leaders enumerated in PartitionProduceResponses, with errors NOT_LEADER_OR_FOLLOWER.
    ///
    /// Versions 10+; tag 0 in 10+.
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ProduceResponse {
    fn default() -> Self {
        ProduceResponse {
            responses: Vec::<TopicProduceResponse>::new(),
            throttle_time_ms: 0,
            node_endpoints: Vec::<NodeEndpoint>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ProduceResponse {
    /// The message name.
    pub const NAME: &'static str = "ProduceResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 3;
    /// The highest version.
    pub const MAX_VERSION: i16 = 13;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(9);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(3..=13).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ProduceResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 9;
        write_len_prefix(w, (&self.responses).len(), flexible)?; for e0 in (&self.responses).iter() { e0.encode(w, version)?; }
        w.put_i32(*(&self.throttle_time_ms));
        if !((false) || (version >= 10)) { if self.node_endpoints != Vec::<NodeEndpoint>::new() { return Err(EncodeError::FieldNotInVersion { field: "NodeEndpoints", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 10 && self.node_endpoints != Vec::<NodeEndpoint>::new() { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 10 && self.node_endpoints != Vec::<NodeEndpoint>::new() { write_uvarint(w, 0); write_uvarint(w, (len_prefix_len((&self.node_endpoints).len(), true) + (&self.node_endpoints).iter().map(|e0| e0.encoded_len(version)).sum::<usize>()) as u32); write_len_prefix(w, (&self.node_endpoints).len(), true)?; for e0 in (&self.node_endpoints).iter() { e0.encode(w, version)?; } }
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += len_prefix_len((&self.responses).len(), flexible) + (&self.responses).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += 4;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 10 && self.node_endpoints != Vec::<NodeEndpoint>::new() { count += 1; let s = len_prefix_len((&self.node_endpoints).len(), true) + (&self.node_endpoints).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(3..=13).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ProduceResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.responses = { let n = read_array_len_non_null(buf, flexible, "Responses")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicProduceResponse::decode(buf, version)?); } v };
        v.throttle_time_ms = read_i32(buf)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 if version >= 10 => { let buf = &mut field; v.node_endpoints = { let n = read_array_len_non_null(buf, true, "NodeEndpoints")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(NodeEndpoint::decode(buf, version)?); } v }; finish_tagged_field(buf, 0)?; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.responses = (0..g.collection_len()).map(|_| TopicProduceResponse::sample(g, version)).collect();
        v.throttle_time_ms = g.i32();
        if (version >= 10) && g.bool() { v.node_endpoints = (0..g.collection_len()).map(|_| NodeEndpoint::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.responses { x.each_error_code(f); }
        for x in &self.node_endpoints { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.responses { x.each_nullable_string(version, f); }
        if (false) || (version >= 10) { for x in &mut self.node_endpoints { x.each_nullable_string(version, f); } }
    }
}

/// Each produce response.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicProduceResponse {
    /// The topic name.
    ///
    /// Versions 0-12.
    pub name: String,
    /// The unique topic ID
    ///
    /// Versions 13+.
    pub topic_id: Uuid,
    /// Each partition that we produced to within the topic.
    ///
    /// Versions 0+.
    pub partition_responses: Vec<PartitionProduceResponse>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopicProduceResponse {
    fn default() -> Self {
        TopicProduceResponse {
            name: String::new(),
            topic_id: Uuid::nil(),
            partition_responses: Vec::<PartitionProduceResponse>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicProduceResponse {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 9;
        if version <= 12 { write_string(w, (&self.name), flexible)?; }
        if version >= 13 { write_uuid(w, (&self.topic_id)); }
        write_len_prefix(w, (&self.partition_responses).len(), flexible)?; for e0 in (&self.partition_responses).iter() { e0.encode(w, version)?; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version <= 12 { n += string_len((&self.name), flexible); }
        if version >= 13 { n += 16; }
        n += len_prefix_len((&self.partition_responses).len(), flexible) + (&self.partition_responses).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 12 { v.name = read_string(buf, flexible, "Name")?; }
        if version >= 13 { v.topic_id = read_uuid(buf)?; }
        v.partition_responses = { let n = read_array_len_non_null(buf, flexible, "PartitionResponses")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(PartitionProduceResponse::decode(buf, version)?); } v };
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 12 { v.name = g.string(); }
        if version >= 13 { v.topic_id = g.uuid(); }
        v.partition_responses = (0..g.collection_len()).map(|_| PartitionProduceResponse::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.partition_responses { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.partition_responses { x.each_nullable_string(version, f); }
    }
}

/// Each partition that we produced to within the topic.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionProduceResponse {
    /// The partition index.
    ///
    /// Versions 0+.
    pub index: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The base offset.
    ///
    /// Versions 0+.
    pub base_offset: i64,
    /// The timestamp returned by broker after appending the messages. If CreateTime is used for the topic, the timestamp will be -1.  If LogAppendTime is used for the topic, the timestamp will be the broker local time when the messages are appended.
    ///
    /// Versions 2+.
    pub log_append_time_ms: i64,
    /// The log start offset.
    ///
    /// Versions 5+.
    pub log_start_offset: i64,
    /// The batch indices of records that caused the batch to be dropped.
    ///
    /// Versions 8+.
    pub record_errors: Vec<BatchIndexAndErrorMessage>,
    /// The global error message summarizing the common root cause of the records that caused the batch to be dropped.
    ///
    /// Versions 8+; nullable 8+.
    pub error_message: Option<String>,
    /// The leader broker that the producer should use for future requests.
    ///
    /// Versions 10+; tag 0 in 10+.
    pub current_leader: LeaderIdAndEpoch,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for PartitionProduceResponse {
    fn default() -> Self {
        PartitionProduceResponse {
            index: 0,
            error_code: 0,
            base_offset: 0,
            log_append_time_ms: -1,
            log_start_offset: -1,
            record_errors: Vec::<BatchIndexAndErrorMessage>::new(),
            error_message: None,
            current_leader: LeaderIdAndEpoch::default(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionProduceResponse {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 9;
        w.put_i32(*(&self.index));
        w.put_i16(*(&self.error_code));
        w.put_i64(*(&self.base_offset));
        w.put_i64(*(&self.log_append_time_ms));
        if version >= 5 { w.put_i64(*(&self.log_start_offset)); }
        if version >= 8 { write_len_prefix(w, (&self.record_errors).len(), flexible)?; for e0 in (&self.record_errors).iter() { e0.encode(w, version)?; } }
        if version >= 8 { match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 8) { return Err(EncodeError::NullNotAllowed { field: "ErrorMessage", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !((false) || (version >= 10)) { if self.current_leader != LeaderIdAndEpoch::default() { return Err(EncodeError::FieldNotInVersion { field: "CurrentLeader", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 10 && self.current_leader != LeaderIdAndEpoch::default() { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 10 && self.current_leader != LeaderIdAndEpoch::default() { write_uvarint(w, 0); write_uvarint(w, ((&self.current_leader).encoded_len(version)) as u32); (&self.current_leader).encode(w, version)?; }
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
        n += 2;
        n += 8;
        n += 8;
        if version >= 5 { n += 8; }
        if version >= 8 { n += len_prefix_len((&self.record_errors).len(), flexible) + (&self.record_errors).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if version >= 8 { n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 10 && self.current_leader != LeaderIdAndEpoch::default() { count += 1; let s = (&self.current_leader).encoded_len(version); n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.index = read_i32(buf)?;
        v.error_code = read_i16(buf)?;
        v.base_offset = read_i64(buf)?;
        v.log_append_time_ms = read_i64(buf)?;
        if version >= 5 { v.log_start_offset = read_i64(buf)?; }
        if version >= 8 { v.record_errors = { let n = read_array_len_non_null(buf, flexible, "RecordErrors")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(BatchIndexAndErrorMessage::decode(buf, version)?); } v }; }
        if version >= 8 { v.error_message = if version >= 8 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "ErrorMessage")?) }; }
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 if version >= 10 => { let buf = &mut field; v.current_leader = LeaderIdAndEpoch::decode(buf, version)?; finish_tagged_field(buf, 0)?; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.index = g.i32();
        v.error_code = g.i16();
        v.base_offset = g.i64();
        v.log_append_time_ms = g.i64();
        if version >= 5 { v.log_start_offset = g.i64(); }
        if version >= 8 { v.record_errors = (0..g.collection_len()).map(|_| BatchIndexAndErrorMessage::sample(g, version)).collect(); }
        if version >= 8 { v.error_message = if (version >= 8) && g.chance(4) { None } else { Some(g.string()) }; }
        if (version >= 10) && g.bool() { v.current_leader = LeaderIdAndEpoch::sample(g, version); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.record_errors { x.each_error_code(f); }
        self.current_leader.each_error_code(f);
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 8 { for x in &mut self.record_errors { x.each_nullable_string(version, f); } }
        if version >= 8 { f("ErrorMessage", &mut self.error_message); }
        if (false) || (version >= 10) { self.current_leader.each_nullable_string(version, f); }
    }
}

/// The batch indices of records that caused the batch to be dropped.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchIndexAndErrorMessage {
    /// The batch index of the record that caused the batch to be dropped.
    ///
    /// Versions 8+.
    pub batch_index: i32,
    /// The error message of the record that caused the batch to be dropped.
    ///
    /// Versions 8+; nullable 8+.
    pub batch_index_error_message: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for BatchIndexAndErrorMessage {
    fn default() -> Self {
        BatchIndexAndErrorMessage {
            batch_index: 0,
            batch_index_error_message: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl BatchIndexAndErrorMessage {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 9;
        if version >= 8 { w.put_i32(*(&self.batch_index)); }
        if !(version >= 8) { if self.batch_index != 0 { return Err(EncodeError::FieldNotInVersion { field: "BatchIndex", version }); } }
        if version >= 8 { match (&self.batch_index_error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 8) { return Err(EncodeError::NullNotAllowed { field: "BatchIndexErrorMessage", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 8) { if self.batch_index_error_message != None { return Err(EncodeError::FieldNotInVersion { field: "BatchIndexErrorMessage", version }); } }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 8 { n += 4; }
        if version >= 8 { n += match (&self.batch_index_error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 8 { v.batch_index = read_i32(buf)?; }
        if version >= 8 { v.batch_index_error_message = if version >= 8 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "BatchIndexErrorMessage")?) }; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 8 { v.batch_index = g.i32(); }
        if version >= 8 { v.batch_index_error_message = if (version >= 8) && g.chance(4) { None } else { Some(g.string()) }; }
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
        if version >= 8 { f("BatchIndexErrorMessage", &mut self.batch_index_error_message); }
    }
}

/// The leader broker that the producer should use for future requests.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderIdAndEpoch {
    /// The ID of the current leader or -1 if the leader is unknown.
    ///
    /// Versions 10+.
    pub leader_id: i32,
    /// The latest known leader epoch.
    ///
    /// Versions 10+.
    pub leader_epoch: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for LeaderIdAndEpoch {
    fn default() -> Self {
        LeaderIdAndEpoch {
            leader_id: -1,
            leader_epoch: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl LeaderIdAndEpoch {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 9;
        if version >= 10 { w.put_i32(*(&self.leader_id)); }
        if !(version >= 10) { if self.leader_id != -1 { return Err(EncodeError::FieldNotInVersion { field: "LeaderId", version }); } }
        if version >= 10 { w.put_i32(*(&self.leader_epoch)); }
        if !(version >= 10) { if self.leader_epoch != -1 { return Err(EncodeError::FieldNotInVersion { field: "LeaderEpoch", version }); } }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 10 { n += 4; }
        if version >= 10 { n += 4; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 10 { v.leader_id = read_i32(buf)?; }
        if version >= 10 { v.leader_epoch = read_i32(buf)?; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 10 { v.leader_id = g.i32(); }
        if version >= 10 { v.leader_epoch = g.i32(); }
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

/// Endpoints for all current-leaders enumerated in PartitionProduceResponses, with errors NOT_LEADER_OR_FOLLOWER.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeEndpoint {
    /// The ID of the associated node.
    ///
    /// Versions 10+.
    pub node_id: i32,
    /// The node's hostname.
    ///
    /// Versions 10+.
    pub host: String,
    /// The node's port.
    ///
    /// Versions 10+.
    pub port: i32,
    /// The rack of the node, or null if it has not been assigned to a rack.
    ///
    /// Versions 10+; nullable 10+.
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
        let flexible = version >= 9;
        if version >= 10 { w.put_i32(*(&self.node_id)); }
        if !(version >= 10) { if self.node_id != 0 { return Err(EncodeError::FieldNotInVersion { field: "NodeId", version }); } }
        if version >= 10 { write_string(w, (&self.host), flexible)?; }
        if !(version >= 10) { if self.host != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Host", version }); } }
        if version >= 10 { w.put_i32(*(&self.port)); }
        if !(version >= 10) { if self.port != 0 { return Err(EncodeError::FieldNotInVersion { field: "Port", version }); } }
        if version >= 10 { match (&self.rack) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 10) { return Err(EncodeError::NullNotAllowed { field: "Rack", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 10) { if self.rack != None { return Err(EncodeError::FieldNotInVersion { field: "Rack", version }); } }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 10 { n += 4; }
        if version >= 10 { n += string_len((&self.host), flexible); }
        if version >= 10 { n += 4; }
        if version >= 10 { n += match (&self.rack) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 10 { v.node_id = read_i32(buf)?; }
        if version >= 10 { v.host = read_string(buf, flexible, "Host")?; }
        if version >= 10 { v.port = read_i32(buf)?; }
        if version >= 10 { v.rack = if version >= 10 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "Rack")?) }; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 10 { v.node_id = g.i32(); }
        if version >= 10 { v.host = g.string(); }
        if version >= 10 { v.port = g.i32(); }
        if version >= 10 { v.rack = if (version >= 10) && g.chance(4) { None } else { Some(g.string()) }; }
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
        if version >= 10 { f("Rack", &mut self.rack); }
    }
}
