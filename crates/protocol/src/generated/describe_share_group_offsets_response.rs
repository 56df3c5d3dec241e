//! Generated from `DescribeShareGroupOffsetsResponse.json` by fjord-codegen. Do not edit.

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

/// The `DescribeShareGroupOffsetsResponse` response (api key 90, versions 0-1).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 0+.
    pub throttle_time_ms: i32,
    /// The results for each group.
    ///
    /// Versions 0+.
    pub groups: Vec<DescribeShareGroupOffsetsResponseGroup>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeShareGroupOffsetsResponse {
    fn default() -> Self {
        DescribeShareGroupOffsetsResponse {
            throttle_time_ms: 0,
            groups: Vec::<DescribeShareGroupOffsetsResponseGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsResponse {
    /// The message name.
    pub const NAME: &'static str = "DescribeShareGroupOffsetsResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 1;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=1).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DescribeShareGroupOffsetsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.throttle_time_ms));
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
        n += 4;
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
        if !(0..=1).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DescribeShareGroupOffsetsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        v.groups = { let n = read_array_len_non_null(buf, flexible, "Groups")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeShareGroupOffsetsResponseGroup::decode(buf, version)?); } v };
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
        v.throttle_time_ms = g.i32();
        v.groups = (0..g.collection_len()).map(|_| DescribeShareGroupOffsetsResponseGroup::sample(g, version)).collect();
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

/// The results for each group.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsResponseGroup {
    /// The group identifier.
    ///
    /// Versions 0+.
    pub group_id: String,
    /// The results for each topic.
    ///
    /// Versions 0+.
    pub topics: Vec<DescribeShareGroupOffsetsResponseTopic>,
    /// The group-level error code, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The group-level error message, or null if there was no error.
    ///
    /// Versions 0+; nullable 0+.
    pub error_message: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeShareGroupOffsetsResponseGroup {
    fn default() -> Self {
        DescribeShareGroupOffsetsResponseGroup {
            group_id: String::new(),
            topics: Vec::<DescribeShareGroupOffsetsResponseTopic>::new(),
            error_code: 0,
            error_message: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsResponseGroup {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.group_id), flexible)?;
        write_len_prefix(w, (&self.topics).len(), flexible)?; for e0 in (&self.topics).iter() { e0.encode(w, version)?; }
        w.put_i16(*(&self.error_code));
        match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
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
        n += len_prefix_len((&self.topics).len(), flexible) + (&self.topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += 2;
        n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
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
        v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeShareGroupOffsetsResponseTopic::decode(buf, version)?); } v };
        v.error_code = read_i16(buf)?;
        v.error_message = read_nullable_string(buf, flexible)?;
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
        v.topics = (0..g.collection_len()).map(|_| DescribeShareGroupOffsetsResponseTopic::sample(g, version)).collect();
        v.error_code = g.i16();
        v.error_message = if (true) && g.chance(4) { None } else { Some(g.string()) };
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
        for x in &mut self.topics { x.each_nullable_string(version, f); }
        f("ErrorMessage", &mut self.error_message);
    }
}

/// The results for each topic.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsResponseTopic {
    /// The topic name.
    ///
    /// Versions 0+.
    pub topic_name: String,
    /// The unique topic ID.
    ///
    /// Versions 0+.
    pub topic_id: Uuid,
    /// The Partitions field.
    ///
    /// Versions 0+.
    pub partitions: Vec<DescribeShareGroupOffsetsResponsePartition>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeShareGroupOffsetsResponseTopic {
    fn default() -> Self {
        DescribeShareGroupOffsetsResponseTopic {
            topic_name: String::new(),
            topic_id: Uuid::nil(),
            partitions: Vec::<DescribeShareGroupOffsetsResponsePartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsResponseTopic {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.topic_name), flexible)?;
        write_uuid(w, (&self.topic_id));
        write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { e0.encode(w, version)?; }
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
        n += 16;
        n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.topic_id = read_uuid(buf)?;
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeShareGroupOffsetsResponsePartition::decode(buf, version)?); } v };
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
        v.topic_id = g.uuid();
        v.partitions = (0..g.collection_len()).map(|_| DescribeShareGroupOffsetsResponsePartition::sample(g, version)).collect();
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
        for x in &mut self.partitions { x.each_nullable_string(version, f); }
    }
}

/// The `Partitions` struct.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeShareGroupOffsetsResponsePartition {
    /// The partition index.
    ///
    /// Versions 0+.
    pub partition_index: i32,
    /// The share-partition start offset.
    ///
    /// Versions 0+.
    pub start_offset: i64,
    /// The leader epoch of the partition.
    ///
    /// Versions 0+.
    pub leader_epoch: i32,
    /// The share-partition lag.
    ///
    /// Versions 1+.
    pub lag: i64,
    /// The partition-level error code, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The partition-level error message, or null if there was no error.
    ///
    /// Versions 0+; nullable 0+.
    pub error_message: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeShareGroupOffsetsResponsePartition {
    fn default() -> Self {
        DescribeShareGroupOffsetsResponsePartition {
            partition_index: 0,
            start_offset: 0,
            leader_epoch: 0,
            lag: -1,
            error_code: 0,
            error_message: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeShareGroupOffsetsResponsePartition {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.partition_index));
        w.put_i64(*(&self.start_offset));
        w.put_i32(*(&self.leader_epoch));
        if version >= 1 { w.put_i64(*(&self.lag)); }
        w.put_i16(*(&self.error_code));
        match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
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
        n += 8;
        n += 4;
        if version >= 1 { n += 8; }
        n += 2;
        n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
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
        v.partition_index = read_i32(buf)?;
        v.start_offset = read_i64(buf)?;
        v.leader_epoch = read_i32(buf)?;
        if version >= 1 { v.lag = read_i64(buf)?; }
        v.error_code = read_i16(buf)?;
        v.error_message = read_nullable_string(buf, flexible)?;
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
        v.partition_index = g.i32();
        v.start_offset = g.i64();
        v.leader_epoch = g.i32();
        if version >= 1 { v.lag = g.i64(); }
        v.error_code = g.i16();
        v.error_message = if (true) && g.chance(4) { None } else { Some(g.string()) };
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
        f("ErrorMessage", &mut self.error_message);
    }
}
