//! Generated from `LeaveGroupRequest.json` by fjord-codegen. Do not edit.

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

/// The `LeaveGroupRequest` request (api key 13, versions 0-5).
#[derive(Debug, Clone, PartialEq)]
pub struct LeaveGroupRequest {
    /// The ID of the group to leave.
    ///
    /// Versions 0+.
    pub group_id: String,
    /// The member ID to remove from the group.
    ///
    /// Versions 0-2.
    pub member_id: String,
    /// List of leaving member identities.
    ///
    /// Versions 3+.
    pub members: Vec<MemberIdentity>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for LeaveGroupRequest {
    fn default() -> Self {
        LeaveGroupRequest {
            group_id: String::new(),
            member_id: String::new(),
            members: Vec::<MemberIdentity>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl LeaveGroupRequest {
    /// The message name.
    pub const NAME: &'static str = "LeaveGroupRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 5;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(4);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=5).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "LeaveGroupRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        write_string(w, (&self.group_id), flexible)?;
        if version <= 2 { write_string(w, (&self.member_id), flexible)?; }
        if !(version <= 2) { if self.member_id != String::new() { return Err(EncodeError::FieldNotInVersion { field: "MemberId", version }); } }
        if version >= 3 { write_len_prefix(w, (&self.members).len(), flexible)?; for e0 in (&self.members).iter() { e0.encode(w, version)?; } }
        if !(version >= 3) { if self.members != Vec::<MemberIdentity>::new() { return Err(EncodeError::FieldNotInVersion { field: "Members", version }); } }
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
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.group_id), flexible);
        if version <= 2 { n += string_len((&self.member_id), flexible); }
        if version >= 3 { n += len_prefix_len((&self.members).len(), flexible) + (&self.members).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=5).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "LeaveGroupRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.group_id = read_string(buf, flexible, "GroupId")?;
        if version <= 2 { v.member_id = read_string(buf, flexible, "MemberId")?; }
        if version >= 3 { v.members = { let n = read_array_len_non_null(buf, flexible, "Members")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(MemberIdentity::decode(buf, version)?); } v }; }
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
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.group_id = g.string();
        if version <= 2 { v.member_id = g.string(); }
        if version >= 3 { v.members = (0..g.collection_len()).map(|_| MemberIdentity::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.members { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 3 { for x in &mut self.members { x.each_nullable_string(version, f); } }
    }
}

/// List of leaving member identities.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberIdentity {
    /// The member ID to remove from the group.
    ///
    /// Versions 3+.
    pub member_id: String,
    /// The group instance ID to remove from the group.
    ///
    /// Versions 3+; nullable 3+.
    pub group_instance_id: Option<String>,
    /// The reason why the member left the group.
    ///
    /// Versions 5+; nullable 5+.
    pub reason: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for MemberIdentity {
    fn default() -> Self {
        MemberIdentity {
            member_id: String::new(),
            group_instance_id: None,
            reason: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MemberIdentity {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 4;
        if version >= 3 { write_string(w, (&self.member_id), flexible)?; }
        if !(version >= 3) { if self.member_id != String::new() { return Err(EncodeError::FieldNotInVersion { field: "MemberId", version }); } }
        if version >= 3 { match (&self.group_instance_id) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 3) { return Err(EncodeError::NullNotAllowed { field: "GroupInstanceId", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 3) { if self.group_instance_id != None { return Err(EncodeError::FieldNotInVersion { field: "GroupInstanceId", version }); } }
        if version >= 5 { match (&self.reason) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 5) { return Err(EncodeError::NullNotAllowed { field: "Reason", version }); } write_nullable_string(w, None, flexible)?; } } }
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
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 3 { n += string_len((&self.member_id), flexible); }
        if version >= 3 { n += match (&self.group_instance_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if version >= 5 { n += match (&self.reason) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
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
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 3 { v.member_id = read_string(buf, flexible, "MemberId")?; }
        if version >= 3 { v.group_instance_id = if version >= 3 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "GroupInstanceId")?) }; }
        if version >= 5 { v.reason = if version >= 5 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "Reason")?) }; }
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
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 3 { v.member_id = g.string(); }
        if version >= 3 { v.group_instance_id = if (version >= 3) && g.chance(4) { None } else { Some(g.string()) }; }
        if version >= 5 { v.reason = if (version >= 5) && g.chance(4) { None } else { Some(g.string()) }; }
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
        if version >= 3 { f("GroupInstanceId", &mut self.group_instance_id); }
        if version >= 5 { f("Reason", &mut self.reason); }
    }
}
