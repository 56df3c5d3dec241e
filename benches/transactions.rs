//! Transactions against a release single node with librdkafka: 1 KiB records produced
//! idempotently (acks=all) beside transactional produce with 1,000 and with 10 records per
//! transaction, the commit latency (p50/p99 from the end of the transaction's sends until
//! `commit_transaction` returns: its records acknowledged, then EndTxn) of each, and consuming
//! what the transactions wrote with read_committed beside read_uncommitted (no transaction
//! aborts: the goal is read_committed within 5% of read_uncommitted), with librdkafka and
//! with raw Fetch requests (the broker's cost alone). Run:
//! `cargo bench -p fjord-benches --bench transactions` (it builds the release `fjord` first);
//! `FJORD_LOAD_SECONDS` sets each run's length (default 5).

use fjord_benches::{percentile, SingleNode};
use rdkafka::config::ClientConfig;
use rdkafka::producer::{BaseProducer, BaseRecord, Producer};
use std::time::{Duration, Instant};

fn seconds() -> f64 {
    std::env::var("FJORD_LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5.0)
}

/// Transactional produce of 1 KiB records to `topic` for `secs` seconds, `per_txn` records
/// per transaction; returns (records committed, commit latencies in µs).
fn transactional(bootstrap: &str, topic: &str, per_txn: usize, secs: f64) -> (u64, Vec<u64>) {
    // A BaseProducer flushed here 1 ms at a time before each commit: rust-rdkafka's flush
    // (which commit_transaction calls, and a ThreadedProducer's thread) polls 100 ms at a
    // time and returns only at the end of it, so every commit took 100 ms.
    let p: BaseProducer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("transactional.id", format!("bench-{topic}-{per_txn}"))
        // No linger: a transaction's last records go at once (commit flushes anyway, but
        // rust-rdkafka's flush cannot skip librdkafka's linger).
        .set("linger.ms", "0")
        .set("batch.size", "1000000")
        .set("queue.buffering.max.messages", "1000000")
        .set("queue.buffering.max.kbytes", "1048576")
        .create()
        .unwrap();
    p.init_transactions(Duration::from_secs(30)).unwrap();
    let payload = vec![b'x'; 1024];
    let mut committed = 0u64;
    let mut commits = Vec::new();
    let end = Instant::now() + Duration::from_secs_f64(secs);
    while Instant::now() < end {
        p.begin_transaction().unwrap();
        let mut sent = 0;
        while sent < per_txn {
            let r = BaseRecord::<[u8], [u8]>::to(topic)
                .payload(&payload)
                .partition(0);
            match p.send(r) {
                Ok(()) => sent += 1,
                Err(_) => {
                    p.poll(Duration::from_millis(1));
                }
            }
        }
        let t = Instant::now();
        while p.flush(Duration::from_millis(1)).is_err() {}
        p.commit_transaction(Duration::from_secs(60)).unwrap();
        commits.push(t.elapsed().as_micros() as u64);
        committed += per_txn as u64;
    }
    commits.sort_unstable();
    (committed, commits)
}

fn main() {
    // `cargo bench` passes `--bench`; anything else (cargo test's listing) is a no-op.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let secs = seconds();
    let bin = fjord_benches::release_fjord();
    let node = SingleNode::start(&bin, "transaction.state.log.num.partitions=1");
    let mib = |records: u64, s: f64| records as f64 * 1024.0 / s / (1 << 20) as f64;

    node.create_topic("idem", 1);
    let (acked, failed, _) = fjord_benches::produce(
        &[("enable.idempotence", "true")],
        &node.bootstrap,
        "idem",
        1,
        1024,
        "all",
        secs,
        None,
    );
    let idem = acked as f64 / secs;
    println!(
        "idempotent produce, 1 KiB, acks=all: {idem:.0} msg/s, {:.1} MiB/s ({failed} failed)",
        mib(acked, secs)
    );
    let mut written = 0;
    for per_txn in [1000usize, 10] {
        let topic = format!("txn-{per_txn}");
        node.create_topic(&topic, 1);
        let started = Instant::now();
        let (records, commits) = transactional(&node.bootstrap, &topic, per_txn, secs);
        let took = started.elapsed().as_secs_f64();
        println!(
            "transactional produce, 1 KiB, {per_txn} per transaction: {:.0} msg/s ({:.0}% of \
             idempotent), {:.0} commits/s, commit p50 {:.2} ms, p99 {:.2} ms",
            records as f64 / took,
            records as f64 / took / idem.max(1.0) * 100.0,
            commits.len() as f64 / took,
            percentile(&commits, 0.50),
            percentile(&commits, 0.99),
        );
        if per_txn == 1000 {
            written = records;
        }
    }
    // What the 1,000-per-transaction run wrote (records and one marker per transaction),
    // read back whole with each isolation level in turn, five times each, best of five (this
    // machine's two cores are shared by the node and the client: single runs vary by 10%).
    let read = |isolation: &str| -> f64 {
        fjord_benches::consume(
            &[("isolation.level", isolation)],
            &node.bootstrap,
            "txn-1000",
            1,
            written,
        )
    };
    let (mut uncommitted, mut committed) = (f64::MAX, f64::MAX);
    for _ in 0..ROUNDS {
        uncommitted = uncommitted.min(read("read_uncommitted"));
        committed = committed.min(read("read_committed"));
    }
    println!(
        "consume {written} transactional records (librdkafka): read_uncommitted {:.0} msg/s, \
         read_committed {:.0} msg/s ({:+.1}%)",
        written as f64 / uncommitted,
        written as f64 / committed,
        (uncommitted / committed - 1.0) * 100.0
    );
    // The broker's side alone: the same log read with raw Fetch requests, one after another
    // on one connection, with each isolation level (no client library's record handling).
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (mut uncommitted, mut committed) = (f64::MAX, f64::MAX);
    for _ in 0..ROUNDS {
        uncommitted = uncommitted.min(rt.block_on(fetch_all(&node.bootstrap, "txn-1000", 0)));
        committed = committed.min(rt.block_on(fetch_all(&node.bootstrap, "txn-1000", 1)));
    }
    let mib = |s: f64| (written * 1024) as f64 / s / (1 << 20) as f64;
    println!(
        "fetch {written} transactional records (raw Fetch v12): read_uncommitted {:.0} MiB/s, \
         read_committed {:.0} MiB/s ({:+.1}%)",
        mib(uncommitted),
        mib(committed),
        (uncommitted / committed - 1.0) * 100.0
    );
}

/// How many times each read runs, alternating, best taken (this machine's two cores are
/// shared by the node and the client: single runs vary by 10%).
const ROUNDS: usize = 9;

/// Reads `topic`-0 from its start to its high watermark with Fetch v12 at `isolation`;
/// returns the seconds it took.
async fn fetch_all(bootstrap: &str, topic: &str, isolation: i8) -> f64 {
    use fjord_protocol::generated::fetch_request::{FetchPartition, FetchRequest, FetchTopic};
    use fjord_protocol::records::RecordBatches;
    use fjord_protocol::{RequestBody, ResponseBody};
    let c = fjord_net::client::Client::connect(bootstrap, Duration::from_secs(2))
        .await
        .unwrap();
    let start = Instant::now();
    let mut offset = 0i64;
    loop {
        let request = RequestBody::Fetch(FetchRequest {
            replica_id: -1,
            max_wait_ms: 0,
            min_bytes: 1,
            max_bytes: 50 << 20,
            isolation_level: isolation,
            session_id: 0,
            session_epoch: -1,
            topics: vec![FetchTopic {
                topic: topic.into(),
                partitions: vec![FetchPartition {
                    partition: 0,
                    current_leader_epoch: -1,
                    fetch_offset: offset,
                    last_fetched_epoch: -1,
                    log_start_offset: -1,
                    partition_max_bytes: 10 << 20,
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        let Ok(ResponseBody::Fetch(r)) = c.call(request, 12, Duration::from_secs(30)).await else {
            panic!("fetch");
        };
        let p = &r.responses[0].partitions[0];
        let stop = if isolation == 1 {
            p.last_stable_offset
        } else {
            p.high_watermark
        };
        let records = match &p.records {
            Some(fjord_protocol::Records::Memory(b)) => b.clone(),
            _ => bytes::Bytes::new(),
        };
        for b in RecordBatches::new(records) {
            offset = b.unwrap().next_offset();
        }
        if offset >= stop {
            break;
        }
    }
    start.elapsed().as_secs_f64()
}
