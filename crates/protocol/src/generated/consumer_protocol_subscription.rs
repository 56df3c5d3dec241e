//! Generated from `ConsumerProtocolSubscription.json` by fjord-codegen. Do not edit.

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

/// The `ConsumerProtocolSubscription` data (versions 0-3).
#[derive(Debug, Clone, PartialEq)]
pub struct ConsumerProtocolSubscription {
    /// The topics that the member wants to consume.
    ///
    /// Versions 0+.
    pub topics: Vec<String>,
    /// User data that will be passed back to the consumer.
    ///
    /// Versions 0+; nullable 0+.
    pub user_data: Option<Bytes>,
    /// The partitions that the member owns.
    ///
    /// Versions 1+.
    pub owned_partitions: Vec<TopicPartition>,
    /// The generation id of the member.
    ///
    /// Versions 2+.
    pub generation_id: i32,
    /// The rack id of the member.
    ///
    /// Versions 3+; nullable 3+.
    pub rack_id: Option<String>,
}

impl Default for ConsumerProtocolSubscription {
    fn default() -> Self {
        ConsumerProtocolSubscription {
            topics: Vec::<String>::new(),
            user_data: None,
            owned_partitions: Vec::<TopicPartition>::new(),
            generation_id: -1,
            rack_id: None,
        }
    }
}

impl ConsumerProtocolSubscription {
    /// The message name.
    pub const NAME: &'static str = "ConsumerProtocolSubscription";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 3;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = None;

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=3).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ConsumerProtocolSubscription", version }); }
        #[allow(unused_variables)]
        let flexible = false;
        write_len_prefix(w, (&self.topics).len(), flexible)?; for e0 in (&self.topics).iter() { write_string(w, e0, flexible)?; }
        match (&self.user_data) { Some(x) => { write_bytes(w, x, flexible)?; } None => { write_null(w, flexible); } }
        if version >= 1 { write_len_prefix(w, (&self.owned_partitions).len(), flexible)?; for e0 in (&self.owned_partitions).iter() { e0.encode(w, version)?; } }
        if version >= 2 { w.put_i32(*(&self.generation_id)); }
        if version >= 3 { match (&self.rack_id) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 3) { return Err(EncodeError::NullNotAllowed { field: "RackId", version }); } write_nullable_string(w, None, flexible)?; } } }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += len_prefix_len((&self.topics).len(), flexible) + (&self.topics).iter().map(|e0| string_len(e0, flexible)).sum::<usize>();
        n += match (&self.user_data) { Some(x) => bytes_len(x, flexible), None => null_len(flexible) };
        if version >= 1 { n += len_prefix_len((&self.owned_partitions).len(), flexible) + (&self.owned_partitions).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); }
        if version >= 2 { n += 4; }
        if version >= 3 { n += match (&self.rack_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=3).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ConsumerProtocolSubscription", version }); }
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.topics = { let n = read_array_len_non_null(buf, flexible, "Topics")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_string(buf, flexible, "Topics")?); } v };
        v.user_data = read_nullable_bytes(buf, flexible)?;
        if version >= 1 { v.owned_partitions = { let n = read_array_len_non_null(buf, flexible, "OwnedPartitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicPartition::decode(buf, version)?); } v }; }
        if version >= 2 { v.generation_id = read_i32(buf)?; }
        if version >= 3 { v.rack_id = if version >= 3 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "RackId")?) }; }
        Ok(v)
    }

    /// A random value that is valid at `version` (for tests and fuzzing).
    #[cfg(feature = "sample")]
    pub fn sample(g: &mut crate::sample::SampleRng, version: i16) -> Self {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.topics = (0..g.collection_len()).map(|_| g.string()).collect();
        v.user_data = if (true) && g.chance(4) { None } else { Some(g.bytes()) };
        if version >= 1 { v.owned_partitions = (0..g.collection_len()).map(|_| TopicPartition::sample(g, version)).collect(); }
        if version >= 2 { v.generation_id = g.i32(); }
        if version >= 3 { v.rack_id = if (version >= 3) && g.chance(4) { None } else { Some(g.string()) }; }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.owned_partitions { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if version >= 1 { for x in &mut self.owned_partitions { x.each_nullable_string(version, f); } }
        if version >= 3 { f("RackId", &mut self.rack_id); }
    }
}

/// The partitions that the member owns.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicPartition {
    /// The topic name.
    ///
    /// Versions 1+.
    pub topic: String,
    /// The partition ids.
    ///
    /// Versions 1+.
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
        if version >= 1 { write_string(w, (&self.topic), flexible)?; }
        if !(version >= 1) { if self.topic != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Topic", version }); } }
        if version >= 1 { write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { w.put_i32(*e0); } }
        if !(version >= 1) { if self.partitions != Vec::<i32>::new() { return Err(EncodeError::FieldNotInVersion { field: "Partitions", version }); } }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 1 { n += string_len((&self.topic), flexible); }
        if version >= 1 { n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).len() * 4; }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 1 { v.topic = read_string(buf, flexible, "Topic")?; }
        if version >= 1 { v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v }; }
        Ok(v)
    }

    /// A random value that is valid at `version` (for tests and fuzzing).
    #[cfg(feature = "sample")]
    pub fn sample(g: &mut crate::sample::SampleRng, version: i16) -> Self {
        #[allow(unused_variables)]
        let flexible = false;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 1 { v.topic = g.string(); }
        if version >= 1 { v.partitions = (0..g.collection_len()).map(|_| g.i32()).collect(); }
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
