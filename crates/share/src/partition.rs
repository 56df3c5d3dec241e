//! A share-partition's delivery state on the partition's leader (Kafka's `SharePartition`):
//! every offset from the share-partition start offset (SPSO) to the end offset (SPEO) is
//! available, acquired by one member until its lock expires, acknowledged, being sent to the
//! dead-letter queue (archiving), or archived.
//!
//! Rules (KIP-932, KIP-1191):
//! - A fetch acquires available records and new ones from the log, at most
//!   [`PartitionConfig::max_in_flight`] between start and end; each acquisition counts a
//!   delivery. Acquiring is not persisted (as in Kafka).
//! - Only the member holding a record's lock may acknowledge it, before the lock expires.
//!   Accept acknowledges; release makes it available again; reject and gap archive it; renew
//!   extends the lock.
//! - A record released or whose lock expires is archived instead of made available once it has
//!   been delivered [`PartitionConfig::max_delivery_count`] times.
//! - A record archived by rejection or by the delivery limit goes first to the dead-letter
//!   queue when the group has one: the driver writes it there and reports with
//!   [`SharePartition::dead_lettered`], and only then is the record archived.
//! - Every change that must survive the leader (acknowledged, released, archived, the start
//!   offset) goes out as a [`Write`] for the share coordinator and stays pending, untouchable,
//!   until [`SharePartition::write_done`] says whether it landed; a refused write rolls its
//!   changes back. An acknowledgement's [`Ticket`] completes only when all its writes (and
//!   dead-letter jobs) have landed, so success is answered only for what is durable. A write
//!   whose answer is lost is sent again by the driver (writes are idempotent).
//! - The start offset moves over acknowledged and archived records whose writes landed.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::sync::Arc;

use crate::state::{PersistedState, StateBatch, ACKNOWLEDGED, ARCHIVED, AVAILABLE};

/// A share-partition error, with its Kafka error code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShareError {
    /// INVALID_RECORD_STATE (121): the records are not acquired by this member.
    #[error("{0}")]
    InvalidRecordState(String),
    /// INVALID_REQUEST (42): a malformed acknowledgement.
    #[error("{0}")]
    InvalidRequest(String),
    /// FENCED_STATE_EPOCH (124): the state was initialised again since.
    #[error("{0}")]
    FencedStateEpoch(String),
    /// FENCED_LEADER_EPOCH (74): a newer leader has read or written the state.
    #[error("{0}")]
    FencedLeaderEpoch(String),
}

impl ShareError {
    /// The Kafka error code.
    pub fn code(&self) -> i16 {
        match self {
            ShareError::InvalidRecordState(_) => 121,
            ShareError::InvalidRequest(_) => 42,
            ShareError::FencedStateEpoch(_) => 124,
            ShareError::FencedLeaderEpoch(_) => 74,
        }
    }
}

/// A record's delivery state (Kafka's `RecordState` ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum RecordState {
    /// May be acquired.
    Available = 0,
    /// Held by one member until its lock expires.
    Acquired = 1,
    /// Acknowledged: never delivered again.
    Acknowledged = 2,
    /// Being written to the dead-letter queue before it is archived.
    Archiving = 3,
    /// Archived: never delivered again.
    Archived = 4,
}

impl RecordState {
    /// Whether delivery of the record is over.
    pub fn is_terminal(self) -> bool {
        matches!(self, RecordState::Acknowledged | RecordState::Archived)
    }
}

/// An acknowledgement type (ShareFetch/ShareAcknowledge `AcknowledgeTypes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckType {
    /// 0: the offset is not a record the client received (a gap); archived.
    Gap,
    /// 1: processed; acknowledged.
    Accept,
    /// 2: not processed; available again.
    Release,
    /// 3: unprocessable; archived (and dead-lettered).
    Reject,
    /// 4: still being processed; the lock is extended.
    Renew,
}

impl AckType {
    /// The type with wire id `id`.
    pub fn from_id(id: i8) -> Option<AckType> {
        Some(match id {
            0 => AckType::Gap,
            1 => AckType::Accept,
            2 => AckType::Release,
            3 => AckType::Reject,
            4 => AckType::Renew,
            _ => return None,
        })
    }
}

/// The limits one share-partition works within (the group's configs).
#[derive(Clone, Debug)]
pub struct PartitionConfig {
    /// `share.delivery.count.limit`: deliveries before a record is archived.
    pub max_delivery_count: u16,
    /// `share.record.lock.duration.ms`: how long an acquisition lasts.
    pub lock_duration_ms: u64,
    /// `share.partition.max.record.locks`: the most records between start and end.
    pub max_in_flight: usize,
    /// Whether the group has a dead-letter queue topic.
    pub dead_letter: bool,
}

impl Default for PartitionConfig {
    fn default() -> Self {
        PartitionConfig {
            max_delivery_count: 5,
            lock_duration_ms: 30_000,
            max_in_flight: 2_000,
            dead_letter: false,
        }
    }
}

/// A batch of the log as a fetch read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogBatch {
    /// The batch's first offset.
    pub first: i64,
    /// The batch's last offset.
    pub last: i64,
    /// Whether it must not be delivered (a control batch, or an aborted transaction's batch
    /// under read_committed): its offsets are archived as they are reached.
    pub skip: bool,
}

/// Offsets `first..=last` acquired with delivery count `delivery_count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Acquired {
    /// The first offset.
    pub first: i64,
    /// The last offset.
    pub last: i64,
    /// How many times they have now been delivered.
    pub delivery_count: u16,
}

/// One acknowledgement batch: a type for the whole range, or one per offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AckBatch {
    /// The first offset.
    pub first: i64,
    /// The last offset.
    pub last: i64,
    /// One type for all, or one per offset.
    pub types: Vec<AckType>,
}

/// A state write for the share coordinator (WriteShareGroupState for one partition).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Write {
    /// Which write this is, for [`SharePartition::write_done`].
    pub id: u64,
    /// The state epoch the leader read.
    pub state_epoch: i32,
    /// The leader's epoch.
    pub leader_epoch: i32,
    /// The new start offset, or -1 when it does not move.
    pub start_offset: i64,
    /// The changed offsets' states.
    pub batches: Vec<StateBatch>,
}

/// Records the driver must write to the dead-letter queue, then report with
/// [`SharePartition::dead_lettered`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadLetter {
    /// Which job this is.
    pub id: u64,
    /// The first offset.
    pub first: i64,
    /// The last offset.
    pub last: i64,
    /// How many times the records were delivered.
    pub delivery_count: u16,
    /// Whether a consumer rejected them (otherwise they ran out of deliveries).
    pub rejected: bool,
}

/// An acknowledgement in progress; it completes when all its writes and dead-letter jobs do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ticket(pub u64);

/// What a change produced: writes and dead-letter jobs for the driver.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// Writes to send to the share coordinator.
    pub writes: Vec<Write>,
    /// Records to write to the dead-letter queue.
    pub dead_letters: Vec<DeadLetter>,
    /// Tickets completed: (ticket, whether everything landed).
    pub completed: Vec<(Ticket, bool)>,
}

impl Effects {
    fn absorb(&mut self, other: Effects) {
        self.writes.extend(other.writes);
        self.dead_letters.extend(other.dead_letters);
        self.completed.extend(other.completed);
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Rec {
    state: RecordState,
    count: u16,
    member: Option<Arc<str>>,
    deadline: u64,
    /// The write or dead-letter job the record's last change waits for.
    pending: Option<u64>,
    /// The state and count the share coordinator holds (as far as landed writes say).
    durable: (u8, u16),
}

impl Rec {
    fn fresh() -> Rec {
        Rec {
            state: RecordState::Available,
            count: 0,
            member: None,
            deadline: 0,
            pending: None,
            durable: (AVAILABLE, 0),
        }
    }

    fn acquired_by(&self, member: &str, now: u64) -> bool {
        self.state == RecordState::Acquired
            && self.pending.is_none()
            && now < self.deadline
            && self.member.as_deref() == Some(member)
    }
}

#[derive(Debug)]
struct Job {
    ticket: Option<Ticket>,
    /// The records changed and their state before, to roll back.
    undo: Vec<(i64, Rec)>,
}

/// A run of records bound for the dead-letter queue together.
struct Letter {
    first: i64,
    last: i64,
    count: u16,
    rejected: bool,
    undo: Vec<(i64, Rec)>,
}

#[derive(Debug, Default)]
struct TicketState {
    remaining: usize,
    failed: bool,
}

/// One share-partition's delivery state on its leader.
#[derive(Debug)]
pub struct SharePartition {
    cfg: PartitionConfig,
    state_epoch: i32,
    leader_epoch: i32,
    start: i64,
    /// Offsets `start..start + recs.len()`.
    recs: VecDeque<Rec>,
    next_id: u64,
    jobs: BTreeMap<u64, Job>,
    tickets: BTreeMap<Ticket, TicketState>,
}

/// How a change moves one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Acknowledge,
    /// Available again, or archived (dead-lettered) when out of deliveries.
    Release,
    /// Archived, dead-lettered when the group has a queue (`rejected`: by a consumer).
    Archive {
        dead_letter: bool,
        rejected: bool,
    },
}

impl SharePartition {
    /// A leader at `leader_epoch` starting from the state the share coordinator read back.
    /// Records acquired before are available again, with the delivery counts written last.
    pub fn load(cfg: PartitionConfig, leader_epoch: i32, state: &PersistedState) -> SharePartition {
        let state = state.normalized();
        let mut p = SharePartition {
            cfg,
            state_epoch: state.state_epoch,
            leader_epoch,
            start: state.start_offset,
            recs: VecDeque::new(),
            next_id: 1,
            jobs: BTreeMap::new(),
            tickets: BTreeMap::new(),
        };
        for b in &state.batches {
            while p.end() < b.first_offset {
                p.recs.push_back(Rec::fresh());
            }
            for _ in b.first_offset..=b.last_offset {
                let mut r = Rec::fresh();
                r.state = match b.delivery_state {
                    ACKNOWLEDGED => RecordState::Acknowledged,
                    ARCHIVED => RecordState::Archived,
                    _ => RecordState::Available,
                };
                r.count = b.delivery_count;
                r.durable = (b.delivery_state, b.delivery_count);
                p.recs.push_back(r);
            }
        }
        p.advance_start();
        p
    }

    /// The share-partition start offset.
    pub fn start_offset(&self) -> i64 {
        self.start
    }

    /// The end offset: the next offset never acquired.
    pub fn end(&self) -> i64 {
        self.start + self.recs.len() as i64
    }

    /// The leader epoch.
    pub fn leader_epoch(&self) -> i32 {
        self.leader_epoch
    }

    /// The state epoch read at load.
    pub fn state_epoch(&self) -> i32 {
        self.state_epoch
    }

    /// The state of `offset` (None outside start..end).
    pub fn state_of(&self, offset: i64) -> Option<(RecordState, u16)> {
        self.rec(offset).map(|r| (r.state, r.count))
    }

    /// How many writes and dead-letter jobs are outstanding.
    pub fn outstanding(&self) -> usize {
        self.jobs.len()
    }

    /// How many records are acquired now.
    pub fn acquired_count(&self) -> usize {
        self.recs
            .iter()
            .filter(|r| r.state == RecordState::Acquired)
            .count()
    }

    /// The offset a fetch should read from: the first record that can be acquired.
    pub fn next_fetch_offset(&self) -> i64 {
        self.recs
            .iter()
            .position(|r| r.state == RecordState::Available && r.pending.is_none())
            .map_or(self.end(), |i| self.start + i as i64)
    }

    /// The earliest lock deadline of an acquired record (when [`SharePartition::expire`] has
    /// work).
    pub fn next_deadline(&self) -> Option<u64> {
        self.recs
            .iter()
            .filter(|r| r.state == RecordState::Acquired && r.pending.is_none())
            .map(|r| r.deadline)
            .min()
    }

    fn rec(&self, offset: i64) -> Option<&Rec> {
        let i = usize::try_from(offset.checked_sub(self.start)?).ok()?;
        self.recs.get(i)
    }

    fn rec_mut(&mut self, offset: i64) -> Option<&mut Rec> {
        let i = usize::try_from(offset.checked_sub(self.start)?).ok()?;
        self.recs.get_mut(i)
    }

    /// Acquires for `member` up to about `max_records` records from `batches`, the log read
    /// from [`SharePartition::next_fetch_offset`] (only committed data: below the high
    /// watermark, or the last stable offset under read_committed). With `strict`, never more
    /// than `max_records` (Kafka's record-limit mode); otherwise whole batches (batch-optimised
    /// mode), within the in-flight limit. Offsets the log no longer has, and skipped batches,
    /// are archived as they are passed, which the returned effects write.
    pub fn acquire(
        &mut self,
        member: &str,
        now: u64,
        batches: &[LogBatch],
        max_records: usize,
        strict: bool,
    ) -> (Vec<Acquired>, Effects) {
        let member: Arc<str> = Arc::from(member);
        let mut got: Vec<Acquired> = Vec::new();
        let mut taken = 0usize;
        let mut gaps: Vec<(i64, Target)> = Vec::new();
        let deadline = now + self.cfg.lock_duration_ms;
        let mut prev_last: Option<i64> = None;
        let mut cursor = self.next_fetch_offset();
        'batches: for b in batches {
            if b.last < b.first || prev_last.is_some_and(|l| b.first <= l) {
                break; // not a log read in order
            }
            prev_last = Some(b.last);
            if taken >= max_records.max(1) {
                break;
            }
            // Offsets the log does not have (compacted away) between the read's start, or
            // the batch before, and this batch.
            for o in cursor.max(self.start)..b.first {
                if o >= self.end() {
                    if self.recs.len() >= self.cfg.max_in_flight {
                        break 'batches;
                    }
                    self.recs.push_back(Rec::fresh());
                }
                if self
                    .rec(o)
                    .is_some_and(|r| r.state == RecordState::Available && r.pending.is_none())
                {
                    gaps.push((
                        o,
                        Target::Archive {
                            dead_letter: false,
                            rejected: false,
                        },
                    ));
                }
            }
            cursor = b.last + 1;
            for o in b.first.max(self.start)..=b.last {
                if strict && taken >= max_records.max(1) {
                    break 'batches;
                }
                if o >= self.end() {
                    if self.recs.len() >= self.cfg.max_in_flight {
                        break 'batches;
                    }
                    self.recs.push_back(Rec::fresh());
                }
                let Some(r) = self.rec_mut(o) else { continue };
                if r.state != RecordState::Available || r.pending.is_some() {
                    continue;
                }
                if b.skip {
                    gaps.push((
                        o,
                        Target::Archive {
                            dead_letter: false,
                            rejected: false,
                        },
                    ));
                    continue;
                }
                r.state = RecordState::Acquired;
                r.count = r.count.saturating_add(1);
                r.member = Some(member.clone());
                r.deadline = deadline;
                let count = r.count;
                taken += 1;
                match got.last_mut() {
                    Some(a) if a.last + 1 == o && a.delivery_count == count => a.last = o,
                    _ => got.push(Acquired {
                        first: o,
                        last: o,
                        delivery_count: count,
                    }),
                }
            }
        }
        let effects = self.change(&gaps, None);
        (got, effects)
    }

    /// Applies `member`'s acknowledgements at `now`. Nothing changes unless every batch is
    /// valid: each offset between start and end, acquired by `member`, lock unexpired.
    /// Returns the ticket that completes when the changes are durable (at once when there is
    /// nothing to write).
    pub fn acknowledge(
        &mut self,
        member: &str,
        now: u64,
        acks: &[AckBatch],
    ) -> Result<(Ticket, Effects), ShareError> {
        let mut moves: Vec<(i64, Target)> = Vec::new();
        let mut renews: Vec<i64> = Vec::new();
        let mut seen: HashSet<i64> = HashSet::new();
        for a in acks {
            let len = a.last.checked_sub(a.first).map(|d| d + 1).unwrap_or(0);
            if len <= 0 {
                return Err(ShareError::InvalidRequest(format!(
                    "acknowledgement batch {}-{} is empty",
                    a.first, a.last
                )));
            }
            if a.types.len() != 1 && a.types.len() as i64 != len {
                return Err(ShareError::InvalidRequest(format!(
                    "acknowledgement batch {}-{} has {} types",
                    a.first,
                    a.last,
                    a.types.len()
                )));
            }
            if len > self.cfg.max_in_flight as i64 {
                return Err(ShareError::InvalidRecordState(format!(
                    "acknowledgement batch {}-{} spans more records than can be in flight",
                    a.first, a.last
                )));
            }
            for (i, o) in (a.first..=a.last).enumerate() {
                let t = if a.types.len() == 1 {
                    a.types[0]
                } else {
                    a.types[i]
                };
                let ok = self.rec(o).is_some_and(|r| r.acquired_by(member, now));
                if !ok {
                    return Err(ShareError::InvalidRecordState(format!(
                        "offset {o} is not acquired by member {member}"
                    )));
                }
                if !seen.insert(o) {
                    return Err(ShareError::InvalidRequest(format!(
                        "offset {o} is acknowledged twice"
                    )));
                }
                match t {
                    AckType::Renew => renews.push(o),
                    AckType::Accept => moves.push((o, Target::Acknowledge)),
                    AckType::Release => moves.push((o, Target::Release)),
                    AckType::Reject => moves.push((
                        o,
                        Target::Archive {
                            dead_letter: self.cfg.dead_letter,
                            rejected: true,
                        },
                    )),
                    AckType::Gap => moves.push((
                        o,
                        Target::Archive {
                            dead_letter: false,
                            rejected: false,
                        },
                    )),
                }
            }
        }
        let deadline = now + self.cfg.lock_duration_ms;
        for o in renews {
            if let Some(r) = self.rec_mut(o) {
                r.deadline = deadline;
            }
        }
        let ticket = Ticket(self.take_id());
        self.tickets.insert(ticket, TicketState::default());
        let mut effects = self.change(&moves, Some(ticket));
        effects.completed.extend(self.maybe_complete(ticket));
        Ok((ticket, effects))
    }

    /// Releases every record `member` holds (it left the group).
    pub fn release_member(&mut self, member: &str) -> Effects {
        let moves: Vec<(i64, Target)> = self
            .recs
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                r.state == RecordState::Acquired
                    && r.pending.is_none()
                    && r.member.as_deref() == Some(member)
            })
            .map(|(i, _)| (self.start + i as i64, Target::Release))
            .collect();
        self.change(&moves, None)
    }

    /// Ends the locks that expired by `now`: those records are available again, or archived
    /// when out of deliveries. Records already in the dead-letter queue whose archive write
    /// was refused are written again.
    pub fn expire(&mut self, now: u64) -> Effects {
        let mut moves: Vec<(i64, Target)> = Vec::new();
        for (i, r) in self.recs.iter().enumerate() {
            if r.pending.is_some() {
                continue;
            }
            let o = self.start + i as i64;
            if r.state == RecordState::Acquired && r.deadline <= now {
                moves.push((o, Target::Release));
            } else if r.state == RecordState::Archiving {
                moves.push((
                    o,
                    Target::Archive {
                        dead_letter: false,
                        rejected: false,
                    },
                ));
            }
        }
        self.change(&moves, None)
    }

    /// Moves the records in `moves`, pending on one write (and dead-letter jobs for records
    /// that go to the queue).
    fn change(&mut self, moves: &[(i64, Target)], ticket: Option<Ticket>) -> Effects {
        let mut effects = Effects::default();
        if moves.is_empty() {
            return effects;
        }
        let write_id = self.take_id();
        let mut undo = Vec::new();
        let mut letters: Vec<Letter> = Vec::new();
        let max = self.cfg.max_delivery_count;
        let dlq = self.cfg.dead_letter;
        for &(o, target) in moves {
            let Some(r) = self.rec_mut(o) else { continue };
            let before = r.clone();
            let target = match target {
                Target::Release if r.count >= max => Target::Archive {
                    dead_letter: dlq,
                    rejected: false,
                },
                t => t,
            };
            r.member = None;
            r.deadline = 0;
            match target {
                Target::Acknowledge => r.state = RecordState::Acknowledged,
                Target::Release => r.state = RecordState::Available,
                Target::Archive {
                    dead_letter: false, ..
                } => r.state = RecordState::Archived,
                Target::Archive {
                    dead_letter: true,
                    rejected,
                } => {
                    r.state = RecordState::Archiving;
                    let count = r.count;
                    match letters.last_mut() {
                        Some(l)
                            if l.last + 1 == o && l.count == count && l.rejected == rejected =>
                        {
                            l.last = o;
                            l.undo.push((o, before));
                        }
                        _ => letters.push(Letter {
                            first: o,
                            last: o,
                            count,
                            rejected,
                            undo: vec![(o, before)],
                        }),
                    }
                    continue;
                }
            }
            r.pending = Some(write_id);
            undo.push((o, before));
        }
        for Letter {
            first,
            last,
            count: delivery_count,
            rejected,
            undo,
        } in letters
        {
            let id = self.take_id();
            for (o, _) in &undo {
                if let Some(r) = self.rec_mut(*o) {
                    r.pending = Some(id);
                }
            }
            self.jobs.insert(id, Job { ticket, undo });
            if let Some(t) = ticket.and_then(|t| self.tickets.get_mut(&t)) {
                t.remaining += 1;
            }
            effects.dead_letters.push(DeadLetter {
                id,
                first,
                last,
                delivery_count,
                rejected,
            });
        }
        if !undo.is_empty() {
            let offsets: Vec<i64> = undo.iter().map(|(o, _)| *o).collect();
            effects.writes.push(self.write_for(write_id, &offsets));
            self.jobs.insert(write_id, Job { ticket, undo });
            if let Some(t) = ticket.and_then(|t| self.tickets.get_mut(&t)) {
                t.remaining += 1;
            }
        }
        effects
    }

    /// The write carrying `offsets`' new states (pending on `id`), and the start offset if the
    /// records at the start are done once it lands.
    fn write_for(&self, id: u64, offsets: &[i64]) -> Write {
        let mut batches: Vec<StateBatch> = Vec::new();
        for &o in offsets {
            let Some(r) = self.rec(o) else { continue };
            let state = match r.state {
                RecordState::Acknowledged => ACKNOWLEDGED,
                RecordState::Archived => ARCHIVED,
                _ => AVAILABLE,
            };
            match batches.last_mut() {
                Some(b)
                    if b.last_offset + 1 == o
                        && b.delivery_state == state
                        && b.delivery_count == r.count =>
                {
                    b.last_offset = o
                }
                _ => batches.push(StateBatch {
                    first_offset: o,
                    last_offset: o,
                    delivery_state: state,
                    delivery_count: r.count,
                }),
            }
        }
        let done = self
            .recs
            .iter()
            .take_while(|r| r.state.is_terminal() && (r.pending.is_none() || r.pending == Some(id)))
            .count();
        Write {
            id,
            state_epoch: self.state_epoch,
            leader_epoch: self.leader_epoch,
            start_offset: if done > 0 {
                self.start + done as i64
            } else {
                -1
            },
            batches,
        }
    }

    /// The share coordinator answered write `id`: `landed` (it is durable) or refused (its
    /// changes are rolled back).
    pub fn write_done(&mut self, id: u64, landed: bool) -> Effects {
        let Some(job) = self.jobs.remove(&id) else {
            return Effects::default();
        };
        for (o, before) in &job.undo {
            let Some(r) = self.rec_mut(*o) else { continue };
            if r.pending != Some(id) {
                continue;
            }
            if landed {
                r.pending = None;
                let state = match r.state {
                    RecordState::Acknowledged => ACKNOWLEDGED,
                    RecordState::Archived => ARCHIVED,
                    _ => AVAILABLE,
                };
                r.durable = (state, r.count);
            } else {
                *r = before.clone();
            }
        }
        if landed {
            self.advance_start();
        }
        let mut effects = Effects::default();
        if let Some(t) = job.ticket {
            if let Some(ts) = self.tickets.get_mut(&t) {
                ts.remaining = ts.remaining.saturating_sub(1);
                ts.failed |= !landed;
            }
            effects.completed.extend(self.maybe_complete(t));
        }
        effects
    }

    /// The driver wrote dead-letter job `id` to the queue (`written`), or could not (its
    /// records go back to where they were, to be tried again).
    pub fn dead_lettered(&mut self, id: u64, written: bool) -> Effects {
        let Some(job) = self.jobs.remove(&id) else {
            return Effects::default();
        };
        let mut effects = Effects::default();
        if written {
            let moves: Vec<(i64, Target)> = job
                .undo
                .iter()
                .filter(|(o, _)| self.rec(*o).is_some_and(|r| r.pending == Some(id)))
                .map(|(o, _)| {
                    (
                        *o,
                        Target::Archive {
                            dead_letter: false,
                            rejected: false,
                        },
                    )
                })
                .collect();
            // The archive write replaces the job in the ticket's count; its undo goes back to
            // the state before the dead-letter job, so a refused write tries again.
            for (o, _) in &moves {
                if let Some(r) = self.rec_mut(*o) {
                    r.pending = None;
                }
            }
            // Once in the queue, a record is never delivered again: a refused archive write
            // leaves it archiving (not pending), and the next sweep writes it again.
            effects.absorb(self.change(&moves, job.ticket));
        } else {
            for (o, before) in &job.undo {
                if let Some(r) = self.rec_mut(*o) {
                    if r.pending == Some(id) {
                        *r = before.clone();
                    }
                }
            }
        }
        if let Some(t) = job.ticket {
            if let Some(ts) = self.tickets.get_mut(&t) {
                ts.remaining = ts.remaining.saturating_sub(1);
                ts.failed |= !written;
            }
            effects.completed.extend(self.maybe_complete(t));
        }
        effects
    }

    fn maybe_complete(&mut self, t: Ticket) -> Option<(Ticket, bool)> {
        let done = self.tickets.get(&t).is_some_and(|s| s.remaining == 0);
        if !done {
            return None;
        }
        let s = self.tickets.remove(&t)?;
        Some((t, !s.failed))
    }

    fn take_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    fn advance_start(&mut self) {
        while self
            .recs
            .front()
            .is_some_and(|r| r.state.is_terminal() && r.pending.is_none())
        {
            self.recs.pop_front();
            self.start += 1;
        }
    }

    /// What the share coordinator holds according to the writes that landed (compare with a
    /// read once nothing is outstanding).
    pub fn durable_view(&self) -> PersistedState {
        let mut batches = Vec::new();
        for (i, r) in self.recs.iter().enumerate() {
            let o = self.start + i as i64;
            batches.push(StateBatch {
                first_offset: o,
                last_offset: o,
                delivery_state: r.durable.0,
                delivery_count: r.durable.1,
            });
        }
        PersistedState {
            state_epoch: self.state_epoch,
            leader_epoch: self.leader_epoch,
            start_offset: self.start,
            batches,
        }
        .normalized()
    }
}
