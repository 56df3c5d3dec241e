//! One partition's registration (Kafka's PartitionRegistration): replicas and their
//! directories, ISR, ELR and last known ELR (KIP-966), leader, leader epoch, partition epoch
//! and leader recovery state, built from a PartitionRecord and merged with
//! PartitionChangeRecords exactly as Kafka merges them.

use fjord_protocol::generated::partition_change_record::PartitionChangeRecord;
use fjord_protocol::generated::partition_record::PartitionRecord;
use fjord_protocol::Uuid;

/// No leader (the partition is offline).
pub const NO_LEADER: i32 = -1;
/// In a PartitionChangeRecord: the leader does not change.
pub const NO_LEADER_CHANGE: i32 = -2;

/// Whether the leader's log may be missing committed data (after an unclean election).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LeaderRecoveryState {
    /// The leader holds every committed record.
    Recovered,
    /// The leader was elected uncleanly and is recovering.
    Recovering,
}

impl LeaderRecoveryState {
    /// The wire value.
    pub fn value(self) -> i8 {
        match self {
            LeaderRecoveryState::Recovered => 0,
            LeaderRecoveryState::Recovering => 1,
        }
    }

    /// From the wire value (unknown values read as recovered, as Kafka's does for 0).
    pub fn of(v: i8) -> LeaderRecoveryState {
        if v == 1 {
            LeaderRecoveryState::Recovering
        } else {
            LeaderRecoveryState::Recovered
        }
    }
}

/// A partition's state.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PartitionRegistration {
    /// The replicas, preferred leader first.
    pub replicas: Vec<i32>,
    /// The log directory of each replica (may be empty: unassigned).
    pub directories: Vec<Uuid>,
    /// The in-sync replicas.
    pub isr: Vec<i32>,
    /// Replicas being removed by a reassignment.
    pub removing_replicas: Vec<i32>,
    /// Replicas being added by a reassignment.
    pub adding_replicas: Vec<i32>,
    /// The eligible leader replicas (KIP-966).
    pub elr: Vec<i32>,
    /// The last known ELR members, kept when the ELR empties.
    pub last_known_elr: Vec<i32>,
    /// The leader, or [`NO_LEADER`].
    pub leader: i32,
    /// The leader recovery state.
    pub leader_recovery_state: LeaderRecoveryState,
    /// The leader epoch.
    pub leader_epoch: i32,
    /// The partition epoch (bumped by every change).
    pub partition_epoch: i32,
}

impl PartitionRegistration {
    /// From a PartitionRecord.
    pub fn from_record(r: &PartitionRecord) -> PartitionRegistration {
        PartitionRegistration {
            replicas: r.replicas.clone(),
            directories: r.directories.clone(),
            isr: r.isr.clone(),
            removing_replicas: r.removing_replicas.clone(),
            adding_replicas: r.adding_replicas.clone(),
            elr: r.eligible_leader_replicas.clone().unwrap_or_default(),
            last_known_elr: r.last_known_elr.clone().unwrap_or_default(),
            leader: r.leader,
            leader_recovery_state: LeaderRecoveryState::of(r.leader_recovery_state),
            leader_epoch: r.leader_epoch,
            partition_epoch: r.partition_epoch,
        }
    }

    /// The PartitionRecord that recreates this registration.
    pub fn to_record(&self, topic_id: Uuid, partition_id: i32) -> PartitionRecord {
        PartitionRecord {
            partition_id,
            topic_id,
            replicas: self.replicas.clone(),
            isr: self.isr.clone(),
            removing_replicas: self.removing_replicas.clone(),
            adding_replicas: self.adding_replicas.clone(),
            leader: self.leader,
            leader_recovery_state: self.leader_recovery_state.value(),
            leader_epoch: self.leader_epoch,
            partition_epoch: self.partition_epoch,
            directories: self.directories.clone(),
            eligible_leader_replicas: (!self.elr.is_empty()).then(|| self.elr.clone()),
            last_known_elr: (!self.last_known_elr.is_empty()).then(|| self.last_known_elr.clone()),
            ..Default::default()
        }
    }

    /// Applies a PartitionChangeRecord: null fields keep their value; a leader change bumps
    /// the leader epoch; every change bumps the partition epoch.
    pub fn merge(&self, r: &PartitionChangeRecord) -> PartitionRegistration {
        let replicas = r.replicas.clone().unwrap_or_else(|| self.replicas.clone());
        let directories = match (&r.directories, &r.replicas) {
            (Some(d), _) if !d.is_empty() => d.clone(),
            (_, Some(new)) if !self.directories.is_empty() => new
                .iter()
                .map(|id| {
                    self.replicas
                        .iter()
                        .position(|x| x == id)
                        .and_then(|i| self.directories.get(i).copied())
                        .unwrap_or_default()
                })
                .collect(),
            _ => self.directories.clone(),
        };
        let (leader, leader_epoch) = if r.leader == NO_LEADER_CHANGE {
            (self.leader, self.leader_epoch)
        } else {
            (r.leader, self.leader_epoch + 1)
        };
        let leader_recovery_state = if r.leader_recovery_state < 0 {
            self.leader_recovery_state
        } else {
            LeaderRecoveryState::of(r.leader_recovery_state)
        };
        PartitionRegistration {
            replicas,
            directories,
            isr: r.isr.clone().unwrap_or_else(|| self.isr.clone()),
            removing_replicas: r
                .removing_replicas
                .clone()
                .unwrap_or_else(|| self.removing_replicas.clone()),
            adding_replicas: r
                .adding_replicas
                .clone()
                .unwrap_or_else(|| self.adding_replicas.clone()),
            elr: r
                .eligible_leader_replicas
                .clone()
                .unwrap_or_else(|| self.elr.clone()),
            last_known_elr: r
                .last_known_elr
                .clone()
                .unwrap_or_else(|| self.last_known_elr.clone()),
            leader,
            leader_recovery_state,
            leader_epoch,
            partition_epoch: self.partition_epoch + 1,
        }
    }

    /// True when the partition has a leader.
    pub fn has_leader(&self) -> bool {
        self.leader != NO_LEADER
    }

    /// The preferred leader: the first replica.
    pub fn preferred_replica(&self) -> i32 {
        self.replicas.first().copied().unwrap_or(NO_LEADER)
    }
}
