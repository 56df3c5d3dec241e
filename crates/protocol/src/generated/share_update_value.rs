//! Generated from `ShareUpdateValue.json` by fjord-codegen. Do not edit.

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

/// The `ShareUpdateValue` coordinator-value (type 1, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct ShareUpdateValue {
    /// The snapshot epoch.
    ///
    /// Versions 0+.
    pub snapshot_epoch: i32,
    /// The leader epoch of the share-partition.
    ///
    /// Versions 0+.
    pub leader_epoch: i32,
    /// The share-partition start offset, or -1 if the start offset is not being updated.
    ///
    /// Versions 0+.
    pub start_offset: i64,
    /// The number of offsets greater than or equal to share-partition start offset for which delivery has been completed.
    ///
    /// Versions 0+; tag 0 in 0+.
    pub delivery_complete_count: i32,
    /// The state batches that have been updated.
    ///
    /// Versions 0+.
    pub state_batches: Vec<StateBatch>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ShareUpdateValue {
    fn default() -> Self {
        ShareUpdateValue {
            snapshot_epoch: 0,
            leader_epoch: 0,
            start_offset: 0,
            delivery_complete_count: -1,
            state_batches: Vec::<StateBatch>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ShareUpdateValue {
    /// The message name.
    pub const NAME: &'static str = "ShareUpdateValue";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ShareUpdateValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.snapshot_epoch));
        w.put_i32(*(&self.leader_epoch));
        w.put_i64(*(&self.start_offset));
        if !((false) || (true)) { if self.delivery_complete_count != -1 { return Err(EncodeError::FieldNotInVersion { field: "DeliveryCompleteCount", version }); } }
        write_len_prefix(w, (&self.state_batches).len(), flexible)?; for e0 in (&self.state_batches).iter() { e0.encode(w, version)?; }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if true && self.delivery_complete_count != -1 { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.delivery_complete_count != -1 { write_uvarint(w, 0); write_uvarint(w, (4) as u32); w.put_i32(*(&self.delivery_complete_count)); }
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
        n += 4;
        n += 8;
        n += len_prefix_len((&self.state_batches).len(), flexible) + (&self.state_batches).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if true && self.delivery_complete_count != -1 { count += 1; let s = 4; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ShareUpdateValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.snapshot_epoch = read_i32(buf)?;
        v.leader_epoch = read_i32(buf)?;
        v.start_offset = read_i64(buf)?;
        v.state_batches = { let n = read_array_len_non_null(buf, flexible, "StateBatches")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(StateBatch::decode(buf, version)?); } v };
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 => { let buf = &mut field; v.delivery_complete_count = read_i32(buf)?; finish_tagged_field(buf, 0)?; }
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
        v.snapshot_epoch = g.i32();
        v.leader_epoch = g.i32();
        v.start_offset = g.i64();
        if (true) && g.bool() { v.delivery_complete_count = g.i32(); }
        v.state_batches = (0..g.collection_len()).map(|_| StateBatch::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.state_batches { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.state_batches { x.each_nullable_string(version, f); }
    }
}

/// The state batches that have been updated.
#[derive(Debug, Clone, PartialEq)]
pub struct StateBatch {
    /// The first offset of this state batch.
    ///
    /// Versions 0+.
    pub first_offset: i64,
    /// The last offset of this state batch.
    ///
    /// Versions 0+.
    pub last_offset: i64,
    /// The delivery state - 0:Available,2:Acked,4:Archived.
    ///
    /// Versions 0+.
    pub delivery_state: i8,
    /// The delivery count.
    ///
    /// Versions 0+.
    pub delivery_count: i16,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for StateBatch {
    fn default() -> Self {
        StateBatch {
            first_offset: 0,
            last_offset: 0,
            delivery_state: 0,
            delivery_count: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl StateBatch {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i64(*(&self.first_offset));
        w.put_i64(*(&self.last_offset));
        w.put_i8(*(&self.delivery_state));
        w.put_i16(*(&self.delivery_count));
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
        n += 8;
        n += 8;
        n += 1;
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
        v.first_offset = read_i64(buf)?;
        v.last_offset = read_i64(buf)?;
        v.delivery_state = read_i8(buf)?;
        v.delivery_count = read_i16(buf)?;
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
        v.first_offset = g.i64();
        v.last_offset = g.i64();
        v.delivery_state = g.i8();
        v.delivery_count = g.i16();
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
