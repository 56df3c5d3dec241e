//! Offsets committed inside a transaction (TxnOffsetCommit, KIP-98/447): written to
//! `__consumer_offsets` in the producer's transactional batch, held aside per producer, and
//! made the group's committed offsets only when the transaction's commit marker is written to
//! the partition (an abort marker drops them). Until then an OffsetFetch that requires stable
//! offsets gets UNSTABLE_OFFSET_COMMIT for those partitions.

use crate::group::{Committed, Group, GroupState};
use crate::offsets::OffsetCommit;
use crate::records::GroupRecord;
use crate::shard::{Output, RequestContext, Shard};
use fjord_protocol::generated::txn_offset_commit_request::TxnOffsetCommitRequest;
use fjord_protocol::generated::txn_offset_commit_response::{
    TxnOffsetCommitResponse, TxnOffsetCommitResponsePartition, TxnOffsetCommitResponseTopic,
};
use fjord_protocol::{ErrorCode, ResponseBody};

/// One offset waiting for its transaction: group, topic, partition, offset.
pub type PendingOffset = (String, String, i32, Committed);

/// The first TxnOffsetCommit version that may answer GROUP_ID_NOT_FOUND and
/// STALE_MEMBER_EPOCH (KIP-1319); before it Kafka answers both ILLEGAL_GENERATION.
pub const TXN_COMMIT_NEW_ERRORS_VERSION: i16 = 6;

/// A TxnOffsetCommit refusal at `version`, as Kafka 4.4 words it: a commit naming a
/// generation or epoch for a group that does not exist is GROUP_ID_NOT_FOUND from v6, and a
/// stale member epoch STALE_MEMBER_EPOCH from v6; both are ILLEGAL_GENERATION before.
fn txn_commit_error(code: ErrorCode, version: i16, group_exists: bool) -> ErrorCode {
    let new_errors = version >= TXN_COMMIT_NEW_ERRORS_VERSION;
    match code {
        ErrorCode::IllegalGeneration if !group_exists && new_errors => ErrorCode::GroupIdNotFound,
        ErrorCode::StaleMemberEpoch if !new_errors => ErrorCode::IllegalGeneration,
        other => other,
    }
}

impl Shard {
    /// TxnOffsetCommit from producer (`producer_id`, `producer_epoch`): the offsets are
    /// written in its transaction and wait for its marker. Member checks are OffsetCommit's.
    pub fn txn_commit_offsets(
        &mut self,
        ctx: &RequestContext,
        r: &TxnOffsetCommitRequest,
        unknown: &dyn Fn(&str, i32) -> bool,
        now: i64,
    ) -> Output {
        let mut out = Output {
            producer: Some((r.producer_id, r.producer_epoch)),
            ..Default::default()
        };
        let refused = match self.check_member_commit(
            &r.group_id,
            &r.member_id,
            r.group_instance_id.as_deref(),
            r.generation_id_or_member_epoch,
            true,
        ) {
            Err(code) => Some(txn_commit_error(
                code,
                ctx.version,
                self.groups.contains_key(&r.group_id) || self.consumer_group(&r.group_id).is_some(),
            )),
            Ok(()) if !self.groups.contains_key(&r.group_id) && !self.has_room() => {
                Some(ErrorCode::CoordinatorNotAvailable)
            }
            Ok(()) => None,
        };
        let mut response = TxnOffsetCommitResponse::default();
        for t in &r.topics {
            let mut topic = TxnOffsetCommitResponseTopic {
                name: t.name.clone(),
                ..Default::default()
            };
            for p in &t.partitions {
                let offset = OffsetCommit {
                    group: &r.group_id,
                    topic: &t.name,
                    partition: p.partition_index,
                    offset: p.committed_offset,
                    leader_epoch: p.committed_leader_epoch,
                    metadata: p.committed_metadata.as_deref(),
                    expire_timestamp: None,
                };
                let stale = self.streams_commit_partition(
                    &r.group_id,
                    &r.member_id,
                    r.generation_id_or_member_epoch,
                    &t.name,
                    p.partition_index,
                );
                let refused =
                    refused.or_else(|| stale.map(|c| txn_commit_error(c, ctx.version, true)));
                let code = match self.write_offset(&mut out, refused, unknown, offset, now) {
                    Err(code) => code,
                    Ok(committed) => {
                        self.pending.entry(r.producer_id).or_default().push((
                            r.group_id.clone(),
                            t.name.clone(),
                            p.partition_index,
                            committed,
                        ));
                        ErrorCode::None
                    }
                };
                topic.partitions.push(TxnOffsetCommitResponsePartition {
                    partition_index: p.partition_index,
                    error_code: code.code(),
                    ..Default::default()
                });
            }
            response.topics.push(topic);
        }
        out.reply(ctx.token, ResponseBody::TxnOffsetCommit(response));
        out
    }

    /// Folds an offset read from a transactional batch of `producer_id`.
    pub fn replay_pending(&mut self, producer_id: i64, record: GroupRecord) {
        if let GroupRecord::Offset {
            group,
            topic,
            partition,
            value: Some(v),
        } = record
        {
            self.pending.entry(producer_id).or_default().push((
                group,
                topic,
                partition,
                Committed::from_value(&v),
            ));
        }
    }

    /// A transaction marker of `producer_id` was written: its offsets become committed
    /// (commit) or are dropped (abort).
    pub fn complete_txn(&mut self, producer_id: i64, commit: bool, now: i64) {
        let Some(offsets) = self.pending.remove(&producer_id) else {
            return;
        };
        if !commit {
            return;
        }
        for (group, topic, partition, committed) in offsets {
            let g = self
                .groups
                .entry(group.clone())
                .or_insert_with(|| Group::new(&group, now));
            if g.state != GroupState::Dead {
                g.offsets.insert((topic, partition), committed);
            }
        }
    }

    /// Whether `group` has an offset for the partition waiting for its transaction.
    pub fn has_pending(&self, group: &str, topic: &str, partition: i32) -> bool {
        self.pending
            .values()
            .flatten()
            .any(|(g, t, p, _)| g.as_str() == group && t.as_str() == topic && *p == partition)
    }
}
