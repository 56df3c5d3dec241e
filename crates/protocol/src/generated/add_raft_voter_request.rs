//! Generated from `AddRaftVoterRequest.json` by fjord-codegen. Do not edit.

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

/// The `AddRaftVoterRequest` request (api key 80, versions 0-1).
#[derive(Debug, Clone, PartialEq)]
pub struct AddRaftVoterRequest {
    /// The cluster id.
    ///
    /// Versions 0+; nullable 0+.
    pub cluster_id: Option<String>,
    /// The maximum time to wait for the request to complete before returning.
    ///
    /// Versions 0+.
    pub timeout_ms: i32,
    /// The replica id of the voter getting added to the topic partition.
    ///
    /// Versions 0+.
    pub voter_id: i32,
    /// The directory id of the voter getting added to the topic partition.
    ///
    /// Versions 0+.
    pub voter_directory_id: Uuid,
    /// The endpoints that can be used to communicate with the voter.
    ///
    /// Versions 0+.
    pub listeners: Vec<Listener>,
    /// When true, return a response after the new voter set is committed. Otherwise, return after the leader writes the changes locally.
    ///
    /// Versions 1+.
    pub ack_when_committed: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for AddRaftVoterRequest {
    fn default() -> Self {
        AddRaftVoterRequest {
            cluster_id: Some(String::new()),
            timeout_ms: 0,
            voter_id: 0,
            voter_directory_id: Uuid::nil(),
            listeners: Vec::<Listener>::new(),
            ack_when_committed: true,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AddRaftVoterRequest {
    /// The message name.
    pub const NAME: &'static str = "AddRaftVoterRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 1;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=1).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "AddRaftVoterRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        match (&self.cluster_id) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        w.put_i32(*(&self.timeout_ms));
        w.put_i32(*(&self.voter_id));
        write_uuid(w, (&self.voter_directory_id));
        write_len_prefix(w, (&self.listeners).len(), flexible)?; for e0 in (&self.listeners).iter() { e0.encode(w, version)?; }
        if version >= 1 { write_bool(w, *(&self.ack_when_committed)); }
        if !(version >= 1) { if self.ack_when_committed != true { return Err(EncodeError::FieldNotInVersion { field: "AckWhenCommitted", version }); } }
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
        n += match (&self.cluster_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += 4;
        n += 4;
        n += 16;
        n += len_prefix_len((&self.listeners).len(), flexible) + (&self.listeners).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if version >= 1 { n += 1; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=1).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "AddRaftVoterRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.cluster_id = read_nullable_string(buf, flexible)?;
        v.timeout_ms = read_i32(buf)?;
        v.voter_id = read_i32(buf)?;
        v.voter_directory_id = read_uuid(buf)?;
        v.listeners = { let n = read_array_len_non_null(buf, flexible, "Listeners")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(Listener::decode(buf, version)?); } v };
        if version >= 1 { v.ack_when_committed = read_bool(buf)?; }
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
        v.cluster_id = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.timeout_ms = g.i32();
        v.voter_id = g.i32();
        v.voter_directory_id = g.uuid();
        v.listeners = (0..g.collection_len()).map(|_| Listener::sample(g, version)).collect();
        if version >= 1 { v.ack_when_committed = g.bool(); }
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
        f("ClusterId", &mut self.cluster_id);
        for x in &mut self.listeners { x.each_nullable_string(version, f); }
    }
}

/// The endpoints that can be used to communicate with the voter.
#[derive(Debug, Clone, PartialEq)]
pub struct Listener {
    /// The name of the endpoint.
    ///
    /// Versions 0+.
    pub name: String,
    /// The hostname.
    ///
    /// Versions 0+.
    pub host: String,
    /// The port.
    ///
    /// Versions 0+.
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
        write_string(w, (&self.name), flexible)?;
        write_string(w, (&self.host), flexible)?;
        w.put_u16(*(&self.port));
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
        n += string_len((&self.name), flexible);
        n += string_len((&self.host), flexible);
        n += 2;
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
        v.name = read_string(buf, flexible, "Name")?;
        v.host = read_string(buf, flexible, "Host")?;
        v.port = read_u16(buf)?;
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
        v.name = g.string();
        v.host = g.string();
        v.port = g.u16();
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
