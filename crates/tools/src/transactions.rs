//! `fjord kafka-transactions` (as `kafka-transactions.sh`): `list`, `describe`,
//! `describe-producers`, `find-hanging`, `abort` and `force-terminate`, with Kafka's flags
//! and tables (`TransactionsCommand`). A hanging transaction is one left open in a partition
//! longer than the maximum transaction timeout whose coordinator no longer knows it in that
//! partition: its producer id maps to no transactional id, or that id's transaction does not
//! include the partition. Aborting one writes its abort marker at the partition's leader.

use crate::common::{self, ToolError};
use clap::{Args as ClapArgs, Subcommand};
use fjord_admin::{Admin, AdminError};
use fjord_protocol::generated::describe_producers_response::ProducerState;
use std::collections::{BTreeMap, BTreeSet};
use std::process::ExitCode;

/// `kafka-transactions` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    connection: common::BrokerConnection,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// list transactions
    List {
        /// Duration (in millis) to filter by: if < 0, all transactions will be returned;
        /// otherwise, only transactions running longer than this duration will be returned
        #[arg(long)]
        duration_filter: Option<i64>,
    },
    /// describe the state of an active transactional-id
    Describe {
        /// transactional id
        #[arg(long)]
        transactional_id: String,
    },
    /// describe the states of active producers for a topic partition
    DescribeProducers {
        /// optional broker id to describe the producer state on a specific replica
        #[arg(long)]
        broker_id: Option<i32>,
        /// topic name
        #[arg(long)]
        topic: String,
        /// partition number
        #[arg(long)]
        partition: i32,
    },
    /// abort a hanging transaction (requires administrative privileges)
    Abort {
        /// topic name
        #[arg(long)]
        topic: String,
        /// partition number
        #[arg(long)]
        partition: i32,
        /// start offset of the transaction to abort
        #[arg(long)]
        start_offset: Option<i64>,
        /// producer id
        #[arg(long)]
        producer_id: Option<i64>,
        /// producer epoch
        #[arg(long)]
        producer_epoch: Option<i16>,
        /// coordinator epoch
        #[arg(long)]
        coordinator_epoch: Option<i32>,
    },
    /// find hanging transactions
    FindHanging {
        /// broker id to search for hanging transactions
        #[arg(long)]
        broker_id: Option<i32>,
        /// maximum transaction timeout in minutes to limit the scope of the search (15
        /// minutes by default)
        #[arg(long, default_value_t = 15)]
        max_transaction_timeout: i64,
        /// topic name to limit search to (required if --partition is specified)
        #[arg(long)]
        topic: Option<String>,
        /// partition number
        #[arg(long)]
        partition: Option<i32>,
    },
    /// force terminate a transaction: fence its producer and abort what it has open
    ForceTerminate {
        /// transactional id
        #[arg(long)]
        transactional_id: String,
    },
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-transactions", run_async(args))
}

/// Kafka's `ToolsUtils.prettyPrintTable`: every cell padded to its column's width and
/// followed by a tab.
pub fn pretty_table(headers: &[&str], rows: &[Vec<String>]) -> Vec<String> {
    let all: Vec<Vec<String>> = std::iter::once(headers.iter().map(|h| h.to_string()).collect())
        .chain(rows.iter().cloned())
        .collect();
    crate::table::Table::pretty().lines(&all)
}

fn print_table(headers: &[&str], rows: &[Vec<String>]) {
    for l in pretty_table(headers, rows) {
        println!("{l}");
    }
}

fn failed(what: &str, e: AdminError) -> ToolError {
    ToolError::Failed(format!(
        "{what}: {}. Enable debug logging for additional detail.",
        e.server_message()
    ))
}

async fn run_async(a: &Args) -> Result<(), ToolError> {
    let admin = a.connection.admin()?;
    match &a.command {
        Command::List { duration_filter } => list(&admin, duration_filter.unwrap_or(-1)).await,
        Command::Describe { transactional_id } => describe(&admin, transactional_id).await,
        Command::DescribeProducers {
            broker_id,
            topic,
            partition,
        } => describe_producers(&admin, topic, *partition, *broker_id).await,
        Command::Abort {
            topic,
            partition,
            start_offset,
            producer_id,
            producer_epoch,
            coordinator_epoch,
        } => {
            let spec = match (start_offset, producer_id) {
                (Some(offset), _) => abort_spec(&admin, topic, *partition, *offset).await?,
                (None, Some(pid)) => {
                    let epoch = producer_epoch.ok_or_else(|| {
                        ToolError::Failed("Missing required argument --producer-epoch".into())
                    })?;
                    let coordinator = coordinator_epoch.ok_or_else(|| {
                        ToolError::Failed("Missing required argument --coordinator-epoch".into())
                    })?;
                    // A transaction that hung before its first marker shows -1: 0 is at or
                    // below any coordinator epoch, as Kafka's tool uses it.
                    (*pid, epoch, coordinator.max(0))
                }
                (None, None) => {
                    return Err(ToolError::Failed(
                        "The transaction to abort must be identified either with --start-offset \
                         (for brokers on 3.0 or above) or with --producer-id, --producer-epoch, \
                         and --coordinator-epoch (for older brokers)"
                            .into(),
                    ))
                }
            };
            abort(&admin, topic, *partition, spec).await
        }
        Command::FindHanging {
            broker_id,
            max_transaction_timeout,
            topic,
            partition,
        } => {
            if topic.is_none() && broker_id.is_none() {
                return Err(ToolError::Failed(
                    "The `find-hanging` command requires either --topic or --broker-id to limit \
                     the scope of the search"
                        .into(),
                ));
            }
            if partition.is_some() && topic.is_none() {
                return Err(ToolError::Failed(
                    "The --partition argument requires --topic to be provided".into(),
                ));
            }
            let scope = Scope {
                broker: *broker_id,
                topic: topic.clone(),
                partition: *partition,
            };
            let hanging =
                find_hanging_answered(&admin, &scope, max_transaction_timeout * 60_000).await?;
            print_hanging(&hanging);
            Ok(())
        }
        Command::ForceTerminate { transactional_id } => admin
            .force_terminate_transaction(transactional_id)
            .await
            .map_err(|e| {
                failed(
                    &format!("Failed to force terminate transactional-id `{transactional_id}`"),
                    e,
                )
            }),
    }
}

/// `list`: every broker's transactions. As Kafka's tool, a broker that does not answer (asked
/// again until `default.api.timeout.ms`) fails the listing: a partial table would hide
/// transactions.
async fn list(admin: &Admin, duration_ms: i64) -> Result<(), ToolError> {
    let found = until_every_broker_answered(admin, || async {
        let found = admin
            .list_transactions(&[], &[], duration_ms)
            .await
            .map_err(|e| failed("Failed to list transactions", e))?;
        let silent = unanswered(&found);
        Ok((found, silent))
    })
    .await?;
    let silent = unanswered(&found);
    if !silent.is_empty() {
        return Err(ToolError::Failed(format!(
            "Failed to list transactions: broker(s) {} did not answer",
            silent.join("; ")
        )));
    }
    let listed = found.listed;
    let rows: Vec<Vec<String>> = listed
        .into_iter()
        .map(|t| {
            vec![
                t.transactional_id,
                t.coordinator.to_string(),
                t.producer_id.to_string(),
                t.state,
            ]
        })
        .collect();
    print_table(
        &[
            "TransactionalId",
            "Coordinator",
            "ProducerId",
            "TransactionState",
        ],
        &rows,
    );
    Ok(())
}

async fn describe(admin: &Admin, id: &str) -> Result<(), ToolError> {
    let (coordinator, t) = admin.describe_transaction(id).await.map_err(|e| {
        failed(
            &format!("Failed to describe transaction state of transactional-id `{id}`"),
            e,
        )
    })?;
    let (start, duration) = if t.transaction_start_time_ms >= 0 {
        (
            t.transaction_start_time_ms.to_string(),
            (fjord_util::system_now_ms() - t.transaction_start_time_ms).to_string(),
        )
    } else {
        ("None".to_string(), "None".to_string())
    };
    let partitions: Vec<String> = t
        .topics
        .iter()
        .flat_map(|topic| {
            topic
                .partitions
                .iter()
                .map(move |p| format!("{}-{p}", topic.topic))
        })
        .collect();
    print_table(
        &[
            "CoordinatorId",
            "TransactionalId",
            "ProducerId",
            "ProducerEpoch",
            "TransactionState",
            "TransactionTimeoutMs",
            "CurrentTransactionStartTimeMs",
            "TransactionDurationMs",
            "TopicPartitions",
        ],
        &[vec![
            coordinator.to_string(),
            id.to_string(),
            t.producer_id.to_string(),
            t.producer_epoch.to_string(),
            t.transaction_state,
            t.transaction_timeout_ms.to_string(),
            start,
            duration,
            partitions.join(","),
        ]],
    );
    Ok(())
}

async fn describe_producers(
    admin: &Admin,
    topic: &str,
    partition: i32,
    broker: Option<i32>,
) -> Result<(), ToolError> {
    let producers = admin
        .describe_producers(topic, partition, broker)
        .await
        .map_err(|e| {
            let at = broker.map_or("leader".to_string(), |b| format!("broker {b}"));
            failed(
                &format!("Failed to describe producers for partition {topic}-{partition} on {at}"),
                e,
            )
        })?;
    let rows: Vec<Vec<String>> = producers
        .iter()
        .map(|p| {
            vec![
                p.producer_id.to_string(),
                p.producer_epoch.to_string(),
                p.coordinator_epoch.to_string(),
                p.last_sequence.to_string(),
                p.last_timestamp.to_string(),
                if p.current_txn_start_offset >= 0 {
                    p.current_txn_start_offset.to_string()
                } else {
                    "None".to_string()
                },
            ]
        })
        .collect();
    print_table(
        &[
            "ProducerId",
            "ProducerEpoch",
            "LatestCoordinatorEpoch",
            "LastSequence",
            "LastTimestamp",
            "CurrentTransactionStartOffset",
        ],
        &rows,
    );
    Ok(())
}

/// The producer id, epoch and coordinator epoch of the transaction open at `start_offset`.
async fn abort_spec(
    admin: &Admin,
    topic: &str,
    partition: i32,
    start_offset: i64,
) -> Result<(i64, i16, i32), ToolError> {
    let producers = admin
        .describe_producers(topic, partition, None)
        .await
        .map_err(|e| {
            failed(
                &format!("Failed to validate producer state for partition {topic}-{partition}"),
                e,
            )
        })?;
    let p = producers
        .iter()
        .find(|p| p.current_txn_start_offset == start_offset)
        .ok_or_else(|| {
            ToolError::Failed(format!(
                "Could not find any open transactions starting at offset {start_offset} on \
                 partition {topic}-{partition}"
            ))
        })?;
    Ok((
        p.producer_id,
        p.producer_epoch as i16,
        p.coordinator_epoch.max(0),
    ))
}

async fn abort(
    admin: &Admin,
    topic: &str,
    partition: i32,
    (pid, epoch, coordinator): (i64, i16, i32),
) -> Result<(), ToolError> {
    admin
        .abort_transaction(topic, partition, pid, epoch, coordinator)
        .await
        .map_err(|e| {
            failed(
                &format!(
                    "Failed to abort transaction AbortTransactionSpec(topicPartition={topic}-{partition}, \
                     producerId={pid}, producerEpoch={epoch}, coordinatorEpoch={coordinator})"
                ),
                e,
            )
        })
}

/// Where to look for hanging transactions.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Partitions with a replica on this broker (their producers as this replica has them).
    pub broker: Option<i32>,
    /// Partitions of this topic.
    pub topic: Option<String>,
    /// This partition of the topic.
    pub partition: Option<i32>,
}

/// A transaction open in a partition that its coordinator does not know there.
#[derive(Debug, Clone, PartialEq)]
pub struct Hanging {
    /// The topic.
    pub topic: String,
    /// The partition.
    pub partition: i32,
    /// The producer as DescribeProducers shows it.
    pub producer: ProducerState,
    /// What the coordinator knows of the producer's transactional id, in words (for example
    /// "no transactional id" or "CompleteCommit, without this partition").
    pub coordinator: String,
    /// False when a broker that may coordinate it did not answer: its coordinator may still
    /// end it, so it is not aborted without an operator's word.
    pub certain: bool,
}

/// The hanging transactions in `scope`: open in a partition for longer than `max_timeout_ms`
/// (by the producer's last write) and unknown to its coordinator there; with the brokers
/// that did not answer the listing.
pub async fn find_hanging(
    admin: &Admin,
    scope: &Scope,
    max_timeout_ms: i64,
) -> Result<Search, ToolError> {
    let cluster = admin
        .refresh(None)
        .await
        .map_err(|e| failed("Failed to list topics", e))?;
    let mut partitions = Vec::new();
    for (name, t) in &cluster.topics {
        if scope.topic.as_ref().is_some_and(|x| x != name) {
            continue;
        }
        for p in &t.partitions {
            let on_broker = scope.broker.is_none_or(|b| p.replicas.contains(&b));
            if on_broker && scope.partition.is_none_or(|x| x == p.partition) {
                partitions.push((name.clone(), p.partition, scope.broker));
            }
        }
    }
    if let (Some(topic), Some(partition)) = (&scope.topic, scope.partition) {
        if partitions.is_empty() {
            partitions.push((topic.clone(), partition, scope.broker));
        }
    }
    search(admin, &partitions, max_timeout_ms).await
}

/// What a search for hanging transactions found.
#[derive(Debug, Default)]
pub struct Search {
    /// The hanging transactions.
    pub hanging: Vec<Hanging>,
    /// The unfenced brokers that did not answer the listing, each with why.
    pub silent: Vec<String>,
    /// How many producers the listing asked about.
    pub producers: usize,
}

/// The brokers that did not answer a listing, each with why.
fn unanswered(found: &fjord_admin::TransactionListings) -> Vec<String> {
    found
        .unanswered
        .iter()
        .map(|(b, e)| format!("{b} ({e})"))
        .collect()
}

/// How long `find-hanging` waits before asking again when a broker that may coordinate a
/// candidate's transaction did not answer the listing (loading its shards, unreachable).
const LISTING_RETRY: std::time::Duration = std::time::Duration::from_millis(500);

/// [`find_hanging`] once every broker answered the listing, as Kafka's `find-hanging`
/// (its `listTransactions` retries each broker until `default.api.timeout.ms` and fails
/// the command if one never answers). A transaction whose coordinator did not answer may be
/// live, and aborting a live transaction loses what it commits; so no such row is printed.
pub async fn find_hanging_answered(
    admin: &Admin,
    scope: &Scope,
    max_timeout_ms: i64,
) -> Result<Vec<Hanging>, ToolError> {
    let found = until_every_broker_answered(admin, || async {
        let found = find_hanging(admin, scope, max_timeout_ms).await?;
        let silent = found.silent.clone();
        Ok((found, silent))
    })
    .await?;
    if found.silent.is_empty() {
        return Ok(found.hanging);
    }
    Err(ToolError::Failed(format!(
        "Failed to list transactions for {} producers: broker(s) {} did not answer",
        found.producers,
        found.silent.join("; ")
    )))
}

/// Runs `ask` (an answer and the brokers that did not answer it) again every
/// [`LISTING_RETRY`] until every broker answered or `default.api.timeout.ms` passed; the
/// last answer.
async fn until_every_broker_answered<T, F, Fut>(admin: &Admin, mut ask: F) -> Result<T, ToolError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<(T, Vec<String>), ToolError>>,
{
    let deadline = std::time::Instant::now() + admin.config().api_timeout;
    loop {
        let (found, silent) = ask().await?;
        if silent.is_empty() || std::time::Instant::now() + LISTING_RETRY >= deadline {
            return Ok(found);
        }
        tokio::time::sleep(LISTING_RETRY).await;
    }
}

/// The hanging transactions of each (topic, partition, replica to ask; None: its leader):
/// open for longer than `max_timeout_ms` by the producer's last write, and unknown to the
/// coordinator there (no transactional id maps to the producer, the id moved on to another
/// producer, or its transaction does not hold the partition).
pub async fn hanging_in(
    admin: &Admin,
    partitions: &[(String, i32, Option<i32>)],
    max_timeout_ms: i64,
) -> Result<Vec<Hanging>, ToolError> {
    Ok(search(admin, partitions, max_timeout_ms).await?.hanging)
}

/// [`hanging_in`] with the brokers that did not answer the listing.
async fn search(
    admin: &Admin,
    partitions: &[(String, i32, Option<i32>)],
    max_timeout_ms: i64,
) -> Result<Search, ToolError> {
    let now = fjord_util::system_now_ms();
    let mut candidates = Vec::new();
    for (topic, partition, broker) in partitions {
        let producers = admin
            .describe_producers(topic, *partition, *broker)
            .await
            .map_err(|e| {
                let at = broker.map_or("its leader".to_string(), |b| format!("broker {b}"));
                failed(
                    &format!("Failed to describe producers for {topic}-{partition} on {at}"),
                    e,
                )
            })?;
        for p in producers {
            if p.current_txn_start_offset >= 0 && now - p.last_timestamp > max_timeout_ms {
                candidates.push(Hanging {
                    topic: topic.clone(),
                    partition: *partition,
                    producer: p,
                    coordinator: String::new(),
                    certain: true,
                });
            }
        }
    }
    if candidates.is_empty() {
        return Ok(Search::default());
    }
    let pids: BTreeSet<i64> = candidates.iter().map(|c| c.producer.producer_id).collect();
    let pids: Vec<i64> = pids.into_iter().collect();
    let found = admin.list_transactions(&[], &pids, -1).await.map_err(|e| {
        failed(
            &format!("Failed to list transactions for {} producers", pids.len()),
            e,
        )
    })?;
    let why = unanswered(&found);
    let silent: Vec<String> = found
        .unanswered
        .iter()
        .map(|(b, _)| b.to_string())
        .collect();
    let ids: BTreeMap<i64, String> = found
        .listed
        .into_iter()
        .map(|t| (t.producer_id, t.transactional_id))
        .collect();
    let mut hanging = Vec::new();
    for mut c in candidates {
        let Some(id) = ids.get(&c.producer.producer_id) else {
            if silent.is_empty() {
                c.coordinator = "no transactional id".into();
            } else {
                c.certain = false;
                c.coordinator = format!(
                    "no transactional id on the brokers that answered; broker(s) {} did not",
                    silent.join(",")
                );
            }
            hanging.push(c);
            continue;
        };
        match admin.describe_transaction(id).await {
            Ok((_, t)) if t.producer_id != c.producer.producer_id => {
                c.coordinator = format!("{id} moved on to producer {}", t.producer_id);
                hanging.push(c);
            }
            Ok((_, t)) => {
                let known = t
                    .topics
                    .iter()
                    .any(|x| x.topic == c.topic && x.partitions.contains(&c.partition));
                if !known {
                    c.coordinator = format!(
                        "{id} is {} (epoch {}), without this partition",
                        t.transaction_state, t.producer_epoch
                    );
                    hanging.push(c);
                }
            }
            Err(e) if e.code() == Some(fjord_protocol::ErrorCode::TransactionalIdNotFound) => {
                c.coordinator = format!("{id} is no longer known");
                hanging.push(c)
            }
            Err(e) => return Err(failed("Failed to describe 1 transactions", e)),
        }
    }
    Ok(Search {
        hanging,
        silent: why,
        producers: pids.len(),
    })
}

/// Prints hanging transactions as Kafka's `find-hanging` does.
pub fn print_hanging(hanging: &[Hanging]) {
    let now = fjord_util::system_now_ms();
    let rows: Vec<Vec<String>> = hanging
        .iter()
        .map(|h| {
            let p = &h.producer;
            vec![
                h.topic.clone(),
                h.partition.to_string(),
                p.producer_id.to_string(),
                p.producer_epoch.to_string(),
                p.coordinator_epoch.to_string(),
                p.current_txn_start_offset.to_string(),
                p.last_timestamp.to_string(),
                ((now - p.last_timestamp) / 60_000).to_string(),
            ]
        })
        .collect();
    print_table(
        &[
            "Topic",
            "Partition",
            "ProducerId",
            "ProducerEpoch",
            "CoordinatorEpoch",
            "StartOffset",
            "LastTimestamp",
            "Duration(min)",
        ],
        &rows,
    );
}

#[cfg(test)]
mod tests {
    #[test]
    fn tables_are_padded_and_tab_separated_as_kafkas() {
        let rows = vec![vec!["t1".to_string(), "1".to_string()]];
        assert_eq!(
            super::pretty_table(&["TransactionalId", "Coordinator"], &rows),
            vec![
                "TransactionalId\tCoordinator\t".to_string(),
                "t1             \t1          \t".to_string()
            ]
        );
    }
}
