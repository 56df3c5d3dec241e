//! The checker against a model: seeded histories of a correct Kafka (per-key logs where
//! acknowledged sends, committed and aborted transactions and their markers take offsets;
//! consumers that read committed records in order; final polls that read every key whole)
//! must pass, and each corruption of such a history (a write dropped from the log, a value
//! read at a second offset, an aborted write read, a poll that jumps a record, a consumer
//! that goes back) must be caught as its kind. The model knows nothing of the checker's code.

use std::collections::BTreeMap;

use fjord_checker::{check, History};
use serde_json::{json, Value};

/// A small seeded generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One record of a key's log: a value and whether it is committed (readable).
#[derive(Clone, Copy)]
struct Slot {
    value: Option<i64>,
    committed: bool,
}

/// A correct run, serialised as a history; `lines` stay editable for the corruptions.
struct Model {
    lines: Vec<Value>,
    now: u64,
    logs: BTreeMap<i64, Vec<Slot>>,
    /// Each consumer process's next offset per key.
    positions: BTreeMap<u64, BTreeMap<i64, usize>>,
    next_value: i64,
}

const KEYS: i64 = 3;
const CONSUMERS: [u64; 2] = [10, 11];

impl Model {
    fn line(&mut self, process: u64, kind: &str, f: &str, value: Value, extra: Value) {
        self.now += 7;
        let mut l =
            json!({"process": process, "type": kind, "f": f, "time": self.now, "value": value});
        if let Value::Object(m) = extra {
            l.as_object_mut().unwrap().extend(m);
        }
        self.lines.push(l);
    }

    fn append(&mut self, key: i64, value: Option<i64>, committed: bool) -> usize {
        let log = self.logs.entry(key).or_default();
        log.push(Slot { value, committed });
        log.len() - 1
    }

    /// A producer's operation: one acknowledged send, or a transaction of 1-3 sends that
    /// commits or aborts (its marker takes an offset in each key it wrote).
    fn produce(&mut self, rng: &mut Rng, process: u64) {
        let n = 1 + rng.below(3) as usize;
        let txn = rng.below(2) == 0;
        let commit = !txn || rng.below(4) != 0;
        let mut sends = Vec::new();
        for _ in 0..if txn { n } else { 1 } {
            self.next_value += 1;
            sends.push((rng.below(KEYS as u64) as i64, self.next_value));
        }
        let f = if txn { "txn" } else { "send" };
        let invoked: Vec<Value> = sends.iter().map(|(k, v)| json!(["send", k, v])).collect();
        self.line(process, "invoke", f, json!(invoked), json!({}));
        let mut done = Vec::new();
        let mut touched = Vec::new();
        for (k, v) in &sends {
            let o = self.append(*k, Some(*v), false);
            done.push(json!(["send", k, [o, v]]));
            touched.push((*k, o));
        }
        let commit_time = self.now + 3;
        for (k, o) in &touched {
            self.logs.get_mut(k).unwrap()[*o].committed = commit;
        }
        if txn {
            let mut keys: Vec<i64> = touched.iter().map(|(k, _)| *k).collect();
            keys.dedup();
            keys.sort();
            keys.dedup();
            for k in keys {
                self.append(k, None, false);
            }
        }
        if commit {
            self.line(
                process,
                "ok",
                f,
                json!(done),
                json!({"commit_time": commit_time}),
            );
        } else {
            self.line(process, "fail", f, json!(done), json!({}));
        }
    }

    /// A consumer's poll: up to 3 committed records of one key, from its position.
    fn poll(&mut self, rng: &mut Rng, process: u64, is_final: bool) {
        let key = rng.below(KEYS as u64) as i64;
        let reads = self.read(process, key, if is_final { usize::MAX } else { 3 });
        let extra = if is_final {
            json!({"final": true})
        } else {
            json!({})
        };
        self.line(process, "invoke", "poll", json!([["poll"]]), extra.clone());
        self.line(
            process,
            "ok",
            "poll",
            json!([["poll", {key.to_string(): reads}]]),
            extra,
        );
    }

    fn read(&mut self, process: u64, key: i64, most: usize) -> Vec<Value> {
        let log = self.logs.get(&key).cloned().unwrap_or_default();
        let pos = self
            .positions
            .entry(process)
            .or_default()
            .entry(key)
            .or_insert(0);
        let mut reads = Vec::new();
        while *pos < log.len() && reads.len() < most {
            let s = log[*pos];
            if let (Some(v), true) = (s.value, s.committed) {
                reads.push(json!([*pos, v]));
            }
            *pos += 1;
        }
        reads
    }

    fn generate(seed: u64) -> Model {
        let mut rng = Rng(seed);
        let mut m = Model {
            lines: Vec::new(),
            now: 0,
            logs: BTreeMap::new(),
            positions: BTreeMap::new(),
            next_value: 0,
        };
        for _ in 0..60 {
            match rng.below(3) {
                0 => {
                    let c = CONSUMERS[rng.below(2) as usize];
                    m.poll(&mut rng, c, false);
                }
                _ => {
                    let p = 1 + rng.below(3);
                    m.produce(&mut rng, p);
                }
            }
        }
        // The final polls: a fresh consumer reads every key whole.
        for key in 0..KEYS {
            let reads = m.read(99, key, usize::MAX);
            let end = m.logs.get(&key).map_or(0, Vec::len) as i64;
            m.line(
                99,
                "invoke",
                "poll",
                json!([["poll"]]),
                json!({"final": true}),
            );
            m.line(
                99,
                "ok",
                "poll",
                json!([["poll", {key.to_string(): reads}]]),
                json!({"final": true}),
            );
            m.line(
                99,
                "event",
                "final-read",
                json!({"key": key, "end": end, "high_watermark": end}),
                json!({}),
            );
        }
        m
    }

    fn kinds(&self) -> Vec<String> {
        let text: Vec<String> = self.lines.iter().map(Value::to_string).collect();
        let h = History::parse(&text.join("\n")).expect("history parses");
        check(&h, None)
            .counts()
            .into_keys()
            .map(str::to_string)
            .collect()
    }

    /// The index of a completed poll line of a consumer (not final) that read at least
    /// `n` records.
    fn poll_with_reads(&self, n: usize) -> Option<usize> {
        self.lines.iter().position(|l| {
            CONSUMERS.iter().any(|c| l["process"] == json!(c))
                && l["type"] == "ok"
                && l["f"] == "poll"
                && l.get("final").is_none()
                && reads_of(l).is_some_and(|r| r.len() >= n)
        })
    }
}

fn reads_of(l: &Value) -> Option<&Vec<Value>> {
    l["value"][0][1].as_object()?.values().next()?.as_array()
}

fn reads_of_mut(l: &mut Value) -> Option<&mut Vec<Value>> {
    l["value"][0][1]
        .as_object_mut()?
        .values_mut()
        .next()?
        .as_array_mut()
}

/// Seeds per test: 300, or `CHECKER_SEEDS`.
fn seeds() -> u64 {
    std::env::var("CHECKER_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

#[test]
fn correct_histories_pass() {
    for seed in 0..seeds() {
        let m = Model::generate(seed);
        assert_eq!(m.kinds(), Vec::<String>::new(), "seed {seed}");
    }
}

/// Applies `corrupt` to each seed's history where it applies and requires `kind` among what
/// the checker reports; at least `min` seeds must have applied.
fn caught(kind: &str, min: u64, corrupt: impl Fn(&mut Model) -> bool) {
    let mut applied = 0;
    for seed in 0..seeds() {
        let mut m = Model::generate(seed);
        if !corrupt(&mut m) {
            continue;
        }
        applied += 1;
        let kinds = m.kinds();
        assert!(
            kinds.iter().any(|k| k == kind),
            "seed {seed}: {kind} not caught in {kinds:?}"
        );
    }
    assert!(applied >= min, "{kind}: only {applied} seeds applied");
}

#[test]
fn a_write_the_final_polls_lack_is_lost() {
    caught("lost-write", 100, |m| {
        // The final polls of some key lose the first value they read.
        let Some(i) = m.lines.iter().position(|l| {
            l["process"] == json!(99)
                && l["type"] == "ok"
                && reads_of(l).is_some_and(|r| !r.is_empty())
        }) else {
            return false;
        };
        reads_of_mut(&mut m.lines[i]).unwrap().remove(0);
        true
    });
}

#[test]
fn a_value_read_at_a_second_offset_is_a_duplicate() {
    caught("duplicate", 100, |m| {
        let Some(i) = m.poll_with_reads(2) else {
            return false;
        };
        let r = reads_of_mut(&mut m.lines[i]).unwrap();
        let v = r[0][1].clone();
        let o = r.last().unwrap()[0].as_i64().unwrap() + 1000;
        r.push(json!([o, v]));
        true
    });
}

#[test]
fn an_aborted_write_read_is_g1a() {
    caught("G1a", 50, |m| {
        let Some(fail) = m.lines.iter().position(|l| l["type"] == "fail") else {
            return false;
        };
        let send = m.lines[fail]["value"][0].clone();
        let (k, o, v) = (send[1].clone(), send[2][0].clone(), send[2][1].clone());
        m.line(10, "invoke", "poll", json!([["poll"]]), json!({}));
        m.line(
            10,
            "ok",
            "poll",
            json!([["poll", {k.to_string(): [[o, v]]}]]),
            json!({}),
        );
        true
    });
}

#[test]
fn a_poll_that_jumps_a_committed_record_skips() {
    caught("int-poll-skip", 100, |m| {
        let Some(i) = m.poll_with_reads(3) else {
            return false;
        };
        reads_of_mut(&mut m.lines[i]).unwrap().remove(1);
        true
    });
}

#[test]
fn a_consumer_that_goes_back_is_nonmonotonic() {
    caught("int-nonmonotonic-poll", 100, |m| {
        let Some(i) = m.poll_with_reads(2) else {
            return false;
        };
        reads_of_mut(&mut m.lines[i]).unwrap().reverse();
        true
    });
}
