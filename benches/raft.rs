//! KRaft commit latency and throughput: three voters in one process, each with its own
//! metadata log on disk (fsyncs included) and its own controller listener on 127.0.0.1, talking
//! Kafka's wire protocol over real sockets. Measures the commit latency of single-record
//! proposals made one after another (p50, p99) and the throughput of batched proposals with
//! many in flight (records/s).
//!
//! `cargo bench -p fjord-benches --bench raft` (FJORD_RAFT_BENCH_SINGLE and
//! FJORD_RAFT_BENCH_BATCHES change the counts).

use bytes::Bytes;
use fjord_kraft::driver::{DriverConfig, RaftHandle};
use fjord_net::serve::{serve, Handler, Reply};
use fjord_protocol::header::RequestFrame;
use fjord_protocol::records::{Compression, RecordBatchBuilder};
use fjord_protocol::Uuid;
use fjord_raft::control::{Endpoint, VoterInfo, VoterSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct RaftOnly(RaftHandle);

impl Handler for RaftOnly {
    async fn handle(&self, frame: RequestFrame, caller: fjord_net::principal::Caller) -> Reply {
        let _peer = caller.peer;
        let Ok(body) = frame.decode_body() else {
            return Reply::Close;
        };
        match self.0.handle_request(&frame, &body).await {
            Some(r) => Reply::Respond(r),
            None => Reply::Close,
        }
    }
}

fn batch(records: usize, value: &[u8]) -> Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None);
    for i in 0..records {
        b.append(0, Some(format!("key-{i}").as_bytes()), Some(value), &[]);
    }
    b.build().expect("batch")
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let single = env_or("FJORD_RAFT_BENCH_SINGLE", 2_000);
    let batches = env_or("FJORD_RAFT_BENCH_BATCHES", 4_000);
    let per_batch = 100;
    let in_flight = 64;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    rt.block_on(async {
        let listeners: Vec<tokio::net::TcpListener> = futures_bind(3).await;
        let ports: Vec<u16> = listeners
            .iter()
            .map(|l| l.local_addr().expect("addr").port())
            .collect();
        let voters: VoterSet = (1..=3)
            .map(|id| {
                (
                    id,
                    VoterInfo {
                        id,
                        directory_id: Uuid::nil(),
                        endpoints: vec![Endpoint {
                            name: "CONTROLLER".into(),
                            host: "127.0.0.1".into(),
                            port: ports[(id - 1) as usize],
                        }],
                    },
                )
            })
            .collect();
        let mut handles = Vec::new();
        for (i, listener) in listeners.into_iter().enumerate() {
            let id = i as i32 + 1;
            let mut cfg = DriverConfig::new(
                id,
                "fjord-bench".into(),
                dir.path().join(format!("node{id}/__cluster_metadata-0")),
            );
            cfg.static_voters = voters.clone();
            cfg.endpoint = voters[&id].endpoints.first().cloned();
            let (h, mut commits) =
                RaftHandle::start(cfg, tokio::runtime::Handle::current()).expect("start");
            tokio::spawn(async move { while commits.recv().await.is_some() {} });
            tokio::spawn(serve(
                listener,
                Arc::new(RaftOnly(h.clone())),
                fjord_net::serve::Limits::with_max_frame(100 << 20),
            ));
            handles.push(h);
        }
        let leader = loop {
            if let Some(h) = handles.iter().find(|h| {
                let i = h.quorum_info().borrow().clone();
                i.is_leader && i.high_watermark > 0
            }) {
                break h.clone();
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };

        let one = batch(1, &[7u8; 100]);
        let mut latencies = Vec::with_capacity(single);
        for _ in 0..single {
            let t = Instant::now();
            leader.propose(one.clone()).await.expect("committed");
            latencies.push(t.elapsed());
        }
        latencies.sort();
        let pct =
            |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
        println!(
            "raft/commit latency, single-record proposals, 3 voters on loopback ({single} runs): \
             p50 {:?}  p99 {:?}  max {:?}",
            pct(0.50),
            pct(0.99),
            latencies[latencies.len() - 1]
        );

        let big = batch(per_batch, &[7u8; 100]);
        let start = Instant::now();
        let sem = Arc::new(tokio::sync::Semaphore::new(in_flight));
        let mut tasks = Vec::with_capacity(batches);
        for _ in 0..batches {
            let permit = sem.clone().acquire_owned().await.expect("semaphore");
            let h = leader.clone();
            let b = big.clone();
            tasks.push(tokio::spawn(async move {
                let r = h.propose(b).await;
                drop(permit);
                r
            }));
        }
        for t in tasks {
            t.await.expect("task").expect("committed");
        }
        let secs = start.elapsed().as_secs_f64();
        let records = (batches * per_batch) as f64;
        println!(
            "raft/throughput, {batches} batches of {per_batch} records (100-byte values), \
             {in_flight} in flight: {:.0} records/s ({:.1} MiB/s of batches)",
            records / secs,
            (batches * big.len()) as f64 / secs / (1024.0 * 1024.0)
        );
        for h in &handles {
            h.shutdown();
        }
    });
}

async fn futures_bind(n: usize) -> Vec<tokio::net::TcpListener> {
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(
            tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind"),
        );
    }
    out
}
