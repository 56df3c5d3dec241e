//! Generated from `SaslAuthenticateResponse.json` by fjord-codegen. Do not edit.

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

/// The `SaslAuthenticateResponse` response (api key 36, versions 0-2).
#[derive(Debug, Clone, PartialEq)]
pub struct SaslAuthenticateResponse {
    /// The error code, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions 0+; nullable 0+.
    pub error_message: Option<String>,
    /// The SASL authentication bytes from the server, as defined by the SASL mechanism.
    ///
    /// Versions 0+.
    pub auth_bytes: Bytes,
    /// Number of milliseconds after which only re-authentication over the existing connection to create a new session can occur.
    ///
    /// Versions 1+.
    pub session_lifetime_ms: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for SaslAuthenticateResponse {
    fn default() -> Self {
        SaslAuthenticateResponse {
            error_code: 0,
            error_message: Some(String::new()),
            auth_bytes: Bytes::new(),
            session_lifetime_ms: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SaslAuthenticateResponse {
    /// The message name.
    pub const NAME: &'static str = "SaslAuthenticateResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 2;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(2);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=2).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "SaslAuthenticateResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        w.put_i16(*(&self.error_code));
        match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        write_bytes(w, (&self.auth_bytes), flexible)?;
        if version >= 1 { w.put_i64(*(&self.session_lifetime_ms)); }
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
        n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += bytes_len((&self.auth_bytes), flexible);
        if version >= 1 { n += 8; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=2).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "SaslAuthenticateResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = read_i16(buf)?;
        v.error_message = read_nullable_string(buf, flexible)?;
        v.auth_bytes = read_bytes(buf, flexible, "AuthBytes")?;
        if version >= 1 { v.session_lifetime_ms = read_i64(buf)?; }
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
        v.error_code = g.i16();
        v.error_message = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.auth_bytes = g.bytes();
        if version >= 1 { v.session_lifetime_ms = g.i64(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("ErrorMessage", &mut self.error_message);
    }
}
