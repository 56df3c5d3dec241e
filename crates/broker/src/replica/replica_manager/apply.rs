//! Applying the metadata to the hosted partitions. Each publication of the image loader comes
//! with its delta ([`MetadataDelta`]); only what it names is looked at: the partitions it
//! changed, the partitions of topics whose config changed, and the hosted partitions of
//! deleted topics. A pass over the whole image happens only for a full delta (the first
//! image, a snapshot loaded, or a manager that fell behind the loader's journal). For each
//! partition looked at, the manager creates its log (a new replica), reconfigures and sets
//! its leadership, or deletes it (no longer hosted). What the manager applied is published in
//! turn ([`Applied`]) with the same delta plus the hosted partitions it changed on its own (a
//! replica moved to another dir, or stopped with a failed dir), for the replica fetchers and
//! the coordinators, which follow it the same way.

use super::{ReplicaManager, ReplicationSettings, Wanted};
use crate::cluster::view::View;
use crate::replica::partition::{
    Leadership, Partition, THROTTLED_AS_FOLLOWER, THROTTLED_AS_LEADER,
};
use fjord_configdef::{topic, Def};
use fjord_log::config::{CleanupPolicy, TimestampType};
use fjord_log::{LogConfig, TopicPartition};
use fjord_metadata::config_defs::{BROKER, TOPIC};
use fjord_metadata::delta::MetadataDelta;
use fjord_metadata::{MetadataImage, TopicImage};
use fjord_protocol::Uuid;
use fjord_quota::replication::{
    ALTER_LOG_DIRS_RATE, FOLLOWER_THROTTLED_RATE, FOLLOWER_THROTTLED_REPLICAS,
    LEADER_THROTTLED_RATE, LEADER_THROTTLED_REPLICAS,
};
use fjord_quota::ThrottledReplicas;
use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::watch;

/// What the replica manager has applied: the image its hosted partitions match, published
/// with the replica manager's own publication (whose journal says which partitions changed).
pub type Applied = View;

/// The partitions a pass looks at: each one's wanted state here, or `None` when it is not
/// (or no longer) hosted here.
type Plan = BTreeMap<(Uuid, i32), Option<Wanted>>;

/// What the image says of one topic for this broker, worked out once per topic in a pass.
struct TopicPlan {
    config: Option<Arc<LogConfig>>,
    min_isr: usize,
    throttled: [ThrottledReplicas; 2],
}

impl ReplicaManager {
    /// The last image the hosted partitions match, with what changed (what the fetchers and
    /// coordinators follow, so they never look for a partition not yet created).
    pub fn applied(&self) -> watch::Receiver<Option<Applied>> {
        self.applied.subscribe()
    }

    /// How many partitions applying images has looked at, ever: what the metadata changes
    /// cost this broker.
    pub fn partitions_visited(&self) -> u64 {
        self.visited.load(Ordering::Relaxed)
    }

    /// Applies the loader's publication `view` (what changed since the last one applied, or
    /// all of it the first time) and publishes it as applied. Blocking.
    pub fn apply_view(&self, view: &View) -> Result<(), fjord_log::LogError> {
        let _one_at_a_time = self.applying.lock().expect("applying");
        let delta = view.delta(&mut self.following.lock().expect("following"));
        self.apply_locked(&view.image, &delta)?;
        self.publish(Some((view.image.clone(), view.applied_up_to)), delta);
        Ok(())
    }

    /// Makes the hosted partitions what `image` says, looking at all of it (a full delta).
    /// Blocking: run it off the async workers.
    pub fn apply(&self, image: &MetadataImage) -> Result<(), fjord_log::LogError> {
        self.apply_delta(image, &MetadataDelta::full())
    }

    /// Makes the partitions `delta` names what `image` says: creates the logs of new
    /// replicas, applies topic configs and leadership, deletes the logs of partitions no
    /// longer hosted. Blocking: run it off the async workers.
    pub fn apply_delta(
        &self,
        image: &MetadataImage,
        delta: &MetadataDelta,
    ) -> Result<(), fjord_log::LogError> {
        let _one_at_a_time = self.applying.lock().expect("applying");
        self.apply_locked(image, delta)
    }

    fn apply_locked(
        &self,
        image: &MetadataImage,
        delta: &MetadataDelta,
    ) -> Result<(), fjord_log::LogError> {
        if delta.full || delta.changes.configs.iter().any(|(t, _)| *t == BROKER) {
            let t = &self.throttles;
            for (quota, key) in [
                (&t.leader, LEADER_THROTTLED_RATE),
                (&t.follower, FOLLOWER_THROTTLED_RATE),
                (&*t.alter_log_dirs, ALTER_LOG_DIRS_RATE),
            ] {
                quota.set_bound(throttled_rate(image, self.node_id, key));
            }
            self.note_unused_keys(image);
        }
        let plan = if delta.full {
            self.plan_all(image)
        } else {
            self.plan_changed(image, delta)
        };
        if plan.is_empty() {
            return Ok(());
        }
        self.remove_unwanted(image, &plan)?;
        for (key, wanted) in plan {
            if let Some(w) = wanted {
                self.make_wanted(key, w)?;
            }
        }
        // The replicas created above are made durable together: one syncfs per log dir
        // (their records are no more durable than any append's until then, as in Kafka,
        // which does not fsync appends either).
        for d in self.dirs.all() {
            if let Some(logs) = d.logs() {
                if let Err(e) = logs.sync_created() {
                    self.storage_error(d.id, e)?;
                }
            }
        }
        Ok(())
    }

    /// Publishes what was applied: `image` (none: the last one again) with `delta`.
    fn publish(&self, image: Option<(Arc<MetadataImage>, i64)>, delta: MetadataDelta) {
        let mut publishing = self.publishing.lock().expect("publishing");
        let (image, applied_up_to) = match image {
            Some(i) => i,
            None => match &*self.applied.borrow() {
                Some(v) => (v.image.clone(), v.applied_up_to),
                None => return, // nothing applied yet: nobody follows anything
            },
        };
        *publishing = publishing.next(delta);
        self.applied.send_replace(Some(View {
            image,
            applied_up_to,
            publication: publishing.clone(),
        }));
    }

    /// Tells the followers of what was applied that these hosted partitions changed on this
    /// broker alone (moved to another dir, stopped with a failed dir).
    pub(super) fn publish_local(&self, keys: impl IntoIterator<Item = (Uuid, i32)>) {
        let mut delta = MetadataDelta::default();
        for k in keys {
            delta.changes.topics.insert(k.0);
            delta.changes.partitions.insert(k);
        }
        if !delta.changes.partitions.is_empty() {
            self.publish(None, delta);
        }
    }

    /// Every partition of `image`, each wanted here or not, and every hosted or offline
    /// replica the image no longer places here. In (topic id, index) order, the same on every
    /// broker: a pass that creates thousands of replicas creates a partition's replicas at
    /// about the same time on its leader and its followers, so a follower is not out of the
    /// ISR before it has its replica.
    fn plan_all(&self, image: &MetadataImage) -> Plan {
        let mut plan = Plan::new();
        for topic in image.topics.by_id.values() {
            let mut t = None;
            for (index, p) in topic.partitions.iter() {
                if let Some(w) = self.wanted_one(image, topic, &mut t, *index, p) {
                    plan.insert((topic.id, *index), Some(w));
                }
            }
        }
        let hosted: Vec<(Uuid, i32)> = self
            .partitions
            .read()
            .expect("partitions")
            .keys()
            .copied()
            .collect();
        let offline: Vec<(Uuid, i32)> = self
            .offline
            .read()
            .expect("offline")
            .keys()
            .copied()
            .collect();
        for k in hosted.into_iter().chain(offline) {
            plan.entry(k).or_insert(None);
        }
        plan
    }

    /// The partitions `delta` names, as `image` wants them here: those it changed, every
    /// partition of a topic whose config changed, and the hosted (or offline) replicas of
    /// deleted topics.
    fn plan_changed(&self, image: &MetadataImage, delta: &MetadataDelta) -> Plan {
        let c = &delta.changes;
        let mut keys: std::collections::BTreeSet<(Uuid, i32)> = c.partitions.clone();
        for (kind, name) in &c.configs {
            if *kind == TOPIC {
                if let Some(t) = image.topics.get_by_name(name) {
                    keys.extend(t.partitions.keys().map(|i| (t.id, *i)));
                }
            }
        }
        for id in c.deleted_topics.keys() {
            let range = (*id, i32::MIN)..=(*id, i32::MAX);
            keys.extend(
                self.partitions
                    .read()
                    .expect("partitions")
                    .range(range)
                    .map(|(k, _)| *k),
            );
            keys.extend(
                self.offline
                    .read()
                    .expect("offline")
                    .keys()
                    .filter(|(t, _)| t == id),
            );
        }
        let mut plan = Plan::new();
        let mut topic_id = None;
        let mut t = None;
        for (id, index) in keys {
            if topic_id != Some(id) {
                (topic_id, t) = (Some(id), None);
            }
            let wanted = image.topics.by_id.get(&id).and_then(|topic| {
                let p = topic.partitions.get(&index)?;
                self.wanted_one(image, topic, &mut t, index, p)
            });
            plan.insert((id, index), wanted);
        }
        plan
    }

    /// Partition `index` of `topic` as wanted here (`None`: this broker holds no replica of
    /// it); `t` caches what the image says of the topic over a pass.
    fn wanted_one(
        &self,
        image: &MetadataImage,
        topic: &TopicImage,
        t: &mut Option<TopicPlan>,
        index: i32,
        p: &fjord_metadata::PartitionRegistration,
    ) -> Option<Wanted> {
        self.visited.fetch_add(1, Ordering::Relaxed);
        if !p.replicas.contains(&self.node_id) {
            return None;
        }
        let plan = t.get_or_insert_with(|| TopicPlan {
            config: None,
            min_isr: min_insync_replicas(&self.settings, image, &topic.name),
            throttled: [LEADER_THROTTLED_REPLICAS, FOLLOWER_THROTTLED_REPLICAS].map(|key| {
                image
                    .configs
                    .get(TOPIC, &topic.name, key)
                    .and_then(|v| ThrottledReplicas::parse(key, v).ok())
                    .unwrap_or_default()
            }),
        });
        let config = plan
            .config
            .get_or_insert_with(|| Arc::new(log_config(&self.defaults, image, &topic.name)))
            .clone();
        let leadership = Leadership {
            leader: p.leader,
            leader_epoch: p.leader_epoch,
            partition_epoch: p.partition_epoch,
            replicas: p.replicas.clone(),
            isr: p.isr.clone(),
            recovering: p.leader_recovery_state == fjord_metadata::LeaderRecoveryState::Recovering,
        };
        // The effective min ISR: at most the replication factor.
        let effective = plan.min_isr.min(p.replicas.len()).max(1);
        let assigned = p
            .replicas
            .iter()
            .position(|r| *r == self.node_id)
            .and_then(|i| p.directories.get(i))
            .copied()
            .unwrap_or_else(Uuid::nil);
        let bit = |list: &ThrottledReplicas, b: u8| {
            if list.covers(index, self.node_id) {
                b
            } else {
                0
            }
        };
        let throttled = bit(&plan.throttled[0], THROTTLED_AS_LEADER)
            | bit(&plan.throttled[1], THROTTLED_AS_FOLLOWER);
        Some((
            topic.name.clone(),
            leadership,
            config,
            effective,
            assigned,
            throttled,
        ))
    }

    /// Makes hosted partition `key` what `wanted` says: its log created (or found) and
    /// configured, its throttles and leadership set. Blocking.
    fn make_wanted(&self, key: (Uuid, i32), wanted: Wanted) -> Result<(), fjord_log::LogError> {
        let (topic_id, index) = key;
        let (topic, leadership, config, min_isr, assigned, throttled) = wanted;
        if self.offline.read().expect("offline").contains_key(&key) {
            return Ok(()); // its dir failed: not served here until the broker restarts
        }
        let config = LogConfig::clone(&config);
        let p = match self.get(topic_id, index) {
            Some(p) => {
                if p.log.config() != config {
                    p.log.set_config(config);
                }
                p
            }
            None => {
                let tp = TopicPartition {
                    topic: topic.clone(),
                    partition: index,
                };
                let Some((dir_id, log)) =
                    self.open_replica(&tp, topic_id, index, config, assigned)?
                else {
                    return Ok(());
                };
                let p = Arc::new(
                    Partition::new(topic, topic_id, index, log, self.outbox.clone()).in_dir(dir_id),
                );
                self.partitions
                    .write()
                    .expect("partitions")
                    .insert(key, p.clone());
                self.bump();
                p
            }
        };
        let mut unassigned = self.unassigned.lock().expect("unassigned");
        if p.dir_id != assigned && !p.dir_id.is_nil() {
            unassigned.insert(key, p.dir_id);
        } else {
            unassigned.remove(&key);
        }
        drop(unassigned);
        p.set_throttled(throttled);
        // The time now, not the pass's start: a follower's lag counts from when its leader
        // took the partition, even late in a pass that creates thousands.
        p.set_leadership(
            self.node_id,
            leadership,
            min_isr,
            self.settings.lag_max_ms,
            fjord_util::monotonic_ms(),
        );
        Ok(())
    }

    /// The log of a replica new to this process: found in an online dir, else created in the
    /// dir `assigned` names (or the least loaded). `None` when its dir is offline (the
    /// replica is recorded as offline). A storage error takes the dir offline.
    fn open_replica(
        &self,
        tp: &TopicPartition,
        topic_id: Uuid,
        index: i32,
        config: LogConfig,
        assigned: Uuid,
    ) -> Result<Option<(Uuid, Arc<fjord_log::PartitionLog>)>, fjord_log::LogError> {
        if let Some(found) = self.dirs.locate(tp) {
            return Ok(Some(found));
        }
        if let Some(dir) = self.dirs.held_offline(tp) {
            self.offline
                .write()
                .expect("offline")
                .insert((topic_id, index), dir);
            return Ok(None);
        }
        loop {
            let Some(d) = self.dirs.place(assigned) else {
                return Err(fjord_log::LogError::InvalidRequest(
                    "every log dir is offline".into(),
                ));
            };
            let Some(logs) = d.logs() else { continue };
            match logs.get_or_create(tp, config.clone(), Some(topic_id)) {
                Ok(log) => {
                    // A log opened at start took the settings known then.
                    if log.config() != config {
                        log.set_config(config.clone());
                    }
                    return Ok(Some((d.id, log)));
                }
                Err(e) => self.storage_error(d.id, e)?,
            }
        }
    }

    /// Deletes the logs of the hosted partitions `plan` no longer places here and forgets
    /// those among the offline ones. Blocking.
    fn remove_unwanted(
        &self,
        image: &MetadataImage,
        plan: &Plan,
    ) -> Result<(), fjord_log::LogError> {
        let gone: Vec<(Uuid, i32)> = plan
            .iter()
            .filter(|(_, w)| w.is_none())
            .map(|(k, _)| *k)
            .collect();
        for key in &gone {
            let removed = self.partitions.write().expect("partitions").remove(key);
            self.offline.write().expect("offline").remove(key);
            let Some(p) = removed else { continue };
            // A tiered topic deleted (not a replica moved away): its store copy goes too.
            if p.log.config().remote_storage && !image.topics.by_id.contains_key(&key.0) {
                if let Some(t) = self.tiering() {
                    t.delete_partition(crate::tiered::topic_id_partition(&p));
                }
            }
            self.bump();
            p.watchers.wake();
            self.unassigned.lock().expect("unassigned").remove(key);
            let tp = TopicPartition {
                topic: p.topic.clone(),
                partition: p.index,
            };
            let deleted = match self.dirs.by_id(p.dir_id).and_then(|d| d.logs()) {
                Some(d) => d.delete(&tp),
                None => Ok(()),
            };
            if let Err(e) = deleted {
                self.storage_error(p.dir_id, e)?;
            }
        }
        Ok(())
    }

    /// Follows the image: applies every new publication (off the async workers) until the
    /// view closes. An error applying it is fatal to the node (its logs are not what the
    /// metadata says).
    pub async fn follow(self: Arc<Self>, mut view: watch::Receiver<View>) -> String {
        loop {
            let v = view.borrow_and_update().clone();
            let me = self.clone();
            match tokio::task::spawn_blocking(move || me.apply_view(&v)).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return format!("applying the metadata image to the logs: {e}"),
                Err(e) => return format!("applying the metadata image to the logs: {e}"),
            }
            if view.changed().await.is_err() {
                return "the metadata view closed".into();
            }
        }
    }

    /// Logs each dynamic key newly set (or changed) for this broker, per broker or
    /// cluster-wide, that fjord accepts and stores but does not act on (Kafka's tools set
    /// such keys; an operator reading the log learns they change nothing here).
    fn note_unused_keys(&self, image: &MetadataImage) {
        let now: BTreeMap<String, String> = image
            .configs
            .broker_keys(&self.node_id.to_string())
            .into_iter()
            .filter(|(k, _)| !fjord_metadata::config_defs::broker_key_used(k))
            .map(|(k, (v, _))| (k.to_string(), v.to_string()))
            .collect();
        let mut noted = self.unused_keys.lock().expect("unused keys");
        for (k, v) in &now {
            if noted.get(k) != Some(v) {
                let shown = if crate::api::describe_configs::sensitive(k) {
                    "[hidden]"
                } else {
                    v.as_str()
                };
                tracing::info!(
                    key = %k,
                    value = shown,
                    "dynamic broker config stored; fjord does not use it"
                );
            }
        }
        *noted = now;
    }
}

/// A throttled rate (`key`, bytes a second) for broker `me`: its own dynamic value, else the
/// cluster-wide dynamic default, else none (Kafka sets these keys only dynamically).
fn throttled_rate(image: &MetadataImage, me: i32, key: &str) -> u64 {
    image
        .configs
        .get(BROKER, &me.to_string(), key)
        .or_else(|| image.configs.get(BROKER, "", key))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(fjord_quota::replication::UNBOUNDED)
}

/// A topic's `min.insync.replicas`: its config, else the broker's default.
pub fn min_insync_replicas(
    settings: &ReplicationSettings,
    image: &MetadataImage,
    topic: &str,
) -> usize {
    image
        .configs
        .get(
            fjord_metadata::config_defs::TOPIC,
            topic,
            topic::MIN_INSYNC_REPLICAS.name,
        )
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(settings.min_insync_replicas)
        .max(1)
}

/// A topic's log settings: the broker's defaults overridden by the topic's configs.
pub fn log_config(defaults: &LogConfig, image: &MetadataImage, topic: &str) -> LogConfig {
    let mut c = defaults.clone();
    let get = |def: &Def| {
        image
            .configs
            .get(fjord_metadata::config_defs::TOPIC, topic, def.name)
    };
    let int = |def: &Def| get(def).and_then(|v| v.parse::<i64>().ok());
    if let Some(v) = int(&topic::RETENTION_MS) {
        c.retention_ms = v;
    }
    if let Some(v) = int(&topic::RETENTION_BYTES) {
        c.retention_bytes = v;
    }
    if let Some(v) = int(&topic::SEGMENT_BYTES).and_then(|v| u64::try_from(v).ok()) {
        c.segment_bytes = v;
    }
    if let Some(v) = int(&topic::SEGMENT_MS) {
        c.segment_ms = v;
    }
    if let Some(v) = int(&topic::SEGMENT_INDEX_BYTES).and_then(|v| u64::try_from(v).ok()) {
        c.segment_index_bytes = v;
    }
    if let Some(v) = int(&topic::INDEX_INTERVAL_BYTES).and_then(|v| u64::try_from(v).ok()) {
        c.index_interval_bytes = v;
    }
    if let Some(v) = int(&topic::MAX_MESSAGE_BYTES).and_then(|v| usize::try_from(v).ok()) {
        c.max_message_bytes = v;
    }
    if let Some(v) = int(&topic::DELETE_RETENTION_MS) {
        c.delete_retention_ms = v;
    }
    if let Some(v) = int(&topic::MIN_COMPACTION_LAG_MS) {
        c.min_compaction_lag_ms = v;
    }
    if let Some(v) = int(&topic::FLUSH_MESSAGES) {
        c.flush_messages = v;
    }
    if let Some(v) = int(&topic::FLUSH_MS) {
        c.flush_ms = v;
    }
    if let Some(v) = int(&topic::MESSAGE_TIMESTAMP_BEFORE_MAX_MS) {
        c.timestamp_before_max_ms = v;
    }
    if let Some(v) = int(&topic::MESSAGE_TIMESTAMP_AFTER_MAX_MS) {
        c.timestamp_after_max_ms = v;
    }
    if let Some(v) = get(&topic::MIN_CLEANABLE_DIRTY_RATIO).and_then(|v| v.parse().ok()) {
        c.min_cleanable_dirty_ratio = v;
    }
    if let Some(p) = get(&topic::CLEANUP_POLICY).and_then(CleanupPolicy::parse) {
        c.cleanup_policy = p;
    }
    if let Some(codec) =
        get(&topic::COMPRESSION_TYPE).and_then(fjord_log::config::parse_compression_type)
    {
        c.compression = codec;
    }
    match get(&topic::MESSAGE_TIMESTAMP_TYPE) {
        Some("LogAppendTime") => c.timestamp_type = TimestampType::LogAppendTime,
        Some("CreateTime") => c.timestamp_type = TimestampType::CreateTime,
        _ => {}
    }
    // The defaults' `remote_storage` is the node's `remote.log.storage.system.enable`: a
    // topic tiers only on a node where tiered storage is on.
    let flag = |def: &Def| get(def).is_some_and(|v| v.eq_ignore_ascii_case("true"));
    c.remote_storage = defaults.remote_storage && flag(&topic::REMOTE_STORAGE_ENABLE);
    c.remote_copy_disabled = flag(&topic::REMOTE_LOG_COPY_DISABLE);
    if let Some(v) = int(&topic::LOCAL_RETENTION_MS) {
        c.local_retention_ms = v;
    }
    if let Some(v) = int(&topic::LOCAL_RETENTION_BYTES) {
        c.local_retention_bytes = v;
    }
    c
}
