//! Generated from `SaslHandshakeResponse.json` by fjord-codegen. Do not edit.

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

/// The `SaslHandshakeResponse` response (api key 17, versions 0-1).
#[derive(Debug, Clone, PartialEq)]
pub struct SaslHandshakeResponse {
    /// The error code, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The mechanisms enabled in the server.
    ///
    /// Versions 0+.
    pub mechanisms: Vec<String>,
}

impl Default for SaslHandshakeResponse {
    fn default() -> Self {
        SaslHandshakeResponse {
            error_code: 0,
            mechanisms: Vec::<String>::new(),
        }
    }
}

impl SaslHandshakeResponse {
    /// The message name.
    pub const NAME: &'static str = "SaslHandshakeResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 1;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = None;

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=1).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "SaslHandshakeResponse", version }); }
        #[allow(unused_variables)]
        let flexible = false;
        w.put_i16(*(&self.error_code));
        write_len_prefix(w, (&self.mechanisms).len(), flexible)?; for e0 in (&self.mechanisms).iter() { write_string(w, e0, flexible)?; }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 2;
        n += len_prefix_len((&self.mechanisms).len(), flexible) + (&self.mechanisms).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=1).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "SaslHandshakeResponse", version }); }
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = read_i16(buf)?;
        v.mechanisms = { let n = read_array_len_non_null(buf, flexible, "Mechanisms")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "Mechanisms")?); } v };
        Ok(v)
    }

    /// A random value that is valid at `version` (for tests and fuzzing).
    #[cfg(feature = "sample")]
    pub fn sample(g: &mut crate::sample::SampleRng, version: i16) -> Self {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = g.i16();
        v.mechanisms = (0..g.collection_len()).map(|_| g.string()).collect();
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
    }
}
