//! Generated from `GetTelemetrySubscriptionsResponse.json` by fjord-codegen. Do not edit.

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

/// The `GetTelemetrySubscriptionsResponse` response (api key 71, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct GetTelemetrySubscriptionsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 0+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// Assigned client instance id if ClientInstanceId was 0 in the request, else 0.
    ///
    /// Versions 0+.
    pub client_instance_id: Uuid,
    /// Unique identifier for the current subscription set for this client instance.
    ///
    /// Versions 0+.
    pub subscription_id: i32,
    /// Compression types that broker accepts for the PushTelemetryRequest.
    ///
    /// Versions 0+.
    pub accepted_compression_types: Vec<i8>,
    /// Configured push interval, which is the lowest configured interval in the current subscription set.
    ///
    /// Versions 0+.
    pub push_interval_ms: i32,
    /// The maximum bytes of binary data the broker accepts in PushTelemetryRequest.
    ///
    /// Versions 0+.
    pub telemetry_max_bytes: i32,
    /// Flag to indicate monotonic/counter metrics are to be emitted as deltas or cumulative values.
    ///
    /// Versions 0+.
    pub delta_temporality: bool,
    /// Requested metrics prefix string match. Empty array: No metrics subscribed, Array[0] empty string: All metrics subscribed.
    ///
    /// Versions 0+.
    pub requested_metrics: Vec<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for GetTelemetrySubscriptionsResponse {
    fn default() -> Self {
        GetTelemetrySubscriptionsResponse {
            throttle_time_ms: 0,
            error_code: 0,
            client_instance_id: Uuid::nil(),
            subscription_id: 0,
            accepted_compression_types: Vec::<i8>::new(),
            push_interval_ms: 0,
            telemetry_max_bytes: 0,
            delta_temporality: false,
            requested_metrics: Vec::<String>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl GetTelemetrySubscriptionsResponse {
    /// The message name.
    pub const NAME: &'static str = "GetTelemetrySubscriptionsResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "GetTelemetrySubscriptionsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.throttle_time_ms));
        w.put_i16(*(&self.error_code));
        write_uuid(w, (&self.client_instance_id));
        w.put_i32(*(&self.subscription_id));
        write_len_prefix(w, (&self.accepted_compression_types).len(), flexible)?; for e0 in (&self.accepted_compression_types).iter() { w.put_i8(*e0); }
        w.put_i32(*(&self.push_interval_ms));
        w.put_i32(*(&self.telemetry_max_bytes));
        write_bool(w, *(&self.delta_temporality));
        write_len_prefix(w, (&self.requested_metrics).len(), flexible)?; for e0 in (&self.requested_metrics).iter() { write_string(w, e0, flexible)?; }
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
        n += 16;
        n += 4;
        n += len_prefix_len((&self.accepted_compression_types).len(), flexible) + (&self.accepted_compression_types).len() * 1;
        n += 4;
        n += 4;
        n += 1;
        n += len_prefix_len((&self.requested_metrics).len(), flexible) + (&self.requested_metrics).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "GetTelemetrySubscriptionsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        v.error_code = read_i16(buf)?;
        v.client_instance_id = read_uuid(buf)?;
        v.subscription_id = read_i32(buf)?;
        v.accepted_compression_types = { let n = read_array_len_non_null(buf, flexible, "AcceptedCompressionTypes")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i8(buf)?); } v };
        v.push_interval_ms = read_i32(buf)?;
        v.telemetry_max_bytes = read_i32(buf)?;
        v.delta_temporality = read_bool(buf)?;
        v.requested_metrics = { let n = read_array_len_non_null(buf, flexible, "RequestedMetrics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "RequestedMetrics")?); } v };
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
        v.client_instance_id = g.uuid();
        v.subscription_id = g.i32();
        v.accepted_compression_types = (0..g.collection_len()).map(|_| g.i8()).collect();
        v.push_interval_ms = g.i32();
        v.telemetry_max_bytes = g.i32();
        v.delta_temporality = g.bool();
        v.requested_metrics = (0..g.collection_len()).map(|_| g.string()).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
    }
}
