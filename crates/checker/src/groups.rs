//! Consumer-group ownership and share-group delivery, from the clients' own observations.
//!
//! Group overlap: a member's hold on a key runs from its `assigned` event to its `revoked`,
//! `lost` or `close` event (or the end of the history). Another member of the same group
//! given the key before a cooperative hand-over (`revoked`, `close`) began, or in the same
//! generation of a classic group, is `group-overlap`. Holds of one static member (the same
//! `instance`, its `group.instance.id`) by successive processes are one member's: a static
//! member that comes back keeps its generation and its partitions. A hold that ended `lost` (the member's
//! session expired) may overlap: Kafka fences such a member rather than waiting for it.
//!
//! Share groups (KIP-932): a record is delivered to one consumer at a time, and once a
//! consumer's acknowledgement of it was accepted it is never delivered again. A delivery
//! after an accepted acknowledgement, two deliveries with the same delivery count, or one
//! whose count exceeds that of an accepted delivery, is `share-double-delivery`.

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

/// Reports `group-overlap`.
pub fn overlap(h: &History, out: &mut Vec<Anomaly>) {
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
                let handed_over_early = second.start < first.end && first.how != End::Lost;
                if same_generation || handed_over_early {
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
    count: i64,
}

/// Reports `share-double-delivery`.
pub fn share(h: &History, out: &mut Vec<Anomaly>) {
    let mut deliveries: BTreeMap<(Key, Offset), Vec<Delivery>> = BTreeMap::new();
    // (key, offset) -> (process, completion time) of each accepted acknowledgement.
    let mut accepted: BTreeMap<(Key, Offset), Vec<(String, u64)>> = BTreeMap::new();
    for op in h.ops.iter().filter(|o| o.outcome == Outcome::Ok) {
        let rows = op.value.as_array().into_iter().flatten();
        match op.f.as_str() {
            "share-poll" => {
                for r in rows {
                    let r: Vec<i64> = r
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_i64)
                        .collect();
                    if let [k, o, _value, count] = r[..] {
                        deliveries.entry((k, o)).or_default().push(Delivery {
                            op: op.index,
                            process: op.process.clone(),
                            invoke: op.invoke,
                            count,
                        });
                    }
                }
            }
            "share-ack" => {
                for r in rows {
                    let r: Vec<i64> = r
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_i64)
                        .collect();
                    if let [k, o, ..] = r[..] {
                        accepted
                            .entry((k, o))
                            .or_default()
                            .push((op.process.clone(), op.complete));
                    }
                }
            }
            _ => {}
        }
    }
    for ((k, o), ds) in &deliveries {
        let acks = accepted.get(&(*k, *o)).map(Vec::as_slice).unwrap_or(&[]);
        let mut report = |why: &str, d: &Delivery| {
            out.push(Anomaly::new(
                "share-double-delivery",
                Some(*k),
                Some(*o),
                json!({"why": why, "op": d.op, "process": d.process, "delivery_count": d.count}),
            ));
        };
        for (i, d) in ds.iter().enumerate() {
            if acks.iter().any(|(_, done)| d.invoke > *done) {
                report("delivered after an accepted acknowledgement", d);
            } else if ds[..i].iter().any(|e| e.count == d.count) {
                report("delivered twice with the same delivery count", d);
            } else if acks.iter().any(|(p, done)| {
                // The delivery the acknowledgement accepted: that process's last one before.
                let acked = ds
                    .iter()
                    .filter(|e| e.process == *p && e.invoke < *done)
                    .map(|e| e.count)
                    .max();
                acked.is_some_and(|c| d.count > c)
            }) {
                report("delivered again after a delivery that was accepted", d);
            }
        }
    }
}
