//! Generated from `DescribeConfigsRequest.json` by fjord-codegen. Do not edit.

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

/// The `DescribeConfigsRequest` request (api key 32, versions 1-4).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeConfigsRequest {
    /// The resources whose configurations we want to describe.
    ///
    /// Versions 0+.
    pub resources: Vec<DescribeConfigsResource>,
    /// True if we should include all synonyms.
    ///
    /// Versions 1+.
    pub include_synonyms: bool,
    /// True if we should include configuration documentation.
    ///
    /// Versions 3+.
    pub include_documentation: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeConfigsRequest {
    fn default() -> Self {
        DescribeConfigsRequest {
            resources: Vec::<DescribeConfigsResource>::new(),
            include_synonyms: false,
            include_documentation: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeConfigsRequest {
    /// The message name.
    pub const NAME: &'static str = "DescribeConfigsRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 4;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(4);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=4).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DescribeConfigsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        write_len_prefix(w, (&self.resources).len(), flexible)?; for e0 in (&self.resources).iter() { e0.encode(w, version)?; }
        write_bool(w, *(&self.include_synonyms));
        if version >= 3 { write_bool(w, *(&self.include_documentation)); }
        if !(version >= 3) { if self.include_documentation != false { return Err(EncodeError::FieldNotInVersion { field: "IncludeDocumentation", version }); } }
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
        n += len_prefix_len((&self.resources).len(), flexible) + (&self.resources).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += 1;
        if version >= 3 { n += 1; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=4).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DescribeConfigsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.resources = { let n = read_array_len_non_null(buf, flexible, "Resources")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeConfigsResource::decode(buf, version)?); } v };
        v.include_synonyms = read_bool(buf)?;
        if version >= 3 { v.include_documentation = read_bool(buf)?; }
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
        v.resources = (0..g.collection_len()).map(|_| DescribeConfigsResource::sample(g, version)).collect();
        v.include_synonyms = g.bool();
        if version >= 3 { v.include_documentation = g.bool(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.resources { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.resources { x.each_nullable_string(version, f); }
    }
}

/// The resources whose configurations we want to describe.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeConfigsResource {
    /// The resource type.
    ///
    /// Versions 0+.
    pub resource_type: i8,
    /// The resource name.
    ///
    /// Versions 0+.
    pub resource_name: String,
    /// The configuration keys to list, or null to list all configuration keys.
    ///
    /// Versions 0+; nullable 0+.
    pub configuration_keys: Option<Vec<String>>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeConfigsResource {
    fn default() -> Self {
        DescribeConfigsResource {
            resource_type: 0,
            resource_name: String::new(),
            configuration_keys: Some(Vec::<String>::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeConfigsResource {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 4;
        w.put_i8(*(&self.resource_type));
        write_string(w, (&self.resource_name), flexible)?;
        match (&self.configuration_keys) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { write_string(w, e0, flexible)?; } } None => { write_null(w, flexible); } }
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
        n += 1;
        n += string_len((&self.resource_name), flexible);
        n += match (&self.configuration_keys) { Some(x) => len_prefix_len(x.len(), flexible) + x.iter().map(|e0| string_len(e0, flexible)).sum::<usize>(), None => null_len(flexible) };
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
        v.resource_type = read_i8(buf)?;
        v.resource_name = read_string(buf, flexible, "ResourceName")?;
        v.configuration_keys = match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "ConfigurationKeys")?); } Some(v) } };
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
        v.resource_type = g.i8();
        v.resource_name = g.string();
        v.configuration_keys = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| g.string()).collect()) };
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
