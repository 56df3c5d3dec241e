//! One scrape: every series, computed from the node's state now. Broker series from the
//! replica manager: `kafka_server_replicamanager_*`; per hosted partition
//! `kafka_cluster_partition_*` (0 on a follower, as Kafka's gauges) and `kafka_log_log_*` with
//! `topic` and `partition` labels; the replication throttles'
//! `kafka_server_{leader,follower}replication_byte_rate`; per client under a quota,
//! `kafka_server_{produce,fetch,request,controllermutation}_*` (rate and throttle time, labelled
//! `user` and `client_id`). Controller series
//! (`kafka_controller_*`) from the image and the controller's counters; the metadata quorum
//! (`kafka_server_raftmetrics_*`); the coordinators (`kafka_server_group_coordinator_metrics_*`
//! with groups by protocol and completed rebalances, `kafka_coordinator_group_groupmetadatamanager_*`
//! with classic groups by state and offsets,
//! `kafka_server_transaction_coordinator_metrics_*`); the process (`process_*`). AtMinIsr and
//! UnderMinIsr use the effective min ISR (min.insync.replicas, at most the replication
//! factor).

use super::Sources;
use fjord_controller::ControllerMetrics;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// A series' labels.
type Labels = Vec<(String, String)>;

/// The whole text of one scrape.
pub(super) fn render(s: &Sources) -> Result<String, std::fmt::Error> {
    let mut r = Registry::default();
    broker(&mut r, s);
    client_quotas(&mut r, s);
    super::clients::client_telemetry(&mut r, s);
    coordinators(&mut r, s);
    s.requests.register(&mut r);
    controller(&mut r, s);
    quorum(&mut r, s);
    process(&mut r);
    let mut out = String::new();
    encode(&mut out, &r)?;
    Ok(out)
}

pub(super) fn gauge(r: &mut Registry, name: &str, help: &str, value: i64) {
    let g: Gauge = Gauge::default();
    g.set(value);
    r.register(name, help, g);
}

fn counter(r: &mut Registry, name: &str, help: &str, value: u64) {
    let c: Counter = Counter::default();
    c.inc_by(value);
    r.register(name, help, c);
}

/// A gauge family with one series per led partition.
struct PerPartition {
    name: &'static str,
    help: &'static str,
    family: Family<Labels, Gauge>,
}

impl PerPartition {
    fn new(name: &'static str, help: &'static str) -> PerPartition {
        PerPartition {
            name,
            help,
            family: Family::default(),
        }
    }

    fn set(&self, labels: &Labels, value: i64) {
        self.family.get_or_create(labels).set(value);
    }
}

/// Per-client quota series, as Kafka's quota sensors name them
/// (`kafka.server:type=Produce,user=..,client-id=..` `byte-rate` and `throttle-time`):
/// `kafka_server_{produce,fetch}_byte_rate`, `kafka_server_request_request_time` (percent of a
/// thread), `kafka_server_controllermutation_mutation_rate`, and each kind's `_throttle_time`
/// (average ms), labelled `user` and `client_id`, for the clients a quota applies to.
fn client_quotas(r: &mut Registry, s: &Sources) {
    let now = fjord_util::monotonic_ms();
    let b = &s.quotas.broker;
    for m in [
        &b.produce,
        &b.fetch,
        &b.request,
        s.quotas.mutations.manager(),
    ] {
        let kind = m.kind();
        let views = m.snapshot(now);
        if views.is_empty() {
            continue;
        }
        let rate = Family::<Labels, Gauge<f64, std::sync::atomic::AtomicU64>>::default();
        let throttle = Family::<Labels, Gauge<f64, std::sync::atomic::AtomicU64>>::default();
        for v in views {
            let labels = vec![
                ("user".to_string(), v.user),
                ("client_id".to_string(), v.client_id),
            ];
            rate.get_or_create(&labels).set(v.rate);
            throttle.get_or_create(&labels).set(v.throttle_time);
        }
        let group = kind.group();
        r.register(
            format!("kafka_server_{group}_{}", kind.rate_name()),
            format!("The {group} quota's measured rate, per client"),
            rate,
        );
        r.register(
            format!("kafka_server_{group}_throttle_time"),
            format!("The average throttle time of the {group} quota's answers (ms), per client"),
            throttle,
        );
    }
}

/// The broker's partition, topic and replica-manager series.
fn broker(r: &mut Registry, s: &Sources) {
    let Some(rm) = s.broker.get().map(|b| &b.replicas) else {
        return;
    };
    let partitions = rm.all();
    let totals = partition_series(r, rm.node_id(), &partitions);
    topic_bytes(r, &partitions);
    replica_manager_series(r, rm, partitions.len(), totals);
}

/// Led partitions by ISR health: (leaders, under-replicated, under min ISR, at min ISR).
type IsrTotals = (i64, i64, i64, i64);

/// Each hosted partition's series (ISR health, replicas, log size and offsets, LSO lag), and
/// the totals over the partitions broker `me` leads.
fn partition_series(
    r: &mut Registry,
    me: i32,
    partitions: &[Arc<fjord_broker::Partition>],
) -> IsrTotals {
    let (mut leaders, mut under_replicated, mut under_min, mut at_min) = (0, 0, 0, 0);
    let at_min_isr = PerPartition::new(
        "kafka_cluster_partition_atminisr",
        "1 when the partition's ISR is at the effective min ISR: one more failure makes it \
         refuse acks=all",
    );
    let under_min_isr = PerPartition::new(
        "kafka_cluster_partition_underminisr",
        "1 when the partition's ISR is below the effective min ISR",
    );
    let under_replicated_p = PerPartition::new(
        "kafka_cluster_partition_underreplicated",
        "1 when the partition's ISR is smaller than its replica set",
    );
    let isr_count = PerPartition::new(
        "kafka_cluster_partition_insyncreplicascount",
        "In-sync replicas of the partition",
    );
    let replicas_count = PerPartition::new(
        "kafka_cluster_partition_replicascount",
        "Replicas of the partition",
    );
    let size = PerPartition::new("kafka_log_log_size", "Bytes in the partition's log");
    let end = PerPartition::new(
        "kafka_log_log_logendoffset",
        "The partition log's end offset",
    );
    let start = PerPartition::new(
        "kafka_log_log_logstartoffset",
        "The partition log's start offset",
    );
    let lso_lag = PerPartition::new(
        "kafka_cluster_partition_laststableoffsetlag",
        "The high watermark minus the last stable offset on the leader (0 on a follower): \
         how far an open transaction holds read_committed consumers back",
    );
    // Every hosted replica has its series, as Kafka registers them per partition: on a
    // follower (or a leader whose core is not up yet) the partition gauges read 0.
    for p in partitions {
        let l = p.leadership();
        let labels: Labels = vec![
            ("topic".into(), p.topic.clone()),
            ("partition".into(), p.index.to_string()),
        ];
        let led = if l.leader == me {
            p.isr_and_min()
        } else {
            None
        };
        let replicas = l.replicas.len();
        let (isr, on) = match led {
            Some((isr, min)) => {
                leaders += 1;
                (isr, [isr < replicas, isr < min, isr == min])
            }
            None => (0, [false; 3]),
        };
        let flags = [
            (&under_replicated_p, on[0], &mut under_replicated),
            (&under_min_isr, on[1], &mut under_min),
            (&at_min_isr, on[2], &mut at_min),
        ];
        for (series, on, total) in flags {
            series.set(&labels, i64::from(on));
            *total += i64::from(on);
        }
        isr_count.set(&labels, isr as i64);
        replicas_count.set(&labels, if led.is_some() { replicas as i64 } else { 0 });
        size.set(&labels, p.log.size_in_bytes() as i64);
        end.set(&labels, p.log.log_end_offset());
        start.set(&labels, p.log.log_start_offset());
        let lag = if led.is_some() {
            (p.log.high_watermark() - p.log.last_stable_offset()).max(0)
        } else {
            0
        };
        lso_lag.set(&labels, lag);
    }
    for series in [
        at_min_isr,
        under_min_isr,
        under_replicated_p,
        isr_count,
        replicas_count,
        size,
        end,
        start,
        lso_lag,
    ] {
        r.register(series.name, series.help, series.family);
    }
    (leaders, under_replicated, under_min, at_min)
}

/// Bytes in and out per topic (every hosted partition, as Kafka's BrokerTopicMetrics).
fn topic_bytes(r: &mut Registry, partitions: &[Arc<fjord_broker::Partition>]) {
    let mut per_topic: std::collections::BTreeMap<&str, [u64; 3]> = Default::default();
    for p in partitions {
        let t = per_topic.entry(p.topic.as_str()).or_default();
        t[0] += p.bytes_in.load(Ordering::Relaxed);
        t[1] += p.bytes_out.load(Ordering::Relaxed);
        t[2] += p.replication_bytes_out.load(Ordering::Relaxed);
    }
    let bytes = [
        (
            "kafka_server_brokertopicmetrics_bytesin",
            "Record bytes produced to this broker, by topic",
        ),
        (
            "kafka_server_brokertopicmetrics_bytesout",
            "Record bytes fetched by consumers, by topic",
        ),
        (
            "kafka_server_brokertopicmetrics_replicationbytesout",
            "Record bytes fetched by followers, by topic",
        ),
    ];
    for (i, (name, help)) in bytes.into_iter().enumerate() {
        let family = Family::<Labels, Counter>::default();
        for (topic, v) in &per_topic {
            family
                .get_or_create(&vec![("topic".to_string(), topic.to_string())])
                .inc_by(v[i]);
        }
        r.register(name, help, family);
    }
}

/// The replica manager's series: replication throttles, partition and leader counts, ISR
/// health totals, ISR changes proposed.
fn replica_manager_series(
    r: &mut Registry,
    rm: &fjord_broker::ReplicaManager,
    hosted: usize,
    (leaders, under_replicated, under_min, at_min): IsrTotals,
) {
    // Replication throttles (KIP-73): the byte rate of the throttled replicas' traffic, as
    // Kafka's `LeaderReplication` and `FollowerReplication` sensors measure it.
    let now = fjord_util::monotonic_ms();
    let throttles = rm.throttles();
    gauge(
        r,
        "kafka_server_leaderreplication_byte_rate",
        "Bytes a second this broker sends, as leader, to out-of-sync followers of throttled replicas",
        throttles.leader.rate(now) as i64,
    );
    gauge(
        r,
        "kafka_server_followerreplication_byte_rate",
        "Bytes a second this broker fetches as an out-of-sync follower of throttled replicas",
        throttles.follower.rate(now) as i64,
    );
    let total = |n: usize| n as i64;
    gauge(
        r,
        "kafka_server_replicamanager_partitioncount",
        "Partitions this broker hosts",
        total(hosted),
    );
    gauge(
        r,
        "kafka_server_replicamanager_leadercount",
        "Partitions this broker leads",
        leaders,
    );
    gauge(
        r,
        "kafka_server_replicamanager_underreplicatedpartitions",
        "Led partitions whose ISR is smaller than their replica set",
        under_replicated,
    );
    gauge(
        r,
        "kafka_server_replicamanager_underminisrpartitioncount",
        "Led partitions whose ISR is below the effective min ISR",
        under_min,
    );
    gauge(
        r,
        "kafka_server_replicamanager_atminisrpartitioncount",
        "Led partitions whose ISR is at the effective min ISR",
        at_min,
    );
    gauge(
        r,
        "kafka_server_replicamanager_offlinereplicacount",
        "Replicas in offline log directories",
        0,
    );
    let outbox = rm.outbox();
    counter(
        r,
        "kafka_server_replicamanager_isrshrinks",
        "ISR shrinks this broker proposed",
        outbox.shrinks.load(Ordering::Relaxed),
    );
    counter(
        r,
        "kafka_server_replicamanager_isrexpands",
        "ISR expansions this broker proposed",
        outbox.expands.load(Ordering::Relaxed),
    );
}

/// The coordinators' series: how long their partitions took to load (Kafka's
/// `partition-load-time-avg`/`-max`, since the process started) and the transactional ids
/// this broker coordinates by state.
fn coordinators(r: &mut Registry, s: &Sources) {
    let Some(c) = s.broker.get() else {
        return;
    };
    let loads = [
        ("group", c.groups.load_times().avg_and_max_ms()),
        ("transaction", c.transactions.load_times().avg_and_max_ms()),
    ];
    for (kind, (avg, max)) in loads {
        gauge(
            r,
            &format!("kafka_server_{kind}_coordinator_metrics_partition_load_time_avg"),
            &format!("Average time to load a {kind} coordinator partition, in ms"),
            avg as i64,
        );
        gauge(
            r,
            &format!("kafka_server_{kind}_coordinator_metrics_partition_load_time_max"),
            &format!("Longest time to load a {kind} coordinator partition, in ms"),
            max as i64,
        );
    }
    // A scrape runs on a blocking thread: it may wait for the shards' locks.
    let groups = tokio::runtime::Handle::current().block_on(c.groups.each_shard(|s| s.stats()));
    group_metrics(r, &groups);
    share_metrics(r, &c.share_fetcher.stats());
    let counts = tokio::runtime::Handle::current()
        .block_on(c.transactions.each_shard(|s| s.count_by_state()));
    let family: Family<Labels, Gauge> = Family::default();
    for state in fjord_txn::state::TxnState::ALL {
        let n: usize = counts.iter().filter_map(|m| m.get(&state)).sum();
        family
            .get_or_create(&vec![("state".to_string(), state.name().to_string())])
            .set(n as i64);
    }
    r.register(
        "kafka_server_transaction_coordinator_metrics_transactions",
        "Transactional ids this broker coordinates, by state",
        family,
    );
}

/// The share-partition leaders' series as Kafka names them (`ShareGroupMetrics`):
/// acknowledgements by type, and what this broker holds.
fn share_metrics(r: &mut Registry, s: &fjord_broker::ShareStats) {
    let acks: Family<Labels, Counter> = Family::default();
    for (label, n) in &s.acknowledgements {
        acks.get_or_create(&vec![("acktype".to_string(), label.to_string())])
            .inc_by(*n);
    }
    r.register(
        "kafka_server_sharegroupmetrics_recordacknowledgements",
        "Records acknowledged to this broker's share-partitions, by acknowledgement type",
        acks,
    );
    counter(
        r,
        "kafka_server_sharegroupmetrics_recordsacquired",
        "Records acquired from this broker's share-partitions (deliveries)",
        s.acquired,
    );
    counter(
        r,
        "kafka_server_sharegroupmetrics_partitionloads",
        "Share-partitions whose state this broker read from a share coordinator",
        s.loads,
    );
    gauge(
        r,
        "kafka_server_sharegroupmetrics_sharepartitions",
        "Share-partitions this broker leads and holds state for",
        s.partitions as i64,
    );
    counter(
        r,
        "kafka_server_sharegroupmetrics_deadletterqueuerecordcount",
        "Records this broker wrote to share groups' dead-letter queues",
        s.dlq_records,
    );
    counter(
        r,
        "kafka_server_sharegroupmetrics_deadletterqueuetotalproducerequests",
        "Produce requests this broker sent to dead-letter queues",
        s.dlq_produces,
    );
    counter(
        r,
        "kafka_server_sharegroupmetrics_deadletterqueuefailedproducerequests",
        "Produce requests to dead-letter queues that failed",
        s.dlq_failed_produces,
    );
    gauge(
        r,
        "kafka_server_sharegroupmetrics_sharesessions",
        "Open share sessions on this broker",
        s.sessions as i64,
    );
}

/// The group coordinator's series as Kafka names them: groups by protocol
/// (`group_count`, the consumer protocol's by state, none until it is served), classic groups
/// by state and offsets (`GroupMetadataManager`'s gauges), and completed rebalances.
fn group_metrics(r: &mut Registry, shards: &[fjord_group::ShardStats]) {
    type ByState = std::collections::BTreeMap<&'static str, usize>;
    // Groups in state `name` (every state when None) over the shards, of one kind.
    let count = |kind: fn(&fjord_group::ShardStats) -> &ByState, name: Option<&str>| -> i64 {
        shards
            .iter()
            .flat_map(|s| kind(s).iter())
            .filter(|(state, _)| name.is_none_or(|n| n == **state))
            .map(|(_, n)| *n)
            .sum::<usize>() as i64
    };
    let classic_kind: fn(&fjord_group::ShardStats) -> &ByState = |s| &s.by_state;
    let consumer_kind: fn(&fjord_group::ShardStats) -> &ByState = |s| &s.consumer_by_state;
    let share_kind: fn(&fjord_group::ShardStats) -> &ByState = |s| &s.share_by_state;
    let streams_kind: fn(&fjord_group::ShardStats) -> &ByState = |s| &s.streams_by_state;
    let share_groups = count(share_kind, None);
    let streams_groups = count(streams_kind, None);
    let state = |name: &str| count(classic_kind, Some(name));
    let classic = count(classic_kind, None);
    let consumer_state = |name: &str| count(consumer_kind, Some(name));
    let consumer_groups = count(consumer_kind, None);
    let by_protocol: Family<Labels, Gauge> = Family::default();
    for (protocol, n) in [
        ("classic", classic),
        ("consumer", consumer_groups),
        ("share", share_groups),
        ("streams", streams_groups),
    ] {
        by_protocol
            .get_or_create(&vec![("protocol".to_string(), protocol.to_string())])
            .set(n);
    }
    r.register(
        "kafka_server_group_coordinator_metrics_group_count",
        "Groups this broker coordinates, by rebalance protocol",
        by_protocol,
    );
    let consumer: Family<Labels, Gauge> = Family::default();
    for (label, name) in [
        ("empty", "Empty"),
        ("assigning", "Assigning"),
        ("reconciling", "Reconciling"),
        ("stable", "Stable"),
        ("dead", "Dead"),
    ] {
        consumer
            .get_or_create(&vec![("state".to_string(), label.to_string())])
            .set(consumer_state(name));
    }
    r.register(
        "kafka_server_group_coordinator_metrics_consumer_group_count",
        "Consumer-protocol groups this broker coordinates, by state",
        consumer,
    );
    let share: Family<Labels, Gauge> = Family::default();
    for (label, name) in [("empty", "Empty"), ("stable", "Stable"), ("dead", "Dead")] {
        share
            .get_or_create(&vec![("state".to_string(), label.to_string())])
            .set(count(share_kind, Some(name)));
    }
    r.register(
        "kafka_server_group_coordinator_metrics_share_group_count",
        "Share groups this broker coordinates, by state",
        share,
    );
    let streams: Family<Labels, Gauge> = Family::default();
    for (label, name) in [
        ("empty", "Empty"),
        ("not_ready", "NotReady"),
        ("assigning", "Assigning"),
        ("reconciling", "Reconciling"),
        ("stable", "Stable"),
        ("dead", "Dead"),
    ] {
        streams
            .get_or_create(&vec![("state".to_string(), label.to_string())])
            .set(count(streams_kind, Some(name)));
    }
    r.register(
        "kafka_server_group_coordinator_metrics_streams_group_count",
        "Streams groups this broker coordinates, by state",
        streams,
    );
    counter(
        r,
        "kafka_server_group_coordinator_metrics_streams_group_rebalance",
        "Streams-group epoch bumps since this broker took their partitions",
        shards.iter().map(|s| s.streams_rebalances).sum(),
    );
    counter(
        r,
        "kafka_server_group_coordinator_metrics_share_group_rebalance",
        "Share-group target assignments computed since this broker took their partitions",
        shards.iter().map(|s| s.share_rebalances).sum(),
    );
    let offsets: usize = shards.iter().map(|s| s.offsets).sum();
    let gauges = [
        ("numgroups", "Classic groups", classic),
        (
            "numgroupspreparingrebalance",
            "Classic groups waiting for members to join",
            state("PreparingRebalance"),
        ),
        (
            "numgroupscompletingrebalance",
            "Classic groups waiting for the leader's assignment",
            state("CompletingRebalance"),
        ),
        ("numgroupsstable", "Classic groups stable", state("Stable")),
        (
            "numgroupsdead",
            "Classic groups being removed",
            state("Dead"),
        ),
        (
            "numgroupsempty",
            "Classic groups without members",
            state("Empty"),
        ),
        ("numoffsets", "Committed offsets kept", offsets as i64),
    ];
    for (name, help, value) in gauges {
        gauge(
            r,
            &format!("kafka_coordinator_group_groupmetadatamanager_{name}"),
            help,
            value,
        );
    }
    let completed: u64 = shards.iter().map(|s| s.completed_rebalances).sum();
    let counter: Counter = Counter::default();
    counter.inc_by(completed);
    r.register(
        "kafka_server_group_coordinator_metrics_group_completed_rebalance",
        "Classic join phases completed with members since this broker took their partitions",
        counter,
    );
    let bumps: u64 = shards.iter().map(|s| s.consumer_rebalances).sum();
    let counter: Counter = Counter::default();
    counter.inc_by(bumps);
    r.register(
        "kafka_server_group_coordinator_metrics_consumer_group_rebalance",
        "Consumer-group epoch bumps since this broker took their partitions",
        counter,
    );
}

fn controller(r: &mut Registry, s: &Sources) {
    let Some(c) = &s.controller else {
        return;
    };
    let stats = c.stats();
    let (image, applied) = {
        let v = s.view.borrow();
        (v.image.clone(), v.applied_up_to)
    };
    let committed = s.quorum.borrow().high_watermark;
    let m = ControllerMetrics::compute(&image, &stats.counters, stats.active, applied, committed);
    let n = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    let gauges = [
        (
            "kafka_controller_kafkacontroller_activecontrollercount",
            "1 on the active controller",
            n(m.active_controller_count),
        ),
        (
            "kafka_controller_kafkacontroller_offlinepartitionscount",
            "Partitions without a leader",
            n(m.offline_partitions_count),
        ),
        (
            "kafka_controller_kafkacontroller_globalpartitioncount",
            "Partitions in the cluster",
            n(m.global_partition_count),
        ),
        (
            "kafka_controller_kafkacontroller_globaltopiccount",
            "Topics in the cluster",
            n(m.global_topic_count),
        ),
        (
            "kafka_controller_kafkacontroller_fencedbrokercount",
            "Registered brokers that are fenced",
            n(m.fenced_broker_count),
        ),
        (
            "kafka_controller_kafkacontroller_activebrokercount",
            "Registered brokers that are unfenced",
            n(m.active_broker_count),
        ),
        (
            "kafka_controller_kafkacontroller_preferredreplicaimbalancecount",
            "Partitions not led by their preferred replica",
            n(m.preferred_replica_imbalance_count),
        ),
        (
            "kafka_controller_kafkacontroller_lastappliedrecordoffset",
            "The last metadata offset applied to the image",
            m.last_applied_record_offset,
        ),
        (
            "kafka_controller_kafkacontroller_lastcommittedrecordoffset",
            "The metadata log's high watermark",
            m.last_committed_record_offset,
        ),
    ];
    for (name, help, v) in gauges {
        gauge(r, name, help, v);
    }
    let (avg, max) = c.commit_latency().average_and_max_ms();
    let fgauge = |r: &mut Registry, name: &str, help: &str, v: f64| {
        let g: Gauge<f64, std::sync::atomic::AtomicU64> = Gauge::default();
        g.set(v);
        r.register(name, help, g);
    };
    fgauge(
        r,
        "kafka_server_raftmetrics_commit_latency_avg",
        "Average milliseconds from the active controller's proposal to its commit",
        avg,
    );
    fgauge(
        r,
        "kafka_server_raftmetrics_commit_latency_max",
        "Longest milliseconds from the active controller's proposal to its commit",
        max,
    );
    counter(
        r,
        "kafka_controller_controllerstats_uncleanleaderelections",
        "Leaders elected from outside the ISR and ELR (unclean and designated elections)",
        m.unclean_leader_elections,
    );
    counter(
        r,
        "kafka_controller_controllerstats_designatedleaderelections",
        "DESIGNATED elections (ElectLeaders v3)",
        m.designated_leader_elections,
    );
    counter(
        r,
        "kafka_controller_controllerstats_electionfromeligibleleaderreplicas",
        "Leaders elected from the ELR",
        m.elections_from_elr,
    );
}

fn quorum(r: &mut Registry, s: &Sources) {
    let q = s.quorum.borrow().clone();
    gauge(
        r,
        "kafka_server_raftmetrics_current_leader",
        "The metadata quorum's leader (-1: none known)",
        q.leader.map_or(-1, i64::from),
    );
    gauge(
        r,
        "kafka_server_raftmetrics_current_epoch",
        "The metadata quorum's epoch",
        i64::from(q.epoch),
    );
    gauge(
        r,
        "kafka_server_raftmetrics_high_watermark",
        "The metadata log's high watermark",
        q.high_watermark,
    );
    gauge(
        r,
        "kafka_server_raftmetrics_log_end_offset",
        "The metadata log's end offset on this node",
        q.log_end_offset,
    );
}

fn process(r: &mut Registry) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime, in clock ticks of 1/100 s (USER_HZ on Linux).
    let cpu_centis = ticks(11) + ticks(12);
    let cpu: Counter<f64, std::sync::atomic::AtomicU64> = Counter::default();
    cpu.inc_by(cpu_centis as f64 / 100.0);
    r.register("process_cpu_seconds", "CPU time of the process", cpu);
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let rss_kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<i64>().ok())
        .unwrap_or(0);
    gauge(
        r,
        "process_resident_memory_bytes",
        "Resident memory of the process",
        rss_kib * 1024,
    );
    let fds = std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count() as i64);
    gauge(r, "process_open_fds", "Open file descriptors", fds);
}
