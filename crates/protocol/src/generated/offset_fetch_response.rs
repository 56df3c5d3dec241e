//! Generated from `OffsetFetchResponse.json` by fjord-codegen. Do not edit.

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

/// The `OffsetFetchResponse` response (api key 9, versions 1-10).
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 3+.
    pub throttle_time_ms: i32,
    /// The responses per topic.
    ///
    /// Versions 0-7.
    pub topics: Vec<OffsetFetchResponseTopic>,
    /// The top-level error code, or 0 if there was no error.
    ///
    /// Versions 2-7.
    pub error_code: i16,
    /// The responses per group id.
    ///
    /// Versions 8+.
    pub groups: Vec<OffsetFetchResponseGroup>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for OffsetFetchResponse {
    fn default() -> Self {
        OffsetFetchResponse {
            throttle_time_ms: 0,
            topics: Vec::<OffsetFetchResponseTopic>::new(),
            error_code: 0,
            groups: Vec::<OffsetFetchResponseGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchResponse {
    /// The message name.
    pub const NAME: &'static str = "OffsetFetchResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 10;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(6);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=10).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "OffsetFetchResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 6;
        if version >= 3 { w.put_i32(*(&self.throttle_time_ms)); }
        if version <= 7 { write_len_prefix(w, (&self.topics).len(), flexible)?; for e0 in (&self.topics).iter() { e0.encode(w, version)?; } }
        if !(version <= 7) { if self.topics != Vec::<OffsetFetchResponseTopic>::new() { return Err(EncodeError::FieldNotInVersion { field: "Topics", version }); } }
        if (version >= 2 && version <= 7) { w.put_i16(*(&self.error_code)); }
        if version >= 8 { write_len_prefix(w, (&self.groups).len(), flexible)?; for e0 in (&self.groups).iter() { e0.encode(w, version)?; } }
        if !(version >= 8) { if self.groups != Vec::<OffsetFetchResponseGroup>::new() { return Err(EncodeError::FieldNotInVersion { field: "Groups", version }); } }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 3 { n += 4; }
        if version <= 7 { n += len_prefix_len((&self.topics).len(), flexible) + (&self.topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if (version >= 2 && version <= 7) { n += 2; }
        if version >= 8 { n += len_prefix_len((&self.groups).len(), flexible) + (&self.groups).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=10).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "OffsetFetchResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 3 { v.throttle_time_ms = read_i32(buf)?; }
        if version <= 7 { v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(OffsetFetchResponseTopic::decode(buf, version)?); } v }; }
        if (version >= 2 && version <= 7) { v.error_code = read_i16(buf)?; }
        if version >= 8 { v.groups = { let n = read_array_len_non_null(buf, flexible, "Groups")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(OffsetFetchResponseGroup::decode(buf, version)?); } v }; }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 3 { v.throttle_time_ms = g.i32(); }
        if version <= 7 { v.topics = (0..g.collection_len()).map(|_| OffsetFetchResponseTopic::sample(g, version)).collect(); }
        if (version >= 2 && version <= 7) { v.error_code = g.i16(); }
        if version >= 8 { v.groups = (0..g.collection_len()).map(|_| OffsetFetchResponseGroup::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.topics { x.each_error_code(f); }
        f(self.error_code);
        for x in &self.groups { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version <= 7 { for x in &mut self.topics { x.each_nullable_string(version, f); } }
        if version >= 8 { for x in &mut self.groups { x.each_nullable_string(version, f); } }
    }
}

/// The responses per topic.
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchResponseTopic {
    /// The topic name.
    ///
    /// Versions 0-7.
    pub name: String,
    /// The responses per partition.
    ///
    /// Versions 0-7.
    pub partitions: Vec<OffsetFetchResponsePartition>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for OffsetFetchResponseTopic {
    fn default() -> Self {
        OffsetFetchResponseTopic {
            name: String::new(),
            partitions: Vec::<OffsetFetchResponsePartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchResponseTopic {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 6;
        if version <= 7 { write_string(w, (&self.name), flexible)?; }
        if !(version <= 7) { if self.name != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Name", version }); } }
        if version <= 7 { write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { e0.encode(w, version)?; } }
        if !(version <= 7) { if self.partitions != Vec::<OffsetFetchResponsePartition>::new() { return Err(EncodeError::FieldNotInVersion { field: "Partitions", version }); } }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version <= 7 { n += string_len((&self.name), flexible); }
        if version <= 7 { n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 7 { v.name = read_string(buf, flexible, "Name")?; }
        if version <= 7 { v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(OffsetFetchResponsePartition::decode(buf, version)?); } v }; }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 7 { v.name = g.string(); }
        if version <= 7 { v.partitions = (0..g.collection_len()).map(|_| OffsetFetchResponsePartition::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.partitions { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version <= 7 { for x in &mut self.partitions { x.each_nullable_string(version, f); } }
    }
}

/// The responses per partition.
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchResponsePartition {
    /// The partition index.
    ///
    /// Versions 0-7.
    pub partition_index: i32,
    /// The committed message offset.
    ///
    /// Versions 0-7.
    pub committed_offset: i64,
    /// The leader epoch.
    ///
    /// Versions 5-7.
    pub committed_leader_epoch: i32,
    /// The partition metadata.
    ///
    /// Versions 0-7; nullable 0-7.
    pub metadata: Option<String>,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions 0-7.
    pub error_code: i16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for OffsetFetchResponsePartition {
    fn default() -> Self {
        OffsetFetchResponsePartition {
            partition_index: 0,
            committed_offset: 0,
            committed_leader_epoch: -1,
            metadata: Some(String::new()),
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchResponsePartition {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 6;
        if version <= 7 { w.put_i32(*(&self.partition_index)); }
        if !(version <= 7) { if self.partition_index != 0 { return Err(EncodeError::FieldNotInVersion { field: "PartitionIndex", version }); } }
        if version <= 7 { w.put_i64(*(&self.committed_offset)); }
        if !(version <= 7) { if self.committed_offset != 0 { return Err(EncodeError::FieldNotInVersion { field: "CommittedOffset", version }); } }
        if (version >= 5 && version <= 7) { w.put_i32(*(&self.committed_leader_epoch)); }
        if version <= 7 { match (&self.metadata) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version <= 7) { return Err(EncodeError::NullNotAllowed { field: "Metadata", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version <= 7) { if self.metadata != Some(String::new()) { return Err(EncodeError::FieldNotInVersion { field: "Metadata", version }); } }
        if version <= 7 { w.put_i16(*(&self.error_code)); }
        if !(version <= 7) { if self.error_code != 0 { return Err(EncodeError::FieldNotInVersion { field: "ErrorCode", version }); } }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version <= 7 { n += 4; }
        if version <= 7 { n += 8; }
        if (version >= 5 && version <= 7) { n += 4; }
        if version <= 7 { n += match (&self.metadata) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if version <= 7 { n += 2; }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 7 { v.partition_index = read_i32(buf)?; }
        if version <= 7 { v.committed_offset = read_i64(buf)?; }
        if (version >= 5 && version <= 7) { v.committed_leader_epoch = read_i32(buf)?; }
        if version <= 7 { v.metadata = if version <= 7 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "Metadata")?) }; }
        if version <= 7 { v.error_code = read_i16(buf)?; }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 7 { v.partition_index = g.i32(); }
        if version <= 7 { v.committed_offset = g.i64(); }
        if (version >= 5 && version <= 7) { v.committed_leader_epoch = g.i32(); }
        if version <= 7 { v.metadata = if (version <= 7) && g.chance(4) { None } else { Some(g.string()) }; }
        if version <= 7 { v.error_code = g.i16(); }
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
        if version <= 7 { f("Metadata", &mut self.metadata); }
    }
}

/// The responses per group id.
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchResponseGroup {
    /// The group ID.
    ///
    /// Versions 8+.
    pub group_id: String,
    /// The responses per topic.
    ///
    /// Versions 8+.
    pub topics: Vec<OffsetFetchResponseTopics>,
    /// The group-level error code, or 0 if there was no error.
    ///
    /// Versions 8+.
    pub error_code: i16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for OffsetFetchResponseGroup {
    fn default() -> Self {
        OffsetFetchResponseGroup {
            group_id: String::new(),
            topics: Vec::<OffsetFetchResponseTopics>::new(),
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchResponseGroup {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 6;
        if version >= 8 { write_string(w, (&self.group_id), flexible)?; }
        if !(version >= 8) { if self.group_id != String::new() { return Err(EncodeError::FieldNotInVersion { field: "GroupId", version }); } }
        if version >= 8 { write_len_prefix(w, (&self.topics).len(), flexible)?; for e0 in (&self.topics).iter() { e0.encode(w, version)?; } }
        if !(version >= 8) { if self.topics != Vec::<OffsetFetchResponseTopics>::new() { return Err(EncodeError::FieldNotInVersion { field: "Topics", version }); } }
        if version >= 8 { w.put_i16(*(&self.error_code)); }
        if !(version >= 8) { if self.error_code != 0 { return Err(EncodeError::FieldNotInVersion { field: "ErrorCode", version }); } }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 8 { n += string_len((&self.group_id), flexible); }
        if version >= 8 { n += len_prefix_len((&self.topics).len(), flexible) + (&self.topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if version >= 8 { n += 2; }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 8 { v.group_id = read_string(buf, flexible, "GroupId")?; }
        if version >= 8 { v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(OffsetFetchResponseTopics::decode(buf, version)?); } v }; }
        if version >= 8 { v.error_code = read_i16(buf)?; }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 8 { v.group_id = g.string(); }
        if version >= 8 { v.topics = (0..g.collection_len()).map(|_| OffsetFetchResponseTopics::sample(g, version)).collect(); }
        if version >= 8 { v.error_code = g.i16(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.topics { x.each_error_code(f); }
        f(self.error_code);
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 8 { for x in &mut self.topics { x.each_nullable_string(version, f); } }
    }
}

/// The responses per topic.
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchResponseTopics {
    /// The topic name.
    ///
    /// Versions 8-9.
    pub name: String,
    /// The topic ID.
    ///
    /// Versions 10+.
    pub topic_id: Uuid,
    /// The responses per partition.
    ///
    /// Versions 8+.
    pub partitions: Vec<OffsetFetchResponsePartitions>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for OffsetFetchResponseTopics {
    fn default() -> Self {
        OffsetFetchResponseTopics {
            name: String::new(),
            topic_id: Uuid::nil(),
            partitions: Vec::<OffsetFetchResponsePartitions>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchResponseTopics {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 6;
        if (version >= 8 && version <= 9) { write_string(w, (&self.name), flexible)?; }
        if version >= 10 { write_uuid(w, (&self.topic_id)); }
        if version >= 8 { write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { e0.encode(w, version)?; } }
        if !(version >= 8) { if self.partitions != Vec::<OffsetFetchResponsePartitions>::new() { return Err(EncodeError::FieldNotInVersion { field: "Partitions", version }); } }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if (version >= 8 && version <= 9) { n += string_len((&self.name), flexible); }
        if version >= 10 { n += 16; }
        if version >= 8 { n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if (version >= 8 && version <= 9) { v.name = read_string(buf, flexible, "Name")?; }
        if version >= 10 { v.topic_id = read_uuid(buf)?; }
        if version >= 8 { v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(OffsetFetchResponsePartitions::decode(buf, version)?); } v }; }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if (version >= 8 && version <= 9) { v.name = g.string(); }
        if version >= 10 { v.topic_id = g.uuid(); }
        if version >= 8 { v.partitions = (0..g.collection_len()).map(|_| OffsetFetchResponsePartitions::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.partitions { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 8 { for x in &mut self.partitions { x.each_nullable_string(version, f); } }
    }
}

/// The responses per partition.
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchResponsePartitions {
    /// The partition index.
    ///
    /// Versions 8+.
    pub partition_index: i32,
    /// The committed message offset.
    ///
    /// Versions 8+.
    pub committed_offset: i64,
    /// The leader epoch.
    ///
    /// Versions 8+.
    pub committed_leader_epoch: i32,
    /// The partition metadata.
    ///
    /// Versions 8+; nullable 8+.
    pub metadata: Option<String>,
    /// The partition-level error code, or 0 if there was no error.
    ///
    /// Versions 8+.
    pub error_code: i16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for OffsetFetchResponsePartitions {
    fn default() -> Self {
        OffsetFetchResponsePartitions {
            partition_index: 0,
            committed_offset: 0,
            committed_leader_epoch: -1,
            metadata: Some(String::new()),
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchResponsePartitions {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 6;
        if version >= 8 { w.put_i32(*(&self.partition_index)); }
        if !(version >= 8) { if self.partition_index != 0 { return Err(EncodeError::FieldNotInVersion { field: "PartitionIndex", version }); } }
        if version >= 8 { w.put_i64(*(&self.committed_offset)); }
        if !(version >= 8) { if self.committed_offset != 0 { return Err(EncodeError::FieldNotInVersion { field: "CommittedOffset", version }); } }
        if version >= 8 { w.put_i32(*(&self.committed_leader_epoch)); }
        if version >= 8 { match (&self.metadata) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 8) { return Err(EncodeError::NullNotAllowed { field: "Metadata", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 8) { if self.metadata != Some(String::new()) { return Err(EncodeError::FieldNotInVersion { field: "Metadata", version }); } }
        if version >= 8 { w.put_i16(*(&self.error_code)); }
        if !(version >= 8) { if self.error_code != 0 { return Err(EncodeError::FieldNotInVersion { field: "ErrorCode", version }); } }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 8 { n += 4; }
        if version >= 8 { n += 8; }
        if version >= 8 { n += 4; }
        if version >= 8 { n += match (&self.metadata) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if version >= 8 { n += 2; }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 8 { v.partition_index = read_i32(buf)?; }
        if version >= 8 { v.committed_offset = read_i64(buf)?; }
        if version >= 8 { v.committed_leader_epoch = read_i32(buf)?; }
        if version >= 8 { v.metadata = if version >= 8 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "Metadata")?) }; }
        if version >= 8 { v.error_code = read_i16(buf)?; }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 8 { v.partition_index = g.i32(); }
        if version >= 8 { v.committed_offset = g.i64(); }
        if version >= 8 { v.committed_leader_epoch = g.i32(); }
        if version >= 8 { v.metadata = if (version >= 8) && g.chance(4) { None } else { Some(g.string()) }; }
        if version >= 8 { v.error_code = g.i16(); }
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
        if version >= 8 { f("Metadata", &mut self.metadata); }
    }
}
