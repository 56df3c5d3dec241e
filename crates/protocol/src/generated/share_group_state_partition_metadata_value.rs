//! Generated from `ShareGroupStatePartitionMetadataValue.json` by fjord-codegen. Do not edit.

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

/// The `ShareGroupStatePartitionMetadataValue` coordinator-value (type 15, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct ShareGroupStatePartitionMetadataValue {
    /// The topic-partitions whose share-group state is being initialized.
    ///
    /// Versions 0+.
    pub initializing_topics: Vec<TopicPartitionsInfo>,
    /// The topics with initialized share-group state.
    ///
    /// Versions 0+.
    pub initialized_topics: Vec<TopicPartitionsInfo>,
    /// The topics whose share-group state is being deleted.
    ///
    /// Versions 0+.
    pub deleting_topics: Vec<TopicInfo>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ShareGroupStatePartitionMetadataValue {
    fn default() -> Self {
        ShareGroupStatePartitionMetadataValue {
            initializing_topics: Vec::<TopicPartitionsInfo>::new(),
            initialized_topics: Vec::<TopicPartitionsInfo>::new(),
            deleting_topics: Vec::<TopicInfo>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ShareGroupStatePartitionMetadataValue {
    /// The message name.
    pub const NAME: &'static str = "ShareGroupStatePartitionMetadataValue";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ShareGroupStatePartitionMetadataValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        write_len_prefix(w, (&self.initializing_topics).len(), flexible)?; for e0 in (&self.initializing_topics).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.initialized_topics).len(), flexible)?; for e0 in (&self.initialized_topics).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.deleting_topics).len(), flexible)?; for e0 in (&self.deleting_topics).iter() { e0.encode(w, version)?; }
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
        n += len_prefix_len((&self.initializing_topics).len(), flexible) + (&self.initializing_topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.initialized_topics).len(), flexible) + (&self.initialized_topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.deleting_topics).len(), flexible) + (&self.deleting_topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ShareGroupStatePartitionMetadataValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.initializing_topics = { let n = read_array_len_non_null(buf, flexible, "InitializingTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicPartitionsInfo::decode(buf, version)?); } v };
        v.initialized_topics = { let n = read_array_len_non_null(buf, flexible, "InitializedTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicPartitionsInfo::decode(buf, version)?); } v };
        v.deleting_topics = { let n = read_array_len_non_null(buf, flexible, "DeletingTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicInfo::decode(buf, version)?); } v };
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
        v.initializing_topics = (0..g.collection_len()).map(|_| TopicPartitionsInfo::sample(g, version)).collect();
        v.initialized_topics = (0..g.collection_len()).map(|_| TopicPartitionsInfo::sample(g, version)).collect();
        v.deleting_topics = (0..g.collection_len()).map(|_| TopicInfo::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.initializing_topics { x.each_error_code(f); }
        for x in &self.initialized_topics { x.each_error_code(f); }
        for x in &self.deleting_topics { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.initializing_topics { x.each_nullable_string(version, f); }
        for x in &mut self.initialized_topics { x.each_nullable_string(version, f); }
        for x in &mut self.deleting_topics { x.each_nullable_string(version, f); }
    }
}

/// The common struct `TopicPartitionsInfo`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicPartitionsInfo {
    /// The topic identifier.
    ///
    /// Versions 0+.
    pub topic_id: Uuid,
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

impl Default for TopicPartitionsInfo {
    fn default() -> Self {
        TopicPartitionsInfo {
            topic_id: Uuid::nil(),
            topic_name: String::new(),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicPartitionsInfo {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_uuid(w, (&self.topic_id));
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
        n += 16;
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
        v.topic_id = read_uuid(buf)?;
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
        v.topic_id = g.uuid();
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

/// The common struct `TopicInfo`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicInfo {
    /// The topic identifier.
    ///
    /// Versions 0+.
    pub topic_id: Uuid,
    /// The topic name.
    ///
    /// Versions 0+.
    pub topic_name: String,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopicInfo {
    fn default() -> Self {
        TopicInfo {
            topic_id: Uuid::nil(),
            topic_name: String::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicInfo {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_uuid(w, (&self.topic_id));
        write_string(w, (&self.topic_name), flexible)?;
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
        n += string_len((&self.topic_name), flexible);
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
        v.topic_name = read_string(buf, flexible, "TopicName")?;
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
        v.topic_name = g.string();
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
