//! Share groups' dead-letter queues (KIP-1191): a record a consumer rejects, or that reaches
//! the group's delivery-count limit, is written to the group's DLQ topic before it is
//! archived, as Kafka 4.4 writes it: one record per offset with the context headers
//! `__dlq.errors.topic`, `.partition`, `.offset`, `.group`, `.delivery.count` and `.message`,
//! and the original key, value and headers when the group's
//! `errors.deadletterqueue.copy.record.enable` is true.
//!
//! A group has a DLQ when `share.version` is at least 2 and its
//! `errors.deadletterqueue.topic.name` is set. The topic must start with the broker's
//! `errors.deadletterqueue.topic.name.prefix` (not `__`) and carry the topic config
//! `errors.deadletterqueue.group.enable=true`; a missing topic is created (with that config)
//! only when `errors.deadletterqueue.auto.create.topics.enable` is true. A DLQ that cannot be
//! used, or that refuses the records after [`MAX_TRIES`], is logged with Kafka's message and
//! the records are archived without it: a poison record never blocks its partition.

use crate::cluster::controller_client::ControllerClient;
use crate::cluster::peers::Peers;
use crate::cluster::view::View;
use crate::share::persister::SharePartitionKey;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    create_topics_request::{CreatableTopic, CreatableTopicConfig, CreateTopicsRequest},
    produce_request::{PartitionProduceData, ProduceRequest, TopicProduceData},
};
use fjord_protocol::records::{Compression, RecordBatch, RecordBatchBuilder, RecordBatches};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use fjord_share::partition::DeadLetter;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// The group config naming a share group's DLQ topic.
pub const DLQ_TOPIC_KEY: &str = "errors.deadletterqueue.topic.name";
/// The group config: copy the original record onto the DLQ (else headers only).
pub const DLQ_COPY_KEY: &str = "errors.deadletterqueue.copy.record.enable";
/// The topic config a DLQ topic must set to true.
pub const DLQ_ENABLE_KEY: &str = fjord_configdef::topic::ERRORS_DEADLETTERQUEUE_GROUP_ENABLE.name;
/// The `share.version` level from which dead-letter queues are served (Kafka 4.4's SV_2).
pub const DLQ_SHARE_VERSION: i16 = 2;
/// How many times a DLQ write is tried before the records are archived without it.
pub const MAX_TRIES: u32 = 5;
/// The most records one Produce to a DLQ carries.
const RECORDS_PER_PRODUCE: usize = 500;
/// The Produce version DLQ records are sent at.
const PRODUCE_VERSION: i16 = 9;
/// How long one Produce may take.
const PRODUCE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long an auto-created DLQ topic may take to get leaders.
const CREATE_WAIT: Duration = Duration::from_secs(15);

/// The broker's DLQ settings.
#[derive(Debug, Clone)]
pub struct DlqConfig {
    /// `errors.deadletterqueue.topic.name.prefix` (Kafka: "dlq.").
    pub prefix: String,
    /// `errors.deadletterqueue.auto.create.topics.enable` (Kafka: false).
    pub auto_create: bool,
}

impl Default for DlqConfig {
    fn default() -> Self {
        DlqConfig {
            prefix: "dlq.".into(),
            auto_create: false,
        }
    }
}

/// What the DLQ writer did, for `/metrics` (Kafka's `DeadLetterQueue*`).
#[derive(Debug, Default)]
pub struct DlqCounters {
    /// Records written to DLQ topics.
    pub records: AtomicU64,
    /// Produce requests sent to DLQ topics.
    pub produces: AtomicU64,
    /// Of those, the ones that failed.
    pub failed_produces: AtomicU64,
}

/// A group's DLQ topic and whether records are copied, when the group has one.
pub fn group_dlq(image: &MetadataImage, group: &str) -> Option<(String, bool)> {
    if image.features.share_version() < DLQ_SHARE_VERSION {
        return None;
    }
    let own = |k: &str| {
        image
            .configs
            .get(fjord_metadata::group_configs::GROUP, group, k)
            .map(str::to_string)
    };
    let topic = own(DLQ_TOPIC_KEY).filter(|t| !t.is_empty())?;
    let copy = own(DLQ_COPY_KEY).is_some_and(|v| v.eq_ignore_ascii_case("true"));
    Some((topic, copy))
}

/// Writes dead letters.
#[derive(Debug)]
pub struct DeadLetters {
    config: DlqConfig,
    controller: Option<Arc<ControllerClient>>,
    view: watch::Receiver<View>,
    /// Its counters.
    pub counters: DlqCounters,
}

impl DeadLetters {
    /// A writer with the broker's settings (`controller` creates missing DLQ topics).
    pub fn new(
        config: DlqConfig,
        controller: Option<Arc<ControllerClient>>,
        view: watch::Receiver<View>,
    ) -> DeadLetters {
        DeadLetters {
            config,
            controller,
            view,
            counters: DlqCounters::default(),
        }
    }

    fn image(&self) -> Arc<MetadataImage> {
        self.view.borrow().image.clone()
    }

    /// Why `topic` cannot be `group`'s DLQ now, in Kafka's words (None: it can; a missing
    /// topic is created first when the broker allows it).
    async fn usable(&self, group: &str, topic: &str) -> Option<String> {
        if topic.starts_with("__") {
            return Some(format!(
                "Configured DLQ topic name in share group: {group} cannot start with __, topic: {topic}."
            ));
        }
        if !topic.starts_with(&self.config.prefix) {
            return Some(format!(
                "Configured DLQ topic name does not comply with the DLQ topic prefix in share group: {group}, topic: {topic}, prefix: {}.",
                self.config.prefix
            ));
        }
        if self.image().topics.get_by_name(topic).is_none() {
            if !self.config.auto_create {
                return Some(format!(
                    "DLQ topic does not exist and auto create is disabled on cluster for share group: {group}, topic: {topic}."
                ));
            }
            self.create(topic).await;
            if self.image().topics.get_by_name(topic).is_none() {
                return Some(format!(
                    "DLQ topic id could not be found for share group {group} with DLQ topic {topic}."
                ));
            }
        }
        let enabled = self
            .image()
            .configs
            .get(fjord_metadata::config_defs::TOPIC, topic, DLQ_ENABLE_KEY)
            .is_some_and(|v| v.eq_ignore_ascii_case("true"));
        (!enabled).then(|| {
            format!("DLQ is not enabled on configured DLQ topic for share group: {group}, topic: {topic}.")
        })
    }

    /// Creates a DLQ topic with the broker's defaults and the DLQ flag, and waits (bounded)
    /// until every partition has a leader.
    async fn create(&self, topic: &str) {
        let Some(controller) = &self.controller else {
            return;
        };
        let body = RequestBody::CreateTopics(CreateTopicsRequest {
            topics: vec![CreatableTopic {
                name: topic.to_string(),
                num_partitions: -1,
                replication_factor: -1,
                configs: vec![CreatableTopicConfig {
                    name: DLQ_ENABLE_KEY.into(),
                    value: Some("true".into()),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            timeout_ms: 30_000,
            ..Default::default()
        });
        if let Err(e) = controller.call(body, 7).await {
            tracing::warn!(topic, "creating a DLQ topic: {e:?}");
            return;
        }
        let mut view = self.view.clone();
        let led = |v: &View| {
            v.image.topics.get_by_name(topic).is_some_and(|t| {
                !t.partitions.is_empty() && t.partitions.values().all(|p| p.leader >= 0)
            })
        };
        let _ = tokio::time::timeout(CREATE_WAIT, view.wait_for(led)).await;
    }

    /// Writes `letter`'s records of `key` (read from `partition` when copying) to the group's
    /// DLQ. Returns once they are written, or once the DLQ has proved unusable (logged).
    pub async fn write(
        &self,
        peers: &Peers,
        key: &SharePartitionKey,
        partition: &crate::replica::partition::Partition,
        letter: &DeadLetter,
    ) {
        let image = self.image();
        let Some((topic, copy)) = group_dlq(&image, &key.group) else {
            return;
        };
        if let Some(why) = self.usable(&key.group, &topic).await {
            tracing::warn!(
                "{why} Records {}-{} are archived without it.",
                letter.first,
                letter.last
            );
            return;
        }
        let source = image
            .topics
            .by_id
            .get(&key.topic_id)
            .map(|t| t.name.clone())
            .unwrap_or_default();
        let originals = if copy {
            read_originals(partition, letter.first, letter.last)
        } else {
            Vec::new()
        };
        let message = if letter.rejected {
            "Offset rejected by client."
        } else {
            "Offset delivery count exceeded the threshold."
        };
        let now = fjord_util::system_now_ms();
        let offsets: Vec<i64> = (letter.first..=letter.last).collect();
        for chunk in offsets.chunks(RECORDS_PER_PRODUCE) {
            let mut b = RecordBatchBuilder::new(Compression::None);
            for o in chunk {
                let original = originals.iter().find(|r| r.offset == *o);
                let context = [
                    ("__dlq.errors.topic", source.clone()),
                    ("__dlq.errors.partition", key.partition.to_string()),
                    ("__dlq.errors.offset", o.to_string()),
                    ("__dlq.errors.group", key.group.clone()),
                    (
                        "__dlq.errors.delivery.count",
                        letter.delivery_count.to_string(),
                    ),
                    ("__dlq.errors.message", message.to_string()),
                ];
                let mut headers: Vec<(&str, Option<&[u8]>)> = Vec::new();
                if let Some(r) = original {
                    headers.extend(r.headers.iter().map(|(k, v)| (k.as_str(), v.as_deref())));
                }
                headers.extend(context.iter().map(|(k, v)| (*k, Some(v.as_bytes()))));
                b.append(
                    original.map_or(now, |r| r.timestamp),
                    original.and_then(|r| r.key.as_deref()),
                    original.and_then(|r| r.value.as_deref()),
                    &headers,
                );
            }
            let Ok(records) = b.build() else {
                tracing::warn!(
                    topic,
                    "encoding DLQ records failed; records are archived without it"
                );
                return;
            };
            if !self
                .produce(peers, &topic, key.partition, records, chunk.len())
                .await
            {
                tracing::warn!(
                    "Exhausted max retries to produce to DLQ topic {topic} for share group {}; records {}-{} are archived without it.",
                    key.group,
                    letter.first,
                    letter.last
                );
                return;
            }
        }
    }

    /// Sends one batch to the DLQ partition for source partition `source` (the same index,
    /// modulo the DLQ's partition count), trying up to [`MAX_TRIES`] times.
    async fn produce(
        &self,
        peers: &Peers,
        topic: &str,
        source: i32,
        records: bytes::Bytes,
        count: usize,
    ) -> bool {
        let mut backoff = Duration::from_millis(100);
        for _ in 0..MAX_TRIES {
            let image = self.image();
            let Some(t) = image.topics.get_by_name(topic) else {
                return false;
            };
            let n = t.partitions.len().max(1) as i32;
            let index = source.rem_euclid(n);
            let leader = t.partitions.get(&index).map_or(-1, |p| p.leader);
            if leader >= 0 {
                self.counters.produces.fetch_add(1, Ordering::Relaxed);
                let body = RequestBody::Produce(ProduceRequest {
                    transactional_id: None,
                    acks: -1,
                    timeout_ms: PRODUCE_TIMEOUT.as_millis() as i32,
                    topic_data: vec![TopicProduceData {
                        name: topic.to_string(),
                        partition_data: vec![PartitionProduceData {
                            index,
                            records: Some(records.clone().into()),
                            ..Default::default()
                        }],
                        ..Default::default()
                    }],
                    ..Default::default()
                });
                let answer = peers
                    .call(&image, leader, body, PRODUCE_VERSION, PRODUCE_TIMEOUT)
                    .await;
                let code = match answer {
                    Some(ResponseBody::Produce(r)) => r
                        .responses
                        .first()
                        .and_then(|t| t.partition_responses.first())
                        .map_or(ErrorCode::UnknownServerError.code(), |p| p.error_code),
                    _ => ErrorCode::NetworkException.code(),
                };
                if code == 0 {
                    self.counters
                        .records
                        .fetch_add(count as u64, Ordering::Relaxed);
                    return true;
                }
                self.counters
                    .failed_produces
                    .fetch_add(1, Ordering::Relaxed);
                tracing::debug!(topic, index, code, "producing to a DLQ topic");
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(2));
        }
        false
    }
}

/// One original record to copy.
struct Original {
    offset: i64,
    timestamp: i64,
    key: Option<bytes::Bytes>,
    value: Option<bytes::Bytes>,
    headers: Vec<(String, Option<bytes::Bytes>)>,
}

/// The records `first..=last` of the partition's log, as far as it still has them.
fn read_originals(
    partition: &crate::replica::partition::Partition,
    first: i64,
    last: i64,
) -> Vec<Original> {
    let mut out = Vec::new();
    let mut next = first;
    // Whole batches are read: a batch holding `last` may run past it.
    let stop = partition.log.high_watermark();
    while next <= last {
        let Ok(read) = partition.log.read(next, 1 << 20, Some(stop), true) else {
            break;
        };
        let mut moved = false;
        for batch in RecordBatches::new(read.records).map_while(Result::ok) {
            let b: &RecordBatch = &batch;
            next = next.max(b.next_offset());
            moved = true;
            let Ok(records) = b.records() else { continue };
            for r in records.map_while(Result::ok) {
                let offset = b.base_offset() + i64::from(r.offset_delta);
                if offset < first || offset > last {
                    continue;
                }
                out.push(Original {
                    offset,
                    timestamp: b.base_timestamp() + r.timestamp_delta,
                    key: r.key,
                    value: r.value,
                    headers: r.headers.into_iter().map(|h| (h.key, h.value)).collect(),
                });
            }
        }
        if !moved {
            break;
        }
    }
    out
}
