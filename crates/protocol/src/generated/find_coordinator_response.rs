//! Generated from `FindCoordinatorResponse.json` by fjord-codegen. Do not edit.

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

/// The `FindCoordinatorResponse` response (api key 10, versions 0-6).
#[derive(Debug, Clone, PartialEq)]
pub struct FindCoordinatorResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 1+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions 0-3.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions 1-3; nullable 1-3.
    pub error_message: Option<String>,
    /// The node id.
    ///
    /// Versions 0-3.
    pub node_id: i32,
    /// The host name.
    ///
    /// Versions 0-3.
    pub host: String,
    /// The port.
    ///
    /// Versions 0-3.
    pub port: i32,
    /// Each coordinator result in the response.
    ///
    /// Versions 4+.
    pub coordinators: Vec<Coordinator>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for FindCoordinatorResponse {
    fn default() -> Self {
        FindCoordinatorResponse {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: Some(String::new()),
            node_id: 0,
            host: String::new(),
            port: 0,
            coordinators: Vec::<Coordinator>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FindCoordinatorResponse {
    /// The message name.
    pub const NAME: &'static str = "FindCoordinatorResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 6;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(3);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=6).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "FindCoordinatorResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        if version >= 1 { w.put_i32(*(&self.throttle_time_ms)); }
        if version <= 3 { w.put_i16(*(&self.error_code)); }
        if !(version <= 3) { if self.error_code != 0 { return Err(EncodeError::FieldNotInVersion { field: "ErrorCode", version }); } }
        if (version >= 1 && version <= 3) { match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { if !((version >= 1 && version <= 3)) { return Err(EncodeError::NullNotAllowed { field: "ErrorMessage", version }); } write_nullable_string(w, None, flexible)?; } } }
        if version <= 3 { w.put_i32(*(&self.node_id)); }
        if !(version <= 3) { if self.node_id != 0 { return Err(EncodeError::FieldNotInVersion { field: "NodeId", version }); } }
        if version <= 3 { write_string(w, (&self.host), flexible)?; }
        if !(version <= 3) { if self.host != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Host", version }); } }
        if version <= 3 { w.put_i32(*(&self.port)); }
        if !(version <= 3) { if self.port != 0 { return Err(EncodeError::FieldNotInVersion { field: "Port", version }); } }
        if version >= 4 { write_len_prefix(w, (&self.coordinators).len(), flexible)?; for e0 in (&self.coordinators).iter() { e0.encode(w, version)?; } }
        if !(version >= 4) { if self.coordinators != Vec::<Coordinator>::new() { return Err(EncodeError::FieldNotInVersion { field: "Coordinators", version }); } }
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
        if version >= 1 { n += 4; }
        if version <= 3 { n += 2; }
        if (version >= 1 && version <= 3) { n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if version <= 3 { n += 4; }
        if version <= 3 { n += string_len((&self.host), flexible); }
        if version <= 3 { n += 4; }
        if version >= 4 { n += len_prefix_len((&self.coordinators).len(), flexible) + (&self.coordinators).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=6).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "FindCoordinatorResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 1 { v.throttle_time_ms = read_i32(buf)?; }
        if version <= 3 { v.error_code = read_i16(buf)?; }
        if (version >= 1 && version <= 3) { v.error_message = if (version >= 1 && version <= 3) { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "ErrorMessage")?) }; }
        if version <= 3 { v.node_id = read_i32(buf)?; }
        if version <= 3 { v.host = read_string(buf, flexible, "Host")?; }
        if version <= 3 { v.port = read_i32(buf)?; }
        if version >= 4 { v.coordinators = { let n = read_array_len_non_null(buf, flexible, "Coordinators")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Coordinator::decode(buf, version)?); } v }; }
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
        if version >= 1 { v.throttle_time_ms = g.i32(); }
        if version <= 3 { v.error_code = g.i16(); }
        if (version >= 1 && version <= 3) { v.error_message = if ((version >= 1 && version <= 3)) && g.chance(4) { None } else { Some(g.string()) }; }
        if version <= 3 { v.node_id = g.i32(); }
        if version <= 3 { v.host = g.string(); }
        if version <= 3 { v.port = g.i32(); }
        if version >= 4 { v.coordinators = (0..g.collection_len()).map(|_| Coordinator::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.coordinators { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if (version >= 1 && version <= 3) { f("ErrorMessage", &mut self.error_message); }
        if version >= 4 { for x in &mut self.coordinators { x.each_nullable_string(version, f); } }
    }
}

/// Each coordinator result in the response.
#[derive(Debug, Clone, PartialEq)]
pub struct Coordinator {
    /// The coordinator key.
    ///
    /// Versions 4+.
    pub key: String,
    /// The node id.
    ///
    /// Versions 4+.
    pub node_id: i32,
    /// The host name.
    ///
    /// Versions 4+.
    pub host: String,
    /// The port.
    ///
    /// Versions 4+.
    pub port: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions 4+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions 4+; nullable 4+.
    pub error_message: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Coordinator {
    fn default() -> Self {
        Coordinator {
            key: String::new(),
            node_id: 0,
            host: String::new(),
            port: 0,
            error_code: 0,
            error_message: Some(String::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Coordinator {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 3;
        if version >= 4 { write_string(w, (&self.key), flexible)?; }
        if !(version >= 4) { if self.key != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Key", version }); } }
        if version >= 4 { w.put_i32(*(&self.node_id)); }
        if !(version >= 4) { if self.node_id != 0 { return Err(EncodeError::FieldNotInVersion { field: "NodeId", version }); } }
        if version >= 4 { write_string(w, (&self.host), flexible)?; }
        if !(version >= 4) { if self.host != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Host", version }); } }
        if version >= 4 { w.put_i32(*(&self.port)); }
        if !(version >= 4) { if self.port != 0 { return Err(EncodeError::FieldNotInVersion { field: "Port", version }); } }
        if version >= 4 { w.put_i16(*(&self.error_code)); }
        if !(version >= 4) { if self.error_code != 0 { return Err(EncodeError::FieldNotInVersion { field: "ErrorCode", version }); } }
        if version >= 4 { match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 4) { return Err(EncodeError::NullNotAllowed { field: "ErrorMessage", version }); } write_nullable_string(w, None, flexible)?; } } }
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
        if version >= 4 { n += string_len((&self.key), flexible); }
        if version >= 4 { n += 4; }
        if version >= 4 { n += string_len((&self.host), flexible); }
        if version >= 4 { n += 4; }
        if version >= 4 { n += 2; }
        if version >= 4 { n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
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
        if version >= 4 { v.key = read_string(buf, flexible, "Key")?; }
        if version >= 4 { v.node_id = read_i32(buf)?; }
        if version >= 4 { v.host = read_string(buf, flexible, "Host")?; }
        if version >= 4 { v.port = read_i32(buf)?; }
        if version >= 4 { v.error_code = read_i16(buf)?; }
        if version >= 4 { v.error_message = if version >= 4 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "ErrorMessage")?) }; }
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
        if version >= 4 { v.key = g.string(); }
        if version >= 4 { v.node_id = g.i32(); }
        if version >= 4 { v.host = g.string(); }
        if version >= 4 { v.port = g.i32(); }
        if version >= 4 { v.error_code = g.i16(); }
        if version >= 4 { v.error_message = if (version >= 4) && g.chance(4) { None } else { Some(g.string()) }; }
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
        if version >= 4 { f("ErrorMessage", &mut self.error_message); }
    }
}
