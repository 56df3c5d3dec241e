//! Generated from `PushTelemetryRequest.json` by fjord-codegen. Do not edit.

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

/// The `PushTelemetryRequest` request (api key 72, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct PushTelemetryRequest {
    /// Unique id for this client instance.
    ///
    /// Versions 0+.
    pub client_instance_id: Uuid,
    /// Unique identifier for the current subscription.
    ///
    /// Versions 0+.
    pub subscription_id: i32,
    /// Client is terminating the connection.
    ///
    /// Versions 0+.
    pub terminating: bool,
    /// Compression codec used to compress the metrics.
    ///
    /// Versions 0+.
    pub compression_type: i8,
    /// Metrics encoded in OpenTelemetry MetricsData v1 protobuf format.
    ///
    /// Versions 0+.
    pub metrics: Bytes,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for PushTelemetryRequest {
    fn default() -> Self {
        PushTelemetryRequest {
            client_instance_id: Uuid::nil(),
            subscription_id: 0,
            terminating: false,
            compression_type: 0,
            metrics: Bytes::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PushTelemetryRequest {
    /// The message name.
    pub const NAME: &'static str = "PushTelemetryRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "PushTelemetryRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        write_uuid(w, (&self.client_instance_id));
        w.put_i32(*(&self.subscription_id));
        write_bool(w, *(&self.terminating));
        w.put_i8(*(&self.compression_type));
        write_bytes(w, (&self.metrics), flexible)?;
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
        n += 4;
        n += 1;
        n += 1;
        n += bytes_len((&self.metrics), flexible);
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "PushTelemetryRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.client_instance_id = read_uuid(buf)?;
        v.subscription_id = read_i32(buf)?;
        v.terminating = read_bool(buf)?;
        v.compression_type = read_i8(buf)?;
        v.metrics = read_bytes(buf, flexible, "Metrics")?;
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
        v.client_instance_id = g.uuid();
        v.subscription_id = g.i32();
        v.terminating = g.bool();
        v.compression_type = g.i8();
        v.metrics = g.bytes();
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
