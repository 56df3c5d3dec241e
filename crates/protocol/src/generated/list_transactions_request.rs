//! Generated from `ListTransactionsRequest.json` by fjord-codegen. Do not edit.

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

/// The `ListTransactionsRequest` request (api key 66, versions 0-2).
#[derive(Debug, Clone, PartialEq)]
pub struct ListTransactionsRequest {
    /// The transaction states to filter by: if empty, all transactions are returned; if non-empty, then only transactions matching one of the filtered states will be returned.
    ///
    /// Versions 0+.
    pub state_filters: Vec<String>,
    /// The producerIds to filter by: if empty, all transactions will be returned; if non-empty, only transactions which match one of the filtered producerIds will be returned.
    ///
    /// Versions 0+.
    pub producer_id_filters: Vec<i64>,
    /// Duration (in millis) to filter by: if < 0, all transactions will be returned; otherwise, only transactions running longer than this duration will be returned.
    ///
    /// Versions 1+.
    pub duration_filter: i64,
    /// The transactional ID regular expression pattern to filter by: if it is empty or null, all transactions are returned; Otherwise then only the transactions matching the given regular expression will be returned.
    ///
    /// Versions 2+; nullable 2+.
    pub transactional_id_pattern: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ListTransactionsRequest {
    fn default() -> Self {
        ListTransactionsRequest {
            state_filters: Vec::<String>::new(),
            producer_id_filters: Vec::<i64>::new(),
            duration_filter: -1,
            transactional_id_pattern: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ListTransactionsRequest {
    /// The message name.
    pub const NAME: &'static str = "ListTransactionsRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 2;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=2).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ListTransactionsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        write_len_prefix(w, (&self.state_filters).len(), flexible)?; for e0 in (&self.state_filters).iter() { write_string(w, e0, flexible)?; }
        write_len_prefix(w, (&self.producer_id_filters).len(), flexible)?; for e0 in (&self.producer_id_filters).iter() { w.put_i64(*e0); }
        if version >= 1 { w.put_i64(*(&self.duration_filter)); }
        if !(version >= 1) { if self.duration_filter != -1 { return Err(EncodeError::FieldNotInVersion { field: "DurationFilter", version }); } }
        if version >= 2 { match (&self.transactional_id_pattern) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 2) { return Err(EncodeError::NullNotAllowed { field: "TransactionalIdPattern", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 2) { if self.transactional_id_pattern != None { return Err(EncodeError::FieldNotInVersion { field: "TransactionalIdPattern", version }); } }
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
        n += len_prefix_len((&self.state_filters).len(), flexible) + (&self.state_filters).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n += len_prefix_len((&self.producer_id_filters).len(), flexible) + (&self.producer_id_filters).len() * 8;
        if version >= 1 { n += 8; }
        if version >= 2 { n += match (&self.transactional_id_pattern) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=2).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ListTransactionsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.state_filters = { let n = read_array_len_non_null(buf, flexible, "StateFilters")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "StateFilters")?); } v };
        v.producer_id_filters = { let n = read_array_len_non_null(buf, flexible, "ProducerIdFilters")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i64(buf)?); } v };
        if version >= 1 { v.duration_filter = read_i64(buf)?; }
        if version >= 2 { v.transactional_id_pattern = if version >= 2 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "TransactionalIdPattern")?) }; }
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
        v.state_filters = (0..g.collection_len()).map(|_| g.string()).collect();
        v.producer_id_filters = (0..g.collection_len()).map(|_| g.i64()).collect();
        if version >= 1 { v.duration_filter = g.i64(); }
        if version >= 2 { v.transactional_id_pattern = if (version >= 2) && g.chance(4) { None } else { Some(g.string()) }; }
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
        if version >= 2 { f("TransactionalIdPattern", &mut self.transactional_id_pattern); }
    }
}
