//! Generated from `AddPartitionsToTxnResponse.json` by fjord-codegen. Do not edit.

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

/// The `AddPartitionsToTxnResponse` response (api key 24, versions 0-5).
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnResponse {
    /// Duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 0+.
    pub throttle_time_ms: i32,
    /// The response top level error code.
    ///
    /// Versions 4+.
    pub error_code: i16,
    /// Results categorized by transactional ID.
    ///
    /// Versions 4+.
    pub results_by_transaction: Vec<AddPartitionsToTxnResult>,
    /// The results for each topic.
    ///
    /// Versions 0-3.
    pub results_by_topic_v3_and_below: Vec<AddPartitionsToTxnTopicResult>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for AddPartitionsToTxnResponse {
    fn default() -> Self {
        AddPartitionsToTxnResponse {
            throttle_time_ms: 0,
            error_code: 0,
            results_by_transaction: Vec::<AddPartitionsToTxnResult>::new(),
            results_by_topic_v3_and_below: Vec::<AddPartitionsToTxnTopicResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnResponse {
    /// The message name.
    pub const NAME: &'static str = "AddPartitionsToTxnResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 5;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(3);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=5).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "AddPartitionsToTxnResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        w.put_i32(*(&self.throttle_time_ms));
        if version >= 4 { w.put_i16(*(&self.error_code)); }
        if version >= 4 { write_len_prefix(w, (&self.results_by_transaction).len(), flexible)?; for e0 in (&self.results_by_transaction).iter() { e0.encode(w, version)?; } }
        if !(version >= 4) { if self.results_by_transaction != Vec::<AddPartitionsToTxnResult>::new() { return Err(EncodeError::FieldNotInVersion { field: "ResultsByTransaction", version }); } }
        if version <= 3 { write_len_prefix(w, (&self.results_by_topic_v3_and_below).len(), flexible)?; for e0 in (&self.results_by_topic_v3_and_below).iter() { e0.encode(w, version)?; } }
        if !(version <= 3) { if self.results_by_topic_v3_and_below != Vec::<AddPartitionsToTxnTopicResult>::new() { return Err(EncodeError::FieldNotInVersion { field: "ResultsByTopicV3AndBelow", version }); } }
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
        if version >= 4 { n += 2; }
        if version >= 4 { n += len_prefix_len((&self.results_by_transaction).len(), flexible) + (&self.results_by_transaction).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if version <= 3 { n += len_prefix_len((&self.results_by_topic_v3_and_below).len(), flexible) + (&self.results_by_topic_v3_and_below).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=5).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "AddPartitionsToTxnResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        if version >= 4 { v.error_code = read_i16(buf)?; }
        if version >= 4 { v.results_by_transaction = { let n = read_array_len_non_null(buf, flexible, "ResultsByTransaction")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(AddPartitionsToTxnResult::decode(buf, version)?); } v }; }
        if version <= 3 { v.results_by_topic_v3_and_below = { let n = read_array_len_non_null(buf, flexible, "ResultsByTopicV3AndBelow")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(AddPartitionsToTxnTopicResult::decode(buf, version)?); } v }; }
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = g.i32();
        if version >= 4 { v.error_code = g.i16(); }
        if version >= 4 { v.results_by_transaction = (0..g.collection_len()).map(|_| AddPartitionsToTxnResult::sample(g, version)).collect(); }
        if version <= 3 { v.results_by_topic_v3_and_below = (0..g.collection_len()).map(|_| AddPartitionsToTxnTopicResult::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.results_by_transaction { x.each_error_code(f); }
        for x in &self.results_by_topic_v3_and_below { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 4 { for x in &mut self.results_by_transaction { x.each_nullable_string(version, f); } }
        if version <= 3 { for x in &mut self.results_by_topic_v3_and_below { x.each_nullable_string(version, f); } }
    }
}

/// Results categorized by transactional ID.
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnResult {
    /// The transactional id corresponding to the transaction.
    ///
    /// Versions 4+.
    pub transactional_id: String,
    /// The results for each topic.
    ///
    /// Versions 4+.
    pub topic_results: Vec<AddPartitionsToTxnTopicResult>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for AddPartitionsToTxnResult {
    fn default() -> Self {
        AddPartitionsToTxnResult {
            transactional_id: String::new(),
            topic_results: Vec::<AddPartitionsToTxnTopicResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnResult {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 3;
        if version >= 4 { write_string(w, (&self.transactional_id), flexible)?; }
        if !(version >= 4) { if self.transactional_id != String::new() { return Err(EncodeError::FieldNotInVersion { field: "TransactionalId", version }); } }
        if version >= 4 { write_len_prefix(w, (&self.topic_results).len(), flexible)?; for e0 in (&self.topic_results).iter() { e0.encode(w, version)?; } }
        if !(version >= 4) { if self.topic_results != Vec::<AddPartitionsToTxnTopicResult>::new() { return Err(EncodeError::FieldNotInVersion { field: "TopicResults", version }); } }
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 4 { n += string_len((&self.transactional_id), flexible); }
        if version >= 4 { n += len_prefix_len((&self.topic_results).len(), flexible) + (&self.topic_results).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 4 { v.transactional_id = read_string(buf, flexible, "TransactionalId")?; }
        if version >= 4 { v.topic_results = { let n = read_array_len_non_null(buf, flexible, "TopicResults")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(AddPartitionsToTxnTopicResult::decode(buf, version)?); } v }; }
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 4 { v.transactional_id = g.string(); }
        if version >= 4 { v.topic_results = (0..g.collection_len()).map(|_| AddPartitionsToTxnTopicResult::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.topic_results { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 4 { for x in &mut self.topic_results { x.each_nullable_string(version, f); } }
    }
}

/// The common struct `AddPartitionsToTxnTopicResult`.
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnTopicResult {
    /// The topic name.
    ///
    /// Versions 0+.
    pub name: String,
    /// The results for each partition.
    ///
    /// Versions 0+.
    pub results_by_partition: Vec<AddPartitionsToTxnPartitionResult>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for AddPartitionsToTxnTopicResult {
    fn default() -> Self {
        AddPartitionsToTxnTopicResult {
            name: String::new(),
            results_by_partition: Vec::<AddPartitionsToTxnPartitionResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnTopicResult {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 3;
        write_string(w, (&self.name), flexible)?;
        write_len_prefix(w, (&self.results_by_partition).len(), flexible)?; for e0 in (&self.results_by_partition).iter() { e0.encode(w, version)?; }
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.name), flexible);
        n += len_prefix_len((&self.results_by_partition).len(), flexible) + (&self.results_by_partition).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = read_string(buf, flexible, "Name")?;
        v.results_by_partition = { let n = read_array_len_non_null(buf, flexible, "ResultsByPartition")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(AddPartitionsToTxnPartitionResult::decode(buf, version)?); } v };
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = g.string();
        v.results_by_partition = (0..g.collection_len()).map(|_| AddPartitionsToTxnPartitionResult::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.results_by_partition { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.results_by_partition { x.each_nullable_string(version, f); }
    }
}

/// The common struct `AddPartitionsToTxnPartitionResult`.
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnPartitionResult {
    /// The partition indexes.
    ///
    /// Versions 0+.
    pub partition_index: i32,
    /// The response error code.
    ///
    /// Versions 0+.
    pub partition_error_code: i16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for AddPartitionsToTxnPartitionResult {
    fn default() -> Self {
        AddPartitionsToTxnPartitionResult {
            partition_index: 0,
            partition_error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnPartitionResult {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 3;
        w.put_i32(*(&self.partition_index));
        w.put_i16(*(&self.partition_error_code));
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.partition_index = read_i32(buf)?;
        v.partition_error_code = read_i16(buf)?;
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.partition_index = g.i32();
        v.partition_error_code = g.i16();
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
