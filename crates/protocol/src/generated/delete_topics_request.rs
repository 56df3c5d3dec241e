//! Generated from `DeleteTopicsRequest.json` by fjord-codegen. Do not edit.

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

/// The `DeleteTopicsRequest` request (api key 20, versions 1-6).
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteTopicsRequest {
    /// The name or topic ID of the topic.
    ///
    /// Versions 6+.
    pub topics: Vec<DeleteTopicState>,
    /// The names of the topics to delete.
    ///
    /// Versions 0-5.
    pub topic_names: Vec<String>,
    /// The length of time in milliseconds to wait for the deletions to complete.
    ///
    /// Versions 0+.
    pub timeout_ms: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DeleteTopicsRequest {
    fn default() -> Self {
        DeleteTopicsRequest {
            topics: Vec::<DeleteTopicState>::new(),
            topic_names: Vec::<String>::new(),
            timeout_ms: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteTopicsRequest {
    /// The message name.
    pub const NAME: &'static str = "DeleteTopicsRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 6;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(4);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=6).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DeleteTopicsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        if version >= 6 { write_len_prefix(w, (&self.topics).len(), flexible)?; for e0 in (&self.topics).iter() { e0.encode(w, version)?; } }
        if !(version >= 6) { if self.topics != Vec::<DeleteTopicState>::new() { return Err(EncodeError::FieldNotInVersion { field: "Topics", version }); } }
        if version <= 5 { write_len_prefix(w, (&self.topic_names).len(), flexible)?; for e0 in (&self.topic_names).iter() { write_string(w, e0, flexible)?; } }
        w.put_i32(*(&self.timeout_ms));
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
        if version >= 6 { n += len_prefix_len((&self.topics).len(), flexible) + (&self.topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if version <= 5 { n += len_prefix_len((&self.topic_names).len(), flexible) + (&self.topic_names).iter().map(|e0| string_len(e0, flexible)).sum::<usize>(); }
        n += 4;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=6).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DeleteTopicsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 6 { v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DeleteTopicState::decode(buf, version)?); } v }; }
        if version <= 5 { v.topic_names = { let n = read_array_len_non_null(buf, flexible, "TopicNames")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "TopicNames")?); } v }; }
        v.timeout_ms = read_i32(buf)?;
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
        if version >= 6 { v.topics = (0..g.collection_len()).map(|_| DeleteTopicState::sample(g, version)).collect(); }
        if version <= 5 { v.topic_names = (0..g.collection_len()).map(|_| g.string()).collect(); }
        v.timeout_ms = g.i32();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.topics { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 6 { for x in &mut self.topics { x.each_nullable_string(version, f); } }
    }
}

/// The name or topic ID of the topic.
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteTopicState {
    /// The topic name.
    ///
    /// Versions 6+; nullable 6+.
    pub name: Option<String>,
    /// The unique topic ID.
    ///
    /// Versions 6+.
    pub topic_id: Uuid,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DeleteTopicState {
    fn default() -> Self {
        DeleteTopicState {
            name: None,
            topic_id: Uuid::nil(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DeleteTopicState {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 4;
        if version >= 6 { match (&self.name) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 6) { return Err(EncodeError::NullNotAllowed { field: "Name", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 6) { if self.name != None { return Err(EncodeError::FieldNotInVersion { field: "Name", version }); } }
        if version >= 6 { write_uuid(w, (&self.topic_id)); }
        if !(version >= 6) { if self.topic_id != Uuid::nil() { return Err(EncodeError::FieldNotInVersion { field: "TopicId", version }); } }
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
        if version >= 6 { n += match (&self.name) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if version >= 6 { n += 16; }
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
        if version >= 6 { v.name = if version >= 6 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "Name")?) }; }
        if version >= 6 { v.topic_id = read_uuid(buf)?; }
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
        if version >= 6 { v.name = if (version >= 6) && g.chance(4) { None } else { Some(g.string()) }; }
        if version >= 6 { v.topic_id = g.uuid(); }
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
        if version >= 6 { f("Name", &mut self.name); }
    }
}
