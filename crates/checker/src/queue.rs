//! The queue checks of Jepsen's Kafka workload, from the history alone: what each key's log
//! must hold (every value observed at an offset, by writers and readers), and the anomalies
//! against it: lost and unseen writes, duplicates, inconsistent offsets, offsets given out
//! twice, aborted (G1a) and precommitted reads, skips and non-monotonic polls and sends,
//! within an operation (`int-`) and between a process's operations.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::json;

use crate::history::{History, Key, Mop, Offset, Op, Outcome, Val};
use crate::Anomaly;

/// What the history says of each key's log and of each value.
#[derive(Debug, Default)]
pub struct Index {
    /// The operation that sent each value (the values are unique; a value sent twice is
    /// reported and its first sender kept).
    pub writer: HashMap<Val, usize>,
    /// Per key and offset, every value observed there (sends with offsets and reads).
    pub log: HashMap<Key, BTreeMap<Offset, BTreeSet<Val>>>,
    /// Per key and offset, the values acknowledged there by sends that took effect.
    pub acked_at: HashMap<(Key, Offset), BTreeSet<Val>>,
    /// The operations that read each value.
    pub readers: HashMap<Val, Vec<usize>>,
    /// The highest offset any poll read, per key.
    pub max_read: HashMap<Key, Offset>,
    /// Per key, the offsets that hold a committed record: one acknowledged by a send that
    /// took effect, or read by a `read_committed` poll.
    pub committed: HashMap<Key, BTreeSet<Offset>>,
    /// Whether the history has final polls (then an acknowledged write nobody read is lost).
    pub has_final: bool,
    /// The keys the final polls read whole (a `final-read` event), and the values they read.
    pub final_keys: HashMap<Key, Offset>,
    /// The values the final polls read.
    pub final_values: std::collections::HashSet<Val>,
}

impl Index {
    /// Builds the index of `h`, reporting values sent twice.
    pub fn build(h: &History, out: &mut Vec<Anomaly>) -> Index {
        let mut ix = Index::default();
        for op in &h.ops {
            ix.has_final |= op.is_final;
            for m in &op.mops {
                match m {
                    Mop::Send { key, value, offset } => {
                        if let Some(first) = ix.writer.get(value) {
                            if *first != op.index {
                                out.push(Anomaly::new(
                                    "duplicate",
                                    Some(*key),
                                    *offset,
                                    json!({"value": value, "why": "the workload sent it twice", "ops": [first, op.index]}),
                                ));
                            }
                        } else {
                            ix.writer.insert(*value, op.index);
                        }
                        if let Some(o) = offset {
                            ix.log
                                .entry(*key)
                                .or_default()
                                .entry(*o)
                                .or_default()
                                .insert(*value);
                            if op.outcome == Outcome::Ok {
                                ix.acked_at.entry((*key, *o)).or_default().insert(*value);
                                ix.committed.entry(*key).or_default().insert(*o);
                            }
                        }
                    }
                    Mop::Poll(reads) if op.outcome == Outcome::Ok => {
                        for (key, pairs) in reads {
                            for (o, v) in pairs {
                                if op.is_final {
                                    ix.final_values.insert(*v);
                                }
                                ix.log
                                    .entry(*key)
                                    .or_default()
                                    .entry(*o)
                                    .or_default()
                                    .insert(*v);
                                let readers = ix.readers.entry(*v).or_default();
                                if readers.last() != Some(&op.index) {
                                    readers.push(op.index);
                                }
                                let max = ix.max_read.entry(*key).or_insert(*o);
                                *max = (*max).max(*o);
                                if op.read_committed {
                                    ix.committed.entry(*key).or_default().insert(*o);
                                }
                            }
                        }
                    }
                    Mop::Poll(_) => {}
                }
            }
        }
        for e in h.events.iter().filter(|e| e.f == "final-read") {
            let int = |name: &str| e.value.get(name).and_then(serde_json::Value::as_i64);
            let (Some(k), Some(end)) = (int("key"), int("end")) else {
                continue;
            };
            match int("high_watermark") {
                // A transaction still open at the end hides what follows it from every
                // read_committed reader: the key was not read whole.
                Some(hw) if hw > end => out.push(Anomaly::new(
                    "hanging-transaction",
                    Some(k),
                    Some(end),
                    serde_json::json!({"last_stable_offset": end, "high_watermark": hw}),
                )),
                _ => {
                    ix.final_keys.insert(k, end);
                }
            }
        }
        ix
    }

    /// Whether a committed record lies strictly between offsets `a` and `b` of `key`.
    fn committed_between(&self, key: Key, a: Offset, b: Offset) -> Option<Offset> {
        if b <= a + 1 {
            return None;
        }
        self.committed
            .get(&key)
            .and_then(|s| s.range(a + 1..b).next().copied())
    }
}

/// Offsets holding more than one value: `offset-reuse` when acknowledged sends disagree
/// (an offset given out twice), else `inconsistent-offsets`; and values at more than one
/// offset (`duplicate`).
pub fn offsets(ix: &Index, out: &mut Vec<Anomaly>) {
    let mut keys: Vec<&Key> = ix.log.keys().collect();
    keys.sort();
    for key in keys {
        let mut seen: HashMap<Val, Offset> = HashMap::new();
        for (o, vals) in &ix.log[key] {
            if vals.len() > 1 {
                let acked = ix.acked_at.get(&(*key, *o)).map_or(0, BTreeSet::len);
                let kind = if acked > 1 {
                    "offset-reuse"
                } else {
                    "inconsistent-offsets"
                };
                out.push(Anomaly::new(
                    kind,
                    Some(*key),
                    Some(*o),
                    json!({"values": vals}),
                ));
            }
            for v in vals {
                if let Some(first) = seen.insert(*v, *o) {
                    out.push(Anomaly::new(
                        "duplicate",
                        Some(*key),
                        Some(*o),
                        json!({"value": v, "offsets": [first, o]}),
                    ));
                }
            }
        }
    }
}

/// Acknowledged writes that are gone. Where the final polls read a key whole (its
/// `final-read` event), an acknowledged value they did not read is lost, even if a poll saw
/// it before it vanished (a log cut back under it): `lost-write` when anyone read it or read
/// past it, else `unseen`. Elsewhere Jepsen's rule: `lost-write` when nobody read it though a
/// poll read past it, `unseen` when nobody read it and the history has final polls.
pub fn lost(h: &History, ix: &Index, out: &mut Vec<Anomaly>) {
    for op in h.ops.iter().filter(|o| o.outcome == Outcome::Ok) {
        for m in &op.mops {
            let Mop::Send {
                key,
                value,
                offset: Some(o),
            } = m
            else {
                continue;
            };
            let read = ix.readers.contains_key(value);
            let past = ix.max_read.get(key).is_some_and(|max| max > o);
            let kind = if ix.final_keys.contains_key(key) {
                if ix.final_values.contains(value) {
                    continue;
                }
                if read || past {
                    "lost-write"
                } else {
                    "unseen"
                }
            } else if read {
                continue;
            } else if past {
                "lost-write"
            } else if ix.has_final {
                "unseen"
            } else {
                continue;
            };
            let detail =
                json!({"value": value, "op": op.index, "process": op.process, "read_before": read});
            out.push(Anomaly::new(kind, Some(*key), Some(*o), detail));
        }
    }
}

/// Reads of values a poll should not have seen: an aborted write read under
/// `read_committed` (`G1a`), or a transaction's write read before its commit was asked for,
/// or any write read before it was sent (`precommitted-read`).
pub fn reads(h: &History, ix: &Index, out: &mut Vec<Anomaly>) {
    for op in h.ops.iter().filter(|o| o.outcome == Outcome::Ok) {
        for m in &op.mops {
            let Mop::Poll(reads) = m else { continue };
            for (key, pairs) in reads {
                for (o, v) in pairs {
                    let Some(w) = ix.writer.get(v).map(|i| &h.ops[*i]) else {
                        continue;
                    };
                    if w.index == op.index {
                        continue;
                    }
                    let detail = json!({"value": v, "reader": op.index, "writer": w.index, "process": op.process});
                    if op.read_committed && w.outcome == Outcome::Fail {
                        out.push(Anomaly::new("G1a", Some(*key), Some(*o), detail));
                    } else if op.read_committed && op.complete < w.commit_time.unwrap_or(w.invoke) {
                        out.push(Anomaly::new(
                            "precommitted-read",
                            Some(*key),
                            Some(*o),
                            detail,
                        ));
                    }
                }
            }
        }
    }
}

/// Where a process last was in a key: the offset and the operation that put it there.
#[derive(Clone, Copy)]
struct Position {
    offset: Offset,
    op: usize,
}

/// A process's successive polls and sends: polls that go backwards (`nonmonotonic-poll`)
/// or jump over a committed record (`poll-skip`), sends whose offsets go backwards
/// (`nonmonotonic-send`); `int-` when both sides are in one operation. (Sends of one
/// producer to a key need not be adjacent: other producers write between them.) An assignment,
/// subscription or rebalance of the process starts its polls afresh.
pub fn orders(h: &History, ix: &Index, out: &mut Vec<Anomaly>) {
    let mut by_process: BTreeMap<&str, Vec<Moment>> = BTreeMap::new();
    for op in &h.ops {
        by_process
            .entry(op.process.as_str())
            .or_default()
            .push(Moment::Op(op));
    }
    for e in &h.events {
        if matches!(e.f.as_str(), "assigned" | "revoked" | "lost" | "seek") {
            by_process
                .entry(e.process.as_str())
                .or_default()
                .push(Moment::Reset(e.time));
        }
    }
    for moments in by_process.values_mut() {
        moments.sort_by_key(Moment::time);
        let mut polled: HashMap<Key, Position> = HashMap::new();
        let mut sent: HashMap<Key, Position> = HashMap::new();
        for m in moments.iter() {
            match m {
                Moment::Reset(_) => polled.clear(),
                Moment::Op(op) if matches!(op.f.as_str(), "assign" | "subscribe") => polled.clear(),
                Moment::Op(op) if op.outcome == Outcome::Ok => {
                    follow(op, ix, &mut polled, &mut sent, out)
                }
                Moment::Op(_) => {}
            }
        }
    }
}

enum Moment<'a> {
    Op(&'a Op),
    Reset(u64),
}

impl Moment<'_> {
    fn time(&self) -> u64 {
        match self {
            Moment::Op(op) => op.complete,
            Moment::Reset(t) => *t,
        }
    }
}

fn follow(
    op: &Op,
    ix: &Index,
    polled: &mut HashMap<Key, Position>,
    sent: &mut HashMap<Key, Position>,
    out: &mut Vec<Anomaly>,
) {
    let name = |base: &str, prev: &Position| {
        if prev.op == op.index {
            format!("int-{base}")
        } else {
            base.to_string()
        }
    };
    for m in &op.mops {
        match m {
            Mop::Poll(reads) => {
                for (key, pairs) in reads {
                    for (o, v) in pairs {
                        if let Some(prev) = polled.get(key) {
                            let detail = json!({"process": op.process, "op": op.index, "from": prev.offset, "to": o, "value": v});
                            if *o <= prev.offset {
                                out.push(Anomaly::named(
                                    name("nonmonotonic-poll", prev),
                                    Some(*key),
                                    Some(*o),
                                    detail,
                                ));
                            } else if let Some(skipped) =
                                ix.committed_between(*key, prev.offset, *o)
                            {
                                out.push(Anomaly::named(
                                    name("poll-skip", prev),
                                    Some(*key),
                                    Some(skipped),
                                    detail,
                                ));
                            }
                        }
                        polled.insert(
                            *key,
                            Position {
                                offset: *o,
                                op: op.index,
                            },
                        );
                    }
                }
            }
            Mop::Send {
                key,
                value,
                offset: Some(o),
            } => {
                if let Some(prev) = sent.get(key) {
                    let detail = json!({"process": op.process, "op": op.index, "from": prev.offset, "to": o, "value": value});
                    if *o <= prev.offset {
                        out.push(Anomaly::named(
                            name("nonmonotonic-send", prev),
                            Some(*key),
                            Some(*o),
                            detail,
                        ));
                    }
                }
                sent.insert(
                    *key,
                    Position {
                        offset: *o,
                        op: op.index,
                    },
                );
            }
            Mop::Send { .. } => {}
        }
    }
}
