//! The Kafka error-code table (name, number, retriable, default message), plus fjord's own
//! codes from 1000 up (`REQUEST_LIMIT_REACHED`).

/// A Kafka protocol error code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i16)]
pub enum ErrorCode {
    /// The server experienced an unexpected error when processing the request.
    UnknownServerError = -1,
    /// No error.
    None = 0,
    /// The requested offset is not within the range of offsets maintained by the server.
    OffsetOutOfRange = 1,
    /// This message has failed its CRC checksum, exceeds the valid size, has a null key for a compacted topic, or is otherwise corrupt.
    CorruptMessage = 2,
    /// This server does not host this topic-partition.
    UnknownTopicOrPartition = 3,
    /// The requested fetch size is invalid.
    InvalidFetchSize = 4,
    /// There is no leader for this topic-partition as we are in the middle of a leadership election.
    LeaderNotAvailable = 5,
    /// For requests intended only for the leader, this error indicates that the broker is not the current leader. For requests intended for any replica, this error indicates that the broker is not a replica of the topic partition.
    NotLeaderOrFollower = 6,
    /// The request timed out.
    RequestTimedOut = 7,
    /// The broker is not available.
    BrokerNotAvailable = 8,
    /// The replica is not available for the requested topic-partition. Produce/Fetch requests and other requests intended only for the leader or follower return NOT_LEADER_OR_FOLLOWER if the broker is not a replica of the topic-partition.
    ReplicaNotAvailable = 9,
    /// The request included a message larger than the max message size the server will accept.
    MessageTooLarge = 10,
    /// The controller moved to another broker.
    StaleControllerEpoch = 11,
    /// The metadata field of the offset request was too large.
    OffsetMetadataTooLarge = 12,
    /// The server disconnected before a response was received.
    NetworkException = 13,
    /// The coordinator is loading and hence can't process requests.
    CoordinatorLoadInProgress = 14,
    /// The coordinator is not available.
    CoordinatorNotAvailable = 15,
    /// This is not the correct coordinator.
    NotCoordinator = 16,
    /// The request attempted to perform an operation on an invalid topic.
    InvalidTopicException = 17,
    /// The request included message batch larger than the configured segment size on the server.
    RecordListTooLarge = 18,
    /// Messages are rejected since there are fewer in-sync replicas than required.
    NotEnoughReplicas = 19,
    /// Messages are written to the log, but to fewer in-sync replicas than required.
    NotEnoughReplicasAfterAppend = 20,
    /// Produce request specified an invalid value for required acks.
    InvalidRequiredAcks = 21,
    /// Specified group generation id is not valid.
    IllegalGeneration = 22,
    /// The group member's supported protocols are incompatible with those of existing members or first group member tried to join with empty protocol type or empty protocol list.
    InconsistentGroupProtocol = 23,
    /// The configured groupId is invalid.
    InvalidGroupId = 24,
    /// The coordinator is not aware of this member.
    UnknownMemberId = 25,
    /// The session timeout is not within the range allowed by the broker (as configured by group.min.session.timeout.ms and group.max.session.timeout.ms).
    InvalidSessionTimeout = 26,
    /// The group is rebalancing, so a rejoin is needed.
    RebalanceInProgress = 27,
    /// The committing offset data size is not valid.
    InvalidCommitOffsetSize = 28,
    /// Topic authorization failed.
    TopicAuthorizationFailed = 29,
    /// Group authorization failed.
    GroupAuthorizationFailed = 30,
    /// Cluster authorization failed.
    ClusterAuthorizationFailed = 31,
    /// The timestamp of the message is out of acceptable range.
    InvalidTimestamp = 32,
    /// The broker does not support the requested SASL mechanism.
    UnsupportedSaslMechanism = 33,
    /// Request is not valid given the current SASL state.
    IllegalSaslState = 34,
    /// The version of API is not supported.
    UnsupportedVersion = 35,
    /// Topic with this name already exists.
    TopicAlreadyExists = 36,
    /// Number of partitions is below 1.
    InvalidPartitions = 37,
    /// Replication factor is below 1 or larger than the number of available brokers.
    InvalidReplicationFactor = 38,
    /// Replica assignment is invalid.
    InvalidReplicaAssignment = 39,
    /// Configuration is invalid.
    InvalidConfig = 40,
    /// This is not the correct controller for this cluster.
    NotController = 41,
    /// This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.
    InvalidRequest = 42,
    /// The message format version on the broker does not support the request.
    UnsupportedForMessageFormat = 43,
    /// Request parameters do not satisfy the configured policy.
    PolicyViolation = 44,
    /// The broker received an out of order sequence number.
    OutOfOrderSequenceNumber = 45,
    /// The broker received a duplicate sequence number.
    DuplicateSequenceNumber = 46,
    /// Producer attempted to produce with an old epoch.
    InvalidProducerEpoch = 47,
    /// The producer attempted a transactional operation in an invalid state.
    InvalidTxnState = 48,
    /// The producer attempted to use a producer id which is not currently assigned to its transactional id.
    InvalidProducerIdMapping = 49,
    /// The transaction timeout is larger than the maximum value allowed by the broker (as configured by transaction.max.timeout.ms).
    InvalidTransactionTimeout = 50,
    /// The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing.
    ConcurrentTransactions = 51,
    /// Indicates that the transaction coordinator sending a WriteTxnMarker is no longer the current coordinator for a given producer.
    TransactionCoordinatorFenced = 52,
    /// Transactional Id authorization failed.
    TransactionalIdAuthorizationFailed = 53,
    /// Security features are disabled.
    SecurityDisabled = 54,
    /// The broker did not attempt to execute this operation. This may happen for batched RPCs where some operations in the batch failed, causing the broker to respond without trying the rest.
    OperationNotAttempted = 55,
    /// Disk error when trying to access log file on the disk.
    KafkaStorageError = 56,
    /// The user-specified log directory is not found in the broker config.
    LogDirNotFound = 57,
    /// SASL Authentication failed.
    SaslAuthenticationFailed = 58,
    /// This exception is raised by the broker if it could not locate the producer metadata associated with the producerId in question. This could happen if, for instance, the producer's records were deleted because their retention time had elapsed. Once the last records of the producerId are removed, the producer's metadata is removed from the broker, and future appends by the producer will return this exception.
    UnknownProducerId = 59,
    /// A partition reassignment is in progress.
    ReassignmentInProgress = 60,
    /// Delegation Token feature is not enabled.
    DelegationTokenAuthDisabled = 61,
    /// Delegation Token is not found on server.
    DelegationTokenNotFound = 62,
    /// Specified Principal is not valid Owner/Renewer.
    DelegationTokenOwnerMismatch = 63,
    /// Delegation Token requests are not allowed on PLAINTEXT/1-way SSL channels and on delegation token authenticated channels.
    DelegationTokenRequestNotAllowed = 64,
    /// Delegation Token authorization failed.
    DelegationTokenAuthorizationFailed = 65,
    /// Delegation Token is expired.
    DelegationTokenExpired = 66,
    /// Supplied principalType is not supported.
    InvalidPrincipalType = 67,
    /// The group is not empty.
    NonEmptyGroup = 68,
    /// The group id does not exist.
    GroupIdNotFound = 69,
    /// The fetch session ID was not found.
    FetchSessionIdNotFound = 70,
    /// The fetch session epoch is invalid.
    InvalidFetchSessionEpoch = 71,
    /// There is no listener on the leader broker that matches the listener on which metadata request was processed.
    ListenerNotFound = 72,
    /// Topic deletion is disabled.
    TopicDeletionDisabled = 73,
    /// The leader epoch in the request is older than the epoch on the broker.
    FencedLeaderEpoch = 74,
    /// The leader epoch in the request is newer than the epoch on the broker.
    UnknownLeaderEpoch = 75,
    /// The requesting client does not support the compression type of given partition.
    UnsupportedCompressionType = 76,
    /// Broker epoch has changed.
    StaleBrokerEpoch = 77,
    /// The leader high watermark has not caught up from a recent leader election so the offsets cannot be guaranteed to be monotonically increasing.
    OffsetNotAvailable = 78,
    /// The group member needs to have a valid member id before actually entering a consumer group.
    MemberIdRequired = 79,
    /// The preferred leader was not available.
    PreferredLeaderNotAvailable = 80,
    /// The consumer group has reached its max size.
    GroupMaxSizeReached = 81,
    /// The broker rejected this static consumer since another consumer with the same group.instance.id has registered with a different member.id.
    FencedInstanceId = 82,
    /// Eligible topic partition leaders are not available.
    EligibleLeadersNotAvailable = 83,
    /// Leader election not needed for topic partition.
    ElectionNotNeeded = 84,
    /// No partition reassignment is in progress.
    NoReassignmentInProgress = 85,
    /// Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it.
    GroupSubscribedToTopic = 86,
    /// This record has failed the validation on broker and hence will be rejected.
    InvalidRecord = 87,
    /// There are unstable offsets that need to be cleared.
    UnstableOffsetCommit = 88,
    /// The throttling quota has been exceeded.
    ThrottlingQuotaExceeded = 89,
    /// There is a newer producer with the same transactionalId which fences the current one.
    ProducerFenced = 90,
    /// A request illegally referred to a resource that does not exist.
    ResourceNotFound = 91,
    /// A request illegally referred to the same resource twice.
    DuplicateResource = 92,
    /// Requested credential would not meet criteria for acceptability.
    UnacceptableCredential = 93,
    /// Indicates that the either the sender or recipient of a voter-only request is not one of the expected voters
    InconsistentVoterSet = 94,
    /// The given update version was invalid.
    InvalidUpdateVersion = 95,
    /// Unable to update finalized features due to an unexpected server error.
    FeatureUpdateFailed = 96,
    /// Request principal deserialization failed during forwarding. This indicates an internal error on the broker cluster security setup.
    PrincipalDeserializationFailure = 97,
    /// Requested snapshot was not found
    SnapshotNotFound = 98,
    /// Requested position is not greater than or equal to zero, and less than the size of the snapshot.
    PositionOutOfRange = 99,
    /// This server does not host this topic ID.
    UnknownTopicId = 100,
    /// This broker ID is already in use.
    DuplicateBrokerRegistration = 101,
    /// The given broker ID was not registered.
    BrokerIdNotRegistered = 102,
    /// The log's topic ID did not match the topic ID in the request
    InconsistentTopicId = 103,
    /// The clusterId in the request does not match that found on the server
    InconsistentClusterId = 104,
    /// The transactionalId could not be found
    TransactionalIdNotFound = 105,
    /// The fetch session encountered inconsistent topic ID usage
    FetchSessionTopicIdError = 106,
    /// The new ISR contains at least one ineligible replica.
    IneligibleReplica = 107,
    /// The AlterPartition request successfully updated the partition state but the leader has changed.
    NewLeaderElected = 108,
    /// The requested offset is moved to tiered storage.
    OffsetMovedToTieredStorage = 109,
    /// The member epoch is fenced by the group coordinator. The member must abandon all its partitions and rejoin.
    FencedMemberEpoch = 110,
    /// The instance ID is still used by another member in the consumer group. That member must leave first.
    UnreleasedInstanceId = 111,
    /// The assignor or its version range is not supported by the consumer group.
    UnsupportedAssignor = 112,
    /// The member epoch is stale. The member must retry after receiving its updated member epoch via the ConsumerGroupHeartbeat API.
    StaleMemberEpoch = 113,
    /// The request was sent to an endpoint of the wrong type.
    MismatchedEndpointType = 114,
    /// This endpoint type is not supported yet.
    UnsupportedEndpointType = 115,
    /// This controller ID is not known.
    UnknownControllerId = 116,
    /// Client sent a push telemetry request with an invalid or outdated subscription ID.
    UnknownSubscriptionId = 117,
    /// Client sent a push telemetry request larger than the maximum size the broker will accept.
    TelemetryTooLarge = 118,
    /// The controller has considered the broker registration to be invalid.
    InvalidRegistration = 119,
    /// The server encountered an error with the transaction. The client can abort the transaction to continue using this transactional ID.
    TransactionAbortable = 120,
    /// The record state is invalid. The acknowledgement of delivery could not be completed.
    InvalidRecordState = 121,
    /// The share session was not found.
    ShareSessionNotFound = 122,
    /// The share session epoch is invalid.
    InvalidShareSessionEpoch = 123,
    /// The share coordinator rejected the request because the share-group state epoch did not match.
    FencedStateEpoch = 124,
    /// The voter key doesn't match the receiving replica's key.
    InvalidVoterKey = 125,
    /// The voter is already part of the set of voters.
    DuplicateVoter = 126,
    /// The voter is not part of the set of voters.
    VoterNotFound = 127,
    /// The regular expression is not valid.
    InvalidRegularExpression = 128,
    /// Client metadata is stale, client should rebootstrap to obtain new metadata.
    RebootstrapRequired = 129,
    /// The supplied topology is invalid.
    StreamsInvalidTopology = 130,
    /// The supplied topology epoch is invalid.
    StreamsInvalidTopologyEpoch = 131,
    /// The supplied topology epoch is outdated.
    StreamsTopologyFenced = 132,
    /// The limit of share sessions has been reached.
    ShareSessionLimitReached = 133,
    /// The controller ID is not currently registered.
    ControllerIdNotRegistered = 136,
    /// The request asked for more items than one request may act on; the rest were not acted on and may be sent again.
    RequestLimitReached = 1000,
}

impl ErrorCode {
    /// Every error code, in numeric order.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::UnknownServerError,
        ErrorCode::None,
        ErrorCode::OffsetOutOfRange,
        ErrorCode::CorruptMessage,
        ErrorCode::UnknownTopicOrPartition,
        ErrorCode::InvalidFetchSize,
        ErrorCode::LeaderNotAvailable,
        ErrorCode::NotLeaderOrFollower,
        ErrorCode::RequestTimedOut,
        ErrorCode::BrokerNotAvailable,
        ErrorCode::ReplicaNotAvailable,
        ErrorCode::MessageTooLarge,
        ErrorCode::StaleControllerEpoch,
        ErrorCode::OffsetMetadataTooLarge,
        ErrorCode::NetworkException,
        ErrorCode::CoordinatorLoadInProgress,
        ErrorCode::CoordinatorNotAvailable,
        ErrorCode::NotCoordinator,
        ErrorCode::InvalidTopicException,
        ErrorCode::RecordListTooLarge,
        ErrorCode::NotEnoughReplicas,
        ErrorCode::NotEnoughReplicasAfterAppend,
        ErrorCode::InvalidRequiredAcks,
        ErrorCode::IllegalGeneration,
        ErrorCode::InconsistentGroupProtocol,
        ErrorCode::InvalidGroupId,
        ErrorCode::UnknownMemberId,
        ErrorCode::InvalidSessionTimeout,
        ErrorCode::RebalanceInProgress,
        ErrorCode::InvalidCommitOffsetSize,
        ErrorCode::TopicAuthorizationFailed,
        ErrorCode::GroupAuthorizationFailed,
        ErrorCode::ClusterAuthorizationFailed,
        ErrorCode::InvalidTimestamp,
        ErrorCode::UnsupportedSaslMechanism,
        ErrorCode::IllegalSaslState,
        ErrorCode::UnsupportedVersion,
        ErrorCode::TopicAlreadyExists,
        ErrorCode::InvalidPartitions,
        ErrorCode::InvalidReplicationFactor,
        ErrorCode::InvalidReplicaAssignment,
        ErrorCode::InvalidConfig,
        ErrorCode::NotController,
        ErrorCode::InvalidRequest,
        ErrorCode::UnsupportedForMessageFormat,
        ErrorCode::PolicyViolation,
        ErrorCode::OutOfOrderSequenceNumber,
        ErrorCode::DuplicateSequenceNumber,
        ErrorCode::InvalidProducerEpoch,
        ErrorCode::InvalidTxnState,
        ErrorCode::InvalidProducerIdMapping,
        ErrorCode::InvalidTransactionTimeout,
        ErrorCode::ConcurrentTransactions,
        ErrorCode::TransactionCoordinatorFenced,
        ErrorCode::TransactionalIdAuthorizationFailed,
        ErrorCode::SecurityDisabled,
        ErrorCode::OperationNotAttempted,
        ErrorCode::KafkaStorageError,
        ErrorCode::LogDirNotFound,
        ErrorCode::SaslAuthenticationFailed,
        ErrorCode::UnknownProducerId,
        ErrorCode::ReassignmentInProgress,
        ErrorCode::DelegationTokenAuthDisabled,
        ErrorCode::DelegationTokenNotFound,
        ErrorCode::DelegationTokenOwnerMismatch,
        ErrorCode::DelegationTokenRequestNotAllowed,
        ErrorCode::DelegationTokenAuthorizationFailed,
        ErrorCode::DelegationTokenExpired,
        ErrorCode::InvalidPrincipalType,
        ErrorCode::NonEmptyGroup,
        ErrorCode::GroupIdNotFound,
        ErrorCode::FetchSessionIdNotFound,
        ErrorCode::InvalidFetchSessionEpoch,
        ErrorCode::ListenerNotFound,
        ErrorCode::TopicDeletionDisabled,
        ErrorCode::FencedLeaderEpoch,
        ErrorCode::UnknownLeaderEpoch,
        ErrorCode::UnsupportedCompressionType,
        ErrorCode::StaleBrokerEpoch,
        ErrorCode::OffsetNotAvailable,
        ErrorCode::MemberIdRequired,
        ErrorCode::PreferredLeaderNotAvailable,
        ErrorCode::GroupMaxSizeReached,
        ErrorCode::FencedInstanceId,
        ErrorCode::EligibleLeadersNotAvailable,
        ErrorCode::ElectionNotNeeded,
        ErrorCode::NoReassignmentInProgress,
        ErrorCode::GroupSubscribedToTopic,
        ErrorCode::InvalidRecord,
        ErrorCode::UnstableOffsetCommit,
        ErrorCode::ThrottlingQuotaExceeded,
        ErrorCode::ProducerFenced,
        ErrorCode::ResourceNotFound,
        ErrorCode::DuplicateResource,
        ErrorCode::UnacceptableCredential,
        ErrorCode::InconsistentVoterSet,
        ErrorCode::InvalidUpdateVersion,
        ErrorCode::FeatureUpdateFailed,
        ErrorCode::PrincipalDeserializationFailure,
        ErrorCode::SnapshotNotFound,
        ErrorCode::PositionOutOfRange,
        ErrorCode::UnknownTopicId,
        ErrorCode::DuplicateBrokerRegistration,
        ErrorCode::BrokerIdNotRegistered,
        ErrorCode::InconsistentTopicId,
        ErrorCode::InconsistentClusterId,
        ErrorCode::TransactionalIdNotFound,
        ErrorCode::FetchSessionTopicIdError,
        ErrorCode::IneligibleReplica,
        ErrorCode::NewLeaderElected,
        ErrorCode::OffsetMovedToTieredStorage,
        ErrorCode::FencedMemberEpoch,
        ErrorCode::UnreleasedInstanceId,
        ErrorCode::UnsupportedAssignor,
        ErrorCode::StaleMemberEpoch,
        ErrorCode::MismatchedEndpointType,
        ErrorCode::UnsupportedEndpointType,
        ErrorCode::UnknownControllerId,
        ErrorCode::UnknownSubscriptionId,
        ErrorCode::TelemetryTooLarge,
        ErrorCode::InvalidRegistration,
        ErrorCode::TransactionAbortable,
        ErrorCode::InvalidRecordState,
        ErrorCode::ShareSessionNotFound,
        ErrorCode::InvalidShareSessionEpoch,
        ErrorCode::FencedStateEpoch,
        ErrorCode::InvalidVoterKey,
        ErrorCode::DuplicateVoter,
        ErrorCode::VoterNotFound,
        ErrorCode::InvalidRegularExpression,
        ErrorCode::RebootstrapRequired,
        ErrorCode::StreamsInvalidTopology,
        ErrorCode::StreamsInvalidTopologyEpoch,
        ErrorCode::StreamsTopologyFenced,
        ErrorCode::ShareSessionLimitReached,
        ErrorCode::ControllerIdNotRegistered,
        ErrorCode::RequestLimitReached,
    ];

    /// The numeric code on the wire.
    pub const fn code(self) -> i16 {
        self as i16
    }

    /// The code for a wire number, if it is one this build knows.
    pub fn from_code(code: i16) -> Option<ErrorCode> {
        match code {
            -1 => Some(ErrorCode::UnknownServerError),
            0 => Some(ErrorCode::None),
            1 => Some(ErrorCode::OffsetOutOfRange),
            2 => Some(ErrorCode::CorruptMessage),
            3 => Some(ErrorCode::UnknownTopicOrPartition),
            4 => Some(ErrorCode::InvalidFetchSize),
            5 => Some(ErrorCode::LeaderNotAvailable),
            6 => Some(ErrorCode::NotLeaderOrFollower),
            7 => Some(ErrorCode::RequestTimedOut),
            8 => Some(ErrorCode::BrokerNotAvailable),
            9 => Some(ErrorCode::ReplicaNotAvailable),
            10 => Some(ErrorCode::MessageTooLarge),
            11 => Some(ErrorCode::StaleControllerEpoch),
            12 => Some(ErrorCode::OffsetMetadataTooLarge),
            13 => Some(ErrorCode::NetworkException),
            14 => Some(ErrorCode::CoordinatorLoadInProgress),
            15 => Some(ErrorCode::CoordinatorNotAvailable),
            16 => Some(ErrorCode::NotCoordinator),
            17 => Some(ErrorCode::InvalidTopicException),
            18 => Some(ErrorCode::RecordListTooLarge),
            19 => Some(ErrorCode::NotEnoughReplicas),
            20 => Some(ErrorCode::NotEnoughReplicasAfterAppend),
            21 => Some(ErrorCode::InvalidRequiredAcks),
            22 => Some(ErrorCode::IllegalGeneration),
            23 => Some(ErrorCode::InconsistentGroupProtocol),
            24 => Some(ErrorCode::InvalidGroupId),
            25 => Some(ErrorCode::UnknownMemberId),
            26 => Some(ErrorCode::InvalidSessionTimeout),
            27 => Some(ErrorCode::RebalanceInProgress),
            28 => Some(ErrorCode::InvalidCommitOffsetSize),
            29 => Some(ErrorCode::TopicAuthorizationFailed),
            30 => Some(ErrorCode::GroupAuthorizationFailed),
            31 => Some(ErrorCode::ClusterAuthorizationFailed),
            32 => Some(ErrorCode::InvalidTimestamp),
            33 => Some(ErrorCode::UnsupportedSaslMechanism),
            34 => Some(ErrorCode::IllegalSaslState),
            35 => Some(ErrorCode::UnsupportedVersion),
            36 => Some(ErrorCode::TopicAlreadyExists),
            37 => Some(ErrorCode::InvalidPartitions),
            38 => Some(ErrorCode::InvalidReplicationFactor),
            39 => Some(ErrorCode::InvalidReplicaAssignment),
            40 => Some(ErrorCode::InvalidConfig),
            41 => Some(ErrorCode::NotController),
            42 => Some(ErrorCode::InvalidRequest),
            43 => Some(ErrorCode::UnsupportedForMessageFormat),
            44 => Some(ErrorCode::PolicyViolation),
            45 => Some(ErrorCode::OutOfOrderSequenceNumber),
            46 => Some(ErrorCode::DuplicateSequenceNumber),
            47 => Some(ErrorCode::InvalidProducerEpoch),
            48 => Some(ErrorCode::InvalidTxnState),
            49 => Some(ErrorCode::InvalidProducerIdMapping),
            50 => Some(ErrorCode::InvalidTransactionTimeout),
            51 => Some(ErrorCode::ConcurrentTransactions),
            52 => Some(ErrorCode::TransactionCoordinatorFenced),
            53 => Some(ErrorCode::TransactionalIdAuthorizationFailed),
            54 => Some(ErrorCode::SecurityDisabled),
            55 => Some(ErrorCode::OperationNotAttempted),
            56 => Some(ErrorCode::KafkaStorageError),
            57 => Some(ErrorCode::LogDirNotFound),
            58 => Some(ErrorCode::SaslAuthenticationFailed),
            59 => Some(ErrorCode::UnknownProducerId),
            60 => Some(ErrorCode::ReassignmentInProgress),
            61 => Some(ErrorCode::DelegationTokenAuthDisabled),
            62 => Some(ErrorCode::DelegationTokenNotFound),
            63 => Some(ErrorCode::DelegationTokenOwnerMismatch),
            64 => Some(ErrorCode::DelegationTokenRequestNotAllowed),
            65 => Some(ErrorCode::DelegationTokenAuthorizationFailed),
            66 => Some(ErrorCode::DelegationTokenExpired),
            67 => Some(ErrorCode::InvalidPrincipalType),
            68 => Some(ErrorCode::NonEmptyGroup),
            69 => Some(ErrorCode::GroupIdNotFound),
            70 => Some(ErrorCode::FetchSessionIdNotFound),
            71 => Some(ErrorCode::InvalidFetchSessionEpoch),
            72 => Some(ErrorCode::ListenerNotFound),
            73 => Some(ErrorCode::TopicDeletionDisabled),
            74 => Some(ErrorCode::FencedLeaderEpoch),
            75 => Some(ErrorCode::UnknownLeaderEpoch),
            76 => Some(ErrorCode::UnsupportedCompressionType),
            77 => Some(ErrorCode::StaleBrokerEpoch),
            78 => Some(ErrorCode::OffsetNotAvailable),
            79 => Some(ErrorCode::MemberIdRequired),
            80 => Some(ErrorCode::PreferredLeaderNotAvailable),
            81 => Some(ErrorCode::GroupMaxSizeReached),
            82 => Some(ErrorCode::FencedInstanceId),
            83 => Some(ErrorCode::EligibleLeadersNotAvailable),
            84 => Some(ErrorCode::ElectionNotNeeded),
            85 => Some(ErrorCode::NoReassignmentInProgress),
            86 => Some(ErrorCode::GroupSubscribedToTopic),
            87 => Some(ErrorCode::InvalidRecord),
            88 => Some(ErrorCode::UnstableOffsetCommit),
            89 => Some(ErrorCode::ThrottlingQuotaExceeded),
            90 => Some(ErrorCode::ProducerFenced),
            91 => Some(ErrorCode::ResourceNotFound),
            92 => Some(ErrorCode::DuplicateResource),
            93 => Some(ErrorCode::UnacceptableCredential),
            94 => Some(ErrorCode::InconsistentVoterSet),
            95 => Some(ErrorCode::InvalidUpdateVersion),
            96 => Some(ErrorCode::FeatureUpdateFailed),
            97 => Some(ErrorCode::PrincipalDeserializationFailure),
            98 => Some(ErrorCode::SnapshotNotFound),
            99 => Some(ErrorCode::PositionOutOfRange),
            100 => Some(ErrorCode::UnknownTopicId),
            101 => Some(ErrorCode::DuplicateBrokerRegistration),
            102 => Some(ErrorCode::BrokerIdNotRegistered),
            103 => Some(ErrorCode::InconsistentTopicId),
            104 => Some(ErrorCode::InconsistentClusterId),
            105 => Some(ErrorCode::TransactionalIdNotFound),
            106 => Some(ErrorCode::FetchSessionTopicIdError),
            107 => Some(ErrorCode::IneligibleReplica),
            108 => Some(ErrorCode::NewLeaderElected),
            109 => Some(ErrorCode::OffsetMovedToTieredStorage),
            110 => Some(ErrorCode::FencedMemberEpoch),
            111 => Some(ErrorCode::UnreleasedInstanceId),
            112 => Some(ErrorCode::UnsupportedAssignor),
            113 => Some(ErrorCode::StaleMemberEpoch),
            114 => Some(ErrorCode::MismatchedEndpointType),
            115 => Some(ErrorCode::UnsupportedEndpointType),
            116 => Some(ErrorCode::UnknownControllerId),
            117 => Some(ErrorCode::UnknownSubscriptionId),
            118 => Some(ErrorCode::TelemetryTooLarge),
            119 => Some(ErrorCode::InvalidRegistration),
            120 => Some(ErrorCode::TransactionAbortable),
            121 => Some(ErrorCode::InvalidRecordState),
            122 => Some(ErrorCode::ShareSessionNotFound),
            123 => Some(ErrorCode::InvalidShareSessionEpoch),
            124 => Some(ErrorCode::FencedStateEpoch),
            125 => Some(ErrorCode::InvalidVoterKey),
            126 => Some(ErrorCode::DuplicateVoter),
            127 => Some(ErrorCode::VoterNotFound),
            128 => Some(ErrorCode::InvalidRegularExpression),
            129 => Some(ErrorCode::RebootstrapRequired),
            130 => Some(ErrorCode::StreamsInvalidTopology),
            131 => Some(ErrorCode::StreamsInvalidTopologyEpoch),
            132 => Some(ErrorCode::StreamsTopologyFenced),
            133 => Some(ErrorCode::ShareSessionLimitReached),
            136 => Some(ErrorCode::ControllerIdNotRegistered),
            1000 => Some(ErrorCode::RequestLimitReached),
            _ => None,
        }
    }

    /// Kafka's name for the error, e.g. `NOT_LEADER_OR_FOLLOWER`.
    pub const fn name(self) -> &'static str {
        match self {
            ErrorCode::UnknownServerError => "UNKNOWN_SERVER_ERROR",
            ErrorCode::None => "NONE",
            ErrorCode::OffsetOutOfRange => "OFFSET_OUT_OF_RANGE",
            ErrorCode::CorruptMessage => "CORRUPT_MESSAGE",
            ErrorCode::UnknownTopicOrPartition => "UNKNOWN_TOPIC_OR_PARTITION",
            ErrorCode::InvalidFetchSize => "INVALID_FETCH_SIZE",
            ErrorCode::LeaderNotAvailable => "LEADER_NOT_AVAILABLE",
            ErrorCode::NotLeaderOrFollower => "NOT_LEADER_OR_FOLLOWER",
            ErrorCode::RequestTimedOut => "REQUEST_TIMED_OUT",
            ErrorCode::BrokerNotAvailable => "BROKER_NOT_AVAILABLE",
            ErrorCode::ReplicaNotAvailable => "REPLICA_NOT_AVAILABLE",
            ErrorCode::MessageTooLarge => "MESSAGE_TOO_LARGE",
            ErrorCode::StaleControllerEpoch => "STALE_CONTROLLER_EPOCH",
            ErrorCode::OffsetMetadataTooLarge => "OFFSET_METADATA_TOO_LARGE",
            ErrorCode::NetworkException => "NETWORK_EXCEPTION",
            ErrorCode::CoordinatorLoadInProgress => "COORDINATOR_LOAD_IN_PROGRESS",
            ErrorCode::CoordinatorNotAvailable => "COORDINATOR_NOT_AVAILABLE",
            ErrorCode::NotCoordinator => "NOT_COORDINATOR",
            ErrorCode::InvalidTopicException => "INVALID_TOPIC_EXCEPTION",
            ErrorCode::RecordListTooLarge => "RECORD_LIST_TOO_LARGE",
            ErrorCode::NotEnoughReplicas => "NOT_ENOUGH_REPLICAS",
            ErrorCode::NotEnoughReplicasAfterAppend => "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
            ErrorCode::InvalidRequiredAcks => "INVALID_REQUIRED_ACKS",
            ErrorCode::IllegalGeneration => "ILLEGAL_GENERATION",
            ErrorCode::InconsistentGroupProtocol => "INCONSISTENT_GROUP_PROTOCOL",
            ErrorCode::InvalidGroupId => "INVALID_GROUP_ID",
            ErrorCode::UnknownMemberId => "UNKNOWN_MEMBER_ID",
            ErrorCode::InvalidSessionTimeout => "INVALID_SESSION_TIMEOUT",
            ErrorCode::RebalanceInProgress => "REBALANCE_IN_PROGRESS",
            ErrorCode::InvalidCommitOffsetSize => "INVALID_COMMIT_OFFSET_SIZE",
            ErrorCode::TopicAuthorizationFailed => "TOPIC_AUTHORIZATION_FAILED",
            ErrorCode::GroupAuthorizationFailed => "GROUP_AUTHORIZATION_FAILED",
            ErrorCode::ClusterAuthorizationFailed => "CLUSTER_AUTHORIZATION_FAILED",
            ErrorCode::InvalidTimestamp => "INVALID_TIMESTAMP",
            ErrorCode::UnsupportedSaslMechanism => "UNSUPPORTED_SASL_MECHANISM",
            ErrorCode::IllegalSaslState => "ILLEGAL_SASL_STATE",
            ErrorCode::UnsupportedVersion => "UNSUPPORTED_VERSION",
            ErrorCode::TopicAlreadyExists => "TOPIC_ALREADY_EXISTS",
            ErrorCode::InvalidPartitions => "INVALID_PARTITIONS",
            ErrorCode::InvalidReplicationFactor => "INVALID_REPLICATION_FACTOR",
            ErrorCode::InvalidReplicaAssignment => "INVALID_REPLICA_ASSIGNMENT",
            ErrorCode::InvalidConfig => "INVALID_CONFIG",
            ErrorCode::NotController => "NOT_CONTROLLER",
            ErrorCode::InvalidRequest => "INVALID_REQUEST",
            ErrorCode::UnsupportedForMessageFormat => "UNSUPPORTED_FOR_MESSAGE_FORMAT",
            ErrorCode::PolicyViolation => "POLICY_VIOLATION",
            ErrorCode::OutOfOrderSequenceNumber => "OUT_OF_ORDER_SEQUENCE_NUMBER",
            ErrorCode::DuplicateSequenceNumber => "DUPLICATE_SEQUENCE_NUMBER",
            ErrorCode::InvalidProducerEpoch => "INVALID_PRODUCER_EPOCH",
            ErrorCode::InvalidTxnState => "INVALID_TXN_STATE",
            ErrorCode::InvalidProducerIdMapping => "INVALID_PRODUCER_ID_MAPPING",
            ErrorCode::InvalidTransactionTimeout => "INVALID_TRANSACTION_TIMEOUT",
            ErrorCode::ConcurrentTransactions => "CONCURRENT_TRANSACTIONS",
            ErrorCode::TransactionCoordinatorFenced => "TRANSACTION_COORDINATOR_FENCED",
            ErrorCode::TransactionalIdAuthorizationFailed => {
                "TRANSACTIONAL_ID_AUTHORIZATION_FAILED"
            }
            ErrorCode::SecurityDisabled => "SECURITY_DISABLED",
            ErrorCode::OperationNotAttempted => "OPERATION_NOT_ATTEMPTED",
            ErrorCode::KafkaStorageError => "KAFKA_STORAGE_ERROR",
            ErrorCode::LogDirNotFound => "LOG_DIR_NOT_FOUND",
            ErrorCode::SaslAuthenticationFailed => "SASL_AUTHENTICATION_FAILED",
            ErrorCode::UnknownProducerId => "UNKNOWN_PRODUCER_ID",
            ErrorCode::ReassignmentInProgress => "REASSIGNMENT_IN_PROGRESS",
            ErrorCode::DelegationTokenAuthDisabled => "DELEGATION_TOKEN_AUTH_DISABLED",
            ErrorCode::DelegationTokenNotFound => "DELEGATION_TOKEN_NOT_FOUND",
            ErrorCode::DelegationTokenOwnerMismatch => "DELEGATION_TOKEN_OWNER_MISMATCH",
            ErrorCode::DelegationTokenRequestNotAllowed => "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED",
            ErrorCode::DelegationTokenAuthorizationFailed => {
                "DELEGATION_TOKEN_AUTHORIZATION_FAILED"
            }
            ErrorCode::DelegationTokenExpired => "DELEGATION_TOKEN_EXPIRED",
            ErrorCode::InvalidPrincipalType => "INVALID_PRINCIPAL_TYPE",
            ErrorCode::NonEmptyGroup => "NON_EMPTY_GROUP",
            ErrorCode::GroupIdNotFound => "GROUP_ID_NOT_FOUND",
            ErrorCode::FetchSessionIdNotFound => "FETCH_SESSION_ID_NOT_FOUND",
            ErrorCode::InvalidFetchSessionEpoch => "INVALID_FETCH_SESSION_EPOCH",
            ErrorCode::ListenerNotFound => "LISTENER_NOT_FOUND",
            ErrorCode::TopicDeletionDisabled => "TOPIC_DELETION_DISABLED",
            ErrorCode::FencedLeaderEpoch => "FENCED_LEADER_EPOCH",
            ErrorCode::UnknownLeaderEpoch => "UNKNOWN_LEADER_EPOCH",
            ErrorCode::UnsupportedCompressionType => "UNSUPPORTED_COMPRESSION_TYPE",
            ErrorCode::StaleBrokerEpoch => "STALE_BROKER_EPOCH",
            ErrorCode::OffsetNotAvailable => "OFFSET_NOT_AVAILABLE",
            ErrorCode::MemberIdRequired => "MEMBER_ID_REQUIRED",
            ErrorCode::PreferredLeaderNotAvailable => "PREFERRED_LEADER_NOT_AVAILABLE",
            ErrorCode::GroupMaxSizeReached => "GROUP_MAX_SIZE_REACHED",
            ErrorCode::FencedInstanceId => "FENCED_INSTANCE_ID",
            ErrorCode::EligibleLeadersNotAvailable => "ELIGIBLE_LEADERS_NOT_AVAILABLE",
            ErrorCode::ElectionNotNeeded => "ELECTION_NOT_NEEDED",
            ErrorCode::NoReassignmentInProgress => "NO_REASSIGNMENT_IN_PROGRESS",
            ErrorCode::GroupSubscribedToTopic => "GROUP_SUBSCRIBED_TO_TOPIC",
            ErrorCode::InvalidRecord => "INVALID_RECORD",
            ErrorCode::UnstableOffsetCommit => "UNSTABLE_OFFSET_COMMIT",
            ErrorCode::ThrottlingQuotaExceeded => "THROTTLING_QUOTA_EXCEEDED",
            ErrorCode::ProducerFenced => "PRODUCER_FENCED",
            ErrorCode::ResourceNotFound => "RESOURCE_NOT_FOUND",
            ErrorCode::DuplicateResource => "DUPLICATE_RESOURCE",
            ErrorCode::UnacceptableCredential => "UNACCEPTABLE_CREDENTIAL",
            ErrorCode::InconsistentVoterSet => "INCONSISTENT_VOTER_SET",
            ErrorCode::InvalidUpdateVersion => "INVALID_UPDATE_VERSION",
            ErrorCode::FeatureUpdateFailed => "FEATURE_UPDATE_FAILED",
            ErrorCode::PrincipalDeserializationFailure => "PRINCIPAL_DESERIALIZATION_FAILURE",
            ErrorCode::SnapshotNotFound => "SNAPSHOT_NOT_FOUND",
            ErrorCode::PositionOutOfRange => "POSITION_OUT_OF_RANGE",
            ErrorCode::UnknownTopicId => "UNKNOWN_TOPIC_ID",
            ErrorCode::DuplicateBrokerRegistration => "DUPLICATE_BROKER_REGISTRATION",
            ErrorCode::BrokerIdNotRegistered => "BROKER_ID_NOT_REGISTERED",
            ErrorCode::InconsistentTopicId => "INCONSISTENT_TOPIC_ID",
            ErrorCode::InconsistentClusterId => "INCONSISTENT_CLUSTER_ID",
            ErrorCode::TransactionalIdNotFound => "TRANSACTIONAL_ID_NOT_FOUND",
            ErrorCode::FetchSessionTopicIdError => "FETCH_SESSION_TOPIC_ID_ERROR",
            ErrorCode::IneligibleReplica => "INELIGIBLE_REPLICA",
            ErrorCode::NewLeaderElected => "NEW_LEADER_ELECTED",
            ErrorCode::OffsetMovedToTieredStorage => "OFFSET_MOVED_TO_TIERED_STORAGE",
            ErrorCode::FencedMemberEpoch => "FENCED_MEMBER_EPOCH",
            ErrorCode::UnreleasedInstanceId => "UNRELEASED_INSTANCE_ID",
            ErrorCode::UnsupportedAssignor => "UNSUPPORTED_ASSIGNOR",
            ErrorCode::StaleMemberEpoch => "STALE_MEMBER_EPOCH",
            ErrorCode::MismatchedEndpointType => "MISMATCHED_ENDPOINT_TYPE",
            ErrorCode::UnsupportedEndpointType => "UNSUPPORTED_ENDPOINT_TYPE",
            ErrorCode::UnknownControllerId => "UNKNOWN_CONTROLLER_ID",
            ErrorCode::UnknownSubscriptionId => "UNKNOWN_SUBSCRIPTION_ID",
            ErrorCode::TelemetryTooLarge => "TELEMETRY_TOO_LARGE",
            ErrorCode::InvalidRegistration => "INVALID_REGISTRATION",
            ErrorCode::TransactionAbortable => "TRANSACTION_ABORTABLE",
            ErrorCode::InvalidRecordState => "INVALID_RECORD_STATE",
            ErrorCode::ShareSessionNotFound => "SHARE_SESSION_NOT_FOUND",
            ErrorCode::InvalidShareSessionEpoch => "INVALID_SHARE_SESSION_EPOCH",
            ErrorCode::FencedStateEpoch => "FENCED_STATE_EPOCH",
            ErrorCode::InvalidVoterKey => "INVALID_VOTER_KEY",
            ErrorCode::DuplicateVoter => "DUPLICATE_VOTER",
            ErrorCode::VoterNotFound => "VOTER_NOT_FOUND",
            ErrorCode::InvalidRegularExpression => "INVALID_REGULAR_EXPRESSION",
            ErrorCode::RebootstrapRequired => "REBOOTSTRAP_REQUIRED",
            ErrorCode::StreamsInvalidTopology => "STREAMS_INVALID_TOPOLOGY",
            ErrorCode::StreamsInvalidTopologyEpoch => "STREAMS_INVALID_TOPOLOGY_EPOCH",
            ErrorCode::StreamsTopologyFenced => "STREAMS_TOPOLOGY_FENCED",
            ErrorCode::ShareSessionLimitReached => "SHARE_SESSION_LIMIT_REACHED",
            ErrorCode::ControllerIdNotRegistered => "CONTROLLER_ID_NOT_REGISTERED",
            ErrorCode::RequestLimitReached => "REQUEST_LIMIT_REACHED",
        }
    }

    /// True when a client may retry the same request unchanged.
    pub const fn is_retriable(self) -> bool {
        matches!(
            self,
            ErrorCode::CorruptMessage
                | ErrorCode::UnknownTopicOrPartition
                | ErrorCode::LeaderNotAvailable
                | ErrorCode::NotLeaderOrFollower
                | ErrorCode::RequestTimedOut
                | ErrorCode::ReplicaNotAvailable
                | ErrorCode::NetworkException
                | ErrorCode::CoordinatorLoadInProgress
                | ErrorCode::CoordinatorNotAvailable
                | ErrorCode::NotCoordinator
                | ErrorCode::NotEnoughReplicas
                | ErrorCode::NotEnoughReplicasAfterAppend
                | ErrorCode::NotController
                | ErrorCode::KafkaStorageError
                | ErrorCode::FetchSessionIdNotFound
                | ErrorCode::InvalidFetchSessionEpoch
                | ErrorCode::ListenerNotFound
                | ErrorCode::FencedLeaderEpoch
                | ErrorCode::UnknownLeaderEpoch
                | ErrorCode::OffsetNotAvailable
                | ErrorCode::PreferredLeaderNotAvailable
                | ErrorCode::EligibleLeadersNotAvailable
                | ErrorCode::ElectionNotNeeded
                | ErrorCode::UnstableOffsetCommit
                | ErrorCode::ThrottlingQuotaExceeded
                | ErrorCode::UnknownTopicId
                | ErrorCode::InconsistentTopicId
                | ErrorCode::FetchSessionTopicIdError
                | ErrorCode::ShareSessionNotFound
                | ErrorCode::InvalidShareSessionEpoch
                | ErrorCode::ShareSessionLimitReached
        )
    }

    /// The default human-readable message.
    pub const fn message(self) -> &'static str {
        match self {
            ErrorCode::UnknownServerError => "The server experienced an unexpected error when processing the request.",
            ErrorCode::None => "No error.",
            ErrorCode::OffsetOutOfRange => "The requested offset is not within the range of offsets maintained by the server.",
            ErrorCode::CorruptMessage => "This message has failed its CRC checksum, exceeds the valid size, has a null key for a compacted topic, or is otherwise corrupt.",
            ErrorCode::UnknownTopicOrPartition => "This server does not host this topic-partition.",
            ErrorCode::InvalidFetchSize => "The requested fetch size is invalid.",
            ErrorCode::LeaderNotAvailable => "There is no leader for this topic-partition as we are in the middle of a leadership election.",
            ErrorCode::NotLeaderOrFollower => "For requests intended only for the leader, this error indicates that the broker is not the current leader. For requests intended for any replica, this error indicates that the broker is not a replica of the topic partition.",
            ErrorCode::RequestTimedOut => "The request timed out.",
            ErrorCode::BrokerNotAvailable => "The broker is not available.",
            ErrorCode::ReplicaNotAvailable => "The replica is not available for the requested topic-partition. Produce/Fetch requests and other requests intended only for the leader or follower return NOT_LEADER_OR_FOLLOWER if the broker is not a replica of the topic-partition.",
            ErrorCode::MessageTooLarge => "The request included a message larger than the max message size the server will accept.",
            ErrorCode::StaleControllerEpoch => "The controller moved to another broker.",
            ErrorCode::OffsetMetadataTooLarge => "The metadata field of the offset request was too large.",
            ErrorCode::NetworkException => "The server disconnected before a response was received.",
            ErrorCode::CoordinatorLoadInProgress => "The coordinator is loading and hence can't process requests.",
            ErrorCode::CoordinatorNotAvailable => "The coordinator is not available.",
            ErrorCode::NotCoordinator => "This is not the correct coordinator.",
            ErrorCode::InvalidTopicException => "The request attempted to perform an operation on an invalid topic.",
            ErrorCode::RecordListTooLarge => "The request included message batch larger than the configured segment size on the server.",
            ErrorCode::NotEnoughReplicas => "Messages are rejected since there are fewer in-sync replicas than required.",
            ErrorCode::NotEnoughReplicasAfterAppend => "Messages are written to the log, but to fewer in-sync replicas than required.",
            ErrorCode::InvalidRequiredAcks => "Produce request specified an invalid value for required acks.",
            ErrorCode::IllegalGeneration => "Specified group generation id is not valid.",
            ErrorCode::InconsistentGroupProtocol => "The group member's supported protocols are incompatible with those of existing members or first group member tried to join with empty protocol type or empty protocol list.",
            ErrorCode::InvalidGroupId => "The configured groupId is invalid.",
            ErrorCode::UnknownMemberId => "The coordinator is not aware of this member.",
            ErrorCode::InvalidSessionTimeout => "The session timeout is not within the range allowed by the broker (as configured by group.min.session.timeout.ms and group.max.session.timeout.ms).",
            ErrorCode::RebalanceInProgress => "The group is rebalancing, so a rejoin is needed.",
            ErrorCode::InvalidCommitOffsetSize => "The committing offset data size is not valid.",
            ErrorCode::TopicAuthorizationFailed => "Topic authorization failed.",
            ErrorCode::GroupAuthorizationFailed => "Group authorization failed.",
            ErrorCode::ClusterAuthorizationFailed => "Cluster authorization failed.",
            ErrorCode::InvalidTimestamp => "The timestamp of the message is out of acceptable range.",
            ErrorCode::UnsupportedSaslMechanism => "The broker does not support the requested SASL mechanism.",
            ErrorCode::IllegalSaslState => "Request is not valid given the current SASL state.",
            ErrorCode::UnsupportedVersion => "The version of API is not supported.",
            ErrorCode::TopicAlreadyExists => "Topic with this name already exists.",
            ErrorCode::InvalidPartitions => "Number of partitions is below 1.",
            ErrorCode::InvalidReplicationFactor => "Replication factor is below 1 or larger than the number of available brokers.",
            ErrorCode::InvalidReplicaAssignment => "Replica assignment is invalid.",
            ErrorCode::InvalidConfig => "Configuration is invalid.",
            ErrorCode::NotController => "This is not the correct controller for this cluster.",
            ErrorCode::InvalidRequest => "This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.",
            ErrorCode::UnsupportedForMessageFormat => "The message format version on the broker does not support the request.",
            ErrorCode::PolicyViolation => "Request parameters do not satisfy the configured policy.",
            ErrorCode::OutOfOrderSequenceNumber => "The broker received an out of order sequence number.",
            ErrorCode::DuplicateSequenceNumber => "The broker received a duplicate sequence number.",
            ErrorCode::InvalidProducerEpoch => "Producer attempted to produce with an old epoch.",
            ErrorCode::InvalidTxnState => "The producer attempted a transactional operation in an invalid state.",
            ErrorCode::InvalidProducerIdMapping => "The producer attempted to use a producer id which is not currently assigned to its transactional id.",
            ErrorCode::InvalidTransactionTimeout => "The transaction timeout is larger than the maximum value allowed by the broker (as configured by transaction.max.timeout.ms).",
            ErrorCode::ConcurrentTransactions => "The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing.",
            ErrorCode::TransactionCoordinatorFenced => "Indicates that the transaction coordinator sending a WriteTxnMarker is no longer the current coordinator for a given producer.",
            ErrorCode::TransactionalIdAuthorizationFailed => "Transactional Id authorization failed.",
            ErrorCode::SecurityDisabled => "Security features are disabled.",
            ErrorCode::OperationNotAttempted => "The broker did not attempt to execute this operation. This may happen for batched RPCs where some operations in the batch failed, causing the broker to respond without trying the rest.",
            ErrorCode::KafkaStorageError => "Disk error when trying to access log file on the disk.",
            ErrorCode::LogDirNotFound => "The user-specified log directory is not found in the broker config.",
            ErrorCode::SaslAuthenticationFailed => "SASL Authentication failed.",
            ErrorCode::UnknownProducerId => "This exception is raised by the broker if it could not locate the producer metadata associated with the producerId in question. This could happen if, for instance, the producer's records were deleted because their retention time had elapsed. Once the last records of the producerId are removed, the producer's metadata is removed from the broker, and future appends by the producer will return this exception.",
            ErrorCode::ReassignmentInProgress => "A partition reassignment is in progress.",
            ErrorCode::DelegationTokenAuthDisabled => "Delegation Token feature is not enabled.",
            ErrorCode::DelegationTokenNotFound => "Delegation Token is not found on server.",
            ErrorCode::DelegationTokenOwnerMismatch => "Specified Principal is not valid Owner/Renewer.",
            ErrorCode::DelegationTokenRequestNotAllowed => "Delegation Token requests are not allowed on PLAINTEXT/1-way SSL channels and on delegation token authenticated channels.",
            ErrorCode::DelegationTokenAuthorizationFailed => "Delegation Token authorization failed.",
            ErrorCode::DelegationTokenExpired => "Delegation Token is expired.",
            ErrorCode::InvalidPrincipalType => "Supplied principalType is not supported.",
            ErrorCode::NonEmptyGroup => "The group is not empty.",
            ErrorCode::GroupIdNotFound => "The group id does not exist.",
            ErrorCode::FetchSessionIdNotFound => "The fetch session ID was not found.",
            ErrorCode::InvalidFetchSessionEpoch => "The fetch session epoch is invalid.",
            ErrorCode::ListenerNotFound => "There is no listener on the leader broker that matches the listener on which metadata request was processed.",
            ErrorCode::TopicDeletionDisabled => "Topic deletion is disabled.",
            ErrorCode::FencedLeaderEpoch => "The leader epoch in the request is older than the epoch on the broker.",
            ErrorCode::UnknownLeaderEpoch => "The leader epoch in the request is newer than the epoch on the broker.",
            ErrorCode::UnsupportedCompressionType => "The requesting client does not support the compression type of given partition.",
            ErrorCode::StaleBrokerEpoch => "Broker epoch has changed.",
            ErrorCode::OffsetNotAvailable => "The leader high watermark has not caught up from a recent leader election so the offsets cannot be guaranteed to be monotonically increasing.",
            ErrorCode::MemberIdRequired => "The group member needs to have a valid member id before actually entering a consumer group.",
            ErrorCode::PreferredLeaderNotAvailable => "The preferred leader was not available.",
            ErrorCode::GroupMaxSizeReached => "The consumer group has reached its max size.",
            ErrorCode::FencedInstanceId => "The broker rejected this static consumer since another consumer with the same group.instance.id has registered with a different member.id.",
            ErrorCode::EligibleLeadersNotAvailable => "Eligible topic partition leaders are not available.",
            ErrorCode::ElectionNotNeeded => "Leader election not needed for topic partition.",
            ErrorCode::NoReassignmentInProgress => "No partition reassignment is in progress.",
            ErrorCode::GroupSubscribedToTopic => "Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it.",
            ErrorCode::InvalidRecord => "This record has failed the validation on broker and hence will be rejected.",
            ErrorCode::UnstableOffsetCommit => "There are unstable offsets that need to be cleared.",
            ErrorCode::ThrottlingQuotaExceeded => "The throttling quota has been exceeded.",
            ErrorCode::ProducerFenced => "There is a newer producer with the same transactionalId which fences the current one.",
            ErrorCode::ResourceNotFound => "A request illegally referred to a resource that does not exist.",
            ErrorCode::DuplicateResource => "A request illegally referred to the same resource twice.",
            ErrorCode::UnacceptableCredential => "Requested credential would not meet criteria for acceptability.",
            ErrorCode::InconsistentVoterSet => "Indicates that the either the sender or recipient of a voter-only request is not one of the expected voters",
            ErrorCode::InvalidUpdateVersion => "The given update version was invalid.",
            ErrorCode::FeatureUpdateFailed => "Unable to update finalized features due to an unexpected server error.",
            ErrorCode::PrincipalDeserializationFailure => "Request principal deserialization failed during forwarding. This indicates an internal error on the broker cluster security setup.",
            ErrorCode::SnapshotNotFound => "Requested snapshot was not found",
            ErrorCode::PositionOutOfRange => "Requested position is not greater than or equal to zero, and less than the size of the snapshot.",
            ErrorCode::UnknownTopicId => "This server does not host this topic ID.",
            ErrorCode::DuplicateBrokerRegistration => "This broker ID is already in use.",
            ErrorCode::BrokerIdNotRegistered => "The given broker ID was not registered.",
            ErrorCode::InconsistentTopicId => "The log's topic ID did not match the topic ID in the request",
            ErrorCode::InconsistentClusterId => "The clusterId in the request does not match that found on the server",
            ErrorCode::TransactionalIdNotFound => "The transactionalId could not be found",
            ErrorCode::FetchSessionTopicIdError => "The fetch session encountered inconsistent topic ID usage",
            ErrorCode::IneligibleReplica => "The new ISR contains at least one ineligible replica.",
            ErrorCode::NewLeaderElected => "The AlterPartition request successfully updated the partition state but the leader has changed.",
            ErrorCode::OffsetMovedToTieredStorage => "The requested offset is moved to tiered storage.",
            ErrorCode::FencedMemberEpoch => "The member epoch is fenced by the group coordinator. The member must abandon all its partitions and rejoin.",
            ErrorCode::UnreleasedInstanceId => "The instance ID is still used by another member in the consumer group. That member must leave first.",
            ErrorCode::UnsupportedAssignor => "The assignor or its version range is not supported by the consumer group.",
            ErrorCode::StaleMemberEpoch => "The member epoch is stale. The member must retry after receiving its updated member epoch via the ConsumerGroupHeartbeat API.",
            ErrorCode::MismatchedEndpointType => "The request was sent to an endpoint of the wrong type.",
            ErrorCode::UnsupportedEndpointType => "This endpoint type is not supported yet.",
            ErrorCode::UnknownControllerId => "This controller ID is not known.",
            ErrorCode::UnknownSubscriptionId => "Client sent a push telemetry request with an invalid or outdated subscription ID.",
            ErrorCode::TelemetryTooLarge => "Client sent a push telemetry request larger than the maximum size the broker will accept.",
            ErrorCode::InvalidRegistration => "The controller has considered the broker registration to be invalid.",
            ErrorCode::TransactionAbortable => "The server encountered an error with the transaction. The client can abort the transaction to continue using this transactional ID.",
            ErrorCode::InvalidRecordState => "The record state is invalid. The acknowledgement of delivery could not be completed.",
            ErrorCode::ShareSessionNotFound => "The share session was not found.",
            ErrorCode::InvalidShareSessionEpoch => "The share session epoch is invalid.",
            ErrorCode::FencedStateEpoch => "The share coordinator rejected the request because the share-group state epoch did not match.",
            ErrorCode::InvalidVoterKey => "The voter key doesn't match the receiving replica's key.",
            ErrorCode::DuplicateVoter => "The voter is already part of the set of voters.",
            ErrorCode::VoterNotFound => "The voter is not part of the set of voters.",
            ErrorCode::InvalidRegularExpression => "The regular expression is not valid.",
            ErrorCode::RebootstrapRequired => "Client metadata is stale, client should rebootstrap to obtain new metadata.",
            ErrorCode::StreamsInvalidTopology => "The supplied topology is invalid.",
            ErrorCode::StreamsInvalidTopologyEpoch => "The supplied topology epoch is invalid.",
            ErrorCode::StreamsTopologyFenced => "The supplied topology epoch is outdated.",
            ErrorCode::ShareSessionLimitReached => "The limit of share sessions has been reached.",
            ErrorCode::ControllerIdNotRegistered => "The controller ID is not currently registered.",
            ErrorCode::RequestLimitReached => "The request asked for more items than one request may act on; the rest were not acted on and may be sent again.",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.name(), self.code(), self.message())
    }
}
