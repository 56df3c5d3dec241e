//! Metadata for unknown topics starts their auto-creation once per topic and answers at once
//! with LEADER_NOT_AVAILABLE, even when the controller never answers.

mod common;

use fjord_broker::parts::BrokerHandler;
use fjord_broker::ActiveController;
use fjord_broker::ControllerClient;
use fjord_broker::View;
use fjord_metadata::MetadataImage;
use fjord_net::serve::Handler;
use fjord_protocol::generated::metadata_request::{MetadataRequest, MetadataRequestTopic};
use fjord_protocol::generated::request_header::RequestHeader;
use fjord_protocol::header::{encode_request, parse_request};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::AsyncReadExt;
use tokio::sync::watch;

fn frame(body: RequestBody, version: i16) -> fjord_protocol::header::RequestFrame {
    let header = RequestHeader {
        request_api_key: body.api_key().key(),
        request_api_version: version,
        correlation_id: 1,
        client_id: Some("test".into()),
        ..Default::default()
    };
    let chunks = encode_request(&header, &body).unwrap();
    let bytes = fjord_protocol::payload::concat(&chunks).unwrap();
    parse_request(bytes::Bytes::from(bytes).slice(4..)).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_topics_are_created_in_the_background_once_each() {
    // A controller that accepts connections, counts what arrives and never answers.
    let hole = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = hole.local_addr().unwrap().port();
    let bytes_in = Arc::new(AtomicUsize::new(0));
    let counter = bytes_in.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut s, _)) = hole.accept().await else {
                return;
            };
            let counter = counter.clone();
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                while let Ok(n) = s.read(&mut buf).await {
                    if n == 0 {
                        return;
                    }
                    counter.fetch_add(n, Ordering::SeqCst);
                }
            });
        }
    });
    let info = Some(ActiveController {
        id: 1,
        addr: format!("127.0.0.1:{port}"),
    });
    let (_info_tx, info_rx) = watch::channel(info);
    let (_view_tx, view_rx) = watch::channel(View::new(Arc::new(MetadataImage::empty()), 0));
    let logs = tempfile::tempdir().unwrap();
    let controller = Arc::new(ControllerClient::new(info_rx));
    let replicas = Arc::new(fjord_broker::ReplicaManager::new(
        1,
        Arc::new(
            fjord_log::LogDir::open(logs.path(), |_| Default::default())
                .unwrap()
                .0,
        ),
        Default::default(),
    ));
    let groups = common::group_coordinator(replicas.clone(), controller.clone(), 50);
    let (transactions, _jobs) = fjord_broker::TxnCoordinator::transactions(
        common::txn_config(50),
        replicas.clone(),
        controller.clone(),
        fjord_util::Clock::system(),
    );
    let share_states = fjord_broker::parts::ShareCoordinator::share_states(
        fjord_broker::ShareCoordinatorConfig {
            num_partitions: 50,
            replication_factor: 1,
            min_isr: 1,
            segment_bytes: 100 << 20,
            per_snapshot: 500,
            prune_interval_ms: 300_000,
        },
        replicas.clone(),
        controller.clone(),
        fjord_util::Clock::system(),
    );
    let peers = Arc::new(fjord_broker::parts::Peers::new(
        "PLAINTEXT".into(),
        Default::default(),
    ));
    let share_fetcher = fjord_broker::ShareFetcher::new(
        1,
        Default::default(),
        replicas.clone(),
        Arc::new(fjord_broker::parts::Persister::new(
            1,
            share_states.clone(),
            peers.clone(),
            view_rx.clone(),
        )),
        view_rx.clone(),
        None,
        fjord_util::Clock::system(),
    );
    let markers = fjord_broker::parts::MarkerWriter::new(
        transactions.clone(),
        replicas.clone(),
        groups.clone(),
        view_rx.clone(),
        peers,
        true,
    );
    let handler = BrokerHandler {
        quotas: Default::default(),
        transactions,
        share_states,
        share_fetcher,
        markers,
        static_config: Default::default(),
        fetch_sessions: Arc::new(std::sync::Mutex::new(
            fjord_broker::parts::SessionCache::new(1000, 120_000, 1),
        )),
        broker_state: fjord_broker::BrokerState::unregistered(),
        producer_ids: Arc::new(fjord_broker::parts::ProducerIds::new(1, controller.clone())),
        view: view_rx,
        controller,
        cluster_id: "c".into(),
        listener_name: "PLAINTEXT".into(),
        auto_create_topics: true,
        pending_creations: Default::default(),
        replicas,
        groups,
        authorizer: None,
        clock: fjord_util::Clock::system(),
        telemetry: std::sync::Arc::new(fjord_broker::ClientTelemetry::new(
            fjord_telemetry::Settings {
                max_bytes: 1 << 20,
                max_series: 100,
            },
        )),
    };
    let peer = fjord_net::principal::Caller::anonymous("127.0.0.1:1".parse().unwrap(), "PLAINTEXT");
    let request = || {
        RequestBody::Metadata(MetadataRequest {
            topics: Some(vec![MetadataRequestTopic {
                name: Some("new-topic".into()),
                ..Default::default()
            }]),
            allow_auto_topic_creation: true,
            ..Default::default()
        })
    };
    for round in 0..3 {
        let started = Instant::now();
        let reply = handler.handle(frame(request(), 12), peer.clone()).await;
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "round {round} waited"
        );
        let fjord_net::serve::Reply::Respond(ResponseBody::Metadata(m)) = reply else {
            panic!("round {round}: {reply:?}");
        };
        assert_eq!(m.topics[0].error_code, ErrorCode::LeaderNotAvailable.code());
    }
    // One creation under way for the topic, however often it was asked for.
    assert_eq!(handler.pending_creations.lock().unwrap().len(), 1);
    let deadline = Instant::now() + Duration::from_secs(5);
    while bytes_in.load(Ordering::SeqCst) == 0 {
        assert!(
            Instant::now() < deadline,
            "the creation never reached the controller"
        );
        tokio::task::yield_now().await;
    }
}
