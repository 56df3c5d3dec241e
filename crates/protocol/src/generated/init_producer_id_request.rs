//! Generated from `InitProducerIdRequest.json` by fjord-codegen. Do not edit.

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

/// The `InitProducerIdRequest` request (api key 22, versions 0-6).
#[derive(Debug, Clone, PartialEq)]
pub struct InitProducerIdRequest {
    /// The transactional id, or null if the producer is not transactional.
    ///
    /// Versions 0+; nullable 0+.
    pub transactional_id: Option<String>,
    /// The time in ms to wait before aborting idle transactions sent by this producer. This is only relevant if a TransactionalId has been defined.
    ///
    /// Versions 0+.
    pub transaction_timeout_ms: i32,
    /// The producer id. This is used to disambiguate requests if a transactional id is reused following its expiration.
    ///
    /// Versions 3+.
    pub producer_id: i64,
    /// The producer's current epoch. This will be checked against the producer epoch on the broker, and the request will return an error if they do not match.
    ///
    /// Versions 3+.
    pub producer_epoch: i16,
    /// True if the client wants to enable two-phase commit (2PC) protocol for transactions.
    ///
    /// Versions 6+.
    pub enable2_pc: bool,
    /// True if the client wants to keep the currently ongoing transaction instead of aborting it.
    ///
    /// Versions 6+.
    pub keep_prepared_txn: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for InitProducerIdRequest {
    fn default() -> Self {
        InitProducerIdRequest {
            transactional_id: Some(String::new()),
            transaction_timeout_ms: 0,
            producer_id: -1,
            producer_epoch: -1,
            enable2_pc: false,
            keep_prepared_txn: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl InitProducerIdRequest {
    /// The message name.
    pub const NAME: &'static str = "InitProducerIdRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 6;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(2);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=6).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "InitProducerIdRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        match (&self.transactional_id) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        w.put_i32(*(&self.transaction_timeout_ms));
        if version >= 3 { w.put_i64(*(&self.producer_id)); }
        if !(version >= 3) { if self.producer_id != -1 { return Err(EncodeError::FieldNotInVersion { field: "ProducerId", version }); } }
        if version >= 3 { w.put_i16(*(&self.producer_epoch)); }
        if !(version >= 3) { if self.producer_epoch != -1 { return Err(EncodeError::FieldNotInVersion { field: "ProducerEpoch", version }); } }
        if version >= 6 { write_bool(w, *(&self.enable2_pc)); }
        if !(version >= 6) { if self.enable2_pc != false { return Err(EncodeError::FieldNotInVersion { field: "Enable2Pc", version }); } }
        if version >= 6 { write_bool(w, *(&self.keep_prepared_txn)); }
        if !(version >= 6) { if self.keep_prepared_txn != false { return Err(EncodeError::FieldNotInVersion { field: "KeepPreparedTxn", version }); } }
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += match (&self.transactional_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += 4;
        if version >= 3 { n += 8; }
        if version >= 3 { n += 2; }
        if version >= 6 { n += 1; }
        if version >= 6 { n += 1; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=6).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "InitProducerIdRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.transactional_id = read_nullable_string(buf, flexible)?;
        v.transaction_timeout_ms = read_i32(buf)?;
        if version >= 3 { v.producer_id = read_i64(buf)?; }
        if version >= 3 { v.producer_epoch = read_i16(buf)?; }
        if version >= 6 { v.enable2_pc = read_bool(buf)?; }
        if version >= 6 { v.keep_prepared_txn = read_bool(buf)?; }
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.transactional_id = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.transaction_timeout_ms = g.i32();
        if version >= 3 { v.producer_id = g.i64(); }
        if version >= 3 { v.producer_epoch = g.i16(); }
        if version >= 6 { v.enable2_pc = g.bool(); }
        if version >= 6 { v.keep_prepared_txn = g.bool(); }
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
        f("TransactionalId", &mut self.transactional_id);
    }
}
