//! Generated from `PartitionRecord.json` by fjord-codegen. Do not edit.

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

/// The `PartitionRecord` metadata (type 3, versions 0-2).
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionRecord {
    /// The partition id.
    ///
    /// Versions 0+.
    pub partition_id: i32,
    /// The unique ID of this topic.
    ///
    /// Versions 0+.
    pub topic_id: Uuid,
    /// The replicas of this partition, sorted by preferred order.
    ///
    /// Versions 0+.
    pub replicas: Vec<i32>,
    /// The in-sync replicas of this partition
    ///
    /// Versions 0+.
    pub isr: Vec<i32>,
    /// The replicas that we are in the process of removing.
    ///
    /// Versions 0+.
    pub removing_replicas: Vec<i32>,
    /// The replicas that we are in the process of adding.
    ///
    /// Versions 0+.
    pub adding_replicas: Vec<i32>,
    /// The lead replica, or -1 if there is no leader.
    ///
    /// Versions 0+.
    pub leader: i32,
    /// 1 if the partition is recovering from an unclean leader election; 0 otherwise.
    ///
    /// Versions 0+; tag 0 in 0+.
    pub leader_recovery_state: i8,
    /// The epoch of the partition leader.
    ///
    /// Versions 0+.
    pub leader_epoch: i32,
    /// An epoch that gets incremented each time we change anything in the partition.
    ///
    /// Versions 0+.
    pub partition_epoch: i32,
    /// The log directory hosting each replica, sorted in the same exact order as the Replicas field.
    ///
    /// Versions 1+.
    pub directories: Vec<Uuid>,
    /// The eligible leader replicas of this partition.
    ///
    /// Versions 2+; nullable 2+; tag 1 in 2+.
    pub eligible_leader_replicas: Option<Vec<i32>>,
    /// The last known eligible leader replicas of this partition.
    ///
    /// Versions 2+; nullable 2+; tag 2 in 2+.
    pub last_known_elr: Option<Vec<i32>>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for PartitionRecord {
    fn default() -> Self {
        PartitionRecord {
            partition_id: -1,
            topic_id: Uuid::nil(),
            replicas: Vec::<i32>::new(),
            isr: Vec::<i32>::new(),
            removing_replicas: Vec::<i32>::new(),
            adding_replicas: Vec::<i32>::new(),
            leader: -1,
            leader_recovery_state: 0,
            leader_epoch: -1,
            partition_epoch: -1,
            directories: Vec::<Uuid>::new(),
            eligible_leader_replicas: None,
            last_known_elr: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionRecord {
    /// The message name.
    pub const NAME: &'static str = "PartitionRecord";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 2;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=2).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "PartitionRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.partition_id));
        write_uuid(w, (&self.topic_id));
        write_len_prefix(w, (&self.replicas).len(), flexible)?; for e0 in (&self.replicas).iter() { w.put_i32(*e0); }
        write_len_prefix(w, (&self.isr).len(), flexible)?; for e0 in (&self.isr).iter() { w.put_i32(*e0); }
        write_len_prefix(w, (&self.removing_replicas).len(), flexible)?; for e0 in (&self.removing_replicas).iter() { w.put_i32(*e0); }
        write_len_prefix(w, (&self.adding_replicas).len(), flexible)?; for e0 in (&self.adding_replicas).iter() { w.put_i32(*e0); }
        w.put_i32(*(&self.leader));
        if !((false) || (true)) { if self.leader_recovery_state != 0 { return Err(EncodeError::FieldNotInVersion { field: "LeaderRecoveryState", version }); } }
        w.put_i32(*(&self.leader_epoch));
        w.put_i32(*(&self.partition_epoch));
        if version >= 1 { write_len_prefix(w, (&self.directories).len(), flexible)?; for e0 in (&self.directories).iter() { write_uuid(w, e0); } }
        if !(version >= 1) { if self.directories != Vec::<Uuid>::new() { return Err(EncodeError::FieldNotInVersion { field: "Directories", version }); } }
        if !((false) || (version >= 2)) { if self.eligible_leader_replicas != None { return Err(EncodeError::FieldNotInVersion { field: "EligibleLeaderReplicas", version }); } }
        if !((false) || (version >= 2)) { if self.last_known_elr != None { return Err(EncodeError::FieldNotInVersion { field: "LastKnownElr", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if true && self.leader_recovery_state != 0 { count += 1; }
            if version >= 2 && self.eligible_leader_replicas != None { count += 1; }
            if version >= 2 && self.last_known_elr != None { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.leader_recovery_state != 0 { write_uvarint(w, 0); write_uvarint(w, (1) as u32); w.put_i8(*(&self.leader_recovery_state)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 1 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 2 && self.eligible_leader_replicas != None { write_uvarint(w, 1); write_uvarint(w, (match (&self.eligible_leader_replicas) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }) as u32); match (&self.eligible_leader_replicas) { Some(x) => { write_len_prefix(w, x.len(), true)?; for e0 in x.iter() { w.put_i32(*e0); } } None => { if !(version >= 2) { return Err(EncodeError::NullNotAllowed { field: "EligibleLeaderReplicas", version }); } write_null(w, true); } } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 2 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 2 && self.last_known_elr != None { write_uvarint(w, 2); write_uvarint(w, (match (&self.last_known_elr) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }) as u32); match (&self.last_known_elr) { Some(x) => { write_len_prefix(w, x.len(), true)?; for e0 in x.iter() { w.put_i32(*e0); } } None => { if !(version >= 2) { return Err(EncodeError::NullNotAllowed { field: "LastKnownElr", version }); } write_null(w, true); } } }
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
        n += 16;
        n += len_prefix_len((&self.replicas).len(), flexible) + (&self.replicas).len() * 4;
        n += len_prefix_len((&self.isr).len(), flexible) + (&self.isr).len() * 4;
        n += len_prefix_len((&self.removing_replicas).len(), flexible) + (&self.removing_replicas).len() * 4;
        n += len_prefix_len((&self.adding_replicas).len(), flexible) + (&self.adding_replicas).len() * 4;
        n += 4;
        n += 4;
        n += 4;
        if version >= 1 { n += len_prefix_len((&self.directories).len(), flexible) + (&self.directories).len() * 16; }
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if true && self.leader_recovery_state != 0 { count += 1; let s = 1; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            if version >= 2 && self.eligible_leader_replicas != None { count += 1; let s = match (&self.eligible_leader_replicas) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }; n += uvarint_len(1) + uvarint_len(s as u32) + s; }
            if version >= 2 && self.last_known_elr != None { count += 1; let s = match (&self.last_known_elr) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }; n += uvarint_len(2) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=2).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "PartitionRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.partition_id = read_i32(buf)?;
        v.topic_id = read_uuid(buf)?;
        v.replicas = { let n = read_array_len_non_null(buf, flexible, "Replicas")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
        v.isr = { let n = read_array_len_non_null(buf, flexible, "Isr")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
        v.removing_replicas = { let n = read_array_len_non_null(buf, flexible, "RemovingReplicas")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
        v.adding_replicas = { let n = read_array_len_non_null(buf, flexible, "AddingReplicas")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
        v.leader = read_i32(buf)?;
        v.leader_epoch = read_i32(buf)?;
        v.partition_epoch = read_i32(buf)?;
        if version >= 1 { v.directories = { let n = read_array_len_non_null(buf, flexible, "Directories")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_uuid(buf)?); } v }; }
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 => { let buf = &mut field; v.leader_recovery_state = read_i8(buf)?; finish_tagged_field(buf, 0)?; }
                    1 if version >= 2 => { let buf = &mut field; v.eligible_leader_replicas = if version >= 2 { match read_array_len(buf, true)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } Some(v) } } } else { Some({ let n = read_array_len_non_null(buf, true, "EligibleLeaderReplicas")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v }) }; finish_tagged_field(buf, 1)?; }
                    2 if version >= 2 => { let buf = &mut field; v.last_known_elr = if version >= 2 { match read_array_len(buf, true)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } Some(v) } } } else { Some({ let n = read_array_len_non_null(buf, true, "LastKnownElr")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v }) }; finish_tagged_field(buf, 2)?; }
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
        v.partition_id = g.i32();
        v.topic_id = g.uuid();
        v.replicas = (0..g.collection_len()).map(|_| g.i32()).collect();
        v.isr = (0..g.collection_len()).map(|_| g.i32()).collect();
        v.removing_replicas = (0..g.collection_len()).map(|_| g.i32()).collect();
        v.adding_replicas = (0..g.collection_len()).map(|_| g.i32()).collect();
        v.leader = g.i32();
        if (true) && g.bool() { v.leader_recovery_state = g.i8(); }
        v.leader_epoch = g.i32();
        v.partition_epoch = g.i32();
        if version >= 1 { v.directories = (0..g.collection_len()).map(|_| g.uuid()).collect(); }
        if (version >= 2) && g.bool() { v.eligible_leader_replicas = if (version >= 2) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| g.i32()).collect()) }; }
        if (version >= 2) && g.bool() { v.last_known_elr = if (version >= 2) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| g.i32()).collect()) }; }
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
