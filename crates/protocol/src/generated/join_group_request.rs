//! Generated from `JoinGroupRequest.json` by fjord-codegen. Do not edit.

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

/// The `JoinGroupRequest` request (api key 11, versions 0-9).
#[derive(Debug, Clone, PartialEq)]
pub struct JoinGroupRequest {
    /// The group identifier.
    ///
    /// Versions 0+.
    pub group_id: String,
    /// The coordinator considers the consumer dead if it receives no heartbeat after this timeout in milliseconds.
    ///
    /// Versions 0+.
    pub session_timeout_ms: i32,
    /// The maximum time in milliseconds that the coordinator will wait for each member to rejoin when rebalancing the group.
    ///
    /// Versions 1+.
    pub rebalance_timeout_ms: i32,
    /// The member id assigned by the group coordinator.
    ///
    /// Versions 0+.
    pub member_id: String,
    /// The unique identifier of the consumer instance provided by end user.
    ///
    /// Versions 5+; nullable 5+.
    pub group_instance_id: Option<String>,
    /// The unique name the for class of protocols implemented by the group we want to join.
    ///
    /// Versions 0+.
    pub protocol_type: String,
    /// The list of protocols that the member supports.
    ///
    /// Versions 0+.
    pub protocols: Vec<JoinGroupRequestProtocol>,
    /// The reason why the member (re-)joins the group.
    ///
    /// Versions 8+; nullable 8+.
    pub reason: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for JoinGroupRequest {
    fn default() -> Self {
        JoinGroupRequest {
            group_id: String::new(),
            session_timeout_ms: 0,
            rebalance_timeout_ms: -1,
            member_id: String::new(),
            group_instance_id: None,
            protocol_type: String::new(),
            protocols: Vec::<JoinGroupRequestProtocol>::new(),
            reason: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl JoinGroupRequest {
    /// The message name.
    pub const NAME: &'static str = "JoinGroupRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 9;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(6);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=9).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "JoinGroupRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 6;
        write_string(w, (&self.group_id), flexible)?;
        w.put_i32(*(&self.session_timeout_ms));
        if version >= 1 { w.put_i32(*(&self.rebalance_timeout_ms)); }
        write_string(w, (&self.member_id), flexible)?;
        if version >= 5 { match (&self.group_instance_id) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 5) { return Err(EncodeError::NullNotAllowed { field: "GroupInstanceId", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 5) { if self.group_instance_id != None { return Err(EncodeError::FieldNotInVersion { field: "GroupInstanceId", version }); } }
        write_string(w, (&self.protocol_type), flexible)?;
        write_len_prefix(w, (&self.protocols).len(), flexible)?; for e0 in (&self.protocols).iter() { e0.encode(w, version)?; }
        if version >= 8 { match (&self.reason) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 8) { return Err(EncodeError::NullNotAllowed { field: "Reason", version }); } write_nullable_string(w, None, flexible)?; } } }
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
        n += string_len((&self.group_id), flexible);
        n += 4;
        if version >= 1 { n += 4; }
        n += string_len((&self.member_id), flexible);
        if version >= 5 { n += match (&self.group_instance_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        n += string_len((&self.protocol_type), flexible);
        n += len_prefix_len((&self.protocols).len(), flexible) + (&self.protocols).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if version >= 8 { n += match (&self.reason) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=9).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "JoinGroupRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 6;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.group_id = read_string(buf, flexible, "GroupId")?;
        v.session_timeout_ms = read_i32(buf)?;
        if version >= 1 { v.rebalance_timeout_ms = read_i32(buf)?; }
        v.member_id = read_string(buf, flexible, "MemberId")?;
        if version >= 5 { v.group_instance_id = if version >= 5 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "GroupInstanceId")?) }; }
        v.protocol_type = read_string(buf, flexible, "ProtocolType")?;
        v.protocols = { let n = read_array_len_non_null(buf, flexible, "Protocols")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(JoinGroupRequestProtocol::decode(buf, version)?); } v };
        if version >= 8 { v.reason = if version >= 8 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "Reason")?) }; }
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
        v.group_id = g.string();
        v.session_timeout_ms = g.i32();
        if version >= 1 { v.rebalance_timeout_ms = g.i32(); }
        v.member_id = g.string();
        if version >= 5 { v.group_instance_id = if (version >= 5) && g.chance(4) { None } else { Some(g.string()) }; }
        v.protocol_type = g.string();
        v.protocols = (0..g.collection_len()).map(|_| JoinGroupRequestProtocol::sample(g, version)).collect();
        if version >= 8 { v.reason = if (version >= 8) && g.chance(4) { None } else { Some(g.string()) }; }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.protocols { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 5 { f("GroupInstanceId", &mut self.group_instance_id); }
        for x in &mut self.protocols { x.each_nullable_string(version, f); }
        if version >= 8 { f("Reason", &mut self.reason); }
    }
}

/// The list of protocols that the member supports.
#[derive(Debug, Clone, PartialEq)]
pub struct JoinGroupRequestProtocol {
    /// The protocol name.
    ///
    /// Versions 0+.
    pub name: String,
    /// The protocol metadata.
    ///
    /// Versions 0+.
    pub metadata: Bytes,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for JoinGroupRequestProtocol {
    fn default() -> Self {
        JoinGroupRequestProtocol {
            name: String::new(),
            metadata: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl JoinGroupRequestProtocol {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 6;
        write_string(w, (&self.name), flexible)?;
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
        n += string_len((&self.name), flexible);
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
        v.name = read_string(buf, flexible, "Name")?;
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
        v.name = g.string();
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
    }
}
