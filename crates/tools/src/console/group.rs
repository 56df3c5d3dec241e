//! The console consumer as a member of a consumer group (Kafka's classic protocol): it joins
//! with the "range" assignor, the leader among the members assigns the topic's partitions,
//! heartbeats keep it in, a rebalance commits and joins again, and it leaves on exit. Offsets
//! are committed with the generation and member id.

use crate::consumer_protocol::{assignment, assignment_bytes, subscribed_topics, subscription};
use fjord_admin::{expect_response, Admin, AdminError, GroupOffsets};
use fjord_protocol::generated::{
    heartbeat_request::HeartbeatRequest,
    join_group_request::{JoinGroupRequest, JoinGroupRequestProtocol},
    leave_group_request::{LeaveGroupRequest, MemberIdentity},
    sync_group_request::{SyncGroupRequest, SyncGroupRequestAssignment},
};
use fjord_protocol::{ErrorCode, RequestBody};
use std::collections::BTreeMap;
use std::time::Duration;
use tokio::time::Instant;

/// `session.timeout.ms` the member asks for (Kafka's consumer default is 45 s; a console
/// consumer that dies should free its partitions sooner).
const SESSION_TIMEOUT_MS: i32 = 10_000;
/// `max.poll.interval.ms`, the rebalance timeout.
const REBALANCE_TIMEOUT_MS: i32 = 30_000;
/// How often it heartbeats (a third of the session, as Kafka's default ratio).
const HEARTBEAT_INTERVAL: Duration = Duration::from_millis(3_000);
/// The assignor it offers.
const RANGE: &str = "range";

/// A joined member: its generation and the partitions of the topic it was given.
#[derive(Debug, Clone)]
pub struct Member {
    group: String,
    topic: String,
    member_id: String,
    generation: i32,
    /// The topic's partitions assigned to it.
    pub assigned: Vec<i32>,
    last_heartbeat: Instant,
}

/// Kafka's RangeAssignor for one topic: members in id order, each a contiguous range, the
/// first `partitions % members` one partition more.
pub fn range_assign(members: &[String], partitions: &[i32]) -> BTreeMap<String, Vec<i32>> {
    let mut members = members.to_vec();
    members.sort();
    let mut partitions = partitions.to_vec();
    partitions.sort_unstable();
    let mut out = BTreeMap::new();
    if members.is_empty() {
        return out;
    }
    let per = partitions.len() / members.len();
    let extra = partitions.len() % members.len();
    let mut next = 0;
    for (i, m) in members.iter().enumerate() {
        let n = per + usize::from(i < extra);
        out.insert(m.clone(), partitions[next..next + n].to_vec());
        next += n;
    }
    out
}

impl Member {
    /// Joins `group` for `topic` (whose partitions are `partitions`) and waits for an
    /// assignment, within `default.api.timeout.ms` plus the rebalance timeout; a join the
    /// coordinator bounces (a member id to use, a rebalance under way) is sent again.
    pub async fn join(
        admin: &Admin,
        group: &str,
        topic: &str,
        partitions: &[i32],
    ) -> Result<Member, AdminError> {
        let deadline = Instant::now()
            + admin.config().api_timeout
            + Duration::from_millis(REBALANCE_TIMEOUT_MS as u64);
        let mut member_id = String::new();
        loop {
            match Member::join_once(admin, group, topic, partitions, &mut member_id).await {
                Ok(m) => return Ok(m),
                Err(e) if Instant::now() < deadline && Member::rejoin(&e) => {
                    tokio::time::sleep(admin.config().retry_backoff).await
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Whether a failed join or sync is worth sending again.
    fn rejoin(e: &AdminError) -> bool {
        e.is_retriable()
            || matches!(
                e.code(),
                Some(
                    ErrorCode::MemberIdRequired
                        | ErrorCode::RebalanceInProgress
                        | ErrorCode::UnknownMemberId
                        | ErrorCode::IllegalGeneration
                )
            )
    }

    /// One JoinGroup and SyncGroup round.
    async fn join_once(
        admin: &Admin,
        group: &str,
        topic: &str,
        partitions: &[i32],
        member_id: &mut String,
    ) -> Result<Member, AdminError> {
        let join = JoinGroupRequest {
            group_id: group.to_string(),
            session_timeout_ms: SESSION_TIMEOUT_MS,
            rebalance_timeout_ms: REBALANCE_TIMEOUT_MS,
            member_id: member_id.clone(),
            protocol_type: "consumer".into(),
            protocols: vec![JoinGroupRequestProtocol {
                name: RANGE.into(),
                metadata: subscription(topic),
                ..Default::default()
            }],
            ..Default::default()
        };
        let r = admin
            .call_group(group, RequestBody::JoinGroup(join), 4..=9)
            .await?;
        let r = expect_response!(r, JoinGroup)?;
        match ErrorCode::from_code(r.error_code) {
            // KIP-394: the coordinator names the member id to join with.
            Some(ErrorCode::MemberIdRequired) => *member_id = r.member_id.clone(),
            Some(ErrorCode::UnknownMemberId) => member_id.clear(),
            _ => {}
        }
        if let Some(e) = AdminError::from_code(r.error_code, None) {
            return Err(e);
        }
        *member_id = r.member_id.clone();
        // The leader assigns, over every member that subscribed to this topic.
        let assignments = if r.leader == r.member_id {
            let subscribed: Vec<String> = r
                .members
                .iter()
                .filter(|m| subscribed_topics(&m.metadata).iter().any(|t| t == topic))
                .map(|m| m.member_id.clone())
                .collect();
            range_assign(&subscribed, partitions)
                .into_iter()
                .map(|(m, ps)| SyncGroupRequestAssignment {
                    member_id: m,
                    assignment: assignment_bytes(topic, &ps),
                    ..Default::default()
                })
                .collect()
        } else {
            Vec::new()
        };
        let sync = SyncGroupRequest {
            group_id: group.to_string(),
            generation_id: r.generation_id,
            member_id: r.member_id.clone(),
            protocol_type: Some("consumer".into()),
            protocol_name: Some(RANGE.into()),
            assignments,
            ..Default::default()
        };
        let s = admin
            .call_group(group, RequestBody::SyncGroup(sync), 5..=5)
            .await?;
        let s = expect_response!(s, SyncGroup)?;
        if let Some(e) = AdminError::from_code(s.error_code, None) {
            return Err(e);
        }
        let assigned = assignment(&s.assignment)
            .into_iter()
            .filter(|(t, _)| t == topic)
            .map(|(_, p)| p)
            .collect();
        Ok(Member {
            group: group.to_string(),
            topic: topic.to_string(),
            member_id: r.member_id,
            generation: r.generation_id,
            assigned,
            last_heartbeat: Instant::now(),
        })
    }

    /// Sends a heartbeat when one is due; true when the group is rebalancing (commit, then
    /// join again).
    pub async fn heartbeat(&mut self, admin: &Admin) -> Result<bool, AdminError> {
        if self.last_heartbeat.elapsed() < HEARTBEAT_INTERVAL {
            return Ok(false);
        }
        self.last_heartbeat = Instant::now();
        let r = admin
            .call_group(
                &self.group,
                RequestBody::Heartbeat(HeartbeatRequest {
                    group_id: self.group.clone(),
                    generation_id: self.generation,
                    member_id: self.member_id.clone(),
                    ..Default::default()
                }),
                0..=4,
            )
            .await?;
        let r = expect_response!(r, Heartbeat)?;
        match ErrorCode::from_code(r.error_code) {
            Some(ErrorCode::None) => Ok(false),
            Some(
                ErrorCode::RebalanceInProgress
                | ErrorCode::IllegalGeneration
                | ErrorCode::UnknownMemberId
                | ErrorCode::FencedInstanceId,
            ) => Ok(true),
            _ => Err(AdminError::from_code(r.error_code, None)
                .unwrap_or(AdminError::Protocol("heartbeat failed".into()))),
        }
    }

    /// Commits `positions` (partition to next offset) with this generation.
    pub async fn commit(
        &self,
        admin: &Admin,
        positions: &BTreeMap<i32, i64>,
    ) -> Result<(), AdminError> {
        let mine: GroupOffsets = positions
            .iter()
            .filter(|(p, _)| self.assigned.contains(p))
            .map(|(p, o)| ((self.topic.clone(), *p), *o))
            .collect();
        if mine.is_empty() {
            return Ok(());
        }
        admin
            .commit_group_offsets_as(&self.group, self.generation, &self.member_id, &mine)
            .await
    }

    /// Leaves the group, so the others are rebalanced at once.
    pub async fn leave(&self, admin: &Admin) -> Result<(), AdminError> {
        let r = admin
            .call_group(
                &self.group,
                RequestBody::LeaveGroup(LeaveGroupRequest {
                    group_id: self.group.clone(),
                    members: vec![MemberIdentity {
                        member_id: self.member_id.clone(),
                        reason: Some("the console consumer is closing".into()),
                        ..Default::default()
                    }],
                    ..Default::default()
                }),
                3..=5,
            )
            .await?;
        let r = expect_response!(r, LeaveGroup)?;
        AdminError::check(r.error_code, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_gives_the_first_members_the_extra_partitions() {
        let members = vec!["b".to_string(), "a".into(), "c".into()];
        let a = range_assign(&members, &[0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(a["a"], vec![0, 1, 2]);
        assert_eq!(a["b"], vec![3, 4]);
        assert_eq!(a["c"], vec![5, 6]);
        assert_eq!(range_assign(&["x".into()], &[1, 0])["x"], vec![0, 1]);
    }
}
