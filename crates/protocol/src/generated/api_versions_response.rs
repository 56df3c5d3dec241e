//! Generated from `ApiVersionsResponse.json` by fjord-codegen. Do not edit.

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

/// The `ApiVersionsResponse` response (api key 18, versions 0-5).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiVersionsResponse {
    /// The top-level error code.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The APIs supported by the broker.
    ///
    /// Versions 0+.
    pub api_keys: Vec<ApiVersion>,
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 1+.
    pub throttle_time_ms: i32,
    /// Features supported by the broker. Note: in v0-v3, features with MinSupportedVersion = 0 are omitted.
    ///
    /// Versions 3+; tag 0 in 3+.
    pub supported_features: Vec<SupportedFeatureKey>,
    /// The monotonically increasing epoch for the finalized features information. Valid values are >= 0. A value of -1 is special and represents unknown epoch.
    ///
    /// Versions 3+; tag 1 in 3+.
    pub finalized_features_epoch: i64,
    /// List of cluster-wide finalized features. The information is valid only if FinalizedFeaturesEpoch >= 0.
    ///
    /// Versions 3+; tag 2 in 3+.
    pub finalized_features: Vec<FinalizedFeatureKey>,
    /// Set by a KRaft controller if the required configurations for ZK migration are present.
    ///
    /// Versions 3+; tag 3 in 3+.
    pub zk_migration_ready: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ApiVersionsResponse {
    fn default() -> Self {
        ApiVersionsResponse {
            error_code: 0,
            api_keys: Vec::<ApiVersion>::new(),
            throttle_time_ms: 0,
            supported_features: Vec::<SupportedFeatureKey>::new(),
            finalized_features_epoch: -1,
            finalized_features: Vec::<FinalizedFeatureKey>::new(),
            zk_migration_ready: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ApiVersionsResponse {
    /// The message name.
    pub const NAME: &'static str = "ApiVersionsResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 5;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(3);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=5).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ApiVersionsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        w.put_i16(*(&self.error_code));
        write_len_prefix(w, (&self.api_keys).len(), flexible)?; for e0 in (&self.api_keys).iter() { e0.encode(w, version)?; }
        if version >= 1 { w.put_i32(*(&self.throttle_time_ms)); }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 3 && self.supported_features != Vec::<SupportedFeatureKey>::new() { count += 1; }
            if version >= 3 && self.finalized_features_epoch != -1 { count += 1; }
            if version >= 3 && self.finalized_features != Vec::<FinalizedFeatureKey>::new() { count += 1; }
            if version >= 3 && self.zk_migration_ready != false { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 3 && self.supported_features != Vec::<SupportedFeatureKey>::new() { write_uvarint(w, 0); write_uvarint(w, (len_prefix_len((&self.supported_features).len(), true) + (&self.supported_features).iter().map(|e0| e0.encoded_len(version)).sum::<usize>()) as u32); write_len_prefix(w, (&self.supported_features).len(), true)?; for e0 in (&self.supported_features).iter() { e0.encode(w, version)?; } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 1 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 3 && self.finalized_features_epoch != -1 { write_uvarint(w, 1); write_uvarint(w, (8) as u32); w.put_i64(*(&self.finalized_features_epoch)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 2 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 3 && self.finalized_features != Vec::<FinalizedFeatureKey>::new() { write_uvarint(w, 2); write_uvarint(w, (len_prefix_len((&self.finalized_features).len(), true) + (&self.finalized_features).iter().map(|e0| e0.encoded_len(version)).sum::<usize>()) as u32); write_len_prefix(w, (&self.finalized_features).len(), true)?; for e0 in (&self.finalized_features).iter() { e0.encode(w, version)?; } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 3 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 3 && self.zk_migration_ready != false { write_uvarint(w, 3); write_uvarint(w, (1) as u32); write_bool(w, *(&self.zk_migration_ready)); }
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
        n += 2;
        n += len_prefix_len((&self.api_keys).len(), flexible) + (&self.api_keys).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if version >= 1 { n += 4; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 3 && self.supported_features != Vec::<SupportedFeatureKey>::new() { count += 1; let s = len_prefix_len((&self.supported_features).len(), true) + (&self.supported_features).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            if version >= 3 && self.finalized_features_epoch != -1 { count += 1; let s = 8; n += uvarint_len(1) + uvarint_len(s as u32) + s; }
            if version >= 3 && self.finalized_features != Vec::<FinalizedFeatureKey>::new() { count += 1; let s = len_prefix_len((&self.finalized_features).len(), true) + (&self.finalized_features).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); n += uvarint_len(2) + uvarint_len(s as u32) + s; }
            if version >= 3 && self.zk_migration_ready != false { count += 1; let s = 1; n += uvarint_len(3) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=5).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ApiVersionsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = read_i16(buf)?;
        v.api_keys = { let n = read_array_len_non_null(buf, flexible, "ApiKeys")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(ApiVersion::decode(buf, version)?); } v };
        if version >= 1 { v.throttle_time_ms = read_i32(buf)?; }
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 if version >= 3 => { let buf = &mut field; v.supported_features = { let n = read_array_len_non_null(buf, true, "SupportedFeatures")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(SupportedFeatureKey::decode(buf, version)?); } v }; finish_tagged_field(buf, 0)?; }
                    1 if version >= 3 => { let buf = &mut field; v.finalized_features_epoch = read_i64(buf)?; finish_tagged_field(buf, 1)?; }
                    2 if version >= 3 => { let buf = &mut field; v.finalized_features = { let n = read_array_len_non_null(buf, true, "FinalizedFeatures")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(FinalizedFeatureKey::decode(buf, version)?); } v }; finish_tagged_field(buf, 2)?; }
                    3 if version >= 3 => { let buf = &mut field; v.zk_migration_ready = read_bool(buf)?; finish_tagged_field(buf, 3)?; }
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
        v.error_code = g.i16();
        v.api_keys = (0..g.collection_len()).map(|_| ApiVersion::sample(g, version)).collect();
        if version >= 1 { v.throttle_time_ms = g.i32(); }
        if (version >= 3) && g.bool() { v.supported_features = (0..g.collection_len()).map(|_| SupportedFeatureKey::sample(g, version)).collect(); }
        if (version >= 3) && g.bool() { v.finalized_features_epoch = g.i64(); }
        if (version >= 3) && g.bool() { v.finalized_features = (0..g.collection_len()).map(|_| FinalizedFeatureKey::sample(g, version)).collect(); }
        if (version >= 3) && g.bool() { v.zk_migration_ready = g.bool(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.api_keys { x.each_error_code(f); }
        for x in &self.supported_features { x.each_error_code(f); }
        for x in &self.finalized_features { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.api_keys { x.each_nullable_string(version, f); }
        if (false) || (version >= 3) { for x in &mut self.supported_features { x.each_nullable_string(version, f); } }
        if (false) || (version >= 3) { for x in &mut self.finalized_features { x.each_nullable_string(version, f); } }
    }
}

/// The APIs supported by the broker.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiVersion {
    /// The API index.
    ///
    /// Versions 0+.
    pub api_key: i16,
    /// The minimum supported version, inclusive.
    ///
    /// Versions 0+.
    pub min_version: i16,
    /// The maximum supported version, inclusive.
    ///
    /// Versions 0+.
    pub max_version: i16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ApiVersion {
    fn default() -> Self {
        ApiVersion {
            api_key: 0,
            min_version: 0,
            max_version: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ApiVersion {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 3;
        w.put_i16(*(&self.api_key));
        w.put_i16(*(&self.min_version));
        w.put_i16(*(&self.max_version));
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
        n += 2;
        n += 2;
        n += 2;
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
        v.api_key = read_i16(buf)?;
        v.min_version = read_i16(buf)?;
        v.max_version = read_i16(buf)?;
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
        v.api_key = g.i16();
        v.min_version = g.i16();
        v.max_version = g.i16();
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

/// Features supported by the broker. Note: in v0-v3, features with MinSupportedVersion = 0 are omitted.
#[derive(Debug, Clone, PartialEq)]
pub struct SupportedFeatureKey {
    /// The name of the feature.
    ///
    /// Versions 3+.
    pub name: String,
    /// The minimum supported version for the feature.
    ///
    /// Versions 3+.
    pub min_version: i16,
    /// The maximum supported version for the feature.
    ///
    /// Versions 3+.
    pub max_version: i16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for SupportedFeatureKey {
    fn default() -> Self {
        SupportedFeatureKey {
            name: String::new(),
            min_version: 0,
            max_version: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SupportedFeatureKey {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 3;
        if version >= 3 { write_string(w, (&self.name), flexible)?; }
        if !(version >= 3) { if self.name != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Name", version }); } }
        if version >= 3 { w.put_i16(*(&self.min_version)); }
        if !(version >= 3) { if self.min_version != 0 { return Err(EncodeError::FieldNotInVersion { field: "MinVersion", version }); } }
        if version >= 3 { w.put_i16(*(&self.max_version)); }
        if !(version >= 3) { if self.max_version != 0 { return Err(EncodeError::FieldNotInVersion { field: "MaxVersion", version }); } }
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
        if version >= 3 { n += string_len((&self.name), flexible); }
        if version >= 3 { n += 2; }
        if version >= 3 { n += 2; }
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
        if version >= 3 { v.name = read_string(buf, flexible, "Name")?; }
        if version >= 3 { v.min_version = read_i16(buf)?; }
        if version >= 3 { v.max_version = read_i16(buf)?; }
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
        if version >= 3 { v.name = g.string(); }
        if version >= 3 { v.min_version = g.i16(); }
        if version >= 3 { v.max_version = g.i16(); }
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

/// List of cluster-wide finalized features. The information is valid only if FinalizedFeaturesEpoch >= 0.
#[derive(Debug, Clone, PartialEq)]
pub struct FinalizedFeatureKey {
    /// The name of the feature.
    ///
    /// Versions 3+.
    pub name: String,
    /// The cluster-wide finalized max version level for the feature.
    ///
    /// Versions 3+.
    pub max_version_level: i16,
    /// The cluster-wide finalized min version level for the feature.
    ///
    /// Versions 3+.
    pub min_version_level: i16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for FinalizedFeatureKey {
    fn default() -> Self {
        FinalizedFeatureKey {
            name: String::new(),
            max_version_level: 0,
            min_version_level: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FinalizedFeatureKey {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 3;
        if version >= 3 { write_string(w, (&self.name), flexible)?; }
        if !(version >= 3) { if self.name != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Name", version }); } }
        if version >= 3 { w.put_i16(*(&self.max_version_level)); }
        if !(version >= 3) { if self.max_version_level != 0 { return Err(EncodeError::FieldNotInVersion { field: "MaxVersionLevel", version }); } }
        if version >= 3 { w.put_i16(*(&self.min_version_level)); }
        if !(version >= 3) { if self.min_version_level != 0 { return Err(EncodeError::FieldNotInVersion { field: "MinVersionLevel", version }); } }
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
        if version >= 3 { n += string_len((&self.name), flexible); }
        if version >= 3 { n += 2; }
        if version >= 3 { n += 2; }
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
        if version >= 3 { v.name = read_string(buf, flexible, "Name")?; }
        if version >= 3 { v.max_version_level = read_i16(buf)?; }
        if version >= 3 { v.min_version_level = read_i16(buf)?; }
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
        if version >= 3 { v.name = g.string(); }
        if version >= 3 { v.max_version_level = g.i16(); }
        if version >= 3 { v.min_version_level = g.i16(); }
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
