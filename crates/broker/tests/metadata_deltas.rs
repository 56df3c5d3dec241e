//! The broker applies what each metadata change changed, not the whole image:
//! - one ISR change in a cluster of 10,000 partitions visits one partition in the replica
//!   manager and the replica fetchers, and none in a coordinator whose topic it does not touch
//!   (a full pass, the cost before deltas, visits all 10,000); a coordinator looks at
//!   its own topic's partitions only when a change touches that topic;
//! - a seeded simulation (the oracle: a second replica manager that makes a full pass over
//!   every image, as the broker did before deltas) checks that following deltas, merged over
//!   skipped publications, snapshots and deletions, leaves exactly the replicas, leaderships,
//!   configs and log directories a full pass does. `FJORD_SIM_SEEDS` sets how many seeds run
//!   (default 60).

mod common;

use fjord_broker::ReplicaManager;
use fjord_log::LogDir;
use fjord_metadata::delta::{MetadataDelta, Publication};
use fjord_metadata::view::View;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    config_record::ConfigRecord, partition_change_record::PartitionChangeRecord,
    partition_record::PartitionRecord, remove_topic_record::RemoveTopicRecord,
    topic_record::TopicRecord,
};
use fjord_protocol::{MetadataRecord, Uuid};
use fjord_util::sim_rng::SimRng;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Folds one batch into the chain of publications, as the loader does.
struct Loader {
    image: MetadataImage,
    publication: Publication,
}

impl Loader {
    fn new() -> Loader {
        Loader {
            image: MetadataImage::empty(),
            publication: Publication::default(),
        }
    }

    /// Folds `records` and publishes them (with their changes, or as a full delta when
    /// `snapshot`); returns the publication's view.
    fn publish(&mut self, records: &[MetadataRecord], snapshot: bool) -> View {
        let offset = self.image.provenance.last_offset + records.len() as i64;
        let (next, changes) = self.image.apply(records, offset, 1).unwrap();
        self.image = next;
        let delta = if snapshot {
            MetadataDelta::full()
        } else {
            MetadataDelta {
                full: false,
                changes,
            }
        };
        self.publication = self.publication.next(delta);
        View {
            image: Arc::new(self.image.clone()),
            applied_up_to: offset + 1,
            publication: self.publication.clone(),
        }
    }
}

fn topic(name: &str, id: Uuid) -> MetadataRecord {
    MetadataRecord::Topic(TopicRecord {
        name: name.into(),
        topic_id: id,
        ..Default::default()
    })
}

fn partition(id: Uuid, index: i32, replicas: Vec<i32>) -> MetadataRecord {
    MetadataRecord::Partition(PartitionRecord {
        partition_id: index,
        topic_id: id,
        leader: replicas[0],
        isr: replicas.clone(),
        replicas,
        ..Default::default()
    })
}

fn manager(dir: &tempfile::TempDir) -> ReplicaManager {
    let logs = Arc::new(LogDir::open(dir.path(), |_| Default::default()).unwrap().0);
    ReplicaManager::new(1, logs, Default::default())
}

#[test]
fn one_isr_change_among_10000_partitions_visits_one_partition() {
    let mut loader = Loader::new();
    // 100 topics of 100 partitions on brokers 2, 3 and 4, and one of 100 on brokers 1, 2, 3.
    let mut records = Vec::new();
    for t in 0..100u128 {
        let id = Uuid::from_u128(1_000 + t);
        records.push(topic(&format!("t{t}"), id));
        let replicas = if t == 0 { vec![1, 2, 3] } else { vec![2, 3, 4] };
        for i in 0..100 {
            records.push(partition(id, i, replicas.clone()));
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let rm = manager(&dir);
    rm.apply_view(&loader.publish(&records, false)).unwrap();
    assert_eq!(rm.len(), 100);
    let full = rm.partitions_visited();
    assert_eq!(full, 10_000, "the first image is a full pass");

    for (t, index) in [(0u128, 7), (55, 3)] {
        let before = rm.partitions_visited();
        let isr_change = MetadataRecord::PartitionChange(PartitionChangeRecord {
            topic_id: Uuid::from_u128(1_000 + t),
            partition_id: index,
            isr: Some(vec![2, 3]),
            ..Default::default()
        });
        rm.apply_view(&loader.publish(&[isr_change], false))
            .unwrap();
        assert_eq!(rm.partitions_visited() - before, 1, "topic {t}");
    }
    assert_eq!(
        rm.get(Uuid::from_u128(1_000), 7).unwrap().leadership().isr,
        vec![2, 3],
        "the change reached the hosted partition"
    );
    // A snapshot is a full pass again.
    let before = rm.partitions_visited();
    rm.apply_view(&loader.publish(&[], true)).unwrap();
    assert_eq!(rm.partitions_visited() - before, 10_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fetchers_and_a_coordinator_look_only_at_what_changed() {
    use fjord_broker::parts::ReplicaFetchers;
    use fjord_broker::FetcherSettings;
    let mut loader = Loader::new();
    // The group coordinator's topic, led elsewhere.
    let offsets = Uuid::from_u128(7);
    let mut records = vec![topic("__consumer_offsets", offsets)];
    records.extend((0..50).map(|i| partition(offsets, i, vec![2, 3, 4])));
    for t in 0..100u128 {
        let id = Uuid::from_u128(1_000 + t);
        records.push(topic(&format!("t{t}"), id));
        for i in 0..100 {
            // Broker 1 follows every partition of topic 0 (led by 2), the rest are elsewhere.
            let replicas = if t == 0 { vec![2, 1, 3] } else { vec![2, 3, 4] };
            records.push(partition(id, i, replicas));
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let rm = Arc::new(manager(&dir));
    let view = loader.publish(&records, false);
    let (_view_tx, view_rx) = tokio::sync::watch::channel(view.clone());
    let fetchers = ReplicaFetchers::new(
        FetcherSettings::default(),
        rm.clone(),
        view_rx,
        fjord_broker::BrokerState::unregistered(),
    );
    tokio::spawn(fetchers.clone().follow());
    let (_info_tx, info_rx) = tokio::sync::watch::channel(None);
    let controller = Arc::new(fjord_broker::ControllerClient::new(info_rx));
    let groups = common::group_coordinator(rm.clone(), controller, 50);
    tokio::spawn(groups.clone().follow_groups(rm.applied()));
    let applied = |v: View| {
        let rm = rm.clone();
        async move { tokio::task::spawn_blocking(move || rm.apply_view(&v)).await }
    };
    applied(view).await.unwrap().unwrap();
    common::wait_until(|| fetchers.partitions_visited() == 100).await;
    common::wait_until(|| groups.partitions_visited() == 50).await;
    // Two ISR changes, one of a partition followed here, then a leader change of another.
    for (t, index, isr, leader) in [(0u128, 1, vec![2, 1], -2), (9, 1, vec![2, 3], -2)] {
        let change = MetadataRecord::PartitionChange(PartitionChangeRecord {
            topic_id: Uuid::from_u128(1_000 + t),
            partition_id: index,
            isr: Some(isr),
            leader,
            ..Default::default()
        });
        applied(loader.publish(&[change], false))
            .await
            .unwrap()
            .unwrap();
    }
    common::wait_until(|| fetchers.partitions_visited() == 102).await;
    // The leader of a followed partition moves to this broker: its fetch stops.
    let change = MetadataRecord::PartitionChange(PartitionChangeRecord {
        topic_id: Uuid::from_u128(1_000),
        partition_id: 2,
        leader: 1,
        ..Default::default()
    });
    applied(loader.publish(&[change], false))
        .await
        .unwrap()
        .unwrap();
    common::wait_until(|| fetchers.partitions_visited() == 103).await;
    // A change to the coordinator's topic: it looks at its 50 partitions again, having
    // looked at none for the changes before (the images reach it in order).
    let change = MetadataRecord::PartitionChange(PartitionChangeRecord {
        topic_id: offsets,
        partition_id: 0,
        isr: Some(vec![2, 3]),
        ..Default::default()
    });
    applied(loader.publish(&[change], false))
        .await
        .unwrap()
        .unwrap();
    // Each follower of the images sees this one in its own time: wait for both.
    common::wait_until(|| {
        groups.partitions_visited() == 100 && fetchers.partitions_visited() >= 104
    })
    .await;
    assert_eq!(
        fetchers.partitions_visited(),
        104,
        "one more, not followed here"
    );
    assert_eq!(rm.partitions_visited(), 10_050 + 4);
}

/// What a replica manager hosts: each partition's leadership and log config, and the log
/// directories on disk.
fn hosted(rm: &ReplicaManager, dir: &tempfile::TempDir) -> (String, Vec<String>) {
    let mut parts: BTreeMap<(Uuid, i32), String> = BTreeMap::new();
    for p in rm.all() {
        parts.insert(
            (p.topic_id, p.index),
            format!("{:?} {:?}", p.leadership(), p.log.config()),
        );
    }
    let mut dirs: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with("-delete"))
        .collect();
    dirs.sort();
    (format!("{parts:?}"), dirs)
}

/// One random batch of metadata records over the topics that exist.
fn random_batch(
    rng: &mut SimRng,
    image: &MetadataImage,
    next_id: &mut u128,
) -> Vec<MetadataRecord> {
    let mut out = Vec::new();
    let brokers = [1, 2, 3, 4];
    let replicas = |rng: &mut SimRng| {
        let mut r: Vec<i32> = brokers.to_vec();
        let drop = rng.below(4) as usize;
        r.remove(drop);
        let first = rng.below(3) as usize;
        r.swap(0, first);
        r
    };
    let topics: Vec<(Uuid, String, Vec<i32>)> = image
        .topics
        .by_id
        .values()
        .map(|t| (t.id, t.name.clone(), t.partitions.keys().copied().collect()))
        .collect();
    for _ in 0..=rng.below(3) {
        match rng.below(10) {
            0 | 1 => {
                *next_id += 1;
                let id = Uuid::from_u128(*next_id);
                out.push(topic(&format!("t{next_id}"), id));
                for i in 0..=rng.below(4) as i32 {
                    out.push(partition(id, i, replicas(rng)));
                }
            }
            2..=6 if !topics.is_empty() => {
                let (id, _, parts) = &topics[rng.below(topics.len() as u64) as usize];
                let index = parts[rng.below(parts.len() as u64) as usize];
                let r = replicas(rng);
                let mut change = PartitionChangeRecord {
                    topic_id: *id,
                    partition_id: index,
                    ..Default::default()
                };
                match rng.below(3) {
                    0 => change.isr = Some(r[..2].to_vec()),
                    1 => change.leader = r[0],
                    _ => {
                        change.leader = r[0];
                        change.isr = Some(r.clone());
                        change.replicas = Some(r);
                    }
                }
                out.push(MetadataRecord::PartitionChange(change));
            }
            7 | 8 if !topics.is_empty() => {
                let (_, name, _) = &topics[rng.below(topics.len() as u64) as usize];
                let (key, value) = [
                    ("segment.bytes", "2048"),
                    ("retention.ms", "60000"),
                    ("min.insync.replicas", "2"),
                    ("cleanup.policy", "compact"),
                ][rng.below(4) as usize];
                out.push(MetadataRecord::Config(ConfigRecord {
                    resource_type: 2,
                    resource_name: name.clone(),
                    name: key.into(),
                    value: rng.percent(80).then(|| value.to_string()),
                    ..Default::default()
                }));
            }
            9 if !topics.is_empty() => {
                let (id, _, _) = &topics[rng.below(topics.len() as u64) as usize];
                if !out
                    .iter()
                    .any(|r| matches!(r, MetadataRecord::PartitionChange(c) if c.topic_id == *id))
                {
                    out.push(MetadataRecord::RemoveTopic(RemoveTopicRecord {
                        topic_id: *id,
                        ..Default::default()
                    }));
                    break;
                }
            }
            _ => {}
        }
    }
    out
}

fn simulate(seed: u64) {
    let mut rng = SimRng::new(seed);
    let mut loader = Loader::new();
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (deltas, full) = (manager(&dir_a), manager(&dir_b));
    let mut next_id = 0;
    for step in 0..60 {
        let records = random_batch(&mut rng, &loader.image, &mut next_id);
        let view = loader.publish(&records, rng.percent(3));
        // The manager following deltas skips some publications (the watch coalesces them).
        if rng.percent(60) || step == 59 {
            deltas.apply_view(&view).unwrap();
            full.apply(&view.image).unwrap();
            assert_eq!(
                hosted(&deltas, &dir_a),
                hosted(&full, &dir_b),
                "seed {seed} step {step}: following deltas differs from a full pass"
            );
        }
    }
}

#[test]
fn following_deltas_hosts_what_a_full_pass_hosts() {
    let seeds: u64 = std::env::var("FJORD_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    for seed in 0..seeds {
        simulate(seed);
    }
}
