//! Generated from `RequestHeader.json` by fjord-codegen. Do not edit.

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

/// The `RequestHeader` header (versions 0-2).
#[derive(Debug, Clone, PartialEq)]
pub struct RequestHeader {
    /// The API key of this request.
    ///
    /// Versions 0+.
    pub request_api_key: i16,
    /// The API version of this request.
    ///
    /// Versions 0+.
    pub request_api_version: i16,
    /// The correlation ID of this request.
    ///
    /// Versions 0+.
    pub correlation_id: i32,
    /// The client ID string.
    ///
    /// Versions 1+; nullable 1+.
    pub client_id: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for RequestHeader {
    fn default() -> Self {
        RequestHeader {
            request_api_key: 0,
            request_api_version: 0,
            correlation_id: 0,
            client_id: Some(String::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl RequestHeader {
    /// The message name.
    pub const NAME: &'static str = "RequestHeader";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 2;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(2);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=2).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "RequestHeader", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        w.put_i16(*(&self.request_api_key));
        w.put_i16(*(&self.request_api_version));
        w.put_i32(*(&self.correlation_id));
        if version >= 1 { match (&self.client_id) { Some(x) => { write_string(w, x, false)?; } None => { if !(version >= 1) { return Err(EncodeError::NullNotAllowed { field: "ClientId", version }); } write_nullable_string(w, None, false)?; } } }
        if !(version >= 1) { if self.client_id != Some(String::new()) { return Err(EncodeError::FieldNotInVersion { field: "ClientId", version }); } }
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
        n += 2;
        n += 2;
        n += 4;
        if version >= 1 { n += match (&self.client_id) { Some(x) => string_len(x, false), None => nullable_string_len(None, false) }; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=2).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "RequestHeader", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.request_api_key = read_i16(buf)?;
        v.request_api_version = read_i16(buf)?;
        v.correlation_id = read_i32(buf)?;
        if version >= 1 { v.client_id = if version >= 1 { read_nullable_string(buf, false)? } else { Some(read_string(buf, false, "ClientId")?) }; }
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
        v.request_api_key = g.i16();
        v.request_api_version = g.i16();
        v.correlation_id = g.i32();
        if version >= 1 { v.client_id = if (version >= 1) && g.chance(4) { None } else { Some(g.string()) }; }
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
        if version >= 1 { f("ClientId", &mut self.client_id); }
    }
}
