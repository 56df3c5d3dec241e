//! Generated from `ShareGroupDescribeResponse.json` by fjord-codegen. Do not edit.

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

/// The `ShareGroupDescribeResponse` response (api key 77, versions 1-1).
#[derive(Debug, Clone, PartialEq)]
pub struct ShareGroupDescribeResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 0+.
    pub throttle_time_ms: i32,
    /// Each described group.
    ///
    /// Versions 0+.
    pub groups: Vec<DescribedGroup>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ShareGroupDescribeResponse {
    fn default() -> Self {
        ShareGroupDescribeResponse {
            throttle_time_ms: 0,
            groups: Vec::<DescribedGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ShareGroupDescribeResponse {
    /// The message name.
    pub const NAME: &'static str = "ShareGroupDescribeResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 1;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(1);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=1).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ShareGroupDescribeResponse", version }); }
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
        if !(1..=1).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ShareGroupDescribeResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        v.groups = { let n = read_array_len_non_null(buf, flexible, "Groups")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribedGroup::decode(buf, version)?); } v };
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
        v.groups = (0..g.collection_len()).map(|_| DescribedGroup::sample(g, version)).collect();
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

/// Each described group.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribedGroup {
    /// The describe error, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    ///
    /// Versions 0+; nullable 0+.
    pub error_message: Option<String>,
    /// The group ID string.
    ///
    /// Versions 0+.
    pub group_id: String,
    /// The group state string, or the empty string.
    ///
    /// Versions 0+.
    pub group_state: String,
    /// The group epoch.
    ///
    /// Versions 0+.
    pub group_epoch: i32,
    /// The assignment epoch.
    ///
    /// Versions 0+.
    pub assignment_epoch: i32,
    /// The selected assignor.
    ///
    /// Versions 0+.
    pub assignor_name: String,
    /// The members.
    ///
    /// Versions 0+.
    pub members: Vec<Member>,
    /// 32-bit bitfield to represent authorized operations for this group.
    ///
    /// Versions 0+.
    pub authorized_operations: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribedGroup {
    fn default() -> Self {
        DescribedGroup {
            error_code: 0,
            error_message: None,
            group_id: String::new(),
            group_state: String::new(),
            group_epoch: 0,
            assignment_epoch: 0,
            assignor_name: String::new(),
            members: Vec::<Member>::new(),
            authorized_operations: -2147483648,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribedGroup {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i16(*(&self.error_code));
        match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        write_string(w, (&self.group_id), flexible)?;
        write_string(w, (&self.group_state), flexible)?;
        w.put_i32(*(&self.group_epoch));
        w.put_i32(*(&self.assignment_epoch));
        write_string(w, (&self.assignor_name), flexible)?;
        write_len_prefix(w, (&self.members).len(), flexible)?; for e0 in (&self.members).iter() { e0.encode(w, version)?; }
        w.put_i32(*(&self.authorized_operations));
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
        n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += string_len((&self.group_id), flexible);
        n += string_len((&self.group_state), flexible);
        n += 4;
        n += 4;
        n += string_len((&self.assignor_name), flexible);
        n += len_prefix_len((&self.members).len(), flexible) + (&self.members).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.error_message = read_nullable_string(buf, flexible)?;
        v.group_id = read_string(buf, flexible, "GroupId")?;
        v.group_state = read_string(buf, flexible, "GroupState")?;
        v.group_epoch = read_i32(buf)?;
        v.assignment_epoch = read_i32(buf)?;
        v.assignor_name = read_string(buf, flexible, "AssignorName")?;
        v.members = { let n = read_array_len_non_null(buf, flexible, "Members")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Member::decode(buf, version)?); } v };
        v.authorized_operations = read_i32(buf)?;
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
        v.error_message = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.group_id = g.string();
        v.group_state = g.string();
        v.group_epoch = g.i32();
        v.assignment_epoch = g.i32();
        v.assignor_name = g.string();
        v.members = (0..g.collection_len()).map(|_| Member::sample(g, version)).collect();
        v.authorized_operations = g.i32();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.members { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("ErrorMessage", &mut self.error_message);
        for x in &mut self.members { x.each_nullable_string(version, f); }
    }
}

/// The members.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The member ID.
    ///
    /// Versions 0+.
    pub member_id: String,
    /// The member rack ID.
    ///
    /// Versions 0+; nullable 0+.
    pub rack_id: Option<String>,
    /// The current member epoch.
    ///
    /// Versions 0+.
    pub member_epoch: i32,
    /// The client ID.
    ///
    /// Versions 0+.
    pub client_id: String,
    /// The client host.
    ///
    /// Versions 0+.
    pub client_host: String,
    /// The subscribed topic names.
    ///
    /// Versions 0+.
    pub subscribed_topic_names: Vec<String>,
    /// The current assignment.
    ///
    /// Versions 0+.
    pub assignment: Assignment,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Member {
    fn default() -> Self {
        Member {
            member_id: String::new(),
            rack_id: None,
            member_epoch: 0,
            client_id: String::new(),
            client_host: String::new(),
            subscribed_topic_names: Vec::<String>::new(),
            assignment: Assignment::default(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Member {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.member_id), flexible)?;
        match (&self.rack_id) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        w.put_i32(*(&self.member_epoch));
        write_string(w, (&self.client_id), flexible)?;
        write_string(w, (&self.client_host), flexible)?;
        write_len_prefix(w, (&self.subscribed_topic_names).len(), flexible)?; for e0 in (&self.subscribed_topic_names).iter() { write_string(w, e0, flexible)?; }
        (&self.assignment).encode(w, version)?;
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
        n += string_len((&self.member_id), flexible);
        n += match (&self.rack_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += 4;
        n += string_len((&self.client_id), flexible);
        n += string_len((&self.client_host), flexible);
        n += len_prefix_len((&self.subscribed_topic_names).len(), flexible) + (&self.subscribed_topic_names).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n += (&self.assignment).encoded_len(version);
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
        v.member_id = read_string(buf, flexible, "MemberId")?;
        v.rack_id = read_nullable_string(buf, flexible)?;
        v.member_epoch = read_i32(buf)?;
        v.client_id = read_string(buf, flexible, "ClientId")?;
        v.client_host = read_string(buf, flexible, "ClientHost")?;
        v.subscribed_topic_names = { let n = read_array_len_non_null(buf, flexible, "SubscribedTopicNames")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "SubscribedTopicNames")?); } v };
        v.assignment = Assignment::decode(buf, version)?;
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
        v.member_id = g.string();
        v.rack_id = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.member_epoch = g.i32();
        v.client_id = g.string();
        v.client_host = g.string();
        v.subscribed_topic_names = (0..g.collection_len()).map(|_| g.string()).collect();
        v.assignment = Assignment::sample(g, version);
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        self.assignment.each_error_code(f);
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("RackId", &mut self.rack_id);
        self.assignment.each_nullable_string(version, f);
    }
}

/// The common struct `TopicPartitions`.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicPartitions {
    /// The topic ID.
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

impl Default for TopicPartitions {
    fn default() -> Self {
        TopicPartitions {
            topic_id: Uuid::nil(),
            topic_name: String::new(),
            partitions: Vec::<i32>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicPartitions {
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

/// The common struct `Assignment`.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// The assigned topic-partitions to the member.
    ///
    /// Versions 0+.
    pub topic_partitions: Vec<TopicPartitions>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Assignment {
    fn default() -> Self {
        Assignment {
            topic_partitions: Vec::<TopicPartitions>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Assignment {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_len_prefix(w, (&self.topic_partitions).len(), flexible)?; for e0 in (&self.topic_partitions).iter() { e0.encode(w, version)?; }
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
        n += len_prefix_len((&self.topic_partitions).len(), flexible) + (&self.topic_partitions).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        v.topic_partitions = { let n = read_array_len_non_null(buf, flexible, "TopicPartitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicPartitions::decode(buf, version)?); } v };
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
        v.topic_partitions = (0..g.collection_len()).map(|_| TopicPartitions::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.topic_partitions { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.topic_partitions { x.each_nullable_string(version, f); }
    }
}
