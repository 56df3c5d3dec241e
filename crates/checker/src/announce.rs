//! What `kafka-unclean-recovery` announced before an election, and the anomalies it covers.
//! The tool may over-announce; it must never under-announce: a lost acknowledged write or
//! an offset given out twice that lies outside every announced range, beyond the
//! acknowledged-loss figure, stays an anomaly (and is named `under-announced`).
//!
//! The file (JSON): `{"partitions": [{"key": 3, "truncated": [[from, to], ...],
//! "unknown": [[from, to], ...], "acknowledged_lost": 2}]}`, ranges of offsets with `to`
//! exclusive (`null` for no end).

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::history::{Key, Offset};
use crate::Anomaly;

/// One partition's announcement.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct PartitionAnnouncement {
    /// The key (partition).
    pub key: Key,
    /// The offset ranges the election truncates, `[from, to)`.
    #[serde(default)]
    pub truncated: Vec<(Offset, Option<Offset>)>,
    /// The offset ranges the tool could not know (replicas it could not ask).
    #[serde(default)]
    pub unknown: Vec<(Offset, Option<Offset>)>,
    /// How many acknowledged records the tool said are lost.
    #[serde(default)]
    pub acknowledged_lost: u64,
}

/// Everything the tool announced in a run.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Announcement {
    /// Per partition.
    #[serde(default)]
    pub partitions: Vec<PartitionAnnouncement>,
}

/// What an election that cuts a log may cause at the offsets it announced: writes lost,
/// offsets given out again, and so producers and consumers that see offsets go back or jump.
const COVERED_KINDS: [&str; 11] = [
    "lost-write",
    "unseen",
    "offset-reuse",
    "inconsistent-offsets",
    "duplicate",
    "nonmonotonic-send",
    "int-nonmonotonic-send",
    "nonmonotonic-poll",
    "int-nonmonotonic-poll",
    "poll-skip",
    "int-poll-skip",
];

impl Announcement {
    /// Moves the anomalies the announcement covers from `anomalies` to the returned list;
    /// those it should have covered and did not are renamed `under-announced`.
    pub fn cover(&self, anomalies: &mut Vec<Anomaly>) -> Vec<Anomaly> {
        let by_key: BTreeMap<Key, &PartitionAnnouncement> =
            self.partitions.iter().map(|p| (p.key, p)).collect();
        let inside = |ranges: &[(Offset, Option<Offset>)], o: Offset| {
            ranges
                .iter()
                .any(|(from, to)| o >= *from && to.is_none_or(|t| o < t))
        };
        let mut covered = Vec::new();
        let mut kept = Vec::new();
        // Lost writes outside the ranges, per key, counted against the figure.
        let mut uncounted: BTreeMap<Key, Vec<Anomaly>> = BTreeMap::new();
        for a in anomalies.drain(..) {
            let (Some(key), Some(o)) = (a.key, a.offset) else {
                kept.push(a);
                continue;
            };
            let Some(p) = by_key.get(&key) else {
                kept.push(a);
                continue;
            };
            if !COVERED_KINDS.contains(&a.kind.as_str()) {
                kept.push(a);
            } else if inside(&p.truncated, o) || inside(&p.unknown, o) {
                covered.push(a);
            } else if matches!(a.kind.as_str(), "lost-write" | "unseen") {
                uncounted.entry(key).or_default().push(a);
            } else {
                kept.push(a.under_announced());
            }
        }
        for (key, lost) in uncounted {
            if lost.len() as u64 <= by_key[&key].acknowledged_lost {
                covered.extend(lost);
            } else {
                kept.extend(lost.into_iter().map(Anomaly::under_announced));
            }
        }
        *anomalies = kept;
        covered
    }
}
