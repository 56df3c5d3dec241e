//! Generated from `UpdateFeaturesRequest.json` by fjord-codegen. Do not edit.

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

/// The `UpdateFeaturesRequest` request (api key 57, versions 0-2).
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateFeaturesRequest {
    /// How long to wait in milliseconds before timing out the request.
    ///
    /// Versions 0+.
    pub timeout_ms: i32,
    /// The list of updates to finalized features.
    ///
    /// Versions 0+.
    pub feature_updates: Vec<FeatureUpdateKey>,
    /// True if we should validate the request, but not perform the upgrade or downgrade.
    ///
    /// Versions 1+.
    pub validate_only: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for UpdateFeaturesRequest {
    fn default() -> Self {
        UpdateFeaturesRequest {
            timeout_ms: 60000,
            feature_updates: Vec::<FeatureUpdateKey>::new(),
            validate_only: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl UpdateFeaturesRequest {
    /// The message name.
    pub const NAME: &'static str = "UpdateFeaturesRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 2;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=2).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "UpdateFeaturesRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.timeout_ms));
        write_len_prefix(w, (&self.feature_updates).len(), flexible)?; for e0 in (&self.feature_updates).iter() { e0.encode(w, version)?; }
        if version >= 1 { write_bool(w, *(&self.validate_only)); }
        if !(version >= 1) { if self.validate_only != false { return Err(EncodeError::FieldNotInVersion { field: "ValidateOnly", version }); } }
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
        let flexible = true;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
        n += len_prefix_len((&self.feature_updates).len(), flexible) + (&self.feature_updates).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if version >= 1 { n += 1; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=2).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "UpdateFeaturesRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.timeout_ms = read_i32(buf)?;
        v.feature_updates = { let n = read_array_len_non_null(buf, flexible, "FeatureUpdates")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(FeatureUpdateKey::decode(buf, version)?); } v };
        if version >= 1 { v.validate_only = read_bool(buf)?; }
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
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.timeout_ms = g.i32();
        v.feature_updates = (0..g.collection_len()).map(|_| FeatureUpdateKey::sample(g, version)).collect();
        if version >= 1 { v.validate_only = g.bool(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.feature_updates { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.feature_updates { x.each_nullable_string(version, f); }
    }
}

/// The list of updates to finalized features.
#[derive(Debug, Clone, PartialEq)]
pub struct FeatureUpdateKey {
    /// The name of the finalized feature to be updated.
    ///
    /// Versions 0+.
    pub feature: String,
    /// The new maximum version level for the finalized feature. A value >= 1 is valid. A value < 1, is special, and can be used to request the deletion of the finalized feature.
    ///
    /// Versions 0+.
    pub max_version_level: i16,
    /// DEPRECATED in version 1 (see DowngradeType). When set to true, the finalized feature version level is allowed to be downgraded/deleted. The downgrade request will fail if the new maximum version level is a value that's not lower than the existing maximum finalized version level.
    ///
    /// Versions 0.
    pub allow_downgrade: bool,
    /// Determine which type of upgrade will be performed: 1 will perform an upgrade only (default), 2 is safe downgrades only (lossless), 3 is unsafe downgrades (lossy).
    ///
    /// Versions 1+.
    pub upgrade_type: i8,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for FeatureUpdateKey {
    fn default() -> Self {
        FeatureUpdateKey {
            feature: String::new(),
            max_version_level: 0,
            allow_downgrade: false,
            upgrade_type: 1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FeatureUpdateKey {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.feature), flexible)?;
        w.put_i16(*(&self.max_version_level));
        if version <= 0 { write_bool(w, *(&self.allow_downgrade)); }
        if !(version <= 0) { if self.allow_downgrade != false { return Err(EncodeError::FieldNotInVersion { field: "AllowDowngrade", version }); } }
        if version >= 1 { w.put_i8(*(&self.upgrade_type)); }
        if !(version >= 1) { if self.upgrade_type != 1 { return Err(EncodeError::FieldNotInVersion { field: "UpgradeType", version }); } }
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
        let flexible = true;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.feature), flexible);
        n += 2;
        if version <= 0 { n += 1; }
        if version >= 1 { n += 1; }
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
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.feature = read_string(buf, flexible, "Feature")?;
        v.max_version_level = read_i16(buf)?;
        if version <= 0 { v.allow_downgrade = read_bool(buf)?; }
        if version >= 1 { v.upgrade_type = read_i8(buf)?; }
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
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.feature = g.string();
        v.max_version_level = g.i16();
        if version <= 0 { v.allow_downgrade = g.bool(); }
        if version >= 1 { v.upgrade_type = g.i8(); }
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
