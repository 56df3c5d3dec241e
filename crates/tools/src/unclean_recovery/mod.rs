//! `fjord kafka-unclean-recovery`: recovers offline partitions by electing the replica with the
//! most data (the unclean-recovery KIP). It finds which requested partitions are offline, asks
//! every replica's broker for its log (GetReplicaLogInfo), picks the best replica by the rule in
//! docs/EXTENSIONS.md, prints the evidence as a table with what the election costs (the records
//! each other replica will truncate, the acknowledged records known lost, whose data is
//! unknown), then either elects the chosen replicas
//! (ElectLeaders v3 DESIGNATED) and waits until the partitions are online, or writes the plan
//! as a JSON file for `kafka-leader-election --election-type designated`.

pub(crate) mod elect;
mod kafka_requests;
mod survey;
mod watch;

pub use fjord_replication::recovery::{
    choose, compare, cost, why_lost, Choice, Cost, LogInfo, OffsetReuse, ReplicaState, StoreCost,
    Truncation, STORE,
};

use crate::common::{self, ToolError};
use crate::leader_election::{self, ElectionOutcome, Target};
use crate::transactions::{hanging_in, Hanging};
use clap::Args as ClapArgs;
use fjord_admin::{Admin, ClusterInfo};
use fjord_configdef::broker;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use survey::{Asked, Key};
use tokio::time::Instant;

/// `kafka-unclean-recovery` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    connection: crate::common::BrokerConnection,
    /// The topic whose offline partitions to recover.
    #[arg(long)]
    topic: Option<String>,
    /// With --topic: only this partition.
    #[arg(long)]
    partition: Option<i32>,
    /// A JSON file listing the partitions: {"partitions": [{"topic": "foo", "partition": 1}]}.
    #[arg(long)]
    path_to_json_file: Option<PathBuf>,
    /// Every offline partition in the cluster.
    #[arg(long)]
    all_offline_partitions: bool,
    /// Elect the chosen replicas now (ElectLeaders DESIGNATED) and wait until the partitions
    /// are online.
    #[arg(long)]
    automated_recovery: bool,
    /// Write the plan to this file, for review and `kafka-leader-election --election-type
    /// designated --path-to-json-file`.
    #[arg(long)]
    output_file: Option<PathBuf>,
    /// Print the evidence and the choices; change nothing.
    #[arg(long)]
    dry_run: bool,
    /// Keep running: poll for offline partitions (of --topic, else all) and recover each by
    /// its topic's `unclean.recovery.strategy` (KIP-966), logging every decision, until
    /// SIGTERM. With --dry-run, decide and log but elect nothing.
    #[arg(long)]
    watch: bool,
    /// With --watch: the strategy of topics without `unclean.recovery.strategy` (Manual,
    /// Balanced or Proactive; default Balanced).
    #[arg(long)]
    default_strategy: Option<String>,
    /// With --watch: how often to look for offline partitions, in milliseconds (default
    /// 10000).
    #[arg(long)]
    poll_interval_ms: Option<i64>,
    /// With --watch: serve the watcher's own metrics at this address
    /// (http://127.0.0.1:9405 serves GET /metrics there).
    #[arg(long)]
    metrics_listener: Option<String>,
    /// With --automated-recovery: elect also where the chosen replica's log ends below another
    /// replica's log start or high watermark, so that offsets already given out are given out
    /// again ("offsets reused" in the table). Without it such partitions are refused.
    #[arg(long)]
    allow_offset_reuse: bool,
    /// How long to keep asking brokers that do not answer, in milliseconds.
    #[arg(long, default_value_t = 60_000)]
    deadline_ms: i64,
    /// With --automated-recovery: abort the transactions left open in the recovered
    /// partitions for longer than the maximum transaction timeout (hanging: their marker or
    /// their coordinator's state was lost), with WriteTxnMarkers as `kafka-transactions
    /// abort` does. Without it they are listed and read_committed consumers stay stalled.
    #[arg(long)]
    abort_hanging_transactions: bool,
    /// How long a transaction must have been open, in milliseconds, to count as hanging
    /// (default: the chosen broker's transaction.max.timeout.ms).
    #[arg(long)]
    max_transaction_timeout_ms: Option<i64>,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-unclean-recovery", run_async(args))
}

fn validate(a: &Args) -> Result<(), ToolError> {
    if a.connection.bootstrap_server.is_none() {
        return Err(ToolError::Usage(
            "Missing required option(s): bootstrap-server".into(),
        ));
    }
    for (given, name) in [
        (a.abort_hanging_transactions, "abort-hanging-transactions"),
        (
            a.max_transaction_timeout_ms.is_some(),
            "max-transaction-timeout-ms",
        ),
    ] {
        if given && a.watch {
            return Err(ToolError::Usage(format!(
                "Option {name} is not allowed with watch"
            )));
        }
    }
    for (given, name) in [
        (a.abort_hanging_transactions, "abort-hanging-transactions"),
        (a.allow_offset_reuse, "allow-offset-reuse"),
    ] {
        if given && !a.automated_recovery {
            return Err(ToolError::Usage(format!(
                "Option {name} is only allowed with automated-recovery"
            )));
        }
    }
    if a.watch {
        return watch::validate(a);
    }
    for (given, name) in [
        (a.default_strategy.is_some(), "default-strategy"),
        (a.poll_interval_ms.is_some(), "poll-interval-ms"),
        (a.metrics_listener.is_some(), "metrics-listener"),
    ] {
        if given {
            return Err(ToolError::Usage(format!(
                "Option {name} is only allowed with watch"
            )));
        }
    }
    common::exactly_one(&[
        (a.topic.is_some(), "topic"),
        (a.path_to_json_file.is_some(), "path-to-json-file"),
        (a.all_offline_partitions, "all-offline-partitions"),
    ])?;
    if a.partition.is_some() && a.topic.is_none() {
        return Err(ToolError::Usage(
            "Option partition is only allowed if topic is used".into(),
        ));
    }
    common::exactly_one(&[
        (a.automated_recovery, "automated-recovery"),
        (a.output_file.is_some(), "output-file"),
        (a.dry_run, "dry-run"),
    ])
}

/// A requested partition, found or not.
struct Requested {
    topic: String,
    partition: i32,
}

/// The partitions the flags name.
fn requested(a: &Args, cluster: &ClusterInfo) -> Result<Vec<Requested>, ToolError> {
    if let Some(path) = &a.path_to_json_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ToolError::Failed(format!("{}: {e}", path.display())))?;
        let targets =
            leader_election::parse_json(&text, false).map_err(|e| ToolError::Failed(e.0))?;
        return Ok(targets
            .into_iter()
            .map(|t| Requested {
                topic: t.topic,
                partition: t.partition,
            })
            .collect());
    }
    if let Some(topic) = &a.topic {
        let t = cluster.topics.get(topic).ok_or_else(|| {
            ToolError::Failed(format!("Topic '{topic}' does not exist as expected"))
        })?;
        return Ok(t
            .partitions
            .iter()
            .filter(|p| a.partition.is_none_or(|want| want == p.partition))
            .map(|p| Requested {
                topic: topic.clone(),
                partition: p.partition,
            })
            .chain(
                // A named partition the topic does not have is reported, not dropped.
                a.partition
                    .filter(|want| !t.partitions.iter().any(|p| p.partition == *want))
                    .map(|want| Requested {
                        topic: topic.clone(),
                        partition: want,
                    }),
            )
            .collect());
    }
    Ok(cluster
        .topics
        .values()
        .flat_map(|t| {
            t.partitions
                .iter()
                .filter(|p| p.leader < 0)
                .map(|p| Requested {
                    topic: t.name.clone(),
                    partition: p.partition,
                })
        })
        .collect())
}

/// One offline partition: what is known and what was chosen.
struct Offline {
    topic: String,
    partition: i32,
    key: Key,
    /// The partition's leader epoch in the metadata.
    leader_epoch: i32,
    /// Its replicas' brokers that do not serve GetReplicaLogInfo, surveyed with Kafka's own
    /// requests.
    kafka_requests: Vec<i32>,
    replicas: Vec<i32>,
    isr: Vec<i32>,
    elr: Option<Vec<i32>>,
    last_known_elr: Option<Vec<i32>>,
    states: Vec<(i32, ReplicaState)>,
    choice: Option<Choice>,
    /// The transactions the chosen replica holds open for longer than the maximum
    /// transaction timeout that their coordinator does not know there (Err: why they could
    /// not be listed).
    hanging: Result<Vec<Hanging>, String>,
    /// The first offset of a transaction the chosen replica holds open, of any age (Err: why
    /// it could not be asked): its marker may have been written only by the replicas not
    /// chosen, so what it wrote is of unknown fate.
    open_from: Result<Option<i64>, String>,
}

fn cell(v: i64) -> String {
    if v < 0 {
        "-".into()
    } else {
        v.to_string()
    }
}

fn ids(v: &[i32]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

impl Offline {
    /// The offsets electing the choice would give out again, if any.
    fn reuse(&self) -> Option<OffsetReuse> {
        let c = self.choice.as_ref()?;
        cost(&self.states, c.broker).offsets_reused
    }

    /// The replicas last known to be in sync or eligible: ISR, then ELR, then last known ELR.
    fn last_known_members(&self) -> Vec<i32> {
        let mut out = self.isr.clone();
        for id in self.elr.iter().chain(self.last_known_elr.iter()).flatten() {
            if !out.contains(id) {
                out.push(*id);
            }
        }
        out
    }
}

/// The evidence for one partition, as printed: a row per replica (what its log reports, the
/// records it cuts if the choice is elected, why it lost or why it said nothing), the choice,
/// and what the election costs.
fn table(o: &Offline) -> String {
    let mut rows = vec![[
        "Broker".to_string(),
        "State".into(),
        "LeaderEpoch".into(),
        "LastWrittenEpoch".into(),
        "LogEndOffset".into(),
        "HighWatermark".into(),
        "LogStartOffset".into(),
        "Truncates".into(),
        "Detail".into(),
    ]];
    let last_known = o.last_known_members();
    let cost = o.choice.as_ref().map(|c| cost(&o.states, c.broker));
    for (b, s) in &o.states {
        let dash = || "-".to_string();
        let (e, w, leo, hw, ls) = match s {
            ReplicaState::Answered(l) => (
                l.leader_epoch.to_string(),
                cell(l.last_written_epoch as i64),
                l.log_end_offset.to_string(),
                cell(l.high_watermark),
                cell(l.log_start_offset),
            ),
            _ => (dash(), dash(), dash(), dash(), dash()),
        };
        let truncates = cost
            .as_ref()
            .and_then(|c| c.truncations.iter().find(|t| t.broker == *b))
            .map_or_else(dash, truncation_cell);
        let detail = match (s, &o.choice) {
            (ReplicaState::Answered(_), Some(c)) if c.broker == *b => "chosen".to_string(),
            (ReplicaState::Answered(l), Some(c)) => {
                why_lost((c.broker, &c.log), (*b, l), &last_known)
            }
            (ReplicaState::Unreachable(m) | ReplicaState::Error(m), _) => m.clone(),
            (ReplicaState::Fenced, _) => "fenced: not eligible; its data is unknown".into(),
            (ReplicaState::NotRegistered, _) => "not registered; its data is unknown".into(),
            (ReplicaState::Answered(_), None) => String::new(),
        };
        rows.push([
            b.to_string(),
            s.label().into(),
            e,
            w,
            leo,
            hw,
            ls,
            truncates,
            detail,
        ]);
    }
    let unknown = |v: &Option<Vec<i32>>| v.as_deref().map_or("unknown".to_string(), ids);
    let mut out = format!(
        "Partition {}-{} is offline. Replicas: {}. ISR: {}. ELR: {}. Last known ELR: {}.\n",
        o.topic,
        o.partition,
        ids(&o.replicas),
        ids(&o.isr),
        unknown(&o.elr),
        unknown(&o.last_known_elr)
    );
    let rows: Vec<Vec<String>> = rows.into_iter().map(Vec::from).collect();
    for line in crate::table::Table::fit(&[], "  ").lines(&rows) {
        out.push_str(&format!("  {line}\n"));
    }
    if !o.kafka_requests.is_empty() {
        out.push_str(&format!(
            "  Broker(s) {} do not serve GetReplicaLogInfo: surveyed with Kafka's own requests (ListOffsets from the local log, Fetch probes of the leader-epoch cache); their LeaderEpoch is the metadata's.\n",
            ids(&o.kafka_requests)
        ));
    }
    match (&o.choice, &cost) {
        (Some(c), Some(cost)) => {
            out.push_str(&format!("  Choice: broker {} ({})\n", c.broker, c.reason));
            out.push_str(&format!("  {}", cost_lines(c, cost)));
        }
        _ => out.push_str(
            "  Choice: none. No replica on an unfenced broker answered: the partition is unrecoverable by this tool.",
        ),
    }
    if o.choice.is_some() {
        out.push_str(&open_line(&o.open_from));
        out.push_str(&hanging_lines(&o.hanging));
    }
    out
}

/// The cost of the transactions the chosen replica holds open (found by the fault tests: a
/// committed transaction whose marker only the old ISR had was lost once aborted, and the
/// cost said nothing of it).
fn open_line(open_from: &Result<Option<i64>, String>) -> String {
    match open_from {
        Ok(None) => String::new(),
        Ok(Some(offset)) => format!(
            "\n  Open transactions from offset {offset}: their commit or abort markers may have \
             been written only by the replicas not chosen, so what they wrote from offset \
             {offset} on is of unknown fate: read_committed consumers stop there until they end, \
             and aborting one that had committed loses what it wrote."
        ),
        Err(why) => format!("\n  Open transactions: unknown ({why})."),
    }
}

/// For each partition with a choice, the first offset of a transaction its chosen replica
/// holds open ([`Offline::open_from`]).
async fn check_open(admin: &Admin, offline: &mut [Offline]) {
    for o in offline {
        let Some(c) = &o.choice else { continue };
        o.open_from = admin
            .describe_producers(&o.topic, o.partition, Some(c.broker))
            .await
            .map(|ps| {
                ps.iter()
                    .map(|p| p.current_txn_start_offset)
                    .filter(|s| *s >= 0)
                    .min()
            })
            .map_err(|e| e.to_string());
    }
}

/// The hanging transactions of a partition's chosen replica, a line each.
fn hanging_lines(hanging: &Result<Vec<Hanging>, String>) -> String {
    let now = fjord_util::system_now_ms();
    match hanging {
        Err(why) => format!("\n  Hanging transactions: unknown ({why})."),
        Ok(h) => h
            .iter()
            .map(|h| {
                let p = &h.producer;
                format!(
                    "\n  Hanging transaction: producer {} (epoch {}, coordinator epoch {}) open from offset {}, last written {} ms ago; its coordinator: {}. read_committed consumers stop at offset {} until it is aborted.",
                    p.producer_id,
                    p.producer_epoch,
                    p.coordinator_epoch,
                    p.current_txn_start_offset,
                    now - p.last_timestamp,
                    h.coordinator,
                    p.current_txn_start_offset
                )
            })
            .collect(),
    }
}

/// A truncation figure for the table: the records cut, "~" before a lower bound.
fn truncation_cell(t: &Truncation) -> String {
    match t.records {
        None => "unknown".into(),
        Some(n) if t.exact => n.to_string(),
        Some(n) => format!(">={n}"),
    }
}

/// The cost of electing `c`, in words: what each other replica cuts, the acknowledged
/// records known lost, and whose data is unknown.
fn cost_lines(c: &Choice, cost: &Cost) -> String {
    let cuts: Vec<String> = cost
        .truncations
        .iter()
        .map(|t| {
            let n = truncation_cell(t);
            if t.broker == c.broker {
                format!("broker {} truncates 0 records (the new leader)", t.broker)
            } else if n == "1" {
                format!("broker {} truncates 1 record", t.broker)
            } else {
                format!("broker {} truncates {n} records", t.broker)
            }
        })
        .collect();
    let mut out = format!("Cost: {}.\n", cuts.join(", "));
    match cost.acknowledged_lost {
        Some(lost) => out.push_str(&format!(
            "  Acknowledged records known lost: {lost} (highest high watermark reported {}, chosen log end offset {})",
            cost.highest_high_watermark, c.log.log_end_offset
        )),
        None => out.push_str(
            "  Acknowledged records known lost: unknown (no replica reported a high watermark)",
        ),
    }
    if cost.unknown.is_empty() {
        out.push('.');
    } else {
        let who: Vec<String> = cost
            .unknown
            .iter()
            .map(|(b, why)| format!("broker {b} ({why})"))
            .collect();
        out.push_str(&format!(
            "; a lower bound: what {} held is unknown.",
            who.join(", ")
        ));
    }
    if let Some(s) = &cost.store {
        out.push_str(&format!("\n  {}", store_line(c.broker, s)));
    }
    if let Some(r) = &cost.offsets_reused {
        out.push_str(&format!("\n  {}", reuse_line(r)));
    }
    out
}

/// The "tiered storage" line: what the store holds and what electing `broker` loses of it.
fn store_line(broker: i32, s: &StoreCost) -> String {
    if s.lost.is_empty() {
        return format!(
            "Tiered storage: holds offsets up to {}; broker {broker}'s history shares all of it (nothing uploaded is lost).",
            s.end_offset - 1
        );
    }
    let ranges: Vec<String> = s
        .lost
        .iter()
        .map(|(a, b)| format!("{a} to {}", b - 1))
        .collect();
    format!(
        "Tiered storage: holds offsets up to {}; {} of them ({}) are not in broker {broker}'s history and are deleted with their segments (counted in the acknowledged records above).",
        s.end_offset - 1,
        s.lost_offsets(),
        ranges.join(", ")
    )
}

/// Who gave offsets out, in the tool's words.
fn giver(broker: i32) -> String {
    if broker == STORE {
        "tiered storage".into()
    } else {
        format!("broker {broker}")
    }
}

/// The "offsets reused" line: which offsets come again and why, what retention had already
/// deleted of them, and which deleted records become readable again.
fn reuse_line(r: &OffsetReuse) -> String {
    let mut line = format!(
        "Offsets reused: {} (offsets {} to {} would be given out again: the chosen log ends at {}, {} already gave out offsets up to {}, by {}).",
        r.offsets,
        r.from,
        r.above - 1,
        r.from,
        giver(r.broker),
        r.above,
        if r.broker == STORE {
            "the records it holds"
        } else {
            "its log start or high watermark"
        }
    );
    if r.deleted > 0 {
        line.push_str(&format!(
            " {} of them were already deleted by retention or DeleteRecords, not lost by this election.",
            r.deleted
        ));
    }
    if let Some((from, to)) = r.readable_again {
        line.push_str(&format!(
            " Records {from} to {}, deleted by retention on another replica, would be readable again.",
            to - 1
        ));
    }
    line
}

/// Why a partition is not elected automatically: its choice reuses offsets.
fn reuse_refusal(o: &Offline, r: &OffsetReuse) -> String {
    let broker = o.choice.as_ref().map_or(-1, |c| c.broker);
    format!(
        "electing broker {broker} would give out {} offsets again ({} to {}), already given out by {}",
        r.offsets,
        r.from,
        r.above - 1,
        giver(r.broker)
    )
}

impl Offline {
    /// Partition `p` of topic `topic` (id `id`), offline, nothing asked yet.
    fn new(topic: &str, id: fjord_protocol::Uuid, p: &fjord_admin::PartitionInfo) -> Offline {
        Offline {
            topic: topic.to_string(),
            partition: p.partition,
            key: (id, p.partition),
            leader_epoch: p.leader_epoch,
            kafka_requests: Vec::new(),
            replicas: p.replicas.clone(),
            isr: p.isr.clone(),
            elr: p.elr.clone(),
            last_known_elr: p.last_known_elr.clone(),
            states: Vec::new(),
            choice: None,
            hanging: Ok(Vec::new()),
            open_from: Ok(None),
        }
    }

    /// `topic-partition`.
    fn name(&self) -> String {
        format!("{}-{}", self.topic, self.partition)
    }
}

/// Asks every replica of `offline` about its log (until `deadline`) and chooses for each.
async fn survey_and_choose(
    admin: &Arc<Admin>,
    cluster: &ClusterInfo,
    offline: &mut [Offline],
    deadline: Instant,
) {
    let asked: Vec<Asked> = offline
        .iter()
        .map(|o| Asked {
            key: o.key,
            topic: o.topic.clone(),
            leader_epoch: o.leader_epoch,
            replicas: o.replicas.clone(),
        })
        .collect();
    let survey = survey::survey(admin.clone(), cluster, &asked, deadline).await;
    let mut answers = survey.answers;
    for o in offline {
        o.kafka_requests = o
            .replicas
            .iter()
            .copied()
            .filter(|b| survey.kafka_requests.contains(b))
            .collect();
        let mut by_broker = answers.remove(&o.key).unwrap_or_default();
        o.states = o
            .replicas
            .iter()
            .map(|b| {
                let s = by_broker
                    .remove(b)
                    .unwrap_or_else(|| ReplicaState::Unreachable("not asked".into()));
                (*b, s)
            })
            .collect();
        o.choice = choose(&o.states, &o.last_known_members());
    }
}

/// The maximum transaction timeout of the cluster, as the first chosen replica's broker has
/// `transaction.max.timeout.ms` (Kafka's default when it cannot be read).
async fn max_transaction_timeout(admin: &Admin, offline: &[Offline]) -> i64 {
    const KAFKA_DEFAULT_MS: i64 = 900_000;
    let Some(broker) = offline
        .iter()
        .find_map(|o| o.choice.as_ref().map(|c| c.broker))
    else {
        return KAFKA_DEFAULT_MS;
    };
    crate::configs::broker_config(admin, broker, broker::TRANSACTION_MAX_TIMEOUT_MS.name)
        .await
        .and_then(|v| v.parse().ok())
        .unwrap_or(KAFKA_DEFAULT_MS)
}

/// Lists, for each partition with a choice, the hanging transactions its chosen replica
/// holds (open longer than `max_timeout_ms`, unknown to their coordinator there).
async fn check_hanging(admin: &Admin, offline: &mut [Offline], max_timeout_ms: i64) {
    for o in offline {
        let Some(c) = &o.choice else { continue };
        let at = [(o.topic.clone(), o.partition, Some(c.broker))];
        o.hanging = hanging_in(admin, &at, max_timeout_ms)
            .await
            .map_err(|e| e.to_string());
    }
}

/// After the elections: the hanging transactions of each recovered partition, as its new
/// leader has them, aborted with --abort-hanging-transactions or else listed with the
/// command that aborts each. Returns how many could not be aborted.
async fn end_hanging(
    a: &Args,
    admin: &Admin,
    plan: &[Target],
    results: &BTreeMap<(String, i32), ElectionOutcome>,
    max_timeout_ms: i64,
) -> usize {
    let recovered: Vec<(String, i32, Option<i32>)> = plan
        .iter()
        .filter(|t| {
            matches!(
                results.get(&(t.topic.clone(), t.partition)),
                Some(ElectionOutcome::Elected)
            )
        })
        .map(|t| (t.topic.clone(), t.partition, None))
        .collect();
    if recovered.is_empty() {
        return 0;
    }
    let hanging = match hanging_in(admin, &recovered, max_timeout_ms).await {
        Ok(h) => h,
        Err(e) => {
            println!("Could not check the recovered partitions for hanging transactions: {e}");
            return 1;
        }
    };
    let mut failed = 0;
    for h in &hanging {
        let p = &h.producer;
        let what = format!(
            "the hanging transaction of producer {} (epoch {}) from offset {} in {}-{}",
            p.producer_id, p.producer_epoch, p.current_txn_start_offset, h.topic, h.partition
        );
        if a.abort_hanging_transactions && !h.certain {
            failed += 1;
            println!(
                "Did not abort {what}: its coordinator is not known ({}). Abort it with: fjord kafka-transactions --bootstrap-server {} abort --topic {} --partition {} --start-offset {}",
                h.coordinator,
                a.connection.bootstrap_server.as_deref().unwrap_or_default(),
                h.topic,
                h.partition,
                p.current_txn_start_offset
            );
            continue;
        }
        if !a.abort_hanging_transactions {
            println!(
                "Left {what} open: read_committed consumers stay stalled. Abort it with: fjord kafka-transactions --bootstrap-server {} abort --topic {} --partition {} --start-offset {}",
                a.connection.bootstrap_server.as_deref().unwrap_or_default(),
                h.topic,
                h.partition,
                p.current_txn_start_offset
            );
            continue;
        }
        let aborted = admin
            .abort_transaction(
                &h.topic,
                h.partition,
                p.producer_id,
                p.producer_epoch as i16,
                p.coordinator_epoch.max(0),
            )
            .await;
        match aborted {
            Ok(()) => println!("Aborted {what}."),
            Err(e) => {
                failed += 1;
                println!("Could not abort {what}: {}", e.server_message());
            }
        }
    }
    failed
}

/// The designated elections the choices call for.
fn plan_of(offline: &[Offline]) -> Vec<Target> {
    offline
        .iter()
        .filter_map(|o| {
            o.choice.as_ref().map(|c| Target {
                topic: o.topic.clone(),
                partition: o.partition,
                designated_leader: Some(c.broker),
            })
        })
        .collect()
}

async fn run_async(a: &Args) -> Result<(), ToolError> {
    validate(a)?;
    let admin = Arc::new(a.connection.admin()?);
    if a.watch {
        return watch::run(a, admin).await;
    }
    let started = Instant::now();
    let deadline =
        started + Duration::from_millis(crate::common::non_negative("deadline-ms", a.deadline_ms)?);
    let cluster = admin.retry(|| admin.refresh(None)).await?;
    let wanted = requested(a, &cluster)?;
    let mut failures = 0usize;
    let mut offline: Vec<Offline> = Vec::new();
    for r in &wanted {
        let info = cluster.topics.get(&r.topic).and_then(|t| {
            t.partitions
                .iter()
                .find(|p| p.partition == r.partition)
                .map(|p| (t.id, p))
        });
        match info {
            None => {
                failures += 1;
                println!(
                    "Partition {}-{} does not exist; skipped.",
                    r.topic, r.partition
                );
            }
            Some((_, p)) if p.leader >= 0 => println!(
                "Partition {}-{} is online (leader {}); skipped.",
                r.topic, r.partition, p.leader
            ),
            Some((id, p)) => offline.push(Offline::new(&r.topic, id, p)),
        }
    }
    if offline.is_empty() {
        println!("No offline partition among the {} requested.", wanted.len());
        return finish(failures);
    }
    survey_and_choose(&admin, &cluster, &mut offline, deadline).await;
    let max_timeout_ms = match a.max_transaction_timeout_ms {
        Some(ms) => ms,
        None => max_transaction_timeout(&admin, &offline).await,
    };
    check_hanging(&admin, &mut offline, max_timeout_ms).await;
    check_open(&admin, &mut offline).await;
    for o in &offline {
        println!("{}", table(o));
    }
    let unrecoverable: Vec<String> = offline
        .iter()
        .filter(|o| o.choice.is_none())
        .map(Offline::name)
        .collect();
    if !unrecoverable.is_empty() {
        failures += unrecoverable.len();
        println!("Unrecoverable partitions: {}", unrecoverable.join(", "));
    }
    let plan = plan_of(&offline);
    if a.dry_run {
        println!(
            "Dry run: {} of {} offline partitions have a replica to elect; nothing was changed.",
            plan.len(),
            offline.len()
        );
        return finish(failures);
    }
    if let Some(path) = &a.output_file {
        write_plan(path, &offline)?;
        println!(
            "Wrote the plan for {} partitions to {}. Review it, then apply it with: kafka-leader-election --bootstrap-server {} --election-type designated --path-to-json-file {}",
            plan.len(),
            path.display(),
            a.connection.bootstrap_server.as_deref().unwrap_or_default(),
            path.display()
        );
        return finish(failures);
    }
    let mut plan = plan;
    if !a.allow_offset_reuse {
        for o in &offline {
            if let Some(r) = o.reuse() {
                failures += 1;
                plan.retain(|t| (t.topic.as_str(), t.partition) != (o.topic.as_str(), o.partition));
                println!(
                    "Refused {}: {}. Review it with --dry-run; elect it all the same with --allow-offset-reuse.",
                    o.name(),
                    reuse_refusal(o, &r)
                );
            }
        }
    }
    if plan.is_empty() {
        return finish(failures);
    }
    let elect::Elected {
        results,
        lines: steps,
    } = elect::elect(&admin, &plan)
        .await
        .map_err(|e| ToolError::Failed(format!("The designated elections failed: {e}")))?;
    for l in steps {
        println!("{l}");
    }
    let (failed, lines) = report(&admin, &plan, &results).await;
    for l in lines {
        println!("{l}");
    }
    failures += failed;
    failures += end_hanging(a, &admin, &plan, &results, max_timeout_ms).await;
    println!("Recovery finished in {} ms.", started.elapsed().as_millis());
    finish(failures)
}

/// Waits until the elected partitions are online (up to `default.api.timeout.ms`); returns
/// how many were not recovered and one line per partition.
async fn report(
    admin: &Admin,
    plan: &[Target],
    results: &BTreeMap<(String, i32), ElectionOutcome>,
) -> (usize, Vec<String>) {
    let mut lines = Vec::new();
    let wait_until = Instant::now() + admin.config().api_timeout;
    let elected: Vec<&Target> = plan
        .iter()
        .filter(|t| {
            matches!(
                results.get(&(t.topic.clone(), t.partition)),
                Some(ElectionOutcome::Elected)
            )
        })
        .collect();
    let mut leaders: BTreeMap<(String, i32), i32> = BTreeMap::new();
    loop {
        if let Ok(c) = admin.refresh(None).await {
            leaders = elected
                .iter()
                .map(|t| {
                    let leader = c
                        .topics
                        .get(&t.topic)
                        .and_then(|x| x.partitions.iter().find(|p| p.partition == t.partition))
                        .map_or(-1, |p| p.leader);
                    ((t.topic.clone(), t.partition), leader)
                })
                .collect();
        }
        let all_online = !leaders.is_empty() && leaders.values().all(|l| *l >= 0);
        if all_online || Instant::now() >= wait_until {
            break;
        }
        tokio::time::sleep(fjord_admin::POLL_INTERVAL).await;
    }
    let mut failed = 0;
    for t in plan {
        let key = (t.topic.clone(), t.partition);
        let name = format!("{}-{}", t.topic, t.partition);
        let designated = t.designated_leader.unwrap_or(-1);
        match results.get(&key) {
            Some(ElectionOutcome::Elected) => match leaders.get(&key) {
                Some(l) if *l >= 0 => {
                    lines.push(format!("Recovered {name}: leader is broker {l}."))
                }
                _ => {
                    failed += 1;
                    lines.push(format!(
                        "Elected broker {designated} for {name}, but the partition was not online within {} ms.",
                        admin.config().api_timeout.as_millis()
                    ));
                }
            },
            Some(ElectionOutcome::NotNeeded) => lines.push(format!(
                "{name} already has a leader again; nothing was changed."
            )),
            Some(ElectionOutcome::Failed(e)) => {
                failed += 1;
                lines.push(format!(
                    "Could not elect broker {designated} for {name}: {e}"
                ));
            }
            None => {
                failed += 1;
                lines.push(format!(
                    "Could not elect broker {designated} for {name}: no result from the controller"
                ));
            }
        }
    }
    (failed, lines)
}

/// The cost of electing `broker` as the plan file carries it.
fn cost_json(cost: &Cost) -> serde_json::Value {
    let truncations: serde_json::Map<String, serde_json::Value> = cost
        .truncations
        .iter()
        .map(|t| {
            let v = match t.records {
                Some(n) if t.exact => serde_json::json!(n),
                Some(n) => serde_json::json!({ "atLeast": n }),
                None => serde_json::Value::Null,
            };
            (t.broker.to_string(), v)
        })
        .collect();
    serde_json::json!({
        "truncatedRecords": truncations,
        "acknowledgedRecordsKnownLost": cost.acknowledged_lost,
        "offsetsReused": cost.offsets_reused.as_ref().map_or(0, |r| r.offsets),
        "offsetsReusedAlreadyDeleted": cost.offsets_reused.as_ref().map_or(0, |r| r.deleted),
        "tieredStorageLostOffsets": cost.store.as_ref().map(StoreCost::lost_offsets),
        "brokersNotAnswering": cost.unknown.iter().map(|(b, _)| *b).collect::<Vec<_>>(),
    })
}

/// One partition of the plan: what `kafka-leader-election --path-to-json-file` reads (topic,
/// partition, designatedLeader), the figures the table showed for that choice, and, so that an
/// operator who edits the leader sees what the edit costs, the same figures for every replica
/// that answered.
fn plan_entry(o: &Offline) -> Option<serde_json::Value> {
    let c = o.choice.as_ref()?;
    let candidates: Vec<serde_json::Value> = o
        .states
        .iter()
        .filter(|(_, s)| matches!(s, ReplicaState::Answered(_)))
        .map(|(b, s)| {
            let mut v = cost_json(&cost(&o.states, *b));
            if let (ReplicaState::Answered(l), Some(m)) = (s, v.as_object_mut()) {
                m.insert("broker".into(), serde_json::json!(b));
                m.insert("logEndOffset".into(), serde_json::json!(l.log_end_offset));
                m.insert(
                    "lastWrittenLeaderEpoch".into(),
                    serde_json::json!(l.last_written_epoch),
                );
            }
            v
        })
        .collect();
    let mut v = serde_json::json!({
        "topic": o.topic,
        "partition": o.partition,
        "designatedLeader": c.broker,
        "reason": c.reason,
    });
    if let (Some(m), serde_json::Value::Object(figures)) =
        (v.as_object_mut(), cost_json(&cost(&o.states, c.broker)))
    {
        m.extend(figures);
        m.insert("candidates".into(), serde_json::Value::Array(candidates));
        if let Ok(open) = &o.open_from {
            m.insert("openTransactionsFrom".into(), serde_json::json!(open));
        }
        if let Ok(h) = &o.hanging {
            let hanging: Vec<serde_json::Value> = h
                .iter()
                .map(|h| {
                    serde_json::json!({
                        "producerId": h.producer.producer_id,
                        "producerEpoch": h.producer.producer_epoch,
                        "coordinatorEpoch": h.producer.coordinator_epoch,
                        "startOffset": h.producer.current_txn_start_offset,
                        "lastTimestamp": h.producer.last_timestamp,
                    })
                })
                .collect();
            m.insert(
                "hangingTransactions".into(),
                serde_json::Value::Array(hanging),
            );
        }
    }
    Some(v)
}

/// Writes the plan in the format `kafka-leader-election --path-to-json-file` reads, with the
/// figures of each choice.
fn write_plan(path: &std::path::Path, offline: &[Offline]) -> Result<(), ToolError> {
    let partitions: Vec<serde_json::Value> = offline.iter().filter_map(plan_entry).collect();
    let text = serde_json::to_string_pretty(&serde_json::json!({ "partitions": partitions }))
        .map_err(|e| ToolError::Failed(e.to_string()))?;
    std::fs::write(path, text + "\n")
        .map_err(|e| ToolError::Failed(format!("{}: {e}", path.display())))
}

fn finish(failures: usize) -> Result<(), ToolError> {
    if failures == 0 {
        Ok(())
    } else {
        Err(ToolError::Failed(format!(
            "{failures} partition(s) were not recovered."
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_transactions_are_a_cost_with_their_first_offset() {
        assert_eq!(open_line(&Ok(None)), "");
        let line = open_line(&Ok(Some(3489)));
        assert!(
            line.contains("Open transactions from offset 3489:"),
            "{line}"
        );
        assert!(line.contains("unknown fate"), "{line}");
        assert_eq!(
            open_line(&Err("broker 1 did not answer".into())),
            "\n  Open transactions: unknown (broker 1 did not answer)."
        );
    }
}
