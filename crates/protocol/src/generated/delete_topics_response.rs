//! Generated from `DeleteTopicsResponse.json` by fjord-codegen. Do not edit.

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

/// The `DeleteTopicsResponse` response (api key 20, versions 1-6).
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteTopicsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 1+.
    pub throttle_time_ms: i32,
    /// The results for each topic we tried to delete.
    ///
    /// Versions 0+.
    pub responses: Vec<DeletableTopicResult>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DeleteTopicsResponse {
    fn default() -> Self {
        DeleteTopicsResponse {
            throttle_time_ms: 0,
            responses: Vec::<DeletableTopicResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteTopicsResponse {
    /// The message name.
    pub const NAME: &'static str = "DeleteTopicsResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 6;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(4);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=6).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DeleteTopicsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        w.put_i32(*(&self.throttle_time_ms));
        write_len_prefix(w, (&self.responses).len(), flexible)?; for e0 in (&self.responses).iter() { e0.encode(w, version)?; }
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
        n += 4;
        n += len_prefix_len((&self.responses).len(), flexible) + (&self.responses).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=6).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DeleteTopicsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        v.responses = { let n = read_array_len_non_null(buf, flexible, "Responses")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DeletableTopicResult::decode(buf, version)?); } v };
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
        v.throttle_time_ms = g.i32();
        v.responses = (0..g.collection_len()).map(|_| DeletableTopicResult::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.responses { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.responses { x.each_nullable_string(version, f); }
    }
}

/// The results for each topic we tried to delete.
#[derive(Debug, Clone, PartialEq)]
pub struct DeletableTopicResult {
    /// The topic name.
    ///
    /// Versions 0+; nullable 6+.
    pub name: Option<String>,
    /// The unique topic ID.
    ///
    /// Versions 6+.
    pub topic_id: Uuid,
    /// The deletion error, or 0 if the deletion succeeded.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions 5+; nullable 5+.
    pub error_message: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DeletableTopicResult {
    fn default() -> Self {
        DeletableTopicResult {
            name: Some(String::new()),
            topic_id: Uuid::nil(),
            error_code: 0,
            error_message: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeletableTopicResult {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 4;
        match (&self.name) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 6) { return Err(EncodeError::NullNotAllowed { field: "Name", version }); } write_nullable_string(w, None, flexible)?; } }
        if version >= 6 { write_uuid(w, (&self.topic_id)); }
        w.put_i16(*(&self.error_code));
        if version >= 5 { match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 5) { return Err(EncodeError::NullNotAllowed { field: "ErrorMessage", version }); } write_nullable_string(w, None, flexible)?; } } }
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
        n += match (&self.name) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        if version >= 6 { n += 16; }
        n += 2;
        if version >= 5 { n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
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
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = if version >= 6 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "Name")?) };
        if version >= 6 { v.topic_id = read_uuid(buf)?; }
        v.error_code = read_i16(buf)?;
        if version >= 5 { v.error_message = if version >= 5 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "ErrorMessage")?) }; }
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
        v.name = if (version >= 6) && g.chance(4) { None } else { Some(g.string()) };
        if version >= 6 { v.topic_id = g.uuid(); }
        v.error_code = g.i16();
        if version >= 5 { v.error_message = if (version >= 5) && g.chance(4) { None } else { Some(g.string()) }; }
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
        f("Name", &mut self.name);
        if version >= 5 { f("ErrorMessage", &mut self.error_message); }
    }
}
