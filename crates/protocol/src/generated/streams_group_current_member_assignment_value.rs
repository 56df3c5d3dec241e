//! Generated from `StreamsGroupCurrentMemberAssignmentValue.json` by fjord-codegen. Do not edit.

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

/// The `StreamsGroupCurrentMemberAssignmentValue` coordinator-value (type 22, versions 0-0).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamsGroupCurrentMemberAssignmentValue {
    /// The current member epoch that is expected from the member in the heartbeat request.
    ///
    /// Versions 0+.
    pub member_epoch: i32,
    /// If the last epoch bump is lost before reaching the member, the member will retry with the previous epoch.
    ///
    /// Versions 0+.
    pub previous_member_epoch: i32,
    /// The member state. See StreamsGroupMember.MemberState for the possible values.
    ///
    /// Versions 0+.
    pub state: i8,
    /// Currently assigned active tasks for this streams client.
    ///
    /// Versions 0+.
    pub active_tasks: Vec<TaskIds>,
    /// Currently assigned standby tasks for this streams client.
    ///
    /// Versions 0+.
    pub standby_tasks: Vec<TaskIds>,
    /// Currently assigned warm-up tasks for this streams client.
    ///
    /// Versions 0+.
    pub warmup_tasks: Vec<TaskIds>,
    /// The active tasks that must be revoked by this member.
    ///
    /// Versions 0+.
    pub active_tasks_pending_revocation: Vec<TaskIds>,
    /// The standby tasks that must be revoked by this member.
    ///
    /// Versions 0+.
    pub standby_tasks_pending_revocation: Vec<TaskIds>,
    /// The warmup tasks that must be revoked by this member.
    ///
    /// Versions 0+.
    pub warmup_tasks_pending_revocation: Vec<TaskIds>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for StreamsGroupCurrentMemberAssignmentValue {
    fn default() -> Self {
        StreamsGroupCurrentMemberAssignmentValue {
            member_epoch: 0,
            previous_member_epoch: 0,
            state: 0,
            active_tasks: Vec::<TaskIds>::new(),
            standby_tasks: Vec::<TaskIds>::new(),
            warmup_tasks: Vec::<TaskIds>::new(),
            active_tasks_pending_revocation: Vec::<TaskIds>::new(),
            standby_tasks_pending_revocation: Vec::<TaskIds>::new(),
            warmup_tasks_pending_revocation: Vec::<TaskIds>::new(),
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl StreamsGroupCurrentMemberAssignmentValue {
    /// The message name.
    pub const NAME: &'static str = "StreamsGroupCurrentMemberAssignmentValue";
    /// The lowest version.
    pub const MIN_VERSION: i16 = 0;
    /// The highest version.
    pub const MAX_VERSION: i16 = 0;
    /// The first flexible version, if any.
    pub const FIRST_FLEXIBLE_VERSION: Option<i16> = Some(0);

    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        if !(0..=0).contains(&version) { return Err(EncodeError::UnsupportedVersion { message: "StreamsGroupCurrentMemberAssignmentValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        w.put_i32(*(&self.member_epoch));
        w.put_i32(*(&self.previous_member_epoch));
        w.put_i8(*(&self.state));
        write_len_prefix(w, (&self.active_tasks).len(), flexible)?; for e0 in (&self.active_tasks).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.standby_tasks).len(), flexible)?; for e0 in (&self.standby_tasks).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.warmup_tasks).len(), flexible)?; for e0 in (&self.warmup_tasks).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.active_tasks_pending_revocation).len(), flexible)?; for e0 in (&self.active_tasks_pending_revocation).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.standby_tasks_pending_revocation).len(), flexible)?; for e0 in (&self.standby_tasks_pending_revocation).iter() { e0.encode(w, version)?; }
        write_len_prefix(w, (&self.warmup_tasks_pending_revocation).len(), flexible)?; for e0 in (&self.warmup_tasks_pending_revocation).iter() { e0.encode(w, version)?; }
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
        n += 4;
        n += 4;
        n += 1;
        n += len_prefix_len((&self.active_tasks).len(), flexible) + (&self.active_tasks).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.standby_tasks).len(), flexible) + (&self.standby_tasks).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.warmup_tasks).len(), flexible) + (&self.warmup_tasks).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.active_tasks_pending_revocation).len(), flexible) + (&self.active_tasks_pending_revocation).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.standby_tasks_pending_revocation).len(), flexible) + (&self.standby_tasks_pending_revocation).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        n += len_prefix_len((&self.warmup_tasks_pending_revocation).len(), flexible) + (&self.warmup_tasks_pending_revocation).iter().map(|e0| e0.encoded_len(version)).sum::<usize>();
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            n += uvarint_len(count as u32);
        }
        n
    }

    /// Reads a value written at `version`. Large byte fields share `buf` (no copy).
    pub fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        if !(0..=0).contains(&version) { return Err(DecodeError::UnsupportedVersion { message: "StreamsGroupCurrentMemberAssignmentValue", version }); }
        #[allow(unused_variables)]
        let flexible = true;
        #[allow(unused_mut)]
        let mut v = Self::default();
        v.member_epoch = read_i32(buf)?;
        v.previous_member_epoch = read_i32(buf)?;
        v.state = read_i8(buf)?;
        v.active_tasks = { let n = read_array_len_non_null(buf, flexible, "ActiveTasks")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TaskIds::decode(buf, version)?); } v };
        v.standby_tasks = { let n = read_array_len_non_null(buf, flexible, "StandbyTasks")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TaskIds::decode(buf, version)?); } v };
        v.warmup_tasks = { let n = read_array_len_non_null(buf, flexible, "WarmupTasks")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TaskIds::decode(buf, version)?); } v };
        v.active_tasks_pending_revocation = { let n = read_array_len_non_null(buf, flexible, "ActiveTasksPendingRevocation")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TaskIds::decode(buf, version)?); } v };
        v.standby_tasks_pending_revocation = { let n = read_array_len_non_null(buf, flexible, "StandbyTasksPendingRevocation")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TaskIds::decode(buf, version)?); } v };
        v.warmup_tasks_pending_revocation = { let n = read_array_len_non_null(buf, flexible, "WarmupTasksPendingRevocation")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(TaskIds::decode(buf, version)?); } v };
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
        v.member_epoch = g.i32();
        v.previous_member_epoch = g.i32();
        v.state = g.i8();
        v.active_tasks = (0..g.collection_len()).map(|_| TaskIds::sample(g, version)).collect();
        v.standby_tasks = (0..g.collection_len()).map(|_| TaskIds::sample(g, version)).collect();
        v.warmup_tasks = (0..g.collection_len()).map(|_| TaskIds::sample(g, version)).collect();
        v.active_tasks_pending_revocation = (0..g.collection_len()).map(|_| TaskIds::sample(g, version)).collect();
        v.standby_tasks_pending_revocation = (0..g.collection_len()).map(|_| TaskIds::sample(g, version)).collect();
        v.warmup_tasks_pending_revocation = (0..g.collection_len()).map(|_| TaskIds::sample(g, version)).collect();
        if flexible { v.unknown_tagged_fields = g.unknown_tagged_fields(); }
        v
    }

    /// Calls `f` with every error code the value carries, its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_error_code(&self, f: &mut dyn FnMut(i16)) {
        for x in &self.active_tasks { x.each_error_code(f); }
        for x in &self.standby_tasks { x.each_error_code(f); }
        for x in &self.warmup_tasks { x.each_error_code(f); }
        for x in &self.active_tasks_pending_revocation { x.each_error_code(f); }
        for x in &self.standby_tasks_pending_revocation { x.each_error_code(f); }
        for x in &self.warmup_tasks_pending_revocation { x.each_error_code(f); }
    }

    /// Calls `f` with every nullable string field `version` carries (its spec name and
    /// value), its own and its parts'.
    #[allow(unused_variables)]
    pub fn each_nullable_string(&mut self, version: i16, f: &mut dyn FnMut(&'static str, &mut Option<String>)) {
        for x in &mut self.active_tasks { x.each_nullable_string(version, f); }
        for x in &mut self.standby_tasks { x.each_nullable_string(version, f); }
        for x in &mut self.warmup_tasks { x.each_nullable_string(version, f); }
        for x in &mut self.active_tasks_pending_revocation { x.each_nullable_string(version, f); }
        for x in &mut self.standby_tasks_pending_revocation { x.each_nullable_string(version, f); }
        for x in &mut self.warmup_tasks_pending_revocation { x.each_nullable_string(version, f); }
    }
}

/// The common struct `TaskIds`.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskIds {
    /// The subtopology ID.
    ///
    /// Versions 0+.
    pub subtopology_id: String,
    /// The partitions of the input topics processed by this member.
    ///
    /// Versions 0+.
    pub partitions: Vec<i32>,
    /// The epoch at which the partition was assigned to the member. Used to fence zombie commits requests. Of the same length as Partitions. Only defined for active tasks.
    ///
    /// Versions 0+; nullable 0+; tag 0 in 0+.
    pub assignment_epochs: Option<Vec<i32>>,
    /// Tagged fields this build does not know, kept to be written back.
    pub unknown_tagged_fields: Vec<RawTaggedField>,
}

impl Default for TaskIds {
    fn default() -> Self {
        TaskIds {
            subtopology_id: String::new(),
            partitions: Vec::<i32>::new(),
            assignment_epochs: None,
            unknown_tagged_fields: Vec::new(),
        }
    }
}

impl TaskIds {
    /// Writes this value at `version`.
    pub fn encode<W: Writer + ?Sized>(&self, w: &mut W, version: i16) -> Result<(), EncodeError> {
        #[allow(unused_variables)]
        let flexible = true;
        write_string(w, (&self.subtopology_id), flexible)?;
        write_len_prefix(w, (&self.partitions).len(), flexible)?; for e0 in (&self.partitions).iter() { w.put_i32(*e0); }
        if !((false) || (true)) { if self.assignment_epochs != None { return Err(EncodeError::FieldNotInVersion { field: "AssignmentEpochs", version }); } }
        if flexible {
            let unknown = sorted_unknown(&self.unknown_tagged_fields);
            #[allow(unused_mut)]
            let mut count = unknown.len();
            if true && self.assignment_epochs != None { count += 1; }
            write_uvarint(w, count as u32);
            #[allow(unused_mut)]
            let mut rest = unknown.as_slice();
            while let Some((f, tail)) = rest.split_first() { if f.tag >= 0 { break; } write_raw_tagged(w, f); rest = tail; }
            if true && self.assignment_epochs != None { write_uvarint(w, 0); write_uvarint(w, (match (&self.assignment_epochs) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }) as u32); match (&self.assignment_epochs) { Some(x) => { write_len_prefix(w, x.len(), true)?; for e0 in x.iter() { w.put_i32(*e0); } } None => { write_null(w, true); } } }
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
        n += string_len((&self.subtopology_id), flexible);
        n += len_prefix_len((&self.partitions).len(), flexible) + (&self.partitions).len() * 4;
        if flexible {
            let mut count = self.unknown_tagged_fields.len();
            n += self.unknown_tagged_fields.iter().map(raw_tagged_len).sum::<usize>();
            if true && self.assignment_epochs != None { count += 1; let s = match (&self.assignment_epochs) { Some(x) => len_prefix_len(x.len(), true) + x.len() * 4, None => null_len(true) }; n += uvarint_len(0) + uvarint_len(s as u32) + s; }
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
        v.subtopology_id = read_string(buf, flexible, "SubtopologyId")?;
        v.partitions = { let n = read_array_len_non_null(buf, flexible, "Partitions")?; let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } v };
        if flexible {
            let count = read_tagged_count(buf)?;
            let mut last_tag = None;
            for _ in 0..count {
                let (tag, mut field) = read_tagged_field(buf, &mut last_tag)?;
                match tag {
                    0 => { let buf = &mut field; v.assignment_epochs = match read_array_len(buf, true)? { None => None, Some(n) => { let mut v = Vec::with_capacity(n.min(MAX_PREALLOCATED_ELEMENTS)); for _ in 0..n { v.push(read_i32(buf)?); } Some(v) } }; finish_tagged_field(buf, 0)?; }
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
        v.subtopology_id = g.string();
        v.partitions = (0..g.collection_len()).map(|_| g.i32()).collect();
        if (true) && g.bool() { v.assignment_epochs = if (true) && g.chance(4) { None } else { Some((0..g.collection_len()).map(|_| g.i32()).collect()) }; }
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
