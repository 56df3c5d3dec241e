//! The history a workload writes, one JSON object a line, and the operations it pairs them
//! into: an `invoke` and the `ok`, `fail` or `info` that completes it on the same process.
//!
//! A line: `{"process": 3, "type": "invoke", "f": "txn", "time": 123, "value": [...]}`.
//! `time` is a monotonic clock in nanoseconds shared by every client process of a run.
//! Standalone observations (a consumer's assignment, a nemesis) have `"type": "event"`.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

/// A record's key: the partition of the workload's topic it is written to.
pub type Key = i64;
/// A record's value: unique over the whole run.
pub type Val = i64;
/// An offset in a key's partition.
pub type Offset = i64;

/// Why a history could not be read.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// A line is not JSON.
    #[error("line {line}: not JSON: {source}")]
    Json {
        /// The line's number, from 1.
        line: usize,
        /// What the parser said.
        source: serde_json::Error,
    },
    /// A line is JSON but not of the history's shape.
    #[error("line {line}: {why}")]
    Shape {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
}

/// How an operation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// It took effect (a send acknowledged, a transaction committed).
    Ok,
    /// It certainly did not take effect (a transaction aborted).
    Fail,
    /// Unknown: it may or may not have taken effect.
    Info,
}

/// One step of an operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mop {
    /// A record sent to `key`, with the offset the broker gave it when known.
    Send {
        /// The key (partition).
        key: Key,
        /// The value.
        value: Val,
        /// The offset acknowledged, if any.
        offset: Option<Offset>,
    },
    /// A poll: per key, the (offset, value) pairs it returned, in order.
    Poll(BTreeMap<Key, Vec<(Offset, Val)>>),
}

/// A client operation: an invocation and its completion.
#[derive(Debug, Clone)]
pub struct Op {
    /// Its position among the operations, in the order they completed.
    pub index: usize,
    /// The client process (a client's lifetime: a rebuilt client is a new process).
    pub process: String,
    /// What it did: `send`, `poll`, `txn`, `assign`, `subscribe`, `share-poll`, `share-ack`.
    pub f: String,
    /// When it was invoked (ns).
    pub invoke: u64,
    /// When it completed (ns); the end of the history for one that never did.
    pub complete: u64,
    /// How it ended.
    pub outcome: Outcome,
    /// Its steps (sends and polls).
    pub mops: Vec<Mop>,
    /// The completion's raw value (share operations and assignments read it).
    pub value: Value,
    /// Whether its polls read only committed records (`read_committed`; the default).
    pub read_committed: bool,
    /// For a transaction: when its commit was asked for (ns).
    pub commit_time: Option<u64>,
    /// Whether it is one of the final polls that read every key from the start.
    pub is_final: bool,
}

/// A standalone observation: `f` is `assigned`, `revoked`, `lost`, `close`, or a nemesis's.
#[derive(Debug, Clone)]
pub struct Event {
    /// Who observed it.
    pub process: String,
    /// What it is.
    pub f: String,
    /// When (ns).
    pub time: u64,
    /// Its value.
    pub value: Value,
}

/// A whole history, paired.
#[derive(Debug, Default, Clone)]
pub struct History {
    /// The operations, in completion order.
    pub ops: Vec<Op>,
    /// The standalone observations, in history order.
    pub events: Vec<Event>,
}

struct Line {
    process: String,
    kind: String,
    f: String,
    time: u64,
    value: Value,
    raw: serde_json::Map<String, Value>,
}

fn line(n: usize, text: &str) -> Result<Line, HistoryError> {
    let v: Value =
        serde_json::from_str(text).map_err(|source| HistoryError::Json { line: n, source })?;
    let shape = |why: &str| HistoryError::Shape {
        line: n,
        why: why.to_string(),
    };
    let Value::Object(raw) = v else {
        return Err(shape("not an object"));
    };
    let process = match raw.get("process") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(x)) => x.to_string(),
        _ => return Err(shape("no process")),
    };
    let kind = raw
        .get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| shape("no type"))?
        .to_string();
    let f = raw
        .get("f")
        .and_then(Value::as_str)
        .ok_or_else(|| shape("no f"))?
        .to_string();
    let time = raw
        .get("time")
        .and_then(Value::as_u64)
        .ok_or_else(|| shape("no time"))?;
    let value = raw.get("value").cloned().unwrap_or(Value::Null);
    Ok(Line {
        process,
        kind,
        f,
        time,
        value,
        raw,
    })
}

fn int(v: &Value, n: usize, what: &str) -> Result<i64, HistoryError> {
    v.as_i64().ok_or_else(|| HistoryError::Shape {
        line: n,
        why: format!("{what} is not an integer: {v}"),
    })
}

/// The steps of a `send`, `poll` or `txn` value: `["send", k, v]`, `["send", k, [o, v]]`,
/// `["poll"]` or `["poll", {"k": [[o, v], ...]}]`.
fn mops(value: &Value, n: usize) -> Result<Vec<Mop>, HistoryError> {
    let shape = |why: String| HistoryError::Shape { line: n, why };
    let Some(steps) = value.as_array() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(steps.len());
    for step in steps {
        let parts = step
            .as_array()
            .ok_or_else(|| shape(format!("a step is not a list: {step}")))?;
        match parts.first().and_then(Value::as_str) {
            Some("send") => {
                let key = int(parts.get(1).unwrap_or(&Value::Null), n, "a send's key")?;
                let (offset, value) = match parts.get(2) {
                    Some(Value::Array(ov)) if ov.len() == 2 => (
                        if ov[0].is_null() {
                            None
                        } else {
                            Some(int(&ov[0], n, "an offset")?)
                        },
                        int(&ov[1], n, "a value")?,
                    ),
                    Some(v) => (None, int(v, n, "a send's value")?),
                    None => return Err(shape("a send without a value".into())),
                };
                out.push(Mop::Send { key, value, offset });
            }
            Some("poll") => {
                let mut reads = BTreeMap::new();
                if let Some(Value::Object(m)) = parts.get(1) {
                    for (k, pairs) in m {
                        let key: Key = k
                            .parse()
                            .map_err(|_| shape(format!("a poll's key is not an integer: {k}")))?;
                        let mut got = Vec::new();
                        for pair in pairs.as_array().into_iter().flatten() {
                            let ov = pair.as_array().filter(|a| a.len() == 2).ok_or_else(|| {
                                shape(format!("a read is not [offset, value]: {pair}"))
                            })?;
                            got.push((int(&ov[0], n, "an offset")?, int(&ov[1], n, "a value")?));
                        }
                        reads.insert(key, got);
                    }
                }
                out.push(Mop::Poll(reads));
            }
            _ => return Err(shape(format!("an unknown step: {step}"))),
        }
    }
    Ok(out)
}

impl History {
    /// Reads a history from its text (JSON lines; blank lines are skipped).
    pub fn parse(text: &str) -> Result<History, HistoryError> {
        let mut open: HashMap<String, (usize, Line)> = HashMap::new();
        let mut history = History::default();
        let mut end = 0;
        for (i, text) in text.lines().enumerate() {
            let n = i + 1;
            if text.trim().is_empty() {
                continue;
            }
            let l = line(n, text)?;
            end = end.max(l.time);
            match l.kind.as_str() {
                "invoke" => {
                    if open.contains_key(&l.process) {
                        return Err(HistoryError::Shape {
                            line: n,
                            why: format!("process {} invoked twice without completing", l.process),
                        });
                    }
                    open.insert(l.process.clone(), (n, l));
                }
                "ok" | "fail" | "info" => {
                    let Some((_, inv)) = open.remove(&l.process) else {
                        return Err(HistoryError::Shape {
                            line: n,
                            why: format!("process {} completed what it never invoked", l.process),
                        });
                    };
                    let outcome = match l.kind.as_str() {
                        "ok" => Outcome::Ok,
                        "fail" => Outcome::Fail,
                        _ => Outcome::Info,
                    };
                    // A completion without a value keeps the invocation's.
                    let value = if l.value.is_null() {
                        inv.value.clone()
                    } else {
                        l.value.clone()
                    };
                    history.push(inv, &l, outcome, value, n)?;
                }
                "event" => history.events.push(Event {
                    process: l.process,
                    f: l.f,
                    time: l.time,
                    value: l.value,
                }),
                other => {
                    return Err(HistoryError::Shape {
                        line: n,
                        why: format!("an unknown type: {other}"),
                    })
                }
            }
        }
        // Operations still open at the end are indeterminate.
        let mut left: Vec<(usize, Line)> = open.into_values().collect();
        left.sort_by_key(|(n, _)| *n);
        for (n, inv) in left {
            let done = Line {
                process: inv.process.clone(),
                kind: "info".into(),
                f: inv.f.clone(),
                time: end,
                value: Value::Null,
                raw: serde_json::Map::new(),
            };
            let value = inv.value.clone();
            history.push(inv, &done, Outcome::Info, value, n)?;
        }
        Ok(history)
    }

    fn push(
        &mut self,
        inv: Line,
        done: &Line,
        outcome: Outcome,
        value: Value,
        n: usize,
    ) -> Result<(), HistoryError> {
        let flag = |name: &str| {
            done.raw
                .get(name)
                .or_else(|| inv.raw.get(name))
                .and_then(Value::as_bool)
        };
        let steps = match inv.f.as_str() {
            "send" | "poll" | "txn" => mops(&value, n)?,
            _ => Vec::new(),
        };
        self.ops.push(Op {
            index: self.ops.len(),
            process: inv.process,
            f: inv.f,
            invoke: inv.time,
            complete: done.time,
            outcome,
            mops: steps,
            value,
            read_committed: flag("read_committed").unwrap_or(true),
            commit_time: done.raw.get("commit_time").and_then(Value::as_u64),
            is_final: flag("final").unwrap_or(false),
        });
        Ok(())
    }
}
