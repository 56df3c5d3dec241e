//! Generated from `BrokerRegistrationChangeRecord.json` by fjord-codegen. Do not edit.

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

/// The `BrokerRegistrationChangeRecord` metadata (type 17, versions 0-2).
#[derive(Debug, Clone, PartialEq)]
pub struct BrokerRegistrationChangeRecord {
    /// The broker id.
    ///
    /// Versions 0+.
    pub broker_id: i32,
    /// The broker epoch assigned by the controller.
    ///
    /// Versions 0+.
    pub broker_epoch: i64,
    /// -1 if the broker has been unfenced, 0 if no change, 1 if the broker has been fenced.
    ///
    /// Versions 0+; tag 0 in 0+.
    pub fenced: i8,
    /// 0 if no change, 1 if the broker is in controlled shutdown.
    ///
    /// Versions 1+; tag 1 in 1+.
    pub in_controlled_shutdown: i8,
    /// Log directories configured in this broker which are available.
    ///
    /// Versions 2+; tag 2 in 2+.
    pub log_dirs: Vec<Uuid>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for BrokerRegistrationChangeRecord {
    fn default() -> Self {
        BrokerRegistrationChangeRecord {
            broker_id: 0,
            broker_epoch: 0,
            fenced: 0,
            in_controlled_shutdown: 0,
            log_dirs: Vec::<Uuid>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl BrokerRegistrationChangeRecord {
    /// The message name.
    pub const NAME: &'static str = "BrokerRegistrationChangeRecord";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 2;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=2).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "BrokerRegistrationChangeRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.broker_id));
        w.put_i64(*(&self.broker_epoch));
        if !((false) || (true)) { if self.fenced != 0 { return Err(EncodeError::FieldNotInVersion { field: "Fenced", version }); } }
        if !((false) || (version >= 1)) { if self.in_controlled_shutdown != 0 { return Err(EncodeError::FieldNotInVersion { field: "InControlledShutdown", version }); } }
        if !((false) || (version >= 2)) { if self.log_dirs != Vec::<Uuid>::new() { return Err(EncodeError::FieldNotInVersion { field: "LogDirs", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if true && self.fenced != 0 { count += 1; }
            if version >= 1 && self.in_controlled_shutdown != 0 { count += 1; }
            if version >= 2 && self.log_dirs != Vec::<Uuid>::new() { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.fenced != 0 { write_uvarint(w, 0); write_uvarint(w, (1) as u32); w.put_i8(*(&self.fenced)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 1 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 1 && self.in_controlled_shutdown != 0 { write_uvarint(w, 1); write_uvarint(w, (1) as u32); w.put_i8(*(&self.in_controlled_shutdown)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 2 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 2 && self.log_dirs != Vec::<Uuid>::new() { write_uvarint(w, 2); write_uvarint(w, (len_prefix_len((&self.log_dirs).len(), true) + (&self.log_dirs).len() * 16) as u32); write_len_prefix(w, (&self.log_dirs).len(), true)?; for e0 in (&self.log_dirs).iter() { write_uuid(w, e0); } }
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
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if true && self.fenced != 0 { count += 1; let s = 1; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            if version >= 1 && self.in_controlled_shutdown != 0 { count += 1; let s = 1; n += uvarint_len(1) + uvarint_len(s as u32) + s; }
            if version >= 2 && self.log_dirs != Vec::<Uuid>::new() { count += 1; let s = len_prefix_len((&self.log_dirs).len(), true) + (&self.log_dirs).len() * 16; n += uvarint_len(2) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=2).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "BrokerRegistrationChangeRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.broker_id = read_i32(buf)?;
        v.broker_epoch = read_i64(buf)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 => { let buf = &mut field; v.fenced = read_i8(buf)?; finish_tagged_field(buf, 0)?; }
                    1 if version >= 1 => { let buf = &mut field; v.in_controlled_shutdown = read_i8(buf)?; finish_tagged_field(buf, 1)?; }
                    2 if version >= 2 => { let buf = &mut field; v.log_dirs = { let n = read_array_len_non_null(buf, true, "LogDirs")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_uuid(buf)?); } v }; finish_tagged_field(buf, 2)?; }
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
        if (true) && g.bool() { v.fenced = g.i8(); }
        if (version >= 1) && g.bool() { v.in_controlled_shutdown = g.i8(); }
        if (version >= 2) && g.bool() { v.log_dirs = (0..g.collection_len()).map(|_| g.uuid()).collect(); }
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
