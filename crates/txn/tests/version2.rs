//! Transaction version 2 (KIP-890 part 2) at the shard: every end bumps the epoch and says
//! so in its answer, a retry is told from the next end by its epoch, an exhausted epoch
//! moves the producer to a new id once the markers are written, an abort with nothing open
//! still bumps the epoch, and every epoch handed out fences the ones before it.

use fjord_protocol::ErrorCode;
use fjord_txn::shard::{EndRequest, InitRequest};
use fjord_txn::state::MAX_EPOCH;
use fjord_txn::{MarkerJob, Shard, TxnConfig, TxnMetadata, TxnRecord, TxnState};

fn config() -> TxnConfig {
    TxnConfig {
        max_timeout_ms: 60_000,
        id_expiration_ms: 1_000_000_000,
        abort_timed_out_interval_ms: 1_000,
        remove_expired_interval_ms: 1_000_000_000,
    }
}

fn init(s: &mut Shard, id: &str, fresh: i64) -> (i64, i16) {
    let r = InitRequest {
        transactional_id: id.into(),
        timeout_ms: 10_000,
        expected: None,
    };
    let fresh = s.needs_producer_id(id).then_some(fresh);
    s.init_producer_id(&r, fresh, 1).1.unwrap()
}

fn add(s: &mut Shard, id: &str, (pid, epoch): (i64, i16), topic: &str) -> Result<(), ErrorCode> {
    s.add_partitions(id, pid, epoch, &[(topic.into(), 0)], 2, 2)
        .1
}

fn end(
    s: &mut Shard,
    id: &str,
    (pid, epoch): (i64, i16),
    commit: bool,
    fresh: i64,
) -> (Vec<MarkerJob>, Result<(i64, i16), ErrorCode>) {
    let r = EndRequest {
        transactional_id: id.into(),
        producer_id: pid,
        producer_epoch: epoch,
        commit,
        client_version: 2,
    };
    let fresh = s.end_needs_producer_id(&r).then_some(fresh);
    let (out, answer) = s.end_txn(&r, fresh, 3);
    (out.markers, answer)
}

#[test]
fn every_end_bumps_the_epoch_and_a_retry_gets_the_same_answer() {
    let mut s = Shard::new(config(), 4);
    let p0 = init(&mut s, "t", 100);
    assert_eq!(p0, (100, 0));
    add(&mut s, "t", p0, "a").unwrap();
    let (jobs, answer) = end(&mut s, "t", p0, true, 0);
    let p1 = answer.unwrap();
    assert_eq!(p1, (100, 1), "the answer carries the bumped epoch");
    assert_eq!(jobs.len(), 1);
    assert_eq!(
        (
            jobs[0].producer_epoch,
            jobs[0].commit,
            jobs[0].transaction_version
        ),
        (1, true, 2),
        "the markers carry the bumped epoch"
    );
    // Retried while the markers are written: try again later.
    assert_eq!(
        end(&mut s, "t", p0, true, 0).1,
        Err(ErrorCode::ConcurrentTransactions)
    );
    // The bumped epoch cannot add partitions, or end, until the transaction completes.
    assert_eq!(
        add(&mut s, "t", p1, "a"),
        Err(ErrorCode::ConcurrentTransactions)
    );
    assert_eq!(
        end(&mut s, "t", p1, false, 0).1,
        Err(ErrorCode::ConcurrentTransactions)
    );
    s.markers_written(&jobs[0], 4);
    // Retried after: the same answer, nothing decided again.
    let (jobs, again) = end(&mut s, "t", p0, true, 0);
    assert_eq!(again, Ok(p1));
    assert!(jobs.is_empty());
    // A retry cannot change the decision.
    assert_eq!(
        end(&mut s, "t", p0, false, 0).1,
        Err(ErrorCode::InvalidTxnState)
    );
    // The old epoch is fenced for everything else.
    assert_eq!(add(&mut s, "t", p0, "a"), Err(ErrorCode::ProducerFenced));
    // The next transaction, with the new epoch.
    add(&mut s, "t", p1, "b").unwrap();
    let (jobs, answer) = end(&mut s, "t", p1, false, 0);
    assert_eq!(answer, Ok((100, 2)));
    assert_eq!(jobs[0].partitions, vec![("b".to_string(), 0)]);
    // An epoch two behind is no retry: fenced.
    assert_eq!(
        end(&mut s, "t", p0, false, 0).1,
        Err(ErrorCode::ProducerFenced)
    );
}

#[test]
fn an_exhausted_epoch_moves_the_producer_to_a_new_id_after_the_markers() {
    let mut s = Shard::new(config(), 4);
    // A long-lived producer near the end of its epochs (as its records say).
    let mut m = TxnMetadata::new("t", 100, 10_000, 1);
    m.producer_epoch = MAX_EPOCH - 1;
    m.client_version = 2;
    s.replay(TxnRecord {
        transactional_id: "t".into(),
        value: Some(m),
    });
    let _ = s.loaded(1);
    let mut p = (100, MAX_EPOCH - 1);
    add(&mut s, "t", p, "a").unwrap();
    let (jobs, answer) = end(&mut s, "t", p, true, 0);
    s.markers_written(&jobs[0], 4);
    assert_eq!(answer, Ok((100, MAX_EPOCH)));
    p = answer.unwrap();
    add(&mut s, "t", p, "a").unwrap();
    let (jobs, answer) = end(&mut s, "t", p, true, 777);
    // The answer names the new id; the markers are the old id's, at the last epoch.
    assert_eq!(answer, Ok((777, 0)));
    assert_eq!(
        (jobs[0].producer_id, jobs[0].producer_epoch),
        (100, i16::MAX)
    );
    let m = s.get("t").unwrap();
    assert_eq!((m.producer_id, m.next_producer_id), (100, 777));
    // Reloaded from its records mid-way, the coordinator still knows where it goes.
    let mut reloaded = Shard::new(config(), 5);
    let (_, value) = TxnRecord {
        transactional_id: "t".into(),
        value: Some(m.clone()),
    }
    .encode();
    let (key, _) = TxnRecord {
        transactional_id: "t".into(),
        value: None,
    }
    .encode();
    reloaded.replay(TxnRecord::decode(&key, value.as_ref()).unwrap().unwrap());
    let resent = reloaded.loaded(6).markers;
    assert_eq!(resent.len(), 1);
    assert_eq!(
        (resent[0].producer_id, resent[0].producer_epoch),
        (100, i16::MAX)
    );
    s.markers_written(&jobs[0], 7);
    let m = s.get("t").unwrap();
    assert_eq!(
        (
            m.producer_id,
            m.producer_epoch,
            m.previous_producer_id,
            m.state
        ),
        (777, 0, 100, TxnState::CompleteCommit)
    );
    // A retry with the old id's last epoch gets the new id.
    assert_eq!(end(&mut s, "t", p, true, 0).1, Ok((777, 0)));
    // The old id is done.
    assert_eq!(
        add(&mut s, "t", p, "a"),
        Err(ErrorCode::InvalidProducerIdMapping)
    );
    add(&mut s, "t", (777, 0), "a").unwrap();
}

#[test]
fn an_abort_with_nothing_open_bumps_the_epoch() {
    let mut s = Shard::new(config(), 4);
    let p0 = init(&mut s, "t", 100);
    // Nothing added: a version 2 abort still moves the epoch on (a producer that cannot tell
    // whether its partitions were added aborts).
    let (jobs, answer) = end(&mut s, "t", p0, false, 0);
    assert_eq!(answer, Ok((100, 1)));
    assert!(jobs[0].partitions.is_empty());
    s.markers_written(&jobs[0], 4);
    assert_eq!(s.get("t").unwrap().state, TxnState::CompleteAbort);
    // An empty commit is not a thing.
    assert_eq!(
        end(&mut s, "t", (100, 1), true, 0).1,
        Err(ErrorCode::InvalidTxnState)
    );
    // A version 1 abort of nothing is refused, as before.
    let r = EndRequest {
        transactional_id: "t".into(),
        producer_id: 100,
        producer_epoch: 1,
        commit: false,
        client_version: 0,
    };
    let p1 = init(&mut s, "t", 0);
    assert_eq!(p1, (100, 2));
    let r = EndRequest {
        producer_epoch: 2,
        ..r
    };
    assert_eq!(s.end_txn(&r, None, 5).1, Err(ErrorCode::InvalidTxnState));
}

#[test]
fn a_new_producer_fences_a_version_2_producer_for_good() {
    let mut s = Shard::new(config(), 4);
    let old = init(&mut s, "t", 100);
    add(&mut s, "t", old, "a").unwrap();
    // A new instance: the open transaction is aborted with a bumped epoch.
    let r = InitRequest {
        transactional_id: "t".into(),
        timeout_ms: 10_000,
        expected: None,
    };
    let (out, answer) = s.init_producer_id(&r, None, 5);
    assert_eq!(answer, Err(ErrorCode::ConcurrentTransactions));
    s.markers_written(&out.markers[0], 6);
    let new = s.init_producer_id(&r, None, 7).1.unwrap();
    assert_eq!(new, (100, 2));
    // The old instance can neither end nor add, with either epoch it could have.
    for e in [old.1, old.1 + 1] {
        assert_eq!(
            end(&mut s, "t", (100, e), false, 0).1,
            Err(ErrorCode::ProducerFenced)
        );
        assert_eq!(
            add(&mut s, "t", (100, e), "a"),
            Err(ErrorCode::ProducerFenced)
        );
    }
    add(&mut s, "t", new, "a").unwrap();
    assert_eq!(end(&mut s, "t", new, true, 0).1, Ok((100, 3)));
}

#[test]
fn verification_answers_as_kafka_does() {
    let mut s = Shard::new(config(), 4);
    let p = init(&mut s, "t", 100);
    let part = ("a".to_string(), 0);
    assert_eq!(
        s.verify("t", p.0, p.1, &part),
        ErrorCode::TransactionAbortable
    );
    add(&mut s, "t", p, "a").unwrap();
    assert_eq!(s.verify("t", p.0, p.1, &part), ErrorCode::None);
    assert_eq!(
        s.verify("t", p.0, p.1, &("b".to_string(), 0)),
        ErrorCode::TransactionAbortable
    );
    assert_eq!(
        s.verify("t", p.0, p.1 - 1, &part),
        ErrorCode::ProducerFenced
    );
    assert_eq!(
        s.verify("t", 5, p.1, &part),
        ErrorCode::InvalidProducerIdMapping
    );
    let (_, next) = end(&mut s, "t", p, true, 0);
    let next = next.unwrap();
    assert_eq!(
        s.verify("t", next.0, next.1, &part),
        ErrorCode::ConcurrentTransactions,
        "the new epoch waits for the markers"
    );
}
