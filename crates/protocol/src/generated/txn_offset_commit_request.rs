//! Generated from `TxnOffsetCommitRequest.json` by fjord-codegen. Do not edit.

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

/// The `TxnOffsetCommitRequest` request (api key 28, versions 0-6).
#[derive(Debug, Clone, PartialEq)]
pub struct TxnOffsetCommitRequest {
    /// The ID of the transaction.
    ///
    /// Versions 0+.
    pub transactional_id: String,
    /// The ID of the group.
    ///
    /// Versions 0+.
    pub group_id: String,
    /// The current producer ID in use by the transactional ID.
    ///
    /// Versions 0+.
    pub producer_id: i64,
    /// The current epoch associated with the producer ID.
    ///
    /// Versions 0+.
    pub producer_epoch: i16,
    /// The generation of the group if using the classic group protocol or the member epoch if using the consumer protocol.
    ///
    /// Versions 3+.
    pub generation_id_or_member_epoch: i32,
    /// The member ID assigned by the group coordinator.
    ///
    /// Versions 3+.
    pub member_id: String,
    /// The unique identifier of the consumer instance provided by end user.
    ///
    /// Versions 3+; nullable 3+.
    pub group_instance_id: Option<String>,
    /// Each topic that we want to commit offsets for.
    ///
    /// Versions 0+.
    pub topics: Vec<TxnOffsetCommitRequestTopic>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TxnOffsetCommitRequest {
    fn default() -> Self {
        TxnOffsetCommitRequest {
            transactional_id: String::new(),
            group_id: String::new(),
            producer_id: 0,
            producer_epoch: 0,
            generation_id_or_member_epoch: -1,
            member_id: String::new(),
            group_instance_id: None,
            topics: Vec::<TxnOffsetCommitRequestTopic>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TxnOffsetCommitRequest {
    /// The message name.
    pub const NAME: &'static str = "TxnOffsetCommitRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 6;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(3);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=6).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "TxnOffsetCommitRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        write_string(w, (&self.transactional_id), flexible)?;
        write_string(w, (&self.group_id), flexible)?;
        w.put_i64(*(&self.producer_id));
        w.put_i16(*(&self.producer_epoch));
        if version >= 3 { w.put_i32(*(&self.generation_id_or_member_epoch)); }
        if !(version >= 3) { if self.generation_id_or_member_epoch != -1 { return Err(EncodeError::FieldNotInVersion { field: "GenerationIdOrMemberEpoch", version }); } }
        if version >= 3 { write_string(w, (&self.member_id), flexible)?; }
        if !(version >= 3) { if self.member_id != String::new() { return Err(EncodeError::FieldNotInVersion { field: "MemberId", version }); } }
        if version >= 3 { match (&self.group_instance_id) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 3) { return Err(EncodeError::NullNotAllowed { field: "GroupInstanceId", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 3) { if self.group_instance_id != None { return Err(EncodeError::FieldNotInVersion { field: "GroupInstanceId", version }); } }
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.transactional_id), flexible);
        n += string_len((&self.group_id), flexible);
        n += 8;
        n += 2;
        if version >= 3 { n += 4; }
        if version >= 3 { n += string_len((&self.member_id), flexible); }
        if version >= 3 { n += match (&self.group_instance_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
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
        if !(0..=6).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "TxnOffsetCommitRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.transactional_id = read_string(buf, flexible, "TransactionalId")?;
        v.group_id = read_string(buf, flexible, "GroupId")?;
        v.producer_id = read_i64(buf)?;
        v.producer_epoch = read_i16(buf)?;
        if version >= 3 { v.generation_id_or_member_epoch = read_i32(buf)?; }
        if version >= 3 { v.member_id = read_string(buf, flexible, "MemberId")?; }
        if version >= 3 { v.group_instance_id = if version >= 3 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "GroupInstanceId")?) }; }
        v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TxnOffsetCommitRequestTopic::decode(buf, version)?); } v };
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.transactional_id = g.string();
        v.group_id = g.string();
        v.producer_id = g.i64();
        v.producer_epoch = g.i16();
        if version >= 3 { v.generation_id_or_member_epoch = g.i32(); }
        if version >= 3 { v.member_id = g.string(); }
        if version >= 3 { v.group_instance_id = if (version >= 3) && g.chance(4) { None } else { Some(g.string()) }; }
        v.topics = (0..g.collection_len()).map(|_| TxnOffsetCommitRequestTopic::sample(g, version)).collect();
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
        if version >= 3 { f("GroupInstanceId", &mut self.group_instance_id); }
        for x in &mut self.topics { x.each_nullable_string(version, f); }
    }
}

/// Each topic that we want to commit offsets for.
#[derive(Debug, Clone, PartialEq)]
pub struct TxnOffsetCommitRequestTopic {
    /// The topic name.
    ///
    /// Versions 0-5.
    pub name: String,
    /// The topic ID.
    ///
    /// Versions 6+.
    pub topic_id: Uuid,
    /// The partitions inside the topic that we want to commit offsets for.
    ///
    /// Versions 0+.
    pub partitions: Vec<TxnOffsetCommitRequestPartition>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TxnOffsetCommitRequestTopic {
    fn default() -> Self {
        TxnOffsetCommitRequestTopic {
            name: String::new(),
            topic_id: Uuid::nil(),
            partitions: Vec::<TxnOffsetCommitRequestPartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TxnOffsetCommitRequestTopic {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 3;
        if version <= 5 { write_string(w, (&self.name), flexible)?; }
        if version >= 6 { write_uuid(w, (&self.topic_id)); }
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version <= 5 { n += string_len((&self.name), flexible); }
        if version >= 6 { n += 16; }
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 5 { v.name = read_string(buf, flexible, "Name")?; }
        if version >= 6 { v.topic_id = read_uuid(buf)?; }
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TxnOffsetCommitRequestPartition::decode(buf, version)?); } v };
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 5 { v.name = g.string(); }
        if version >= 6 { v.topic_id = g.uuid(); }
        v.partitions = (0..g.collection_len()).map(|_| TxnOffsetCommitRequestPartition::sample(g, version)).collect();
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

/// The partitions inside the topic that we want to commit offsets for.
#[derive(Debug, Clone, PartialEq)]
pub struct TxnOffsetCommitRequestPartition {
    /// The index of the partition within the topic.
    ///
    /// Versions 0+.
    pub partition_index: i32,
    /// The message offset to be committed.
    ///
    /// Versions 0+.
    pub committed_offset: i64,
    /// The leader epoch of the last consumed record.
    ///
    /// Versions 2+.
    pub committed_leader_epoch: i32,
    /// Any associated metadata the client wants to keep.
    ///
    /// Versions 0+; nullable 0+.
    pub committed_metadata: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TxnOffsetCommitRequestPartition {
    fn default() -> Self {
        TxnOffsetCommitRequestPartition {
            partition_index: 0,
            committed_offset: 0,
            committed_leader_epoch: -1,
            committed_metadata: Some(String::new()),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TxnOffsetCommitRequestPartition {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 3;
        w.put_i32(*(&self.partition_index));
        w.put_i64(*(&self.committed_offset));
        if version >= 2 { w.put_i32(*(&self.committed_leader_epoch)); }
        match (&self.committed_metadata) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
        n += 8;
        if version >= 2 { n += 4; }
        n += match (&self.committed_metadata) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.partition_index = read_i32(buf)?;
        v.committed_offset = read_i64(buf)?;
        if version >= 2 { v.committed_leader_epoch = read_i32(buf)?; }
        v.committed_metadata = read_nullable_string(buf, flexible)?;
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
        let flexible = version >= 3;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.partition_index = g.i32();
        v.committed_offset = g.i64();
        if version >= 2 { v.committed_leader_epoch = g.i32(); }
        v.committed_metadata = if (true) && g.chance(4) { None } else { Some(g.string()) };
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
        f("CommittedMetadata", &mut self.committed_metadata);
    }
}
