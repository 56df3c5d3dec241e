//! The controller's state and its dispatch: a working image (the committed image plus every
//! batch this controller appended since), broker sessions, the KRaft voter set (for
//! UnregisterController), this build's supported features, and counters for the metrics. Each
//! request becomes [`Handled`]: an answer now, or records to append as one batch and the answer
//! to give once they commit.

use crate::settings::ControllerSettings;
use fjord_metadata::version::MetadataVersion;
use fjord_metadata::MetadataImage;
use fjord_protocol::{ErrorCode, MetadataRecord, RequestBody, ResponseBody};
use std::collections::{BTreeMap, BTreeSet};

pub use fjord_metadata::version::{
    METADATA_VERSION_LATEST, METADATA_VERSION_MIN, METADATA_VERSION_UNREGISTER_CONTROLLER,
};
/// The most records one user operation may write (Kafka's `MAX_RECORDS_PER_USER_OP`): a
/// request that would write more is refused whole with POLICY_VIOLATION and writes nothing.
pub const MAX_RECORDS_PER_USER_OP: usize = 10_000;
/// Kafka's answer to an operation over [`MAX_RECORDS_PER_USER_OP`].
pub const TOO_LARGE_MESSAGE: &str = "Unable to perform excessively large batch operation.";
/// The size of a producer-id block (Kafka's).
pub const PRODUCER_ID_BLOCK: i64 = 1_000;

/// What became of a request.
#[derive(Debug)]
pub enum Handled {
    /// Answer now; nothing to write.
    Reply(ResponseBody),
    /// Append `records` as one batch (already in the working image) and answer once committed.
    Write {
        /// The records.
        records: Vec<MetadataRecord>,
        /// The answer after commit.
        response: ResponseBody,
    },
    /// A broker registration: the records carry the broker epoch, the offset the batch lands at.
    Register(crate::brokers::RegistrationPlan),
    /// UpdateFeatures moving `kraft.version` to `level`: the quorum's leader moves the voters
    /// into the log (checks only, with `validate_only`); once that commits, `records` (the
    /// other features' levels, possibly none; not yet in the working image) are written
    /// and `response` answers. Its refusal answers the request instead.
    UpgradeKraft {
        /// The new kraft.version.
        level: i16,
        /// Check only.
        validate_only: bool,
        /// The other features' records, not applied.
        records: Vec<MetadataRecord>,
        /// The answer.
        response: ResponseBody,
    },
    /// Refuse the whole request with this error (answered with the API's error response).
    Refuse {
        /// The error.
        code: ErrorCode,
        /// Its message.
        message: String,
    },
}

/// Event counters for the metrics endpoint.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counters {
    /// Leaders elected from outside the ISR and ELR (unclean and designated elections).
    pub unclean_elections: u64,
    /// Of those, DESIGNATED elections (ElectLeaders v3), counted apart too.
    pub designated_elections: u64,
    /// Leaders elected from the ELR.
    pub elr_elections: u64,
}

impl Counters {
    /// Both counts added up (across controller generations).
    pub fn plus(&self, other: &Counters) -> Counters {
        Counters {
            unclean_elections: self.unclean_elections + other.unclean_elections,
            designated_elections: self.designated_elections + other.designated_elections,
            elr_elections: self.elr_elections + other.elr_elections,
        }
    }
}

/// The active controller's state.
#[derive(Debug, Clone)]
pub struct Controller {
    /// Settings.
    pub settings: ControllerSettings,
    /// The cluster id.
    pub cluster_id: String,
    pub(crate) image: MetadataImage,
    /// Broker id to session deadline (ms).
    pub(crate) sessions: BTreeMap<i32, i64>,
    /// Broker id to the log dirs its latest heartbeat reported offline (heartbeat state, as
    /// Kafka keeps it: not a record; brokers repeat it every heartbeat).
    pub(crate) offline_dirs: BTreeMap<i32, Vec<fjord_protocol::Uuid>>,
    /// The KRaft voters, committed or being changed.
    pub(crate) voters: BTreeSet<i32>,
    /// This node's supported feature ranges.
    pub supported_features: BTreeMap<String, (i16, i16)>,
    /// Counters.
    pub counters: Counters,
    /// Mixed into every new topic id with the cluster id: random on a real node (each active
    /// controller draws one), so no two clusters give a topic the same id, even clusters
    /// formatted with the same cluster id; 0 in simulations, which stay replayable.
    pub topic_id_salt: u128,
    /// Delegation tokens created by this controller (part of each new token's id).
    pub(crate) token_seq: u64,
    /// Each token's HMAC, computed once (see `token_by_hmac`).
    pub(crate) token_hmacs: std::collections::HashMap<String, Vec<u8>>,
}

impl Controller {
    /// A controller over `image`, as it becomes active at `now_ms`: every registered broker
    /// gets a fresh session.
    pub fn new(
        settings: ControllerSettings,
        cluster_id: String,
        image: MetadataImage,
        now_ms: i64,
    ) -> Controller {
        let mut c = Controller {
            settings,
            cluster_id,
            image: MetadataImage::empty(),
            sessions: BTreeMap::new(),
            offline_dirs: BTreeMap::new(),
            voters: BTreeSet::new(),
            supported_features: fjord_metadata::version::supported_features()
                .into_iter()
                .map(|(name, min, max)| (name, (min, max)))
                .collect(),
            counters: Counters::default(),
            topic_id_salt: 0,
            token_seq: 0,
            token_hmacs: std::collections::HashMap::new(),
        };
        c.reset(image, now_ms);
        c
    }

    /// Starts over from `image` (after a failover or a failed append). A new active
    /// controller has heard from no broker yet: each gets `broker.heartbeat.interval.ms` plus
    /// `broker.connection.loss.fence.ms` to heartbeat (a live broker whose connection to the
    /// old controller closed heartbeats at once; one that still had it open does within its
    /// interval), at most its session timeout. A broker that died with the old controller
    /// (a combined node) is fenced then, not a whole session later. With the grace off (0),
    /// every broker gets a full session.
    pub fn reset(&mut self, image: MetadataImage, now_ms: i64) {
        let s = &self.settings;
        let first = if s.broker_connection_loss_fence_ms > 0 {
            (s.broker_heartbeat_interval_ms + s.broker_connection_loss_fence_ms)
                .min(s.broker_session_timeout_ms)
        } else {
            s.broker_session_timeout_ms
        };
        self.sessions = image
            .cluster
            .brokers
            .keys()
            .map(|id| (*id, now_ms + first))
            .collect();
        self.image = image;
    }

    /// The finalized `metadata.version` of the working image (the latest on a new cluster):
    /// what records are written as. Take it before handling a request, so the batch is
    /// encoded as it was folded.
    pub fn metadata_version(&self) -> MetadataVersion {
        MetadataVersion::of(self.image.features.metadata_version())
    }

    /// The working image.
    pub fn image(&self) -> &MetadataImage {
        &self.image
    }

    /// Sets the KRaft voter set (committed, plus any change in flight).
    pub fn set_voters(&mut self, voters: BTreeSet<i32>) {
        self.voters = voters;
    }

    /// Folds records this controller is appending into the working image.
    /// Records are folded as the current `metadata.version` writes them
    /// ([`MetadataVersion::downgrade`]), so the working image is what every node will load.
    pub fn apply(&mut self, records: &[MetadataRecord]) -> Result<(), fjord_metadata::ApplyError> {
        let mv = self.metadata_version();
        let records: Vec<_> = records.iter().map(|r| mv.downgrade(r)).collect();
        let offset = self.image.provenance.last_offset + records.len() as i64;
        let epoch = self.image.provenance.last_epoch;
        let (next, _) = self
            .image
            .apply(records.iter().map(|r| r.as_ref()), offset, epoch)?;
        self.image = next;
        Ok(())
    }

    /// Write `records` and answer `response` once they commit, or answer at once when there is
    /// nothing to write.
    pub(crate) fn write(
        &mut self,
        records: Vec<MetadataRecord>,
        response: ResponseBody,
    ) -> Handled {
        if records.is_empty() {
            return Handled::Reply(response);
        }
        if records.len() > MAX_RECORDS_PER_USER_OP {
            return too_large();
        }
        match self.apply(&records) {
            Ok(()) => Handled::Write { records, response },
            Err(e) => Handled::Refuse {
                code: ErrorCode::UnknownServerError,
                message: format!("the controller produced records that do not apply: {e}"),
            },
        }
    }

    /// Handles a controller-bound request (`version` is the request's). A request refused as
    /// a whole is answered with its API's error response.
    pub fn handle(&mut self, body: &RequestBody, version: i16, now_ms: i64) -> Handled {
        match self.dispatch(body, version, now_ms) {
            Handled::Refuse { code, message } => Handled::Reply(fjord_protocol::error_response(
                body, version, code, &message,
            )),
            handled => handled,
        }
    }

    fn dispatch(&mut self, body: &RequestBody, version: i16, now_ms: i64) -> Handled {
        match body {
            RequestBody::BrokerRegistration(r) => self.broker_registration(r, now_ms),
            RequestBody::BrokerHeartbeat(r) => self.broker_heartbeat(r, now_ms),
            RequestBody::ControllerRegistration(r) => self.controller_registration(r),
            RequestBody::UnregisterBroker(r) => self.unregister_broker(r),
            RequestBody::UnregisterController(r) => self.unregister_controller(r),
            RequestBody::UpdateFeatures(r) => self.update_features(r, version),
            RequestBody::AllocateProducerIds(r) => self.allocate_producer_ids(r),
            RequestBody::CreateTopics(r) => self.create_topics(r, version),
            RequestBody::DeleteTopics(r) => self.delete_topics(r, version),
            RequestBody::CreatePartitions(r) => self.create_partitions(r),
            RequestBody::AlterPartition(r) => self.alter_partition(r, version),
            RequestBody::AssignReplicasToDirs(r) => self.assign_replicas_to_dirs(r),
            RequestBody::ElectLeaders(r) => self.elect_leaders(r, version),
            RequestBody::AlterPartitionReassignments(r) => {
                self.alter_partition_reassignments(r, version)
            }
            RequestBody::ListPartitionReassignments(r) => self.list_partition_reassignments(r),
            RequestBody::DescribeConfigs(r) => {
                let mut answer = self.describe_configs(r);
                if let ResponseBody::DescribeConfigs(d) = &mut answer {
                    fjord_metadata::config_docs::document(d, r.include_documentation);
                }
                Handled::Reply(answer)
            }
            RequestBody::IncrementalAlterConfigs(r) => self.incremental_alter_configs(r),
            RequestBody::AlterConfigs(r) => self.alter_configs(r),
            RequestBody::CreateAcls(r) => self.create_acls(r),
            RequestBody::DeleteAcls(r) => self.delete_acls(r),
            RequestBody::AlterUserScramCredentials(r) => self.alter_user_scram_credentials(r),
            RequestBody::AlterClientQuotas(r) => self.alter_client_quotas(r),
            other => Handled::Refuse {
                code: ErrorCode::UnsupportedVersion,
                message: format!("{:?} is not handled by the controller", other.api_key()),
            },
        }
    }

    /// The connection that carried broker `id`'s heartbeats closed at `now_ms` (its process
    /// died, or the network dropped it): its session ends `broker.connection.loss.fence.ms`
    /// from now unless a heartbeat renews it first (a broker still alive reconnects and
    /// heartbeats at once). Nothing changes for a broker already fenced or shutting down, or
    /// when the grace is 0.
    pub fn connection_lost(&mut self, id: i32, now_ms: i64) {
        let grace = self.settings.broker_connection_loss_fence_ms;
        let live = self
            .image
            .cluster
            .brokers
            .get(&id)
            .is_some_and(|b| !b.fenced && !b.in_controlled_shutdown);
        if grace <= 0 || !live {
            return;
        }
        if let Some(deadline) = self.sessions.get_mut(&id) {
            *deadline = (*deadline).min(now_ms + grace);
        }
    }

    /// Timers: fences brokers whose session expired (moving their leaderships away) and
    /// elects leaders for leaderless partitions whose topic allows unclean election (Kafka's
    /// periodic check). Returns the records to append, already in the working image.
    pub fn tick(&mut self, now_ms: i64) -> Vec<MetadataRecord> {
        let expired: Vec<i32> = self
            .sessions
            .iter()
            .filter(|(id, deadline)| {
                **deadline <= now_ms
                    && self
                        .image
                        .cluster
                        .brokers
                        .get(id)
                        .is_some_and(|b| !b.fenced)
            })
            .map(|(id, _)| *id)
            .collect();
        let mut records = Vec::new();
        // Each step sees the ones before it: a partition two brokers share changes once per
        // broker, in order. A step whose records would not apply (a bug) is left out.
        for id in expired {
            let r = self.fence_broker(id);
            match self.apply(&r) {
                Ok(()) => records.extend(r),
                Err(e) => tracing::error!(broker = id, "fencing records do not apply: {e}"),
            }
        }
        let r = self.elect_unclean_where_enabled();
        match self.apply(&r) {
            Ok(()) => records.extend(r),
            Err(e) => tracing::error!("unclean election records do not apply: {e}"),
        }
        records
    }
}

/// The refusal of an operation that would write more than [`MAX_RECORDS_PER_USER_OP`] records.
pub(crate) fn too_large() -> Handled {
    Handled::Refuse {
        code: ErrorCode::PolicyViolation,
        message: TOO_LARGE_MESSAGE.into(),
    }
}

/// The answer a node that is not the active controller gives a controller-bound request:
/// NOT_CONTROLLER, so the sender retries with the active one.
pub fn not_controller(request: &RequestBody, version: i16) -> ResponseBody {
    fjord_protocol::error_response(
        request,
        version,
        ErrorCode::NotController,
        "This is not the active controller.",
    )
}
