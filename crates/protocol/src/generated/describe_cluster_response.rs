//! Generated from `DescribeClusterResponse.json` by fjord-codegen. Do not edit.

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

/// The `DescribeClusterResponse` response (api key 60, versions 0-2).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeClusterResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 0+.
    pub throttle_time_ms: i32,
    /// The top-level error code, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    ///
    /// Versions 0+; nullable 0+.
    pub error_message: Option<String>,
    /// The endpoint type that was described. 1=brokers, 2=controllers.
    ///
    /// Versions 1+.
    pub endpoint_type: i8,
    /// The cluster ID that responding broker belongs to.
    ///
    /// Versions 0+.
    pub cluster_id: String,
    /// The ID of the controller. When handled by a controller, returns the current voter leader ID. When handled by a broker, returns a random alive broker ID as a fallback.
    ///
    /// Versions 0+.
    pub controller_id: i32,
    /// Each broker in the response.
    ///
    /// Versions 0+.
    pub brokers: Vec<DescribeClusterBroker>,
    /// 32-bit bitfield to represent authorized operations for this cluster.
    ///
    /// Versions 0+.
    pub cluster_authorized_operations: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeClusterResponse {
    fn default() -> Self {
        DescribeClusterResponse {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: None,
            endpoint_type: 1,
            cluster_id: String::new(),
            controller_id: -1,
            brokers: Vec::<DescribeClusterBroker>::new(),
            cluster_authorized_operations: -2147483648,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeClusterResponse {
    /// The message name.
    pub const NAME: &'static str = "DescribeClusterResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 2;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=2).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DescribeClusterResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.throttle_time_ms));
        w.put_i16(*(&self.error_code));
        match (&self.error_message) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        if version >= 1 { w.put_i8(*(&self.endpoint_type)); }
        if !(version >= 1) { if self.endpoint_type != 1 { return Err(EncodeError::FieldNotInVersion { field: "EndpointType", version }); } }
        write_string(w, (&self.cluster_id), flexible)?;
        w.put_i32(*(&self.controller_id));
        write_len_prefix(w, (&self.brokers).len(), flexible)?; for e0 in (&self.brokers).iter() { e0.encode(w, version)?; }
        w.put_i32(*(&self.cluster_authorized_operations));
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
        n += 2;
        n += match (&self.error_message) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        if version >= 1 { n += 1; }
        n += string_len((&self.cluster_id), flexible);
        n += 4;
        n += len_prefix_len((&self.brokers).len(), flexible) + (&self.brokers).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        if !(0..=2).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DescribeClusterResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        v.error_code = read_i16(buf)?;
        v.error_message = read_nullable_string(buf, flexible)?;
        if version >= 1 { v.endpoint_type = read_i8(buf)?; }
        v.cluster_id = read_string(buf, flexible, "ClusterId")?;
        v.controller_id = read_i32(buf)?;
        v.brokers = { let n = read_array_len_non_null(buf, flexible, "Brokers")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeClusterBroker::decode(buf, version)?); } v };
        v.cluster_authorized_operations = read_i32(buf)?;
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
        v.error_code = g.i16();
        v.error_message = if (true) && g.chance(4) { None } else { Some(g.string()) };
        if version >= 1 { v.endpoint_type = g.i8(); }
        v.cluster_id = g.string();
        v.controller_id = g.i32();
        v.brokers = (0..g.collection_len()).map(|_| DescribeClusterBroker::sample(g, version)).collect();
        v.cluster_authorized_operations = g.i32();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.brokers { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("ErrorMessage", &mut self.error_message);
        for x in &mut self.brokers { x.each_nullable_string(version, f); }
    }
}

/// Each broker in the response.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeClusterBroker {
    /// The broker ID.
    ///
    /// Versions 0+.
    pub broker_id: i32,
    /// The broker hostname.
    ///
    /// Versions 0+.
    pub host: String,
    /// The broker port.
    ///
    /// Versions 0+.
    pub port: i32,
    /// The rack of the broker, or null if it has not been assigned to a rack.
    ///
    /// Versions 0+; nullable 0+.
    pub rack: Option<String>,
    /// Whether the broker is fenced
    ///
    /// Versions 2+.
    pub is_fenced: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeClusterBroker {
    fn default() -> Self {
        DescribeClusterBroker {
            broker_id: 0,
            host: String::new(),
            port: 0,
            rack: None,
            is_fenced: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeClusterBroker {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.broker_id));
        write_string(w, (&self.host), flexible)?;
        w.put_i32(*(&self.port));
        match (&self.rack) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        if version >= 2 { write_bool(w, *(&self.is_fenced)); }
        if !(version >= 2) { if self.is_fenced != false { return Err(EncodeError::FieldNotInVersion { field: "IsFenced", version }); } }
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
        n += string_len((&self.host), flexible);
        n += 4;
        n += match (&self.rack) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        if version >= 2 { n += 1; }
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
        v.broker_id = read_i32(buf)?;
        v.host = read_string(buf, flexible, "Host")?;
        v.port = read_i32(buf)?;
        v.rack = read_nullable_string(buf, flexible)?;
        if version >= 2 { v.is_fenced = read_bool(buf)?; }
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
        v.broker_id = g.i32();
        v.host = g.string();
        v.port = g.i32();
        v.rack = if (true) && g.chance(4) { None } else { Some(g.string()) };
        if version >= 2 { v.is_fenced = g.bool(); }
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
        f("Rack", &mut self.rack);
    }
}
