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
use fjord_group::{GroupConfig, GroupRecord, Output, RequestContext, Shard};
use fjord_metadata::MetadataImage;
use fjord_protocol::ResponseBody;
use std::sync::Arc;
use tokio::sync::watch;

/// The topic that holds groups and offsets.
pub const OFFSETS_TOPIC: &str = "__consumer_offsets";

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
    type Effect = ShareJob;
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

    fn split(out: Output) -> Split<ShareJob> {
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
            effects: out.share_jobs,
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
        tokio::sync::mpsc::UnboundedReceiver<ShareJob>,
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

    /// Carries out the share groups' state jobs until the coordinator is gone: each
    /// share-partition's state is created (or deleted) at its share coordinator, and an
    /// initialization's outcome goes back to the group's shard.
    pub async fn run_share_jobs(
        self: Arc<Self>,
        persister: Arc<crate::share::persister::Persister>,
        view: watch::Receiver<crate::cluster::view::View>,
        mut jobs: tokio::sync::mpsc::UnboundedReceiver<ShareJob>,
    ) -> String {
        while let Some(job) = jobs.recv().await {
            let (me, persister, view) = (self.clone(), persister.clone(), view.clone());
            tokio::spawn(async move { me.share_job(&persister, view, job).await });
        }
        "the group coordinator's share jobs ended".into()
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
