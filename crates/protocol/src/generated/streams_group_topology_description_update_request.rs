//! Generated from `StreamsGroupTopologyDescriptionUpdateRequest.json` by fjord-codegen. Do not edit.

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

/// The `StreamsGroupTopologyDescriptionUpdateRequest` request (api key 93, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamsGroupTopologyDescriptionUpdateRequest {
    /// The streams group identifier.
    ///
    /// Versions 0+.
    pub group_id: String,
    /// The ID of the streams group member sending the push. The broker validates that this member is still in the group; mismatches (including when the group itself has been deleted) are rejected with UNKNOWN_MEMBER_ID so the client treats itself as fenced and rejoins.
    ///
    /// Versions 0+.
    pub member_id: String,
    /// The epoch of the topology being described.
    ///
    /// Versions 0+.
    pub topology_epoch: i32,
    /// The topology description.
    ///
    /// Versions 0+.
    pub topology_description: TopologyDescription,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for StreamsGroupTopologyDescriptionUpdateRequest {
    fn default() -> Self {
        StreamsGroupTopologyDescriptionUpdateRequest {
            group_id: String::new(),
            member_id: String::new(),
            topology_epoch: 0,
            topology_description: TopologyDescription::default(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl StreamsGroupTopologyDescriptionUpdateRequest {
    /// The message name.
    pub const NAME: &'static str = "StreamsGroupTopologyDescriptionUpdateRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "StreamsGroupTopologyDescriptionUpdateRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.group_id), flexible)?;
        write_string(w, (&self.member_id), flexible)?;
        w.put_i32(*(&self.topology_epoch));
        (&self.topology_description).encode(w, version)?;
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
        n += string_len((&self.member_id), flexible);
        n += 4;
        n += (&self.topology_description).encoded_len(version);
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "StreamsGroupTopologyDescriptionUpdateRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.group_id = read_string(buf, flexible, "GroupId")?;
        v.member_id = read_string(buf, flexible, "MemberId")?;
        v.topology_epoch = read_i32(buf)?;
        v.topology_description = TopologyDescription::decode(buf, version)?;
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
        v.member_id = g.string();
        v.topology_epoch = g.i32();
        v.topology_description = TopologyDescription::sample(g, version);
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        self.topology_description.each_error_code(f);
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        self.topology_description.each_nullable_string(version, f);
    }
}

/// The common struct `TopologyDescription`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopologyDescription {
    /// The subtopologies that make up this topology.
    ///
    /// Versions 0+.
    pub subtopologies: Vec<TopologyDescriptionSubtopology>,
    /// Global state stores used by this topology.
    ///
    /// Versions 0+.
    pub global_stores: Vec<TopologyDescriptionGlobalStore>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopologyDescription {
    fn default() -> Self {
        TopologyDescription {
            subtopologies: Vec::<TopologyDescriptionSubtopology>::new(),
            global_stores: Vec::<TopologyDescriptionGlobalStore>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopologyDescription {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_len_prefix(w, (&self.subtopologies).len(), flexible)?; for e0 in (&self.subtopologies).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.global_stores).len(), flexible)?; for e0 in (&self.global_stores).iter() { e0.encode(w, version)?; }
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
        n += len_prefix_len((&self.subtopologies).len(), flexible) + (&self.subtopologies).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.global_stores).len(), flexible) + (&self.global_stores).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.subtopologies = { let n = read_array_len_non_null(buf, flexible, "Subtopologies")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopologyDescriptionSubtopology::decode(buf, version)?); } v };
        v.global_stores = { let n = read_array_len_non_null(buf, flexible, "GlobalStores")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopologyDescriptionGlobalStore::decode(buf, version)?); } v };
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
        v.subtopologies = (0..g.collection_len()).map(|_| TopologyDescriptionSubtopology::sample(g, version)).collect();
        v.global_stores = (0..g.collection_len()).map(|_| TopologyDescriptionGlobalStore::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.subtopologies { x.each_error_code(f); }
        for x in &self.global_stores { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.subtopologies { x.each_nullable_string(version, f); }
        for x in &mut self.global_stores { x.each_nullable_string(version, f); }
    }
}

/// The common struct `TopologyDescriptionSubtopology`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopologyDescriptionSubtopology {
    /// The subtopology identifier, unique within the topology.
    ///
    /// Versions 0+.
    pub subtopology_id: String,
    /// The processing nodes in this subtopology.
    ///
    /// Versions 0+.
    pub nodes: Vec<TopologyDescriptionNode>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopologyDescriptionSubtopology {
    fn default() -> Self {
        TopologyDescriptionSubtopology {
            subtopology_id: String::new(),
            nodes: Vec::<TopologyDescriptionNode>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopologyDescriptionSubtopology {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.subtopology_id), flexible)?;
        write_len_prefix(w, (&self.nodes).len(), flexible)?; for e0 in (&self.nodes).iter() { e0.encode(w, version)?; }
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
        n += len_prefix_len((&self.nodes).len(), flexible) + (&self.nodes).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.nodes = { let n = read_array_len_non_null(buf, flexible, "Nodes")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopologyDescriptionNode::decode(buf, version)?); } v };
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
        v.nodes = (0..g.collection_len()).map(|_| TopologyDescriptionNode::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.nodes { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.nodes { x.each_nullable_string(version, f); }
    }
}

/// The common struct `TopologyDescriptionNode`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopologyDescriptionNode {
    /// The name of this node (e.g., KSTREAM-SOURCE-0000000000).
    ///
    /// Versions 0+.
    pub name: String,
    /// The type of this node: 1=SOURCE, 2=PROCESSOR, 3=SINK.
    ///
    /// Versions 0+.
    pub node_type: i8,
    /// The source topics this node reads from. Defined only for source nodes, may be empty if source topics are dynamically determined.
    ///
    /// Versions 0+.
    pub source_topics: Vec<String>,
    /// The topic this node writes to. Defined only for sink nodes, may be null if sink topic is dynamically determined.
    ///
    /// Versions 0+; nullable 0+.
    pub sink_topic: Option<String>,
    /// The state store names accessed by this node. Defined only for processor nodes.
    ///
    /// Versions 0+.
    pub stores: Vec<String>,
    /// The names of successor nodes in the processing graph. Predecessor relationships are reconstructed from this field.
    ///
    /// Versions 0+.
    pub successors: Vec<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopologyDescriptionNode {
    fn default() -> Self {
        TopologyDescriptionNode {
            name: String::new(),
            node_type: 0,
            source_topics: Vec::<String>::new(),
            sink_topic: None,
            stores: Vec::<String>::new(),
            successors: Vec::<String>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopologyDescriptionNode {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.name), flexible)?;
        w.put_i8(*(&self.node_type));
        write_len_prefix(w, (&self.source_topics).len(), flexible)?; for e0 in (&self.source_topics).iter() { write_string(w, e0, flexible)?; }
        match (&self.sink_topic) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        write_len_prefix(w, (&self.stores).len(), flexible)?; for e0 in (&self.stores).iter() { write_string(w, e0, flexible)?; }
        write_len_prefix(w, (&self.successors).len(), flexible)?; for e0 in (&self.successors).iter() { write_string(w, e0, flexible)?; }
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
        n += 1;
        n += len_prefix_len((&self.source_topics).len(), flexible) + (&self.source_topics).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n += match (&self.sink_topic) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += len_prefix_len((&self.stores).len(), flexible) + (&self.stores).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n += len_prefix_len((&self.successors).len(), flexible) + (&self.successors).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
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
        v.node_type = read_i8(buf)?;
        v.source_topics = { let n = read_array_len_non_null(buf, flexible, "SourceTopics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "SourceTopics")?); } v };
        v.sink_topic = read_nullable_string(buf, flexible)?;
        v.stores = { let n = read_array_len_non_null(buf, flexible, "Stores")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "Stores")?); } v };
        v.successors = { let n = read_array_len_non_null(buf, flexible, "Successors")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "Successors")?); } v };
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
        v.node_type = g.i8();
        v.source_topics = (0..g.collection_len()).map(|_| g.string()).collect();
        v.sink_topic = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.stores = (0..g.collection_len()).map(|_| g.string()).collect();
        v.successors = (0..g.collection_len()).map(|_| g.string()).collect();
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
        f("SinkTopic", &mut self.sink_topic);
    }
}

/// The common struct `TopologyDescriptionGlobalStore`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopologyDescriptionGlobalStore {
    /// The source node providing data to the global store.
    ///
    /// Versions 0+.
    pub source: TopologyDescriptionNode,
    /// The processor node that populates the global store.
    ///
    /// Versions 0+.
    pub processor: TopologyDescriptionNode,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopologyDescriptionGlobalStore {
    fn default() -> Self {
        TopologyDescriptionGlobalStore {
            source: TopologyDescriptionNode::default(),
            processor: TopologyDescriptionNode::default(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopologyDescriptionGlobalStore {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        (&self.source).encode(w, version)?;
        (&self.processor).encode(w, version)?;
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
        n += (&self.source).encoded_len(version);
        n += (&self.processor).encoded_len(version);
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
        v.source = TopologyDescriptionNode::decode(buf, version)?;
        v.processor = TopologyDescriptionNode::decode(buf, version)?;
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
        v.source = TopologyDescriptionNode::sample(g, version);
        v.processor = TopologyDescriptionNode::sample(g, version);
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        self.source.each_error_code(f);
        self.processor.each_error_code(f);
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        self.source.each_nullable_string(version, f);
        self.processor.each_nullable_string(version, f);
    }
}
