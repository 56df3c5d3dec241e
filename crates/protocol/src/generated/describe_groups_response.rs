//! Generated from `DescribeGroupsResponse.json` by fjord-codegen. Do not edit.

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

/// The `DescribeGroupsResponse` response (api key 15, versions 0-6).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeGroupsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 1+.
    pub throttle_time_ms: i32,
    /// Each described group.
    ///
    /// Versions 0+.
    pub groups: Vec<DescribedGroup>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeGroupsResponse {
    fn default() -> Self {
        DescribeGroupsResponse {
            throttle_time_ms: 0,
            groups: Vec::<DescribedGroup>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeGroupsResponse {
    /// The message name.
    pub const NAME: &'static str = "DescribeGroupsResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 6;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(5);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=6).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DescribeGroupsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 5;
        if version >= 1 { w.put_i32(*(&self.throttle_time_ms)); }
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 1 { n += 4; }
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
        if !(0..=6).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DescribeGroupsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 1 { v.throttle_time_ms = read_i32(buf)?; }
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 1 { v.throttle_time_ms = g.i32(); }
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
    /// The describe error message, or null if there was no error.
    ///
    /// Versions 6+; nullable 6+.
    pub error_message: Option<String>,
    /// The group ID string.
    ///
    /// Versions 0+.
    pub group_id: String,
    /// The group state string, or the empty string.
    ///
    /// Versions 0+.
    pub group_state: String,
    /// The group protocol type, or the empty string.
    ///
    /// Versions 0+.
    pub protocol_type: String,
    /// The group protocol data, or the empty string.
    ///
    /// Versions 0+.
    pub protocol_data: String,
    /// The group members.
    ///
    /// Versions 0+.
    pub members: Vec<DescribedGroupMember>,
    /// 32-bit bitfield to represent authorized operations for this group.
    ///
    /// Versions 3+.
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
            protocol_type: String::new(),
            protocol_data: String::new(),
            members: Vec::<DescribedGroupMember>::new(),
            authorized_operations: -2147483648,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribedGroup {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 5;
        w.put_i16(*(&self.error_code));
        if version >= 6 { match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 6) { return Err(EncodeError::NullNotAllowed { field: "ErrorMessage", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 6) { if self.error_message != None { return Err(EncodeError::FieldNotInVersion { field: "ErrorMessage", version }); } }
        write_string(w, (&self.group_id), flexible)?;
        write_string(w, (&self.group_state), flexible)?;
        write_string(w, (&self.protocol_type), flexible)?;
        write_string(w, (&self.protocol_data), flexible)?;
        write_len_prefix(w, (&self.members).len(), flexible)?; for e0 in (&self.members).iter() { e0.encode(w, version)?; }
        if version >= 3 { w.put_i32(*(&self.authorized_operations)); }
        if !(version >= 3) { if self.authorized_operations != -2147483648 { return Err(EncodeError::FieldNotInVersion { field: "AuthorizedOperations", version }); } }
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 2;
        if version >= 6 { n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        n += string_len((&self.group_id), flexible);
        n += string_len((&self.group_state), flexible);
        n += string_len((&self.protocol_type), flexible);
        n += string_len((&self.protocol_data), flexible);
        n += len_prefix_len((&self.members).len(), flexible) + (&self.members).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if version >= 3 { n += 4; }
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = read_i16(buf)?;
        if version >= 6 { v.error_message = if version >= 6 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "ErrorMessage")?) }; }
        v.group_id = read_string(buf, flexible, "GroupId")?;
        v.group_state = read_string(buf, flexible, "GroupState")?;
        v.protocol_type = read_string(buf, flexible, "ProtocolType")?;
        v.protocol_data = read_string(buf, flexible, "ProtocolData")?;
        v.members = { let n = read_array_len_non_null(buf, flexible, "Members")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribedGroupMember::decode(buf, version)?); } v };
        if version >= 3 { v.authorized_operations = read_i32(buf)?; }
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = g.i16();
        if version >= 6 { v.error_message = if (version >= 6) && g.chance(4) { None } else { Some(g.string()) }; }
        v.group_id = g.string();
        v.group_state = g.string();
        v.protocol_type = g.string();
        v.protocol_data = g.string();
        v.members = (0..g.collection_len()).map(|_| DescribedGroupMember::sample(g, version)).collect();
        if version >= 3 { v.authorized_operations = g.i32(); }
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
        if version >= 6 { f("ErrorMessage", &mut self.error_message); }
        for x in &mut self.members { x.each_nullable_string(version, f); }
    }
}

/// The group members.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribedGroupMember {
    /// The member id.
    ///
    /// Versions 0+.
    pub member_id: String,
    /// The unique identifier of the consumer instance provided by end user.
    ///
    /// Versions 4+; nullable 4+.
    pub group_instance_id: Option<String>,
    /// The client ID used in the member's latest join group request.
    ///
    /// Versions 0+.
    pub client_id: String,
    /// The client host.
    ///
    /// Versions 0+.
    pub client_host: String,
    /// The metadata corresponding to the current group protocol in use.
    ///
    /// Versions 0+.
    pub member_metadata: Bytes,
    /// The current assignment provided by the group leader.
    ///
    /// Versions 0+.
    pub member_assignment: Bytes,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribedGroupMember {
    fn default() -> Self {
        DescribedGroupMember {
            member_id: String::new(),
            group_instance_id: None,
            client_id: String::new(),
            client_host: String::new(),
            member_metadata: Bytes::new(),
            member_assignment: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribedGroupMember {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 5;
        write_string(w, (&self.member_id), flexible)?;
        if version >= 4 { match (&self.group_instance_id) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 4) { return Err(EncodeError::NullNotAllowed { field: "GroupInstanceId", version }); } write_nullable_string(w, None, flexible)?; } } }
        write_string(w, (&self.client_id), flexible)?;
        write_string(w, (&self.client_host), flexible)?;
        write_bytes(w, (&self.member_metadata), flexible)?;
        write_bytes(w, (&self.member_assignment), flexible)?;
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.member_id), flexible);
        if version >= 4 { n += match (&self.group_instance_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        n += string_len((&self.client_id), flexible);
        n += string_len((&self.client_host), flexible);
        n += bytes_len((&self.member_metadata), flexible);
        n += bytes_len((&self.member_assignment), flexible);
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.member_id = read_string(buf, flexible, "MemberId")?;
        if version >= 4 { v.group_instance_id = if version >= 4 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "GroupInstanceId")?) }; }
        v.client_id = read_string(buf, flexible, "ClientId")?;
        v.client_host = read_string(buf, flexible, "ClientHost")?;
        v.member_metadata = read_bytes(buf, flexible, "MemberMetadata")?;
        v.member_assignment = read_bytes(buf, flexible, "MemberAssignment")?;
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
        let flexible = version >= 5;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.member_id = g.string();
        if version >= 4 { v.group_instance_id = if (version >= 4) && g.chance(4) { None } else { Some(g.string()) }; }
        v.client_id = g.string();
        v.client_host = g.string();
        v.member_metadata = g.bytes();
        v.member_assignment = g.bytes();
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
        if version >= 4 { f("GroupInstanceId", &mut self.group_instance_id); }
    }
}
