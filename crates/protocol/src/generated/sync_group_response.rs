//! Generated from `SyncGroupResponse.json` by fjord-codegen. Do not edit.

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

/// The `SyncGroupResponse` response (api key 14, versions 0-5).
#[derive(Debug, Clone, PartialEq)]
pub struct SyncGroupResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 1+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The group protocol type.
    ///
    /// Versions 5+; nullable 5+.
    pub protocol_type: Option<String>,
    /// The group protocol name.
    ///
    /// Versions 5+; nullable 5+.
    pub protocol_name: Option<String>,
    /// The member assignment.
    ///
    /// Versions 0+.
    pub assignment: Bytes,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for SyncGroupResponse {
    fn default() -> Self {
        SyncGroupResponse {
            throttle_time_ms: 0,
            error_code: 0,
            protocol_type: None,
            protocol_name: None,
            assignment: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SyncGroupResponse {
    /// The message name.
    pub const NAME: &'static str = "SyncGroupResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 5;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(4);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=5).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "SyncGroupResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        if version >= 1 { w.put_i32(*(&self.throttle_time_ms)); }
        w.put_i16(*(&self.error_code));
        if version >= 5 { match (&self.protocol_type) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 5) { return Err(EncodeError::NullNotAllowed { field: "ProtocolType", version }); } write_nullable_string(w, None, flexible)?; } } }
        if version >= 5 { match (&self.protocol_name) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 5) { return Err(EncodeError::NullNotAllowed { field: "ProtocolName", version }); } write_nullable_string(w, None, flexible)?; } } }
        write_bytes(w, (&self.assignment), flexible)?;
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
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 1 { n += 4; }
        n += 2;
        if version >= 5 { n += match (&self.protocol_type) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if version >= 5 { n += match (&self.protocol_name) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        n += bytes_len((&self.assignment), flexible);
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=5).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "SyncGroupResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 1 { v.throttle_time_ms = read_i32(buf)?; }
        v.error_code = read_i16(buf)?;
        if version >= 5 { v.protocol_type = if version >= 5 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "ProtocolType")?) }; }
        if version >= 5 { v.protocol_name = if version >= 5 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "ProtocolName")?) }; }
        v.assignment = read_bytes(buf, flexible, "Assignment")?;
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
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 1 { v.throttle_time_ms = g.i32(); }
        v.error_code = g.i16();
        if version >= 5 { v.protocol_type = if (version >= 5) && g.chance(4) { None } else { Some(g.string()) }; }
        if version >= 5 { v.protocol_name = if (version >= 5) && g.chance(4) { None } else { Some(g.string()) }; }
        v.assignment = g.bytes();
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
        if version >= 5 { f("ProtocolType", &mut self.protocol_type); }
        if version >= 5 { f("ProtocolName", &mut self.protocol_name); }
    }
}
