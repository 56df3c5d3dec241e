//! Generated from `ExpireDelegationTokenRequest.json` by fjord-codegen. Do not edit.

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

/// The `ExpireDelegationTokenRequest` request (api key 40, versions 1-2).
#[derive(Debug, Clone, PartialEq)]
pub struct ExpireDelegationTokenRequest {
    /// The HMAC of the delegation token to be expired.
    ///
    /// Versions 0+.
    pub hmac: Bytes,
    /// The expiry time period in milliseconds.
    ///
    /// Versions 0+.
    pub expiry_time_period_ms: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ExpireDelegationTokenRequest {
    fn default() -> Self {
        ExpireDelegationTokenRequest {
            hmac: Bytes::new(),
            expiry_time_period_ms: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ExpireDelegationTokenRequest {
    /// The message name.
    pub const NAME: &'static str = "ExpireDelegationTokenRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 2;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(2);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=2).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ExpireDelegationTokenRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        write_bytes(w, (&self.hmac), flexible)?;
        w.put_i64(*(&self.expiry_time_period_ms));
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
        n += bytes_len((&self.hmac), flexible);
        n += 8;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=2).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ExpireDelegationTokenRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.hmac = read_bytes(buf, flexible, "Hmac")?;
        v.expiry_time_period_ms = read_i64(buf)?;
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
        v.hmac = g.bytes();
        v.expiry_time_period_ms = g.i64();
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
