//! Generated from `StreamsGroupTopologyValue.json` by fjord-codegen. Do not edit.

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

/// The `StreamsGroupTopologyValue` coordinator-value (type 23, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamsGroupTopologyValue {
    /// The epoch of the topology.
    ///
    /// Versions 0+.
    pub epoch: i32,
    /// The sub-topologies of the streams application.
    ///
    /// Versions 0+.
    pub subtopologies: Vec<Subtopology>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for StreamsGroupTopologyValue {
    fn default() -> Self {
        StreamsGroupTopologyValue {
            epoch: 0,
            subtopologies: Vec::<Subtopology>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl StreamsGroupTopologyValue {
    /// The message name.
    pub const NAME: &'static str = "StreamsGroupTopologyValue";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "StreamsGroupTopologyValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.epoch));
        write_len_prefix(w, (&self.subtopologies).len(), flexible)?; for e0 in (&self.subtopologies).iter() { e0.encode(w, version)?; }
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
        n += len_prefix_len((&self.subtopologies).len(), flexible) + (&self.subtopologies).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "StreamsGroupTopologyValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.epoch = read_i32(buf)?;
        v.subtopologies = { let n = read_array_len_non_null(buf, flexible, "Subtopologies")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Subtopology::decode(buf, version)?); } v };
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
        v.epoch = g.i32();
        v.subtopologies = (0..g.collection_len()).map(|_| Subtopology::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.subtopologies { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.subtopologies { x.each_nullable_string(version, f); }
    }
}

/// The sub-topologies of the streams application.
#[derive(Debug, Clone, PartialEq)]
pub struct Subtopology {
    /// String to uniquely identify the subtopology.
    ///
    /// Versions 0+.
    pub subtopology_id: String,
    /// The topics the topology reads from.
    ///
    /// Versions 0+.
    pub source_topics: Vec<String>,
    /// Regular expressions identifying topics the subtopology reads from.
    ///
    /// Versions 0+.
    pub source_topic_regex: Vec<String>,
    /// The set of state changelog topics associated with this subtopology.
    ///
    /// Versions 0+.
    pub state_changelog_topics: Vec<TopicInfo>,
    /// The repartition topics the subtopology writes to.
    ///
    /// Versions 0+.
    pub repartition_sink_topics: Vec<String>,
    /// The set of source topics that are internally created repartition topics.
    ///
    /// Versions 0+.
    pub repartition_source_topics: Vec<TopicInfo>,
    /// A subset of source topics that must be copartitioned.
    ///
    /// Versions 0+.
    pub copartition_groups: Vec<CopartitionGroup>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Subtopology {
    fn default() -> Self {
        Subtopology {
            subtopology_id: String::new(),
            source_topics: Vec::<String>::new(),
            source_topic_regex: Vec::<String>::new(),
            state_changelog_topics: Vec::<TopicInfo>::new(),
            repartition_sink_topics: Vec::<String>::new(),
            repartition_source_topics: Vec::<TopicInfo>::new(),
            copartition_groups: Vec::<CopartitionGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Subtopology {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.subtopology_id), flexible)?;
        write_len_prefix(w, (&self.source_topics).len(), flexible)?; for e0 in (&self.source_topics).iter() { write_string(w, e0, flexible)?; }
        write_len_prefix(w, (&self.source_topic_regex).len(), flexible)?; for e0 in (&self.source_topic_regex).iter() { write_string(w, e0, flexible)?; }
        write_len_prefix(w, (&self.state_changelog_topics).len(), flexible)?; for e0 in (&self.state_changelog_topics).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.repartition_sink_topics).len(), flexible)?; for e0 in (&self.repartition_sink_topics).iter() { write_string(w, e0, flexible)?; }
        write_len_prefix(w, (&self.repartition_source_topics).len(), flexible)?; for e0 in (&self.repartition_source_topics).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.copartition_groups).len(), flexible)?; for e0 in (&self.copartition_groups).iter() { e0.encode(w, version)?; }
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
        n += string_len((&self.subtopology_id), flexible);
        n += len_prefix_len((&self.source_topics).len(), flexible) + (&self.source_topics).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n += len_prefix_len((&self.source_topic_regex).len(), flexible) + (&self.source_topic_regex).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n += len_prefix_len((&self.state_changelog_topics).len(), flexible) + (&self.state_changelog_topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.repartition_sink_topics).len(), flexible) + (&self.repartition_sink_topics).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n += len_prefix_len((&self.repartition_source_topics).len(), flexible) + (&self.repartition_source_topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.copartition_groups).len(), flexible) + (&self.copartition_groups).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.subtopology_id = read_string(buf, flexible, "SubtopologyId")?;
        v.source_topics = { let n = read_array_len_non_null(buf, flexible, "SourceTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "SourceTopics")?); } v };
        v.source_topic_regex = { let n = read_array_len_non_null(buf, flexible, "SourceTopicRegex")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "SourceTopicRegex")?); } v };
        v.state_changelog_topics = { let n = read_array_len_non_null(buf, flexible, "StateChangelogTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicInfo::decode(buf, version)?); } v };
        v.repartition_sink_topics = { let n = read_array_len_non_null(buf, flexible, "RepartitionSinkTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "RepartitionSinkTopics")?); } v };
        v.repartition_source_topics = { let n = read_array_len_non_null(buf, flexible, "RepartitionSourceTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicInfo::decode(buf, version)?); } v };
        v.copartition_groups = { let n = read_array_len_non_null(buf, flexible, "CopartitionGroups")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(CopartitionGroup::decode(buf, version)?); } v };
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
        v.subtopology_id = g.string();
        v.source_topics = (0..g.collection_len()).map(|_| g.string()).collect();
        v.source_topic_regex = (0..g.collection_len()).map(|_| g.string()).collect();
        v.state_changelog_topics = (0..g.collection_len()).map(|_| TopicInfo::sample(g, version)).collect();
        v.repartition_sink_topics = (0..g.collection_len()).map(|_| g.string()).collect();
        v.repartition_source_topics = (0..g.collection_len()).map(|_| TopicInfo::sample(g, version)).collect();
        v.copartition_groups = (0..g.collection_len()).map(|_| CopartitionGroup::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.state_changelog_topics { x.each_error_code(f); }
        for x in &self.repartition_source_topics { x.each_error_code(f); }
        for x in &self.copartition_groups { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.state_changelog_topics { x.each_nullable_string(version, f); }
        for x in &mut self.repartition_source_topics { x.each_nullable_string(version, f); }
        for x in &mut self.copartition_groups { x.each_nullable_string(version, f); }
    }
}

/// A subset of source topics that must be copartitioned.
#[derive(Debug, Clone, PartialEq)]
pub struct CopartitionGroup {
    /// The topics the topology reads from. Index into the array on the subtopology level.
    ///
    /// Versions 0+.
    pub source_topics: Vec<i16>,
    /// Regular expressions identifying topics the subtopology reads from. Index into the array on the subtopology level.
    ///
    /// Versions 0+.
    pub source_topic_regex: Vec<i16>,
    /// The set of source topics that are internally created repartition topics. Index into the array on the subtopology level.
    ///
    /// Versions 0+.
    pub repartition_source_topics: Vec<i16>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for CopartitionGroup {
    fn default() -> Self {
        CopartitionGroup {
            source_topics: Vec::<i16>::new(),
            source_topic_regex: Vec::<i16>::new(),
            repartition_source_topics: Vec::<i16>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl CopartitionGroup {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_len_prefix(w, (&self.source_topics).len(), flexible)?; for e0 in (&self.source_topics).iter() { w.put_i16(*e0); }
        write_len_prefix(w, (&self.source_topic_regex).len(), flexible)?; for e0 in (&self.source_topic_regex).iter() { w.put_i16(*e0); }
        write_len_prefix(w, (&self.repartition_source_topics).len(), flexible)?; for e0 in (&self.repartition_source_topics).iter() { w.put_i16(*e0); }
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
        n += len_prefix_len((&self.source_topics).len(), flexible) + (&self.source_topics).len() * 2;
        n += len_prefix_len((&self.source_topic_regex).len(), flexible) + (&self.source_topic_regex).len() * 2;
        n += len_prefix_len((&self.repartition_source_topics).len(), flexible) + (&self.repartition_source_topics).len() * 2;
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
        v.source_topics = { let n = read_array_len_non_null(buf, flexible, "SourceTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i16(buf)?); } v };
        v.source_topic_regex = { let n = read_array_len_non_null(buf, flexible, "SourceTopicRegex")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i16(buf)?); } v };
        v.repartition_source_topics = { let n = read_array_len_non_null(buf, flexible, "RepartitionSourceTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i16(buf)?); } v };
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
        v.source_topics = (0..g.collection_len()).map(|_| g.i16()).collect();
        v.source_topic_regex = (0..g.collection_len()).map(|_| g.i16()).collect();
        v.repartition_source_topics = (0..g.collection_len()).map(|_| g.i16()).collect();
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

/// The common struct `TopicConfig`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicConfig {
    /// The key of the topic-level configuration.
    ///
    /// Versions 0+.
    pub key: String,
    /// The value of the topic-level configuration.
    ///
    /// Versions 0+.
    pub value: String,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopicConfig {
    fn default() -> Self {
        TopicConfig {
            key: String::new(),
            value: String::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicConfig {
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
        v.key = read_string(buf, flexible, "key")?;
        v.value = read_string(buf, flexible, "value")?;
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

/// The common struct `TopicInfo`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicInfo {
    /// The name of the topic.
    ///
    /// Versions 0+.
    pub name: String,
    /// The number of partitions in the topic. Can be 0 if no specific number of partitions is enforced. Always 0 for changelog topics.
    ///
    /// Versions 0+.
    pub partitions: i32,
    /// The replication factor of the topic. Can be 0 if the default replication factor should be used.
    ///
    /// Versions 0+.
    pub replication_factor: i16,
    /// Topic-level configurations as key-value pairs.
    ///
    /// Versions 0+.
    pub topic_configs: Vec<TopicConfig>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopicInfo {
    fn default() -> Self {
        TopicInfo {
            name: String::new(),
            partitions: 0,
            replication_factor: 0,
            topic_configs: Vec::<TopicConfig>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicInfo {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.name), flexible)?;
        w.put_i32(*(&self.partitions));
        w.put_i16(*(&self.replication_factor));
        write_len_prefix(w, (&self.topic_configs).len(), flexible)?; for e0 in (&self.topic_configs).iter() { e0.encode(w, version)?; }
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
        n += string_len((&self.name), flexible);
        n += 4;
        n += 2;
        n += len_prefix_len((&self.topic_configs).len(), flexible) + (&self.topic_configs).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.name = read_string(buf, flexible, "Name")?;
        v.partitions = read_i32(buf)?;
        v.replication_factor = read_i16(buf)?;
        v.topic_configs = { let n = read_array_len_non_null(buf, flexible, "TopicConfigs")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicConfig::decode(buf, version)?); } v };
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
        v.name = g.string();
        v.partitions = g.i32();
        v.replication_factor = g.i16();
        v.topic_configs = (0..g.collection_len()).map(|_| TopicConfig::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.topic_configs { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.topic_configs { x.each_nullable_string(version, f); }
    }
}
