//! Generated from `ConsumerProtocolAssignment.json` by fjord-codegen. Do not edit.

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

/// The `ConsumerProtocolAssignment` data (versions 0-3).
#[derive(Debug, Clone, PartialEq)]
pub struct ConsumerProtocolAssignment {
    /// The list of topics and partitions assigned to this consumer.
    ///
    /// Versions 0+.
    pub assigned_partitions: Vec<TopicPartition>,
    /// User data.
    ///
    /// Versions 0+; nullable 0+.
    pub user_data: Option<Bytes>,
}

impl Default for ConsumerProtocolAssignment {
    fn default() -> Self {
        ConsumerProtocolAssignment {
            assigned_partitions: Vec::<TopicPartition>::new(),
            user_data: None,
        }
    }
}

impl ConsumerProtocolAssignment {
    /// The message name.
    pub const NAME: &'static str = "ConsumerProtocolAssignment";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 3;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = None;

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=3).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ConsumerProtocolAssignment", version }); }
        #[allow(unused_variables)]
        let flexible = false;
        write_len_prefix(w, (&self.assigned_partitions).len(), flexible)?; for e0 in (&self.assigned_partitions).iter() { e0.encode(w, version)?; }
        match (&self.user_data) { Some(x) => { write_bytes(w, x, flexible)?; } None => { write_null(w, flexible); } }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += len_prefix_len((&self.assigned_partitions).len(), flexible) + (&self.assigned_partitions).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += match (&self.user_data) { Some(x) => bytes_len(x, flexible), None => null_len(flexible) };
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=3).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ConsumerProtocolAssignment", version }); }
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.assigned_partitions = { let n = read_array_len_non_null(buf, flexible, "AssignedPartitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicPartition::decode(buf, version)?); } v };
        v.user_data = read_nullable_bytes(buf, flexible)?;
        Ok(v)
    }

    /// A random value that is valid at `version` (for tests and fuzzing).
    #[cfg(feature = "sample")]
    pub fn sample(g: &mut crate::sample::SampleRng, version: i16) -> Self {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.assigned_partitions = (0..g.collection_len()).map(|_| TopicPartition::sample(g, version)).collect();
        v.user_data = if (true) && g.chance(4) { None } else { Some(g.bytes()) };
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.assigned_partitions { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.assigned_partitions { x.each_nullable_string(version, f); }
    }
}

/// The list of topics and partitions assigned to this consumer.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicPartition {
    /// The topic name.
    ///
    /// Versions 0+.
    pub topic: String,
    /// The list of partitions assigned to this consumer.
    ///
    /// Versions 0+.
    pub partitions: Vec<i32>,
}

impl Default for TopicPartition {
    fn default() -> Self {
        TopicPartition {
            topic: String::new(),
            partitions: Vec::<i32>::new(),
        }
    }
}

impl TopicPartition {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = false;
        write_string(w, (&self.topic), flexible)?;
        write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { w.put_i32(*e0); }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += string_len((&self.topic), flexible);
        n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).len() * 4;
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.topic = read_string(buf, flexible, "Topic")?;
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
        Ok(v)
    }

    /// A random value that is valid at `version` (for tests and fuzzing).
    #[cfg(feature = "sample")]
    pub fn sample(g: &mut crate::sample::SampleRng, version: i16) -> Self {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.topic = g.string();
        v.partitions = (0..g.collection_len()).map(|_| g.i32()).collect();
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
