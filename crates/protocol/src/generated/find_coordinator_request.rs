//! Generated from `FindCoordinatorRequest.json` by fjord-codegen. Do not edit.

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

/// The `FindCoordinatorRequest` request (api key 10, versions 0-6).
#[derive(Debug, Clone, PartialEq)]
pub struct FindCoordinatorRequest {
    /// The coordinator key.
    ///
    /// Versions 0-3.
    pub key: String,
    /// The coordinator key type. (group, transaction, share).
    ///
    /// Versions 1+.
    pub key_type: i8,
    /// The coordinator keys.
    ///
    /// Versions 4+.
    pub coordinator_keys: Vec<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for FindCoordinatorRequest {
    fn default() -> Self {
        FindCoordinatorRequest {
            key: String::new(),
            key_type: 0,
            coordinator_keys: Vec::<String>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FindCoordinatorRequest {
    /// The message name.
    pub const NAME: &'static str = "FindCoordinatorRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 6;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(3);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=6).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "FindCoordinatorRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        if version <= 3 { write_string(w, (&self.key), flexible)?; }
        if !(version <= 3) { if self.key != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Key", version }); } }
        if version >= 1 { w.put_i8(*(&self.key_type)); }
        if !(version >= 1) { if self.key_type != 0 { return Err(EncodeError::FieldNotInVersion { field: "KeyType", version }); } }
        if version >= 4 { write_len_prefix(w, (&self.coordinator_keys).len(), flexible)?; for e0 in (&self.coordinator_keys).iter() { write_string(w, e0, flexible)?; } }
        if !(version >= 4) { if self.coordinator_keys != Vec::<String>::new() { return Err(EncodeError::FieldNotInVersion { field: "CoordinatorKeys", version }); } }
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
        if version <= 3 { n += string_len((&self.key), flexible); }
        if version >= 1 { n += 1; }
        if version >= 4 { n += len_prefix_len((&self.coordinator_keys).len(), flexible) + (&self.coordinator_keys).iter().map(|e0| string_len(e0, flexible)).sum::<usize>(); }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=6).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "FindCoordinatorRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 3 { v.key = read_string(buf, flexible, "Key")?; }
        if version >= 1 { v.key_type = read_i8(buf)?; }
        if version >= 4 { v.coordinator_keys = { let n = read_array_len_non_null(buf, flexible, "CoordinatorKeys")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "CoordinatorKeys")?); } v }; }
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
        if version <= 3 { v.key = g.string(); }
        if version >= 1 { v.key_type = g.i8(); }
        if version >= 4 { v.coordinator_keys = (0..g.collection_len()).map(|_| g.string()).collect(); }
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
