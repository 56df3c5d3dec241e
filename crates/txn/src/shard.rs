//! One `__transaction_state` partition's coordinator: its transactional ids, the deadlines
//! that abort timed-out transactions and remove expired ids, and the output contract. A call
//! returns an [`Output`] (the records to append and the marker jobs to start once they are
//! committed) with its answer, which goes to the client only once the records are committed.
//! The state already reflects the records; if the driver cannot commit them it must drop the
//! shard and load it again from the log. The transitions and their errors are Kafka's
//! (`TransactionCoordinator`): transaction version 1, and version 2 (KIP-890 part 2), where
//! every end bumps the producer epoch (a new producer id when the epoch runs out), the
//! answer carries the new id and epoch, and an end is told from its retry by the epoch.

use crate::config::{TxnConfig, MAX_TRANSACTIONAL_IDS_PER_SHARD};
use crate::records::TxnRecord;
use crate::state::{TxnMetadata, TxnState};
use fjord_protocol::ErrorCode;
use std::collections::HashMap;

/// Identifies a request (kept for drivers that route replies by token).
pub type Token = u64;

/// Markers to write for one ended transaction: to every partition in it, then report with
/// [`Shard::markers_written`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkerJob {
    /// The transactional id.
    pub transactional_id: String,
    /// The producer.
    pub producer_id: i64,
    /// Its epoch, written in the markers.
    pub producer_epoch: i16,
    /// Commit or abort.
    pub commit: bool,
    /// This coordinator's epoch (the partition's leader epoch).
    pub coordinator_epoch: i32,
    /// The partitions, by topic name.
    pub partitions: Vec<(String, i32)>,
    /// The transaction version of the markers (WriteTxnMarkers v2's TransactionVersion).
    pub transaction_version: i8,
}

/// What a call produced.
#[derive(Debug, Default)]
pub struct Output {
    /// Records to append to the shard's partition.
    pub records: Vec<TxnRecord>,
    /// Marker jobs to start once `records` are committed.
    pub markers: Vec<MarkerJob>,
}

impl Output {
    fn record(&mut self, m: &TxnMetadata) {
        self.records.push(TxnRecord {
            transactional_id: m.transactional_id.clone(),
            value: Some(m.clone()),
        });
    }
}

/// What an InitProducerId asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitRequest {
    /// The transactional id.
    pub transactional_id: String,
    /// `transaction.timeout.ms`.
    pub timeout_ms: i32,
    /// The producer id and epoch the producer had (KIP-360), if any.
    pub expected: Option<(i64, i16)>,
}

/// What an EndTxn asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndRequest {
    /// The transactional id.
    pub transactional_id: String,
    /// The producer id the producer has.
    pub producer_id: i64,
    /// The epoch the producer has.
    pub producer_epoch: i16,
    /// Commit (else abort).
    pub commit: bool,
    /// The producer's transaction version: 2 from EndTxn v5 (the epoch is bumped), else 0.
    pub client_version: i16,
}

/// One partition's coordinator.
#[derive(Debug)]
pub struct Shard {
    config: TxnConfig,
    coordinator_epoch: i32,
    txns: HashMap<String, TxnMetadata>,
    next_abort_check: i64,
    next_expiry_check: i64,
}

impl Shard {
    /// An empty shard led at `coordinator_epoch` (the partition's leader epoch).
    pub fn new(config: TxnConfig, coordinator_epoch: i32) -> Shard {
        Shard {
            config,
            coordinator_epoch,
            txns: HashMap::new(),
            next_abort_check: i64::MAX,
            next_expiry_check: i64::MAX,
        }
    }

    /// Its settings.
    pub fn config(&self) -> &TxnConfig {
        &self.config
    }

    /// A transactional id's metadata.
    pub fn get(&self, id: &str) -> Option<&TxnMetadata> {
        self.txns.get(id)
    }

    /// Every transactional id's metadata.
    pub fn all(&self) -> impl Iterator<Item = &TxnMetadata> {
        self.txns.values()
    }

    /// How many transactional ids are in each state.
    pub fn count_by_state(&self) -> std::collections::BTreeMap<TxnState, usize> {
        let mut out = std::collections::BTreeMap::new();
        for m in self.txns.values() {
            *out.entry(m.state).or_insert(0) += 1;
        }
        out
    }

    /// Folds one record read from the log into the state.
    pub fn replay(&mut self, record: TxnRecord) {
        match record.value {
            Some(m) => {
                self.txns.insert(record.transactional_id, m);
            }
            None => {
                self.txns.remove(&record.transactional_id);
            }
        }
    }

    /// Ends loading: the markers of transactions that were being ended are written again,
    /// and the periodic checks are scheduled.
    pub fn loaded(&mut self, now: i64) -> Output {
        let mut out = Output::default();
        let mut preparing: Vec<&TxnMetadata> = self
            .txns
            .values()
            .filter(|m| matches!(m.state, TxnState::PrepareCommit | TxnState::PrepareAbort))
            .collect();
        preparing.sort_by(|a, b| a.transactional_id.cmp(&b.transactional_id));
        for m in preparing {
            out.markers.push(self.job(m));
        }
        self.next_abort_check = now + self.config.abort_timed_out_interval_ms;
        self.next_expiry_check = now + self.config.remove_expired_interval_ms;
        out
    }

    /// Whether an InitProducerId for `id` needs a new producer id: the id is unknown, or
    /// its producer id has no epoch left.
    pub fn needs_producer_id(&self, id: &str) -> bool {
        self.txns.get(id).is_none_or(TxnMetadata::epoch_exhausted)
    }

    /// InitProducerId with a transactional id: the producer id and epoch to use from now on,
    /// which fences every older producer of the id. An open transaction is aborted first
    /// (CONCURRENT_TRANSACTIONS: the producer retries). `fresh` is a new producer id, used
    /// when [`Shard::needs_producer_id`] said so.
    pub fn init_producer_id(
        &mut self,
        r: &InitRequest,
        fresh: Option<i64>,
        now: i64,
    ) -> (Output, Result<(i64, i16), ErrorCode>) {
        let mut out = Output::default();
        let answer = self.init(r, fresh, now, &mut out);
        (out, answer)
    }

    fn init(
        &mut self,
        r: &InitRequest,
        fresh: Option<i64>,
        now: i64,
        out: &mut Output,
    ) -> Result<(i64, i16), ErrorCode> {
        if r.transactional_id.is_empty() {
            return Err(ErrorCode::InvalidRequest);
        }
        if r.timeout_ms <= 0 || r.timeout_ms > self.config.max_timeout_ms {
            return Err(ErrorCode::InvalidTransactionTimeout);
        }
        if !self.txns.contains_key(&r.transactional_id) {
            if self.txns.len() >= MAX_TRANSACTIONAL_IDS_PER_SHARD {
                return Err(ErrorCode::CoordinatorNotAvailable);
            }
            let pid = fresh.ok_or(ErrorCode::CoordinatorLoadInProgress)?;
            self.txns.insert(
                r.transactional_id.clone(),
                TxnMetadata::new(&r.transactional_id, pid, r.timeout_ms, now),
            );
        }
        let m = self.txns.get_mut(&r.transactional_id).expect("present");
        if let Some((pid, epoch)) = r.expected {
            let valid = m.producer_epoch == -1
                || pid == m.producer_id
                || (pid == m.previous_producer_id && epoch >= crate::state::MAX_EPOCH);
            if !valid {
                return Err(ErrorCode::ProducerFenced);
            }
        }
        match m.state {
            TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort => {
                if m.epoch_exhausted() && r.expected.is_none_or(|(_, e)| e == m.producer_epoch) {
                    let pid = fresh.ok_or(ErrorCode::CoordinatorLoadInProgress)?;
                    m.last_producer_epoch = if r.expected.is_some() {
                        m.producer_epoch
                    } else {
                        -1
                    };
                    m.previous_producer_id = m.producer_id;
                    m.producer_id = pid;
                    m.producer_epoch = 0;
                } else {
                    let (epoch, last) = match r.expected {
                        None => (m.producer_epoch + 1, -1),
                        Some((_, e)) if m.producer_epoch == -1 || e == m.producer_epoch => {
                            (m.producer_epoch + 1, m.producer_epoch)
                        }
                        // A retry of the bump this epoch came from.
                        Some((_, e)) if e == m.last_producer_epoch => {
                            (m.producer_epoch, m.last_producer_epoch)
                        }
                        Some(_) => return Err(ErrorCode::ProducerFenced),
                    };
                    m.producer_epoch = epoch;
                    m.last_producer_epoch = last;
                }
                m.state = TxnState::Empty;
                m.partitions.clear();
                m.start_ms = -1;
                m.timeout_ms = r.timeout_ms;
                m.last_update_ms = now;
                let answer = (m.producer_id, m.producer_epoch);
                out.record(m);
                Ok(answer)
            }
            TxnState::Ongoing => {
                // A new producer fences the old one: its open transaction is aborted with a
                // bumped epoch, and the new one retries until that is done.
                self.fence_and_abort(&r.transactional_id, now, out);
                Err(ErrorCode::ConcurrentTransactions)
            }
            TxnState::PrepareCommit
            | TxnState::PrepareAbort
            | TxnState::Dead
            | TxnState::PrepareEpochFence => Err(ErrorCode::ConcurrentTransactions),
        }
    }

    /// Bumps the epoch of an open transaction and aborts it (a new producer of its id, or
    /// its timeout).
    fn fence_and_abort(&mut self, id: &str, now: i64, out: &mut Output) {
        let Some(m) = self.txns.get_mut(id) else {
            return;
        };
        m.producer_epoch = m.producer_epoch.saturating_add(1);
        m.last_producer_epoch = -1;
        m.state = TxnState::PrepareAbort;
        m.last_update_ms = now;
        out.record(m);
        let job = self.job(&self.txns[id]);
        out.markers.push(job);
    }

    fn job(&self, m: &TxnMetadata) -> MarkerJob {
        MarkerJob {
            transactional_id: m.transactional_id.clone(),
            producer_id: m.producer_id,
            producer_epoch: m.producer_epoch,
            commit: m.state == TxnState::PrepareCommit,
            coordinator_epoch: self.coordinator_epoch,
            partitions: m.partitions.iter().cloned().collect(),
            transaction_version: if m.bumps_on_end() { 2 } else { 0 },
        }
    }

    /// A transactional id's metadata: INVALID_REQUEST for an empty id,
    /// INVALID_PRODUCER_ID_MAPPING for an unknown one.
    fn known(&self, id: &str) -> Result<&TxnMetadata, ErrorCode> {
        if id.is_empty() {
            return Err(ErrorCode::InvalidRequest);
        }
        self.txns.get(id).ok_or(ErrorCode::InvalidProducerIdMapping)
    }

    /// The checks every transactional request of a producer makes: its id is known and holds
    /// this producer id (else INVALID_PRODUCER_ID_MAPPING) at this epoch (else
    /// PRODUCER_FENCED).
    fn producer(&self, id: &str, pid: i64, epoch: i16) -> Result<&TxnMetadata, ErrorCode> {
        let m = self.known(id)?;
        if m.producer_id != pid {
            return Err(ErrorCode::InvalidProducerIdMapping);
        }
        if m.producer_epoch != epoch {
            return Err(ErrorCode::ProducerFenced);
        }
        Ok(m)
    }

    /// AddPartitionsToTxn (and AddOffsetsToTxn, with the group's offsets partition): the
    /// partitions join the transaction, which starts now if none was open. `client_version`
    /// is the producer's transaction version: 2 when a broker adds them for a Produce or
    /// TxnOffsetCommit of a version 2 producer (AddPartitionsToTxn v5), else 0.
    pub fn add_partitions(
        &mut self,
        id: &str,
        pid: i64,
        epoch: i16,
        partitions: &[(String, i32)],
        client_version: i16,
        now: i64,
    ) -> (Output, Result<(), ErrorCode>) {
        let mut out = Output::default();
        let answer = (|| {
            let m = self.producer(id, pid, epoch)?;
            match m.state {
                TxnState::PrepareCommit
                | TxnState::PrepareAbort
                | TxnState::Dead
                | TxnState::PrepareEpochFence => return Err(ErrorCode::ConcurrentTransactions),
                TxnState::Ongoing if partitions.iter().all(|p| m.partitions.contains(p)) => {
                    return Ok(())
                }
                _ => {}
            }
            let m = self.txns.get_mut(id).expect("checked");
            if m.state != TxnState::Ongoing {
                m.start_ms = now;
                m.partitions.clear();
            }
            m.state = TxnState::Ongoing;
            m.partitions.extend(partitions.iter().cloned());
            m.client_version = client_version;
            m.last_update_ms = now;
            out.record(m);
            Ok(())
        })();
        (out, answer)
    }

    /// A broker's check before it appends a transactional batch (AddPartitionsToTxn v4+ with
    /// VerifyOnly, KIP-890): the partition is in the producer's open transaction. As Kafka
    /// answers: CONCURRENT_TRANSACTIONS while the transaction is being ended, and
    /// TRANSACTION_ABORTABLE for a partition not in it.
    pub fn verify(&self, id: &str, pid: i64, epoch: i16, partition: &(String, i32)) -> ErrorCode {
        match self.producer(id, pid, epoch) {
            Err(code) => code,
            Ok(m) if matches!(m.state, TxnState::PrepareCommit | TxnState::PrepareAbort) => {
                ErrorCode::ConcurrentTransactions
            }
            Ok(m) if m.state == TxnState::Ongoing && m.partitions.contains(partition) => {
                ErrorCode::None
            }
            Ok(_) => ErrorCode::TransactionAbortable,
        }
    }

    /// Whether an EndTxn of `r` needs a new producer id: a version 2 end of a producer id
    /// whose epoch is exhausted (the id changes once the markers are written).
    pub fn end_needs_producer_id(&self, r: &EndRequest) -> bool {
        r.client_version >= 2
            && self
                .txns
                .get(&r.transactional_id)
                .is_some_and(TxnMetadata::epoch_exhausted)
    }

    /// EndTxn: the transaction is prepared to commit or abort; once that record is
    /// committed the client is answered with the producer id and epoch to use next (bumped
    /// for version 2), and the markers are written. `fresh` is a new producer id, given when
    /// [`Shard::end_needs_producer_id`] said so.
    pub fn end_txn(
        &mut self,
        r: &EndRequest,
        fresh: Option<i64>,
        now: i64,
    ) -> (Output, Result<(i64, i16), ErrorCode>) {
        let mut out = Output::default();
        let answer = self.end(r, fresh, now, &mut out);
        (out, answer)
    }

    fn end(
        &mut self,
        r: &EndRequest,
        fresh: Option<i64>,
        now: i64,
        out: &mut Output,
    ) -> Result<(i64, i16), ErrorCode> {
        let id = r.transactional_id.as_str();
        let m = self.known(id)?;
        let (pid, epoch) = (r.producer_id, r.producer_epoch);
        let current = m.producer_id == pid && m.producer_epoch == epoch;
        // Version 2: the epoch an end handed out is one above the producer's, or a new
        // producer id when that end exhausted the epoch; an end naming the epoch before is
        // its retry.
        let v2 = m.bumps_on_end();
        // The last epoch of an id is only ever written in markers, never given to a
        // producer: a fence that reached it is final (the producer starts again, on a new id).
        let bumped = v2
            && m.producer_id == pid
            && (m.producer_epoch < i16::MAX || m.next_producer_id >= 0)
            && i32::from(m.producer_epoch) == i32::from(epoch) + 1;
        let rotated = v2
            && m.previous_producer_id == pid
            && epoch >= crate::state::MAX_EPOCH
            && m.producer_epoch == 0;
        if m.producer_id != pid && !rotated {
            return Err(ErrorCode::InvalidProducerIdMapping);
        }
        let valid = if v2 {
            match m.state {
                TxnState::PrepareCommit | TxnState::PrepareAbort => bumped || current,
                TxnState::CompleteCommit | TxnState::CompleteAbort => bumped || rotated || current,
                _ => current,
            }
        } else {
            current
        };
        if !valid {
            return Err(ErrorCode::ProducerFenced);
        }
        let retry = !v2 || bumped || rotated;
        let bump = r.client_version >= 2;
        match (m.state, r.commit) {
            (TxnState::Ongoing, commit) => self.prepare(id, commit, bump, fresh, now, out),
            // Version 2: the producer already has the epoch this end handed out, and ends its
            // next transaction before the markers of this one are written: try again.
            (TxnState::PrepareCommit | TxnState::PrepareAbort, _) if !retry => {
                Err(ErrorCode::ConcurrentTransactions)
            }
            // A retry of an end already done: the producer id and epoch it handed out.
            (TxnState::CompleteCommit, true) | (TxnState::CompleteAbort, false) if retry => {
                Ok((m.producer_id, m.producer_epoch))
            }
            // Version 2: an abort with no transaction open still bumps the epoch (a producer
            // that cannot know whether its partitions were added aborts to move on).
            (TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort, false)
                if bump && current =>
            {
                self.prepare(id, false, true, fresh, now, out)
            }
            (TxnState::PrepareCommit, true) | (TxnState::PrepareAbort, false) => {
                Err(ErrorCode::ConcurrentTransactions)
            }
            _ => Err(ErrorCode::InvalidTxnState),
        }
    }

    /// Decides the transaction of `id` (open, or an empty one to abort): with `bump` the
    /// epoch goes up by one, and when it is exhausted the id moves to `fresh` once the
    /// markers are written. Returns the producer id and epoch the producer uses next.
    fn prepare(
        &mut self,
        id: &str,
        commit: bool,
        bump: bool,
        fresh: Option<i64>,
        now: i64,
        out: &mut Output,
    ) -> Result<(i64, i16), ErrorCode> {
        let m = self.txns.get_mut(id).expect("checked");
        let next = if bump && m.epoch_exhausted() {
            fresh.ok_or(ErrorCode::CoordinatorLoadInProgress)?
        } else {
            -1
        };
        if bump {
            m.last_producer_epoch = m.producer_epoch;
            m.producer_epoch = m.producer_epoch.saturating_add(1);
            m.client_version = 2;
        } else {
            m.client_version = 0;
        }
        if m.state != TxnState::Ongoing {
            m.partitions.clear();
            m.start_ms = now;
        }
        m.next_producer_id = next;
        m.state = if commit {
            TxnState::PrepareCommit
        } else {
            TxnState::PrepareAbort
        };
        m.last_update_ms = now;
        let answer = if next >= 0 {
            (next, 0)
        } else {
            (m.producer_id, m.producer_epoch)
        };
        out.record(m);
        let job = self.job(&self.txns[id]);
        out.markers.push(job);
        Ok(answer)
    }

    /// Every marker of a transaction was written: it completes (if it is still the one
    /// being ended).
    pub fn markers_written(&mut self, job: &MarkerJob, now: i64) -> Output {
        let mut out = Output::default();
        let Some(m) = self.txns.get_mut(&job.transactional_id) else {
            return out;
        };
        let next = match m.state {
            TxnState::PrepareCommit => TxnState::CompleteCommit,
            TxnState::PrepareAbort => TxnState::CompleteAbort,
            _ => return out,
        };
        if m.producer_id != job.producer_id || m.producer_epoch != job.producer_epoch {
            return out;
        }
        m.state = next;
        if m.next_producer_id >= 0 {
            // The epoch ran out at this end: the producer goes on with the new id, and an
            // end retried with the old id's last epoch is recognised by it.
            m.previous_producer_id = m.producer_id;
            m.producer_id = m.next_producer_id;
            m.producer_epoch = 0;
            m.last_producer_epoch = crate::state::MAX_EPOCH;
            m.next_producer_id = -1;
        }
        m.partitions.clear();
        m.last_update_ms = now;
        out.record(m);
        out
    }

    /// The earliest deadline; call [`Shard::tick`] then.
    pub fn next_deadline(&self) -> Option<i64> {
        let next = self.next_abort_check.min(self.next_expiry_check);
        (next < i64::MAX).then_some(next)
    }

    /// Runs the periodic checks due at `now`: transactions open longer than their timeout
    /// are aborted with a bumped epoch (their producer is fenced), and ids idle longer than
    /// `transactional.id.expiration.ms` with no transaction open are removed.
    pub fn tick(&mut self, now: i64) -> Output {
        let mut out = Output::default();
        if now >= self.next_abort_check {
            let mut timed_out: Vec<String> = self
                .txns
                .values()
                .filter(|m| {
                    m.state == TxnState::Ongoing
                        && m.start_ms.saturating_add(i64::from(m.timeout_ms)) < now
                })
                .map(|m| m.transactional_id.clone())
                .collect();
            timed_out.sort();
            for id in timed_out {
                self.fence_and_abort(&id, now, &mut out);
            }
            self.next_abort_check = now + self.config.abort_timed_out_interval_ms;
        }
        if now >= self.next_expiry_check {
            let mut expired: Vec<String> = self
                .txns
                .values()
                .filter(|m| {
                    matches!(
                        m.state,
                        TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort
                    ) && m
                        .last_update_ms
                        .saturating_add(self.config.id_expiration_ms)
                        <= now
                })
                .map(|m| m.transactional_id.clone())
                .collect();
            expired.sort();
            for id in expired {
                self.txns.remove(&id);
                out.records.push(TxnRecord {
                    transactional_id: id,
                    value: None,
                });
            }
            self.next_expiry_check = now + self.config.remove_expired_interval_ms;
        }
        out
    }
}
