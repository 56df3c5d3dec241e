//! Generated from `DescribeLogDirsResponse.json` by fjord-codegen. Do not edit.

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

/// The `DescribeLogDirsResponse` response (api key 35, versions 1-5).
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeLogDirsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 0+.
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    ///
    /// Versions 3+.
    pub error_code: i16,
    /// The log directories.
    ///
    /// Versions 0+.
    pub results: Vec<DescribeLogDirsResult>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeLogDirsResponse {
    fn default() -> Self {
        DescribeLogDirsResponse {
            throttle_time_ms: 0,
            error_code: 0,
            results: Vec::<DescribeLogDirsResult>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeLogDirsResponse {
    /// The message name.
    pub const NAME: &'static str = "DescribeLogDirsResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 1;
    /// The highest version.
    pub const MAX_VERSION: i16 = 5;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(2);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(1..=5).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "DescribeLogDirsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        w.put_i32(*(&self.throttle_time_ms));
        if version >= 3 { w.put_i16(*(&self.error_code)); }
        write_len_prefix(w, (&self.results).len(), flexible)?; for e0 in (&self.results).iter() { e0.encode(w, version)?; }
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
        if version >= 3 { n += 2; }
        n += len_prefix_len((&self.results).len(), flexible) + (&self.results).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(1..=5).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "DescribeLogDirsResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        if version >= 3 { v.error_code = read_i16(buf)?; }
        v.results = { let n = read_array_len_non_null(buf, flexible, "Results")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeLogDirsResult::decode(buf, version)?); } v };
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = g.i32();
        if version >= 3 { v.error_code = g.i16(); }
        v.results = (0..g.collection_len()).map(|_| DescribeLogDirsResult::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.results { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.results { x.each_nullable_string(version, f); }
    }
}

/// The log directories.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeLogDirsResult {
    /// The error code, or 0 if there was no error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The absolute log directory path.
    ///
    /// Versions 0+.
    pub log_dir: String,
    /// The topics.
    ///
    /// Versions 0+.
    pub topics: Vec<DescribeLogDirsTopic>,
    /// The total size in bytes of the volume the log directory is in. This value does not include the size of data stored in remote storage.
    ///
    /// Versions 4+.
    pub total_bytes: i64,
    /// The usable size in bytes of the volume the log directory is in. This value does not include the size of data stored in remote storage.
    ///
    /// Versions 4+.
    pub usable_bytes: i64,
    /// True if this log directory is cordoned.
    ///
    /// Versions 5+.
    pub is_cordoned: bool,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeLogDirsResult {
    fn default() -> Self {
        DescribeLogDirsResult {
            error_code: 0,
            log_dir: String::new(),
            topics: Vec::<DescribeLogDirsTopic>::new(),
            total_bytes: -1,
            usable_bytes: -1,
            is_cordoned: false,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeLogDirsResult {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 2;
        w.put_i16(*(&self.error_code));
        write_string(w, (&self.log_dir), flexible)?;
        write_len_prefix(w, (&self.topics).len(), flexible)?; for e0 in (&self.topics).iter() { e0.encode(w, version)?; }
        if version >= 4 { w.put_i64(*(&self.total_bytes)); }
        if version >= 4 { w.put_i64(*(&self.usable_bytes)); }
        if version >= 5 { write_bool(w, *(&self.is_cordoned)); }
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 2;
        n += string_len((&self.log_dir), flexible);
        n += len_prefix_len((&self.topics).len(), flexible) + (&self.topics).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if version >= 4 { n += 8; }
        if version >= 4 { n += 8; }
        if version >= 5 { n += 1; }
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = read_i16(buf)?;
        v.log_dir = read_string(buf, flexible, "LogDir")?;
        v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeLogDirsTopic::decode(buf, version)?); } v };
        if version >= 4 { v.total_bytes = read_i64(buf)?; }
        if version >= 4 { v.usable_bytes = read_i64(buf)?; }
        if version >= 5 { v.is_cordoned = read_bool(buf)?; }
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.error_code = g.i16();
        v.log_dir = g.string();
        v.topics = (0..g.collection_len()).map(|_| DescribeLogDirsTopic::sample(g, version)).collect();
        if version >= 4 { v.total_bytes = g.i64(); }
        if version >= 4 { v.usable_bytes = g.i64(); }
        if version >= 5 { v.is_cordoned = g.bool(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.topics { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.topics { x.each_nullable_string(version, f); }
    }
}

/// The topics.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeLogDirsTopic {
    /// The topic name.
    ///
    /// Versions 0+.
    pub name: String,
    /// The partitions.
    ///
    /// Versions 0+.
    pub partitions: Vec<DescribeLogDirsPartition>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeLogDirsTopic {
    fn default() -> Self {
        DescribeLogDirsTopic {
            name: String::new(),
            partitions: Vec::<DescribeLogDirsPartition>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeLogDirsTopic {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 2;
        write_string(w, (&self.name), flexible)?;
        write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { e0.encode(w, version)?; }
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.name), flexible);
        n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = read_string(buf, flexible, "Name")?;
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(DescribeLogDirsPartition::decode(buf, version)?); } v };
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.name = g.string();
        v.partitions = (0..g.collection_len()).map(|_| DescribeLogDirsPartition::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.partitions { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.partitions { x.each_nullable_string(version, f); }
    }
}

/// The partitions.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeLogDirsPartition {
    /// The partition index.
    ///
    /// Versions 0+.
    pub partition_index: i32,
    /// The size of the log segments in this partition in bytes.
    ///
    /// Versions 0+.
    pub partition_size: i64,
    /// The lag of the log's LEO w.r.t. partition's HW (if it is the current log for the partition) or current replica's LEO (if it is the future log for the partition).
    ///
    /// Versions 0+.
    pub offset_lag: i64,
    /// True if this log is created by AlterReplicaLogDirsRequest and will replace the current log of the replica in the future.
    ///
    /// Versions 0+.
    pub is_future_key: bool,
    /// The bytes of the partition's segments in tiered storage (the same on every replica), or -1 when the topic is not tiered.
    ///
    /// Versions 2+; tag 9000 in 2+.
    pub remote_size: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for DescribeLogDirsPartition {
    fn default() -> Self {
        DescribeLogDirsPartition {
            partition_index: 0,
            partition_size: 0,
            offset_lag: 0,
            is_future_key: false,
            remote_size: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl DescribeLogDirsPartition {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 2;
        w.put_i32(*(&self.partition_index));
        w.put_i64(*(&self.partition_size));
        w.put_i64(*(&self.offset_lag));
        write_bool(w, *(&self.is_future_key));
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 2 && self.remote_size != -1 { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 9000 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 2 && self.remote_size != -1 { write_uvarint(w, 9000); write_uvarint(w, (8) as u32); w.put_i64(*(&self.remote_size)); }
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
        n += 8;
        n += 8;
        n += 1;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 2 && self.remote_size != -1 { count += 1; let s = 8; n += uvarint_len(9000) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.partition_index = read_i32(buf)?;
        v.partition_size = read_i64(buf)?;
        v.offset_lag = read_i64(buf)?;
        v.is_future_key = read_bool(buf)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    9000 if version >= 2 => { let buf = &mut field; v.remote_size = read_i64(buf)?; finish_tagged_field(buf, 9000)?; }
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
        let flexible = version >= 2;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.partition_index = g.i32();
        v.partition_size = g.i64();
        v.offset_lag = g.i64();
        v.is_future_key = g.bool();
        if (version >= 2) && g.bool() { v.remote_size = g.i64(); }
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
