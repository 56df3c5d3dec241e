//! `fjord kafka-log-dirs` (as `kafka-log-dirs.sh`): `--describe` asks each broker
//! (DescribeLogDirs) for its log directories, the replicas in each (size, offset lag, whether a
//! future replica, and, from a fjord broker, a tiered partition's bytes in the store) and the
//! error of a failed one, and prints Kafka's JSON.

use crate::common::{self, ToolError};
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin};
use fjord_protocol::generated::describe_log_dirs_request::DescribeLogDirsRequest;
use fjord_protocol::generated::describe_log_dirs_response::DescribeLogDirsResult;
use fjord_protocol::{ErrorCode, RequestBody};
use std::collections::BTreeSet;
use std::process::ExitCode;

/// `kafka-log-dirs` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    connection: crate::common::BrokerConnection,
    /// Describe the specified log directories on the specified brokers.
    #[arg(long)]
    describe: bool,
    /// The list of topics to be queried in the form "topic1,topic2,topic3". All topics will be
    /// queried if no topic list is specified.
    #[arg(long, default_value = "")]
    topic_list: String,
    /// The list of brokers to be queried in the form "0,1,2". All brokers in the cluster will
    /// be queried if no broker list is specified.
    #[arg(long, default_value = "")]
    broker_list: String,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-log-dirs", run_async(args))
}

/// The Java exception class Kafka's tool prints for a log dir's error code.
fn error_class(code: i16) -> String {
    let name = match ErrorCode::from_code(code) {
        Some(ErrorCode::KafkaStorageError) => "KafkaStorageException",
        Some(ErrorCode::LogDirNotFound) => "LogDirNotFoundException",
        Some(ErrorCode::ClusterAuthorizationFailed) => "ClusterAuthorizationException",
        _ => "UnknownServerException",
    };
    format!("org.apache.kafka.common.errors.{name}")
}

/// One broker's log dirs in Kafka's JSON, keeping only `topics`' replicas (all when empty).
fn broker_json(broker: i32, dirs: &[DescribeLogDirsResult], topics: &BTreeSet<String>) -> String {
    let dirs: Vec<String> = dirs
        .iter()
        .map(|d| {
            let partitions: Vec<String> = d
                .topics
                .iter()
                .filter(|t| topics.is_empty() || topics.contains(&t.name))
                .flat_map(|t| {
                    t.partitions.iter().map(move |p| {
                        // fjord's broker adds what a tiered partition holds in the store
                        // (docs/EXTENSIONS.md); Kafka's does not, and the key is left out.
                        let remote = if p.remote_size >= 0 {
                            format!(",\"remoteSize\":{}", p.remote_size)
                        } else {
                            String::new()
                        };
                        format!(
                            "{{\"partition\":{},\"size\":{},\"offsetLag\":{},\"isFuture\":{}{remote}}}",
                            serde_json::Value::from(format!("{}-{}", t.name, p.partition_index)),
                            p.partition_size,
                            p.offset_lag,
                            p.is_future_key
                        )
                    })
                })
                .collect();
            let error = if d.error_code == 0 {
                "null".to_string()
            } else {
                serde_json::Value::from(error_class(d.error_code)).to_string()
            };
            format!(
                "{{\"partitions\":[{}],\"error\":{error},\"logDir\":{}}}",
                partitions.join(","),
                serde_json::Value::from(d.log_dir.clone())
            )
        })
        .collect();
    format!("{{\"broker\":{broker},\"logDirs\":[{}]}}", dirs.join(","))
}

fn split(list: &str) -> impl Iterator<Item = &str> {
    list.split(',').map(str::trim).filter(|s| !s.is_empty())
}

async fn describe(admin: &Admin, broker: i32) -> Result<Vec<DescribeLogDirsResult>, ToolError> {
    let body = RequestBody::DescribeLogDirs(DescribeLogDirsRequest {
        topics: None,
        ..Default::default()
    });
    let r = admin
        .call_broker(broker, body, 1..=4)
        .await
        .map_err(ToolError::from_server)?;
    let r = expect_response!(r, DescribeLogDirs).map_err(ToolError::from_server)?;
    if r.error_code != 0 {
        return Err(ToolError::Failed(common::error_text(r.error_code, None)));
    }
    Ok(r.results)
}

async fn run_async(a: &Args) -> Result<(), ToolError> {
    if a.connection.bootstrap_server.is_none() || !a.describe {
        let mut missing = Vec::new();
        if a.connection.bootstrap_server.is_none() {
            missing.push("bootstrap-server");
        }
        if !a.describe {
            missing.push("describe");
        }
        return Err(ToolError::Usage(format!(
            "Missing required argument \"[{}]\"",
            missing.join(", ")
        )));
    }
    let wanted: BTreeSet<i32> = split(&a.broker_list)
        .map(|b| {
            b.parse()
                .map_err(|_| ToolError::Usage(format!("Invalid broker id {b} in --broker-list")))
        })
        .collect::<Result<_, _>>()?;
    let topics: BTreeSet<String> = split(&a.topic_list).map(str::to_string).collect();
    let admin = a.connection.admin()?;
    let cluster = admin.retry(|| admin.refresh(None)).await?;
    let live: BTreeSet<i32> = cluster
        .brokers
        .values()
        .filter(|b| !b.fenced)
        .map(|b| b.id)
        .collect();
    let ids = |s: &BTreeSet<i32>| s.iter().map(i32::to_string).collect::<Vec<_>>().join(",");
    let missing: BTreeSet<i32> = wanted.difference(&live).copied().collect();
    if !missing.is_empty() {
        return Err(ToolError::Failed(format!(
            "ERROR: The given brokers do not exist from --broker-list: {}. Current existent brokers: {}",
            ids(&missing),
            ids(&live)
        )));
    }
    let asked = if wanted.is_empty() { live } else { wanted };
    println!("Querying brokers for log directories information");
    let mut brokers = Vec::new();
    for b in &asked {
        brokers.push(broker_json(*b, &describe(&admin, *b).await?, &topics));
    }
    println!(
        "Received log directory information from brokers {}",
        ids(&asked)
    );
    println!("{{\"brokers\":[{}],\"version\":1}}", brokers.join(","));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::generated::describe_log_dirs_response::{
        DescribeLogDirsPartition, DescribeLogDirsTopic,
    };

    #[test]
    fn kafkas_json() {
        let dirs = vec![
            DescribeLogDirsResult {
                log_dir: "/data/a".into(),
                topics: vec![DescribeLogDirsTopic {
                    name: "t".into(),
                    partitions: vec![DescribeLogDirsPartition {
                        partition_index: 0,
                        partition_size: 91,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            },
            DescribeLogDirsResult {
                log_dir: "/data/b".into(),
                error_code: ErrorCode::KafkaStorageError.code(),
                ..Default::default()
            },
        ];
        assert_eq!(
            broker_json(1, &dirs, &BTreeSet::new()),
            "{\"broker\":1,\"logDirs\":[\
             {\"partitions\":[{\"partition\":\"t-0\",\"size\":91,\"offsetLag\":0,\"isFuture\":false}],\"error\":null,\"logDir\":\"/data/a\"},\
             {\"partitions\":[],\"error\":\"org.apache.kafka.common.errors.KafkaStorageException\",\"logDir\":\"/data/b\"}]}"
        );
        let only_u: BTreeSet<String> = ["u".to_string()].into();
        assert!(broker_json(1, &dirs, &only_u)
            .starts_with("{\"broker\":1,\"logDirs\":[{\"partitions\":[],"));
    }
}
