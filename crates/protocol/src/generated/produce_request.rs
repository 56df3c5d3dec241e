//! Generated from `ProduceRequest.json` by fjord-codegen. Do not edit.

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

/// The `ProduceRequest` request (api key 0, versions 3-13).
#[derive(Debug, Clone, PartialEq)]
pub struct ProduceRequest {
    /// The transactional ID, or null if the producer is not transactional.
    ///
    /// Versions 3+; nullable 3+.
    pub transactional_id: Option<String>,
    /// The number of acknowledgments the producer requires the leader to have received before considering a request complete. Allowed values: 0 for no acknowledgments, 1 for only the leader and -1 for the full ISR.
    ///
    /// Versions 0+.
    pub acks: i16,
    /// The timeout to await a response in milliseconds.
    ///
    /// Versions 0+.
    pub timeout_ms: i32,
    /// Each topic to produce to.
    ///
    /// Versions 0+.
    pub topic_data: Vec<TopicProduceData>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for ProduceRequest {
    fn default() -> Self {
        ProduceRequest {
            transactional_id: None,
            acks: 0,
            timeout_ms: 0,
            topic_data: Vec::<TopicProduceData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl ProduceRequest {
    /// The message name.
    pub const NAME: &'static str = "ProduceRequest";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 3;
    /// The highest version.
    pub const MAX_VERSION: i16 = 13;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(9);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(3..=13).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "ProduceRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 9;
        match (&self.transactional_id) { Some(x) => { write_string(w, x, flexible)?; } None => { write_nullable_string(w, None, flexible)?; } }
        w.put_i16(*(&self.acks));
        w.put_i32(*(&self.timeout_ms));
        write_len_prefix(w, (&self.topic_data).len(), flexible)?; for e0 in (&self.topic_data).iter() { e0.encode(w, version)?; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += match (&self.transactional_id) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) };
        n += 2;
        n += 4;
        n += len_prefix_len((&self.topic_data).len(), flexible) + (&self.topic_data).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(3..=13).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "ProduceRequest", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.transactional_id = read_nullable_string(buf, flexible)?;
        v.acks = read_i16(buf)?;
        v.timeout_ms = read_i32(buf)?;
        v.topic_data = { let n = read_array_len_non_null(buf, flexible, "TopicData")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TopicProduceData::decode(buf, version)?); } v };
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.transactional_id = if (true) && g.chance(4) { None } else { Some(g.string()) };
        v.acks = g.i16();
        v.timeout_ms = g.i32();
        v.topic_data = (0..g.collection_len()).map(|_| TopicProduceData::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.topic_data { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        f("TransactionalId", &mut self.transactional_id);
        for x in &mut self.topic_data { x.each_nullable_string(version, f); }
    }
}

/// Each topic to produce to.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicProduceData {
    /// The topic name.
    ///
    /// Versions 0-12.
    pub name: String,
    /// The unique topic ID
    ///
    /// Versions 13+.
    pub topic_id: Uuid,
    /// Each partition to produce to.
    ///
    /// Versions 0+.
    pub partition_data: Vec<PartitionProduceData>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopicProduceData {
    fn default() -> Self {
        TopicProduceData {
            name: String::new(),
            topic_id: Uuid::nil(),
            partition_data: Vec::<PartitionProduceData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicProduceData {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 9;
        if version <= 12 { write_string(w, (&self.name), flexible)?; }
        if version >= 13 { write_uuid(w, (&self.topic_id)); }
        write_len_prefix(w, (&self.partition_data).len(), flexible)?; for e0 in (&self.partition_data).iter() { e0.encode(w, version)?; }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version <= 12 { n += string_len((&self.name), flexible); }
        if version >= 13 { n += 16; }
        n += len_prefix_len((&self.partition_data).len(), flexible) + (&self.partition_data).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 12 { v.name = read_string(buf, flexible, "Name")?; }
        if version >= 13 { v.topic_id = read_uuid(buf)?; }
        v.partition_data = { let n = read_array_len_non_null(buf, flexible, "PartitionData")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(PartitionProduceData::decode(buf, version)?); } v };
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 12 { v.name = g.string(); }
        if version >= 13 { v.topic_id = g.uuid(); }
        v.partition_data = (0..g.collection_len()).map(|_| PartitionProduceData::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.partition_data { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.partition_data { x.each_nullable_string(version, f); }
    }
}

/// Each partition to produce to.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionProduceData {
    /// The partition index.
    ///
    /// Versions 0+.
    pub index: i32,
    /// The record data to be produced.
    ///
    /// Versions 0+; nullable 0+.
    pub records: Option<Records>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for PartitionProduceData {
    fn default() -> Self {
        PartitionProduceData {
            index: 0,
            records: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionProduceData {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 9;
        w.put_i32(*(&self.index));
        match (&self.records) { Some(x) => { write_records(w, x, flexible)?; } None => { write_null(w, flexible); } }
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
        n += match (&self.records) { Some(x) => records_len(x, flexible), None => null_len(flexible) };
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.index = read_i32(buf)?;
        v.records = read_nullable_bytes(buf, flexible)?.map(Records::from);
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
        let flexible = version >= 9;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.index = g.i32();
        v.records = if (true) && g.chance(4) { None } else { Some(Records::from(g.bytes())) };
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
