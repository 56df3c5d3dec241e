//! Generated from `TransactionLogValue.json` by fjord-codegen. Do not edit.

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

/// The `TransactionLogValue` data (versions 0-1).
#[derive(Debug, Clone, PartialEq)]
pub struct TransactionLogValue {
    /// Producer id in use by the transactional id
    ///
    /// Versions 0+.
    pub producer_id: i64,
    /// Producer id used by the last committed transaction
    ///
    /// Versions 1+; tag 0 in 1+.
    pub previous_producer_id: i64,
    /// Latest producer ID sent to the producer for the given transactional ID
    ///
    /// Versions 1+; tag 1 in 1+.
    pub next_producer_id: i64,
    /// Epoch associated with the producer id
    ///
    /// Versions 0+.
    pub producer_epoch: i16,
    /// Transaction timeout in milliseconds
    ///
    /// Versions 0+.
    pub transaction_timeout_ms: i32,
    /// TransactionState the transaction is in
    ///
    /// Versions 0+.
    pub transaction_status: i8,
    /// Set of partitions involved in the transaction
    ///
    /// Versions 0+; nullable 0+.
    pub transaction_partitions: Option<Vec<PartitionsSchema>>,
    /// Time the transaction was last updated
    ///
    /// Versions 0+.
    pub transaction_last_update_timestamp_ms: i64,
    /// Time the transaction was started
    ///
    /// Versions 0+.
    pub transaction_start_timestamp_ms: i64,
    /// The transaction version used by the client
    ///
    /// Versions 1+; tag 2 in 1+.
    pub client_transaction_version: i16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TransactionLogValue {
    fn default() -> Self {
        TransactionLogValue {
            producer_id: 0,
            previous_producer_id: -1,
            next_producer_id: -1,
            producer_epoch: 0,
            transaction_timeout_ms: 0,
            transaction_status: 0,
            transaction_partitions: Some(Vec::<PartitionsSchema>::new()),
            transaction_last_update_timestamp_ms: 0,
            transaction_start_timestamp_ms: 0,
            client_transaction_version: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TransactionLogValue {
    /// The message name.
    pub const NAME: &'static str = "TransactionLogValue";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 1;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(1);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=1).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "TransactionLogValue", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 1;
        w.put_i64(*(&self.producer_id));
        if !((false) || (version >= 1)) { if self.previous_producer_id != -1 { return Err(EncodeError::FieldNotInVersion { field: "PreviousProducerId", version }); } }
        if !((false) || (version >= 1)) { if self.next_producer_id != -1 { return Err(EncodeError::FieldNotInVersion { field: "NextProducerId", version }); } }
        w.put_i16(*(&self.producer_epoch));
        w.put_i32(*(&self.transaction_timeout_ms));
        w.put_i8(*(&self.transaction_status));
        match (&self.transaction_partitions) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { e0.encode(w, version)?; } } None => { write_null(w, flexible); } }
        w.put_i64(*(&self.transaction_last_update_timestamp_ms));
        w.put_i64(*(&self.transaction_start_timestamp_ms));
        if !((false) || (version >= 1)) { if self.client_transaction_version != 0 { return Err(EncodeError::FieldNotInVersion { field: "ClientTransactionVersion", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 1 && self.previous_producer_id != -1 { count += 1; }
            if version >= 1 && self.next_producer_id != -1 { count += 1; }
            if version >= 1 && self.client_transaction_version != 0 { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 1 && self.previous_producer_id != -1 { write_uvarint(w, 0); write_uvarint(w, (8) as u32); w.put_i64(*(&self.previous_producer_id)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 1 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 1 && self.next_producer_id != -1 { write_uvarint(w, 1); write_uvarint(w, (8) as u32); w.put_i64(*(&self.next_producer_id)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 2 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 1 && self.client_transaction_version != 0 { write_uvarint(w, 2); write_uvarint(w, (2) as u32); w.put_i16(*(&self.client_transaction_version)); }
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 8;
        n += 2;
        n += 4;
        n += 1;
        n += match (&self.transaction_partitions) { Some(x) => len_prefix_len(x.len(), flexible) + x.iter().map(|e0| e0.encoded_len(version)).sum::<usize>(), None => null_len(flexible) };
        n += 8;
        n += 8;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 1 && self.previous_producer_id != -1 { count += 1; let s = 8; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            if version >= 1 && self.next_producer_id != -1 { count += 1; let s = 8; n += uvarint_len(1) + uvarint_len(s as u32) + s; }
            if version >= 1 && self.client_transaction_version != 0 { count += 1; let s = 2; n += uvarint_len(2) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=1).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "TransactionLogValue", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.producer_id = read_i64(buf)?;
        v.producer_epoch = read_i16(buf)?;
        v.transaction_timeout_ms = read_i32(buf)?;
        v.transaction_status = read_i8(buf)?;
        v.transaction_partitions = match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(PartitionsSchema::decode(buf, version)?); } Some(v) } };
        v.transaction_last_update_timestamp_ms = read_i64(buf)?;
        v.transaction_start_timestamp_ms = read_i64(buf)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 if version >= 1 => { let buf = &mut field; v.previous_producer_id = read_i64(buf)?; finish_tagged_field(buf, 0)?; }
                    1 if version >= 1 => { let buf = &mut field; v.next_producer_id = read_i64(buf)?; finish_tagged_field(buf, 1)?; }
                    2 if version >= 1 => { let buf = &mut field; v.client_transaction_version = read_i16(buf)?; finish_tagged_field(buf, 2)?; }
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
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.producer_id = g.i64();
        if (version >= 1) && g.bool() { v.previous_producer_id = g.i64(); }
        if (version >= 1) && g.bool() { v.next_producer_id = g.i64(); }
        v.producer_epoch = g.i16();
        v.transaction_timeout_ms = g.i32();
        v.transaction_status = g.i8();
        v.transaction_partitions = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| PartitionsSchema::sample(g, version)).collect()) };
        v.transaction_last_update_timestamp_ms = g.i64();
        v.transaction_start_timestamp_ms = g.i64();
        if (version >= 1) && g.bool() { v.client_transaction_version = g.i16(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        if let Some(v) = &self.transaction_partitions { for x in v { x.each_error_code(f); } }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if let Some(v) = &mut self.transaction_partitions { for x in v { x.each_nullable_string(version, f); } }
    }
}

/// Set of partitions involved in the transaction
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionsSchema {
    /// The Topic field.
    ///
    /// Versions 0+.
    pub topic: String,
    /// The PartitionIds field.
    ///
    /// Versions 0+.
    pub partition_ids: Vec<i32>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for PartitionsSchema {
    fn default() -> Self {
        PartitionsSchema {
            topic: String::new(),
            partition_ids: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionsSchema {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 1;
        write_string(w, (&self.topic), flexible)?;
        write_len_prefix(w, (&self.partition_ids).len(), flexible)?; for e0 in (&self.partition_ids).iter() { w.put_i32(*e0); }
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
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.topic), flexible);
        n += len_prefix_len((&self.partition_ids).len(), flexible) + (&self.partition_ids).len() * 4;
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
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.topic = read_string(buf, flexible, "Topic")?;
        v.partition_ids = { let n = read_array_len_non_null(buf, flexible, "PartitionIds")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
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
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.topic = g.string();
        v.partition_ids = (0..g.collection_len()).map(|_| g.i32()).collect();
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
