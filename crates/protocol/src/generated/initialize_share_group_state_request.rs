//! Generated from `InitializeShareGroupStateRequest.json` by fjord-codegen. Do not edit.

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

/// The `InitializeShareGroupStateRequest` request (api key 83, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct InitializeShareGroupStateRequest {
    /// The group identifier.
    ///
    /// Versions 0+.
    pub group_id: String,
    /// The data for the topics.
    ///
    /// Versions 0+.
    pub topics: Vec<InitializeStateData>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for InitializeShareGroupStateRequest {
    fn default() -> Self {
        InitializeShareGroupStateRequest {
            group_id: String::new(),
            topics: Vec::<InitializeStateData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl InitializeShareGroupStateRequest {
    /// The message name.
    pub const NAME: &'static str = "InitializeShareGroupStateRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "InitializeShareGroupStateRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.group_id), flexible)?;
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
        let flexible = true;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.group_id), flexible);
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
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "InitializeShareGroupStateRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.group_id = read_string(buf, flexible, "GroupId")?;
        v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(InitializeStateData::decode(buf, version)?); } v };
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
        v.topics = (0..g.collection_len()).map(|_| InitializeStateData::sample(g, version)).collect();
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

/// The data for the topics.
#[derive(Debug, Clone, PartialEq)]
pub struct InitializeStateData {
    /// The topic identifier.
    ///
    /// Versions 0+.
    pub topic_id: Uuid,
    /// The data for the partitions.
    ///
    /// Versions 0+.
    pub partitions: Vec<PartitionData>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for InitializeStateData {
    fn default() -> Self {
        InitializeStateData {
            topic_id: Uuid::nil(),
            partitions: Vec::<PartitionData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl InitializeStateData {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
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
        v.topic_id = read_uuid(buf)?;
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(PartitionData::decode(buf, version)?); } v };
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
        v.topic_id = g.uuid();
        v.partitions = (0..g.collection_len()).map(|_| PartitionData::sample(g, version)).collect();
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

/// The data for the partitions.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions 0+.
    pub partition: i32,
    /// The state epoch for this share-partition.
    ///
    /// Versions 0+.
    pub state_epoch: i32,
    /// The share-partition start offset, or -1 if the start offset is not being initialized.
    ///
    /// Versions 0+.
    pub start_offset: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for PartitionData {
    fn default() -> Self {
        PartitionData {
            partition: 0,
            state_epoch: 0,
            start_offset: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionData {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.partition));
        w.put_i32(*(&self.state_epoch));
        w.put_i64(*(&self.start_offset));
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
        n += 4;
        n += 8;
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
        v.partition = read_i32(buf)?;
        v.state_epoch = read_i32(buf)?;
        v.start_offset = read_i64(buf)?;
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
        v.partition = g.i32();
        v.state_epoch = g.i32();
        v.start_offset = g.i64();
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
