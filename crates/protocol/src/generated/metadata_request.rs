//! Generated from `MetadataRequest.json` by fjord-codegen. Do not edit.

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

/// The `MetadataRequest` request (api key 3, versions 0-13).
#[derive(Debug, Clone, PartialEq)]
pub struct MetadataRequest {
    /// The topics to fetch metadata for.
    ///
    /// Versions 0+; nullable 1+.
    pub topics: Option<Vec<MetadataRequestTopic>>,
    /// If this is true, the broker may auto-create topics that we requested which do not already exist, if it is configured to do so.
    ///
    /// Versions 4+.
    pub allow_auto_topic_creation: bool,
    /// Whether to include cluster authorized operations.
    ///
    /// Versions 8-10.
    pub include_cluster_authorized_operations: bool,
    /// Whether to include topic authorized operations.
    ///
    /// Versions 8+.
    pub include_topic_authorized_operations: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for MetadataRequest {
    fn default() -> Self {
        MetadataRequest {
            topics: Some(Vec::<MetadataRequestTopic>::new()),
            allow_auto_topic_creation: true,
            include_cluster_authorized_operations: false,
            include_topic_authorized_operations: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MetadataRequest {
    /// The message name.
    pub const NAME: &'static str = "MetadataRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 13;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(9);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=13).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "MetadataRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 9;
        match (&self.topics) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { e0.encode(w, version)?; } } None => { if !(version >= 1) { return Err(EncodeError::NullNotAllowed { field: "Topics", version }); } write_null(w, flexible); } }
        if version >= 4 { write_bool(w, *(&self.allow_auto_topic_creation)); }
        if !(version >= 4) { if self.allow_auto_topic_creation != true { return Err(EncodeError::FieldNotInVersion { field: "AllowAutoTopicCreation", version }); } }
        if (version >= 8 && version <= 10) { write_bool(w, *(&self.include_cluster_authorized_operations)); }
        if !((version >= 8 && version <= 10)) { if self.include_cluster_authorized_operations != false { return Err(EncodeError::FieldNotInVersion { field: "IncludeClusterAuthorizedOperations", version }); } }
        if version >= 8 { write_bool(w, *(&self.include_topic_authorized_operations)); }
        if !(version >= 8) { if self.include_topic_authorized_operations != false { return Err(EncodeError::FieldNotInVersion { field: "IncludeTopicAuthorizedOperations", version }); } }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += match (&self.topics) { Some(x) => len_prefix_len(x.len(), flexible) + x.iter().map(|e0| e0.encoded_len(version)).sum::<usize>(), None => null_len(flexible) };
        if version >= 4 { n += 1; }
        if (version >= 8 && version <= 10) { n += 1; }
        if version >= 8 { n += 1; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=13).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "MetadataRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.topics = if version >= 1 { match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(MetadataRequestTopic::decode(buf, version)?); } Some(v) } } } else { Some({ let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(MetadataRequestTopic::decode(buf, version)?); } v }) };
        if version >= 4 { v.allow_auto_topic_creation = read_bool(buf)?; }
        if (version >= 8 && version <= 10) { v.include_cluster_authorized_operations = read_bool(buf)?; }
        if version >= 8 { v.include_topic_authorized_operations = read_bool(buf)?; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.topics = if (version >= 1) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| MetadataRequestTopic::sample(g, version)).collect()) };
        if version >= 4 { v.allow_auto_topic_creation = g.bool(); }
        if (version >= 8 && version <= 10) { v.include_cluster_authorized_operations = g.bool(); }
        if version >= 8 { v.include_topic_authorized_operations = g.bool(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        if let Some(v) = &self.topics { for x in v { x.each_error_code(f); } }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if let Some(v) = &mut self.topics { for x in v { x.each_nullable_string(version, f); } }
    }
}

/// The topics to fetch metadata for.
#[derive(Debug, Clone, PartialEq)]
pub struct MetadataRequestTopic {
    /// The topic id.
    ///
    /// Versions 10+.
    pub topic_id: Uuid,
    /// The topic name.
    ///
    /// Versions 0+; nullable 10+.
    pub name: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for MetadataRequestTopic {
    fn default() -> Self {
        MetadataRequestTopic {
            topic_id: Uuid::nil(),
            name: Some(String::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MetadataRequestTopic {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 9;
        if version >= 10 { write_uuid(w, (&self.topic_id)); }
        match (&self.name) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 10) { return Err(EncodeError::NullNotAllowed { field: "Name", version }); } write_nullable_string(w, None, flexible)?; } }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 10 { n += 16; }
        n += match (&self.name) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 10 { v.topic_id = read_uuid(buf)?; }
        v.name = if version >= 10 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "Name")?) };
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 10 { v.topic_id = g.uuid(); }
        v.name = if (version >= 10) && g.chance(4) { None } else { Some(g.string()) };
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
        f("Name", &mut self.name);
    }
}
