//! Generated from `FetchResponse.json` by fjord-codegen. Do not edit.

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

/// The `FetchResponse` response (api key 1, versions 4-18).
#[derive(Debug, Clone, PartialEq)]
pub struct FetchResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    ///
    /// Versions 1+.
    pub throttle_time_ms: i32,
    /// The top level response error code.
    ///
    /// Versions 7+.
    pub error_code: i16,
    /// The fetch session ID, or 0 if this is not part of a fetch session.
    ///
    /// Versions 7+.
    pub session_id: i32,
    /// The response topics.
    ///
    /// Versions 0+.
    pub responses: Vec<FetchableTopicResponse>,
    /// Endpoints for all current-leaders enumerated in PartitionData, with errors NOT_LEADER_OR_FOLLOWER & FENCED_LEADER_EPOCH.
    ///
    /// Versions 16+; tag 0 in 16+.
    pub node_endpoints: Vec<NodeEndpoint>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for FetchResponse {
    fn default() -> Self {
        FetchResponse {
            throttle_time_ms: 0,
            error_code: 0,
            session_id: 0,
            responses: Vec::<FetchableTopicResponse>::new(),
            node_endpoints: Vec::<NodeEndpoint>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchResponse {
    /// The message name.
    pub const NAME: &'static str = "FetchResponse";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 4;
    /// The highest version.
    pub const MAX_VERSION: i16 = 18;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(12);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(4..=18).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "FetchResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 12;
        w.put_i32(*(&self.throttle_time_ms));
        if version >= 7 { w.put_i16(*(&self.error_code)); }
        if version >= 7 { w.put_i32(*(&self.session_id)); }
        if !(version >= 7) { if self.session_id != 0 { return Err(EncodeError::FieldNotInVersion { field: "SessionId", version }); } }
        write_len_prefix(w, (&self.responses).len(), flexible)?; for e0 in (&self.responses).iter() { e0.encode(w, version)?; }
        if !((false) || (version >= 16)) { if self.node_endpoints != Vec::<NodeEndpoint>::new() { return Err(EncodeError::FieldNotInVersion { field: "NodeEndpoints", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 16 && self.node_endpoints != Vec::<NodeEndpoint>::new() { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 16 && self.node_endpoints != Vec::<NodeEndpoint>::new() { write_uvarint(w, 0); write_uvarint(w, (len_prefix_len((&self.node_endpoints).len(), true) + (&self.node_endpoints).iter().map(|e0| e0.encoded_len(version)).sum::<usize>()) as u32); write_len_prefix(w, (&self.node_endpoints).len(), true)?; for e0 in (&self.node_endpoints).iter() { e0.encode(w, version)?; } }
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
        if version >= 7 { n += 2; }
        if version >= 7 { n += 4; }
        n += len_prefix_len((&self.responses).len(), flexible) + (&self.responses).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 16 && self.node_endpoints != Vec::<NodeEndpoint>::new() { count += 1; let s = len_prefix_len((&self.node_endpoints).len(), true) + (&self.node_endpoints).iter().map(|e0| e0.encoded_len(version)).sum::<usize>(); n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(4..=18).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "FetchResponse", version }); }
        #[allow(unused_variables)]
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = read_i32(buf)?;
        if version >= 7 { v.error_code = read_i16(buf)?; }
        if version >= 7 { v.session_id = read_i32(buf)?; }
        v.responses = { let n = read_array_len_non_null(buf, flexible, "Responses")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(FetchableTopicResponse::decode(buf, version)?); } v };
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 if version >= 16 => { let buf = &mut field; v.node_endpoints = { let n = read_array_len_non_null(buf, true, "NodeEndpoints")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(NodeEndpoint::decode(buf, version)?); } v }; finish_tagged_field(buf, 0)?; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.throttle_time_ms = g.i32();
        if version >= 7 { v.error_code = g.i16(); }
        if version >= 7 { v.session_id = g.i32(); }
        v.responses = (0..g.collection_len()).map(|_| FetchableTopicResponse::sample(g, version)).collect();
        if (version >= 16) && g.bool() { v.node_endpoints = (0..g.collection_len()).map(|_| NodeEndpoint::sample(g, version)).collect(); }
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        for x in &self.responses { x.each_error_code(f); }
        for x in &self.node_endpoints { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.responses { x.each_nullable_string(version, f); }
        if (false) || (version >= 16) { for x in &mut self.node_endpoints { x.each_nullable_string(version, f); } }
    }
}

/// The response topics.
#[derive(Debug, Clone, PartialEq)]
pub struct FetchableTopicResponse {
    /// The topic name.
    ///
    /// Versions 0-12.
    pub topic: String,
    /// The unique topic ID.
    ///
    /// Versions 13+.
    pub topic_id: Uuid,
    /// The topic partitions.
    ///
    /// Versions 0+.
    pub partitions: Vec<PartitionData>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for FetchableTopicResponse {
    fn default() -> Self {
        FetchableTopicResponse {
            topic: String::new(),
            topic_id: Uuid::nil(),
            partitions: Vec::<PartitionData>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl FetchableTopicResponse {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        if version <= 12 { write_string(w, (&self.topic), flexible)?; }
        if version >= 13 { write_uuid(w, (&self.topic_id)); }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version <= 12 { n += string_len((&self.topic), flexible); }
        if version >= 13 { n += 16; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 12 { v.topic = read_string(buf, flexible, "Topic")?; }
        if version >= 13 { v.topic_id = read_uuid(buf)?; }
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(PartitionData::decode(buf, version)?); } v };
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version <= 12 { v.topic = g.string(); }
        if version >= 13 { v.topic_id = g.uuid(); }
        v.partitions = (0..g.collection_len()).map(|_| PartitionData::sample(g, version)).collect();
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

/// The topic partitions.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionData {
    /// The partition index.
    ///
    /// Versions 0+.
    pub partition_index: i32,
    /// The error code, or 0 if there was no fetch error.
    ///
    /// Versions 0+.
    pub error_code: i16,
    /// The current high water mark.
    ///
    /// Versions 0+.
    pub high_watermark: i64,
    /// The last stable offset (or LSO) of the partition. This is the last offset such that the state of all transactional records prior to this offset have been decided (ABORTED or COMMITTED).
    ///
    /// Versions 4+.
    pub last_stable_offset: i64,
    /// The current log start offset.
    ///
    /// Versions 5+.
    pub log_start_offset: i64,
    /// In case divergence is detected based on the `LastFetchedEpoch` and `FetchOffset` in the request, this field indicates the largest epoch and its end offset such that subsequent records are known to diverge.
    ///
    /// Versions 12+; tag 0 in 12+.
    pub diverging_epoch: EpochEndOffset,
    /// The current leader of the partition.
    ///
    /// Versions 12+; tag 1 in 12+.
    pub current_leader: LeaderIdAndEpoch,
    /// In the case of fetching an offset less than the LogStartOffset, this is the end offset and epoch that should be used in the FetchSnapshot request.
    ///
    /// Versions 12+; tag 2 in 12+.
    pub snapshot_id: SnapshotId,
    /// The aborted transactions.
    ///
    /// Versions 4+; nullable 4+.
    pub aborted_transactions: Option<Vec<AbortedTransaction>>,
    /// The preferred read replica for the consumer to use on its next fetch request.
    ///
    /// Versions 11+.
    pub preferred_read_replica: i32,
    /// The record data.
    ///
    /// Versions 0+; nullable 0+.
    pub records: Option<Records>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for PartitionData {
    fn default() -> Self {
        PartitionData {
            partition_index: 0,
            error_code: 0,
            high_watermark: 0,
            last_stable_offset: -1,
            log_start_offset: -1,
            diverging_epoch: EpochEndOffset::default(),
            current_leader: LeaderIdAndEpoch::default(),
            snapshot_id: SnapshotId::default(),
            aborted_transactions: Some(Vec::<AbortedTransaction>::new()),
            preferred_read_replica: -1,
            records: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionData {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        w.put_i32(*(&self.partition_index));
        w.put_i16(*(&self.error_code));
        w.put_i64(*(&self.high_watermark));
        w.put_i64(*(&self.last_stable_offset));
        if version >= 5 { w.put_i64(*(&self.log_start_offset)); }
        if !((false) || (version >= 12)) { if self.diverging_epoch != EpochEndOffset::default() { return Err(EncodeError::FieldNotInVersion { field: "DivergingEpoch", version }); } }
        if !((false) || (version >= 12)) { if self.current_leader != LeaderIdAndEpoch::default() { return Err(EncodeError::FieldNotInVersion { field: "CurrentLeader", version }); } }
        if !((false) || (version >= 12)) { if self.snapshot_id != SnapshotId::default() { return Err(EncodeError::FieldNotInVersion { field: "SnapshotId", version }); } }
        match (&self.aborted_transactions) { Some(x) => { write_len_prefix(w, x.len(), flexible)?; for e0 in x.iter() { e0.encode(w, version)?; } } None => { write_null(w, flexible); } }
        if version >= 11 { w.put_i32(*(&self.preferred_read_replica)); }
        if !(version >= 11) { if self.preferred_read_replica != -1 { return Err(EncodeError::FieldNotInVersion { field: "PreferredReadReplica", version }); } }
        match (&self.records) { Some(x) => { write_records(w, x, flexible)?; } None => { write_null(w, flexible); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if version >= 12 && self.diverging_epoch != EpochEndOffset::default() { count += 1; }
            if version >= 12 && self.current_leader != LeaderIdAndEpoch::default() { count += 1; }
            if version >= 12 && self.snapshot_id != SnapshotId::default() { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 12 && self.diverging_epoch != EpochEndOffset::default() { write_uvarint(w, 0); write_uvarint(w, ((&self.diverging_epoch).encoded_len(version)) as u32); (&self.diverging_epoch).encode(w, version)?; }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 1 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 12 && self.current_leader != LeaderIdAndEpoch::default() { write_uvarint(w, 1); write_uvarint(w, ((&self.current_leader).encoded_len(version)) as u32); (&self.current_leader).encode(w, version)?; }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 2 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 12 && self.snapshot_id != SnapshotId::default() { write_uvarint(w, 2); write_uvarint(w, ((&self.snapshot_id).encoded_len(version)) as u32); (&self.snapshot_id).encode(w, version)?; }
            for f in rest { write_raw_tagged(w, f); }
        } else if !self.unknown_tagged_fields.is_empty() {
            return Err(EncodeError::TaggedFieldsNotInVersion { version });
        }
        Ok(())
    }

    /// The number of bytes [`Self::encode`] writes at `version`.
    pub fn encoded_len(&self, version: i16) -> usize {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 4;
        n += 2;
        n += 8;
        n += 8;
        if version >= 5 { n += 8; }
        n += match (&self.aborted_transactions) { Some(x) => len_prefix_len(x.len(), flexible) + x.iter().map(|e0| e0.encoded_len(version)).sum::<usize>(), None => null_len(flexible) };
        if version >= 11 { n += 4; }
        n += match (&self.records) { Some(x) => records_len(x, flexible), None => null_len(flexible) };
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if version >= 12 && self.diverging_epoch != EpochEndOffset::default() { count += 1; let s = (&self.diverging_epoch).encoded_len(version); n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            if version >= 12 && self.current_leader != LeaderIdAndEpoch::default() { count += 1; let s = (&self.current_leader).encoded_len(version); n += uvarint_len(1) + uvarint_len(s as u32) + s; }
            if version >= 12 && self.snapshot_id != SnapshotId::default() { count += 1; let s = (&self.snapshot_id).encoded_len(version); n += uvarint_len(2) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.partition_index = read_i32(buf)?;
        v.error_code = read_i16(buf)?;
        v.high_watermark = read_i64(buf)?;
        v.last_stable_offset = read_i64(buf)?;
        if version >= 5 { v.log_start_offset = read_i64(buf)?; }
        v.aborted_transactions = match read_array_len(buf, flexible)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(AbortedTransaction::decode(buf, version)?); } Some(v) } };
        if version >= 11 { v.preferred_read_replica = read_i32(buf)?; }
        v.records = read_nullable_bytes(buf, flexible)?.map(Records::from);
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 if version >= 12 => { let buf = &mut field; v.diverging_epoch = EpochEndOffset::decode(buf, version)?; finish_tagged_field(buf, 0)?; }
                    1 if version >= 12 => { let buf = &mut field; v.current_leader = LeaderIdAndEpoch::decode(buf, version)?; finish_tagged_field(buf, 1)?; }
                    2 if version >= 12 => { let buf = &mut field; v.snapshot_id = SnapshotId::decode(buf, version)?; finish_tagged_field(buf, 2)?; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.partition_index = g.i32();
        v.error_code = g.i16();
        v.high_watermark = g.i64();
        v.last_stable_offset = g.i64();
        if version >= 5 { v.log_start_offset = g.i64(); }
        if (version >= 12) && g.bool() { v.diverging_epoch = EpochEndOffset::sample(g, version); }
        if (version >= 12) && g.bool() { v.current_leader = LeaderIdAndEpoch::sample(g, version); }
        if (version >= 12) && g.bool() { v.snapshot_id = SnapshotId::sample(g, version); }
        v.aborted_transactions = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| AbortedTransaction::sample(g, version)).collect()) };
        if version >= 11 { v.preferred_read_replica = g.i32(); }
        v.records = if (true) && g.chance(4) { None } else { Some(Records::from(g.bytes())) };
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        f(self.error_code);
        self.diverging_epoch.each_error_code(f);
        self.current_leader.each_error_code(f);
        self.snapshot_id.each_error_code(f);
        if let Some(v) = &self.aborted_transactions { for x in v { x.each_error_code(f); } }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        if (false) || (version >= 12) { self.diverging_epoch.each_nullable_string(version, f); }
        if (false) || (version >= 12) { self.current_leader.each_nullable_string(version, f); }
        if (false) || (version >= 12) { self.snapshot_id.each_nullable_string(version, f); }
        if let Some(v) = &mut self.aborted_transactions { for x in v { x.each_nullable_string(version, f); } }
    }
}

/// In case divergence is detected based on the `LastFetchedEpoch` and `FetchOffset` in the request, this field indicates the largest epoch and its end offset such that subsequent records are known to diverge.
#[derive(Debug, Clone, PartialEq)]
pub struct EpochEndOffset {
    /// The largest epoch.
    ///
    /// Versions 12+.
    pub epoch: i32,
    /// The end offset of the epoch.
    ///
    /// Versions 12+.
    pub end_offset: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for EpochEndOffset {
    fn default() -> Self {
        EpochEndOffset {
            epoch: -1,
            end_offset: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl EpochEndOffset {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        if version >= 12 { w.put_i32(*(&self.epoch)); }
        if !(version >= 12) { if self.epoch != -1 { return Err(EncodeError::FieldNotInVersion { field: "Epoch", version }); } }
        if version >= 12 { w.put_i64(*(&self.end_offset)); }
        if !(version >= 12) { if self.end_offset != -1 { return Err(EncodeError::FieldNotInVersion { field: "EndOffset", version }); } }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 12 { n += 4; }
        if version >= 12 { n += 8; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 12 { v.epoch = read_i32(buf)?; }
        if version >= 12 { v.end_offset = read_i64(buf)?; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 12 { v.epoch = g.i32(); }
        if version >= 12 { v.end_offset = g.i64(); }
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

/// The current leader of the partition.
#[derive(Debug, Clone, PartialEq)]
pub struct LeaderIdAndEpoch {
    /// The ID of the current leader or -1 if the leader is unknown.
    ///
    /// Versions 12+.
    pub leader_id: i32,
    /// The latest known leader epoch.
    ///
    /// Versions 12+.
    pub leader_epoch: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for LeaderIdAndEpoch {
    fn default() -> Self {
        LeaderIdAndEpoch {
            leader_id: -1,
            leader_epoch: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl LeaderIdAndEpoch {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        if version >= 12 { w.put_i32(*(&self.leader_id)); }
        if !(version >= 12) { if self.leader_id != -1 { return Err(EncodeError::FieldNotInVersion { field: "LeaderId", version }); } }
        if version >= 12 { w.put_i32(*(&self.leader_epoch)); }
        if !(version >= 12) { if self.leader_epoch != -1 { return Err(EncodeError::FieldNotInVersion { field: "LeaderEpoch", version }); } }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 12 { n += 4; }
        if version >= 12 { n += 4; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 12 { v.leader_id = read_i32(buf)?; }
        if version >= 12 { v.leader_epoch = read_i32(buf)?; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 12 { v.leader_id = g.i32(); }
        if version >= 12 { v.leader_epoch = g.i32(); }
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

/// In the case of fetching an offset less than the LogStartOffset, this is the end offset and epoch that should be used in the FetchSnapshot request.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotId {
    /// The end offset of the epoch.
    ///
    /// Versions 0+.
    pub end_offset: i64,
    /// The largest epoch.
    ///
    /// Versions 0+.
    pub epoch: i32,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for SnapshotId {
    fn default() -> Self {
        SnapshotId {
            end_offset: -1,
            epoch: -1,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl SnapshotId {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        w.put_i64(*(&self.end_offset));
        w.put_i32(*(&self.epoch));
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 8;
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.end_offset = read_i64(buf)?;
        v.epoch = read_i32(buf)?;
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.end_offset = g.i64();
        v.epoch = g.i32();
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

/// The aborted transactions.
#[derive(Debug, Clone, PartialEq)]
pub struct AbortedTransaction {
    /// The producer id associated with the aborted transaction.
    ///
    /// Versions 4+.
    pub producer_id: i64,
    /// The first offset in the aborted transaction.
    ///
    /// Versions 4+.
    pub first_offset: i64,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for AbortedTransaction {
    fn default() -> Self {
        AbortedTransaction {
            producer_id: 0,
            first_offset: 0,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl AbortedTransaction {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        w.put_i64(*(&self.producer_id));
        w.put_i64(*(&self.first_offset));
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut n = 0usize;
        n += 8;
        n += 8;
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.producer_id = read_i64(buf)?;
        v.first_offset = read_i64(buf)?;
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.producer_id = g.i64();
        v.first_offset = g.i64();
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

/// Endpoints for all current-leaders enumerated in PartitionData, with errors NOT_LEADER_OR_FOLLOWER & FENCED_LEADER_EPOCH.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeEndpoint {
    /// The ID of the associated node.
    ///
    /// Versions 16+.
    pub node_id: i32,
    /// The node's hostname.
    ///
    /// Versions 16+.
    pub host: String,
    /// The node's port.
    ///
    /// Versions 16+.
    pub port: i32,
    /// The rack of the node, or null if it has not been assigned to a rack.
    ///
    /// Versions 16+; nullable 16+.
    pub rack: Option<String>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for NodeEndpoint {
    fn default() -> Self {
        NodeEndpoint {
            node_id: 0,
            host: String::new(),
            port: 0,
            rack: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl NodeEndpoint {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = version >= 12;
        if version >= 16 { w.put_i32(*(&self.node_id)); }
        if !(version >= 16) { if self.node_id != 0 { return Err(EncodeError::FieldNotInVersion { field: "NodeId", version }); } }
        if version >= 16 { write_string(w, (&self.host), flexible)?; }
        if !(version >= 16) { if self.host != String::new() { return Err(EncodeError::FieldNotInVersion { field: "Host", version }); } }
        if version >= 16 { w.put_i32(*(&self.port)); }
        if !(version >= 16) { if self.port != 0 { return Err(EncodeError::FieldNotInVersion { field: "Port", version }); } }
        if version >= 16 { match (&self.rack) { Some(x) => { write_string(w, x, flexible)?; } None => { if !(version >= 16) { return Err(EncodeError::NullNotAllowed { field: "Rack", version }); } write_nullable_string(w, None, flexible)?; } } }
        if !(version >= 16) { if self.rack != None { return Err(EncodeError::FieldNotInVersion { field: "Rack", version }); } }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut n = 0usize;
        if version >= 16 { n += 4; }
        if version >= 16 { n += string_len((&self.host), flexible); }
        if version >= 16 { n += 4; }
        if version >= 16 { n += match (&self.rack) { Some(x) => string_len(x, flexible), None => nullable_string_len(None, flexible) }; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 16 { v.node_id = read_i32(buf)?; }
        if version >= 16 { v.host = read_string(buf, flexible, "Host")?; }
        if version >= 16 { v.port = read_i32(buf)?; }
        if version >= 16 { v.rack = if version >= 16 { read_nullable_string(buf, flexible)? } else { Some(read_string(buf, flexible, "Rack")?) }; }
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
        let flexible = version >= 12;
        #[allow(unused_mut)]
        let mut v = Self::default();
        if version >= 16 { v.node_id = g.i32(); }
        if version >= 16 { v.host = g.string(); }
        if version >= 16 { v.port = g.i32(); }
        if version >= 16 { v.rack = if (version >= 16) && g.chance(4) { None } else { Some(g.string()) }; }
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
        if version >= 16 { f("Rack", &mut self.rack); }
    }
}
