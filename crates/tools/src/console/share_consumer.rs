//! `fjord kafka-console-share-consumer` (as Kafka 4.4's `kafka-console-share-consumer.sh`):
//! joins a share group (ShareGroupHeartbeat), fetches the partitions it is assigned from their
//! leaders in share sessions (ShareFetch), prints each acquired record as the console consumer
//! does (`--property print.key`, ...) and acknowledges it with its next fetch: accepted, or
//! rejected with `--reject`, released with `--release`. Acquired offsets without a record (a
//! transaction marker, a compacted record) are acknowledged as gaps. It stops after
//! `--max-messages`, or after `--timeout-ms` without a record, closes its sessions with their
//! last acknowledgements, leaves the group and prints "Processed a total of N messages" on
//! stderr.

use super::consumer::Format;
use super::properties;
use crate::common::{self, ToolError};
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin, AdminError};
use fjord_protocol::generated::{
    share_acknowledge_request::{
        AcknowledgePartition, AcknowledgeTopic, AcknowledgementBatch as AckBatch,
        ShareAcknowledgeRequest,
    },
    share_fetch_request::{
        AcknowledgementBatch, FetchPartition, FetchTopic, ForgottenTopic, ShareFetchRequest,
    },
    share_group_heartbeat_request::ShareGroupHeartbeatRequest,
};
use fjord_protocol::records::RecordBatches;
use fjord_protocol::{ErrorCode, RequestBody, Uuid};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use tokio::time::Instant;

/// How long a ShareFetch waits at the broker for records.
const FETCH_WAIT_MS: i32 = 500;
/// The most bytes one ShareFetch asks for.
const FETCH_BYTES: i32 = 1024 * 1024;
/// The most records one ShareFetch acquires.
const FETCH_RECORDS: i32 = 500;
/// The pause while the group has assigned nothing yet.
const IDLE_PAUSE: Duration = Duration::from_millis(200);
/// How often a member with nothing assigned heartbeats.
const EMPTY_BEAT: Duration = Duration::from_millis(500);
/// The ShareFetch and ShareAcknowledge version sent.
const SHARE_VERSION: i16 = 1;

/// `kafka-console-share-consumer` arguments.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// REQUIRED: The server(s) to connect to.
    #[arg(long)]
    bootstrap_server: Option<String>,
    /// The topic to consume from.
    #[arg(long)]
    topic: Option<String>,
    /// The share group id of the consumer.
    #[arg(long, default_value = "console-share-consumer")]
    group: String,
    /// The maximum number of messages to consume before exiting (negative: no limit).
    #[arg(long)]
    max_messages: Option<i64>,
    /// Exit if no message is available for consumption for this many milliseconds
    /// (negative: never).
    #[arg(long)]
    timeout_ms: Option<i64>,
    /// Reject the messages as they are consumed (they go to the group's dead-letter queue).
    #[arg(long)]
    reject: bool,
    /// Release the messages as they are consumed (they are delivered again).
    #[arg(long)]
    release: bool,
    /// Formatter properties: print.key, print.value, print.timestamp, print.partition,
    /// print.offset, key.separator, line.separator.
    #[arg(long = "property", visible_alias = "formatter-property")]
    properties: Vec<String>,
    /// Consumer config properties file.
    #[arg(long = "command-config", visible_alias = "consumer-config")]
    command_config: Option<PathBuf>,
}

/// Runs the tool.
pub fn run(args: &Args) -> ExitCode {
    common::run::<Args, _>("kafka-console-share-consumer", run_async(args))
}

/// A topic partition by id.
type Tp = (Uuid, i32);

/// One share session with a leader.
#[derive(Debug, Default)]
struct Session {
    /// The epoch the next request carries (0: a new session).
    epoch: i32,
    /// The partitions it holds.
    partitions: BTreeSet<Tp>,
}

/// Acknowledgements waiting to be sent: per partition, offset -> type.
type Pending = BTreeMap<Tp, BTreeMap<i64, i8>>;

/// The share session epoch after `epoch`.
fn next_epoch(epoch: i32) -> i32 {
    if epoch == i32::MAX {
        1
    } else {
        epoch + 1
    }
}

/// Offsets with their types as batches of one type over consecutive offsets.
fn batches(acks: &BTreeMap<i64, i8>) -> Vec<(i64, i64, i8)> {
    let mut out: Vec<(i64, i64, i8)> = Vec::new();
    for (o, t) in acks {
        match out.last_mut() {
            Some((_, last, kind)) if *last + 1 == *o && kind == t => *last = *o,
            _ => out.push((*o, *o, *t)),
        }
    }
    out
}

/// The group member: its id, epoch, coordinator and assignment.
struct Member {
    group: String,
    id: String,
    epoch: i32,
    coordinator: Option<String>,
    assignment: BTreeSet<Tp>,
    interval: Duration,
    next_beat: Instant,
}

impl Member {
    /// One heartbeat (a join while the epoch is 0); FENCED or UNKNOWN_MEMBER_ID rejoin.
    async fn beat(&mut self, admin: &Admin, topic: &str) -> Result<(), ToolError> {
        let at = match &self.coordinator {
            Some(a) => a.clone(),
            None => match admin.group_coordinator(&self.group).await {
                Ok(a) => {
                    self.coordinator = Some(a.clone());
                    a
                }
                // The coordinator's topic may still be coming up: ask again shortly.
                Err(e) if e.is_retriable() => {
                    self.next_beat = Instant::now() + IDLE_PAUSE;
                    return Ok(());
                }
                Err(e) => return Err(e.into()),
            },
        };
        let r = admin
            .call_at(
                &at,
                RequestBody::ShareGroupHeartbeat(ShareGroupHeartbeatRequest {
                    group_id: self.group.clone(),
                    member_id: self.id.clone(),
                    member_epoch: self.epoch,
                    rack_id: None,
                    subscribed_topic_names: (self.epoch == 0).then(|| vec![topic.to_string()]),
                    ..Default::default()
                }),
                1..=1,
            )
            .await;
        let r = match r.and_then(|r| expect_response!(r, ShareGroupHeartbeat)) {
            Ok(r) => r,
            Err(e) if e.is_retriable() => {
                self.coordinator = None;
                self.next_beat = Instant::now() + IDLE_PAUSE;
                return Ok(());
            }
            Err(e) => return Err(e.into()),
        };
        match ErrorCode::from_code(r.error_code) {
            Some(ErrorCode::None) => {}
            Some(ErrorCode::FencedMemberEpoch | ErrorCode::UnknownMemberId) => {
                self.epoch = 0;
                self.next_beat = Instant::now();
                return Ok(());
            }
            Some(
                ErrorCode::NotCoordinator
                | ErrorCode::CoordinatorNotAvailable
                | ErrorCode::CoordinatorLoadInProgress,
            ) => {
                self.coordinator = None;
                self.next_beat = Instant::now() + IDLE_PAUSE;
                return Ok(());
            }
            _ => {
                return Err(ToolError::from_server(
                    AdminError::from_code(r.error_code, r.error_message.as_deref())
                        .unwrap_or_else(|| AdminError::Protocol("heartbeat".into())),
                ))
            }
        }
        self.epoch = r.member_epoch;
        if r.heartbeat_interval_ms > 0 {
            self.interval = Duration::from_millis(r.heartbeat_interval_ms as u64);
        }
        if let Some(a) = r.assignment {
            self.assignment = a
                .topic_partitions
                .iter()
                .flat_map(|t| t.partitions.iter().map(move |p| (t.topic_id, *p)))
                .collect();
        }
        // Until partitions are assigned (their share-partition state is being created), ask
        // again sooner than the interval.
        let wait = if self.assignment.is_empty() {
            self.interval.min(EMPTY_BEAT)
        } else {
            self.interval
        };
        self.next_beat = Instant::now() + wait;
        Ok(())
    }

    /// Leaves the group (epoch -1); a failure only means the session ends on its own.
    async fn leave(&mut self, admin: &Admin) {
        let Some(at) = self.coordinator.clone() else {
            return;
        };
        let _ = admin
            .call_at(
                &at,
                RequestBody::ShareGroupHeartbeat(ShareGroupHeartbeatRequest {
                    group_id: self.group.clone(),
                    member_id: self.id.clone(),
                    member_epoch: -1,
                    rack_id: None,
                    subscribed_topic_names: None,
                    ..Default::default()
                }),
                1..=1,
            )
            .await;
    }
}

async fn run_async(a: &Args) -> Result<(), ToolError> {
    let Some(topic) = a.topic.clone() else {
        return Err(ToolError::Usage(
            "Missing required argument \"[topic]\"".into(),
        ));
    };
    if a.reject && a.release {
        return Err(ToolError::Usage(
            "Option \"[reject]\" can't be used with option \"[release]\"".into(),
        ));
    }
    let admin = common::admin(
        a.bootstrap_server.as_deref(),
        None,
        a.command_config.as_deref(),
    )?;
    if a.bootstrap_server.is_none() {
        return Err(ToolError::Usage(
            "Missing required argument \"[bootstrap-server]\"".into(),
        ));
    }
    let format = Format::from(&properties(&a.properties, "--property")?);
    let ack_type: i8 = if a.reject {
        3
    } else if a.release {
        2
    } else {
        1
    };
    let id = {
        use base64::Engine;
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Uuid::new_v4().as_bytes())
    };
    let mut member = Member {
        group: a.group.clone(),
        id,
        epoch: 0,
        coordinator: None,
        assignment: BTreeSet::new(),
        interval: Duration::from_secs(5),
        next_beat: Instant::now(),
    };
    let mut sessions: BTreeMap<i32, Session> = BTreeMap::new();
    let mut pending: Pending = Pending::new();
    let mut printer = Printer {
        format,
        ack_type,
        max: crate::common::limit(a.max_messages),
        printed: 0,
        last_record: Instant::now(),
        out: Vec::new(),
    };
    let stdout = std::io::stdout();
    let timeout = crate::common::limit(a.timeout_ms).map(Duration::from_millis);
    'consume: loop {
        if printer.done() {
            break;
        }
        if timeout.is_some_and(|t| printer.last_record.elapsed() >= t) {
            break;
        }
        if Instant::now() >= member.next_beat {
            member.beat(&admin, &topic).await?;
        }
        if member.assignment.is_empty() {
            tokio::time::sleep_until((Instant::now() + IDLE_PAUSE).min(member.next_beat)).await;
            continue;
        }
        let cluster = admin
            .retry(|| admin.refresh(Some(std::slice::from_ref(&topic))))
            .await?;
        let Some(info) = cluster.topics.get(&topic) else {
            continue;
        };
        let by_leader = by_leader(info, &member.assignment);
        // Sessions with leaders that lead none of the assignment any more are closed.
        let gone: Vec<i32> = sessions
            .keys()
            .filter(|l| !by_leader.contains_key(l))
            .copied()
            .collect();
        for l in gone {
            if let Some(s) = sessions.remove(&l) {
                close(&admin, &member, l, &s, &mut pending).await;
            }
        }
        for (leader, wanted) in &by_leader {
            let s = sessions.entry(*leader).or_default();
            let new = s.epoch == 0;
            let request = fetch_request(&member, s, wanted, &pending);
            let answer = admin
                .call_broker(*leader, request, SHARE_VERSION..=SHARE_VERSION)
                .await
                .and_then(|r| expect_response!(r, ShareFetch));
            let r = match answer {
                Ok(r) if r.error_code == 0 => r,
                // A lost or refused session starts again; its acknowledgements wait.
                _ => {
                    sessions.remove(leader);
                    continue;
                }
            };
            if !new {
                for tp in wanted {
                    pending.remove(tp);
                }
            }
            s.partitions = wanted.clone();
            s.epoch = next_epoch(s.epoch);
            for t in &r.responses {
                for p in &t.partitions {
                    if p.error_code != 0 {
                        sessions.remove(leader);
                        break;
                    }
                    let acquired = printer.print(p);
                    if acquired.is_empty() {
                        continue;
                    }
                    pending
                        .entry((t.topic_id, p.partition_index))
                        .or_default()
                        .extend(acquired);
                }
            }
        }
        let out = std::mem::take(&mut printer.out);
        let mut lock = stdout.lock();
        if lock.write_all(&out).and_then(|()| lock.flush()).is_err() {
            break 'consume;
        }
    }
    for (leader, s) in std::mem::take(&mut sessions) {
        close(&admin, &member, leader, &s, &mut pending).await;
    }
    member.leave(&admin).await;
    eprintln!("Processed a total of {} messages", printer.printed);
    Ok(())
}

/// The assigned partitions of `info`'s topic by their leader (those without one left out).
fn by_leader(
    info: &fjord_admin::TopicInfo,
    assignment: &BTreeSet<Tp>,
) -> BTreeMap<i32, BTreeSet<Tp>> {
    let mut by_leader: BTreeMap<i32, BTreeSet<Tp>> = BTreeMap::new();
    for tp in assignment.iter().filter(|tp| tp.0 == info.id) {
        if let Some(p) = info.partitions.iter().find(|p| p.partition == tp.1) {
            if p.leader >= 0 {
                by_leader.entry(p.leader).or_default().insert(*tp);
            }
        }
    }
    by_leader
}

/// The ShareFetch of session `s` for the partitions it now `wanted`: a new session names them
/// all; a running one names those added (and forgets those gone), with the acknowledgements
/// pending for its partitions riding on it.
fn fetch_request(
    member: &Member,
    s: &Session,
    wanted: &BTreeSet<Tp>,
    pending: &Pending,
) -> RequestBody {
    let new = s.epoch == 0;
    let added: Vec<Tp> = if new {
        wanted.iter().copied().collect()
    } else {
        wanted.difference(&s.partitions).copied().collect()
    };
    let forgotten: Vec<Tp> = if new {
        Vec::new()
    } else {
        s.partitions.difference(wanted).copied().collect()
    };
    // Acknowledgements ride on the fetch, except in a new session's first one.
    let mut named: BTreeMap<Tp, Vec<AcknowledgementBatch>> = BTreeMap::new();
    for tp in &added {
        named.entry(*tp).or_default();
    }
    if !new {
        for (tp, acks) in pending.iter().filter(|(tp, _)| wanted.contains(tp)) {
            named
                .entry(*tp)
                .or_default()
                .extend(
                    batches(acks)
                        .into_iter()
                        .map(|(first, last, t)| AcknowledgementBatch {
                            first_offset: first,
                            last_offset: last,
                            acknowledge_types: vec![t],
                            ..Default::default()
                        }),
                );
        }
    }
    let mut topics: Vec<FetchTopic> = Vec::new();
    for ((t, p), acks) in named {
        let part = FetchPartition {
            partition_index: p,
            acknowledgement_batches: acks,
            ..Default::default()
        };
        match topics.last_mut() {
            Some(x) if x.topic_id == t => x.partitions.push(part),
            _ => topics.push(FetchTopic {
                topic_id: t,
                partitions: vec![part],
                ..Default::default()
            }),
        }
    }
    let mut forgotten_topics: Vec<ForgottenTopic> = Vec::new();
    for (t, p) in forgotten {
        match forgotten_topics.last_mut() {
            Some(x) if x.topic_id == t => x.partitions.push(p),
            _ => forgotten_topics.push(ForgottenTopic {
                topic_id: t,
                partitions: vec![p],
                ..Default::default()
            }),
        }
    }
    RequestBody::ShareFetch(ShareFetchRequest {
        group_id: Some(member.group.clone()),
        member_id: Some(member.id.clone()),
        share_session_epoch: s.epoch,
        max_wait_ms: FETCH_WAIT_MS,
        min_bytes: 1,
        max_bytes: FETCH_BYTES,
        max_records: FETCH_RECORDS,
        batch_size: FETCH_RECORDS,
        topics,
        forgotten_topics_data: forgotten_topics,
        ..Default::default()
    })
}

/// Prints the records a share fetch acquired, up to `--max-messages`.
struct Printer {
    format: Format,
    /// How a printed record is acknowledged (1 accept, 2 release, 3 reject).
    ack_type: i8,
    max: Option<u64>,
    printed: u64,
    last_record: Instant,
    out: Vec<u8>,
}

impl Printer {
    /// Whether `--max-messages` records were printed.
    fn done(&self) -> bool {
        self.max.is_some_and(|m| self.printed >= m)
    }

    /// Prints the records `p` acquired; returns each acquired offset's acknowledgement: the
    /// tool's type for a printed record, release for one beyond the limit, a gap (0) for an
    /// offset with no record.
    fn print(
        &mut self,
        p: &fjord_protocol::generated::share_fetch_response::PartitionData,
    ) -> BTreeMap<i64, i8> {
        let mut acquired: BTreeMap<i64, i8> = BTreeMap::new();
        for a in &p.acquired_records {
            for o in a.first_offset..=a.last_offset {
                acquired.insert(o, 0); // a gap unless a record is printed
            }
        }
        if acquired.is_empty() {
            return acquired;
        }
        let bytes = p
            .records
            .as_ref()
            .and_then(|r| r.to_bytes().ok())
            .unwrap_or_default();
        for batch in RecordBatches::new(bytes).map_while(Result::ok) {
            if batch.is_control() {
                continue;
            }
            let log_append =
                batch.timestamp_type() == fjord_protocol::records::TimestampType::LogAppendTime;
            let kind = if log_append {
                "LogAppendTime"
            } else {
                "CreateTime"
            };
            let Ok(records) = batch.records() else {
                continue;
            };
            for rec in records.map_while(Result::ok) {
                let offset = batch.base_offset() + i64::from(rec.offset_delta);
                let Some(slot) = acquired.get_mut(&offset) else {
                    continue;
                };
                if self.done() {
                    // Beyond the limit: given back for another consumer.
                    *slot = 2;
                    continue;
                }
                let ts = if log_append {
                    batch.max_timestamp()
                } else {
                    batch.base_timestamp() + rec.timestamp_delta
                };
                self.format.line(
                    &mut self.out,
                    Some((kind, ts)),
                    p.partition_index,
                    offset,
                    rec.key.as_deref(),
                    rec.value.as_deref(),
                );
                *slot = self.ack_type;
                self.printed += 1;
                self.last_record = Instant::now();
            }
        }
        acquired
    }
}

/// Closes a session (ShareAcknowledge at epoch -1) with the acknowledgements still pending
/// for its partitions.
async fn close(admin: &Admin, member: &Member, leader: i32, s: &Session, pending: &mut Pending) {
    if s.epoch == 0 {
        return;
    }
    let mut topics: Vec<AcknowledgeTopic> = Vec::new();
    for tp in &s.partitions {
        let Some(acks) = pending.remove(tp) else {
            continue;
        };
        let part = AcknowledgePartition {
            partition_index: tp.1,
            acknowledgement_batches: batches(&acks)
                .into_iter()
                .map(|(first, last, t)| AckBatch {
                    first_offset: first,
                    last_offset: last,
                    acknowledge_types: vec![t],
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        match topics.last_mut() {
            Some(x) if x.topic_id == tp.0 => x.partitions.push(part),
            _ => topics.push(AcknowledgeTopic {
                topic_id: tp.0,
                partitions: vec![part],
                ..Default::default()
            }),
        }
    }
    let _ = admin
        .call_broker(
            leader,
            RequestBody::ShareAcknowledge(ShareAcknowledgeRequest {
                group_id: Some(member.group.clone()),
                member_id: Some(member.id.clone()),
                share_session_epoch: -1,
                topics,
                ..Default::default()
            }),
            SHARE_VERSION..=SHARE_VERSION,
        )
        .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acknowledgements_go_as_runs_of_one_type() {
        let acks: BTreeMap<i64, i8> = [(1, 1), (2, 1), (3, 0), (4, 1), (6, 1)].into();
        assert_eq!(
            batches(&acks),
            vec![(1, 2, 1), (3, 3, 0), (4, 4, 1), (6, 6, 1)]
        );
    }
}
