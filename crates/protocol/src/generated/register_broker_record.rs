//! Generated from `RegisterBrokerRecord.json` by fjord-codegen. Do not edit.

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

/// The `RegisterBrokerRecord` metadata (type 0, versions 0-3).
#[derive(Debug, Clone, PartialEq)]
pub struct RegisterBrokerRecord {
    /// The broker id.
    ///
    /// Versions 0+.
    pub broker_id: i32,
    /// True if the broker is a ZK broker in migration mode. Otherwise, false
    ///
    /// Versions 2+.
    pub is_migrating_zk_broker: bool,
    /// The incarnation ID of the broker process
    ///
    /// Versions 0+.
    pub incarnation_id: Uuid,
    /// The broker epoch assigned by the controller.
    ///
    /// Versions 0+.
    pub broker_epoch: i64,
    /// The endpoints that can be used to communicate with this broker.
    ///
    /// Versions 0+.
    pub end_points: Vec<BrokerEndpoint>,
    /// The features on this broker
    ///
    /// Versions 0+.
    pub features: Vec<BrokerFeature>,
    /// The broker rack.
    ///
    /// Versions 0+; nullable 0+.
    pub rack: Option<String>,
    /// True if the broker is fenced.
    ///
    /// Versions 0+.
    pub fenced: bool,
    /// True if the broker is in controlled shutdown.
    ///
    /// Versions 1+.
    pub in_controlled_shutdown: bool,
    /// Log directories configured in this broker which are available.
    ///
    /// Versions 3+; tag 0 in 3+.
    pub log_dirs: Vec<Uuid>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for RegisterBrokerRecord {
    fn default() -> Self {
        RegisterBrokerRecord {
            broker_id: 0,
            is_migrating_zk_broker: false,
            incarnation_id: Uuid::nil(),
            broker_epoch: 0,
            end_points: Vec::<BrokerEndpoint>::new(),
            features: Vec::<BrokerFeature>::new(),
            rack: Some(String::new()),
            fenced: true,
            in_controlled_shutdown: false,
            log_dirs: Vec::<Uuid>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl RegisterBrokerRecord {
    /// The message name.
    pub const NAME: &'static str = "RegisterBrokerRecord";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 3;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=3).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "RegisterBrokerRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.broker_id));
        if version >= 2 { write_bool(w, *(&self.is_migrating_zk_broker)); }
        if !(version >= 2) { if self.is_migrating_zk_broker != false { return Err(EncodeError::FieldNotInVersion { field: "IsMigratingZkBroker", version }); } }
        write_uuid(w, (&self.incarnation_id));
        w.put_i64(*(&self.broker_epoch));
        write_len_prefix(w, (&self.end_points).len(), flexible)?; for e0 in (&self.end_points).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.features).len(), flexible)?; for e0 in (&self.features).iter() { e0.encode(w, version)?; }
        match (&self.rack) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        write_bool(w, *(&self.fenced));
        if version >= 1 { write_bool(w, *(&self.in_controlled_shutdown)); }
        if !(version >= 1) { if self.in_controlled_shutdown != false { return Err(EncodeError::FieldNotInVersion { field: "InControlledShutdown", version }); } }
        if !((false) || (version >= 3)) { if self.log_dirs != Vec::<Uuid>::new() { return Err(EncodeError::FieldNotInVersion { field: "LogDirs", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 3 && self.log_dirs != Vec::<Uuid>::new() { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 3 && self.log_dirs != Vec::<Uuid>::new() { write_uvarint(w, 0); write_uvarint(w, (len_prefix_len((&self.log_dirs).len(), true) + (&self.log_dirs).len() * 16) as u32); write_len_prefix(w, (&self.log_dirs).len(), true)?; for e0 in (&self.log_dirs).iter() { write_uuid(w, e0); } }
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
        if version >= 2 { n += 1; }
        n += 16;
        n += 8;
        n += len_prefix_len((&self.end_points).len(), flexible) + (&self.end_points).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.features).len(), flexible) + (&self.features).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += match (&self.rack) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += 1;
        if version >= 1 { n += 1; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 3 && self.log_dirs != Vec::<Uuid>::new() { count += 1; let s = len_prefix_len((&self.log_dirs).len(), true) + (&self.log_dirs).len() * 16; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=3).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "RegisterBrokerRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.broker_id = read_i32(buf)?;
        if version >= 2 { v.is_migrating_zk_broker = read_bool(buf)?; }
        v.incarnation_id = read_uuid(buf)?;
        v.broker_epoch = read_i64(buf)?;
        v.end_points = { let n = read_array_len_non_null(buf, flexible, "EndPoints")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(BrokerEndpoint::decode(buf, version)?); } v };
        v.features = { let n = read_array_len_non_null(buf, flexible, "Features")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(BrokerFeature::decode(buf, version)?); } v };
        v.rack = read_nullable_string(buf, flexible)?;
        v.fenced = read_bool(buf)?;
        if version >= 1 { v.in_controlled_shutdown = read_bool(buf)?; }
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 if version >= 3 => { let buf = &mut field; v.log_dirs = { let n = read_array_len_non_null(buf, true, "LogDirs")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_uuid(buf)?); } v }; finish_tagged_field(buf, 0)?; }
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
        v.broker_id = g.i32();
        if version >= 2 { v.is_migrating_zk_broker = g.bool(); }
        v.incarnation_id = g.uuid();
        v.broker_epoch = g.i64();
        v.end_points = (0..g.collection_len()).map(|_| BrokerEndpoint::sample(g, version)).collect();
        v.features = (0..g.collection_len()).map(|_| BrokerFeature::sample(g, version)).collect();
        v.rack = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.fenced = g.bool();
        if version >= 1 { v.in_controlled_shutdown = g.bool(); }
        if (version >= 3) && g.bool() { v.log_dirs = (0..g.collection_len()).map(|_| g.uuid()).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.end_points { x.each_error_code(f); }
        for x in &self.features { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.end_points { x.each_nullable_string(version, f); }
        for x in &mut self.features { x.each_nullable_string(version, f); }
        f("Rack", &mut self.rack);
    }
}

/// The endpoints that can be used to communicate with this broker.
#[derive(Debug, Clone, PartialEq)]
pub struct BrokerEndpoint {
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
    /// The security protocol.
    ///
    /// Versions 0+.
    pub security_protocol: i16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for BrokerEndpoint {
    fn default() -> Self {
        BrokerEndpoint {
            name: String::new(),
            host: String::new(),
            port: 0,
            security_protocol: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl BrokerEndpoint {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.name), flexible)?;
        write_string(w, (&self.host), flexible)?;
        w.put_u16(*(&self.port));
        w.put_i16(*(&self.security_protocol));
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
        v.security_protocol = read_i16(buf)?;
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
        v.security_protocol = g.i16();
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

/// The features on this broker
#[derive(Debug, Clone, PartialEq)]
pub struct BrokerFeature {
    /// The feature name.
    ///
    /// Versions 0+.
    pub name: String,
    /// The minimum supported feature level.
    ///
    /// Versions 0+.
    pub min_supported_version: i16,
    /// The maximum supported feature level.
    ///
    /// Versions 0+.
    pub max_supported_version: i16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for BrokerFeature {
    fn default() -> Self {
        BrokerFeature {
            name: String::new(),
            min_supported_version: 0,
            max_supported_version: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl BrokerFeature {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.name), flexible)?;
        w.put_i16(*(&self.min_supported_version));
        w.put_i16(*(&self.max_supported_version));
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
        n += 2;
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
        v.min_supported_version = read_i16(buf)?;
        v.max_supported_version = read_i16(buf)?;
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
        v.min_supported_version = g.i16();
        v.max_supported_version = g.i16();
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
