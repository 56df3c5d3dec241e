//! The leader epoch cache: for each leader epoch, the first offset written in it. Persisted in
//! `leader-epoch-checkpoint` (Kafka's format). It answers OffsetForLeaderEpoch and tells
//! GetReplicaLogInfo the last epoch this replica wrote.

use crate::checkpoint::{read_entries, write_entries};
use crate::error::{LogError, Result};
use std::path::{Path, PathBuf};

/// The file name inside a partition directory.
pub const LEADER_EPOCH_CHECKPOINT: &str = "leader-epoch-checkpoint";
/// Kafka's "no epoch".
pub const UNDEFINED_EPOCH: i32 = -1;
/// Kafka's "no offset" for an epoch lookup.
pub const UNDEFINED_EPOCH_OFFSET: i64 = -1;

/// One epoch and the offset of its first record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EpochEntry {
    /// The leader epoch.
    pub epoch: i32,
    /// The offset of the first record written in that epoch.
    pub start_offset: i64,
}

/// The leader epoch cache of one partition.
#[derive(Debug)]
pub struct LeaderEpochCache {
    path: PathBuf,
    entries: Vec<EpochEntry>,
}

impl LeaderEpochCache {
    /// Loads the cache from `dir`, empty when there is no checkpoint.
    pub fn load(dir: &Path) -> Result<LeaderEpochCache> {
        let path = dir.join(LEADER_EPOCH_CHECKPOINT);
        let mut entries = Vec::new();
        for line in read_entries(&path)?.unwrap_or_default() {
            let mut parts = line.split_whitespace();
            let entry = (|| {
                let epoch = parts.next()?.parse().ok()?;
                let start_offset = parts.next()?.parse().ok()?;
                parts.next().is_none().then_some(EpochEntry {
                    epoch,
                    start_offset,
                })
            })()
            .ok_or_else(|| LogError::Malformed {
                path: path.clone(),
                reason: format!("bad entry {line:?}"),
            })?;
            entries.push(entry);
        }
        let sorted = entries
            .windows(2)
            .all(|w| w[0].epoch < w[1].epoch && w[0].start_offset <= w[1].start_offset);
        if !sorted {
            return Err(LogError::Malformed {
                path,
                reason: "epochs are not increasing".into(),
            });
        }
        Ok(LeaderEpochCache { path, entries })
    }

    /// The entries, oldest first.
    pub fn entries(&self) -> &[EpochEntry] {
        &self.entries
    }

    /// The latest epoch, if any was written.
    pub fn latest_epoch(&self) -> Option<i32> {
        self.entries.last().map(|e| e.epoch)
    }

    /// The earliest entry.
    pub fn earliest(&self) -> Option<EpochEntry> {
        self.entries.first().copied()
    }

    fn persist(&self) -> Result<()> {
        let lines: Vec<String> = self
            .entries
            .iter()
            .map(|e| format!("{} {}", e.epoch, e.start_offset))
            .collect();
        write_entries(&self.path, &lines)
    }

    /// Records that `epoch` starts at `start_offset`. Entries that conflict (an epoch at or
    /// above it, or a start offset at or above it) are dropped first, as Kafka does.
    pub fn assign(&mut self, epoch: i32, start_offset: i64) -> Result<()> {
        if assign_entry(&mut self.entries, epoch, start_offset) {
            self.persist()?;
        }
        Ok(())
    }

    /// OffsetForLeaderEpoch: the largest epoch at or below `requested` this log knows and the
    /// end offset of that epoch (the start of the next one, or the log end offset for the
    /// latest). `(UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET)` when `requested` is undefined or
    /// newer than every epoch here.
    pub fn end_offset_for_epoch(&self, requested: i32, log_end_offset: i64) -> (i32, i64) {
        end_offset_for_epoch(&self.entries, requested, log_end_offset)
    }

    /// After the log was cut back to `end_offset` (it holds `[log_start, end_offset)`): drops
    /// the epochs that start at or after it, but keeps the one that stands for what an empty
    /// log held below its start ([`truncate_entries_from_end`]).
    pub fn truncate_from_end(&mut self, end_offset: i64, log_start: i64) -> Result<()> {
        if truncate_entries_from_end(&mut self.entries, end_offset, log_start) {
            self.persist()?;
        }
        Ok(())
    }

    /// After the log start moved to `start_offset`: drops epochs wholly before it and moves
    /// the start of the epoch holding it.
    pub fn truncate_from_start(&mut self, start_offset: i64) -> Result<()> {
        if truncate_entries_from_start(&mut self.entries, start_offset) {
            self.persist()?;
        }
        Ok(())
    }

    /// The log starts over, empty, at `offset` ([`restart_entries_at`]).
    pub fn restart_at(&mut self, offset: i64) -> Result<()> {
        if restart_entries_at(&mut self.entries, offset) {
            self.persist()?;
        }
        Ok(())
    }

    /// Drops every entry: what the log held disagrees with its leader's log below the log
    /// start, so none of its epochs stands any more.
    pub fn clear(&mut self) -> Result<()> {
        self.entries.clear();
        self.persist()
    }
}

/// Records in `entries` (oldest first) that `epoch` starts at `start_offset`, as
/// [`LeaderEpochCache::assign`] does: entries that conflict (an epoch at or above it, or a
/// start offset at or above it) are dropped first, as Kafka does, except an older oldest entry
/// at the same offset (the epoch below the log start of an empty log). Returns whether
/// anything changed. Pure, so the recovery tool and the simulations run the same rule as the log.
pub fn assign_entry(entries: &mut Vec<EpochEntry>, epoch: i32, start_offset: i64) -> bool {
    if epoch < 0 {
        return false;
    }
    if let Some(last) = entries.last() {
        if last.epoch == epoch && last.start_offset <= start_offset {
            return false;
        }
    }
    // The oldest entry stays at the same start too when it is older: it stands at the log start
    // for the record below it (see `truncate_entries_from_start`), and the log is empty there.
    let keep_first = entries
        .first()
        .is_some_and(|e| e.epoch < epoch && e.start_offset == start_offset);
    let mut i = 0;
    entries.retain(|e| {
        let first = i == 0;
        i += 1;
        e.epoch < epoch && (e.start_offset < start_offset || first && keep_first)
    });
    entries.push(EpochEntry {
        epoch,
        start_offset,
    });
    true
}

/// After the log start moved to `start_offset` (retention, DeleteRecords, a follower following
/// its leader's log start): drops the entries wholly before it and moves up to it the newest
/// entry below it, the epoch of the record just before the new log start, as Kafka's
/// `truncateFromStart` does. So a log that retention emptied still knows the epoch of what it
/// held. When an epoch begins exactly at `start_offset`, the entry before it stays too, at the
/// same offset (an epoch of no record here, ending where the next begins): the epoch of
/// `start_offset - 1` is then still known if the log is later cut back to its start. Returns
/// whether anything changed.
pub fn truncate_entries_from_start(entries: &mut Vec<EpochEntry>, start_offset: i64) -> bool {
    let Some(i) = entries.iter().rposition(|e| e.start_offset < start_offset) else {
        return false;
    };
    entries.drain(..i);
    entries[0].start_offset = start_offset;
    true
}

/// After the log was cut back to `end` (it now holds `[log_start, end)`): drops the entries
/// that start at or after `end`, as Kafka's `truncateFromEnd` does, with one exception. When
/// the log is left empty at a log start above 0 (retention, DeleteRecords or a cut to its start
/// removed its records), the oldest entry stays if it starts at the log start: it is the epoch
/// of the record just before the log start ([`truncate_entries_from_start`] put it there), and
/// without it a log that held records would report no epoch, as one that never held any does.
/// Returns whether anything changed.
pub fn truncate_entries_from_end(entries: &mut Vec<EpochEntry>, end: i64, log_start: i64) -> bool {
    let keep = usize::from(
        end == log_start
            && log_start > 0
            && entries.first().is_some_and(|e| e.start_offset == log_start),
    );
    let cut = entries
        .iter()
        .position(|e| e.start_offset >= end)
        .unwrap_or(entries.len())
        .max(keep);
    if cut == entries.len() {
        return false;
    }
    entries.truncate(cut);
    true
}

/// The log starts over, empty, at `offset` (a follower behind its leader's log start, or one
/// restarting at the base of a batch holding the leader's log start): the entries starting
/// after `offset` go and the newest one below it moves up to it, so the log still names the
/// epoch of the last record it held. Returns whether anything changed.
pub fn restart_entries_at(entries: &mut Vec<EpochEntry>, offset: i64) -> bool {
    let before = entries.len();
    entries.retain(|e| e.start_offset <= offset);
    let dropped = entries.len() != before;
    // Only the newest entry at or below the offset stands for what the log held.
    let moved = match entries.len() {
        0 => false,
        n => {
            let changed = n > 1 || entries[n - 1].start_offset != offset;
            entries.drain(..n - 1);
            entries[0].start_offset = offset;
            changed
        }
    };
    dropped || moved
}

/// OffsetForLeaderEpoch over `entries` (oldest first) of a log ending at `log_end_offset`:
/// the largest epoch at or below `requested` and the end offset of that epoch (the start of
/// the next one, or the log end offset for the latest); `(requested, first start)` when every
/// epoch is above it; `(UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET)` when `requested` is
/// undefined or newer than every epoch here. Kafka's answer, pure.
pub fn end_offset_for_epoch(
    entries: &[EpochEntry],
    requested: i32,
    log_end_offset: i64,
) -> (i32, i64) {
    if requested == UNDEFINED_EPOCH {
        return (UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET);
    }
    if entries.last().map(|e| e.epoch) == Some(requested) {
        return (requested, log_end_offset);
    }
    let Some(higher) = entries.iter().find(|e| e.epoch > requested) else {
        return (UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET);
    };
    match entries.iter().rev().find(|e| e.epoch <= requested) {
        Some(floor) => (floor.epoch, higher.start_offset),
        None => (requested, higher.start_offset),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(entries: &[(i32, i64)]) -> (tempfile::TempDir, LeaderEpochCache) {
        let dir = tempfile::tempdir().unwrap();
        let mut c = LeaderEpochCache::load(dir.path()).unwrap();
        for &(e, o) in entries {
            c.assign(e, o).unwrap();
        }
        (dir, c)
    }

    #[test]
    fn end_offsets_follow_kafka() {
        let (_d, c) = cache(&[(1, 0), (3, 100), (5, 200)]);
        assert_eq!(
            c.end_offset_for_epoch(5, 250),
            (5, 250),
            "latest epoch ends at the log end"
        );
        assert_eq!(c.end_offset_for_epoch(3, 250), (3, 200));
        assert_eq!(
            c.end_offset_for_epoch(4, 250),
            (3, 200),
            "unknown epoch answers the floor"
        );
        assert_eq!(
            c.end_offset_for_epoch(0, 250),
            (0, 0),
            "below the first epoch"
        );
        assert_eq!(
            c.end_offset_for_epoch(6, 250),
            (UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET)
        );
        assert_eq!(
            c.end_offset_for_epoch(UNDEFINED_EPOCH, 250),
            (UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET)
        );
        assert_eq!(c.latest_epoch(), Some(5));
    }

    #[test]
    fn assign_drops_conflicting_entries_and_persists() {
        let (dir, mut c) = cache(&[(1, 0), (3, 100), (5, 200)]);
        c.assign(4, 150).unwrap();
        assert_eq!(
            c.entries(),
            &[
                EpochEntry {
                    epoch: 1,
                    start_offset: 0
                },
                EpochEntry {
                    epoch: 3,
                    start_offset: 100
                },
                EpochEntry {
                    epoch: 4,
                    start_offset: 150
                }
            ]
        );
        c.assign(4, 180).unwrap();
        assert_eq!(c.entries().len(), 3, "same epoch, later offset: no change");
        let text = std::fs::read_to_string(dir.path().join(LEADER_EPOCH_CHECKPOINT)).unwrap();
        assert_eq!(text, "0\n3\n1 0\n3 100\n4 150\n");
        let again = LeaderEpochCache::load(dir.path()).unwrap();
        assert_eq!(again.entries(), c.entries());
    }

    #[test]
    fn truncation_from_both_ends() {
        let (_d, mut c) = cache(&[(1, 0), (3, 100), (5, 200)]);
        c.truncate_from_end(150, 0).unwrap();
        assert_eq!(c.latest_epoch(), Some(3));
        c.truncate_from_start(120).unwrap();
        assert_eq!(c.entries(), &entries(&[(3, 120)]));
        c.truncate_from_end(120, 0).unwrap();
        assert!(c.entries().is_empty(), "a log cut to 0 never held a record");
    }

    fn entries(list: &[(i32, i64)]) -> Vec<EpochEntry> {
        list.iter()
            .map(|&(epoch, start_offset)| EpochEntry {
                epoch,
                start_offset,
            })
            .collect()
    }

    /// The case: retention empties a log of 1000 records written in epoch 0. The log
    /// keeps epoch 0 at its new start, through a restart's cut to its end and a cut to its start.
    #[test]
    fn an_emptied_log_keeps_the_epoch_of_what_it_held() {
        let mut e = entries(&[(0, 0)]);
        assert!(truncate_entries_from_start(&mut e, 1000));
        assert_eq!(e, entries(&[(0, 1000)]));
        assert!(
            !truncate_entries_from_end(&mut e, 1000, 1000),
            "kept at the log start"
        );
        assert_eq!(e, entries(&[(0, 1000)]));
        // An epoch that began exactly at the new start keeps the one before it, at no length.
        let mut e = entries(&[(0, 0), (2, 10), (4, 30)]);
        truncate_entries_from_start(&mut e, 30);
        assert_eq!(e, entries(&[(2, 30), (4, 30)]));
        assert_eq!(end_offset_for_epoch(&e, 2, 40), (2, 30));
        assert_eq!(
            end_offset_for_epoch(&e, 3, 40),
            (2, 30),
            "as before the move"
        );
        truncate_entries_from_end(&mut e, 30, 30);
        assert_eq!(e, entries(&[(2, 30)]), "the epoch of offset 29");
        // A log never started above 0 keeps nothing of a cut to 0.
        let mut e = entries(&[(0, 0)]);
        truncate_entries_from_end(&mut e, 0, 0);
        assert!(e.is_empty());
    }

    #[test]
    fn a_restart_keeps_the_newest_epoch_below_it() {
        let mut e = entries(&[(0, 0), (2, 10), (4, 30)]);
        assert!(restart_entries_at(&mut e, 500));
        assert_eq!(e, entries(&[(4, 500)]));
        let mut e = entries(&[(0, 0), (2, 10), (4, 30)]);
        restart_entries_at(&mut e, 20);
        assert_eq!(e, entries(&[(2, 20)]));
        let mut e = entries(&[(4, 30)]);
        restart_entries_at(&mut e, 20);
        assert!(e.is_empty(), "no epoch at or below the restart");
    }

    #[test]
    fn a_corrupt_checkpoint_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(LEADER_EPOCH_CHECKPOINT),
            "0\n2\n5 10\n3 20\n",
        )
        .unwrap();
        assert!(LeaderEpochCache::load(dir.path()).is_err());
    }
}
