//! `fjord kafka-console-consumer` (as `kafka-console-consumer.sh`): prints a topic's records,
//! as Kafka's DefaultMessageFormatter does (`--property print.key`, `print.timestamp`,
//! `print.partition`, `print.offset`, `key.separator`, `line.separator`). It reads every
//! partition (or `--partition`) from the latest offset, the earliest with `--from-beginning`,
//! or `--offset`; with `--group` it joins the group (`group.rs`), reads the partitions it is
//! assigned from the group's committed offsets, commits what it printed at each rebalance and
//! on exit, and leaves (with `--partition`, it reads that partition and commits outside any
//! generation, as Kafka's assign()). It stops after `--max-messages`, or after `--timeout-ms`
//! without a record, and prints "Processed a total of N messages" on stderr.

use super::group::Member;
use super::{flag, properties, unescape};
use crate::common::{self, ToolError};
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin, AdminError, EARLIEST, LATEST};
use fjord_protocol::generated::fetch_request::{FetchPartition, FetchRequest, FetchTopic};
use fjord_protocol::records::RecordBatches;
use fjord_protocol::{ErrorCode, RequestBody};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use tokio::time::Instant;

/// How long a fetch waits at the broker for records.
const FETCH_WAIT_MS: i32 = 500;
/// The most bytes one fetch asks for, per partition.
const FETCH_PARTITION_BYTES: i32 = 1024 * 1024;

/// `kafka-console-consumer` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// REQUIRED: The server(s) to connect to.
    #[arg(long)]
    bootstrap_server: Option<String>,
    /// The topic to consume on.
    #[arg(long)]
    topic: Option<String>,
    /// The partition to consume from (all when not given).
    #[arg(long)]
    partition: Option<i32>,
    /// The offset to start from with --partition: a number, 'earliest' or 'latest'.
    #[arg(long)]
    offset: Option<String>,
    /// Start with the earliest message present in the log rather than the latest.
    #[arg(long)]
    from_beginning: bool,
    /// The consumer group id: start from its committed offsets and commit what is printed.
    #[arg(long)]
    group: Option<String>,
    /// The maximum number of messages to consume before exiting (negative: no limit).
    #[arg(long)]
    max_messages: Option<i64>,
    /// Exit if no message is available for consumption for this many milliseconds
    /// (negative: never).
    #[arg(long)]
    timeout_ms: Option<i64>,
    /// Formatter properties: print.key, print.value, print.timestamp, print.partition,
    /// print.offset, key.separator, line.separator.
    #[arg(long = "property", visible_alias = "formatter-property")]
    properties: Vec<String>,
    /// Consumer properties (auto.offset.reset, ...).
    #[arg(long = "consumer-property")]
    consumer_properties: Vec<String>,
    /// Consumer config properties file.
    #[arg(long = "consumer.config", visible_alias = "command-config")]
    consumer_config: Option<PathBuf>,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-console-consumer", run_async(args))
}

/// How a record is printed.
pub(crate) struct Format {
    key: bool,
    value: bool,
    timestamp: bool,
    partition: bool,
    offset: bool,
    key_separator: String,
    line_separator: String,
}

impl Format {
    pub(crate) fn from(props: &BTreeMap<String, String>) -> Format {
        Format {
            key: flag(props, "print.key"),
            value: props.get("print.value").is_none_or(|v| v.trim() != "false"),
            timestamp: flag(props, "print.timestamp"),
            partition: flag(props, "print.partition"),
            offset: flag(props, "print.offset"),
            key_separator: unescape(props.get("key.separator").map_or("\t", String::as_str)),
            line_separator: unescape(props.get("line.separator").map_or("\n", String::as_str)),
        }
    }

    pub(crate) fn line(
        &self,
        out: &mut Vec<u8>,
        ts: Option<(&str, i64)>,
        partition: i32,
        offset: i64,
        key: Option<&[u8]>,
        value: Option<&[u8]>,
    ) {
        let sep = self.key_separator.as_bytes();
        if self.timestamp {
            match ts {
                Some((kind, t)) => out.extend_from_slice(format!("{kind}:{t}").as_bytes()),
                None => out.extend_from_slice(b"NO_TIMESTAMP"),
            }
            out.extend_from_slice(sep);
        }
        if self.partition {
            out.extend_from_slice(format!("Partition:{partition}").as_bytes());
            out.extend_from_slice(sep);
        }
        if self.offset {
            out.extend_from_slice(format!("Offset:{offset}").as_bytes());
            out.extend_from_slice(sep);
        }
        if self.key {
            out.extend_from_slice(key.unwrap_or(b"null"));
            if self.value {
                out.extend_from_slice(sep);
            }
        }
        if self.value {
            out.extend_from_slice(value.unwrap_or(b"null"));
        }
        out.extend_from_slice(self.line_separator.as_bytes());
    }
}

/// Where reading starts: `--offset` on its one partition; with `--group` (and no
/// `--partition`) as a member of the group, from its commits over what it is assigned; else
/// the group's commits or the `reset` policy over `partitions`.
async fn start(
    admin: &Admin,
    a: &Args,
    topic: &str,
    partitions: &[i32],
    reset: i64,
) -> Result<(BTreeMap<i32, i64>, Option<Member>), ToolError> {
    let mut positions: BTreeMap<i32, i64> = BTreeMap::new();
    let mut member: Option<Member> = None;
    if let Some(o) = &a.offset {
        let p = partitions[0];
        let at = match o.as_str() {
            "earliest" => admin.list_offset(topic, p, EARLIEST).await?,
            "latest" => admin.list_offset(topic, p, LATEST).await?,
            n => n.parse::<i64>().map_err(|_| {
                ToolError::Usage(format!(
                    "The provided offset value '{n}' is incorrect. Valid values are 'earliest', 'latest', or a non-negative long."
                ))
            })?,
        };
        positions.insert(p, at);
    } else if let (Some(g), None) = (&a.group, a.partition) {
        // A member of the group: it reads what the group assigns it.
        let m = Member::join(admin, g, topic, partitions).await?;
        positions = start_positions(admin, Some(g), topic, &m.assigned, reset).await?;
        member = Some(m);
    } else {
        positions = start_positions(admin, a.group.as_deref(), topic, partitions, reset).await?;
    }
    Ok((positions, member))
}

async fn run_async(a: &Args) -> Result<(), ToolError> {
    let (Some(bootstrap), Some(topic)) = (&a.bootstrap_server, &a.topic) else {
        return Err(ToolError::Usage(
            "Missing required argument(s): --bootstrap-server and --topic".into(),
        ));
    };
    if a.offset.is_some() && a.partition.is_none() {
        return Err(ToolError::Usage(
            "The partition is required when offset is specified.".into(),
        ));
    }
    if a.offset.is_some() && a.from_beginning {
        return Err(ToolError::Usage(
            "Options from-beginning and offset cannot be specified together.".into(),
        ));
    }
    let format = Format::from(&properties(&a.properties, "--property")?);
    let consumer_props = properties(&a.consumer_properties, "--consumer-property")?;
    let admin = common::admin(Some(bootstrap), None, a.consumer_config.as_deref())?;
    let cluster = admin.topic_view(topic).await?;
    let all: Vec<i32> = cluster
        .topics
        .get(topic)
        .map(|t| t.partitions.iter().map(|p| p.partition).collect())
        .unwrap_or_default();
    let partitions: Vec<i32> = match a.partition {
        Some(p) if all.contains(&p) => vec![p],
        Some(p) => {
            return Err(ToolError::Failed(format!(
                "Partition {p} does not exist in topic {topic}"
            )))
        }
        None => all,
    };
    // Where to start: --offset, else the group's commits, else the reset policy.
    let reset = if a.from_beginning {
        EARLIEST
    } else {
        match consumer_props.get("auto.offset.reset").map(String::as_str) {
            Some("earliest") => EARLIEST,
            _ => LATEST,
        }
    };
    let (mut positions, mut member) = start(&admin, a, topic, &partitions, reset).await?;

    let mut printed: u64 = 0;
    let mut last_record = Instant::now();
    let stdout = std::io::stdout();
    'consume: loop {
        if crate::common::limit(a.max_messages).is_some_and(|m| printed >= m) {
            break;
        }
        if crate::common::limit(a.timeout_ms)
            .is_some_and(|t| last_record.elapsed() >= Duration::from_millis(t))
        {
            break;
        }
        if let Some(m) = &mut member {
            if m.heartbeat(&admin).await? {
                // A rebalance: hand over what was read, then take the new assignment.
                m.commit(&admin, &positions).await?;
                let group = a.group.as_deref().unwrap_or_default();
                *m = Member::join(&admin, group, topic, &partitions).await?;
                positions = start_positions(&admin, Some(group), topic, &m.assigned, reset).await?;
            }
        }
        let batches = fetch(&admin, topic, &positions).await?;
        let mut out = Vec::new();
        for (partition, records) in batches {
            let mut batches = RecordBatches::new(records);
            for batch in batches.by_ref() {
                let batch = batch.map_err(|e| ToolError::Failed(e.to_string()))?;
                let position = positions.get(&partition).copied().unwrap_or(0);
                if batch.is_control() {
                    positions.insert(partition, batch.next_offset().max(position));
                    continue;
                }
                let kind = match batch.timestamp_type() {
                    fjord_protocol::records::TimestampType::LogAppendTime => "LogAppendTime",
                    _ => "CreateTime",
                };
                let records = batch
                    .records()
                    .map_err(|e| ToolError::Failed(e.to_string()))?;
                for r in records {
                    let r = r.map_err(|e| ToolError::Failed(e.to_string()))?;
                    let offset = batch.base_offset() + i64::from(r.offset_delta);
                    if offset < position {
                        continue;
                    }
                    let ts = if kind == "LogAppendTime" {
                        batch.max_timestamp()
                    } else {
                        batch.base_timestamp() + r.timestamp_delta
                    };
                    format.line(
                        &mut out,
                        Some((kind, ts)),
                        partition,
                        offset,
                        r.key.as_deref(),
                        r.value.as_deref(),
                    );
                    positions.insert(partition, offset + 1);
                    printed += 1;
                    last_record = Instant::now();
                    if crate::common::limit(a.max_messages).is_some_and(|m| printed >= m) {
                        let mut lock = stdout.lock();
                        let _ = lock.write_all(&out);
                        let _ = lock.flush();
                        break 'consume;
                    }
                }
                positions.insert(partition, batch.next_offset().max(position));
            }
        }
        let mut lock = stdout.lock();
        if lock.write_all(&out).and_then(|()| lock.flush()).is_err() {
            break;
        }
    }
    if let Some(m) = &member {
        m.commit(&admin, &positions).await?;
        m.leave(&admin).await?;
    } else if let Some(g) = &a.group {
        let offsets = positions
            .iter()
            .map(|(p, o)| ((topic.clone(), *p), *o))
            .collect();
        admin.commit_group_offsets(g, &offsets).await?;
    }
    eprintln!("Processed a total of {printed} messages");
    Ok(())
}

/// Where to start reading `partitions`: the group's committed offsets where it has them, else
/// the offset `reset` names.
async fn start_positions(
    admin: &Admin,
    group: Option<&str>,
    topic: &str,
    partitions: &[i32],
    reset: i64,
) -> Result<BTreeMap<i32, i64>, AdminError> {
    let mut positions: BTreeMap<i32, i64> = match group {
        Some(g) => admin
            .group_offsets(g, Some((topic, partitions)))
            .await?
            .into_iter()
            .map(|((_, p), o)| (p, o))
            .collect(),
        None => BTreeMap::new(),
    };
    for p in partitions {
        if !positions.contains_key(p) {
            positions.insert(*p, admin.list_offset(topic, *p, reset).await?);
        }
    }
    Ok(positions)
}

/// One round of fetches from each leader for the partitions at `positions`: the record bytes
/// by partition. A partition whose leader moved is looked up again on the next round.
async fn fetch(
    admin: &Admin,
    topic: &str,
    positions: &BTreeMap<i32, i64>,
) -> Result<Vec<(i32, bytes::Bytes)>, ToolError> {
    let mut by_leader: BTreeMap<i32, Vec<(i32, i64)>> = BTreeMap::new();
    for (p, o) in positions {
        match admin.leader(topic, *p).await {
            Ok(l) => by_leader.entry(l).or_default().push((*p, *o)),
            Err(_) => {
                let _ = admin.refresh(Some(&[topic.to_string()])).await;
            }
        }
    }
    if by_leader.is_empty() {
        tokio::time::sleep(fjord_admin::POLL_INTERVAL).await;
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for (leader, parts) in by_leader {
        let body = RequestBody::Fetch(FetchRequest {
            replica_id: -1,
            max_wait_ms: FETCH_WAIT_MS,
            min_bytes: 1,
            max_bytes: 50 * 1024 * 1024,
            session_epoch: -1,
            topics: vec![FetchTopic {
                topic: topic.to_string(),
                partitions: parts
                    .iter()
                    .map(|(p, o)| FetchPartition {
                        partition: *p,
                        current_leader_epoch: -1,
                        fetch_offset: *o,
                        last_fetched_epoch: -1,
                        log_start_offset: -1,
                        partition_max_bytes: FETCH_PARTITION_BYTES,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            }],
            ..Default::default()
        });
        let r = match admin.call_broker(leader, body, 4..=12).await {
            Ok(r) => expect_response!(r, Fetch)?,
            Err(e) if e.is_retriable() => {
                let _ = admin.refresh(Some(&[topic.to_string()])).await;
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        for t in r.responses {
            for p in t.partitions {
                match ErrorCode::from_code(p.error_code) {
                    Some(ErrorCode::None) => {}
                    Some(e) if e.is_retriable() || e == ErrorCode::NotLeaderOrFollower => {
                        let _ = admin.refresh(Some(&[topic.to_string()])).await;
                        continue;
                    }
                    _ => return Err(ToolError::Failed(common::error_text(p.error_code, None))),
                }
                if let Some(records) = p.records {
                    let bytes = records
                        .into_bytes()
                        .map_err(|e| ToolError::Failed(e.to_string()))?;
                    out.push((p.partition_index, bytes));
                }
            }
        }
    }
    Ok(out)
}
