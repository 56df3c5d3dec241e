//! The Kafka error-code table (name, number, retriable, default message), plus fjord's own
//! codes from 1000 up (`REQUEST_LIMIT_REACHED`).

/// Declares [`ErrorCode`] and its table from one row per code: variant, wire number, Kafka's
/// name, whether a client may retry the same request unchanged, and the default message
/// (which is also the variant's doc).
macro_rules! error_codes {
    ($($variant:ident = $code:literal, $name:literal, $retriable:literal, $message:literal;)*) => {
        /// A Kafka protocol error code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(i16)]
        pub enum ErrorCode {
            $(
                #[doc = $message]
                $variant = $code,
            )*
        }

        impl ErrorCode {
            /// Every error code, in numeric order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant),*];

            /// The code for a wire number, if it is one this build knows.
            pub fn from_code(code: i16) -> Option<ErrorCode> {
                match code {
                    $($code => Some(ErrorCode::$variant),)*
                    _ => None,
                }
            }

            /// Kafka's name for the error, e.g. `NOT_LEADER_OR_FOLLOWER`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $name,)*
                }
            }

            /// True when a client may retry the same request unchanged.
            pub const fn is_retriable(self) -> bool {
                match self {
                    $(ErrorCode::$variant => $retriable,)*
                }
            }

            /// The default human-readable message.
            pub const fn message(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $message,)*
                }
            }
        }
    };
}

error_codes! {
    UnknownServerError = -1, "UNKNOWN_SERVER_ERROR", false, "The server experienced an unexpected error when processing the request.";
    None = 0, "NONE", false, "No error.";
    OffsetOutOfRange = 1, "OFFSET_OUT_OF_RANGE", false, "The requested offset is not within the range of offsets maintained by the server.";
    CorruptMessage = 2, "CORRUPT_MESSAGE", true, "This message has failed its CRC checksum, exceeds the valid size, has a null key for a compacted topic, or is otherwise corrupt.";
    UnknownTopicOrPartition = 3, "UNKNOWN_TOPIC_OR_PARTITION", true, "This server does not host this topic-partition.";
    InvalidFetchSize = 4, "INVALID_FETCH_SIZE", false, "The requested fetch size is invalid.";
    LeaderNotAvailable = 5, "LEADER_NOT_AVAILABLE", true, "There is no leader for this topic-partition as we are in the middle of a leadership election.";
    NotLeaderOrFollower = 6, "NOT_LEADER_OR_FOLLOWER", true, "For requests intended only for the leader, this error indicates that the broker is not the current leader. For requests intended for any replica, this error indicates that the broker is not a replica of the topic partition.";
    RequestTimedOut = 7, "REQUEST_TIMED_OUT", true, "The request timed out.";
    BrokerNotAvailable = 8, "BROKER_NOT_AVAILABLE", false, "The broker is not available.";
    ReplicaNotAvailable = 9, "REPLICA_NOT_AVAILABLE", true, "The replica is not available for the requested topic-partition. Produce/Fetch requests and other requests intended only for the leader or follower return NOT_LEADER_OR_FOLLOWER if the broker is not a replica of the topic-partition.";
    MessageTooLarge = 10, "MESSAGE_TOO_LARGE", false, "The request included a message larger than the max message size the server will accept.";
    StaleControllerEpoch = 11, "STALE_CONTROLLER_EPOCH", false, "The controller moved to another broker.";
    OffsetMetadataTooLarge = 12, "OFFSET_METADATA_TOO_LARGE", false, "The metadata field of the offset request was too large.";
    NetworkException = 13, "NETWORK_EXCEPTION", true, "The server disconnected before a response was received.";
    CoordinatorLoadInProgress = 14, "COORDINATOR_LOAD_IN_PROGRESS", true, "The coordinator is loading and hence can't process requests.";
    CoordinatorNotAvailable = 15, "COORDINATOR_NOT_AVAILABLE", true, "The coordinator is not available.";
    NotCoordinator = 16, "NOT_COORDINATOR", true, "This is not the correct coordinator.";
    InvalidTopicException = 17, "INVALID_TOPIC_EXCEPTION", false, "The request attempted to perform an operation on an invalid topic.";
    RecordListTooLarge = 18, "RECORD_LIST_TOO_LARGE", false, "The request included message batch larger than the configured segment size on the server.";
    NotEnoughReplicas = 19, "NOT_ENOUGH_REPLICAS", true, "Messages are rejected since there are fewer in-sync replicas than required.";
    NotEnoughReplicasAfterAppend = 20, "NOT_ENOUGH_REPLICAS_AFTER_APPEND", true, "Messages are written to the log, but to fewer in-sync replicas than required.";
    InvalidRequiredAcks = 21, "INVALID_REQUIRED_ACKS", false, "Produce request specified an invalid value for required acks.";
    IllegalGeneration = 22, "ILLEGAL_GENERATION", false, "Specified group generation id is not valid.";
    InconsistentGroupProtocol = 23, "INCONSISTENT_GROUP_PROTOCOL", false, "The group member's supported protocols are incompatible with those of existing members or first group member tried to join with empty protocol type or empty protocol list.";
    InvalidGroupId = 24, "INVALID_GROUP_ID", false, "The configured groupId is invalid.";
    UnknownMemberId = 25, "UNKNOWN_MEMBER_ID", false, "The coordinator is not aware of this member.";
    InvalidSessionTimeout = 26, "INVALID_SESSION_TIMEOUT", false, "The session timeout is not within the range allowed by the broker (as configured by group.min.session.timeout.ms and group.max.session.timeout.ms).";
    RebalanceInProgress = 27, "REBALANCE_IN_PROGRESS", false, "The group is rebalancing, so a rejoin is needed.";
    InvalidCommitOffsetSize = 28, "INVALID_COMMIT_OFFSET_SIZE", false, "The committing offset data size is not valid.";
    TopicAuthorizationFailed = 29, "TOPIC_AUTHORIZATION_FAILED", false, "Topic authorization failed.";
    GroupAuthorizationFailed = 30, "GROUP_AUTHORIZATION_FAILED", false, "Group authorization failed.";
    ClusterAuthorizationFailed = 31, "CLUSTER_AUTHORIZATION_FAILED", false, "Cluster authorization failed.";
    InvalidTimestamp = 32, "INVALID_TIMESTAMP", false, "The timestamp of the message is out of acceptable range.";
    UnsupportedSaslMechanism = 33, "UNSUPPORTED_SASL_MECHANISM", false, "The broker does not support the requested SASL mechanism.";
    IllegalSaslState = 34, "ILLEGAL_SASL_STATE", false, "Request is not valid given the current SASL state.";
    UnsupportedVersion = 35, "UNSUPPORTED_VERSION", false, "The version of API is not supported.";
    TopicAlreadyExists = 36, "TOPIC_ALREADY_EXISTS", false, "Topic with this name already exists.";
    InvalidPartitions = 37, "INVALID_PARTITIONS", false, "Number of partitions is below 1.";
    InvalidReplicationFactor = 38, "INVALID_REPLICATION_FACTOR", false, "Replication factor is below 1 or larger than the number of available brokers.";
    InvalidReplicaAssignment = 39, "INVALID_REPLICA_ASSIGNMENT", false, "Replica assignment is invalid.";
    InvalidConfig = 40, "INVALID_CONFIG", false, "Configuration is invalid.";
    NotController = 41, "NOT_CONTROLLER", true, "This is not the correct controller for this cluster.";
    InvalidRequest = 42, "INVALID_REQUEST", false, "This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.";
    UnsupportedForMessageFormat = 43, "UNSUPPORTED_FOR_MESSAGE_FORMAT", false, "The message format version on the broker does not support the request.";
    PolicyViolation = 44, "POLICY_VIOLATION", false, "Request parameters do not satisfy the configured policy.";
    OutOfOrderSequenceNumber = 45, "OUT_OF_ORDER_SEQUENCE_NUMBER", false, "The broker received an out of order sequence number.";
    DuplicateSequenceNumber = 46, "DUPLICATE_SEQUENCE_NUMBER", false, "The broker received a duplicate sequence number.";
    InvalidProducerEpoch = 47, "INVALID_PRODUCER_EPOCH", false, "Producer attempted to produce with an old epoch.";
    InvalidTxnState = 48, "INVALID_TXN_STATE", false, "The producer attempted a transactional operation in an invalid state.";
    InvalidProducerIdMapping = 49, "INVALID_PRODUCER_ID_MAPPING", false, "The producer attempted to use a producer id which is not currently assigned to its transactional id.";
    InvalidTransactionTimeout = 50, "INVALID_TRANSACTION_TIMEOUT", false, "The transaction timeout is larger than the maximum value allowed by the broker (as configured by transaction.max.timeout.ms).";
    ConcurrentTransactions = 51, "CONCURRENT_TRANSACTIONS", false, "The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing.";
    TransactionCoordinatorFenced = 52, "TRANSACTION_COORDINATOR_FENCED", false, "Indicates that the transaction coordinator sending a WriteTxnMarker is no longer the current coordinator for a given producer.";
    TransactionalIdAuthorizationFailed = 53, "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", false, "Transactional Id authorization failed.";
    SecurityDisabled = 54, "SECURITY_DISABLED", false, "Security features are disabled.";
    OperationNotAttempted = 55, "OPERATION_NOT_ATTEMPTED", false, "The broker did not attempt to execute this operation. This may happen for batched RPCs where some operations in the batch failed, causing the broker to respond without trying the rest.";
    KafkaStorageError = 56, "KAFKA_STORAGE_ERROR", true, "Disk error when trying to access log file on the disk.";
    LogDirNotFound = 57, "LOG_DIR_NOT_FOUND", false, "The user-specified log directory is not found in the broker config.";
    SaslAuthenticationFailed = 58, "SASL_AUTHENTICATION_FAILED", false, "SASL Authentication failed.";
    UnknownProducerId = 59, "UNKNOWN_PRODUCER_ID", false, "This exception is raised by the broker if it could not locate the producer metadata associated with the producerId in question. This could happen if, for instance, the producer's records were deleted because their retention time had elapsed. Once the last records of the producerId are removed, the producer's metadata is removed from the broker, and future appends by the producer will return this exception.";
    ReassignmentInProgress = 60, "REASSIGNMENT_IN_PROGRESS", false, "A partition reassignment is in progress.";
    DelegationTokenAuthDisabled = 61, "DELEGATION_TOKEN_AUTH_DISABLED", false, "Delegation Token feature is not enabled.";
    DelegationTokenNotFound = 62, "DELEGATION_TOKEN_NOT_FOUND", false, "Delegation Token is not found on server.";
    DelegationTokenOwnerMismatch = 63, "DELEGATION_TOKEN_OWNER_MISMATCH", false, "Specified Principal is not valid Owner/Renewer.";
    DelegationTokenRequestNotAllowed = 64, "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", false, "Delegation Token requests are not allowed on PLAINTEXT/1-way SSL channels and on delegation token authenticated channels.";
    DelegationTokenAuthorizationFailed = 65, "DELEGATION_TOKEN_AUTHORIZATION_FAILED", false, "Delegation Token authorization failed.";
    DelegationTokenExpired = 66, "DELEGATION_TOKEN_EXPIRED", false, "Delegation Token is expired.";
    InvalidPrincipalType = 67, "INVALID_PRINCIPAL_TYPE", false, "Supplied principalType is not supported.";
    NonEmptyGroup = 68, "NON_EMPTY_GROUP", false, "The group is not empty.";
    GroupIdNotFound = 69, "GROUP_ID_NOT_FOUND", false, "The group id does not exist.";
    FetchSessionIdNotFound = 70, "FETCH_SESSION_ID_NOT_FOUND", true, "The fetch session ID was not found.";
    InvalidFetchSessionEpoch = 71, "INVALID_FETCH_SESSION_EPOCH", true, "The fetch session epoch is invalid.";
    ListenerNotFound = 72, "LISTENER_NOT_FOUND", true, "There is no listener on the leader broker that matches the listener on which metadata request was processed.";
    TopicDeletionDisabled = 73, "TOPIC_DELETION_DISABLED", false, "Topic deletion is disabled.";
    FencedLeaderEpoch = 74, "FENCED_LEADER_EPOCH", true, "The leader epoch in the request is older than the epoch on the broker.";
    UnknownLeaderEpoch = 75, "UNKNOWN_LEADER_EPOCH", true, "The leader epoch in the request is newer than the epoch on the broker.";
    UnsupportedCompressionType = 76, "UNSUPPORTED_COMPRESSION_TYPE", false, "The requesting client does not support the compression type of given partition.";
    StaleBrokerEpoch = 77, "STALE_BROKER_EPOCH", false, "Broker epoch has changed.";
    OffsetNotAvailable = 78, "OFFSET_NOT_AVAILABLE", true, "The leader high watermark has not caught up from a recent leader election so the offsets cannot be guaranteed to be monotonically increasing.";
    MemberIdRequired = 79, "MEMBER_ID_REQUIRED", false, "The group member needs to have a valid member id before actually entering a consumer group.";
    PreferredLeaderNotAvailable = 80, "PREFERRED_LEADER_NOT_AVAILABLE", true, "The preferred leader was not available.";
    GroupMaxSizeReached = 81, "GROUP_MAX_SIZE_REACHED", false, "The consumer group has reached its max size.";
    FencedInstanceId = 82, "FENCED_INSTANCE_ID", false, "The broker rejected this static consumer since another consumer with the same group.instance.id has registered with a different member.id.";
    EligibleLeadersNotAvailable = 83, "ELIGIBLE_LEADERS_NOT_AVAILABLE", true, "Eligible topic partition leaders are not available.";
    ElectionNotNeeded = 84, "ELECTION_NOT_NEEDED", true, "Leader election not needed for topic partition.";
    NoReassignmentInProgress = 85, "NO_REASSIGNMENT_IN_PROGRESS", false, "No partition reassignment is in progress.";
    GroupSubscribedToTopic = 86, "GROUP_SUBSCRIBED_TO_TOPIC", false, "Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it.";
    InvalidRecord = 87, "INVALID_RECORD", false, "This record has failed the validation on broker and hence will be rejected.";
    UnstableOffsetCommit = 88, "UNSTABLE_OFFSET_COMMIT", true, "There are unstable offsets that need to be cleared.";
    ThrottlingQuotaExceeded = 89, "THROTTLING_QUOTA_EXCEEDED", true, "The throttling quota has been exceeded.";
    ProducerFenced = 90, "PRODUCER_FENCED", false, "There is a newer producer with the same transactionalId which fences the current one.";
    ResourceNotFound = 91, "RESOURCE_NOT_FOUND", false, "A request illegally referred to a resource that does not exist.";
    DuplicateResource = 92, "DUPLICATE_RESOURCE", false, "A request illegally referred to the same resource twice.";
    UnacceptableCredential = 93, "UNACCEPTABLE_CREDENTIAL", false, "Requested credential would not meet criteria for acceptability.";
    InconsistentVoterSet = 94, "INCONSISTENT_VOTER_SET", false, "Indicates that the either the sender or recipient of a voter-only request is not one of the expected voters";
    InvalidUpdateVersion = 95, "INVALID_UPDATE_VERSION", false, "The given update version was invalid.";
    FeatureUpdateFailed = 96, "FEATURE_UPDATE_FAILED", false, "Unable to update finalized features due to an unexpected server error.";
    PrincipalDeserializationFailure = 97, "PRINCIPAL_DESERIALIZATION_FAILURE", false, "Request principal deserialization failed during forwarding. This indicates an internal error on the broker cluster security setup.";
    SnapshotNotFound = 98, "SNAPSHOT_NOT_FOUND", false, "Requested snapshot was not found";
    PositionOutOfRange = 99, "POSITION_OUT_OF_RANGE", false, "Requested position is not greater than or equal to zero, and less than the size of the snapshot.";
    UnknownTopicId = 100, "UNKNOWN_TOPIC_ID", true, "This server does not host this topic ID.";
    DuplicateBrokerRegistration = 101, "DUPLICATE_BROKER_REGISTRATION", false, "This broker ID is already in use.";
    BrokerIdNotRegistered = 102, "BROKER_ID_NOT_REGISTERED", false, "The given broker ID was not registered.";
    InconsistentTopicId = 103, "INCONSISTENT_TOPIC_ID", true, "The log's topic ID did not match the topic ID in the request";
    InconsistentClusterId = 104, "INCONSISTENT_CLUSTER_ID", false, "The clusterId in the request does not match that found on the server";
    TransactionalIdNotFound = 105, "TRANSACTIONAL_ID_NOT_FOUND", false, "The transactionalId could not be found";
    FetchSessionTopicIdError = 106, "FETCH_SESSION_TOPIC_ID_ERROR", true, "The fetch session encountered inconsistent topic ID usage";
    IneligibleReplica = 107, "INELIGIBLE_REPLICA", false, "The new ISR contains at least one ineligible replica.";
    NewLeaderElected = 108, "NEW_LEADER_ELECTED", false, "The AlterPartition request successfully updated the partition state but the leader has changed.";
    OffsetMovedToTieredStorage = 109, "OFFSET_MOVED_TO_TIERED_STORAGE", false, "The requested offset is moved to tiered storage.";
    FencedMemberEpoch = 110, "FENCED_MEMBER_EPOCH", false, "The member epoch is fenced by the group coordinator. The member must abandon all its partitions and rejoin.";
    UnreleasedInstanceId = 111, "UNRELEASED_INSTANCE_ID", false, "The instance ID is still used by another member in the consumer group. That member must leave first.";
    UnsupportedAssignor = 112, "UNSUPPORTED_ASSIGNOR", false, "The assignor or its version range is not supported by the consumer group.";
    StaleMemberEpoch = 113, "STALE_MEMBER_EPOCH", false, "The member epoch is stale. The member must retry after receiving its updated member epoch via the ConsumerGroupHeartbeat API.";
    MismatchedEndpointType = 114, "MISMATCHED_ENDPOINT_TYPE", false, "The request was sent to an endpoint of the wrong type.";
    UnsupportedEndpointType = 115, "UNSUPPORTED_ENDPOINT_TYPE", false, "This endpoint type is not supported yet.";
    UnknownControllerId = 116, "UNKNOWN_CONTROLLER_ID", false, "This controller ID is not known.";
    UnknownSubscriptionId = 117, "UNKNOWN_SUBSCRIPTION_ID", false, "Client sent a push telemetry request with an invalid or outdated subscription ID.";
    TelemetryTooLarge = 118, "TELEMETRY_TOO_LARGE", false, "Client sent a push telemetry request larger than the maximum size the broker will accept.";
    InvalidRegistration = 119, "INVALID_REGISTRATION", false, "The controller has considered the broker registration to be invalid.";
    TransactionAbortable = 120, "TRANSACTION_ABORTABLE", false, "The server encountered an error with the transaction. The client can abort the transaction to continue using this transactional ID.";
    InvalidRecordState = 121, "INVALID_RECORD_STATE", false, "The record state is invalid. The acknowledgement of delivery could not be completed.";
    ShareSessionNotFound = 122, "SHARE_SESSION_NOT_FOUND", true, "The share session was not found.";
    InvalidShareSessionEpoch = 123, "INVALID_SHARE_SESSION_EPOCH", true, "The share session epoch is invalid.";
    FencedStateEpoch = 124, "FENCED_STATE_EPOCH", false, "The share coordinator rejected the request because the share-group state epoch did not match.";
    InvalidVoterKey = 125, "INVALID_VOTER_KEY", false, "The voter key doesn't match the receiving replica's key.";
    DuplicateVoter = 126, "DUPLICATE_VOTER", false, "The voter is already part of the set of voters.";
    VoterNotFound = 127, "VOTER_NOT_FOUND", false, "The voter is not part of the set of voters.";
    InvalidRegularExpression = 128, "INVALID_REGULAR_EXPRESSION", false, "The regular expression is not valid.";
    RebootstrapRequired = 129, "REBOOTSTRAP_REQUIRED", false, "Client metadata is stale, client should rebootstrap to obtain new metadata.";
    StreamsInvalidTopology = 130, "STREAMS_INVALID_TOPOLOGY", false, "The supplied topology is invalid.";
    StreamsInvalidTopologyEpoch = 131, "STREAMS_INVALID_TOPOLOGY_EPOCH", false, "The supplied topology epoch is invalid.";
    StreamsTopologyFenced = 132, "STREAMS_TOPOLOGY_FENCED", false, "The supplied topology epoch is outdated.";
    ShareSessionLimitReached = 133, "SHARE_SESSION_LIMIT_REACHED", true, "The limit of share sessions has been reached.";
    GroupDeletionFailed = 134, "GROUP_DELETION_FAILED", false, "DeleteGroups could not complete; see the error message on the per-group result for details.";
    StreamsTopologyDescriptionUpdateFailed = 135, "STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED", false, "The broker could not process the topology description update; see the error message for details.";
    ControllerIdNotRegistered = 136, "CONTROLLER_ID_NOT_REGISTERED", false, "The controller ID is not currently registered.";
    RequestLimitReached = 1000, "REQUEST_LIMIT_REACHED", false, "The request asked for more items than one request may act on; the rest were not acted on and may be sent again.";
}

impl ErrorCode {
    /// The numeric code on the wire.
    pub const fn code(self) -> i16 {
        self as i16
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.name(), self.code(), self.message())
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn the_table_is_ordered_and_every_code_round_trips() {
        assert!(ErrorCode::ALL.windows(2).all(|w| w[0].code() < w[1].code()));
        let mut names = std::collections::HashSet::new();
        for &e in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_code(e.code()), Some(e));
            assert!(names.insert(e.name()), "{} twice", e.name());
            assert!(e
                .name()
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'));
            assert!(!e.message().is_empty());
        }
        assert_eq!(ErrorCode::from_code(999), None);
    }

    #[test]
    fn a_few_rows_as_kafka_has_them() {
        let e = ErrorCode::NotLeaderOrFollower;
        assert_eq!(
            (e.code(), e.name(), e.is_retriable()),
            (6, "NOT_LEADER_OR_FOLLOWER", true)
        );
        let e = ErrorCode::TopicAuthorizationFailed;
        assert_eq!(
            (e.code(), e.name(), e.is_retriable()),
            (29, "TOPIC_AUTHORIZATION_FAILED", false)
        );
        assert_eq!(ErrorCode::None.message(), "No error.");
    }
}
