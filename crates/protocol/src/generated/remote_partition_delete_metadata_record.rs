//! Generated from `RemotePartitionDeleteMetadataRecord.json` by fjord-codegen. Do not edit.

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

/// The `RemotePartitionDeleteMetadataRecord` remote-log-metadata (type 2, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct RemotePartitionDeleteMetadataRecord {
    /// Represents unique topic partition.
    ///
    /// Versions 0+.
    pub topic_id_partition: TopicIdPartitionEntry,
    /// Broker (controller or leader) id from which this event is created. DELETE_PARTITION_MARKED is sent by the controller. DELETE_PARTITION_STARTED and DELETE_PARTITION_FINISHED are sent by remote log metadata topic partition leader.
    ///
    /// Versions 0+.
    pub broker_id: i32,
    /// Epoch time in milliseconds at which this event is generated.
    ///
    /// Versions 0+.
    pub event_timestamp_ms: i64,
    /// Deletion state identifier of the remote partition, which is RemotePartitionDeleteState.id().
    ///
    /// Versions 0+.
    pub remote_partition_delete_state: i8,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for RemotePartitionDeleteMetadataRecord {
    fn default() -> Self {
        RemotePartitionDeleteMetadataRecord {
            topic_id_partition: TopicIdPartitionEntry::default(),
            broker_id: 0,
            event_timestamp_ms: 0,
            remote_partition_delete_state: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl RemotePartitionDeleteMetadataRecord {
    /// The message name.
    pub const NAME: &'static str = "RemotePartitionDeleteMetadataRecord";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "RemotePartitionDeleteMetadataRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        (&self.topic_id_partition).encode(w, version)?;
        w.put_i32(*(&self.broker_id));
        w.put_i64(*(&self.event_timestamp_ms));
        w.put_i8(*(&self.remote_partition_delete_state));
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
        n += (&self.topic_id_partition).encoded_len(version);
        n += 4;
        n += 8;
        n += 1;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "RemotePartitionDeleteMetadataRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.topic_id_partition = TopicIdPartitionEntry::decode(buf, version)?;
        v.broker_id = read_i32(buf)?;
        v.event_timestamp_ms = read_i64(buf)?;
        v.remote_partition_delete_state = read_i8(buf)?;
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
        v.topic_id_partition = TopicIdPartitionEntry::sample(g, version);
        v.broker_id = g.i32();
        v.event_timestamp_ms = g.i64();
        v.remote_partition_delete_state = g.i8();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        self.topic_id_partition.each_error_code(f);
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        self.topic_id_partition.each_nullable_string(version, f);
    }
}

/// Represents unique topic partition.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicIdPartitionEntry {
    /// Topic name.
    ///
    /// Versions 0+.
    pub name: String,
    /// Unique identifier of the topic.
    ///
    /// Versions 0+.
    pub id: Uuid,
    /// Partition number.
    ///
    /// Versions 0+.
    pub partition: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TopicIdPartitionEntry {
    fn default() -> Self {
        TopicIdPartitionEntry {
            name: String::new(),
            id: Uuid::nil(),
            partition: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TopicIdPartitionEntry {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.name), flexible)?;
        write_uuid(w, (&self.id));
        w.put_i32(*(&self.partition));
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
        n += string_len((&self.name), flexible);
        n += 16;
        n += 4;
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
        v.name = read_string(buf, flexible, "Name")?;
        v.id = read_uuid(buf)?;
        v.partition = read_i32(buf)?;
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
        v.name = g.string();
        v.id = g.uuid();
        v.partition = g.i32();
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
