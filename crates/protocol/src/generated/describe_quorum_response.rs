//! Generated from `DescribeQuorumResponse.json` by fjord-codegen. Do not edit.

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

/// The `DescribeQuorumResponse` response (api key 55, versions 0-2).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeQuorumResponse {
    /// The top level error code.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions 2+; nullable 2+.
    pub error_message: Option<String>,
    /// The response from the describe quorum API.
    ///
    /// Versions 0+.
    pub topics: Vec<TopicData>,
    /// The nodes in the quorum.
    ///
    /// Versions 2+.
    pub nodes: Vec<Node>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeQuorumResponse {
    fn default() -> Self {
        DescribeQuorumResponse {
            error_code: 0,
            error_message: Some(String::new()),
            topics: Vec::<TopicData>::new(),
            nodes: Vec::<Node>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeQuorumResponse {
    /// The message name.
    pub const NAME: &'static str = "DescribeQuorumResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 2;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=2).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DescribeQuorumResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i16(*(&self.error_code));
        if version >= 2 { match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 2) { return Err(EncodeError::NullNotAllowed { field: "ErrorMessage", version }); } write_nullable_string(w, None, flexible)?; } } }
        write_len_prefix(w, (&self.topics).len(), flexible)?; for e0 in (&self.topics).iter() { e0.encode(w, version)?; }
        if version >= 2 { write_len_prefix(w, (&self.nodes).len(), flexible)?; for e0 in (&self.nodes).iter() { e0.encode(w, version)?; } }
        if !(version >= 2) { if self.nodes != Vec::<Node>::new() { return Err(EncodeError::FieldNotInVersion { field: "Nodes", version }); } }
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
        n += 2;
        if version >= 2 { n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        n += len_prefix_len((&self.topics).len(), flexible) + (&self.topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if version >= 2 { n += len_prefix_len((&self.nodes).len(), flexible) + (&self.nodes).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=2).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DescribeQuorumResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = read_i16(buf)?;
        if version >= 2 { v.error_message = if version >= 2 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "ErrorMessage")?) }; }
        v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicData::decode(buf, version)?); } v };
        if version >= 2 { v.nodes = { let n = read_array_len_non_null(buf, flexible, "Nodes")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Node::decode(buf, version)?); } v }; }
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
        v.error_code = g.i16();
        if version >= 2 { v.error_message = if (version >= 2) && g.chance(4) { None } else { Some(g.string()) }; }
        v.topics = (0..g.collection_len()).map(|_| TopicData::sample(g, version)).collect();
        if version >= 2 { v.nodes = (0..g.collection_len()).map(|_| Node::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.topics { x.each_error_code(f); }
        for x in &self.nodes { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 2 { f("ErrorMessage", &mut self.error_message); }
        for x in &mut self.topics { x.each_nullable_string(version, f); }
        if version >= 2 { for x in &mut self.nodes { x.each_nullable_string(version, f); } }
    }
}

/// The response from the describe quorum API.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicData {
    /// The topic name.
    ///
    /// Versions 0+.
    pub topic_name: String,
    /// The partition data.
    ///
    /// Versions 0+.
    pub partitions: Vec<PartitionData>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopicData {
    fn default() -> Self {
        TopicData {
            topic_name: String::new(),
            partitions: Vec::<PartitionData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicData {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.topic_name), flexible)?;
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
        v.topic_name = g.string();
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

/// The partition data.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions 0+.
    pub partition_index: i32,
    /// The partition error code.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The error message, or null if there was no error.
    ///
    /// Versions 2+; nullable 2+.
    pub error_message: Option<String>,
    /// The ID of the current leader or -1 if the leader is unknown.
    ///
    /// Versions 0+.
    pub leader_id: i32,
    /// The latest known leader epoch.
    ///
    /// Versions 0+.
    pub leader_epoch: i32,
    /// The high water mark.
    ///
    /// Versions 0+.
    pub high_watermark: i64,
    /// The current voters of the partition.
    ///
    /// Versions 0+.
    pub current_voters: Vec<ReplicaState>,
    /// The observers of the partition.
    ///
    /// Versions 0+.
    pub observers: Vec<ReplicaState>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for PartitionData {
    fn default() -> Self {
        PartitionData {
            partition_index: 0,
            error_code: 0,
            error_message: Some(String::new()),
            leader_id: 0,
            leader_epoch: 0,
            high_watermark: 0,
            current_voters: Vec::<ReplicaState>::new(),
            observers: Vec::<ReplicaState>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionData {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.partition_index));
        w.put_i16(*(&self.error_code));
        if version >= 2 { match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 2) { return Err(EncodeError::NullNotAllowed { field: "ErrorMessage", version }); } write_nullable_string(w, None, flexible)?; } } }
        w.put_i32(*(&self.leader_id));
        w.put_i32(*(&self.leader_epoch));
        w.put_i64(*(&self.high_watermark));
        write_len_prefix(w, (&self.current_voters).len(), flexible)?; for e0 in (&self.current_voters).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.observers).len(), flexible)?; for e0 in (&self.observers).iter() { e0.encode(w, version)?; }
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
        n += 2;
        if version >= 2 { n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        n += 4;
        n += 4;
        n += 8;
        n += len_prefix_len((&self.current_voters).len(), flexible) + (&self.current_voters).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.observers).len(), flexible) + (&self.observers).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.error_code = read_i16(buf)?;
        if version >= 2 { v.error_message = if version >= 2 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "ErrorMessage")?) }; }
        v.leader_id = read_i32(buf)?;
        v.leader_epoch = read_i32(buf)?;
        v.high_watermark = read_i64(buf)?;
        v.current_voters = { let n = read_array_len_non_null(buf, flexible, "CurrentVoters")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(ReplicaState::decode(buf, version)?); } v };
        v.observers = { let n = read_array_len_non_null(buf, flexible, "Observers")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(ReplicaState::decode(buf, version)?); } v };
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
        v.error_code = g.i16();
        if version >= 2 { v.error_message = if (version >= 2) && g.chance(4) { None } else { Some(g.string()) }; }
        v.leader_id = g.i32();
        v.leader_epoch = g.i32();
        v.high_watermark = g.i64();
        v.current_voters = (0..g.collection_len()).map(|_| ReplicaState::sample(g, version)).collect();
        v.observers = (0..g.collection_len()).map(|_| ReplicaState::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.current_voters { x.each_error_code(f); }
        for x in &self.observers { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 2 { f("ErrorMessage", &mut self.error_message); }
        for x in &mut self.current_voters { x.each_nullable_string(version, f); }
        for x in &mut self.observers { x.each_nullable_string(version, f); }
    }
}

/// The nodes in the quorum.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The ID of the associated node.
    ///
    /// Versions 2+.
    pub node_id: i32,
    /// The listeners of this controller.
    ///
    /// Versions 2+.
    pub listeners: Vec<Listener>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Node {
    fn default() -> Self {
        Node {
            node_id: 0,
            listeners: Vec::<Listener>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Node {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        if version >= 2 { w.put_i32(*(&self.node_id)); }
        if !(version >= 2) { if self.node_id != 0 { return Err(EncodeError::FieldNotInVersion { field: "NodeId", version }); } }
        if version >= 2 { write_len_prefix(w, (&self.listeners).len(), flexible)?; for e0 in (&self.listeners).iter() { e0.encode(w, version)?; } }
        if !(version >= 2) { if self.listeners != Vec::<Listener>::new() { return Err(EncodeError::FieldNotInVersion { field: "Listeners", version }); } }
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
        if version >= 2 { n += 4; }
        if version >= 2 { n += len_prefix_len((&self.listeners).len(), flexible) + (&self.listeners).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
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
        if version >= 2 { v.node_id = read_i32(buf)?; }
        if version >= 2 { v.listeners = { let n = read_array_len_non_null(buf, flexible, "Listeners")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Listener::decode(buf, version)?); } v }; }
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
        if version >= 2 { v.node_id = g.i32(); }
        if version >= 2 { v.listeners = (0..g.collection_len()).map(|_| Listener::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.listeners { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 2 { for x in &mut self.listeners { x.each_nullable_string(version, f); } }
    }
}

/// The listeners of this controller.
#[derive(Debug, Clone, PartialEq)]
pub struct Listener {
    /// The name of the endpoint.
    ///
    /// Versions 2+.
    pub name: String,
    /// The hostname.
    ///
    /// Versions 2+.
    pub host: String,
    /// The port.
    ///
    /// Versions 2+.
    pub port: u16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Listener {
    fn default() -> Self {
        Listener {
            name: String::new(),
            host: String::new(),
            port: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Listener {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        if version >= 2 { write_string(w, (&self.name), flexible)?; }
        if !(version >= 2) { if self.name != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Name", version }); } }
        if version >= 2 { write_string(w, (&self.host), flexible)?; }
        if !(version >= 2) { if self.host != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Host", version }); } }
        if version >= 2 { w.put_u16(*(&self.port)); }
        if !(version >= 2) { if self.port != 0 { return Err(EncodeError::FieldNotInVersion { field: "Port", version }); } }
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
        if version >= 2 { n += string_len((&self.name), flexible); }
        if version >= 2 { n += string_len((&self.host), flexible); }
        if version >= 2 { n += 2; }
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
        if version >= 2 { v.name = read_string(buf, flexible, "Name")?; }
        if version >= 2 { v.host = read_string(buf, flexible, "Host")?; }
        if version >= 2 { v.port = read_u16(buf)?; }
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
        if version >= 2 { v.name = g.string(); }
        if version >= 2 { v.host = g.string(); }
        if version >= 2 { v.port = g.u16(); }
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

/// The common struct `ReplicaState`.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaState {
    /// The ID of the replica.
    ///
    /// Versions 0+.
    pub replica_id: i32,
    /// The replica directory ID of the replica.
    ///
    /// Versions 2+.
    pub replica_directory_id: Uuid,
    /// The last known log end offset of the follower or -1 if it is unknown.
    ///
    /// Versions 0+.
    pub log_end_offset: i64,
    /// The last known leader wall clock time time when a follower fetched from the leader. This is reported as -1 both for the current leader or if it is unknown for a voter.
    ///
    /// Versions 1+.
    pub last_fetch_timestamp: i64,
    /// The leader wall clock append time of the offset for which the follower made the most recent fetch request. This is reported as the current time for the leader and -1 if unknown for a voter.
    ///
    /// Versions 1+.
    pub last_caught_up_timestamp: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ReplicaState {
    fn default() -> Self {
        ReplicaState {
            replica_id: 0,
            replica_directory_id: Uuid::nil(),
            log_end_offset: 0,
            last_fetch_timestamp: -1,
            last_caught_up_timestamp: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ReplicaState {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.replica_id));
        if version >= 2 { write_uuid(w, (&self.replica_directory_id)); }
        if !(version >= 2) { if self.replica_directory_id != Uuid::nil() { return Err(EncodeError::FieldNotInVersion { field: "ReplicaDirectoryId", version }); } }
        w.put_i64(*(&self.log_end_offset));
        if version >= 1 { w.put_i64(*(&self.last_fetch_timestamp)); }
        if version >= 1 { w.put_i64(*(&self.last_caught_up_timestamp)); }
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
        if version >= 2 { n += 16; }
        n += 8;
        if version >= 1 { n += 8; }
        if version >= 1 { n += 8; }
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
        v.replica_id = read_i32(buf)?;
        if version >= 2 { v.replica_directory_id = read_uuid(buf)?; }
        v.log_end_offset = read_i64(buf)?;
        if version >= 1 { v.last_fetch_timestamp = read_i64(buf)?; }
        if version >= 1 { v.last_caught_up_timestamp = read_i64(buf)?; }
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
        v.replica_id = g.i32();
        if version >= 2 { v.replica_directory_id = g.uuid(); }
        v.log_end_offset = g.i64();
        if version >= 1 { v.last_fetch_timestamp = g.i64(); }
        if version >= 1 { v.last_caught_up_timestamp = g.i64(); }
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
