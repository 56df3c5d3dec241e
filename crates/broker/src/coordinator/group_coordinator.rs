//! The group coordinator: the coordinator runtime ([`crate::coordinator::runtime`]) over
//! `__consumer_offsets` with one [`fjord_group::Shard`] per led partition. What it adds is
//! how a group shard folds the log (offsets and group metadata; offsets committed in a
//! transaction wait for its marker) and the request context its calls get.

use crate::cluster::controller_client::ControllerClient;
use crate::coordinator::runtime::{
    CoordinatorShard, Entry, Replayed, Routed, Runtime, Split, TopicSettings,
};
use crate::replica::replica_manager::ReplicaManager;
use fjord_configdef::topic;
use fjord_group::share::ShareJob;
use fjord_group::streams::topology::TopicToCreate;
use fjord_group::{GroupConfig, GroupRecord, Output, RequestContext, Shard};
use fjord_metadata::MetadataImage;
use fjord_protocol::ResponseBody;
use std::sync::Arc;
use tokio::sync::watch;

/// The topic that holds groups and offsets.
pub const OFFSETS_TOPIC: &str = "__consumer_offsets";

/// What a group shard asks the driver to do once its records are committed.
#[derive(Debug, Clone)]
pub enum GroupEffect {
    /// Share-partition state to create or delete at the share coordinators.
    Share(ShareJob),
    /// A streams group's missing internal topics, to create through the controller.
    CreateTopics(Vec<TopicToCreate>),
}

/// The most internal topics of streams groups being created at once; more wait for the next
/// heartbeat that asks for them.
pub const MAX_PENDING_TOPIC_CREATIONS: usize = 1_000;

/// The coordinator's settings beyond the state machine's.
#[derive(Debug, Clone)]
pub struct CoordinatorConfig {
    /// The state machine's.
    pub group: GroupConfig,
    /// `offsets.topic.num.partitions`.
    pub num_partitions: i32,
    /// `offsets.topic.replication.factor`.
    pub replication_factor: i16,
    /// `offsets.topic.segment.bytes` (Kafka: 100 MiB).
    pub segment_bytes: i64,
}

impl CoordinatorShard for Shard {
    type Config = GroupConfig;
    type Output = Output;
    type Effect = GroupEffect;
    const TOPIC: &'static str = OFFSETS_TOPIC;

    fn create(config: &GroupConfig, seed: u64, _epoch: i32) -> Shard {
        Shard::new(config.clone(), seed)
    }

    fn replay(&mut self, entry: Replayed<'_>, now: i64) -> Result<(), String> {
        match entry {
            Replayed::Record {
                producer_id,
                key,
                value,
                ..
            } => {
                let Some(record) = GroupRecord::decode(key, value).map_err(|e| e.to_string())?
                else {
                    return Ok(());
                };
                if producer_id >= 0 {
                    self.replay_pending(producer_id, record);
                } else {
                    Shard::replay(self, record, now);
                }
            }
            Replayed::Marker {
                producer_id,
                commit,
            } => self.complete_txn(producer_id, commit, now),
        }
        Ok(())
    }

    fn loaded(&mut self, now: i64) -> Output {
        Shard::loaded(self, now);
        Output::default()
    }

    fn next_deadline(&self) -> Option<i64> {
        Shard::next_deadline(self)
    }

    fn tick(&mut self, now: i64) -> Output {
        Shard::tick(self, now)
    }

    fn split(out: Output) -> Split<GroupEffect> {
        let producer = out.producer;
        Split {
            entries: out
                .records
                .iter()
                .map(|r| {
                    let (key, value) = r.encode();
                    Entry::Record {
                        producer,
                        key,
                        value,
                    }
                })
                .collect(),
            replies: out.replies,
            effects: out
                .share_jobs
                .into_iter()
                .map(GroupEffect::Share)
                .chain(
                    (!out.streams_topics.is_empty())
                        .then_some(GroupEffect::CreateTopics(out.streams_topics)),
                )
                .collect(),
        }
    }

    fn size(&self) -> usize {
        self.group_ids().len()
    }
}

/// The group coordinator of this broker.
pub type GroupCoordinator = Runtime<Shard>;

impl Runtime<Shard> {
    /// The group coordinator over this broker's partitions.
    pub fn groups(
        config: CoordinatorConfig,
        replicas: Arc<ReplicaManager>,
        controller: Arc<ControllerClient>,
        clock: fjord_util::Clock,
    ) -> (
        Arc<GroupCoordinator>,
        tokio::sync::mpsc::UnboundedReceiver<GroupEffect>,
    ) {
        let topic = TopicSettings {
            partitions: config.num_partitions,
            replication_factor: config.replication_factor,
            configs: vec![
                (topic::CLEANUP_POLICY.name.into(), "compact".into()),
                (topic::COMPRESSION_TYPE.name.into(), "producer".into()),
                (
                    topic::SEGMENT_BYTES.name.into(),
                    config.segment_bytes.to_string(),
                ),
            ],
        };
        Runtime::new(config.group, topic, replicas, controller, clock)
    }

    /// Carries out the shards' effects until the coordinator is gone: each share-partition's
    /// state is created (or deleted) at its share coordinator, and an initialization's
    /// outcome goes back to the group's shard; streams groups' internal topics are created
    /// through the controller (each name once at a time).
    pub async fn run_group_jobs(
        self: Arc<Self>,
        persister: Arc<crate::share::persister::Persister>,
        view: watch::Receiver<crate::cluster::view::View>,
        controller: Arc<ControllerClient>,
        mut jobs: tokio::sync::mpsc::UnboundedReceiver<GroupEffect>,
    ) -> String {
        let pending = Arc::new(std::sync::Mutex::new(std::collections::HashSet::new()));
        while let Some(job) = jobs.recv().await {
            match job {
                GroupEffect::Share(job) => {
                    let (me, persister, view) = (self.clone(), persister.clone(), view.clone());
                    tokio::spawn(async move { me.share_job(&persister, view, job).await });
                }
                GroupEffect::CreateTopics(topics) => {
                    let (controller, pending) = (controller.clone(), pending.clone());
                    tokio::spawn(create_internal_topics(controller, pending, topics));
                }
            }
        }
        "the group coordinator's jobs ended".into()
    }

    async fn share_job(
        self: &Arc<Self>,
        persister: &Arc<crate::share::persister::Persister>,
        view: watch::Receiver<crate::cluster::view::View>,
        job: ShareJob,
    ) {
        use crate::share::persister::SharePartitionKey;
        let (group, partitions) = match &job {
            ShareJob::Initialize {
                group, partitions, ..
            }
            | ShareJob::Delete { group, partitions } => (group.clone(), partitions.clone()),
        };
        let mut calls = tokio::task::JoinSet::new();
        for (t, ps) in &partitions {
            for p in ps {
                let key = SharePartitionKey {
                    group: group.clone(),
                    topic_id: *t,
                    partition: *p,
                };
                let (persister, job) = (persister.clone(), job.clone());
                calls.spawn(async move {
                    let r = match job {
                        ShareJob::Initialize { state_epoch, .. } => {
                            persister.initialize(&key, state_epoch, -1).await
                        }
                        ShareJob::Delete { .. } => persister.delete(&key).await,
                    };
                    if let Err(e) = &r {
                        tracing::warn!(
                            group = key.group,
                            topic_id = %key.topic_id,
                            partition = key.partition,
                            "share-partition state: {e}"
                        );
                    }
                    (key, r.is_ok())
                });
            }
        }
        let results = calls.join_all().await;
        if let ShareJob::Initialize { .. } = job {
            let mut done = fjord_group::share::Partitions::new();
            for (key, ok) in results {
                if ok {
                    done.entry(key.topic_id).or_default().insert(key.partition);
                }
            }
            let image = view.borrow().image.clone();
            let answered = self
                .apply(&image, &group, |shard, _| {
                    (shard.share_initialized(&group, &done), ())
                })
                .await;
            if let Err(code) = answered {
                tracing::debug!(group, "share-partition state initialized: {code:?}");
            }
        }
    }

    /// Runs one group request: `run` calls the state machine with the request's context;
    /// the answer comes once its records are written (or, for a JoinGroup or SyncGroup that
    /// must wait, when the group gets there).
    pub async fn call_group(
        self: &Arc<Self>,
        image: &MetadataImage,
        group: &str,
        version: i16,
        client: (&str, std::net::SocketAddr),
        run: impl FnOnce(&mut Shard, &RequestContext, i64) -> Output,
    ) -> Routed<ResponseBody> {
        let client_id = client.0.to_string();
        let client_host = format!("/{}", client.1.ip());
        self.call(image, group, |shard, token, now| {
            let ctx = RequestContext {
                token,
                version,
                client_id,
                client_host,
            };
            run(shard, &ctx, now)
        })
        .await
    }

    /// Follows the applied images: loads and drops shards as leadership moves, and removes
    /// the offsets of deleted topics.
    pub async fn follow_groups(
        self: Arc<Self>,
        applied: watch::Receiver<Option<crate::replica::replica_manager::Applied>>,
    ) -> String {
        let me = self.clone();
        self.follow(applied, move |gone| {
            let me = me.clone();
            async move { me.each_shard_mut(|s| s.topics_deleted(&gone)).await }
        })
        .await
    }
}

/// Creates a streams group's internal topics through the controller (Kafka's broker does it
/// for the coordinator), skipping names already being created; a failure is logged and the
/// next heartbeat asks again.
async fn create_internal_topics(
    controller: Arc<ControllerClient>,
    pending: Arc<std::sync::Mutex<std::collections::HashSet<String>>>,
    topics: Vec<TopicToCreate>,
) {
    use fjord_protocol::generated::create_topics_request::{
        CreatableTopic, CreatableTopicConfig, CreateTopicsRequest,
    };
    let topics: Vec<TopicToCreate> = {
        let mut p = pending.lock().unwrap_or_else(|e| e.into_inner());
        topics
            .into_iter()
            .filter(|t| p.len() < MAX_PENDING_TOPIC_CREATIONS && p.insert(t.name.clone()))
            .collect()
    };
    if topics.is_empty() {
        return;
    }
    let body = fjord_protocol::RequestBody::CreateTopics(CreateTopicsRequest {
        topics: topics
            .iter()
            .map(|t| CreatableTopic {
                name: t.name.clone(),
                num_partitions: t.partitions,
                replication_factor: t.replication_factor,
                configs: t
                    .configs
                    .iter()
                    .map(|(k, v)| CreatableTopicConfig {
                        name: k.clone(),
                        value: Some(v.clone()),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
            .collect(),
        timeout_ms: 30_000,
        ..Default::default()
    });
    match controller.call(body, 7).await {
        Ok(ResponseBody::CreateTopics(r)) => {
            for t in r.topics.iter().filter(|t| {
                t.error_code != 0
                    && t.error_code != fjord_protocol::ErrorCode::TopicAlreadyExists.code()
            }) {
                tracing::warn!(
                    topic = t.name,
                    "creating a streams group's internal topic: {}",
                    t.error_message.as_deref().unwrap_or("(no message)")
                );
            }
        }
        Ok(other) => tracing::warn!("creating internal topics: answered {:?}", other.api_key()),
        Err(e) => tracing::warn!("creating a streams group's internal topics: {e}"),
    }
    let mut p = pending.lock().unwrap_or_else(|e| e.into_inner());
    for t in &topics {
        p.remove(&t.name);
    }
}
