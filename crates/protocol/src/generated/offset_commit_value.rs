//! Generated from `OffsetCommitValue.json` by fjord-codegen. Do not edit.

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

/// The `OffsetCommitValue` coordinator-value (type 1, versions 0-4).
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetCommitValue {
    /// The offset that the consumer wants to store (for this partition).
    ///
    /// Versions 0+.
    pub offset: i64,
    /// The leader epoch of the last consumed record.
    ///
    /// Versions 3+.
    pub leader_epoch: i32,
    /// Any metadata the client wants to keep.
    ///
    /// Versions 0+.
    pub metadata: String,
    /// The time at which the commit was added to the log.
    ///
    /// Versions 0+.
    pub commit_timestamp: i64,
    /// The time at which the offset will expire.
    ///
    /// Versions 1.
    pub expire_timestamp: i64,
    /// The topic id of the committed offset.
    ///
    /// Versions 4+; tag 0 in 4+.
    pub topic_id: Uuid,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for OffsetCommitValue {
    fn default() -> Self {
        OffsetCommitValue {
            offset: 0,
            leader_epoch: -1,
            metadata: String::new(),
            commit_timestamp: 0,
            expire_timestamp: -1,
            topic_id: Uuid::nil(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl OffsetCommitValue {
    /// The message name.
    pub const NAME: &'static str = "OffsetCommitValue";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 4;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(4);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=4).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "OffsetCommitValue", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        w.put_i64(*(&self.offset));
        if version >= 3 { w.put_i32(*(&self.leader_epoch)); }
        write_string(w, (&self.metadata), flexible)?;
        w.put_i64(*(&self.commit_timestamp));
        if version == 1 { w.put_i64(*(&self.expire_timestamp)); }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 4 && self.topic_id != Uuid::nil() { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 4 && self.topic_id != Uuid::nil() { write_uvarint(w, 0); write_uvarint(w, (16) as u32); write_uuid(w, (&self.topic_id)); }
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 8;
        if version >= 3 { n += 4; }
        n += string_len((&self.metadata), flexible);
        n += 8;
        if version == 1 { n += 8; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 4 && self.topic_id != Uuid::nil() { count += 1; let s = 16; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=4).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "OffsetCommitValue", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.offset = read_i64(buf)?;
        if version >= 3 { v.leader_epoch = read_i32(buf)?; }
        v.metadata = read_string(buf, flexible, "metadata")?;
        v.commit_timestamp = read_i64(buf)?;
        if version == 1 { v.expire_timestamp = read_i64(buf)?; }
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 if version >= 4 => { let buf = &mut field; v.topic_id = read_uuid(buf)?; finish_tagged_field(buf, 0)?; }
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
        let flexible = version >= 4;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.offset = g.i64();
        if version >= 3 { v.leader_epoch = g.i32(); }
        v.metadata = g.string();
        v.commit_timestamp = g.i64();
        if version == 1 { v.expire_timestamp = g.i64(); }
        if (version >= 4) && g.bool() { v.topic_id = g.uuid(); }
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
