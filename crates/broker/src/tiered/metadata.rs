//! `__remote_log_metadata` on the broker: a value is published with a Produce (acks=all) to
//! the leader of the partition Kafka's partitioner picks, and counts as written once this
//! broker's own reader has folded it; the reader fetches every partition of the topic from
//! its leader, as a consumer, and folds the values into the broker's cache (so every broker
//! knows every remote segment). The topic is created when the broker first needs it.

use super::{Tiering, REMOTE_LOG_METADATA_TOPIC};
use bytes::Bytes;
use fjord_configdef::topic;
use fjord_protocol::generated::create_topics_request::{
    CreatableTopic, CreatableTopicConfig, CreateTopicsRequest,
};
use fjord_protocol::generated::fetch_request::{FetchPartition, FetchRequest, FetchTopic};
use fjord_protocol::generated::produce_request::{
    PartitionProduceData, ProduceRequest, TopicProduceData,
};
use fjord_protocol::records::{Compression, RecordBatchBuilder, RecordBatches};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use fjord_tiered::records::{metadata_partition, RemoteLogMetadata};
use fjord_tiered::TieredError;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// The Produce version the publisher speaks.
const PRODUCE_VERSION: i16 = 9;
/// The Fetch version the reader speaks (topic ids).
const FETCH_VERSION: i16 = 15;
/// How long a publish may take, from the Produce to its fold here.
pub const PUBLISH_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a read of the topic waits for news at its leader.
const READ_WAIT_MS: i32 = 500;
/// The most bytes one read of a partition of the topic returns.
const READ_PARTITION_BYTES: i32 = 1 << 20;
/// How long the reader waits after a failed read before the next.
const READ_BACKOFF: Duration = Duration::from_millis(500);

impl Tiering {
    /// Publishes `value` and waits until this broker has folded it.
    pub async fn publish(&self, value: &RemoteLogMetadata) -> Result<(), TieredError> {
        let tp = value.topic_id_partition();
        let index = metadata_partition(tp.topic_id, tp.partition, self.config.metadata_partitions);
        let image = self.view.borrow().image.clone();
        let Some(topic) = image.topics.get_by_name(REMOTE_LOG_METADATA_TOPIC) else {
            self.create_topic().await;
            return Err(TieredError::Store(format!(
                "{REMOTE_LOG_METADATA_TOPIC} does not exist yet"
            )));
        };
        let leader = topic.partitions.get(&index).map_or(-1, |p| p.leader);
        if leader < 0 {
            return Err(TieredError::Store(format!(
                "{REMOTE_LOG_METADATA_TOPIC}-{index} has no leader"
            )));
        }
        let mut batch = RecordBatchBuilder::new(Compression::None);
        batch.append(
            fjord_util::system_now_ms(),
            None,
            Some(&value.encode()),
            &[],
        );
        let records = batch
            .build()
            .map_err(|e| TieredError::BadMetadata(e.to_string()))?;
        let body = RequestBody::Produce(ProduceRequest {
            transactional_id: None,
            acks: -1,
            timeout_ms: PUBLISH_TIMEOUT.as_millis() as i32,
            topic_data: vec![TopicProduceData {
                name: REMOTE_LOG_METADATA_TOPIC.into(),
                partition_data: vec![PartitionProduceData {
                    index,
                    records: Some(records.into()),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        let answer = self
            .peers
            .call(&image, leader, body, PRODUCE_VERSION, PUBLISH_TIMEOUT)
            .await;
        let (code, offset) = match answer {
            Some(ResponseBody::Produce(r)) => r
                .responses
                .first()
                .and_then(|t| t.partition_responses.first())
                .map_or((ErrorCode::UnknownServerError.code(), -1), |p| {
                    (p.error_code, p.base_offset)
                }),
            _ => (ErrorCode::NetworkException.code(), -1),
        };
        if code != 0 {
            return Err(TieredError::Store(format!(
                "publishing to {REMOTE_LOG_METADATA_TOPIC}-{index}: error {code}"
            )));
        }
        self.wait_folded(index, offset).await
    }

    /// Waits until the value at `offset` of partition `index` is folded here.
    async fn wait_folded(&self, index: i32, offset: i64) -> Result<(), TieredError> {
        let mut rx = self.folded_tx.subscribe();
        let deadline = tokio::time::Instant::now() + PUBLISH_TIMEOUT;
        loop {
            let done = self
                .folded
                .lock()
                .expect("folded")
                .get(&index)
                .is_some_and(|next| *next > offset);
            if done {
                return Ok(());
            }
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                return Err(TieredError::Store(format!(
                    "{REMOTE_LOG_METADATA_TOPIC}-{index}: offset {offset} not read back in time"
                )));
            }
        }
    }

    /// Asks the controller to create the metadata topic (an existing one is fine).
    pub async fn create_topic(&self) {
        let c = &self.config;
        let body = RequestBody::CreateTopics(CreateTopicsRequest {
            topics: vec![CreatableTopic {
                name: REMOTE_LOG_METADATA_TOPIC.into(),
                num_partitions: c.metadata_partitions,
                replication_factor: c.metadata_replication_factor,
                configs: [
                    (
                        topic::RETENTION_MS.name,
                        c.metadata_retention_ms.to_string(),
                    ),
                    (topic::CLEANUP_POLICY.name, "delete".to_string()),
                ]
                .into_iter()
                .map(|(name, value)| CreatableTopicConfig {
                    name: name.into(),
                    value: Some(value),
                    ..Default::default()
                })
                .collect(),
                ..Default::default()
            }],
            timeout_ms: 30_000,
            ..Default::default()
        });
        match self.controller.call(body, 7).await {
            Ok(ResponseBody::CreateTopics(r)) => {
                for t in r.topics {
                    if t.error_code != 0 && t.error_code != ErrorCode::TopicAlreadyExists.code() {
                        tracing::warn!(
                            code = t.error_code,
                            message = ?t.error_message,
                            "creating {REMOTE_LOG_METADATA_TOPIC}"
                        );
                    }
                }
            }
            Ok(other) => tracing::warn!("creating {REMOTE_LOG_METADATA_TOPIC}: answered {other:?}"),
            Err(e) => tracing::warn!("creating {REMOTE_LOG_METADATA_TOPIC}: {e}"),
        }
    }

    /// Reads every partition of the metadata topic from its leader for as long as the broker
    /// runs, folding the values into the cache. Each leader's reads run on their own (a
    /// publish waits only for its own partition's leader, never for another leader's idle
    /// long poll); a partition is in at most one read at a time. Returns only when the broker
    /// stops.
    pub async fn read_metadata(self: Arc<Self>) -> String {
        use futures_util::stream::{FuturesUnordered, StreamExt};
        let mut stopping = self.replicas.stopping();
        let mut view = self.view.clone();
        let mut created = false;
        let mut reads = FuturesUnordered::new();
        // Partitions in a read now, and leaders resting after a failed one.
        let mut reading: std::collections::HashSet<i32> = Default::default();
        let mut resting: BTreeMap<i32, tokio::time::Instant> = BTreeMap::new();
        loop {
            if *stopping.borrow() {
                return "the broker stops".into();
            }
            let image = self.view.borrow().image.clone();
            let Some(topic) = image.topics.get_by_name(REMOTE_LOG_METADATA_TOPIC).cloned() else {
                // An image that shows this broker unfenced was caught up when the controller
                // unfenced it: a topic missing there was never created.
                let unfenced = image
                    .cluster
                    .brokers
                    .get(&self.node_id)
                    .is_some_and(|b| !b.fenced);
                if unfenced {
                    self.mark_ready("it does not exist: nothing was ever tiered");
                }
                if !created && self.replicas.has_tiered_partitions() {
                    created = true;
                    self.create_topic().await;
                }
                tokio::select! {
                    _ = tokio::time::sleep(READ_BACKOFF) => {}
                    _ = stopping.changed() => {}
                }
                continue;
            };
            let now = tokio::time::Instant::now();
            resting.retain(|_, until| *until > now);
            let mut by_leader: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
            for (index, p) in topic.partitions.iter() {
                if p.leader >= 0 && !reading.contains(index) && !resting.contains_key(&p.leader) {
                    by_leader.entry(p.leader).or_default().push(*index);
                }
            }
            let topic_id = topic.id;
            for (leader, parts) in by_leader {
                reading.extend(parts.iter().copied());
                let this = self.clone();
                let image = image.clone();
                reads.push(async move {
                    let ok = this.read_from(&image, topic_id, leader, &parts).await;
                    (leader, parts, ok)
                });
            }
            let wake = resting
                .values()
                .min()
                .copied()
                .unwrap_or(now + READ_BACKOFF);
            tokio::select! {
                Some((leader, parts, ok)) = reads.next(), if !reads.is_empty() => {
                    for p in &parts {
                        reading.remove(p);
                    }
                    if !ok {
                        resting.insert(leader, tokio::time::Instant::now() + READ_BACKOFF);
                    }
                }
                _ = view.changed() => {}
                _ = tokio::time::sleep_until(wake) => {}
                _ = stopping.changed() => {}
            }
        }
    }

    /// One Fetch of `parts` from `leader`; true when it was answered.
    async fn read_from(
        &self,
        image: &fjord_metadata::MetadataImage,
        topic_id: fjord_protocol::Uuid,
        leader: i32,
        parts: &[i32],
    ) -> bool {
        let positions: Vec<(i32, i64)> = {
            let folded = self.folded.lock().expect("folded");
            parts
                .iter()
                .map(|p| (*p, folded.get(p).copied().unwrap_or(0)))
                .collect()
        };
        let body = RequestBody::Fetch(FetchRequest {
            replica_id: -1,
            max_wait_ms: READ_WAIT_MS,
            min_bytes: 1,
            max_bytes: READ_PARTITION_BYTES * 8,
            session_id: 0,
            session_epoch: -1,
            topics: vec![FetchTopic {
                topic_id,
                partitions: positions
                    .iter()
                    .map(|(p, at)| FetchPartition {
                        partition: *p,
                        fetch_offset: *at,
                        partition_max_bytes: READ_PARTITION_BYTES,
                        current_leader_epoch: -1,
                        last_fetched_epoch: -1,
                        log_start_offset: -1,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            }],
            ..Default::default()
        });
        let timeout = Duration::from_millis(READ_WAIT_MS as u64) + Duration::from_secs(10);
        let Some(ResponseBody::Fetch(r)) = self
            .reader_peers
            .call(image, leader, body, FETCH_VERSION, timeout)
            .await
        else {
            return false;
        };
        let mut folded_any = false;
        for t in r.responses {
            for p in t.partitions {
                if p.error_code == ErrorCode::OffsetOutOfRange.code() {
                    // Retention removed what this reader had not read: start at the log start.
                    let mut f = self.folded.lock().expect("folded");
                    f.insert(p.partition_index, p.log_start_offset.max(0));
                    continue;
                }
                if p.error_code != 0 {
                    continue;
                }
                if let Some(records) = p.records {
                    if let Ok(bytes) = records.into_bytes() {
                        folded_any |= self.fold(p.partition_index, bytes);
                    }
                }
                let at = self
                    .folded
                    .lock()
                    .expect("folded")
                    .get(&p.partition_index)
                    .copied();
                if at.unwrap_or(0) >= p.high_watermark {
                    self.caught_up(p.partition_index);
                }
            }
        }
        if folded_any {
            self.folded_tx.send_modify(|n| *n += 1);
        }
        true
    }

    /// Notes that partition `index` of the metadata topic was read to its high watermark
    /// once; when every partition was, the cache holds what the store held when the broker
    /// started, and the broker may act on it.
    fn caught_up(&self, index: i32) {
        if self.ready.load(std::sync::atomic::Ordering::Acquire) {
            return;
        }
        let mut caught = self.caught.lock().expect("caught");
        caught.insert(index);
        if caught.len() >= usize::try_from(self.config.metadata_partitions).unwrap_or(1) {
            self.mark_ready("every partition of it was read to its high watermark");
        }
    }

    /// The cache is complete enough to act on.
    pub(super) fn mark_ready(&self, why: &str) {
        if !self.ready.swap(true, std::sync::atomic::Ordering::AcqRel) {
            tracing::info!("{REMOTE_LOG_METADATA_TOPIC} is read: {why}");
        }
    }

    /// Folds the values of `bytes` read from partition `index`; true when it moved.
    fn fold(&self, index: i32, bytes: Bytes) -> bool {
        let mut next = None;
        let mut cache = self.cache.write().expect("remote log metadata");
        let from = self
            .folded
            .lock()
            .expect("folded")
            .get(&index)
            .copied()
            .unwrap_or(0);
        for batch in RecordBatches::new(bytes) {
            let Ok(batch) = batch else { break };
            if batch.next_offset() <= from {
                // Folded already (a read that started before the last one's answer).
                continue;
            }
            next = Some(batch.next_offset());
            if batch.is_control() {
                continue;
            }
            let Ok(records) = batch.records() else {
                continue;
            };
            for record in records {
                let Ok(record) = record else { break };
                let Some(value) = record.value else { continue };
                match RemoteLogMetadata::decode(&value) {
                    Ok(v) => {
                        if let Err(e) = cache.apply(&v) {
                            tracing::debug!("remote log metadata not folded: {e}");
                        }
                    }
                    Err(e) => tracing::warn!(
                        "skipping an unreadable value of {REMOTE_LOG_METADATA_TOPIC}-{index}: {e}"
                    ),
                }
            }
        }
        drop(cache);
        match next {
            Some(n) => {
                self.folded.lock().expect("folded").insert(index, n);
                true
            }
            None => false,
        }
    }
}
