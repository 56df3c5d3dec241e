//! Generated from `AddPartitionsToTxnRequest.json` by fjord-codegen. Do not edit.

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

/// The `AddPartitionsToTxnRequest` request (api key 24, versions 0-5).
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnRequest {
    /// List of transactions to add partitions to.
    ///
    /// Versions 4+.
    pub transactions: Vec<AddPartitionsToTxnTransaction>,
    /// The transactional id corresponding to the transaction.
    ///
    /// Versions 0-3.
    pub v3_and_below_transactional_id: String,
    /// Current producer id in use by the transactional id.
    ///
    /// Versions 0-3.
    pub v3_and_below_producer_id: i64,
    /// Current epoch associated with the producer id.
    ///
    /// Versions 0-3.
    pub v3_and_below_producer_epoch: i16,
    /// The partitions to add to the transaction.
    ///
    /// Versions 0-3.
    pub v3_and_below_topics: Vec<AddPartitionsToTxnTopic>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for AddPartitionsToTxnRequest {
    fn default() -> Self {
        AddPartitionsToTxnRequest {
            transactions: Vec::<AddPartitionsToTxnTransaction>::new(),
            v3_and_below_transactional_id: String::new(),
            v3_and_below_producer_id: 0,
            v3_and_below_producer_epoch: 0,
            v3_and_below_topics: Vec::<AddPartitionsToTxnTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnRequest {
    /// The message name.
    pub const NAME: &'static str = "AddPartitionsToTxnRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 5;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(3);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=5).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "AddPartitionsToTxnRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        if version >= 4 { write_len_prefix(w, (&self.transactions).len(), flexible)?; for e0 in (&self.transactions).iter() { e0.encode(w, version)?; } }
        if !(version >= 4) { if self.transactions != Vec::<AddPartitionsToTxnTransaction>::new() { return Err(EncodeError::FieldNotInVersion { field: "Transactions", version }); } }
        if version <= 3 { write_string(w, (&self.v3_and_below_transactional_id), flexible)?; }
        if !(version <= 3) { if self.v3_and_below_transactional_id != String::new() { return Err(EncodeError::FieldNotInVersion { field: "V3AndBelowTransactionalId", version }); } }
        if version <= 3 { w.put_i64(*(&self.v3_and_below_producer_id)); }
        if !(version <= 3) { if self.v3_and_below_producer_id != 0 { return Err(EncodeError::FieldNotInVersion { field: "V3AndBelowProducerId", version }); } }
        if version <= 3 { w.put_i16(*(&self.v3_and_below_producer_epoch)); }
        if !(version <= 3) { if self.v3_and_below_producer_epoch != 0 { return Err(EncodeError::FieldNotInVersion { field: "V3AndBelowProducerEpoch", version }); } }
        if version <= 3 { write_len_prefix(w, (&self.v3_and_below_topics).len(), flexible)?; for e0 in (&self.v3_and_below_topics).iter() { e0.encode(w, version)?; } }
        if !(version <= 3) { if self.v3_and_below_topics != Vec::<AddPartitionsToTxnTopic>::new() { return Err(EncodeError::FieldNotInVersion { field: "V3AndBelowTopics", version }); } }
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
        if version >= 4 { n += len_prefix_len((&self.transactions).len(), flexible) + (&self.transactions).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if version <= 3 { n += string_len((&self.v3_and_below_transactional_id), flexible); }
        if version <= 3 { n += 8; }
        if version <= 3 { n += 2; }
        if version <= 3 { n += len_prefix_len((&self.v3_and_below_topics).len(), flexible) + (&self.v3_and_below_topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=5).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "AddPartitionsToTxnRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 4 { v.transactions = { let n = read_array_len_non_null(buf, flexible, "Transactions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(AddPartitionsToTxnTransaction::decode(buf, version)?); } v }; }
        if version <= 3 { v.v3_and_below_transactional_id = read_string(buf, flexible, "V3AndBelowTransactionalId")?; }
        if version <= 3 { v.v3_and_below_producer_id = read_i64(buf)?; }
        if version <= 3 { v.v3_and_below_producer_epoch = read_i16(buf)?; }
        if version <= 3 { v.v3_and_below_topics = { let n = read_array_len_non_null(buf, flexible, "V3AndBelowTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(AddPartitionsToTxnTopic::decode(buf, version)?); } v }; }
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
        if version >= 4 { v.transactions = (0..g.collection_len()).map(|_| AddPartitionsToTxnTransaction::sample(g, version)).collect(); }
        if version <= 3 { v.v3_and_below_transactional_id = g.string(); }
        if version <= 3 { v.v3_and_below_producer_id = g.i64(); }
        if version <= 3 { v.v3_and_below_producer_epoch = g.i16(); }
        if version <= 3 { v.v3_and_below_topics = (0..g.collection_len()).map(|_| AddPartitionsToTxnTopic::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.transactions { x.each_error_code(f); }
        for x in &self.v3_and_below_topics { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 4 { for x in &mut self.transactions { x.each_nullable_string(version, f); } }
        if version <= 3 { for x in &mut self.v3_and_below_topics { x.each_nullable_string(version, f); } }
    }
}

/// List of transactions to add partitions to.
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnTransaction {
    /// The transactional id corresponding to the transaction.
    ///
    /// Versions 4+.
    pub transactional_id: String,
    /// Current producer id in use by the transactional id.
    ///
    /// Versions 4+.
    pub producer_id: i64,
    /// Current epoch associated with the producer id.
    ///
    /// Versions 4+.
    pub producer_epoch: i16,
    /// Boolean to signify if we want to check if the partition is in the transaction rather than add it.
    ///
    /// Versions 4+.
    pub verify_only: bool,
    /// The partitions to add to the transaction.
    ///
    /// Versions 4+.
    pub topics: Vec<AddPartitionsToTxnTopic>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for AddPartitionsToTxnTransaction {
    fn default() -> Self {
        AddPartitionsToTxnTransaction {
            transactional_id: String::new(),
            producer_id: 0,
            producer_epoch: 0,
            verify_only: false,
            topics: Vec::<AddPartitionsToTxnTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnTransaction {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 3;
        if version >= 4 { write_string(w, (&self.transactional_id), flexible)?; }
        if !(version >= 4) { if self.transactional_id != String::new() { return Err(EncodeError::FieldNotInVersion { field: "TransactionalId", version }); } }
        if version >= 4 { w.put_i64(*(&self.producer_id)); }
        if !(version >= 4) { if self.producer_id != 0 { return Err(EncodeError::FieldNotInVersion { field: "ProducerId", version }); } }
        if version >= 4 { w.put_i16(*(&self.producer_epoch)); }
        if !(version >= 4) { if self.producer_epoch != 0 { return Err(EncodeError::FieldNotInVersion { field: "ProducerEpoch", version }); } }
        if version >= 4 { write_bool(w, *(&self.verify_only)); }
        if !(version >= 4) { if self.verify_only != false { return Err(EncodeError::FieldNotInVersion { field: "VerifyOnly", version }); } }
        if version >= 4 { write_len_prefix(w, (&self.topics).len(), flexible)?; for e0 in (&self.topics).iter() { e0.encode(w, version)?; } }
        if !(version >= 4) { if self.topics != Vec::<AddPartitionsToTxnTopic>::new() { return Err(EncodeError::FieldNotInVersion { field: "Topics", version }); } }
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
        if version >= 4 { n += 8; }
        if version >= 4 { n += 2; }
        if version >= 4 { n += 1; }
        if version >= 4 { n += len_prefix_len((&self.topics).len(), flexible) + (&self.topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
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
        if version >= 4 { v.producer_id = read_i64(buf)?; }
        if version >= 4 { v.producer_epoch = read_i16(buf)?; }
        if version >= 4 { v.verify_only = read_bool(buf)?; }
        if version >= 4 { v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(AddPartitionsToTxnTopic::decode(buf, version)?); } v }; }
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
        if version >= 4 { v.producer_id = g.i64(); }
        if version >= 4 { v.producer_epoch = g.i16(); }
        if version >= 4 { v.verify_only = g.bool(); }
        if version >= 4 { v.topics = (0..g.collection_len()).map(|_| AddPartitionsToTxnTopic::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.topics { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 4 { for x in &mut self.topics { x.each_nullable_string(version, f); } }
    }
}

/// The common struct `AddPartitionsToTxnTopic`.
#[derive(Debug, Clone, PartialEq)]
pub struct AddPartitionsToTxnTopic {
    /// The name of the topic.
    ///
    /// Versions 0+.
    pub name: String,
    /// The partition indexes to add to the transaction.
    ///
    /// Versions 0+.
    pub partitions: Vec<i32>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for AddPartitionsToTxnTopic {
    fn default() -> Self {
        AddPartitionsToTxnTopic {
            name: String::new(),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddPartitionsToTxnTopic {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 3;
        write_string(w, (&self.name), flexible)?;
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.name), flexible);
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = read_string(buf, flexible, "Name")?;
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = g.string();
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
