//! Generated from `OffsetFetchRequest.json` by fjord-codegen. Do not edit.

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

/// The `OffsetFetchRequest` request (api key 9, versions 1-10).
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchRequest {
    /// The group to fetch offsets for.
    ///
    /// Versions 0-7.
    pub group_id: String,
    /// Each topic we would like to fetch offsets for, or null to fetch offsets for all topics.
    ///
    /// Versions 0-7; nullable 2-7.
    pub topics: Option<Vec<OffsetFetchRequestTopic>>,
    /// Each group we would like to fetch offsets for.
    ///
    /// Versions 8+.
    pub groups: Vec<OffsetFetchRequestGroup>,
    /// Whether broker should hold on returning unstable offsets but set a retriable error code for the partitions.
    ///
    /// Versions 7+.
    pub require_stable: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for OffsetFetchRequest {
    fn default() -> Self {
        OffsetFetchRequest {
            group_id: String::new(),
            topics: Some(Vec::<OffsetFetchRequestTopic>::new()),
            groups: Vec::<OffsetFetchRequestGroup>::new(),
            require_stable: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchRequest {
    /// The message name.
    pub const NAME: &'static str = "OffsetFetchRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 10;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(6);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=10).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "OffsetFetchRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 6;
        if version <= 7 { write_string(w, (&self.group_id), flexible)?; }
        if !(version <= 7) { if self.group_id != String::new() { return Err(EncodeError::FieldNotInVersion { field: "GroupId", version }); } }
        if version <= 7 { match (&self.topics) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { e0.encode(w, version)?; } } None => { if !((version >= 2 && version <= 7)) { return Err(EncodeError::NullNotAllowed { field: "Topics", version }); } write_null(w, flexible); } } }
        if !(version <= 7) { if self.topics != Some(Vec::<OffsetFetchRequestTopic>::new()) { return Err(EncodeError::FieldNotInVersion { field: "Topics", version }); } }
        if version >= 8 { write_len_prefix(w, (&self.groups).len(), flexible)?; for e0 in (&self.groups).iter() { e0.encode(w, version)?; } }
        if !(version >= 8) { if self.groups != Vec::<OffsetFetchRequestGroup>::new() { return Err(EncodeError::FieldNotInVersion { field: "Groups", version }); } }
        if version >= 7 { write_bool(w, *(&self.require_stable)); }
        if !(version >= 7) { if self.require_stable != false { return Err(EncodeError::FieldNotInVersion { field: "RequireStable", version }); } }
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
        if version <= 7 { n += string_len((&self.group_id), flexible); }
        if version <= 7 { n += match (&self.topics) { Some(x) => len_prefix_len(x.len(), flexible) + x.iter().map(|e0| e0.encoded_len(version)).sum::<usize>(), None => null_len(flexible) }; }
        if version >= 8 { n += len_prefix_len((&self.groups).len(), flexible) + (&self.groups).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if version >= 7 { n += 1; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=10).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "OffsetFetchRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 7 { v.group_id = read_string(buf, flexible, "GroupId")?; }
        if version <= 7 { v.topics = if (version >= 2 && version <= 7) { match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(OffsetFetchRequestTopic::decode(buf, version)?); } Some(v) } } } else { Some({ let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(OffsetFetchRequestTopic::decode(buf, version)?); } v }) }; }
        if version >= 8 { v.groups = { let n = read_array_len_non_null(buf, flexible, "Groups")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(OffsetFetchRequestGroup::decode(buf, version)?); } v }; }
        if version >= 7 { v.require_stable = read_bool(buf)?; }
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
        if version <= 7 { v.group_id = g.string(); }
        if version <= 7 { v.topics = if ((version >= 2 && version <= 7)) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| OffsetFetchRequestTopic::sample(g, version)).collect()) }; }
        if version >= 8 { v.groups = (0..g.collection_len()).map(|_| OffsetFetchRequestGroup::sample(g, version)).collect(); }
        if version >= 7 { v.require_stable = g.bool(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        if let Some(v) = &self.topics { for x in v { x.each_error_code(f); } }
        for x in &self.groups { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version <= 7 { if let Some(v) = &mut self.topics { for x in v { x.each_nullable_string(version, f); } } }
        if version >= 8 { for x in &mut self.groups { x.each_nullable_string(version, f); } }
    }
}

/// Each topic we would like to fetch offsets for, or null to fetch offsets for all topics.
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchRequestTopic {
    /// The topic name.
    ///
    /// Versions 0-7.
    pub name: String,
    /// The partition indexes we would like to fetch offsets for.
    ///
    /// Versions 0-7.
    pub partition_indexes: Vec<i32>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for OffsetFetchRequestTopic {
    fn default() -> Self {
        OffsetFetchRequestTopic {
            name: String::new(),
            partition_indexes: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchRequestTopic {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 6;
        if version <= 7 { write_string(w, (&self.name), flexible)?; }
        if !(version <= 7) { if self.name != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Name", version }); } }
        if version <= 7 { write_len_prefix(w, (&self.partition_indexes).len(), flexible)?; for e0 in (&self.partition_indexes).iter() { w.put_i32(*e0); } }
        if !(version <= 7) { if self.partition_indexes != Vec::<i32>::new() { return Err(EncodeError::FieldNotInVersion { field: "PartitionIndexes", version }); } }
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
        if version <= 7 { n += len_prefix_len((&self.partition_indexes).len(), flexible) + (&self.partition_indexes).len() * 4; }
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
        if version <= 7 { v.partition_indexes = { let n = read_array_len_non_null(buf, flexible, "PartitionIndexes")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v }; }
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
        if version <= 7 { v.partition_indexes = (0..g.collection_len()).map(|_| g.i32()).collect(); }
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

/// Each group we would like to fetch offsets for.
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchRequestGroup {
    /// The group ID.
    ///
    /// Versions 8+.
    pub group_id: String,
    /// The member id.
    ///
    /// Versions 9+; nullable 9+.
    pub member_id: Option<String>,
    /// The member epoch if using the new consumer protocol (KIP-848).
    ///
    /// Versions 9+.
    pub member_epoch: i32,
    /// Each topic we would like to fetch offsets for, or null to fetch offsets for all topics.
    ///
    /// Versions 8+; nullable 8+.
    pub topics: Option<Vec<OffsetFetchRequestTopics>>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for OffsetFetchRequestGroup {
    fn default() -> Self {
        OffsetFetchRequestGroup {
            group_id: String::new(),
            member_id: None,
            member_epoch: -1,
            topics: Some(Vec::<OffsetFetchRequestTopics>::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchRequestGroup {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 6;
        if version >= 8 { write_string(w, (&self.group_id), flexible)?; }
        if !(version >= 8) { if self.group_id != String::new() { return Err(EncodeError::FieldNotInVersion { field: "GroupId", version }); } }
        if version >= 9 { match (&self.member_id) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 9) { return Err(EncodeError::NullNotAllowed { field: "MemberId", version }); } write_nullable_string(w, None, flexible)?; } } }
        if version >= 9 { w.put_i32(*(&self.member_epoch)); }
        if version >= 8 { match (&self.topics) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { e0.encode(w, version)?; } } None => { if !(version >= 8) { return Err(EncodeError::NullNotAllowed { field: "Topics", version }); } write_null(w, flexible); } } }
        if !(version >= 8) { if self.topics != Some(Vec::<OffsetFetchRequestTopics>::new()) { return Err(EncodeError::FieldNotInVersion { field: "Topics", version }); } }
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
        if version >= 9 { n += match (&self.member_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if version >= 9 { n += 4; }
        if version >= 8 { n += match (&self.topics) { Some(x) => len_prefix_len(x.len(), flexible) + x.iter().map(|e0| e0.encoded_len(version)).sum::<usize>(), None => null_len(flexible) }; }
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
        if version >= 9 { v.member_id = if version >= 9 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "MemberId")?) }; }
        if version >= 9 { v.member_epoch = read_i32(buf)?; }
        if version >= 8 { v.topics = if version >= 8 { match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(OffsetFetchRequestTopics::decode(buf, version)?); } Some(v) } } } else { Some({ let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(OffsetFetchRequestTopics::decode(buf, version)?); } v }) }; }
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
        if version >= 9 { v.member_id = if (version >= 9) && g.chance(4) { None } else { Some(g.string()) }; }
        if version >= 9 { v.member_epoch = g.i32(); }
        if version >= 8 { v.topics = if (version >= 8) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| OffsetFetchRequestTopics::sample(g, version)).collect()) }; }
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
        if version >= 9 { f("MemberId", &mut self.member_id); }
        if version >= 8 { if let Some(v) = &mut self.topics { for x in v { x.each_nullable_string(version, f); } } }
    }
}

/// Each topic we would like to fetch offsets for, or null to fetch offsets for all topics.
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetFetchRequestTopics {
    /// The topic name.
    ///
    /// Versions 8-9.
    pub name: String,
    /// The topic ID.
    ///
    /// Versions 10+.
    pub topic_id: Uuid,
    /// The partition indexes we would like to fetch offsets for.
    ///
    /// Versions 8+.
    pub partition_indexes: Vec<i32>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for OffsetFetchRequestTopics {
    fn default() -> Self {
        OffsetFetchRequestTopics {
            name: String::new(),
            topic_id: Uuid::nil(),
            partition_indexes: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetFetchRequestTopics {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 6;
        if (version >= 8 && version <= 9) { write_string(w, (&self.name), flexible)?; }
        if version >= 10 { write_uuid(w, (&self.topic_id)); }
        if version >= 8 { write_len_prefix(w, (&self.partition_indexes).len(), flexible)?; for e0 in (&self.partition_indexes).iter() { w.put_i32(*e0); } }
        if !(version >= 8) { if self.partition_indexes != Vec::<i32>::new() { return Err(EncodeError::FieldNotInVersion { field: "PartitionIndexes", version }); } }
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
        if version >= 8 { n += len_prefix_len((&self.partition_indexes).len(), flexible) + (&self.partition_indexes).len() * 4; }
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
        if version >= 8 { v.partition_indexes = { let n = read_array_len_non_null(buf, flexible, "PartitionIndexes")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v }; }
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
        if version >= 8 { v.partition_indexes = (0..g.collection_len()).map(|_| g.i32()).collect(); }
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
