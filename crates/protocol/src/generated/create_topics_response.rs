//! Generated from `CreateTopicsResponse.json` by fjord-codegen. Do not edit.

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

/// The `CreateTopicsResponse` response (api key 19, versions 2-7).
#[derive(Debug, Clone, PartialEq)]
pub struct CreateTopicsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 2+.
    pub throttle_time_ms: i32,
    /// Results for each topic we tried to create.
    ///
    /// Versions 0+.
    pub topics: Vec<CreatableTopicResult>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for CreateTopicsResponse {
    fn default() -> Self {
        CreateTopicsResponse {
            throttle_time_ms: 0,
            topics: Vec::<CreatableTopicResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreateTopicsResponse {
    /// The message name.
    pub const NAME: &'static str = "CreateTopicsResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 2;
    /// The highest version.
    pub const MAX_VERSION: i16 = 7;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(5);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(2..=7).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "CreateTopicsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 5;
        w.put_i32(*(&self.throttle_time_ms));
        write_len_prefix(w, (&self.topics).len(), flexible)?; for e0 in (&self.topics).iter() { e0.encode(w, version)?; }
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
        n += len_prefix_len((&self.topics).len(), flexible) + (&self.topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(2..=7).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "CreateTopicsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(CreatableTopicResult::decode(buf, version)?); } v };
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = g.i32();
        v.topics = (0..g.collection_len()).map(|_| CreatableTopicResult::sample(g, version)).collect();
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
        for x in &mut self.topics { x.each_nullable_string(version, f); }
    }
}

/// Results for each topic we tried to create.
#[derive(Debug, Clone, PartialEq)]
pub struct CreatableTopicResult {
    /// The topic name.
    ///
    /// Versions 0+.
    pub name: String,
    /// The unique topic ID.
    ///
    /// Versions 7+.
    pub topic_id: Uuid,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions 1+; nullable 0+.
    pub error_message: Option<String>,
    /// Optional topic config error returned if configs are not returned in the response.
    ///
    /// Versions 5+; tag 0 in 5+.
    pub topic_config_error_code: i16,
    /// Number of partitions of the topic.
    ///
    /// Versions 5+.
    pub num_partitions: i32,
    /// Replication factor of the topic.
    ///
    /// Versions 5+.
    pub replication_factor: i16,
    /// Configuration of the topic.
    ///
    /// Versions 5+; nullable 5+.
    pub configs: Option<Vec<CreatableTopicConfigs>>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for CreatableTopicResult {
    fn default() -> Self {
        CreatableTopicResult {
            name: String::new(),
            topic_id: Uuid::nil(),
            error_code: 0,
            error_message: Some(String::new()),
            topic_config_error_code: 0,
            num_partitions: -1,
            replication_factor: -1,
            configs: Some(Vec::<CreatableTopicConfigs>::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatableTopicResult {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 5;
        write_string(w, (&self.name), flexible)?;
        if version >= 7 { write_uuid(w, (&self.topic_id)); }
        w.put_i16(*(&self.error_code));
        match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        if version >= 5 { w.put_i32(*(&self.num_partitions)); }
        if version >= 5 { w.put_i16(*(&self.replication_factor)); }
        if version >= 5 { match (&self.configs) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { e0.encode(w, version)?; } } None => { if !(version >= 5) { return Err(EncodeError::NullNotAllowed { field: "Configs", version }); } write_null(w, flexible); } } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 5 && self.topic_config_error_code != 0 { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 5 && self.topic_config_error_code != 0 { write_uvarint(w, 0); write_uvarint(w, (2) as u32); w.put_i16(*(&self.topic_config_error_code)); }
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.name), flexible);
        if version >= 7 { n += 16; }
        n += 2;
        n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        if version >= 5 { n += 4; }
        if version >= 5 { n += 2; }
        if version >= 5 { n += match (&self.configs) { Some(x) => len_prefix_len(x.len(), flexible) + x.iter().map(|e0| e0.encoded_len(version)).sum::<usize>(), None => null_len(flexible) }; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 5 && self.topic_config_error_code != 0 { count += 1; let s = 2; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = read_string(buf, flexible, "Name")?;
        if version >= 7 { v.topic_id = read_uuid(buf)?; }
        v.error_code = read_i16(buf)?;
        v.error_message = read_nullable_string(buf, flexible)?;
        if version >= 5 { v.num_partitions = read_i32(buf)?; }
        if version >= 5 { v.replication_factor = read_i16(buf)?; }
        if version >= 5 { v.configs = if version >= 5 { match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(CreatableTopicConfigs::decode(buf, version)?); } Some(v) } } } else { Some({ let n = read_array_len_non_null(buf, flexible, "Configs")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(CreatableTopicConfigs::decode(buf, version)?); } v }) }; }
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 if version >= 5 => { let buf = &mut field; v.topic_config_error_code = read_i16(buf)?; finish_tagged_field(buf, 0)?; }
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = g.string();
        if version >= 7 { v.topic_id = g.uuid(); }
        v.error_code = g.i16();
        v.error_message = if (true) && g.chance(4) { None } else { Some(g.string()) };
        if (version >= 5) && g.bool() { v.topic_config_error_code = g.i16(); }
        if version >= 5 { v.num_partitions = g.i32(); }
        if version >= 5 { v.replication_factor = g.i16(); }
        if version >= 5 { v.configs = if (version >= 5) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| CreatableTopicConfigs::sample(g, version)).collect()) }; }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        if let Some(v) = &self.configs { for x in v { x.each_error_code(f); } }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("ErrorMessage", &mut self.error_message);
        if version >= 5 { if let Some(v) = &mut self.configs { for x in v { x.each_nullable_string(version, f); } } }
    }
}

/// Configuration of the topic.
#[derive(Debug, Clone, PartialEq)]
pub struct CreatableTopicConfigs {
    /// The configuration name.
    ///
    /// Versions 5+.
    pub name: String,
    /// The configuration value.
    ///
    /// Versions 5+; nullable 5+.
    pub value: Option<String>,
    /// True if the configuration is read-only.
    ///
    /// Versions 5+.
    pub read_only: bool,
    /// The configuration source.
    ///
    /// Versions 5+.
    pub config_source: i8,
    /// True if this configuration is sensitive.
    ///
    /// Versions 5+.
    pub is_sensitive: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for CreatableTopicConfigs {
    fn default() -> Self {
        CreatableTopicConfigs {
            name: String::new(),
            value: Some(String::new()),
            read_only: false,
            config_source: -1,
            is_sensitive: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CreatableTopicConfigs {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 5;
        if version >= 5 { write_string(w, (&self.name), flexible)?; }
        if !(version >= 5) { if self.name != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Name", version }); } }
        if version >= 5 { match (&self.value) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 5) { return Err(EncodeError::NullNotAllowed { field: "Value", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 5) { if self.value != Some(String::new()) { return Err(EncodeError::FieldNotInVersion { field: "Value", version }); } }
        if version >= 5 { write_bool(w, *(&self.read_only)); }
        if !(version >= 5) { if self.read_only != false { return Err(EncodeError::FieldNotInVersion { field: "ReadOnly", version }); } }
        if version >= 5 { w.put_i8(*(&self.config_source)); }
        if version >= 5 { write_bool(w, *(&self.is_sensitive)); }
        if !(version >= 5) { if self.is_sensitive != false { return Err(EncodeError::FieldNotInVersion { field: "IsSensitive", version }); } }
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 5 { n += string_len((&self.name), flexible); }
        if version >= 5 { n += match (&self.value) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if version >= 5 { n += 1; }
        if version >= 5 { n += 1; }
        if version >= 5 { n += 1; }
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 5 { v.name = read_string(buf, flexible, "Name")?; }
        if version >= 5 { v.value = if version >= 5 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "Value")?) }; }
        if version >= 5 { v.read_only = read_bool(buf)?; }
        if version >= 5 { v.config_source = read_i8(buf)?; }
        if version >= 5 { v.is_sensitive = read_bool(buf)?; }
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 5 { v.name = g.string(); }
        if version >= 5 { v.value = if (version >= 5) && g.chance(4) { None } else { Some(g.string()) }; }
        if version >= 5 { v.read_only = g.bool(); }
        if version >= 5 { v.config_source = g.i8(); }
        if version >= 5 { v.is_sensitive = g.bool(); }
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
        if version >= 5 { f("Value", &mut self.value); }
    }
}
