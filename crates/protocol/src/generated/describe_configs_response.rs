//! Generated from `DescribeConfigsResponse.json` by fjord-codegen. Do not edit.

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

/// The `DescribeConfigsResponse` response (api key 32, versions 1-4).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeConfigsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 0+.
    pub throttle_time_ms: i32,
    /// The results for each resource.
    ///
    /// Versions 0+.
    pub results: Vec<DescribeConfigsResult>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeConfigsResponse {
    fn default() -> Self {
        DescribeConfigsResponse {
            throttle_time_ms: 0,
            results: Vec::<DescribeConfigsResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeConfigsResponse {
    /// The message name.
    pub const NAME: &'static str = "DescribeConfigsResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 4;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(4);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=4).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DescribeConfigsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        w.put_i32(*(&self.throttle_time_ms));
        write_len_prefix(w, (&self.results).len(), flexible)?; for e0 in (&self.results).iter() { e0.encode(w, version)?; }
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
        n += len_prefix_len((&self.results).len(), flexible) + (&self.results).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=4).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DescribeConfigsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        v.results = { let n = read_array_len_non_null(buf, flexible, "Results")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeConfigsResult::decode(buf, version)?); } v };
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
        v.results = (0..g.collection_len()).map(|_| DescribeConfigsResult::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.results { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.results { x.each_nullable_string(version, f); }
    }
}

/// The results for each resource.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeConfigsResult {
    /// The error code, or 0 if we were able to successfully describe the configurations.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The error message, or null if we were able to successfully describe the configurations.
    ///
    /// Versions 0+; nullable 0+.
    pub error_message: Option<String>,
    /// The resource type.
    ///
    /// Versions 0+.
    pub resource_type: i8,
    /// The resource name.
    ///
    /// Versions 0+.
    pub resource_name: String,
    /// Each listed configuration.
    ///
    /// Versions 0+.
    pub configs: Vec<DescribeConfigsResourceResult>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeConfigsResult {
    fn default() -> Self {
        DescribeConfigsResult {
            error_code: 0,
            error_message: Some(String::new()),
            resource_type: 0,
            resource_name: String::new(),
            configs: Vec::<DescribeConfigsResourceResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeConfigsResult {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 4;
        w.put_i16(*(&self.error_code));
        match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
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
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 2;
        n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
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
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = read_i16(buf)?;
        v.error_message = read_nullable_string(buf, flexible)?;
        v.resource_type = read_i8(buf)?;
        v.resource_name = read_string(buf, flexible, "ResourceName")?;
        v.configs = { let n = read_array_len_non_null(buf, flexible, "Configs")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeConfigsResourceResult::decode(buf, version)?); } v };
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
        v.error_code = g.i16();
        v.error_message = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.resource_type = g.i8();
        v.resource_name = g.string();
        v.configs = (0..g.collection_len()).map(|_| DescribeConfigsResourceResult::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.configs { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("ErrorMessage", &mut self.error_message);
        for x in &mut self.configs { x.each_nullable_string(version, f); }
    }
}

/// Each listed configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeConfigsResourceResult {
    /// The configuration name.
    ///
    /// Versions 0+.
    pub name: String,
    /// The configuration value.
    ///
    /// Versions 0+; nullable 0+.
    pub value: Option<String>,
    /// True if the configuration is read-only.
    ///
    /// Versions 0+.
    pub read_only: bool,
    /// The configuration source.
    ///
    /// Versions 1+.
    pub config_source: i8,
    /// True if this configuration is sensitive.
    ///
    /// Versions 0+.
    pub is_sensitive: bool,
    /// The synonyms for this configuration key.
    ///
    /// Versions 1+.
    pub synonyms: Vec<DescribeConfigsSynonym>,
    /// The configuration data type. Type can be one of the following values - BOOLEAN, STRING, INT, SHORT, LONG, DOUBLE, LIST, CLASS, PASSWORD.
    ///
    /// Versions 3+.
    pub config_type: i8,
    /// The configuration documentation.
    ///
    /// Versions 3+; nullable 0+.
    pub documentation: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeConfigsResourceResult {
    fn default() -> Self {
        DescribeConfigsResourceResult {
            name: String::new(),
            value: Some(String::new()),
            read_only: false,
            config_source: -1,
            is_sensitive: false,
            synonyms: Vec::<DescribeConfigsSynonym>::new(),
            config_type: 0,
            documentation: Some(String::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeConfigsResourceResult {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 4;
        write_string(w, (&self.name), flexible)?;
        match (&self.value) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        write_bool(w, *(&self.read_only));
        w.put_i8(*(&self.config_source));
        write_bool(w, *(&self.is_sensitive));
        write_len_prefix(w, (&self.synonyms).len(), flexible)?; for e0 in (&self.synonyms).iter() { e0.encode(w, version)?; }
        if version >= 3 { w.put_i8(*(&self.config_type)); }
        if version >= 3 { match (&self.documentation) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } } }
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
        n += string_len((&self.name), flexible);
        n += match (&self.value) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += 1;
        n += 1;
        n += 1;
        n += len_prefix_len((&self.synonyms).len(), flexible) + (&self.synonyms).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if version >= 3 { n += 1; }
        if version >= 3 { n += match (&self.documentation) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
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
        v.name = read_string(buf, flexible, "Name")?;
        v.value = read_nullable_string(buf, flexible)?;
        v.read_only = read_bool(buf)?;
        v.config_source = read_i8(buf)?;
        v.is_sensitive = read_bool(buf)?;
        v.synonyms = { let n = read_array_len_non_null(buf, flexible, "Synonyms")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeConfigsSynonym::decode(buf, version)?); } v };
        if version >= 3 { v.config_type = read_i8(buf)?; }
        if version >= 3 { v.documentation = read_nullable_string(buf, flexible)?; }
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
        v.name = g.string();
        v.value = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.read_only = g.bool();
        v.config_source = g.i8();
        v.is_sensitive = g.bool();
        v.synonyms = (0..g.collection_len()).map(|_| DescribeConfigsSynonym::sample(g, version)).collect();
        if version >= 3 { v.config_type = g.i8(); }
        if version >= 3 { v.documentation = if (true) && g.chance(4) { None } else { Some(g.string()) }; }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.synonyms { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("Value", &mut self.value);
        for x in &mut self.synonyms { x.each_nullable_string(version, f); }
        if version >= 3 { f("Documentation", &mut self.documentation); }
    }
}

/// The synonyms for this configuration key.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeConfigsSynonym {
    /// The synonym name.
    ///
    /// Versions 1+.
    pub name: String,
    /// The synonym value.
    ///
    /// Versions 1+; nullable 0+.
    pub value: Option<String>,
    /// The synonym source.
    ///
    /// Versions 1+.
    pub source: i8,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeConfigsSynonym {
    fn default() -> Self {
        DescribeConfigsSynonym {
            name: String::new(),
            value: Some(String::new()),
            source: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeConfigsSynonym {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 4;
        write_string(w, (&self.name), flexible)?;
        match (&self.value) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        w.put_i8(*(&self.source));
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
        n += string_len((&self.name), flexible);
        n += match (&self.value) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
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
        #[allow(unused_variables)]
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = read_string(buf, flexible, "Name")?;
        v.value = read_nullable_string(buf, flexible)?;
        v.source = read_i8(buf)?;
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
        v.name = g.string();
        v.value = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.source = g.i8();
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
