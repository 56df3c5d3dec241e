//! `kafka-unclean-recovery --watch`: unclean recovery automated outside the controller, so a
//! failing watcher never touches the controller's liveness. Every poll it looks for offline
//! partitions, decides for each by its topic's `unclean.recovery.strategy` (KIP-966's names
//! and meanings, [`decide`]), recovers the ones the strategy allows exactly as the one-shot
//! tool does (survey within the topic's `unclean.recovery.timeout.ms`, the same choice, a
//! designated election), and logs every decision with the same table. It serves its own
//! `/metrics` and stops cleanly on SIGTERM (or Ctrl-C).

use super::{ids, plan_of, report, reuse_refusal, survey_and_choose, table, Args, Offline};
use crate::common::ToolError;
use crate::leader_election::ElectionOutcome;
use fjord_admin::{expect_response, Admin, ClusterInfo};
use fjord_protocol::generated::describe_configs_request::{
    DescribeConfigsRequest, DescribeConfigsResource,
};
use fjord_protocol::RequestBody;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;

/// The topic config naming a topic's strategy.
pub const STRATEGY_CONFIG: &str = fjord_configdef::topic::UNCLEAN_RECOVERY_STRATEGY.name;
/// The topic config bounding how long a recovery asks the replicas.
pub const TIMEOUT_CONFIG: &str = fjord_configdef::topic::UNCLEAN_RECOVERY_TIMEOUT_MS.name;
/// The poll interval when `--poll-interval-ms` is not given.
pub const DEFAULT_POLL_INTERVAL_MS: u64 = 10_000;
/// KIP-966's default `unclean.recovery.timeout.ms`, for topics whose config cannot be read.
pub const DEFAULT_TIMEOUT_MS: u64 = 300_000;
/// The most bytes of an HTTP request the metrics listener reads.
const MAX_HTTP_REQUEST: usize = 8 * 1024;

/// KIP-966's unclean recovery strategies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Recover availability as fast as possible: as soon as no ISR or ELR member can lead.
    Proactive,
    /// Wait as needed for the best result: for fenced ELR members, and with no ELR, until
    /// every last known ELR member is back.
    Balanced,
    /// Never recover a partition that would lose data: the operator decides.
    Manual,
}

impl Strategy {
    /// KIP-966's name (`Proactive`), read case-insensitively.
    pub fn parse(s: &str) -> Option<Strategy> {
        match s.trim().to_ascii_lowercase().as_str() {
            "proactive" => Some(Strategy::Proactive),
            "balanced" => Some(Strategy::Balanced),
            "manual" => Some(Strategy::Manual),
            _ => None,
        }
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Strategy::Proactive => "Proactive",
            Strategy::Balanced => "Balanced",
            Strategy::Manual => "Manual",
        })
    }
}

/// What a strategy says to do with an offline partition now, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Survey its replicas and elect the best one.
    Recover(String),
    /// Not yet: what it waits for.
    Wait(String),
    /// Never by this watcher (Manual).
    Leave(String),
}

/// KIP-966's decision for an offline partition with this ISR, ELR and last known ELR (`None`:
/// not reported, read as empty), where `unfenced` tells which brokers are live:
/// 1. ISR members left (all fenced, or the partition would have a leader): Proactive recovers,
///    the others wait for them;
/// 2. ELR members: an unfenced one is the controller's to elect (wait); all fenced: Proactive
///    recovers, the others wait;
/// 3. no ELR: Proactive recovers; Balanced recovers once every last known ELR member is
///    unfenced (they are likely to hold the most data); Manual leaves it to the operator.
pub fn decide(
    strategy: Strategy,
    isr: &[i32],
    elr: Option<&[i32]>,
    last_known_elr: Option<&[i32]>,
    unfenced: impl Fn(i32) -> bool,
) -> Decision {
    let elr = elr.unwrap_or_default();
    let last_known = last_known_elr.unwrap_or_default();
    let proactive = strategy == Strategy::Proactive;
    if !isr.is_empty() {
        return if proactive {
            Decision::Recover(format!("ISR members {} are down; Proactive", ids(isr)))
        } else {
            Decision::Wait(format!("waiting for ISR members {} ({strategy})", ids(isr)))
        };
    }
    if !elr.is_empty() {
        if let Some(b) = elr.iter().find(|b| unfenced(**b)) {
            return Decision::Wait(format!("ELR member {b} is back: the controller elects it"));
        }
        return if proactive {
            Decision::Recover(format!("ELR members {} are down; Proactive", ids(elr)))
        } else {
            Decision::Wait(format!("waiting for ELR members {} ({strategy})", ids(elr)))
        };
    }
    match strategy {
        Strategy::Proactive => Decision::Recover("no ISR or ELR member; Proactive".into()),
        Strategy::Balanced => {
            let missing: Vec<i32> = last_known
                .iter()
                .copied()
                .filter(|b| !unfenced(*b))
                .collect();
            if missing.is_empty() {
                Decision::Recover(if last_known.is_empty() {
                    "no ISR, ELR or last known ELR member; Balanced".into()
                } else {
                    format!(
                        "every last known ELR member ({}) is back; Balanced",
                        ids(last_known)
                    )
                })
            } else {
                Decision::Wait(format!(
                    "waiting for last known ELR members {} (Balanced)",
                    ids(&missing)
                ))
            }
        }
        Strategy::Manual => Decision::Leave(
            "Manual: left for the operator (kafka-unclean-recovery --dry-run shows the options)"
                .into(),
        ),
    }
}

/// The watcher's counters, served on its `/metrics`.
#[derive(Debug, Default)]
pub struct WatchMetrics {
    polls: AtomicU64,
    offline: AtomicU64,
    recovered: AtomicU64,
    skipped: AtomicU64,
    failed: AtomicU64,
    last_survey_ms: AtomicU64,
}

impl WatchMetrics {
    /// The Prometheus text of the counters.
    pub fn render(&self) -> String {
        let rows: [(&str, &str, &str, u64); 6] = [
            (
                "fjord_unclean_recovery_polls_total",
                "counter",
                "Polls for offline partitions",
                self.polls.load(Ordering::Relaxed),
            ),
            (
                "fjord_unclean_recovery_offline_partitions",
                "gauge",
                "Offline partitions the last poll found",
                self.offline.load(Ordering::Relaxed),
            ),
            (
                "fjord_unclean_recovery_partitions_recovered_total",
                "counter",
                "Partitions recovered by a designated election",
                self.recovered.load(Ordering::Relaxed),
            ),
            (
                "fjord_unclean_recovery_partitions_skipped_total",
                "counter",
                "Decisions to wait or to leave a partition to the operator (each logged once)",
                self.skipped.load(Ordering::Relaxed),
            ),
            (
                "fjord_unclean_recovery_partitions_failed_total",
                "counter",
                "Recoveries that found no replica to elect or whose election failed",
                self.failed.load(Ordering::Relaxed),
            ),
            (
                "fjord_unclean_recovery_last_survey_duration_seconds",
                "gauge",
                "How long the last survey of the replicas took",
                0,
            ),
        ];
        let mut out = String::new();
        for (name, kind, help, value) in rows {
            out.push_str(&format!("# HELP {name} {help}\n# TYPE {name} {kind}\n"));
            if name.ends_with("_seconds") {
                let ms = self.last_survey_ms.load(Ordering::Relaxed);
                out.push_str(&format!("{name} {}\n", ms as f64 / 1000.0));
            } else {
                out.push_str(&format!("{name} {value}\n"));
            }
        }
        out
    }
}

/// `--watch`'s own checks: what the one-shot modes take does not go with it.
pub(super) fn validate(a: &Args) -> Result<(), ToolError> {
    for (given, name) in [
        (a.automated_recovery, "automated-recovery"),
        (a.output_file.is_some(), "output-file"),
        (a.path_to_json_file.is_some(), "path-to-json-file"),
        (a.partition.is_some(), "partition"),
    ] {
        if given {
            return Err(ToolError::Usage(format!(
                "Option {name} is not allowed with watch"
            )));
        }
    }
    if a.topic.is_some() && a.all_offline_partitions {
        return Err(ToolError::Usage(
            "Exactly one of the following options may be used with watch: topic, all-offline-partitions"
                .into(),
        ));
    }
    if let Some(s) = &a.default_strategy {
        if Strategy::parse(s).is_none() {
            return Err(ToolError::Usage(format!(
                "Invalid value {s} for option default-strategy: one of Manual, Balanced, Proactive"
            )));
        }
    }
    if a.poll_interval_ms.is_some_and(|p| p < 1) {
        return Err(ToolError::Usage(
            "Option poll-interval-ms must be at least 1".into(),
        ));
    }
    if let Some(url) = &a.metrics_listener {
        listen_address(url)?;
    }
    Ok(())
}

/// `host:port` from `http://host:port`.
fn listen_address(url: &str) -> Result<String, ToolError> {
    url.strip_prefix("http://")
        .map(|r| r.trim_end_matches('/').to_string())
        .filter(|a| {
            a.rsplit_once(':')
                .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
        })
        .ok_or_else(|| {
            ToolError::Usage(format!(
                "Invalid value {url} for option metrics-listener: expected http://HOST:PORT"
            ))
        })
}

/// A log line with the time, as Kafka's tools log.
fn log(line: &str) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let (secs, ms) = (now.as_secs() as i64, now.subsec_millis());
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = crate::common::civil_from_days(days);
    let stamp = format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02},{ms:03}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    );
    for l in line.lines() {
        println!("[{stamp}] {l}");
    }
}

/// Serves `GET /metrics` on `addr` until the task is dropped.
async fn serve_metrics(listener: tokio::net::TcpListener, metrics: Arc<WatchMetrics>) {
    loop {
        let Ok((mut stream, _)) = listener.accept().await else {
            continue;
        };
        let metrics = metrics.clone();
        tokio::spawn(async move {
            let mut buf = vec![0u8; MAX_HTTP_REQUEST];
            let mut read = 0;
            let ended = loop {
                match tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buf[read..]))
                    .await
                {
                    Ok(Ok(0)) | Err(_) | Ok(Err(_)) => break false,
                    Ok(Ok(n)) => {
                        read += n;
                        if buf[..read].windows(4).any(|w| w == b"\r\n\r\n") {
                            break true;
                        }
                        if read == buf.len() {
                            break false;
                        }
                    }
                }
            };
            if !ended {
                return;
            }
            let request = String::from_utf8_lossy(&buf[..read]);
            let (status, body) = if request.starts_with("GET /metrics ") {
                ("200 OK", metrics.render())
            } else {
                ("404 Not Found", "Not found: try GET /metrics\n".to_string())
            };
            let response = format!(
                "HTTP/1.1 {status}\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(response.as_bytes()).await;
        });
    }
}

/// Each topic's (strategy, survey timeout) from its configs; `default` where they cannot be
/// read.
async fn topic_settings(
    admin: &Admin,
    topics: &[String],
    default: Strategy,
) -> BTreeMap<String, (Strategy, u64)> {
    let mut out: BTreeMap<String, (Strategy, u64)> = topics
        .iter()
        .map(|t| (t.clone(), (default, DEFAULT_TIMEOUT_MS)))
        .collect();
    let body = RequestBody::DescribeConfigs(DescribeConfigsRequest {
        resources: topics
            .iter()
            .map(|t| DescribeConfigsResource {
                resource_type: fjord_metadata::config_defs::TOPIC,
                resource_name: t.clone(),
                configuration_keys: Some(vec![STRATEGY_CONFIG.into(), TIMEOUT_CONFIG.into()]),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    });
    let answer = async {
        let r = admin.call_controller(body, 1..=4).await?;
        expect_response!(r, DescribeConfigs)
    };
    let Ok(r) = answer.await else {
        return out;
    };
    for res in r.results.iter().filter(|r| r.error_code == 0) {
        let Some(entry) = out.get_mut(&res.resource_name) else {
            continue;
        };
        for c in &res.configs {
            // A default-sourced strategy is the cluster's default, not the topic's choice.
            let own = c.config_source != fjord_metadata::config_defs::source::DEFAULT;
            match (c.name.as_str(), c.value.as_deref()) {
                (STRATEGY_CONFIG, Some(v)) if own => {
                    entry.0 = Strategy::parse(v).unwrap_or(default);
                }
                (TIMEOUT_CONFIG, Some(v)) => {
                    entry.1 = v.parse().unwrap_or(DEFAULT_TIMEOUT_MS);
                }
                _ => {}
            }
        }
    }
    out
}

/// What the watcher keeps between polls.
struct Watcher {
    admin: Arc<Admin>,
    topic: Option<String>,
    default: Strategy,
    dry_run: bool,
    metrics: Arc<WatchMetrics>,
    /// The decision last logged per partition, so each is logged once.
    logged: BTreeMap<String, String>,
    /// Partitions whose recovery would reuse offsets: Manual until they are online again.
    manual: BTreeSet<String>,
}

impl Watcher {
    /// One poll: find the offline partitions, decide, recover what may be recovered.
    async fn poll(&mut self) {
        self.metrics.polls.fetch_add(1, Ordering::Relaxed);
        let cluster = match self.admin.refresh(None).await {
            Ok(c) => c,
            Err(e) => {
                let text = format!("Could not read the cluster's metadata: {e}");
                if self.logged.get("") != Some(&text) {
                    log(&text);
                    self.logged.insert(String::new(), text);
                }
                return;
            }
        };
        self.logged.remove("");
        let offline: Vec<Offline> = cluster
            .topics
            .values()
            .filter(|t| self.topic.as_ref().is_none_or(|want| *want == t.name))
            .flat_map(|t| {
                t.partitions
                    .iter()
                    .filter(|p| p.leader < 0)
                    .map(|p| Offline::new(&t.name, t.id, p))
            })
            .collect();
        self.metrics
            .offline
            .store(offline.len() as u64, Ordering::Relaxed);
        let names: Vec<String> = offline.iter().map(Offline::name).collect();
        let back: Vec<String> = self
            .logged
            .keys()
            .filter(|k| !names.contains(k))
            .cloned()
            .collect();
        for name in back {
            self.logged.remove(&name);
            self.manual.remove(&name);
            log(&format!("{name} is online again."));
        }
        if offline.is_empty() {
            return;
        }
        let mut topics: Vec<String> = offline.iter().map(|o| o.topic.clone()).collect();
        topics.dedup();
        let settings = topic_settings(&self.admin, &topics, self.default).await;
        let mut chosen: Vec<Offline> = Vec::new();
        let mut timeout_ms = 0u64;
        for o in offline {
            if self.manual.contains(&o.name()) {
                continue;
            }
            let (strategy, timeout) = settings[&o.topic];
            let unfenced = |b: i32| cluster.brokers.get(&b).is_some_and(|i| !i.fenced);
            let d = decide(
                strategy,
                &o.isr,
                o.elr.as_deref(),
                o.last_known_elr.as_deref(),
                unfenced,
            );
            match d {
                Decision::Recover(why) => {
                    log(&format!("{}: recovering ({why}).", o.name()));
                    self.logged.insert(o.name(), String::new());
                    timeout_ms = timeout_ms.max(timeout);
                    chosen.push(o);
                }
                Decision::Wait(why) | Decision::Leave(why) => {
                    if self.logged.get(&o.name()) != Some(&why) {
                        log(&format!("{}: not recovered: {why}.", o.name()));
                        self.metrics.skipped.fetch_add(1, Ordering::Relaxed);
                        self.logged.insert(o.name(), why);
                    }
                }
            }
        }
        if !chosen.is_empty() {
            self.recover(&cluster, chosen, timeout_ms).await;
        }
    }

    /// Surveys and elects for `offline` as the one-shot tool does, logging the tables.
    async fn recover(&mut self, cluster: &ClusterInfo, mut offline: Vec<Offline>, timeout_ms: u64) {
        let started = Instant::now();
        let deadline = started + Duration::from_millis(timeout_ms);
        survey_and_choose(&self.admin, cluster, &mut offline, deadline).await;
        super::check_open(&self.admin, &mut offline).await;
        self.metrics
            .last_survey_ms
            .store(started.elapsed().as_millis() as u64, Ordering::Relaxed);
        for o in &offline {
            log(&table(o));
            if o.choice.is_none() {
                self.metrics.failed.fetch_add(1, Ordering::Relaxed);
                // Logged again at the next poll's attempt.
                self.logged.remove(&o.name());
            }
        }
        // A recovery that would give offsets out again is never the watcher's to make: the
        // partition is left to the operator, as Manual, and said once.
        let mut plan = plan_of(&offline);
        for o in &offline {
            if let Some(r) = o.reuse() {
                plan.retain(|t| (t.topic.as_str(), t.partition) != (o.topic.as_str(), o.partition));
                let why = format!(
                    "{}; treated as Manual: left for the operator (kafka-unclean-recovery --automated-recovery --allow-offset-reuse accepts it)",
                    reuse_refusal(o, &r)
                );
                log(&format!("{}: not recovered: {why}.", o.name()));
                self.metrics.skipped.fetch_add(1, Ordering::Relaxed);
                self.manual.insert(o.name());
            }
        }
        if plan.is_empty() {
            return;
        }
        if self.dry_run {
            log(&format!(
                "Dry run: {} partition(s) would be elected; nothing was changed.",
                plan.len()
            ));
            return;
        }
        match super::elect::elect(&self.admin, &plan).await {
            Ok(super::elect::Elected { results, lines }) => {
                for l in lines {
                    log(&l);
                }
                let (failed, lines) = report(&self.admin, &plan, &results).await;
                for l in lines {
                    log(&l);
                }
                let elected = results
                    .values()
                    .filter(|r| matches!(r, ElectionOutcome::Elected))
                    .count();
                self.metrics
                    .recovered
                    .fetch_add(elected.saturating_sub(failed) as u64, Ordering::Relaxed);
                self.metrics
                    .failed
                    .fetch_add(failed as u64, Ordering::Relaxed);
            }
            Err(e) => {
                log(&format!("The designated elections failed: {e}"));
                self.metrics
                    .failed
                    .fetch_add(plan.len() as u64, Ordering::Relaxed);
            }
        }
    }
}

/// Runs the watcher until SIGTERM or Ctrl-C.
pub(super) async fn run(a: &Args, admin: Arc<Admin>) -> Result<(), ToolError> {
    let default = a
        .default_strategy
        .as_deref()
        .and_then(Strategy::parse)
        .unwrap_or(Strategy::Balanced);
    let poll = Duration::from_millis(
        crate::common::limit(a.poll_interval_ms).unwrap_or(DEFAULT_POLL_INTERVAL_MS),
    );
    let metrics = Arc::new(WatchMetrics::default());
    let server = match &a.metrics_listener {
        Some(url) => {
            let addr = listen_address(url)?;
            let listener = tokio::net::TcpListener::bind(&addr)
                .await
                .map_err(|e| ToolError::Failed(format!("metrics listener {url}: {e}")))?;
            Some(tokio::spawn(serve_metrics(listener, metrics.clone())))
        }
        None => None,
    };
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| ToolError::Failed(format!("SIGTERM handler: {e}")))?;
    log(&format!(
        "Watching {} for offline partitions every {} ms (default strategy {default}{}).",
        a.topic
            .as_deref()
            .map_or("every topic".to_string(), |t| format!("topic {t}")),
        poll.as_millis(),
        if a.dry_run { ", dry run" } else { "" }
    ));
    let mut w = Watcher {
        admin,
        topic: a.topic.clone(),
        default,
        dry_run: a.dry_run,
        metrics,
        logged: BTreeMap::new(),
        manual: BTreeSet::new(),
    };
    loop {
        tokio::select! {
            _ = term.recv() => break,
            _ = tokio::signal::ctrl_c() => break,
            () = w.poll() => {}
        }
        tokio::select! {
            _ = term.recv() => break,
            _ = tokio::signal::ctrl_c() => break,
            () = tokio::time::sleep(poll) => {}
        }
    }
    if let Some(server) = server {
        server.abort();
    }
    log("Stopped.");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn up(ids: &'static [i32]) -> impl Fn(i32) -> bool {
        move |b| ids.contains(&b)
    }

    #[test]
    fn kip_966_strategies() {
        use Decision::*;
        use Strategy::*;
        let recover = |d: &Decision| matches!(d, Recover(_));
        // ISR members left, all down.
        assert!(recover(&decide(Proactive, &[1], Some(&[]), None, up(&[2]))));
        assert!(matches!(
            decide(Balanced, &[1], Some(&[]), None, up(&[2])),
            Wait(_)
        ));
        // Fenced ELR members: Proactive recovers, the others wait for them.
        assert!(recover(&decide(
            Proactive,
            &[],
            Some(&[1]),
            None,
            up(&[2, 3])
        )));
        for s in [Balanced, Manual] {
            let d = decide(s, &[], Some(&[1]), None, up(&[2, 3]));
            assert_eq!(d, Wait(format!("waiting for ELR members 1 ({s})")));
        }
        // An unfenced ELR member is the controller's to elect.
        assert!(matches!(
            decide(Proactive, &[], Some(&[1]), None, up(&[1])),
            Wait(_)
        ));
        // No ELR: Balanced waits for every last known ELR member.
        let d = decide(Balanced, &[], Some(&[]), Some(&[1, 3]), up(&[2, 3]));
        assert_eq!(
            d,
            Wait("waiting for last known ELR members 1 (Balanced)".into())
        );
        assert!(recover(&decide(
            Balanced,
            &[],
            Some(&[]),
            Some(&[1, 3]),
            up(&[1, 2, 3])
        )));
        assert!(recover(&decide(Balanced, &[], None, None, up(&[2]))));
        assert!(recover(&decide(Proactive, &[], None, Some(&[1]), up(&[2]))));
        // Manual never.
        assert!(matches!(
            decide(Manual, &[], None, Some(&[1]), up(&[1, 2])),
            Leave(_)
        ));
        assert_eq!(Strategy::parse("bAlanced"), Some(Balanced));
        assert_eq!(Strategy::parse("Aggressive"), None);
    }

    #[test]
    fn the_metrics_text_names_every_counter() {
        let m = WatchMetrics::default();
        m.recovered.store(2, Ordering::Relaxed);
        m.last_survey_ms.store(1500, Ordering::Relaxed);
        let text = m.render();
        assert!(text.contains("fjord_unclean_recovery_partitions_recovered_total 2\n"));
        assert!(text.contains("fjord_unclean_recovery_last_survey_duration_seconds 1.5\n"));
        assert!(text.contains("# TYPE fjord_unclean_recovery_partitions_skipped_total counter"));
        assert_eq!(
            listen_address("http://127.0.0.1:9405").unwrap(),
            "127.0.0.1:9405"
        );
        assert!(listen_address("127.0.0.1:9405").is_err());
    }
}
