//! Generated from `StreamsGroupMemberMetadataValue.json` by fjord-codegen. Do not edit.

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

/// The `StreamsGroupMemberMetadataValue` coordinator-value (type 19, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamsGroupMemberMetadataValue {
    /// The (optional) instance ID for static membership.
    ///
    /// Versions 0+; nullable 0+.
    pub instance_id: Option<String>,
    /// The (optional) rack ID.
    ///
    /// Versions 0+; nullable 0+.
    pub rack_id: Option<String>,
    /// The client ID.
    ///
    /// Versions 0+.
    pub client_id: String,
    /// The client host.
    ///
    /// Versions 0+.
    pub client_host: String,
    /// The rebalance timeout.
    ///
    /// Versions 0+.
    pub rebalance_timeout_ms: i32,
    /// The epoch of the topology.
    ///
    /// Versions 0+.
    pub topology_epoch: i32,
    /// Identity of the streams instance that may have multiple consumers.
    ///
    /// Versions 0+.
    pub process_id: String,
    /// User-defined endpoint for running interactive queries on this instance.
    ///
    /// Versions 0+; nullable 0+.
    pub user_endpoint: Option<Endpoint>,
    /// Used for rack-aware assignment algorithm.
    ///
    /// Versions 0+.
    pub client_tags: Vec<KeyValue>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for StreamsGroupMemberMetadataValue {
    fn default() -> Self {
        StreamsGroupMemberMetadataValue {
            instance_id: Some(String::new()),
            rack_id: Some(String::new()),
            client_id: String::new(),
            client_host: String::new(),
            rebalance_timeout_ms: -1,
            topology_epoch: 0,
            process_id: String::new(),
            user_endpoint: None,
            client_tags: Vec::<KeyValue>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl StreamsGroupMemberMetadataValue {
    /// The message name.
    pub const NAME: &'static str = "StreamsGroupMemberMetadataValue";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "StreamsGroupMemberMetadataValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        match (&self.instance_id) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        match (&self.rack_id) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        write_string(w, (&self.client_id), flexible)?;
        write_string(w, (&self.client_host), flexible)?;
        w.put_i32(*(&self.rebalance_timeout_ms));
        w.put_i32(*(&self.topology_epoch));
        write_string(w, (&self.process_id), flexible)?;
        match (&self.user_endpoint) { Some(x) => { if true { w.put_i8(1); } x.encode(w, version)?; } None => { w.put_i8(-1); } }
        write_len_prefix(w, (&self.client_tags).len(), flexible)?; for e0 in (&self.client_tags).iter() { e0.encode(w, version)?; }
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
        n += match (&self.instance_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += match (&self.rack_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += string_len((&self.client_id), flexible);
        n += string_len((&self.client_host), flexible);
        n += 4;
        n += 4;
        n += string_len((&self.process_id), flexible);
        n += match (&self.user_endpoint) { Some(x) => usize::from(true) + x.encoded_len(version), None => 1 };
        n += len_prefix_len((&self.client_tags).len(), flexible) + (&self.client_tags).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "StreamsGroupMemberMetadataValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.instance_id = read_nullable_string(buf, flexible)?;
        v.rack_id = read_nullable_string(buf, flexible)?;
        v.client_id = read_string(buf, flexible, "ClientId")?;
        v.client_host = read_string(buf, flexible, "ClientHost")?;
        v.rebalance_timeout_ms = read_i32(buf)?;
        v.topology_epoch = read_i32(buf)?;
        v.process_id = read_string(buf, flexible, "ProcessId")?;
        v.user_endpoint = if read_i8(buf)? < 0 { None } else { Some(Endpoint::decode(buf, version)?) };
        v.client_tags = { let n = read_array_len_non_null(buf, flexible, "ClientTags")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(KeyValue::decode(buf, version)?); } v };
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
        v.instance_id = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.rack_id = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.client_id = g.string();
        v.client_host = g.string();
        v.rebalance_timeout_ms = g.i32();
        v.topology_epoch = g.i32();
        v.process_id = g.string();
        v.user_endpoint = if (true) && g.chance(4) { None } else { Some(Endpoint::sample(g, version)) };
        v.client_tags = (0..g.collection_len()).map(|_| KeyValue::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        if let Some(x) = &self.user_endpoint { x.each_error_code(f); }
        for x in &self.client_tags { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("InstanceId", &mut self.instance_id);
        f("RackId", &mut self.rack_id);
        if let Some(x) = &mut self.user_endpoint { x.each_nullable_string(version, f); }
        for x in &mut self.client_tags { x.each_nullable_string(version, f); }
    }
}

/// The common struct `Endpoint`.
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoint {
    /// The host of the endpoint.
    ///
    /// Versions 0+.
    pub host: String,
    /// The port of the endpoint.
    ///
    /// Versions 0+.
    pub port: u16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for Endpoint {
    fn default() -> Self {
        Endpoint {
            host: String::new(),
            port: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl Endpoint {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
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

/// The common struct `KeyValue`.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyValue {
    /// The key of the config.
    ///
    /// Versions 0+.
    pub key: String,
    /// the value of the config.
    ///
    /// Versions 0+.
    pub value: String,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for KeyValue {
    fn default() -> Self {
        KeyValue {
            key: String::new(),
            value: String::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl KeyValue {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.key), flexible)?;
        write_string(w, (&self.value), flexible)?;
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
        n += string_len((&self.key), flexible);
        n += string_len((&self.value), flexible);
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
        v.key = read_string(buf, flexible, "Key")?;
        v.value = read_string(buf, flexible, "Value")?;
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
        v.key = g.string();
        v.value = g.string();
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
