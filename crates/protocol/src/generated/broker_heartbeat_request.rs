//! Generated from `BrokerHeartbeatRequest.json` by fjord-codegen. Do not edit.

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

/// The `BrokerHeartbeatRequest` request (api key 63, versions 0-1).
#[derive(Debug, Clone, PartialEq)]
pub struct BrokerHeartbeatRequest {
    /// The broker ID.
    ///
    /// Versions 0+.
    pub broker_id: i32,
    /// The broker epoch.
    ///
    /// Versions 0+.
    pub broker_epoch: i64,
    /// The highest metadata offset which the broker has reached.
    ///
    /// Versions 0+.
    pub current_metadata_offset: i64,
    /// True if the broker wants to be fenced, false otherwise.
    ///
    /// Versions 0+.
    pub want_fence: bool,
    /// True if the broker wants to be shut down, false otherwise.
    ///
    /// Versions 0+.
    pub want_shut_down: bool,
    /// Log directories that failed and went offline.
    ///
    /// Versions 1+; tag 0 in 1+.
    pub offline_log_dirs: Vec<Uuid>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for BrokerHeartbeatRequest {
    fn default() -> Self {
        BrokerHeartbeatRequest {
            broker_id: 0,
            broker_epoch: -1,
            current_metadata_offset: 0,
            want_fence: false,
            want_shut_down: false,
            offline_log_dirs: Vec::<Uuid>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl BrokerHeartbeatRequest {
    /// The message name.
    pub const NAME: &'static str = "BrokerHeartbeatRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 1;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=1).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "BrokerHeartbeatRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.broker_id));
        w.put_i64(*(&self.broker_epoch));
        w.put_i64(*(&self.current_metadata_offset));
        write_bool(w, *(&self.want_fence));
        write_bool(w, *(&self.want_shut_down));
        if !((false) || (version >= 1)) { if self.offline_log_dirs != Vec::<Uuid>::new() { return Err(EncodeError::FieldNotInVersion { field: "OfflineLogDirs", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 1 && self.offline_log_dirs != Vec::<Uuid>::new() { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 1 && self.offline_log_dirs != Vec::<Uuid>::new() { write_uvarint(w, 0); write_uvarint(w, (len_prefix_len((&self.offline_log_dirs).len(), true) + (&self.offline_log_dirs).len() * 16) as u32); write_len_prefix(w, (&self.offline_log_dirs).len(), true)?; for e0 in (&self.offline_log_dirs).iter() { write_uuid(w, e0); } }
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
        n += 8;
        n += 8;
        n += 1;
        n += 1;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 1 && self.offline_log_dirs != Vec::<Uuid>::new() { count += 1; let s = len_prefix_len((&self.offline_log_dirs).len(), true) + (&self.offline_log_dirs).len() * 16; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=1).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "BrokerHeartbeatRequest", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.broker_id = read_i32(buf)?;
        v.broker_epoch = read_i64(buf)?;
        v.current_metadata_offset = read_i64(buf)?;
        v.want_fence = read_bool(buf)?;
        v.want_shut_down = read_bool(buf)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 if version >= 1 => { let buf = &mut field; v.offline_log_dirs = { let n = read_array_len_non_null(buf, true, "OfflineLogDirs")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_uuid(buf)?); } v }; finish_tagged_field(buf, 0)?; }
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
        v.broker_epoch = g.i64();
        v.current_metadata_offset = g.i64();
        v.want_fence = g.bool();
        v.want_shut_down = g.bool();
        if (version >= 1) && g.bool() { v.offline_log_dirs = (0..g.collection_len()).map(|_| g.uuid()).collect(); }
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
