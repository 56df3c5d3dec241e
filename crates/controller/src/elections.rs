//! Leader election and ISR/ELR upkeep for one partition, as Kafka's PartitionChangeBuilder
//! does it with KIP-966 part 1: unavailable replicas (a fenced or shutting-down broker, or a
//! replica whose log dir is offline, KIP-858) leave the ISR; while the ISR is below the
//! effective min ISR the members it loses join the ELR (cleared once the ISR is back at min
//! ISR); a leader comes from the ISR, else the ELR, else, for a single-replica partition, that
//! replica back from an unclean shutdown (Kafka's last-known-leader election), else (only when
//! unclean election is enabled) any live replica; the last two leave the partition RECOVERING. No eligible leader: the
//! partition is offline (leader -1). Also ElectLeaders' PREFERRED, UNCLEAN and DESIGNATED
//! elections (docs/EXTENSIONS.md).

use crate::error::ControllerError;
use crate::settings::ControllerSettings;
use fjord_metadata::partition::{NO_LEADER, NO_LEADER_CHANGE};
use fjord_metadata::version::MetadataVersion;
use fjord_metadata::{LeaderRecoveryState, MetadataImage, PartitionRegistration};
use fjord_protocol::generated::partition_change_record::PartitionChangeRecord;
use fjord_protocol::{ErrorCode, Uuid};

/// ElectLeaders' election types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElectionType {
    /// Move leadership to the preferred replica (0).
    Preferred,
    /// Elect a leader for a leaderless partition, uncleanly if need be (1).
    Unclean,
    /// Make a chosen replica the leader of a leaderless partition (2, fjord's extension).
    Designated,
}

impl ElectionType {
    /// From the wire value.
    pub fn from_wire(v: i8) -> Option<ElectionType> {
        match v {
            0 => Some(ElectionType::Preferred),
            1 => Some(ElectionType::Unclean),
            2 => Some(ElectionType::Designated),
            _ => None,
        }
    }
}

/// How a leader was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Election {
    /// No leader change.
    None,
    /// From the ISR.
    Clean,
    /// From the ELR.
    FromElr,
    /// Outside ISR and ELR: data may be lost.
    Unclean,
    /// A single-replica partition's replica, back after an unclean shutdown (last known ELR).
    LastKnown,
}

impl Election {
    /// Whether it counts in the unclean-election metrics (data another replica held may be
    /// gone).
    pub fn is_unclean(self) -> bool {
        matches!(self, Election::Unclean | Election::LastKnown)
    }
}

/// The partition's only replica, when it is the last known ELR (it left the ELR because its
/// broker shut down uncleanly), is active again, and the ISR and ELR are empty: Kafka's
/// `canElectLastKnownLeader`, kept to the case where no other replica could hold data it
/// lacks.
fn sole_replica_back(
    elr_enabled: bool,
    p: &PartitionRegistration,
    elr: &[i32],
    last_known_elr: &[i32],
    active: impl Fn(&i32) -> bool,
) -> Option<i32> {
    match (last_known_elr, p.replicas.as_slice()) {
        ([l], [only]) if l == only && elr_enabled && elr.is_empty() && active(l) => Some(*l),
        _ => None,
    }
}

/// Whether a broker may lead or stay in the ISR: registered, unfenced, not shutting down.
pub fn is_active(image: &MetadataImage, id: i32) -> bool {
    image
        .cluster
        .brokers
        .get(&id)
        .is_some_and(|b| !b.fenced && !b.in_controlled_shutdown)
}

/// Whether the log dir `p`'s replica on broker `id` is assigned to is online (KIP-858): an
/// unassigned replica (nil) counts as online, as do the replicas of a broker that registered
/// no dirs; otherwise the dir must be among the broker's registered, online dirs (a dir its
/// heartbeat reports offline is taken out of its registration).
pub fn replica_dir_online(image: &MetadataImage, p: &PartitionRegistration, id: i32) -> bool {
    let Some(b) = image.cluster.brokers.get(&id) else {
        return false;
    };
    let dir = p
        .replicas
        .iter()
        .position(|r| *r == id)
        .and_then(|i| p.directories.get(i))
        .copied()
        .unwrap_or_else(Uuid::nil);
    dir.is_nil() || b.log_dirs.is_empty() || b.log_dirs.contains(&dir)
}

/// Whether `p`'s replica on broker `id` may lead or stay in the ISR: its broker is active and
/// its log dir online.
pub fn replica_active(image: &MetadataImage, p: &PartitionRegistration, id: i32) -> bool {
    is_active(image, id) && replica_dir_online(image, p, id)
}

/// The effective min ISR: `min.insync.replicas`, at most the replication factor.
pub fn effective_min_isr(
    settings: &ControllerSettings,
    image: &MetadataImage,
    topic: &str,
    rf: usize,
) -> usize {
    (settings.min_isr(image, topic).max(1) as usize).min(rf.max(1))
}

/// The change (if any) a partition needs given which brokers are active now, and how its
/// leader was chosen. `allow_unclean` permits a leader from outside the ISR and ELR (the
/// topic's `unclean.leader.election.enable`, or an UNCLEAN election).
pub fn upkeep(
    image: &MetadataImage,
    settings: &ControllerSettings,
    topic: &str,
    topic_id: Uuid,
    partition: i32,
    p: &PartitionRegistration,
    allow_unclean: bool,
) -> Option<(PartitionChangeRecord, Election)> {
    let min_isr = effective_min_isr(settings, image, topic, p.replicas.len());
    // Without `eligible.leader.replicas.version` 1 (which needs KIP-966's metadata.version)
    // there is no ELR: the ISR never shrinks to empty.
    let elr_enabled = image.features.elr_enabled()
        && MetadataVersion::of(image.features.metadata_version())
            .has(MetadataVersion::ELIGIBLE_LEADER_REPLICAS);
    let active = |id: &i32| replica_active(image, p, *id);
    let mut isr: Vec<i32> = p.isr.iter().copied().filter(active).collect();
    let removed: Vec<i32> = p.isr.iter().copied().filter(|r| !isr.contains(r)).collect();
    let mut elr = p.elr.clone();
    let mut last_known_elr = p.last_known_elr.clone();
    if isr.len() < min_isr && elr_enabled {
        for r in removed {
            if !elr.contains(&r) {
                elr.push(r);
            }
        }
    }
    let mut leader = p.leader;
    let mut recovery = p.leader_recovery_state;
    let mut election = Election::None;
    if !(isr.contains(&leader) && active(&leader)) {
        if let Some(l) = isr.first().copied() {
            leader = l;
            election = Election::Clean;
        } else if let Some(l) = elr.iter().copied().find(active) {
            leader = l;
            isr = vec![l];
            election = Election::FromElr;
        } else if let Some(l) = sole_replica_back(elr_enabled, p, &elr, &last_known_elr, active) {
            // Kafka 4's last-known-leader election, for a partition with one replica only (a
            // single node after a crash): there is nothing to choose between and nothing any
            // other replica could hold. With more replicas the choice is
            // kafka-unclean-recovery's, which compares their logs first. It leads in
            // RECOVERING, like an unclean election.
            leader = l;
            isr = vec![l];
            last_known_elr.clear();
            recovery = LeaderRecoveryState::Recovering;
            election = Election::LastKnown;
        } else if allow_unclean {
            match p.replicas.iter().copied().find(active) {
                Some(l) => {
                    leader = l;
                    isr = vec![l];
                    if !elr.is_empty() {
                        last_known_elr = std::mem::take(&mut elr);
                    }
                    recovery = LeaderRecoveryState::Recovering;
                    election = Election::Unclean;
                }
                None => leader = NO_LEADER,
            }
        } else {
            leader = NO_LEADER;
        }
    }
    elr.retain(|r| !isr.contains(r));
    if isr.len() >= min_isr {
        elr.clear();
        last_known_elr.clear();
    }
    if !elr_enabled {
        elr.clear();
        last_known_elr.clear();
        if isr.is_empty() {
            // The last members stay in the ISR, so one of them can lead cleanly on return;
            // after ELR was turned off, the eligible replicas are those members.
            isr = if p.isr.is_empty() {
                p.elr.clone()
            } else {
                p.isr.clone()
            };
        }
    }
    change_record(
        topic_id,
        partition,
        p,
        leader,
        isr,
        elr,
        last_known_elr,
        recovery,
    )
    .map(|r| (r, election))
}

/// The record turning `p` into the given state, or `None` when nothing changes.
#[allow(clippy::too_many_arguments)]
fn change_record(
    topic_id: Uuid,
    partition: i32,
    p: &PartitionRegistration,
    leader: i32,
    isr: Vec<i32>,
    elr: Vec<i32>,
    last_known_elr: Vec<i32>,
    recovery: LeaderRecoveryState,
) -> Option<PartitionChangeRecord> {
    let mut r = PartitionChangeRecord {
        partition_id: partition,
        topic_id,
        ..Default::default()
    };
    let mut changed = false;
    if leader != p.leader {
        r.leader = leader;
        changed = true;
    } else {
        r.leader = NO_LEADER_CHANGE;
    }
    if isr != p.isr {
        r.isr = Some(isr);
        changed = true;
    }
    if elr != p.elr {
        r.eligible_leader_replicas = Some(elr);
        changed = true;
    }
    if last_known_elr != p.last_known_elr {
        r.last_known_elr = Some(last_known_elr);
        changed = true;
    }
    if recovery != p.leader_recovery_state {
        r.leader_recovery_state = recovery.value();
        changed = true;
    }
    changed.then_some(r)
}

/// The outcome of an ElectLeaders election for one partition.
pub type ElectionResult = Result<(PartitionChangeRecord, Election), ControllerError>;

/// Why a replica's log dir is not online, if it is not: an assigned dir must be among the
/// dirs the broker registered (when it registered any) and not among those its latest
/// heartbeat reported offline; an unassigned one is online only while the broker reports no
/// offline dir.
fn replica_dir_offline(dir: Option<Uuid>, registered: &[Uuid], offline: &[Uuid]) -> Option<String> {
    match dir {
        Some(dir) if offline.contains(&dir) => Some(format!(
            "the log dir {dir} of its replica is offline (its last heartbeat says so)"
        )),
        Some(dir) if !registered.is_empty() && !registered.contains(&dir) => Some(format!(
            "the log dir {dir} of its replica is not among the dirs it registered"
        )),
        None if !offline.is_empty() => Some(format!(
            "its replica's log dir is not assigned and the broker reports offline log dirs {offline:?}"
        )),
        _ => None,
    }
}

/// The broker a DESIGNATED election names, with the log dirs its latest heartbeat reported
/// offline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Designated {
    /// The broker.
    pub broker: i32,
    /// Its offline log dirs.
    pub offline_dirs: Vec<Uuid>,
}

/// An ElectLeaders election for one partition (`designated` for DESIGNATED).
#[allow(clippy::too_many_arguments)]
pub fn elect(
    image: &MetadataImage,
    settings: &ControllerSettings,
    topic: &str,
    topic_id: Uuid,
    partition: i32,
    p: &PartitionRegistration,
    kind: ElectionType,
    designated: Option<Designated>,
) -> ElectionResult {
    let tp = format!("{topic}-{partition}");
    let active = |id: i32| replica_active(image, p, id);
    match kind {
        ElectionType::Preferred => {
            let preferred = p.preferred_replica();
            if p.leader == preferred {
                return Err(ControllerError::new(
                    ErrorCode::ElectionNotNeeded,
                    format!("Leader election not needed for topic partition {tp}"),
                ));
            }
            if !(active(preferred) && p.isr.contains(&preferred)) {
                return Err(ControllerError::new(
                    ErrorCode::PreferredLeaderNotAvailable,
                    format!(
                        "Failed to elect leader for partition {tp} under strategy \
                         PreferredReplicaPartitionLeaderElectionStrategy"
                    ),
                ));
            }
            let r = change_record(
                topic_id,
                partition,
                p,
                preferred,
                p.isr.clone(),
                p.elr.clone(),
                p.last_known_elr.clone(),
                p.leader_recovery_state,
            )
            .expect("the leader changes");
            Ok((r, Election::Clean))
        }
        ElectionType::Unclean => {
            if p.has_leader() && active(p.leader) {
                return Err(ControllerError::new(
                    ErrorCode::ElectionNotNeeded,
                    format!("Leader election not needed for topic partition {tp}"),
                ));
            }
            // Clean choices first; then any live replica (the operator asked for it).
            match upkeep(image, settings, topic, topic_id, partition, p, true) {
                Some((r, e)) if r.leader != NO_LEADER_CHANGE && r.leader != NO_LEADER => Ok((r, e)),
                _ => Err(ControllerError::new(
                    ErrorCode::EligibleLeadersNotAvailable,
                    format!(
                        "Failed to elect leader for partition {tp} under strategy \
                         UncleanPartitionLeaderElectionStrategy: no live replica"
                    ),
                )),
            }
        }
        ElectionType::Designated => {
            let Some(Designated {
                broker: d,
                offline_dirs,
            }) = designated
            else {
                return Err(ControllerError::new(
                    ErrorCode::InvalidRequest,
                    format!("No designated leader for {tp}"),
                ));
            };
            if p.has_leader() {
                return Err(ControllerError::new(
                    ErrorCode::ElectionNotNeeded,
                    format!(
                        "Partition {tp} has a leader ({}); a designated election is only for a \
                         partition without one",
                        p.leader
                    ),
                ));
            }
            let ineligible = |why: String| {
                Err(ControllerError::new(
                    ErrorCode::IneligibleReplica,
                    format!("Broker {d} cannot be the designated leader of {tp}: {why}"),
                ))
            };
            if !p.replicas.contains(&d) {
                return ineligible(format!("it is not a replica (replicas {:?})", p.replicas));
            }
            let Some(b) = image.cluster.brokers.get(&d) else {
                return ineligible("it is not registered".into());
            };
            if b.fenced {
                return ineligible("it is fenced".into());
            }
            if b.in_controlled_shutdown {
                return ineligible("it is in controlled shutdown".into());
            }
            let index = p.replicas.iter().position(|r| *r == d).unwrap_or(0);
            let dir = p.directories.get(index).copied().filter(|d| !d.is_nil());
            if let Some(why) = replica_dir_offline(dir, &b.log_dirs, &offline_dirs) {
                return ineligible(why);
            }
            // As Kafka's unclean election: ISR = [leader], ELR and last known ELR cleared (their
            // members' claim to be complete no longer holds once another log is chosen).
            let r = change_record(
                topic_id,
                partition,
                p,
                d,
                vec![d],
                Vec::new(),
                Vec::new(),
                LeaderRecoveryState::Recovering,
            )
            .expect("the leader changes");
            Ok((r, Election::Unclean))
        }
    }
}
