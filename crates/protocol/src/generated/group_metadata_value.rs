//! Generated from `GroupMetadataValue.json` by fjord-codegen. Do not edit.

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

/// The `GroupMetadataValue` coordinator-value (type 2, versions 0-4).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupMetadataValue {
    /// The protocol type.
    ///
    /// Versions 0+.
    pub protocol_type: String,
    /// The generation id.
    ///
    /// Versions 0+.
    pub generation: i32,
    /// The protocol name.
    ///
    /// Versions 0+; nullable 0+.
    pub protocol: Option<String>,
    /// The leader id.
    ///
    /// Versions 0+; nullable 0+.
    pub leader: Option<String>,
    /// The timestamp of the last state change.
    ///
    /// Versions 2+.
    pub current_state_timestamp: i64,
    /// The group members.
    ///
    /// Versions 0+.
    pub members: Vec<MemberMetadata>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for GroupMetadataValue {
    fn default() -> Self {
        GroupMetadataValue {
            protocol_type: String::new(),
            generation: 0,
            protocol: Some(String::new()),
            leader: Some(String::new()),
            current_state_timestamp: -1,
            members: Vec::<MemberMetadata>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl GroupMetadataValue {
    /// The message name.
    pub const NAME: &'static str = "GroupMetadataValue";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 4;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(4);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=4).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "GroupMetadataValue", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        write_string(w, (&self.protocol_type), flexible)?;
        w.put_i32(*(&self.generation));
        match (&self.protocol) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        match (&self.leader) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        if version >= 2 { w.put_i64(*(&self.current_state_timestamp)); }
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
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.protocol_type), flexible);
        n += 4;
        n += match (&self.protocol) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += match (&self.leader) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        if version >= 2 { n += 8; }
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
        if !(0..=4).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "GroupMetadataValue", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.protocol_type = read_string(buf, flexible, "protocolType")?;
        v.generation = read_i32(buf)?;
        v.protocol = read_nullable_string(buf, flexible)?;
        v.leader = read_nullable_string(buf, flexible)?;
        if version >= 2 { v.current_state_timestamp = read_i64(buf)?; }
        v.members = { let n = read_array_len_non_null(buf, flexible, "members")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(MemberMetadata::decode(buf, version)?); } v };
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
        v.protocol_type = g.string();
        v.generation = g.i32();
        v.protocol = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.leader = if (true) && g.chance(4) { None } else { Some(g.string()) };
        if version >= 2 { v.current_state_timestamp = g.i64(); }
        v.members = (0..g.collection_len()).map(|_| MemberMetadata::sample(g, version)).collect();
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
        f("protocol", &mut self.protocol);
        f("leader", &mut self.leader);
        for x in &mut self.members { x.each_nullable_string(version, f); }
    }
}

/// The common struct `MemberMetadata`.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberMetadata {
    /// The member id.
    ///
    /// Versions 0+.
    pub member_id: String,
    /// The group instance id.
    ///
    /// Versions 3+; nullable 3+.
    pub group_instance_id: Option<String>,
    /// The client id.
    ///
    /// Versions 0+.
    pub client_id: String,
    /// The client host.
    ///
    /// Versions 0+.
    pub client_host: String,
    /// The rebalance timeout.
    ///
    /// Versions 1+.
    pub rebalance_timeout: i32,
    /// The session timeout.
    ///
    /// Versions 0+.
    pub session_timeout: i32,
    /// The subscription.
    ///
    /// Versions 0+.
    pub subscription: Bytes,
    /// The assignment.
    ///
    /// Versions 0+.
    pub assignment: Bytes,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for MemberMetadata {
    fn default() -> Self {
        MemberMetadata {
            member_id: String::new(),
            group_instance_id: None,
            client_id: String::new(),
            client_host: String::new(),
            rebalance_timeout: -1,
            session_timeout: 0,
            subscription: Bytes::new(),
            assignment: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl MemberMetadata {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 4;
        write_string(w, (&self.member_id), flexible)?;
        if version >= 3 { match (&self.group_instance_id) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 3) { return Err(EncodeError::NullNotAllowed { field: "groupInstanceId", version }); } write_nullable_string(w, None, flexible)?; } } }
        write_string(w, (&self.client_id), flexible)?;
        write_string(w, (&self.client_host), flexible)?;
        if version >= 1 { w.put_i32(*(&self.rebalance_timeout)); }
        w.put_i32(*(&self.session_timeout));
        write_bytes(w, (&self.subscription), flexible)?;
        write_bytes(w, (&self.assignment), flexible)?;
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
        n += string_len((&self.member_id), flexible);
        if version >= 3 { n += match (&self.group_instance_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        n += string_len((&self.client_id), flexible);
        n += string_len((&self.client_host), flexible);
        if version >= 1 { n += 4; }
        n += 4;
        n += bytes_len((&self.subscription), flexible);
        n += bytes_len((&self.assignment), flexible);
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
        v.member_id = read_string(buf, flexible, "memberId")?;
        if version >= 3 { v.group_instance_id = if version >= 3 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "groupInstanceId")?) }; }
        v.client_id = read_string(buf, flexible, "clientId")?;
        v.client_host = read_string(buf, flexible, "clientHost")?;
        if version >= 1 { v.rebalance_timeout = read_i32(buf)?; }
        v.session_timeout = read_i32(buf)?;
        v.subscription = read_bytes(buf, flexible, "subscription")?;
        v.assignment = read_bytes(buf, flexible, "assignment")?;
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
        v.member_id = g.string();
        if version >= 3 { v.group_instance_id = if (version >= 3) && g.chance(4) { None } else { Some(g.string()) }; }
        v.client_id = g.string();
        v.client_host = g.string();
        if version >= 1 { v.rebalance_timeout = g.i32(); }
        v.session_timeout = g.i32();
        v.subscription = g.bytes();
        v.assignment = g.bytes();
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
        if version >= 3 { f("groupInstanceId", &mut self.group_instance_id); }
    }
}
