//! `fjord kafka-console-producer` (as `kafka-console-producer.sh`): each line of stdin becomes a
//! record of the topic (`--property parse.key=true` splits a key off at `key.separator`), sent
//! in batches to each partition's leader with acks=-1 and idempotence (Kafka's defaults: a
//! producer id from InitProducerId, a sequence per partition, so a retried batch is stored
//! once), or acks=1 / acks=0 (`--producer-property acks=..` or `--request-required-acks`;
//! idempotence then off, as Kafka turns it off when acks is set), retried on retriable
//! errors. Keyed records go where Kafka's default partitioner puts them; records without a
//! key go to one partition per batch, round robin.

use super::{flag, partitioner, properties, unescape};
use crate::common::{self, ToolError};
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin, AdminError};
use fjord_protocol::generated::init_producer_id_request::InitProducerIdRequest;
use fjord_protocol::generated::produce_request::{
    PartitionProduceData, ProduceRequest, TopicProduceData,
};
use fjord_protocol::records::{Compression, RecordBatchBuilder};
use fjord_protocol::RequestBody;
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The most lines read ahead of the sender.
const MAX_QUEUED_LINES: usize = 10_000;
/// The most records sent in one batch.
const MAX_BATCH_RECORDS: usize = 1_000;
/// How long a batch waits for more lines once it has one (Kafka's `linger.ms` for this tool
/// is 1000 ms; lines typed by hand should show up sooner).
const LINGER: Duration = Duration::from_millis(10);

/// `kafka-console-producer` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// REQUIRED: The server(s) to connect to.
    #[arg(long)]
    bootstrap_server: Option<String>,
    /// REQUIRED: The topic id to produce messages to.
    #[arg(long)]
    topic: Option<String>,
    /// Reader properties: parse.key, key.separator, ignore.error.
    #[arg(long = "property")]
    properties: Vec<String>,
    /// Producer properties (acks, request.timeout.ms, ...).
    #[arg(long = "producer-property")]
    producer_properties: Vec<String>,
    /// Producer config properties file.
    #[arg(long = "producer.config", visible_alias = "command-config")]
    producer_config: Option<PathBuf>,
    /// The required acks of the producer requests (-1, 0 or 1).
    #[arg(long)]
    request_required_acks: Option<String>,
    /// Send each line as its own request and wait for it.
    #[arg(long)]
    sync: bool,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-console-producer", run_async(args))
}

/// A line turned into a record.
struct Line {
    key: Option<Vec<u8>>,
    value: Vec<u8>,
}

fn parse_line(line: &str, parse_key: bool, separator: &str) -> Result<Line, String> {
    if !parse_key {
        return Ok(Line {
            key: None,
            value: line.as_bytes().to_vec(),
        });
    }
    match line.split_once(separator) {
        Some((k, v)) => Ok(Line {
            key: Some(k.as_bytes().to_vec()),
            value: v.as_bytes().to_vec(),
        }),
        None => Err(format!("No key separator found on line number 1: '{line}'")),
    }
}

async fn run_async(a: &Args) -> Result<(), ToolError> {
    let (Some(bootstrap), Some(topic)) = (&a.bootstrap_server, &a.topic) else {
        return Err(ToolError::Usage(
            "Missing required argument(s): --bootstrap-server and --topic".into(),
        ));
    };
    let props = properties(&a.properties, "--property")?;
    let producer_props = properties(&a.producer_properties, "--producer-property")?;
    let parse_key = flag(&props, "parse.key");
    let ignore_error = flag(&props, "ignore.error");
    let separator = unescape(props.get("key.separator").map_or("\t", String::as_str));
    let acks: i16 = match a
        .request_required_acks
        .as_deref()
        .or(producer_props.get("acks").map(String::as_str))
    {
        None | Some("all") | Some("-1") => -1,
        Some("1") => 1,
        Some("0") => 0,
        Some(other) => {
            return Err(ToolError::Usage(format!(
                "Invalid value {other} for acks: use all, -1, 0 or 1"
            )))
        }
    };
    let admin = common::admin(Some(bootstrap), None, a.producer_config.as_deref())?;
    let cluster = admin.topic_view(topic).await?;
    let partitions = cluster.topics.get(topic).map_or(0, |t| t.partitions.len());
    let idempotent = acks == -1
        && producer_props
            .get("enable.idempotence")
            .is_none_or(|v| !v.trim().eq_ignore_ascii_case("false"));
    let mut producer = if idempotent {
        Some(Idempotence::start(&admin).await?)
    } else {
        None
    };

    let (tx, mut rx) = tokio::sync::mpsc::channel::<String>(MAX_QUEUED_LINES);
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.blocking_send(line).is_err() {
                break;
            }
        }
    });
    let mut next_keyless = 0usize;
    let mut failed = 0usize;
    while let Some(first) = rx.recv().await {
        let mut lines = vec![first];
        if !a.sync {
            let until = tokio::time::Instant::now() + LINGER;
            while lines.len() < MAX_BATCH_RECORDS {
                match tokio::time::timeout_at(until, rx.recv()).await {
                    Ok(Some(l)) => lines.push(l),
                    _ => break,
                }
            }
        }
        let mut by_partition: BTreeMap<i32, Vec<Line>> = BTreeMap::new();
        let keyless = (next_keyless % partitions) as i32;
        next_keyless += 1;
        for l in &lines {
            match parse_line(l, parse_key, &separator) {
                Ok(line) => {
                    let p = line
                        .key
                        .as_deref()
                        .map_or(keyless, |k| partitioner::partition_for_key(k, partitions));
                    by_partition.entry(p).or_default().push(line);
                }
                Err(e) if ignore_error => eprintln!("{e}"),
                Err(e) => return Err(ToolError::Failed(e)),
            }
        }
        for (partition, records) in by_partition {
            let sequence = producer.as_mut().map(|p| p.next(partition, records.len()));
            if let Err(e) = send(&admin, topic, partition, &records, acks, sequence).await {
                failed += records.len();
                if producer.is_some() {
                    // The sequence moved past a batch that was not stored: start again with a
                    // new producer id, as Kafka's producer does.
                    producer = Some(Idempotence::start(&admin).await?);
                }
                eprintln!(
                    "ERROR Error when sending message to topic {topic} with key: {}, value: {} bytes with error: {e}",
                    records[0]
                        .key
                        .as_deref()
                        .map_or("null".to_string(), |k| format!("{} bytes", k.len())),
                    records[0].value.len()
                );
            }
        }
    }
    if failed > 0 {
        return Err(ToolError::Failed(format!(
            "{failed} record(s) were not acknowledged."
        )));
    }
    Ok(())
}

/// Sends `records` to `topic`-`partition` at its leader, retrying retriable errors (a moved
/// leader: the cluster view is fetched again) within `default.api.timeout.ms`.
/// An idempotent producer's id, epoch and next sequence per partition.
struct Idempotence {
    producer_id: i64,
    epoch: i16,
    next: BTreeMap<i32, i32>,
}

impl Idempotence {
    /// A producer id from InitProducerId (any broker), as Kafka's idempotent producer gets one.
    async fn start(admin: &Admin) -> Result<Idempotence, AdminError> {
        let r = admin
            .retry(|| async {
                let r = admin
                    .call_any(
                        RequestBody::InitProducerId(InitProducerIdRequest {
                            transactional_id: None,
                            transaction_timeout_ms: i32::MAX,
                            producer_id: -1,
                            producer_epoch: -1,
                            ..Default::default()
                        }),
                        0..=5,
                    )
                    .await?;
                let r = expect_response!(r, InitProducerId)?;
                AdminError::check(r.error_code, None).map(|()| r)
            })
            .await?;
        Ok(Idempotence {
            producer_id: r.producer_id,
            epoch: r.producer_epoch,
            next: BTreeMap::new(),
        })
    }

    /// (producer id, epoch, base sequence) for the next batch of `count` records to
    /// `partition`.
    fn next(&mut self, partition: i32, count: usize) -> (i64, i16, i32) {
        let seq = self.next.entry(partition).or_insert(0);
        let base = *seq;
        *seq = seq.wrapping_add(count as i32) & i32::MAX;
        (self.producer_id, self.epoch, base)
    }
}

async fn send(
    admin: &Admin,
    topic: &str,
    partition: i32,
    records: &[Line],
    acks: i16,
    sequence: Option<(i64, i16, i32)>,
) -> Result<(), AdminError> {
    let now = fjord_util::system_now_ms();
    let mut b = RecordBatchBuilder::new(Compression::None);
    if let Some((id, epoch, base)) = sequence {
        b = b.producer(id, epoch, base);
    }
    for r in records {
        b.append(now, r.key.as_deref(), Some(&r.value), &[]);
    }
    let batch = b
        .build()
        .map_err(|e| AdminError::Protocol(format!("building the batch: {e}")))?;
    let timeout_ms = admin.config().request_timeout.as_millis() as i32;
    admin
        .retry(|| async {
            let leader = admin.leader(topic, partition).await?;
            let request = RequestBody::Produce(ProduceRequest {
                acks,
                timeout_ms,
                topic_data: vec![TopicProduceData {
                    name: topic.to_string(),
                    partition_data: vec![PartitionProduceData {
                        index: partition,
                        records: Some(batch.clone().into()),
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            });
            if acks == 0 {
                return admin
                    .send_unanswered_to_broker(leader, request, 3..=12)
                    .await;
            }
            let r = admin.call_broker(leader, request, 3..=12).await?;
            let r = expect_response!(r, Produce)?;
            let p = r
                .responses
                .first()
                .and_then(|t| t.partition_responses.first())
                .ok_or_else(|| AdminError::Protocol("no partition in the answer".into()))?;
            AdminError::check(p.error_code, p.error_message.as_deref())
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_split_at_the_separator() {
        let l = parse_line("k1:hello:world", true, ":").unwrap();
        assert_eq!(l.key.as_deref(), Some(&b"k1"[..]));
        assert_eq!(l.value, b"hello:world");
        assert!(parse_line("no separator", true, ":").is_err());
        assert_eq!(parse_line("plain", false, ":").unwrap().key, None);
    }
}
