//! Generated from `MetadataResponse.json` by fjord-codegen. Do not edit.

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

/// The `MetadataResponse` response (api key 3, versions 0-13).
#[derive(Debug, Clone, PartialEq)]
pub struct MetadataResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 3+.
    pub throttle_time_ms: i32,
    /// A list of brokers present in the cluster.
    ///
    /// Versions 0+.
    pub brokers: Vec<MetadataResponseBroker>,
    /// The cluster ID that responding broker belongs to.
    ///
    /// Versions 2+; nullable 2+.
    pub cluster_id: Option<String>,
    /// The ID of the controller broker.
    ///
    /// Versions 1+.
    pub controller_id: i32,
    /// Each topic in the response.
    ///
    /// Versions 0+.
    pub topics: Vec<MetadataResponseTopic>,
    /// 32-bit bitfield to represent authorized operations for this cluster.
    ///
    /// Versions 8-10.
    pub cluster_authorized_operations: i32,
    /// The top-level error code, or 0 if there was no error.
    ///
    /// Versions 13+.
    pub error_code: i16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for MetadataResponse {
    fn default() -> Self {
        MetadataResponse {
            throttle_time_ms: 0,
            brokers: Vec::<MetadataResponseBroker>::new(),
            cluster_id: None,
            controller_id: -1,
            topics: Vec::<MetadataResponseTopic>::new(),
            cluster_authorized_operations: -2147483648,
            error_code: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MetadataResponse {
    /// The message name.
    pub const NAME: &'static str = "MetadataResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 13;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(9);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=13).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "MetadataResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 9;
        if version >= 3 { w.put_i32(*(&self.throttle_time_ms)); }
        write_len_prefix(w, (&self.brokers).len(), flexible)?; for e0 in (&self.brokers).iter() { e0.encode(w, version)?; }
        if version >= 2 { match (&self.cluster_id) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 2) { return Err(EncodeError::NullNotAllowed { field: "ClusterId", version }); } write_nullable_string(w, None, flexible)?; } } }
        if version >= 1 { w.put_i32(*(&self.controller_id)); }
        write_len_prefix(w, (&self.topics).len(), flexible)?; for e0 in (&self.topics).iter() { e0.encode(w, version)?; }
        if (version >= 8 && version <= 10) { w.put_i32(*(&self.cluster_authorized_operations)); }
        if !((version >= 8 && version <= 10)) { if self.cluster_authorized_operations != -2147483648 { return Err(EncodeError::FieldNotInVersion { field: "ClusterAuthorizedOperations", version }); } }
        if version >= 13 { w.put_i16(*(&self.error_code)); }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 3 { n += 4; }
        n += len_prefix_len((&self.brokers).len(), flexible) + (&self.brokers).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if version >= 2 { n += match (&self.cluster_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if version >= 1 { n += 4; }
        n += len_prefix_len((&self.topics).len(), flexible) + (&self.topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if (version >= 8 && version <= 10) { n += 4; }
        if version >= 13 { n += 2; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=13).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "MetadataResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 3 { v.throttle_time_ms = read_i32(buf)?; }
        v.brokers = { let n = read_array_len_non_null(buf, flexible, "Brokers")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(MetadataResponseBroker::decode(buf, version)?); } v };
        if version >= 2 { v.cluster_id = if version >= 2 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "ClusterId")?) }; }
        if version >= 1 { v.controller_id = read_i32(buf)?; }
        v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(MetadataResponseTopic::decode(buf, version)?); } v };
        if (version >= 8 && version <= 10) { v.cluster_authorized_operations = read_i32(buf)?; }
        if version >= 13 { v.error_code = read_i16(buf)?; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 3 { v.throttle_time_ms = g.i32(); }
        v.brokers = (0..g.collection_len()).map(|_| MetadataResponseBroker::sample(g, version)).collect();
        if version >= 2 { v.cluster_id = if (version >= 2) && g.chance(4) { None } else { Some(g.string()) }; }
        if version >= 1 { v.controller_id = g.i32(); }
        v.topics = (0..g.collection_len()).map(|_| MetadataResponseTopic::sample(g, version)).collect();
        if (version >= 8 && version <= 10) { v.cluster_authorized_operations = g.i32(); }
        if version >= 13 { v.error_code = g.i16(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.brokers { x.each_error_code(f); }
        for x in &self.topics { x.each_error_code(f); }
        f(self.error_code);
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.brokers { x.each_nullable_string(version, f); }
        if version >= 2 { f("ClusterId", &mut self.cluster_id); }
        for x in &mut self.topics { x.each_nullable_string(version, f); }
    }
}

/// A list of brokers present in the cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct MetadataResponseBroker {
    /// The broker ID.
    ///
    /// Versions 0+.
    pub node_id: i32,
    /// The broker hostname.
    ///
    /// Versions 0+.
    pub host: String,
    /// The broker port.
    ///
    /// Versions 0+.
    pub port: i32,
    /// The rack of the broker, or null if it has not been assigned to a rack.
    ///
    /// Versions 1+; nullable 1+.
    pub rack: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for MetadataResponseBroker {
    fn default() -> Self {
        MetadataResponseBroker {
            node_id: 0,
            host: String::new(),
            port: 0,
            rack: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MetadataResponseBroker {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 9;
        w.put_i32(*(&self.node_id));
        write_string(w, (&self.host), flexible)?;
        w.put_i32(*(&self.port));
        if version >= 1 { match (&self.rack) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 1) { return Err(EncodeError::NullNotAllowed { field: "Rack", version }); } write_nullable_string(w, None, flexible)?; } } }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
        n += string_len((&self.host), flexible);
        n += 4;
        if version >= 1 { n += match (&self.rack) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.node_id = read_i32(buf)?;
        v.host = read_string(buf, flexible, "Host")?;
        v.port = read_i32(buf)?;
        if version >= 1 { v.rack = if version >= 1 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "Rack")?) }; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.node_id = g.i32();
        v.host = g.string();
        v.port = g.i32();
        if version >= 1 { v.rack = if (version >= 1) && g.chance(4) { None } else { Some(g.string()) }; }
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
        if version >= 1 { f("Rack", &mut self.rack); }
    }
}

/// Each topic in the response.
#[derive(Debug, Clone, PartialEq)]
pub struct MetadataResponseTopic {
    /// The topic error, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The topic name. Null for non-existing topics queried by ID. This is never null when ErrorCode is zero. One of Name and TopicId is always populated.
    ///
    /// Versions 0+; nullable 12+.
    pub name: Option<String>,
    /// The topic id. Zero for non-existing topics queried by name. This is never zero when ErrorCode is zero. One of Name and TopicId is always populated.
    ///
    /// Versions 10+.
    pub topic_id: Uuid,
    /// True if the topic is internal.
    ///
    /// Versions 1+.
    pub is_internal: bool,
    /// Each partition in the topic.
    ///
    /// Versions 0+.
    pub partitions: Vec<MetadataResponsePartition>,
    /// 32-bit bitfield to represent authorized operations for this topic.
    ///
    /// Versions 8+.
    pub topic_authorized_operations: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for MetadataResponseTopic {
    fn default() -> Self {
        MetadataResponseTopic {
            error_code: 0,
            name: Some(String::new()),
            topic_id: Uuid::nil(),
            is_internal: false,
            partitions: Vec::<MetadataResponsePartition>::new(),
            topic_authorized_operations: -2147483648,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MetadataResponseTopic {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 9;
        w.put_i16(*(&self.error_code));
        match (&self.name) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 12) { return Err(EncodeError::NullNotAllowed { field: "Name", version }); } write_nullable_string(w, None, flexible)?; } }
        if version >= 10 { write_uuid(w, (&self.topic_id)); }
        if version >= 1 { write_bool(w, *(&self.is_internal)); }
        write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { e0.encode(w, version)?; }
        if version >= 8 { w.put_i32(*(&self.topic_authorized_operations)); }
        if !(version >= 8) { if self.topic_authorized_operations != -2147483648 { return Err(EncodeError::FieldNotInVersion { field: "TopicAuthorizedOperations", version }); } }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 2;
        n += match (&self.name) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        if version >= 10 { n += 16; }
        if version >= 1 { n += 1; }
        n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if version >= 8 { n += 4; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = read_i16(buf)?;
        v.name = if version >= 12 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "Name")?) };
        if version >= 10 { v.topic_id = read_uuid(buf)?; }
        if version >= 1 { v.is_internal = read_bool(buf)?; }
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(MetadataResponsePartition::decode(buf, version)?); } v };
        if version >= 8 { v.topic_authorized_operations = read_i32(buf)?; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = g.i16();
        v.name = if (version >= 12) && g.chance(4) { None } else { Some(g.string()) };
        if version >= 10 { v.topic_id = g.uuid(); }
        if version >= 1 { v.is_internal = g.bool(); }
        v.partitions = (0..g.collection_len()).map(|_| MetadataResponsePartition::sample(g, version)).collect();
        if version >= 8 { v.topic_authorized_operations = g.i32(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.partitions { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("Name", &mut self.name);
        for x in &mut self.partitions { x.each_nullable_string(version, f); }
    }
}

/// Each partition in the topic.
#[derive(Debug, Clone, PartialEq)]
pub struct MetadataResponsePartition {
    /// The partition error, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The partition index.
    ///
    /// Versions 0+.
    pub partition_index: i32,
    /// The ID of the leader broker.
    ///
    /// Versions 0+.
    pub leader_id: i32,
    /// The leader epoch of this partition.
    ///
    /// Versions 7+.
    pub leader_epoch: i32,
    /// The set of all nodes that host this partition.
    ///
    /// Versions 0+.
    pub replica_nodes: Vec<i32>,
    /// The set of nodes that are in sync with the leader for this partition.
    ///
    /// Versions 0+.
    pub isr_nodes: Vec<i32>,
    /// The set of offline replicas of this partition.
    ///
    /// Versions 5+.
    pub offline_replicas: Vec<i32>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for MetadataResponsePartition {
    fn default() -> Self {
        MetadataResponsePartition {
            error_code: 0,
            partition_index: 0,
            leader_id: 0,
            leader_epoch: -1,
            replica_nodes: Vec::<i32>::new(),
            isr_nodes: Vec::<i32>::new(),
            offline_replicas: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MetadataResponsePartition {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 9;
        w.put_i16(*(&self.error_code));
        w.put_i32(*(&self.partition_index));
        w.put_i32(*(&self.leader_id));
        if version >= 7 { w.put_i32(*(&self.leader_epoch)); }
        write_len_prefix(w, (&self.replica_nodes).len(), flexible)?; for e0 in (&self.replica_nodes).iter() { w.put_i32(*e0); }
        write_len_prefix(w, (&self.isr_nodes).len(), flexible)?; for e0 in (&self.isr_nodes).iter() { w.put_i32(*e0); }
        if version >= 5 { write_len_prefix(w, (&self.offline_replicas).len(), flexible)?; for e0 in (&self.offline_replicas).iter() { w.put_i32(*e0); } }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 2;
        n += 4;
        n += 4;
        if version >= 7 { n += 4; }
        n += len_prefix_len((&self.replica_nodes).len(), flexible) + (&self.replica_nodes).len() * 4;
        n += len_prefix_len((&self.isr_nodes).len(), flexible) + (&self.isr_nodes).len() * 4;
        if version >= 5 { n += len_prefix_len((&self.offline_replicas).len(), flexible) + (&self.offline_replicas).len() * 4; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = read_i16(buf)?;
        v.partition_index = read_i32(buf)?;
        v.leader_id = read_i32(buf)?;
        if version >= 7 { v.leader_epoch = read_i32(buf)?; }
        v.replica_nodes = { let n = read_array_len_non_null(buf, flexible, "ReplicaNodes")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
        v.isr_nodes = { let n = read_array_len_non_null(buf, flexible, "IsrNodes")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
        if version >= 5 { v.offline_replicas = { let n = read_array_len_non_null(buf, flexible, "OfflineReplicas")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v }; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = g.i16();
        v.partition_index = g.i32();
        v.leader_id = g.i32();
        if version >= 7 { v.leader_epoch = g.i32(); }
        v.replica_nodes = (0..g.collection_len()).map(|_| g.i32()).collect();
        v.isr_nodes = (0..g.collection_len()).map(|_| g.i32()).collect();
        if version >= 5 { v.offline_replicas = (0..g.collection_len()).map(|_| g.i32()).collect(); }
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
    }
}
