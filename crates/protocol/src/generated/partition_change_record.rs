//! Generated from `PartitionChangeRecord.json` by fjord-codegen. Do not edit.

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

/// The `PartitionChangeRecord` metadata (type 5, versions 0-2).
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionChangeRecord {
    /// The partition id.
    ///
    /// Versions 0+.
    pub partition_id: i32,
    /// The unique ID of this topic.
    ///
    /// Versions 0+.
    pub topic_id: Uuid,
    /// null if the ISR didn't change; the new in-sync replicas otherwise.
    ///
    /// Versions 0+; nullable 0+; tag 0 in 0+.
    pub isr: Option<Vec<i32>>,
    /// -1 if there is now no leader; -2 if the leader didn't change; the new leader otherwise.
    ///
    /// Versions 0+; tag 1 in 0+.
    pub leader: i32,
    /// null if the replicas didn't change; the new replicas otherwise.
    ///
    /// Versions 0+; nullable 0+; tag 2 in 0+.
    pub replicas: Option<Vec<i32>>,
    /// null if the removing replicas didn't change; the new removing replicas otherwise.
    ///
    /// Versions 0+; nullable 0+; tag 3 in 0+.
    pub removing_replicas: Option<Vec<i32>>,
    /// null if the adding replicas didn't change; the new adding replicas otherwise.
    ///
    /// Versions 0+; nullable 0+; tag 4 in 0+.
    pub adding_replicas: Option<Vec<i32>>,
    /// -1 if it didn't change; 0 if the leader was elected from the ISR or recovered from an unclean election; 1 if the leader that was elected using unclean leader election and it is still recovering.
    ///
    /// Versions 0+; tag 5 in 0+.
    pub leader_recovery_state: i8,
    /// null if the log dirs didn't change; the new log directory for each replica otherwise.
    ///
    /// Versions 1+; nullable 1+; tag 8 in 1+.
    pub directories: Option<Vec<Uuid>>,
    /// null if the ELR didn't change; the new eligible leader replicas otherwise.
    ///
    /// Versions 2+; nullable 2+; tag 6 in 2+.
    pub eligible_leader_replicas: Option<Vec<i32>>,
    /// null if the LastKnownElr didn't change; the last known eligible leader replicas otherwise.
    ///
    /// Versions 2+; nullable 2+; tag 7 in 2+.
    pub last_known_elr: Option<Vec<i32>>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for PartitionChangeRecord {
    fn default() -> Self {
        PartitionChangeRecord {
            partition_id: -1,
            topic_id: Uuid::nil(),
            isr: None,
            leader: -2,
            replicas: None,
            removing_replicas: None,
            adding_replicas: None,
            leader_recovery_state: -1,
            directories: None,
            eligible_leader_replicas: None,
            last_known_elr: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl PartitionChangeRecord {
    /// The message name.
    pub const NAME: &'static str = "PartitionChangeRecord";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 2;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=2).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "PartitionChangeRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.partition_id));
        write_uuid(w, (&self.topic_id));
        if !((false) || (true)) { if self.isr != None { return Err(EncodeError::FieldNotInVersion { field: "Isr", version }); } }
        if !((false) || (true)) { if self.leader != -2 { return Err(EncodeError::FieldNotInVersion { field: "Leader", version }); } }
        if !((false) || (true)) { if self.replicas != None { return Err(EncodeError::FieldNotInVersion { field: "Replicas", version }); } }
        if !((false) || (true)) { if self.removing_replicas != None { return Err(EncodeError::FieldNotInVersion { field: "RemovingReplicas", version }); } }
        if !((false) || (true)) { if self.adding_replicas != None { return Err(EncodeError::FieldNotInVersion { field: "AddingReplicas", version }); } }
        if !((false) || (true)) { if self.leader_recovery_state != -1 { return Err(EncodeError::FieldNotInVersion { field: "LeaderRecoveryState", version }); } }
        if !((false) || (version >= 1)) { if self.directories != None { return Err(EncodeError::FieldNotInVersion { field: "Directories", version }); } }
        if !((false) || (version >= 2)) { if self.eligible_leader_replicas != None { return Err(EncodeError::FieldNotInVersion { field: "EligibleLeaderReplicas", version }); } }
        if !((false) || (version >= 2)) { if self.last_known_elr != None { return Err(EncodeError::FieldNotInVersion { field: "LastKnownElr", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if true && self.isr != None { count += 1; }
            if true && self.leader != -2 { count += 1; }
            if true && self.replicas != None { count += 1; }
            if true && self.removing_replicas != None { count += 1; }
            if true && self.adding_replicas != None { count += 1; }
            if true && self.leader_recovery_state != -1 { count += 1; }
            if version >= 1 && self.directories != None { count += 1; }
            if version >= 2 && self.eligible_leader_replicas != None { count += 1; }
            if version >= 2 && self.last_known_elr != None { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.isr != None { write_uvarint(w, 0); write_uvarint(w, (match (&self.isr) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }) as u32); match (&self.isr) { Some(x) => { write_len_prefix(w, x.len(), true)?; for e0 in x.iter() { w.put_i32(*e0); } } None => { write_null(w, true); } } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 1 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.leader != -2 { write_uvarint(w, 1); write_uvarint(w, (4) as u32); w.put_i32(*(&self.leader)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 2 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.replicas != None { write_uvarint(w, 2); write_uvarint(w, (match (&self.replicas) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }) as u32); match (&self.replicas) { Some(x) => { write_len_prefix(w, x.len(), true)?; for e0 in x.iter() { w.put_i32(*e0); } } None => { write_null(w, true); } } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 3 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.removing_replicas != None { write_uvarint(w, 3); write_uvarint(w, (match (&self.removing_replicas) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }) as u32); match (&self.removing_replicas) { Some(x) => { write_len_prefix(w, x.len(), true)?; for e0 in x.iter() { w.put_i32(*e0); } } None => { write_null(w, true); } } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 4 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.adding_replicas != None { write_uvarint(w, 4); write_uvarint(w, (match (&self.adding_replicas) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }) as u32); match (&self.adding_replicas) { Some(x) => { write_len_prefix(w, x.len(), true)?; for e0 in x.iter() { w.put_i32(*e0); } } None => { write_null(w, true); } } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 5 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.leader_recovery_state != -1 { write_uvarint(w, 5); write_uvarint(w, (1) as u32); w.put_i8(*(&self.leader_recovery_state)); }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 6 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 2 && self.eligible_leader_replicas != None { write_uvarint(w, 6); write_uvarint(w, (match (&self.eligible_leader_replicas) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }) as u32); match (&self.eligible_leader_replicas) { Some(x) => { write_len_prefix(w, x.len(), true)?; for e0 in x.iter() { w.put_i32(*e0); } } None => { if !(version >= 2) { return Err(EncodeError::NullNotAllowed { field: "EligibleLeaderReplicas", version }); } write_null(w, true); } } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 7 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 2 && self.last_known_elr != None { write_uvarint(w, 7); write_uvarint(w, (match (&self.last_known_elr) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }) as u32); match (&self.last_known_elr) { Some(x) => { write_len_prefix(w, x.len(), true)?; for e0 in x.iter() { w.put_i32(*e0); } } None => { if !(version >= 2) { return Err(EncodeError::NullNotAllowed { field: "LastKnownElr", version }); } write_null(w, true); } } }
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 8 { break; } write_raw_tagged(w, f); rest = tail; }
            if version >= 1 && self.directories != None { write_uvarint(w, 8); write_uvarint(w, (match (&self.directories) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 16, None => null_len(true) }) as u32); match (&self.directories) { Some(x) => { write_len_prefix(w, x.len(), true)?; for e0 in x.iter() { write_uuid(w, e0); } } None => { if !(version >= 1) { return Err(EncodeError::NullNotAllowed { field: "Directories", version }); } write_null(w, true); } } }
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
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if true && self.isr != None { count += 1; let s = match (&self.isr) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
            if true && self.leader != -2 { count += 1; let s = 4; n += uvarint_len(1) + uvarint_len(s as u32) + s; }
            if true && self.replicas != None { count += 1; let s = match (&self.replicas) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }; n += uvarint_len(2) + uvarint_len(s as u32) + s; }
            if true && self.removing_replicas != None { count += 1; let s = match (&self.removing_replicas) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }; n += uvarint_len(3) + uvarint_len(s as u32) + s; }
            if true && self.adding_replicas != None { count += 1; let s = match (&self.adding_replicas) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }; n += uvarint_len(4) + uvarint_len(s as u32) + s; }
            if true && self.leader_recovery_state != -1 { count += 1; let s = 1; n += uvarint_len(5) + uvarint_len(s as u32) + s; }
            if version >= 1 && self.directories != None { count += 1; let s = match (&self.directories) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 16, None => null_len(true) }; n += uvarint_len(8) + uvarint_len(s as u32) + s; }
            if version >= 2 && self.eligible_leader_replicas != None { count += 1; let s = match (&self.eligible_leader_replicas) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }; n += uvarint_len(6) + uvarint_len(s as u32) + s; }
            if version >= 2 && self.last_known_elr != None { count += 1; let s = match (&self.last_known_elr) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }; n += uvarint_len(7) + uvarint_len(s as u32) + s; }
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=2).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "PartitionChangeRecord", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.partition_id = read_i32(buf)?;
        v.topic_id = read_uuid(buf)?;
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 => { let buf = &mut field; v.isr = match read_array_len(buf, true)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } Some(v) } }; finish_tagged_field(buf, 0)?; }
                    1 => { let buf = &mut field; v.leader = read_i32(buf)?; finish_tagged_field(buf, 1)?; }
                    2 => { let buf = &mut field; v.replicas = match read_array_len(buf, true)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } Some(v) } }; finish_tagged_field(buf, 2)?; }
                    3 => { let buf = &mut field; v.removing_replicas = match read_array_len(buf, true)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } Some(v) } }; finish_tagged_field(buf, 3)?; }
                    4 => { let buf = &mut field; v.adding_replicas = match read_array_len(buf, true)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } Some(v) } }; finish_tagged_field(buf, 4)?; }
                    5 => { let buf = &mut field; v.leader_recovery_state = read_i8(buf)?; finish_tagged_field(buf, 5)?; }
                    8 if version >= 1 => { let buf = &mut field; v.directories = if version >= 1 { match read_array_len(buf, true)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_uuid(buf)?); } Some(v) } } } else { Some({ let n = read_array_len_non_null(buf, true, "Directories")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_uuid(buf)?); } v }) }; finish_tagged_field(buf, 8)?; }
                    6 if version >= 2 => { let buf = &mut field; v.eligible_leader_replicas = if version >= 2 { match read_array_len(buf, true)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } Some(v) } } } else { Some({ let n = read_array_len_non_null(buf, true, "EligibleLeaderReplicas")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v }) }; finish_tagged_field(buf, 6)?; }
                    7 if version >= 2 => { let buf = &mut field; v.last_known_elr = if version >= 2 { match read_array_len(buf, true)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } Some(v) } } } else { Some({ let n = read_array_len_non_null(buf, true, "LastKnownElr")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v }) }; finish_tagged_field(buf, 7)?; }
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
        if (true) && g.bool() { v.isr = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| g.i32()).collect()) }; }
        if (true) && g.bool() { v.leader = g.i32(); }
        if (true) && g.bool() { v.replicas = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| g.i32()).collect()) }; }
        if (true) && g.bool() { v.removing_replicas = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| g.i32()).collect()) }; }
        if (true) && g.bool() { v.adding_replicas = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| g.i32()).collect()) }; }
        if (true) && g.bool() { v.leader_recovery_state = g.i8(); }
        if (version >= 1) && g.bool() { v.directories = if (version >= 1) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| g.uuid()).collect()) }; }
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
