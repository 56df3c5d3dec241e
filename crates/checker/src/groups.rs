//! Consumer-group ownership and share-group delivery, from the clients' own observations.
//!
//! Group overlap: a member's hold on a key runs from its `assigned` event to its `revoked`,
//! `lost` or `close` event (or the end of the history). Kafka does not stop a member whose
//! session the coordinator ended from believing it holds its partitions until it hears so;
//! it fences what that member commits. So two holds of one key in one group overlapping is
//! `group-overlap` only when the earlier holder committed while the later one held the key
//! (a transaction that committed, or an offset commit: a `committed` event), or when two
//! members hold it in the same generation of a classic group. Holds of one static member
//! (the same `instance`, its `group.instance.id`) by successive processes are one member's: a
//! static member that comes back keeps its generation and its partitions.
//!
//! Share groups (KIP-932): a record is delivered to one consumer at a time, and once a
//! consumer's acknowledgement of it was accepted it is never delivered again. A delivery
//! after an accepted acknowledgement, or to another consumer between a delivery and that
//! delivery's accepted acknowledgement (the broker accepts an acknowledgement only from the
//! holder of a valid lock), is `share-double-delivery`. Delivery counts are not compared:
//! KIP-932 does not persist acquisitions, so a count may repeat after the share-partition
//! state is loaded again (a leader change), and a release on close lowers it.

use std::collections::{BTreeMap, HashMap};

use serde_json::{json, Value};

use crate::history::{History, Key, Offset, Outcome};
use crate::Anomaly;

/// How a hold ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Revoked,
    Lost,
    Closed,
    Open,
}

#[derive(Debug, Clone)]
struct Hold {
    process: String,
    start: u64,
    end: u64,
    how: End,
    generation: Option<i64>,
    classic: bool,
    instance: Option<String>,
}

fn keys(v: &Value) -> Vec<Key> {
    v.get("keys")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_i64)
        .collect()
}

/// When each process committed: the commit time of each transaction that committed, and
/// each `committed` event (an offset commit that succeeded).
fn commits(h: &History) -> HashMap<&str, Vec<u64>> {
    let mut by: HashMap<&str, Vec<u64>> = HashMap::new();
    for op in h
        .ops
        .iter()
        .filter(|o| o.outcome == Outcome::Ok && o.f == "txn")
    {
        if let Some(t) = op.commit_time {
            by.entry(op.process.as_str()).or_default().push(t);
        }
    }
    for e in h.events.iter().filter(|e| e.f == "committed") {
        by.entry(e.process.as_str()).or_default().push(e.time);
    }
    by
}

/// Reports `group-overlap`.
pub fn overlap(h: &History, out: &mut Vec<Anomaly>) {
    let committed = commits(h);
    let end_of_history = h
        .ops
        .iter()
        .map(|o| o.complete)
        .chain(h.events.iter().map(|e| e.time))
        .max()
        .unwrap_or(0);
    // (group, key) -> holds; (process, group, key) -> the open hold's index.
    let mut holds: BTreeMap<(String, Key), Vec<Hold>> = BTreeMap::new();
    let mut open: HashMap<(String, String, Key), usize> = HashMap::new();
    for e in &h.events {
        let group = e
            .value
            .get("group")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let how = match e.f.as_str() {
            "assigned" => None,
            "revoked" => Some(End::Revoked),
            "lost" => Some(End::Lost),
            "close" => Some(End::Closed),
            _ => continue,
        };
        let ks = if e.f == "close" {
            // A close ends every hold of the process.
            open.keys()
                .filter(|(p, g, _)| *p == e.process && *g == group)
                .map(|(_, _, k)| *k)
                .collect()
        } else {
            keys(&e.value)
        };
        for k in ks {
            let slot = (e.process.clone(), group.clone(), k);
            match how {
                None => {
                    let list = holds.entry((group.clone(), k)).or_default();
                    if open.contains_key(&slot) {
                        continue;
                    }
                    open.insert(slot, list.len());
                    list.push(Hold {
                        process: e.process.clone(),
                        start: e.time,
                        end: end_of_history,
                        how: End::Open,
                        generation: e.value.get("generation").and_then(Value::as_i64),
                        classic: e.value.get("protocol").and_then(Value::as_str) == Some("classic"),
                        instance: e
                            .value
                            .get("instance")
                            .and_then(Value::as_str)
                            .map(str::to_string),
                    });
                }
                Some(how) => {
                    if let Some(i) = open.remove(&slot) {
                        let hold = &mut holds.get_mut(&(group.clone(), k)).expect("open")[i];
                        hold.end = e.time;
                        hold.how = how;
                    }
                }
            }
        }
    }
    for ((group, key), list) in &holds {
        for (i, a) in list.iter().enumerate() {
            for b in &list[i + 1..] {
                if a.process == b.process {
                    continue;
                }
                let one_static_member = a.instance.is_some() && a.instance == b.instance;
                let same_generation = a.classic
                    && b.classic
                    && !one_static_member
                    && a.generation.is_some()
                    && a.generation == b.generation;
                let (first, second) = if a.start <= b.start { (a, b) } else { (b, a) };
                // The earlier holder committed while the later one held the key.
                let both_committed = second.start < first.end
                    && committed
                        .get(first.process.as_str())
                        .is_some_and(|ts| ts.iter().any(|t| *t > second.start && *t < first.end));
                if same_generation || both_committed {
                    out.push(Anomaly::new(
                        "group-overlap",
                        Some(*key),
                        None,
                        json!({
                            "group": group,
                            "first": {"process": first.process, "from": first.start, "to": first.end, "generation": first.generation},
                            "second": {"process": second.process, "from": second.start, "generation": second.generation},
                        }),
                    ));
                }
            }
        }
    }
}

/// One delivery of a share-group record.
#[derive(Debug, Clone)]
struct Delivery {
    op: usize,
    process: String,
    invoke: u64,
    complete: u64,
}

/// An accepted acknowledgement: the process, and when its commit was invoked and completed.
type Accepted = (String, u64, u64);

/// Reports `share-double-delivery`.
pub fn share(h: &History, out: &mut Vec<Anomaly>) {
    let mut deliveries: BTreeMap<(Key, Offset), Vec<Delivery>> = BTreeMap::new();
    // (key, offset) -> (process, invocation, completion) of each accepted acknowledgement.
    let mut accepted: BTreeMap<(Key, Offset), Vec<Accepted>> = BTreeMap::new();
    for op in h.ops.iter().filter(|o| o.outcome == Outcome::Ok) {
        let rows = op.value.as_array().into_iter().flatten().map(|r| {
            r.as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_i64)
                .collect::<Vec<i64>>()
        });
        for r in rows {
            let [k, o, ..] = r[..] else { continue };
            match op.f.as_str() {
                "share-poll" => deliveries.entry((k, o)).or_default().push(Delivery {
                    op: op.index,
                    process: op.process.clone(),
                    invoke: op.invoke,
                    complete: op.complete,
                }),
                "share-ack" => accepted.entry((k, o)).or_default().push((
                    op.process.clone(),
                    op.invoke,
                    op.complete,
                )),
                _ => {}
            }
        }
    }
    for ((k, o), ds) in &deliveries {
        let acks = accepted.get(&(*k, *o)).map(Vec::as_slice).unwrap_or(&[]);
        let mut report = |why: &str, d: &Delivery| {
            out.push(Anomaly::new(
                "share-double-delivery",
                Some(*k),
                Some(*o),
                json!({"why": why, "op": d.op, "process": d.process}),
            ));
        };
        for d in ds {
            if acks.iter().any(|(_, _, done)| d.invoke > *done) {
                report("delivered after an accepted acknowledgement", d);
                continue;
            }
            // Another consumer's delivery that this one lies between and its accepted
            // acknowledgement: the other held the lock all along.
            let inside = acks.iter().any(|(p, ack_invoke, _)| {
                *p != d.process
                    && ds.iter().any(|e| {
                        e.process == *p && e.complete < d.invoke && d.complete < *ack_invoke
                    })
            });
            if inside {
                report(
                    "delivered while another consumer held it, whose acknowledgement was accepted",
                    d,
                );
            }
        }
    }
}
