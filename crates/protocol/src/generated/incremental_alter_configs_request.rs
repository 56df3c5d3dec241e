//! Generated from `IncrementalAlterConfigsRequest.json` by fjord-codegen. Do not edit.

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

/// The `IncrementalAlterConfigsRequest` request (api key 44, versions 0-1).
#[derive(Debug, Clone, PartialEq)]
pub struct IncrementalAlterConfigsRequest {
    /// The incremental updates for each resource.
    ///
    /// Versions 0+.
    pub resources: Vec<AlterConfigsResource>,
    /// True if we should validate the request, but not change the configurations.
    ///
    /// Versions 0+.
    pub validate_only: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for IncrementalAlterConfigsRequest {
    fn default() -> Self {
        IncrementalAlterConfigsRequest {
            resources: Vec::<AlterConfigsResource>::new(),
            validate_only: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl IncrementalAlterConfigsRequest {
    /// The message name.
    pub const NAME: &'static str = "IncrementalAlterConfigsRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 1;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(1);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=1).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "IncrementalAlterConfigsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 1;
        write_len_prefix(w, (&self.resources).len(), flexible)?; for e0 in (&self.resources).iter() { e0.encode(w, version)?; }
        write_bool(w, *(&self.validate_only));
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
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += len_prefix_len((&self.resources).len(), flexible) + (&self.resources).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += 1;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=1).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "IncrementalAlterConfigsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.resources = { let n = read_array_len_non_null(buf, flexible, "Resources")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(AlterConfigsResource::decode(buf, version)?); } v };
        v.validate_only = read_bool(buf)?;
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
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.resources = (0..g.collection_len()).map(|_| AlterConfigsResource::sample(g, version)).collect();
        v.validate_only = g.bool();
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

/// The incremental updates for each resource.
#[derive(Debug, Clone, PartialEq)]
pub struct AlterConfigsResource {
    /// The resource type.
    ///
    /// Versions 0+.
    pub resource_type: i8,
    /// The resource name.
    ///
    /// Versions 0+.
    pub resource_name: String,
    /// The configurations.
    ///
    /// Versions 0+.
    pub configs: Vec<AlterableConfig>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for AlterConfigsResource {
    fn default() -> Self {
        AlterConfigsResource {
            resource_type: 0,
            resource_name: String::new(),
            configs: Vec::<AlterableConfig>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterConfigsResource {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 1;
        w.put_i8(*(&self.resource_type));
        write_string(w, (&self.resource_name), flexible)?;
        write_len_prefix(w, (&self.configs).len(), flexible)?; for e0 in (&self.configs).iter() { e0.encode(w, version)?; }
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
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 1;
        n += string_len((&self.resource_name), flexible);
        n += len_prefix_len((&self.configs).len(), flexible) + (&self.configs).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.resource_type = read_i8(buf)?;
        v.resource_name = read_string(buf, flexible, "ResourceName")?;
        v.configs = { let n = read_array_len_non_null(buf, flexible, "Configs")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(AlterableConfig::decode(buf, version)?); } v };
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
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.resource_type = g.i8();
        v.resource_name = g.string();
        v.configs = (0..g.collection_len()).map(|_| AlterableConfig::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.configs { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.configs { x.each_nullable_string(version, f); }
    }
}

/// The configurations.
#[derive(Debug, Clone, PartialEq)]
pub struct AlterableConfig {
    /// The configuration key name.
    ///
    /// Versions 0+.
    pub name: String,
    /// The type (Set, Delete, Append, Subtract) of operation.
    ///
    /// Versions 0+.
    pub config_operation: i8,
    /// The value to set for the configuration key.
    ///
    /// Versions 0+; nullable 0+.
    pub value: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for AlterableConfig {
    fn default() -> Self {
        AlterableConfig {
            name: String::new(),
            config_operation: 0,
            value: Some(String::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AlterableConfig {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 1;
        write_string(w, (&self.name), flexible)?;
        w.put_i8(*(&self.config_operation));
        match (&self.value) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
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
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.name), flexible);
        n += 1;
        n += match (&self.value) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
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
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = read_string(buf, flexible, "Name")?;
        v.config_operation = read_i8(buf)?;
        v.value = read_nullable_string(buf, flexible)?;
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
        let flexible = version >= 1;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = g.string();
        v.config_operation = g.i8();
        v.value = if (true) && g.chance(4) { None } else { Some(g.string()) };
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
        f("Value", &mut self.value);
    }
}
