//! Real librdkafka (the `rdkafka` crate, built from its bundled source) produces to a minimal
//! broker that speaks ApiVersions, Metadata and Produce through fjord-protocol. Every batch it
//! sends, in each of the five compression settings, must decode with our record-batch reader
//! to exactly the records produced; and librdkafka must accept our responses.

use bytes::{Bytes, BytesMut};
use fjord_protocol::frame::FrameDecoder;
use fjord_protocol::generated::api_versions_response::{ApiVersion, ApiVersionsResponse};
use fjord_protocol::generated::metadata_response::{
    MetadataResponse, MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use fjord_protocol::generated::produce_response::{
    PartitionProduceResponse, ProduceResponse, TopicProduceResponse,
};
use fjord_protocol::header::{encode_response, parse_request};
use fjord_protocol::payload::concat;
use fjord_protocol::records::{Compression, RecordBatches};
use fjord_protocol::{ApiKey, ErrorCode, RequestBody, ResponseBody, Uuid};
use rdkafka::config::ClientConfig;
use rdkafka::message::{Header, OwnedHeaders};
use rdkafka::producer::{FutureProducer, FutureRecord};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

const TOPIC: &str = "codec-check";
const MESSAGES: usize = 40;
const WAIT: Duration = Duration::from_secs(30);

/// What the test broker saw: the records blob of each produced partition.
type Seen = mpsc::UnboundedSender<Bytes>;

fn api_versions() -> ResponseBody {
    // librdkafka turns features on by the APIs a broker offers (record batches v2 need Fetch v4+,
    // lz4 needs FindCoordinator, zstd needs Fetch v10+), so offer every API the codec defines; a
    // producer only ever sends ApiVersions, Metadata and Produce, which is all this broker serves.
    let keys = ApiKey::ALL;
    ResponseBody::ApiVersions(ApiVersionsResponse {
        api_keys: keys
            .iter()
            .map(|k| ApiVersion {
                api_key: k.key(),
                min_version: k.min_version(),
                max_version: k.max_stable_version(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    })
}

fn respond(
    body: RequestBody,
    port: u16,
    next_offset: &AtomicI64,
    seen: &Seen,
) -> Option<ResponseBody> {
    Some(match body {
        RequestBody::ApiVersions(_) => api_versions(),
        RequestBody::Metadata(_) => ResponseBody::Metadata(MetadataResponse {
            brokers: vec![MetadataResponseBroker {
                node_id: 1,
                host: "127.0.0.1".into(),
                port: i32::from(port),
                ..Default::default()
            }],
            cluster_id: Some("fjord-test".into()),
            controller_id: 1,
            topics: vec![MetadataResponseTopic {
                name: Some(TOPIC.into()),
                topic_id: Uuid::from_u128(7),
                partitions: vec![MetadataResponsePartition {
                    leader_id: 1,
                    replica_nodes: vec![1],
                    isr_nodes: vec![1],
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        }),
        RequestBody::Produce(p) => {
            let responses = p
                .topic_data
                .into_iter()
                .map(|t| TopicProduceResponse {
                    partition_responses: t
                        .partition_data
                        .into_iter()
                        .map(|part| {
                            let records = part
                                .records
                                .unwrap_or_default()
                                .into_bytes()
                                .expect("decoded records are in memory");
                            let n: i64 = RecordBatches::new(records.clone())
                                .map(|b| b.map_or(0, |b| i64::from(b.record_count())))
                                .sum();
                            seen.send(records).expect("test is listening");
                            PartitionProduceResponse {
                                index: part.index,
                                base_offset: next_offset.fetch_add(n, Ordering::SeqCst),
                                ..Default::default()
                            }
                        })
                        .collect(),
                    name: t.name,
                    topic_id: t.topic_id,
                    ..Default::default()
                })
                .collect();
            ResponseBody::Produce(ProduceResponse {
                responses,
                ..Default::default()
            })
        }
        _ => return None,
    })
}

async fn connection(mut sock: TcpStream, port: u16, next_offset: Arc<AtomicI64>, seen: Seen) {
    let decoder = FrameDecoder::default();
    let mut buf = BytesMut::with_capacity(64 * 1024);
    loop {
        while let Ok(Some(frame)) = decoder.decode(&mut buf) {
            let Ok(req) = parse_request(frame) else {
                return;
            };
            let version = req.header.request_api_version;
            let corr = req.header.correlation_id;
            let body = if req.is_supported() {
                let Ok(body) = req.decode_body() else { return };
                match respond(body, port, &next_offset, &seen) {
                    Some(b) => b,
                    None => return,
                }
            } else if req.api_key == Some(ApiKey::ApiVersions) {
                // KIP-511: answer an unknown ApiVersions version at v0 with our ranges.
                let ResponseBody::ApiVersions(mut r) = api_versions() else {
                    unreachable!()
                };
                r.error_code = ErrorCode::UnsupportedVersion.code();
                let chunks =
                    encode_response(corr, 0, &ResponseBody::ApiVersions(r)).expect("encodes");
                let frame = concat(&chunks).expect("in memory");
                if sock.write_all(&frame).await.is_err() {
                    return;
                }
                continue;
            } else {
                return;
            };
            let chunks = encode_response(corr, version, &body).expect("response encodes");
            if sock
                .write_all(&concat(&chunks).expect("in memory"))
                .await
                .is_err()
            {
                return;
            }
        }
        match sock.read_buf(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
    }
}

async fn start_broker() -> (u16, mpsc::UnboundedReceiver<Bytes>) {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind loopback");
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = mpsc::unbounded_channel();
    let next_offset = Arc::new(AtomicI64::new(0));
    tokio::spawn(async move {
        while let Ok((sock, _)) = listener.accept().await {
            tokio::spawn(connection(sock, port, next_offset.clone(), tx.clone()));
        }
    });
    (port, rx)
}

fn value_of(i: usize) -> String {
    format!("value {i} ").repeat(20)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn librdkafka_batches_decode_with_every_codec() {
    for codec in Compression::ALL {
        let (port, mut rx) = start_broker().await;
        let producer: FutureProducer = ClientConfig::new()
            .set("bootstrap.servers", format!("127.0.0.1:{port}"))
            .set("compression.codec", codec.name())
            .set("linger.ms", "20")
            .set("message.timeout.ms", "20000")
            .set("broker.address.family", "v4")
            .create()
            .expect("producer");
        let sends: Vec<_> = (0..MESSAGES)
            .map(|i| {
                let key = format!("k{i}");
                let value = value_of(i);
                let headers = OwnedHeaders::new().insert(Header {
                    key: "n",
                    value: Some(&i.to_string()),
                });
                let rec = FutureRecord::to(TOPIC)
                    .key(&key)
                    .payload(&value)
                    .partition(0)
                    .headers(headers);
                producer.send_result(rec).expect("queued")
            })
            .collect();
        for s in sends {
            let delivered = tokio::time::timeout(WAIT, s)
                .await
                .expect("delivery within bound");
            delivered.expect("not cancelled").expect("delivered");
        }

        let mut got = Vec::new();
        let mut codecs = Vec::new();
        while got.len() < MESSAGES {
            let blob = tokio::time::timeout(WAIT, rx.recv())
                .await
                .expect("batches arrive")
                .expect("open");
            for batch in RecordBatches::new(blob) {
                let batch = batch.expect("librdkafka batch frames");
                batch
                    .validate()
                    .unwrap_or_else(|e| panic!("{codec:?}: invalid batch: {e}"));
                codecs.push(batch.compression().unwrap());
                for r in batch.records().unwrap() {
                    got.push(r.unwrap());
                }
            }
        }
        assert!(
            codecs.iter().all(|c| *c == codec),
            "{codec:?}: batches used {codecs:?}"
        );
        for (i, r) in got.iter().enumerate() {
            assert_eq!(
                r.key.as_deref(),
                Some(format!("k{i}").as_bytes()),
                "{codec:?} key {i}"
            );
            assert_eq!(
                r.value.as_deref(),
                Some(value_of(i).as_bytes()),
                "{codec:?} value {i}"
            );
            assert_eq!(r.headers.len(), 1);
            assert_eq!(r.headers[0].key, "n");
            assert_eq!(
                r.headers[0].value.as_deref(),
                Some(i.to_string().as_bytes())
            );
        }
        eprintln!(
            "librdkafka {}: {} records in {} batches decoded",
            codec.name(),
            got.len(),
            codecs.len()
        );
    }
}
