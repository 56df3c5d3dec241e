//! Generated from `JoinGroupResponse.json` by fjord-codegen. Do not edit.

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

/// The `JoinGroupResponse` response (api key 11, versions 0-9).
#[derive(Debug, Clone, PartialEq)]
pub struct JoinGroupResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 2+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The generation ID of the group.
    ///
    /// Versions 0+.
    pub generation_id: i32,
    /// The group protocol name.
    ///
    /// Versions 7+; nullable 7+.
    pub protocol_type: Option<String>,
    /// The group protocol selected by the coordinator.
    ///
    /// Versions 0+; nullable 7+.
    pub protocol_name: Option<String>,
    /// The leader of the group.
    ///
    /// Versions 0+.
    pub leader: String,
    /// True if the leader must skip running the assignment.
    ///
    /// Versions 9+.
    pub skip_assignment: bool,
    /// The member ID assigned by the group coordinator.
    ///
    /// Versions 0+.
    pub member_id: String,
    /// The group members.
    ///
    /// Versions 0+.
    pub members: Vec<JoinGroupResponseMember>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for JoinGroupResponse {
    fn default() -> Self {
        JoinGroupResponse {
            throttle_time_ms: 0,
            error_code: 0,
            generation_id: -1,
            protocol_type: None,
            protocol_name: Some(String::new()),
            leader: String::new(),
            skip_assignment: false,
            member_id: String::new(),
            members: Vec::<JoinGroupResponseMember>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl JoinGroupResponse {
    /// The message name.
    pub const NAME: &'static str = "JoinGroupResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 9;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(6);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=9).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "JoinGroupResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 6;
        if version >= 2 { w.put_i32(*(&self.throttle_time_ms)); }
        w.put_i16(*(&self.error_code));
        w.put_i32(*(&self.generation_id));
        if version >= 7 { match (&self.protocol_type) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 7) { return Err(EncodeError::NullNotAllowed { field: "ProtocolType", version }); } write_nullable_string(w, None, flexible)?; } } }
        match (&self.protocol_name) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 7) { return Err(EncodeError::NullNotAllowed { field: "ProtocolName", version }); } write_nullable_string(w, None, flexible)?; } }
        write_string(w, (&self.leader), flexible)?;
        if version >= 9 { write_bool(w, *(&self.skip_assignment)); }
        if !(version >= 9) { if self.skip_assignment != false { return Err(EncodeError::FieldNotInVersion { field: "SkipAssignment", version }); } }
        write_string(w, (&self.member_id), flexible)?;
        write_len_prefix(w, (&self.members).len(), flexible)?; for e0 in (&self.members).iter() { e0.encode(w, version)?; }
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 2 { n += 4; }
        n += 2;
        n += 4;
        if version >= 7 { n += match (&self.protocol_type) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        n += match (&self.protocol_name) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += string_len((&self.leader), flexible);
        if version >= 9 { n += 1; }
        n += string_len((&self.member_id), flexible);
        n += len_prefix_len((&self.members).len(), flexible) + (&self.members).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=9).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "JoinGroupResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 2 { v.throttle_time_ms = read_i32(buf)?; }
        v.error_code = read_i16(buf)?;
        v.generation_id = read_i32(buf)?;
        if version >= 7 { v.protocol_type = if version >= 7 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "ProtocolType")?) }; }
        v.protocol_name = if version >= 7 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "ProtocolName")?) };
        v.leader = read_string(buf, flexible, "Leader")?;
        if version >= 9 { v.skip_assignment = read_bool(buf)?; }
        v.member_id = read_string(buf, flexible, "MemberId")?;
        v.members = { let n = read_array_len_non_null(buf, flexible, "Members")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(JoinGroupResponseMember::decode(buf, version)?); } v };
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 2 { v.throttle_time_ms = g.i32(); }
        v.error_code = g.i16();
        v.generation_id = g.i32();
        if version >= 7 { v.protocol_type = if (version >= 7) && g.chance(4) { None } else { Some(g.string()) }; }
        v.protocol_name = if (version >= 7) && g.chance(4) { None } else { Some(g.string()) };
        v.leader = g.string();
        if version >= 9 { v.skip_assignment = g.bool(); }
        v.member_id = g.string();
        v.members = (0..g.collection_len()).map(|_| JoinGroupResponseMember::sample(g, version)).collect();
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
        if version >= 7 { f("ProtocolType", &mut self.protocol_type); }
        f("ProtocolName", &mut self.protocol_name);
        for x in &mut self.members { x.each_nullable_string(version, f); }
    }
}

/// The group members.
#[derive(Debug, Clone, PartialEq)]
pub struct JoinGroupResponseMember {
    /// The group member ID.
    ///
    /// Versions 0+.
    pub member_id: String,
    /// The unique identifier of the consumer instance provided by end user.
    ///
    /// Versions 5+; nullable 5+.
    pub group_instance_id: Option<String>,
    /// The group member metadata.
    ///
    /// Versions 0+.
    pub metadata: Bytes,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for JoinGroupResponseMember {
    fn default() -> Self {
        JoinGroupResponseMember {
            member_id: String::new(),
            group_instance_id: None,
            metadata: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl JoinGroupResponseMember {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 6;
        write_string(w, (&self.member_id), flexible)?;
        if version >= 5 { match (&self.group_instance_id) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 5) { return Err(EncodeError::NullNotAllowed { field: "GroupInstanceId", version }); } write_nullable_string(w, None, flexible)?; } } }
        write_bytes(w, (&self.metadata), flexible)?;
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.member_id), flexible);
        if version >= 5 { n += match (&self.group_instance_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        n += bytes_len((&self.metadata), flexible);
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.member_id = read_string(buf, flexible, "MemberId")?;
        if version >= 5 { v.group_instance_id = if version >= 5 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "GroupInstanceId")?) }; }
        v.metadata = read_bytes(buf, flexible, "Metadata")?;
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
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.member_id = g.string();
        if version >= 5 { v.group_instance_id = if (version >= 5) && g.chance(4) { None } else { Some(g.string()) }; }
        v.metadata = g.bytes();
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
        if version >= 5 { f("GroupInstanceId", &mut self.group_instance_id); }
    }
}
