//! One hand-written history per anomaly the checker must catch, and clean histories it must
//! pass: each anomaly test names exactly the kinds it expects, so a checker that reports too
//! much fails as surely as one that reports too little.

use std::collections::BTreeMap;

use fjord_checker::{check, Announcement, History};
use serde_json::{json, Value};

/// Writes a history line by line, with a clock that ticks once per line.
#[derive(Default)]
struct H {
    lines: Vec<String>,
    now: u64,
}

impl H {
    fn line(&mut self, process: u64, kind: &str, f: &str, value: Value, extra: Value) -> u64 {
        self.now += 10;
        let mut l =
            json!({"process": process, "type": kind, "f": f, "time": self.now, "value": value});
        if let Value::Object(m) = extra {
            l.as_object_mut().unwrap().extend(m);
        }
        self.lines.push(l.to_string());
        self.now
    }

    /// A whole operation: invoke, then its completion.
    fn op(&mut self, p: u64, f: &str, inv: Value, kind: &str, done: Value) -> &mut Self {
        self.line(p, "invoke", f, inv, json!({}));
        self.line(p, kind, f, done, json!({}));
        self
    }

    /// A transaction that committed, with what it did (`["send", k, [o, v]]`, `["poll", ...]`).
    fn txn(&mut self, p: u64, done: Value) -> &mut Self {
        self.op(p, "txn", json!([]), "ok", done)
    }

    /// One of the final polls, reading `reads` of key `k`.
    fn final_poll(&mut self, p: u64, k: i64, reads: &[(i64, i64)]) -> &mut Self {
        let pairs: Vec<Value> = reads.iter().map(|(o, v)| json!([o, v])).collect();
        self.line(
            p,
            "invoke",
            "poll",
            json!([["poll"]]),
            json!({"final": true}),
        );
        self.line(
            p,
            "ok",
            "poll",
            json!([["poll", {k.to_string(): pairs}]]),
            json!({}),
        );
        self
    }

    /// An acknowledged single send of `v` to `k` at `o`.
    fn send(&mut self, p: u64, k: i64, v: i64, o: i64) -> &mut Self {
        self.op(
            p,
            "send",
            json!([["send", k, v]]),
            "ok",
            json!([["send", k, [o, v]]]),
        )
    }

    /// A poll that read `reads` of key `k`.
    fn poll(&mut self, p: u64, k: i64, reads: &[(i64, i64)]) -> &mut Self {
        let pairs: Vec<Value> = reads.iter().map(|(o, v)| json!([o, v])).collect();
        self.op(
            p,
            "poll",
            json!([["poll"]]),
            "ok",
            json!([["poll", {k.to_string(): pairs}]]),
        )
    }

    fn event(&mut self, p: u64, f: &str, value: Value) -> &mut Self {
        self.line(p, "event", f, value, json!({}));
        self
    }

    fn counts(&self, announce: Option<&Announcement>) -> BTreeMap<String, usize> {
        let h = History::parse(&self.lines.join("\n")).expect("history parses");
        check(&h, announce)
            .counts()
            .into_iter()
            .map(|(k, n)| (k.to_string(), n))
            .collect()
    }

    fn kinds(&self) -> Vec<String> {
        self.counts(None).into_keys().collect()
    }
}

fn only(kinds: &[&str]) -> Vec<String> {
    kinds.iter().map(|k| k.to_string()).collect()
}

#[test]
fn a_clean_history_passes() {
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1).send(2, 1, 3, 0);
    h.poll(3, 0, &[(0, 1), (1, 2)]).poll(3, 1, &[(0, 3)]);
    assert_eq!(h.kinds(), Vec::<String>::new());
}

#[test]
fn a_transaction_that_committed_read_after_its_commit_passes() {
    let mut h = H::default();
    h.line(
        1,
        "invoke",
        "txn",
        json!([["send", 0, 1], ["send", 1, 2]]),
        json!({}),
    );
    h.line(
        1,
        "ok",
        "txn",
        json!([["send", 0, [0, 1]], ["send", 1, [0, 2]]]),
        json!({"commit_time": 15}),
    );
    h.poll(2, 0, &[(0, 1)]).poll(2, 1, &[(0, 2)]);
    assert_eq!(h.kinds(), Vec::<String>::new());
}

#[test]
fn lost_write_an_acknowledged_value_under_a_read_offset_never_read() {
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1).send(1, 0, 3, 2);
    h.poll(2, 0, &[(0, 1), (2, 3)]);
    // Offset 1 is skipped by the same poll too, since it holds an acknowledged value.
    assert_eq!(h.kinds(), only(&["int-poll-skip", "lost-write"]));
}

#[test]
fn unseen_an_acknowledged_value_past_every_final_read() {
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1);
    h.line(
        2,
        "invoke",
        "poll",
        json!([["poll"]]),
        json!({"final": true}),
    );
    h.line(
        2,
        "ok",
        "poll",
        json!([["poll", {"0": [[0, 1]]}]]),
        json!({}),
    );
    assert_eq!(h.kinds(), only(&["unseen"]));
    // Without final polls, a value nobody read yet is no anomaly.
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1).poll(2, 0, &[(0, 1)]);
    assert_eq!(h.kinds(), Vec::<String>::new());
}

#[test]
fn lost_write_read_once_then_gone_from_the_final_reads() {
    // Read by a consumer, then cut from the log (an unclean election): the final polls,
    // which read key 0 whole, do not hold it.
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1);
    h.poll(2, 0, &[(0, 1), (1, 2)]);
    h.final_poll(3, 0, &[(0, 1)]);
    h.event(3, "final-read", json!({"key": 0, "end": 1}));
    assert_eq!(h.kinds(), only(&["lost-write"]));
    // A key the final polls did not read whole says nothing of the values they missed.
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1);
    h.poll(2, 0, &[(0, 1), (1, 2)]);
    h.final_poll(3, 0, &[(0, 1)]);
    assert_eq!(h.kinds(), Vec::<String>::new());
}

#[test]
fn hanging_transaction_a_key_whose_last_stable_offset_never_reached_its_end() {
    let mut h = H::default();
    h.send(1, 0, 1, 0);
    h.line(2, "invoke", "txn", json!([["send", 0, 2]]), json!({}));
    h.line(2, "info", "txn", json!([["send", 0, [1, 2]]]), json!({}));
    h.send(1, 0, 3, 2);
    h.final_poll(3, 0, &[(0, 1)]);
    h.event(
        3,
        "final-read",
        json!({"key": 0, "end": 1, "high_watermark": 3}),
    );
    // The write after the open transaction is not lost: nobody could read it yet.
    assert_eq!(h.kinds(), only(&["hanging-transaction", "unseen"]));
}

#[test]
fn duplicate_one_value_at_two_offsets() {
    let mut h = H::default();
    h.send(1, 0, 1, 0).poll(2, 0, &[(0, 1)]);
    h.poll(3, 0, &[(0, 1), (1, 1)]);
    assert_eq!(h.kinds(), only(&["duplicate"]));
}

#[test]
fn inconsistent_offsets_two_readers_disagree() {
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1);
    h.poll(2, 0, &[(0, 1), (1, 2)]);
    h.poll(3, 0, &[(0, 1), (1, 9)]);
    assert_eq!(h.kinds(), only(&["inconsistent-offsets"]));
}

#[test]
fn offset_reuse_two_acknowledged_sends_at_one_offset() {
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(2, 0, 2, 0);
    h.poll(3, 0, &[(0, 2)]);
    // Value 1 was acknowledged at 0 and is gone: also a write nobody read, though nobody
    // read past it (no final polls), so not a lost write.
    assert_eq!(h.kinds(), only(&["offset-reuse"]));
}

#[test]
fn g1a_an_aborted_write_read_under_read_committed() {
    let mut h = H::default();
    h.line(1, "invoke", "txn", json!([["send", 0, 1]]), json!({}));
    h.line(1, "fail", "txn", json!([["send", 0, [0, 1]]]), json!({}));
    h.poll(2, 0, &[(0, 1)]);
    assert_eq!(h.kinds(), only(&["G1a"]));
    // read_uncommitted may read it.
    let mut h = H::default();
    h.line(1, "invoke", "txn", json!([["send", 0, 1]]), json!({}));
    h.line(1, "fail", "txn", json!([["send", 0, [0, 1]]]), json!({}));
    h.line(2, "invoke", "poll", json!([["poll"]]), json!({}));
    h.line(
        2,
        "ok",
        "poll",
        json!([["poll", {"0": [[0, 1]]}]]),
        json!({"read_committed": false}),
    );
    assert_eq!(h.kinds(), Vec::<String>::new());
}

#[test]
fn precommitted_read_a_transaction_read_before_its_commit() {
    let mut h = H::default();
    h.line(1, "invoke", "txn", json!([["send", 0, 1]]), json!({}));
    h.poll(2, 0, &[(0, 1)]);
    h.line(
        1,
        "ok",
        "txn",
        json!([["send", 0, [0, 1]]]),
        json!({"commit_time": 45}),
    );
    assert_eq!(h.kinds(), only(&["precommitted-read"]));
}

#[test]
fn poll_skip_between_a_process_polls() {
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1).send(1, 0, 3, 2);
    h.poll(2, 0, &[(0, 1)]).poll(2, 0, &[(2, 3)]);
    h.poll(3, 0, &[(1, 2)]);
    assert_eq!(h.kinds(), only(&["poll-skip"]));
    // A rebalance in between starts the process's polls afresh.
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1).send(1, 0, 3, 2);
    h.poll(2, 0, &[(0, 1)]);
    h.event(2, "assigned", json!({"group": "g", "keys": [0]}));
    h.poll(2, 0, &[(2, 3)]).poll(3, 0, &[(1, 2)]);
    assert_eq!(h.kinds(), Vec::<String>::new());
}

#[test]
fn a_gap_of_markers_or_aborted_records_is_no_skip() {
    let mut h = H::default();
    h.send(1, 0, 1, 0);
    h.line(1, "invoke", "txn", json!([["send", 0, 2]]), json!({}));
    h.line(1, "fail", "txn", json!([["send", 0, [1, 2]]]), json!({}));
    h.send(1, 0, 3, 3);
    h.poll(2, 0, &[(0, 1), (3, 3)]);
    assert_eq!(h.kinds(), Vec::<String>::new());
}

#[test]
fn nonmonotonic_poll_between_and_within_polls() {
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1);
    h.poll(2, 0, &[(0, 1), (1, 2)]).poll(2, 0, &[(0, 1)]);
    assert_eq!(h.kinds(), only(&["nonmonotonic-poll"]));
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1);
    h.poll(2, 0, &[(1, 2), (0, 1)]);
    assert_eq!(h.kinds(), only(&["int-nonmonotonic-poll"]));
}

#[test]
fn nonmonotonic_send_between_and_within_operations() {
    let mut h = H::default();
    h.send(1, 0, 1, 5).send(1, 0, 2, 3);
    h.poll(2, 0, &[(3, 2), (5, 1)]);
    assert_eq!(h.kinds(), only(&["nonmonotonic-send"]));
    let mut h = H::default();
    h.op(
        1,
        "txn",
        json!([["send", 0, 1], ["send", 0, 2]]),
        "ok",
        json!([["send", 0, [5, 1]], ["send", 0, [3, 2]]]),
    );
    h.poll(2, 0, &[(3, 2), (5, 1)]);
    assert_eq!(h.kinds(), only(&["int-nonmonotonic-send"]));
}

#[test]
fn int_poll_skip_within_one_poll() {
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1).send(1, 0, 3, 2);
    h.poll(2, 0, &[(0, 1), (1, 2), (2, 3)]);
    h.poll(3, 0, &[(0, 1), (2, 3)]);
    assert_eq!(h.kinds(), only(&["int-poll-skip"]));
}

#[test]
fn g0_two_transactions_write_two_keys_in_opposite_orders() {
    let mut h = H::default();
    h.txn(1, json!([["send", 0, [0, 1]], ["send", 1, [1, 2]]]));
    h.txn(2, json!([["send", 0, [1, 3]], ["send", 1, [0, 4]]]));
    h.poll(3, 0, &[(0, 1), (1, 3)])
        .poll(3, 1, &[(0, 4), (1, 2)]);
    assert_eq!(h.kinds(), only(&["G0"]));
}

#[test]
fn g1c_a_write_read_edge_closes_a_cycle() {
    let mut h = H::default();
    // T1 writes key 1 after T2 did, and T2 read T1's write of key 0.
    h.txn(1, json!([["send", 0, [0, 1]], ["send", 1, [1, 2]]]));
    h.txn(2, json!([["send", 1, [0, 3]], ["poll", {"0": [[0, 1]]}]]));
    h.poll(3, 1, &[(0, 3), (1, 2)]);
    assert_eq!(h.kinds(), only(&["G1c"]));
}

#[test]
fn group_overlap_the_old_holder_commits_after_the_partition_was_given_on() {
    let mut h = H::default();
    h.event(1, "assigned", json!({"group": "g", "keys": [0, 1]}));
    h.event(2, "assigned", json!({"group": "g", "keys": [1]}));
    h.event(1, "committed", json!({"group": "g"}));
    h.event(1, "revoked", json!({"group": "g", "keys": [1]}));
    assert_eq!(h.kinds(), only(&["group-overlap"]));
    // A transaction of the old holder that commits in the overlap counts as well.
    let mut h = H::default();
    h.event(1, "assigned", json!({"group": "g", "keys": [0]}));
    h.event(2, "assigned", json!({"group": "g", "keys": [0]}));
    h.line(1, "invoke", "txn", json!([]), json!({}));
    let now = h.now;
    h.line(1, "ok", "txn", json!([]), json!({"commit_time": now + 5}));
    h.event(1, "close", json!({"group": "g"}));
    assert_eq!(h.kinds(), only(&["group-overlap"]));
    // A member fenced without knowing it (it commits nothing after the hand-over) is what
    // Kafka allows.
    let mut h = H::default();
    h.event(1, "assigned", json!({"group": "g", "keys": [0, 1]}));
    h.event(1, "committed", json!({"group": "g"}));
    h.event(2, "assigned", json!({"group": "g", "keys": [1]}));
    h.event(1, "close", json!({"group": "g"}));
    assert_eq!(h.kinds(), Vec::<String>::new());
    // A hand-over in order, and a member that lost its partitions, are fine.
    let mut h = H::default();
    h.event(1, "assigned", json!({"group": "g", "keys": [0, 1]}));
    h.event(1, "revoked", json!({"group": "g", "keys": [1]}));
    h.event(2, "assigned", json!({"group": "g", "keys": [1]}));
    h.event(3, "assigned", json!({"group": "g", "keys": [0]}));
    h.event(1, "lost", json!({"group": "g", "keys": [0]}));
    h.event(4, "assigned", json!({"group": "other", "keys": [1]}));
    assert_eq!(h.kinds(), Vec::<String>::new());
}

#[test]
fn group_overlap_two_members_of_one_classic_generation() {
    let mut h = H::default();
    let a = json!({"group": "g", "keys": [0], "generation": 4, "protocol": "classic"});
    h.event(1, "assigned", a.clone());
    h.event(1, "lost", a.clone());
    h.event(2, "assigned", a);
    assert_eq!(h.kinds(), only(&["group-overlap"]));
    // One static member rebuilt as a new process keeps its generation.
    let mut h = H::default();
    let a = json!({"group": "g", "keys": [0], "generation": 4, "protocol": "classic", "instance": "i-1"});
    h.event(1, "assigned", a.clone());
    h.event(1, "close", json!({"group": "g"}));
    h.event(2, "assigned", a);
    assert_eq!(h.kinds(), Vec::<String>::new());
}

#[test]
fn share_double_delivery_after_an_accepted_acknowledgement() {
    let mut h = H::default();
    h.send(1, 0, 1, 0);
    h.op(2, "share-poll", json!(null), "ok", json!([[0, 0, 1, 1]]));
    h.op(2, "share-ack", json!(null), "ok", json!([[0, 0]]));
    h.op(3, "share-poll", json!(null), "ok", json!([[0, 0, 1, 2]]));
    assert_eq!(h.kinds(), only(&["share-double-delivery"]));
    // A lock that expired (the first consumer's acknowledgement failed) allows a redelivery.
    let mut h = H::default();
    h.send(1, 0, 1, 0);
    h.op(2, "share-poll", json!(null), "ok", json!([[0, 0, 1, 1]]));
    h.op(3, "share-poll", json!(null), "ok", json!([[0, 0, 1, 2]]));
    h.op(2, "share-ack", json!(null), "fail", json!([[0, 0]]));
    h.op(3, "share-ack", json!(null), "ok", json!([[0, 0]]));
    assert_eq!(h.kinds(), Vec::<String>::new());
}

#[test]
fn share_double_delivery_while_another_consumer_held_the_lock() {
    let mut h = H::default();
    h.send(1, 0, 1, 0);
    h.op(2, "share-poll", json!(null), "ok", json!([[0, 0, 1, 1]]));
    h.op(3, "share-poll", json!(null), "ok", json!([[0, 0, 1, 2]]));
    h.op(2, "share-ack", json!(null), "ok", json!([[0, 0]]));
    assert_eq!(h.kinds(), only(&["share-double-delivery"]));
}

#[test]
fn share_redelivery_with_the_same_count_after_a_refused_acknowledgement_is_allowed() {
    // KIP-932 does not persist acquisitions: after the state is loaded again a count repeats.
    let mut h = H::default();
    h.send(1, 0, 1, 0);
    h.op(2, "share-poll", json!(null), "ok", json!([[0, 0, 1, 1]]));
    h.op(2, "share-ack", json!(null), "ok", json!([]));
    h.op(2, "share-poll", json!(null), "ok", json!([[0, 0, 1, 1]]));
    h.op(2, "share-ack", json!(null), "ok", json!([[0, 0]]));
    // Overlapping polls of two consumers are no evidence either way.
    h.line(3, "invoke", "share-poll", json!(null), json!({}));
    h.line(4, "invoke", "share-poll", json!(null), json!({}));
    h.line(3, "ok", "share-poll", json!([[0, 1, 2, 1]]), json!({}));
    h.line(4, "ok", "share-poll", json!([[0, 1, 2, 2]]), json!({}));
    h.op(3, "share-ack", json!(null), "ok", json!([[0, 1]]));
    h.send(1, 0, 2, 1);
    assert_eq!(h.kinds(), Vec::<String>::new());
}

fn announcement(v: Value) -> Announcement {
    serde_json::from_value(v).expect("announcement")
}

/// An unclean election truncated offsets 1 and 2 of key 0: new writes reuse them.
fn truncated_history() -> H {
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1).send(1, 0, 3, 2);
    h.send(2, 0, 4, 1).send(2, 0, 5, 2).send(2, 0, 6, 3);
    h.poll(3, 0, &[(0, 1), (1, 4), (2, 5), (3, 6)]);
    h
}

#[test]
fn the_recovery_tool_may_over_announce() {
    let h = truncated_history();
    assert_eq!(
        h.kinds(),
        only(&["lost-write", "offset-reuse"]),
        "unannounced, the truncation is lost writes and offsets given out twice"
    );
    let a = announcement(json!({"partitions": [{"key": 0, "truncated": [[1, null]]}]}));
    assert_eq!(h.counts(Some(&a)), BTreeMap::new());
    let a = announcement(
        json!({"partitions": [{"key": 0, "truncated": [[0, 2]], "unknown": [[2, 3]]}]}),
    );
    assert_eq!(h.counts(Some(&a)), BTreeMap::new());
}

#[test]
fn a_producer_that_sees_offsets_go_back_across_an_announced_truncation() {
    let mut h = H::default();
    h.send(1, 0, 1, 0).send(1, 0, 2, 1).send(1, 0, 3, 2);
    h.send(1, 0, 4, 1);
    h.poll(3, 0, &[(0, 1), (1, 4)]);
    let kinds = h.kinds();
    assert!(
        kinds.contains(&"nonmonotonic-send".to_string()),
        "{kinds:?}"
    );
    let a = announcement(json!({"partitions": [{"key": 0, "unknown": [[1, null]]}]}));
    assert_eq!(h.counts(Some(&a)), BTreeMap::new());
}

#[test]
fn the_recovery_tool_must_never_under_announce() {
    let h = truncated_history();
    // Only offset 1 announced: offset 2's reuse and loss were not.
    let a = announcement(json!({"partitions": [{"key": 0, "truncated": [[1, 2]]}]}));
    assert_eq!(
        h.counts(Some(&a)),
        BTreeMap::from([("under-announced".to_string(), 2)])
    );
    // The figure alone covers lost writes up to its count, never an offset given twice.
    let a = announcement(json!({"partitions": [{"key": 0, "acknowledged_lost": 2}]}));
    assert_eq!(
        h.counts(Some(&a)),
        BTreeMap::from([("under-announced".to_string(), 2)])
    );
    let a = announcement(json!({"partitions": [{"key": 0, "acknowledged_lost": 1}]}));
    assert_eq!(
        h.counts(Some(&a)),
        BTreeMap::from([("under-announced".to_string(), 4)])
    );
}

#[test]
fn bad_histories_are_refused_with_the_line() {
    for (text, line) in [
        ("not json", 1),
        ("{\"process\": 1}", 1),
        (
            "{\"process\":1,\"type\":\"ok\",\"f\":\"send\",\"time\":1,\"value\":[]}",
            1,
        ),
        (
            "{\"process\":1,\"type\":\"invoke\",\"f\":\"send\",\"time\":1,\"value\":[]}\n\
             {\"process\":1,\"type\":\"invoke\",\"f\":\"send\",\"time\":2,\"value\":[]}",
            2,
        ),
    ] {
        let e = History::parse(text).expect_err(text).to_string();
        assert!(e.starts_with(&format!("line {line}:")), "{e}");
    }
}

#[test]
fn an_operation_never_completed_is_indeterminate() {
    let mut h = H::default();
    h.line(1, "invoke", "send", json!([["send", 0, 1]]), json!({}));
    h.line(
        2,
        "invoke",
        "poll",
        json!([["poll"]]),
        json!({"final": true}),
    );
    h.line(2, "ok", "poll", json!([["poll", {"0": []}]]), json!({}));
    // Its value was never acknowledged: not lost, not unseen.
    assert_eq!(h.kinds(), Vec::<String>::new());
}
