//! Generated from `DescribeTopicPartitionsResponse.json` by fjord-codegen. Do not edit.

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

/// The `DescribeTopicPartitionsResponse` response (api key 75, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeTopicPartitionsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 0+.
    pub throttle_time_ms: i32,
    /// Each topic in the response.
    ///
    /// Versions 0+.
    pub topics: Vec<DescribeTopicPartitionsResponseTopic>,
    /// The next topic and partition index to fetch details for.
    ///
    /// Versions 0+; nullable 0+.
    pub next_cursor: Option<Cursor>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeTopicPartitionsResponse {
    fn default() -> Self {
        DescribeTopicPartitionsResponse {
            throttle_time_ms: 0,
            topics: Vec::<DescribeTopicPartitionsResponseTopic>::new(),
            next_cursor: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeTopicPartitionsResponse {
    /// The message name.
    pub const NAME: &'static str = "DescribeTopicPartitionsResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DescribeTopicPartitionsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.throttle_time_ms));
        write_len_prefix(w, (&self.topics).len(), flexible)?; for e0 in (&self.topics).iter() { e0.encode(w, version)?; }
        match (&self.next_cursor) { Some(x) => { if true { w.put_i8(1); } x.encode(w, version)?; } None => { w.put_i8(-1); } }
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
        n += len_prefix_len((&self.topics).len(), flexible) + (&self.topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += match (&self.next_cursor) { Some(x) => usize::from(true) + x.encoded_len(version), None => 1 };
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DescribeTopicPartitionsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeTopicPartitionsResponseTopic::decode(buf, version)?); } v };
        v.next_cursor = if read_i8(buf)? < 0 { None } else { Some(Cursor::decode(buf, version)?) };
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
        v.topics = (0..g.collection_len()).map(|_| DescribeTopicPartitionsResponseTopic::sample(g, version)).collect();
        v.next_cursor = if (true) && g.chance(4) { None } else { Some(Cursor::sample(g, version)) };
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.topics { x.each_error_code(f); }
        if let Some(x) = &self.next_cursor { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.topics { x.each_nullable_string(version, f); }
        if let Some(x) = &mut self.next_cursor { x.each_nullable_string(version, f); }
    }
}

/// Each topic in the response.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeTopicPartitionsResponseTopic {
    /// The topic error, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The topic name.
    ///
    /// Versions 0+; nullable 0+.
    pub name: Option<String>,
    /// The topic id.
    ///
    /// Versions 0+.
    pub topic_id: Uuid,
    /// True if the topic is internal.
    ///
    /// Versions 0+.
    pub is_internal: bool,
    /// Each partition in the topic.
    ///
    /// Versions 0+.
    pub partitions: Vec<DescribeTopicPartitionsResponsePartition>,
    /// 32-bit bitfield to represent authorized operations for this topic.
    ///
    /// Versions 0+.
    pub topic_authorized_operations: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeTopicPartitionsResponseTopic {
    fn default() -> Self {
        DescribeTopicPartitionsResponseTopic {
            error_code: 0,
            name: Some(String::new()),
            topic_id: Uuid::nil(),
            is_internal: false,
            partitions: Vec::<DescribeTopicPartitionsResponsePartition>::new(),
            topic_authorized_operations: -2147483648,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeTopicPartitionsResponseTopic {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i16(*(&self.error_code));
        match (&self.name) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        write_uuid(w, (&self.topic_id));
        write_bool(w, *(&self.is_internal));
        write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { e0.encode(w, version)?; }
        w.put_i32(*(&self.topic_authorized_operations));
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
        n += match (&self.name) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += 16;
        n += 1;
        n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += 4;
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
        v.error_code = read_i16(buf)?;
        v.name = read_nullable_string(buf, flexible)?;
        v.topic_id = read_uuid(buf)?;
        v.is_internal = read_bool(buf)?;
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeTopicPartitionsResponsePartition::decode(buf, version)?); } v };
        v.topic_authorized_operations = read_i32(buf)?;
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
        v.name = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.topic_id = g.uuid();
        v.is_internal = g.bool();
        v.partitions = (0..g.collection_len()).map(|_| DescribeTopicPartitionsResponsePartition::sample(g, version)).collect();
        v.topic_authorized_operations = g.i32();
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
pub struct DescribeTopicPartitionsResponsePartition {
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
    /// Versions 0+.
    pub leader_epoch: i32,
    /// The set of all nodes that host this partition.
    ///
    /// Versions 0+.
    pub replica_nodes: Vec<i32>,
    /// The set of nodes that are in sync with the leader for this partition.
    ///
    /// Versions 0+.
    pub isr_nodes: Vec<i32>,
    /// The new eligible leader replicas otherwise.
    ///
    /// Versions 0+; nullable 0+.
    pub eligible_leader_replicas: Option<Vec<i32>>,
    /// The last known ELR.
    ///
    /// Versions 0+; nullable 0+.
    pub last_known_elr: Option<Vec<i32>>,
    /// The set of offline replicas of this partition.
    ///
    /// Versions 0+.
    pub offline_replicas: Vec<i32>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeTopicPartitionsResponsePartition {
    fn default() -> Self {
        DescribeTopicPartitionsResponsePartition {
            error_code: 0,
            partition_index: 0,
            leader_id: 0,
            leader_epoch: -1,
            replica_nodes: Vec::<i32>::new(),
            isr_nodes: Vec::<i32>::new(),
            eligible_leader_replicas: None,
            last_known_elr: None,
            offline_replicas: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeTopicPartitionsResponsePartition {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i16(*(&self.error_code));
        w.put_i32(*(&self.partition_index));
        w.put_i32(*(&self.leader_id));
        w.put_i32(*(&self.leader_epoch));
        write_len_prefix(w, (&self.replica_nodes).len(), flexible)?; for e0 in (&self.replica_nodes).iter() { w.put_i32(*e0); }
        write_len_prefix(w, (&self.isr_nodes).len(), flexible)?; for e0 in (&self.isr_nodes).iter() { w.put_i32(*e0); }
        match (&self.eligible_leader_replicas) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { w.put_i32(*e0); } } None => { write_null(w, flexible); } }
        match (&self.last_known_elr) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { w.put_i32(*e0); } } None => { write_null(w, flexible); } }
        write_len_prefix(w, (&self.offline_replicas).len(), flexible)?; for e0 in (&self.offline_replicas).iter() { w.put_i32(*e0); }
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
        n += 4;
        n += 4;
        n += 4;
        n += len_prefix_len((&self.replica_nodes).len(), flexible) + (&self.replica_nodes).len() * 4;
        n += len_prefix_len((&self.isr_nodes).len(), flexible) + (&self.isr_nodes).len() * 4;
        n += match (&self.eligible_leader_replicas) { Some(x) => len_prefix_len(x.len(), flexible) + x.len() * 4, None => null_len(flexible) };
        n += match (&self.last_known_elr) { Some(x) => len_prefix_len(x.len(), flexible) + x.len() * 4, None => null_len(flexible) };
        n += len_prefix_len((&self.offline_replicas).len(), flexible) + (&self.offline_replicas).len() * 4;
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
        v.error_code = read_i16(buf)?;
        v.partition_index = read_i32(buf)?;
        v.leader_id = read_i32(buf)?;
        v.leader_epoch = read_i32(buf)?;
        v.replica_nodes = { let n = read_array_len_non_null(buf, flexible, "ReplicaNodes")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
        v.isr_nodes = { let n = read_array_len_non_null(buf, flexible, "IsrNodes")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
        v.eligible_leader_replicas = match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } Some(v) } };
        v.last_known_elr = match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } Some(v) } };
        v.offline_replicas = { let n = read_array_len_non_null(buf, flexible, "OfflineReplicas")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
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
        v.partition_index = g.i32();
        v.leader_id = g.i32();
        v.leader_epoch = g.i32();
        v.replica_nodes = (0..g.collection_len()).map(|_| g.i32()).collect();
        v.isr_nodes = (0..g.collection_len()).map(|_| g.i32()).collect();
        v.eligible_leader_replicas = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| g.i32()).collect()) };
        v.last_known_elr = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| g.i32()).collect()) };
        v.offline_replicas = (0..g.collection_len()).map(|_| g.i32()).collect();
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

/// The next topic and partition index to fetch details for.
#[derive(Debug, Clone, PartialEq)]
pub struct Cursor {
    /// The name for the first topic to process.
    ///
    /// Versions 0+.
    pub topic_name: String,
    /// The partition index to start with.
    ///
    /// Versions 0+.
    pub partition_index: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Cursor {
    fn default() -> Self {
        Cursor {
            topic_name: String::new(),
            partition_index: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Cursor {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.topic_name), flexible)?;
        w.put_i32(*(&self.partition_index));
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
        n += 4;
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
        v.partition_index = read_i32(buf)?;
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
        v.partition_index = g.i32();
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
