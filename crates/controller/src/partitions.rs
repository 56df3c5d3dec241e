//! Partition changes requested from outside: AlterPartition from a partition's leader (ISR
//! changes checked against the leader and partition epochs, as Kafka does; one that brings a
//! reassignment's last target replica into the ISR completes it) and ElectLeaders
//! v0-v3 (PREFERRED, UNCLEAN, DESIGNATED; v3's 1000-partition limit).

use crate::controller::{Controller, Handled};
use crate::elections::{
    effective_min_isr, elect, replica_active, Designated, Election, ElectionType,
};
use fjord_protocol::generated::{
    alter_partition_request::AlterPartitionRequest,
    alter_partition_response::{self as apr, AlterPartitionResponse},
    elect_leaders_request::ElectLeadersRequest,
    elect_leaders_response::{ElectLeadersResponse, PartitionResult, ReplicaElectionResult},
    partition_change_record::PartitionChangeRecord,
};
use fjord_protocol::{ErrorCode, MetadataRecord, ResponseBody};
use std::collections::BTreeMap;

impl Controller {
    /// AlterPartition.
    pub(crate) fn alter_partition(&mut self, r: &AlterPartitionRequest, version: i16) -> Handled {
        let broker_ok = self
            .image
            .cluster
            .brokers
            .get(&r.broker_id)
            .is_some_and(|b| b.epoch == r.broker_epoch || r.broker_epoch == -1);
        if !broker_ok {
            return Handled::Reply(ResponseBody::AlterPartition(AlterPartitionResponse {
                error_code: ErrorCode::StaleBrokerEpoch.code(),
                ..Default::default()
            }));
        }
        let mut topics = Vec::new();
        let mut records = Vec::new();
        for t in &r.topics {
            let mut out = apr::TopicData {
                topic_id: t.topic_id,
                ..Default::default()
            };
            let topic = self.image.topics.by_id.get(&t.topic_id).cloned();
            for p in &t.partitions {
                let mut res = apr::PartitionData {
                    partition_index: p.partition_index,
                    ..Default::default()
                };
                let Some(topic) = &topic else {
                    res.error_code = ErrorCode::UnknownTopicId.code();
                    out.partitions.push(res);
                    continue;
                };
                let Some(cur) = topic.partitions.get(&p.partition_index) else {
                    res.error_code = ErrorCode::UnknownTopicOrPartition.code();
                    out.partitions.push(res);
                    continue;
                };
                let new_isr: Vec<i32> = if version >= 3 {
                    p.new_isr_with_epochs.iter().map(|b| b.broker_id).collect()
                } else {
                    p.new_isr.clone()
                };
                let code = if cur.leader != r.broker_id {
                    ErrorCode::NotLeaderOrFollower
                } else if p.leader_epoch < cur.leader_epoch {
                    ErrorCode::FencedLeaderEpoch
                } else if p.leader_epoch > cur.leader_epoch {
                    ErrorCode::NotLeaderOrFollower
                } else if p.partition_epoch != cur.partition_epoch {
                    ErrorCode::InvalidUpdateVersion
                } else if new_isr.iter().any(|b| !cur.replicas.contains(b))
                    || !new_isr.contains(&r.broker_id)
                {
                    ErrorCode::InvalidRequest
                } else if new_isr
                    .iter()
                    .any(|b| !cur.isr.contains(b) && !replica_active(&self.image, cur, *b))
                    || (version >= 3
                        && p.new_isr_with_epochs.iter().any(|b| {
                            b.broker_epoch != -1
                                && self
                                    .image
                                    .cluster
                                    .brokers
                                    .get(&b.broker_id)
                                    .is_none_or(|x| x.epoch != b.broker_epoch)
                        }))
                {
                    ErrorCode::IneligibleReplica
                } else {
                    ErrorCode::None
                };
                if code != ErrorCode::None {
                    res.error_code = code.code();
                    out.partitions.push(res);
                    continue;
                }
                // ELR (KIP-966): members the ISR loses while below min ISR join it; a full ISR
                // clears it.
                let min_isr =
                    effective_min_isr(&self.settings, &self.image, &topic.name, cur.replicas.len());
                let mut elr: Vec<i32> = cur
                    .elr
                    .iter()
                    .copied()
                    .filter(|b| !new_isr.contains(b))
                    .collect();
                if new_isr.len() < min_isr {
                    for b in cur.isr.iter().filter(|b| !new_isr.contains(b)) {
                        if !elr.contains(b) {
                            elr.push(*b);
                        }
                    }
                }
                let mut last_known = cur.last_known_elr.clone();
                if new_isr.len() >= min_isr {
                    elr.clear();
                    last_known.clear();
                }
                let mut change = PartitionChangeRecord {
                    partition_id: p.partition_index,
                    topic_id: t.topic_id,
                    isr: Some(new_isr.clone()),
                    ..Default::default()
                };
                if elr != cur.elr {
                    change.eligible_leader_replicas = Some(elr);
                }
                if last_known != cur.last_known_elr {
                    change.last_known_elr = Some(last_known);
                }
                if p.leader_recovery_state >= 0
                    && p.leader_recovery_state != cur.leader_recovery_state.value()
                {
                    change.leader_recovery_state = p.leader_recovery_state;
                }
                // A reassignment whose target replicas are all in the ISR now completes.
                let isr_changed = cur.merge(&change);
                if let Some(done) = crate::reassignments::completion(&self.image, &isr_changed) {
                    done.apply_to(&isr_changed, &mut change);
                }
                let merged = cur.merge(&change);
                res.leader_id = merged.leader;
                res.leader_epoch = merged.leader_epoch;
                res.isr = merged.isr.clone();
                res.leader_recovery_state = merged.leader_recovery_state.value();
                res.partition_epoch = merged.partition_epoch;
                records.push(MetadataRecord::PartitionChange(change));
                out.partitions.push(res);
            }
            topics.push(out);
        }
        self.write(
            records,
            ResponseBody::AlterPartition(AlterPartitionResponse {
                topics,
                ..Default::default()
            }),
        )
    }

    /// ElectLeaders v0-v3.
    pub(crate) fn elect_leaders(&mut self, r: &ElectLeadersRequest, version: i16) -> Handled {
        let kind = match ElectionType::from_wire(r.election_type) {
            Some(ElectionType::Designated) if version < 3 => None,
            k => k,
        };
        let Some(kind) = kind else {
            return Handled::Reply(ResponseBody::ElectLeaders(ElectLeadersResponse {
                error_code: ErrorCode::InvalidRequest.code(),
                ..Default::default()
            }));
        };
        // The partitions asked for, with each one's designated leader; all partitions when null.
        let mut asked: Vec<(String, i32, Result<Option<i32>, String>)> = Vec::new();
        let all = r.topic_partitions.is_none();
        match &r.topic_partitions {
            Some(tps) => {
                for tp in tps {
                    let bad_designation = kind == ElectionType::Designated
                        && tp
                            .designated_leaders
                            .as_ref()
                            .is_none_or(|d| d.len() != tp.partitions.len());
                    for (i, p) in tp.partitions.iter().enumerate() {
                        let d = if bad_designation {
                            Err(format!(
                                "DesignatedLeaders must be given, one per partition, for topic {}",
                                tp.topic
                            ))
                        } else {
                            Ok(tp
                                .designated_leaders
                                .as_ref()
                                .and_then(|d| d.get(i).copied()))
                        };
                        asked.push((tp.topic.clone(), *p, d));
                    }
                }
            }
            None => {
                for t in self.image.topics.by_id.values() {
                    for p in t.partitions.keys() {
                        asked.push((t.name.clone(), *p, Ok(None)));
                    }
                }
            }
        }
        // The per-request limit is DESIGNATED's alone (docs/EXTENSIONS.md): PREFERRED and
        // UNCLEAN elections in v3 behave as in v2, every partition included.
        let limit = if kind == ElectionType::Designated {
            self.settings.max_election_partitions
        } else {
            usize::MAX
        };
        let mut results: BTreeMap<String, Vec<PartitionResult>> = BTreeMap::new();
        let mut records = Vec::new();
        for (n, (topic, partition, designated)) in asked.into_iter().enumerate() {
            let mut res = PartitionResult {
                partition_id: partition,
                ..Default::default()
            };
            let outcome: Result<(), (ErrorCode, String)> = (|| {
                if n >= limit {
                    return Err((
                        ErrorCode::RequestLimitReached,
                        format!(
                            "Only {limit} partitions are served per request; send the rest again."
                        ),
                    ));
                }
                let designated = designated.map_err(|m| (ErrorCode::InvalidRequest, m))?;
                let t = self
                    .image
                    .topics
                    .get_by_name(&topic)
                    .cloned()
                    .ok_or_else(|| {
                        (
                            ErrorCode::UnknownTopicOrPartition,
                            "This server does not host this topic-partition.".to_string(),
                        )
                    })?;
                let p = t.partitions.get(&partition).ok_or_else(|| {
                    (
                        ErrorCode::UnknownTopicOrPartition,
                        "This server does not host this topic-partition.".to_string(),
                    )
                })?;
                let designated = designated.map(|d| Designated {
                    broker: d,
                    offline_dirs: self.offline_dirs.get(&d).cloned().unwrap_or_default(),
                });
                let (change, election) = elect(
                    &self.image,
                    &self.settings,
                    &t.name,
                    t.id,
                    partition,
                    p,
                    kind,
                    designated,
                )
                .map_err(|e| (e.code, e.message))?;
                let rec = vec![MetadataRecord::PartitionChange(change)];
                self.apply(&rec)
                    .map_err(|e| (ErrorCode::UnknownServerError, e.to_string()))?;
                match election {
                    e if e.is_unclean() => self.counters.unclean_elections += 1,
                    Election::FromElr => self.counters.elr_elections += 1,
                    _ => {}
                }
                if kind == ElectionType::Designated && election == Election::Unclean {
                    self.counters.designated_elections += 1;
                }
                records.extend(rec);
                Ok(())
            })();
            match outcome {
                Ok(()) => {}
                // With no partitions named, Kafka leaves out those that needed no election.
                Err((ErrorCode::ElectionNotNeeded, _)) if all => continue,
                Err((code, message)) => {
                    res.error_code = code.code();
                    res.error_message = Some(message);
                }
            }
            results.entry(topic).or_default().push(res);
        }
        let response = ResponseBody::ElectLeaders(ElectLeadersResponse {
            replica_election_results: results
                .into_iter()
                .map(|(topic, partition_result)| ReplicaElectionResult {
                    topic,
                    partition_result,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        });
        // The records are already in the working image (each election saw the ones before).
        if records.is_empty() {
            Handled::Reply(response)
        } else {
            Handled::Write { records, response }
        }
    }
}
