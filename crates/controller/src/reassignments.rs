//! Partition reassignment (KIP-455) at the controller. AlterPartitionReassignments starts,
//! replaces or cancels one; ListPartitionReassignments lists those under way; and
//! [`completion`] finishes one once every target replica is in the ISR (checked on every ISR
//! change, and at once when a reassignment starts). Every step is a PartitionChangeRecord
//! (replicas, adding, removing, ISR, leader), so a reassignment lives in the metadata log and
//! survives a controller failover; brokers follow the image (a new replica starts fetching, a
//! removed one stops and its log is deleted).

use crate::controller::{Controller, Handled};
use crate::elections::replica_active;
use fjord_metadata::{MetadataImage, PartitionRegistration};
use fjord_protocol::generated::{
    alter_partition_reassignments_request::AlterPartitionReassignmentsRequest,
    alter_partition_reassignments_response::{
        AlterPartitionReassignmentsResponse, ReassignablePartitionResponse,
        ReassignableTopicResponse,
    },
    list_partition_reassignments_request::ListPartitionReassignmentsRequest,
    list_partition_reassignments_response::{
        ListPartitionReassignmentsResponse, OngoingPartitionReassignment, OngoingTopicReassignment,
    },
    partition_change_record::PartitionChangeRecord,
};
use fjord_protocol::{ErrorCode, MetadataRecord, ResponseBody, Uuid};
use std::collections::BTreeSet;

/// The first AlterPartitionReassignments version with AllowReplicationFactorChange (KIP-860).
const RF_CHANGE_VERSION: i16 = 1;
/// The most partitions one AlterPartitionReassignments may name.
pub const MAX_REASSIGNMENTS_PER_REQUEST: usize = 10_000;

/// The members of `v` that are in `set`, in `v`'s order.
fn among(v: &[i32], set: &[i32]) -> Vec<i32> {
    v.iter().copied().filter(|r| set.contains(r)).collect()
}

/// The members of `v` that are not in `set`, in `v`'s order.
fn outside(v: &[i32], set: &[i32]) -> Vec<i32> {
    v.iter().copied().filter(|r| !set.contains(r)).collect()
}

/// Whether `p` is being reassigned.
pub fn in_progress(p: &PartitionRegistration) -> bool {
    !p.adding_replicas.is_empty() || !p.removing_replicas.is_empty()
}

/// The replicas a reassignment of `p` moves to (the replicas not being removed).
pub fn target(p: &PartitionRegistration) -> Vec<i32> {
    outside(&p.replicas, &p.removing_replicas)
}

/// The fields of a PartitionChangeRecord that finish `p`'s reassignment, when every target
/// replica is in the ISR: the replicas become the target, the removed replicas leave the ISR
/// and the ELRs, and a leader being removed hands over to the first target replica in the
/// ISR that is active (none: the partition waits leaderless, as Kafka's election leaves it).
/// `None` when there is nothing to finish yet.
pub fn completion(image: &MetadataImage, p: &PartitionRegistration) -> Option<Completion> {
    if !in_progress(p) {
        return None;
    }
    let target = target(p);
    if !target.iter().all(|r| p.isr.contains(r)) {
        return None;
    }
    let keep = |v: &[i32]| among(v, &target);
    let leader = if target.contains(&p.leader) {
        None
    } else {
        Some(
            target
                .iter()
                .copied()
                .find(|r| p.isr.contains(r) && replica_active(image, p, *r))
                .unwrap_or(fjord_metadata::partition::NO_LEADER),
        )
    };
    Some(Completion {
        isr: keep(&p.isr),
        elr: keep(&p.elr),
        last_known_elr: keep(&p.last_known_elr),
        replicas: target,
        leader,
    })
}

/// What finishing a reassignment changes ([`completion`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// The replicas: the target.
    pub replicas: Vec<i32>,
    /// The ISR without the removed replicas.
    pub isr: Vec<i32>,
    /// The ELR without them.
    pub elr: Vec<i32>,
    /// The last known ELR without them.
    pub last_known_elr: Vec<i32>,
    /// The new leader, when the leader was removed.
    pub leader: Option<i32>,
}

impl Completion {
    /// Writes the completion into `change`.
    pub fn apply_to(self, p: &PartitionRegistration, change: &mut PartitionChangeRecord) {
        change.replicas = Some(self.replicas);
        change.adding_replicas = Some(Vec::new());
        change.removing_replicas = Some(Vec::new());
        if change.isr.as_ref() != Some(&self.isr) {
            change.isr = Some(self.isr);
        }
        if self.elr != p.elr {
            change.eligible_leader_replicas = Some(self.elr);
        }
        if self.last_known_elr != p.last_known_elr {
            change.last_known_elr = Some(self.last_known_elr);
        }
        if let Some(leader) = self.leader {
            change.leader = leader;
        }
    }
}

/// Why a target is refused (INVALID_REPLICA_ASSIGNMENT, or INVALID_REPLICATION_FACTOR).
fn check_target(
    image: &MetadataImage,
    p: &PartitionRegistration,
    target: &[i32],
    allow_rf_change: bool,
) -> Result<(), (ErrorCode, String)> {
    let invalid = |m: String| Err((ErrorCode::InvalidReplicaAssignment, m));
    if target.is_empty() {
        return invalid("The manual partition assignment includes an empty replica list.".into());
    }
    let distinct: BTreeSet<i32> = target.iter().copied().collect();
    if distinct.len() != target.len() {
        return invalid("The manual partition assignment includes duplicate replicas.".into());
    }
    if let Some(b) = target
        .iter()
        .find(|b| !image.cluster.brokers.contains_key(b))
    {
        return invalid(format!(
            "The manual partition assignment includes broker {b}, but no such broker is \
             registered."
        ));
    }
    let rf = p.replicas.len() - p.removing_replicas.len();
    if !allow_rf_change && rf != target.len() {
        return Err((
            ErrorCode::InvalidReplicationFactor,
            format!(
                "The replication factor is changed from {rf} to {} but \
                 AllowReplicationFactorChange is false.",
                target.len()
            ),
        ));
    }
    Ok(())
}

impl Controller {
    /// AlterPartitionReassignments: per partition, a new target (or, with null replicas, a
    /// cancellation), each one PartitionChangeRecord; a target already in the ISR completes
    /// at once.
    pub(crate) fn alter_partition_reassignments(
        &mut self,
        r: &AlterPartitionReassignmentsRequest,
        version: i16,
    ) -> Handled {
        let allow_rf_change = version < RF_CHANGE_VERSION || r.allow_replication_factor_change;
        let asked: usize = r.topics.iter().map(|t| t.partitions.len()).sum();
        if asked > MAX_REASSIGNMENTS_PER_REQUEST {
            return Handled::Refuse {
                code: ErrorCode::PolicyViolation,
                message: format!(
                    "{asked} partitions in one request; at most {MAX_REASSIGNMENTS_PER_REQUEST}"
                ),
            };
        }
        let mut records = Vec::new();
        let mut responses = Vec::new();
        for t in &r.topics {
            let mut out = ReassignableTopicResponse {
                name: t.name.clone(),
                ..Default::default()
            };
            let topic = self.image.topics.get_by_name(&t.name).cloned();
            for rp in &t.partitions {
                let answer = match &topic {
                    None => Err((
                        ErrorCode::UnknownTopicOrPartition,
                        format!("Unable to find topic {}", t.name),
                    )),
                    Some(topic) => match topic.partitions.get(&rp.partition_index) {
                        None => Err((
                            ErrorCode::UnknownTopicOrPartition,
                            format!("Unable to find partition {}:{}", t.name, rp.partition_index),
                        )),
                        Some(p) => self.reassign(
                            topic.id,
                            rp.partition_index,
                            p,
                            rp.replicas.as_deref(),
                            allow_rf_change,
                        ),
                    },
                };
                let (code, message) = match answer {
                    Ok(change) => {
                        if let Some(change) = change {
                            records.push(MetadataRecord::PartitionChange(change));
                        }
                        (ErrorCode::None, None)
                    }
                    Err((code, message)) => (code, Some(message)),
                };
                out.partitions.push(ReassignablePartitionResponse {
                    partition_index: rp.partition_index,
                    error_code: code.code(),
                    error_message: message,
                    ..Default::default()
                });
            }
            responses.push(out);
        }
        self.write(
            records,
            ResponseBody::AlterPartitionReassignments(AlterPartitionReassignmentsResponse {
                allow_replication_factor_change: allow_rf_change,
                responses,
                ..Default::default()
            }),
        )
    }

    /// One partition's reassignment request: the change to record (None: nothing changes).
    fn reassign(
        &self,
        topic_id: Uuid,
        partition: i32,
        p: &PartitionRegistration,
        replicas: Option<&[i32]>,
        allow_rf_change: bool,
    ) -> Result<Option<PartitionChangeRecord>, (ErrorCode, String)> {
        let mut change = PartitionChangeRecord {
            topic_id,
            partition_id: partition,
            ..Default::default()
        };
        let Some(target) = replicas else {
            // Cancel: back to the replicas before the reassignment, ISR among them.
            if !in_progress(p) {
                return Err((
                    ErrorCode::NoReassignmentInProgress,
                    format!("No ongoing reassignment for {topic_id}:{partition}."),
                ));
            }
            let original = outside(&p.replicas, &p.adding_replicas);
            let isr = among(&p.isr, &original);
            if isr.is_empty() {
                return Err((
                    ErrorCode::InvalidReplicaAssignment,
                    format!(
                        "Unable to revert partition assignment for {topic_id}:{partition} \
                         because it would require an unclean leader election."
                    ),
                ));
            }
            if !original.contains(&p.leader) {
                change.leader = isr
                    .iter()
                    .copied()
                    .find(|r| replica_active(&self.image, p, *r))
                    .unwrap_or(fjord_metadata::partition::NO_LEADER);
            }
            let keep = |v: &[i32]| among(v, &original);
            if keep(&p.elr) != p.elr {
                change.eligible_leader_replicas = Some(keep(&p.elr));
            }
            if keep(&p.last_known_elr) != p.last_known_elr {
                change.last_known_elr = Some(keep(&p.last_known_elr));
            }
            change.replicas = Some(original);
            change.isr = Some(isr);
            change.adding_replicas = Some(Vec::new());
            change.removing_replicas = Some(Vec::new());
            return Ok(Some(change));
        };
        check_target(&self.image, p, target, allow_rf_change)?;
        // The current replicas include those a reassignment under way is adding: a new target
        // replaces it, and what it added but the new target leaves out is removed.
        let adding = outside(target, &p.replicas);
        let removing = outside(&p.replicas, target);
        let mut replicas = target.to_vec();
        replicas.extend(removing.iter().copied());
        if replicas == p.replicas && adding == p.adding_replicas && removing == p.removing_replicas
        {
            return Ok(None);
        }
        change.replicas = Some(replicas);
        change.adding_replicas = Some(adding);
        change.removing_replicas = Some(removing);
        // A target already in the ISR (a reordering, or a shrink) completes at once.
        let started = p.merge(&change);
        if let Some(done) = completion(&self.image, &started) {
            done.apply_to(&started, &mut change);
        }
        Ok(Some(change))
    }

    /// ListPartitionReassignments: the partitions being reassigned, of the topics asked (all
    /// when null).
    pub(crate) fn list_partition_reassignments(
        &self,
        r: &ListPartitionReassignmentsRequest,
    ) -> Handled {
        let mut out = ListPartitionReassignmentsResponse::default();
        let asked: Vec<(String, Option<Vec<i32>>)> = match &r.topics {
            Some(topics) => topics
                .iter()
                .map(|t| (t.name.clone(), Some(t.partition_indexes.clone())))
                .collect(),
            None => {
                let mut names: Vec<String> = self
                    .image
                    .topics
                    .by_id
                    .values()
                    .map(|t| t.name.clone())
                    .collect();
                names.sort();
                names.into_iter().map(|n| (n, None)).collect()
            }
        };
        for (name, indexes) in asked {
            let Some(topic) = self.image.topics.get_by_name(&name) else {
                out.error_code = ErrorCode::UnknownTopicOrPartition.code();
                out.error_message = Some(format!("Unable to find topic {name}"));
                out.topics.clear();
                return Handled::Reply(ResponseBody::ListPartitionReassignments(out));
            };
            let partitions: Vec<OngoingPartitionReassignment> = topic
                .partitions
                .iter()
                .filter(|(i, p)| in_progress(p) && indexes.as_ref().is_none_or(|x| x.contains(i)))
                .map(|(i, p)| OngoingPartitionReassignment {
                    partition_index: *i,
                    replicas: p.replicas.clone(),
                    adding_replicas: p.adding_replicas.clone(),
                    removing_replicas: p.removing_replicas.clone(),
                    ..Default::default()
                })
                .collect();
            if !partitions.is_empty() {
                out.topics.push(OngoingTopicReassignment {
                    name,
                    partitions,
                    ..Default::default()
                });
            }
        }
        Handled::Reply(ResponseBody::ListPartitionReassignments(out))
    }
}
