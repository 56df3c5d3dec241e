//! The driver end to end in one process: three voters, each with its own metadata log on disk
//! and its own listener on 127.0.0.1, speaking Kafka's wire protocol. Proposals commit and
//! reach every node's committed stream in order; a voter that was down while the leader took
//! a snapshot and cleaned its log comes back, downloads the snapshot with FetchSnapshot, then
//! fetches the rest.

use bytes::Bytes;
use fjord_kraft::driver::{Committed, DriverConfig, RaftHandle};
use fjord_net::serve::{serve, Handler, Reply};
use fjord_protocol::header::RequestFrame;
use fjord_protocol::records::{Compression, RecordBatchBuilder};
use fjord_protocol::Uuid;
use fjord_raft::control::{Endpoint, VoterInfo, VoterSet};
use std::path::Path;
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedReceiver;

/// A listener whose node can be stopped and started again.
struct Swappable(RwLock<Option<RaftHandle>>);

impl Handler for Swappable {
    async fn handle(&self, frame: RequestFrame, caller: fjord_net::principal::Caller) -> Reply {
        let _peer = caller.peer;
        let h = self.0.read().unwrap().clone();
        let (Some(h), Ok(body)) = (h, frame.decode_body()) else {
            return Reply::Close;
        };
        match h.handle_request(&frame, &body).await {
            Some(r) => Reply::Respond(r),
            None => Reply::Close,
        }
    }
}

fn batch(tag: &str, records: usize) -> Bytes {
    let mut b = RecordBatchBuilder::new(Compression::None);
    for i in 0..records {
        b.append(0, Some(format!("{tag}-{i}").as_bytes()), Some(b"v"), &[]);
    }
    b.build().unwrap()
}

fn start(dir: &Path, id: i32, voters: &VoterSet) -> (RaftHandle, UnboundedReceiver<Committed>) {
    let mut cfg = DriverConfig::new(
        id,
        "driver-test".into(),
        dir.join(format!("node{id}/__cluster_metadata-0")),
    );
    cfg.static_voters = voters.clone();
    cfg.endpoint = voters[&id].endpoints.first().cloned();
    cfg.snapshot_chunk_bytes = 100;
    RaftHandle::start(cfg, tokio::runtime::Handle::current()).unwrap()
}

async fn wait<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Keys of the records a committed stream delivered, snapshots expanded.
fn drain_keys(rx: &mut UnboundedReceiver<Committed>, keys: &mut Vec<String>, snapshots: &mut u32) {
    while let Ok(c) = rx.try_recv() {
        let batches: Vec<fjord_protocol::records::RecordBatch> = match c {
            Committed::Snapshot { state, .. } => {
                *snapshots += 1;
                keys.clear();
                fjord_protocol::records::RecordBatches::new(state)
                    .map(|b| b.unwrap())
                    .collect()
            }
            Committed::Batch { batch, .. } => vec![batch],
            Committed::UpTo(_) | Committed::KraftVersion(_) => vec![],
        };
        for b in batches {
            for r in b.records().unwrap() {
                let r = r.unwrap();
                keys.push(String::from_utf8(r.key.unwrap().to_vec()).unwrap());
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn proposals_commit_everywhere_and_a_returning_voter_loads_the_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let mut listeners = Vec::new();
    for _ in 0..3 {
        listeners.push(tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap());
    }
    let voters: VoterSet = listeners
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let id = i as i32 + 1;
            (
                id,
                VoterInfo {
                    id,
                    directory_id: Uuid::nil(),
                    endpoints: vec![Endpoint {
                        name: "CONTROLLER".into(),
                        host: "127.0.0.1".into(),
                        port: l.local_addr().unwrap().port(),
                    }],
                },
            )
        })
        .collect();
    let mut slots = Vec::new();
    let mut streams = Vec::new();
    for (i, listener) in listeners.into_iter().enumerate() {
        let (h, rx) = start(dir.path(), i as i32 + 1, &voters);
        let slot = Arc::new(Swappable(RwLock::new(Some(h))));
        tokio::spawn(serve(
            listener,
            slot.clone(),
            fjord_net::serve::Limits::with_max_frame(1 << 20),
        ));
        slots.push(slot);
        streams.push(rx);
    }
    let handle = |i: usize| slots[i].0.read().unwrap().clone().unwrap();
    let leader = wait("a leader", || {
        (0..3).find(|&i| {
            let q = handle(i).quorum_info().borrow().clone();
            q.is_leader && q.high_watermark > 0
        })
    })
    .await;
    let follower = (leader + 1) % 3;
    assert!(matches!(
        handle(follower).propose(batch("x", 1)).await,
        Err(fjord_kraft::driver::ProposeError::NotLeader { leader: Some(l) }) if l == leader as i32 + 1
    ));
    for i in 0..10 {
        handle(leader)
            .propose(batch(&format!("a{i}"), 3))
            .await
            .unwrap();
    }
    // Stop the follower; the leader goes on with the other voter.
    let stopped = handle(follower);
    let mut info = stopped.quorum_info();
    *slots[follower].0.write().unwrap() = None;
    stopped.shutdown();
    while info.changed().await.is_ok() {}
    let mut last = 0;
    for i in 0..10 {
        last = handle(leader)
            .propose(batch(&format!("b{i}"), 2))
            .await
            .unwrap();
    }
    // Snapshot the state below the last commit and clean the log below it.
    let mut state = Vec::new();
    for i in 0..10 {
        state.extend_from_slice(&batch(&format!("a{i}"), 3));
    }
    for i in 0..10 {
        state.extend_from_slice(&batch(&format!("b{i}"), 2));
    }
    let id = handle(leader)
        .create_snapshot(last + 1, Bytes::from(state))
        .await
        .unwrap();
    assert_eq!(id.end_offset, last + 1);
    // Written off the Raft thread, then put in place: no staged file is left, and the same
    // snapshot again is refused.
    let leader_dir = dir
        .path()
        .join(format!("node{}/__cluster_metadata-0", leader + 1));
    let names: Vec<String> = std::fs::read_dir(&leader_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.contains(&fjord_kraft::snapshot_file::file_name(id)),
        "{names:?}"
    );
    assert!(!names.iter().any(|n| n.ends_with(".part")), "{names:?}");
    assert!(matches!(
        handle(leader).create_snapshot(last + 1, Bytes::new()).await,
        Err(fjord_kraft::driver::SnapshotRequestError::Refused(
            fjord_raft::SnapshotError::NotNewer
        ))
    ));
    handle(leader).propose(batch("c", 1)).await.unwrap();

    // The follower returns: it is behind the leader's log start, so it loads the snapshot.
    let (h, rx) = start(dir.path(), follower as i32 + 1, &voters);
    *slots[follower].0.write().unwrap() = Some(h);
    streams[follower] = rx;
    let leader_hw = handle(leader).quorum_info().borrow().high_watermark;
    wait("the returning voter to catch up", || {
        (handle(follower).quorum_info().borrow().high_watermark >= leader_hw).then_some(())
    })
    .await;
    let mut keys = Vec::new();
    let mut snapshots = 0;
    wait("the committed stream", || {
        drain_keys(&mut streams[follower], &mut keys, &mut snapshots);
        (keys.last().map(String::as_str) == Some("c-0")).then_some(())
    })
    .await;
    assert_eq!(snapshots, 1, "the follower loaded exactly one snapshot");
    assert_eq!(keys.len(), 10 * 3 + 10 * 2 + 1);
    assert_eq!(keys[0], "a0-0");
    assert!(dir
        .path()
        .join(format!("node{}/__cluster_metadata-0", follower + 1))
        .join(fjord_kraft::snapshot_file::file_name(id))
        .exists());

    // Every node's stream saw every record in the same order.
    let mut leader_keys = Vec::new();
    let mut n = 0;
    wait("the leader's stream", || {
        drain_keys(&mut streams[leader], &mut leader_keys, &mut n);
        (leader_keys.last().map(String::as_str) == Some("c-0")).then_some(())
    })
    .await;
    assert_eq!(leader_keys, keys);
}
