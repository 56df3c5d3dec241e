//! Generated from `DescribeShareGroupOffsetsRequest.json` by fjord-codegen. Do not edit.

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

/// The `DescribeShareGroupOffsetsRequest` request (api key 90, versions 0-1).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsRequest {
    /// The groups to describe offsets for.
    ///
    /// Versions 0+.
    pub groups: Vec<DescribeShareGroupOffsetsRequestGroup>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeShareGroupOffsetsRequest {
    fn default() -> Self {
        DescribeShareGroupOffsetsRequest {
            groups: Vec::<DescribeShareGroupOffsetsRequestGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsRequest {
    /// The message name.
    pub const NAME: &'static str = "DescribeShareGroupOffsetsRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 1;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=1).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DescribeShareGroupOffsetsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        write_len_prefix(w, (&self.groups).len(), flexible)?; for e0 in (&self.groups).iter() { e0.encode(w, version)?; }
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
        n += len_prefix_len((&self.groups).len(), flexible) + (&self.groups).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=1).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DescribeShareGroupOffsetsRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.groups = { let n = read_array_len_non_null(buf, flexible, "Groups")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeShareGroupOffsetsRequestGroup::decode(buf, version)?); } v };
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
        v.groups = (0..g.collection_len()).map(|_| DescribeShareGroupOffsetsRequestGroup::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.groups { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.groups { x.each_nullable_string(version, f); }
    }
}

/// The groups to describe offsets for.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsRequestGroup {
    /// The group identifier.
    ///
    /// Versions 0+.
    pub group_id: String,
    /// The topics to describe offsets for, or null for all topic-partitions.
    ///
    /// Versions 0+; nullable 0+.
    pub topics: Option<Vec<DescribeShareGroupOffsetsRequestTopic>>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeShareGroupOffsetsRequestGroup {
    fn default() -> Self {
        DescribeShareGroupOffsetsRequestGroup {
            group_id: String::new(),
            topics: Some(Vec::<DescribeShareGroupOffsetsRequestTopic>::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsRequestGroup {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.group_id), flexible)?;
        match (&self.topics) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { e0.encode(w, version)?; } } None => { write_null(w, flexible); } }
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
        n += string_len((&self.group_id), flexible);
        n += match (&self.topics) { Some(x) => len_prefix_len(x.len(), flexible) + x.iter().map(|e0| e0.encoded_len(version)).sum::<usize>(), None => null_len(flexible) };
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
        v.group_id = read_string(buf, flexible, "GroupId")?;
        v.topics = match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeShareGroupOffsetsRequestTopic::decode(buf, version)?); } Some(v) } };
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
        v.group_id = g.string();
        v.topics = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| DescribeShareGroupOffsetsRequestTopic::sample(g, version)).collect()) };
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

/// The topics to describe offsets for, or null for all topic-partitions.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsRequestTopic {
    /// The topic name.
    ///
    /// Versions 0+.
    pub topic_name: String,
    /// The partitions.
    ///
    /// Versions 0+.
    pub partitions: Vec<i32>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeShareGroupOffsetsRequestTopic {
    fn default() -> Self {
        DescribeShareGroupOffsetsRequestTopic {
            topic_name: String::new(),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsRequestTopic {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.topic_name), flexible)?;
        write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { w.put_i32(*e0); }
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
        n += string_len((&self.topic_name), flexible);
        n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).len() * 4;
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
        v.topic_name = read_string(buf, flexible, "TopicName")?;
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
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
        v.topic_name = g.string();
        v.partitions = (0..g.collection_len()).map(|_| g.i32()).collect();
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
