//! Generated from `StreamsGroupMetadataValue.json` by fjord-codegen. Do not edit.

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

/// The `StreamsGroupMetadataValue` coordinator-value (type 17, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamsGroupMetadataValue {
    /// The group epoch.
    ///
    /// Versions 0+.
    pub epoch: i32,
    /// The hash of all topics in the group.
    ///
    /// Versions 0+.
    pub metadata_hash: i64,
    /// The topology epoch whose topics are validated to be present in a valid configuration in the metadata.
    ///
    /// Versions 0+; tag 0 in 0+.
    pub validated_topology_epoch: i32,
    /// The last used configuration parameters as key-value pairs.
    ///
    /// Versions 0+; nullable 0+; tag 1 in 0+.
    pub last_assignment_configs: Option<Vec<LastAssignmentConfig>>,
    /// The topology epoch the plugin holds, or -1 if none. -2 (uncertain) marks an interrupted plugin operation: it solicits a push like -1 and is delete-eligible like a stored epoch.
    ///
    /// Versions 0+; tag 2 in 0+.
    pub stored_description_topology_epoch: i32,
    /// The topology epoch whose description push the plugin permanently rejected (signalled by StreamsTopologyDescriptionPermanentFailureException), or -1 if none. Heartbeat-path solicitation is suppressed while this equals the current topology epoch, to avoid hot-looping.
    ///
    /// Versions 0+; tag 3 in 0+.
    pub failed_description_topology_epoch: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for StreamsGroupMetadataValue {
    fn default() -> Self {
        StreamsGroupMetadataValue {
            epoch: 0,
            metadata_hash: 0,
            validated_topology_epoch: -1,
            last_assignment_configs: None,
            stored_description_topology_epoch: -1,
            failed_description_topology_epoch: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl StreamsGroupMetadataValue {
    /// The message name.
    pub const NAME: &'static str = "StreamsGroupMetadataValue";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "StreamsGroupMetadataValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.epoch));
        w.put_i64(*(&self.metadata_hash));
        if !((false) || (true)) { if self.validated_topology_epoch != -1 { return Err(EncodeError::FieldNotInVersion { field: "ValidatedTopologyEpoch", version }); } }
        if !((false) || (true)) { if self.last_assignment_configs != None { return Err(EncodeError::FieldNotInVersion { field: "LastAssignmentConfigs", version }); } }
        if !((false) || (true)) { if self.stored_description_topology_epoch != -1 { return Err(EncodeError::FieldNotInVersion { field: "StoredDescriptionTopologyEpoch", version }); } }
        if !((false) || (true)) { if self.failed_description_topology_epoch != -1 { return Err(EncodeError::FieldNotInVersion { field: "FailedDescriptionTopologyEpoch", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if true && self.validated_topology_epoch != -1 { count += 1; }
            if true && self.last_assignment_configs != None { count += 1; }
            if true && self.stored_description_topology_epoch != -1 { count += 1; }
            if true && self.failed_description_topology_epoch != -1 { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.validated_topology_epoch != -1 { write_uvarint(w, 0); write_uvarint(w, (4) as u32); w.put_i32(*(&self.validated_topology_epoch)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 1 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.last_assignment_configs != None { write_uvarint(w, 1); write_uvarint(w, (match (&self.last_assignment_configs) { Some(x) => len_prefix_len(x.len(), true) + x.iter().map(|e0| e0.encoded_len(version)).sum::<usize>(), None => null_len(true) }) as u32); match (&self.last_assignment_configs) { Some(x) => { write_len_prefix(w, x.len(), true)?; for e0 in x.iter() { e0.encode(w, version)?; } } None => { write_null(w, true); } } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 2 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.stored_description_topology_epoch != -1 { write_uvarint(w, 2); write_uvarint(w, (4) as u32); w.put_i32(*(&self.stored_description_topology_epoch)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 3 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.failed_description_topology_epoch != -1 { write_uvarint(w, 3); write_uvarint(w, (4) as u32); w.put_i32(*(&self.failed_description_topology_epoch)); }
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
        n += 8;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if true && self.validated_topology_epoch != -1 { count += 1; let s = 4; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            if true && self.last_assignment_configs != None { count += 1; let s = match (&self.last_assignment_configs) { Some(x) => len_prefix_len(x.len(), true) + x.iter().map(|e0| e0.encoded_len(version)).sum::<usize>(), None => null_len(true) }; n += uvarint_len(1) + uvarint_len(s as u32) + s; }
            if true && self.stored_description_topology_epoch != -1 { count += 1; let s = 4; n += uvarint_len(2) + uvarint_len(s as u32) + s; }
            if true && self.failed_description_topology_epoch != -1 { count += 1; let s = 4; n += uvarint_len(3) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "StreamsGroupMetadataValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.epoch = read_i32(buf)?;
        v.metadata_hash = read_i64(buf)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 => { let buf = &mut field; v.validated_topology_epoch = read_i32(buf)?; finish_tagged_field(buf, 0)?; }
                    1 => { let buf = &mut field; v.last_assignment_configs = match read_array_len(buf, true)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(LastAssignmentConfig::decode(buf, version)?); } Some(v) } }; finish_tagged_field(buf, 1)?; }
                    2 => { let buf = &mut field; v.stored_description_topology_epoch = read_i32(buf)?; finish_tagged_field(buf, 2)?; }
                    3 => { let buf = &mut field; v.failed_description_topology_epoch = read_i32(buf)?; finish_tagged_field(buf, 3)?; }
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
        v.epoch = g.i32();
        v.metadata_hash = g.i64();
        if (true) && g.bool() { v.validated_topology_epoch = g.i32(); }
        if (true) && g.bool() { v.last_assignment_configs = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| LastAssignmentConfig::sample(g, version)).collect()) }; }
        if (true) && g.bool() { v.stored_description_topology_epoch = g.i32(); }
        if (true) && g.bool() { v.failed_description_topology_epoch = g.i32(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        if let Some(v) = &self.last_assignment_configs { for x in v { x.each_error_code(f); } }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if (false) || (true) { if let Some(v) = &mut self.last_assignment_configs { for x in v { x.each_nullable_string(version, f); } } }
    }
}

/// The common struct `LastAssignmentConfig`.
#[derive(Debug, Clone, PartialEq)]
pub struct LastAssignmentConfig {
    /// Key of the config.
    ///
    /// Versions 0+.
    pub key: String,
    /// Value of the config.
    ///
    /// Versions 0+.
    pub value: String,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for LastAssignmentConfig {
    fn default() -> Self {
        LastAssignmentConfig {
            key: String::new(),
            value: String::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl LastAssignmentConfig {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.key), flexible)?;
        write_string(w, (&self.value), flexible)?;
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
        n += string_len((&self.key), flexible);
        n += string_len((&self.value), flexible);
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
        v.key = read_string(buf, flexible, "Key")?;
        v.value = read_string(buf, flexible, "Value")?;
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
        v.key = g.string();
        v.value = g.string();
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
