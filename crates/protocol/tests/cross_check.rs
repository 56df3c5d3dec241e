//! Cross-check against the independent `kafka-protocol` crate. For every API both define, at
//! every version both support, with seeded sample values:
//! 1. ours encodes, theirs decodes every byte and re-encodes the identical bytes;
//! 2. theirs' encoding decodes with ours to a value equal, field for field, to the original.

use bytes::{Bytes, BytesMut};
use fjord_protocol::generated as ours;
use fjord_protocol::sample::SampleRng;
use kafka_protocol::messages as theirs;
use kafka_protocol::protocol::{Decodable, Encodable, Message};

const SEEDS_PER_VERSION: u64 = 24;

/// What one message's cross-check covered.
struct Coverage {
    name: &'static str,
    versions: Vec<i16>,
}

fn check_one<O, T>(
    name: &'static str,
    our_range: (i16, i16),
    sample: fn(&mut SampleRng, i16) -> O,
    fixup: fn(&mut O, i16),
    encode: fn(&O, &mut BytesMut, i16),
    decode: fn(&mut Bytes, i16) -> O,
) -> Coverage
where
    O: PartialEq + std::fmt::Debug,
    T: Encodable + Decodable + Message,
{
    let lo = our_range.0.max(T::VERSIONS.min);
    let hi = our_range.1.min(T::VERSIONS.max);
    let mut versions = Vec::new();
    for v in lo..=hi {
        for seed in 0..SEEDS_PER_VERSION {
            let mut g = SampleRng::new(seed * 7919 + v as u64);
            let mut value = sample(&mut g, v);
            fixup(&mut value, v);
            let mut ours_bytes = BytesMut::new();
            encode(&value, &mut ours_bytes, v);
            let ours_bytes = ours_bytes.freeze();

            let mut input = ours_bytes.clone();
            let theirs_value = T::decode(&mut input, v).unwrap_or_else(|e| {
                panic!("{name} v{v} seed {seed}: theirs failed to decode ours: {e}\n{value:?}")
            });
            assert!(
                input.is_empty(),
                "{name} v{v} seed {seed}: theirs left {} bytes unread",
                input.len()
            );
            let mut theirs_bytes = BytesMut::new();
            theirs_value
                .encode(&mut theirs_bytes, v)
                .unwrap_or_else(|e| panic!("{name} v{v}: theirs failed to encode: {e}"));
            assert_eq!(
                theirs_bytes.as_ref(),
                ours_bytes.as_ref(),
                "{name} v{v} seed {seed}: bytes differ\n{value:?}"
            );
            let mut back = theirs_bytes.freeze();
            let ours_again = decode(&mut back, v);
            assert!(back.is_empty(), "{name} v{v}: ours left bytes unread");
            assert_eq!(ours_again, value, "{name} v{v} seed {seed}: field mismatch");
        }
        versions.push(v);
    }
    Coverage { name, versions }
}

macro_rules! cross {
    ($($module:ident :: $ty:ident),* $(,)?) => {
        cross!($($module::$ty => |_, _| {}),*)
    };
    ($($module:ident :: $ty:ident => $fixup:expr),* $(,)?) => {
        vec![$(
            check_one::<ours::$module::$ty, theirs::$ty>(
                stringify!($ty),
                (ours::$module::$ty::MIN_VERSION, ours::$module::$ty::MAX_VERSION),
                |g, v| ours::$module::$ty::sample(g, v),
                $fixup,
                |m, b, v| m.encode(b, v).expect("ours encodes its own sample"),
                |b, v| ours::$module::$ty::decode(b, v).expect("ours decodes theirs"),
            ),
        )*]
    };
}

fn report(kind: &str, cov: &[Coverage]) -> usize {
    let pairs: usize = cov.iter().map(|c| c.versions.len()).sum();
    for c in cov {
        assert!(
            !c.versions.is_empty(),
            "{}: no version in common with kafka-protocol",
            c.name
        );
    }
    eprintln!(
        "cross-check {kind}: {} messages, {pairs} (message, version) pairs",
        cov.len()
    );
    pairs
}

#[test]
fn requests_match_kafka_protocol() {
    let cov = cross!(
        produce_request::ProduceRequest,
        fetch_request::FetchRequest,
        list_offsets_request::ListOffsetsRequest,
        metadata_request::MetadataRequest,
        offset_commit_request::OffsetCommitRequest,
        offset_fetch_request::OffsetFetchRequest,
        find_coordinator_request::FindCoordinatorRequest,
        join_group_request::JoinGroupRequest,
        heartbeat_request::HeartbeatRequest,
        leave_group_request::LeaveGroupRequest,
        sync_group_request::SyncGroupRequest,
        describe_groups_request::DescribeGroupsRequest,
        list_groups_request::ListGroupsRequest,
        sasl_handshake_request::SaslHandshakeRequest,
        api_versions_request::ApiVersionsRequest,
        create_topics_request::CreateTopicsRequest,
        delete_topics_request::DeleteTopicsRequest,
        delete_records_request::DeleteRecordsRequest,
        init_producer_id_request::InitProducerIdRequest,
        offset_for_leader_epoch_request::OffsetForLeaderEpochRequest,
        describe_acls_request::DescribeAclsRequest,
        create_acls_request::CreateAclsRequest,
        delete_acls_request::DeleteAclsRequest,
        describe_configs_request::DescribeConfigsRequest,
        alter_configs_request::AlterConfigsRequest,
        describe_log_dirs_request::DescribeLogDirsRequest,
        sasl_authenticate_request::SaslAuthenticateRequest,
        create_partitions_request::CreatePartitionsRequest,
        delete_groups_request::DeleteGroupsRequest,
        elect_leaders_request::ElectLeadersRequest,
        incremental_alter_configs_request::IncrementalAlterConfigsRequest,
        offset_delete_request::OffsetDeleteRequest,
        vote_request::VoteRequest,
        begin_quorum_epoch_request::BeginQuorumEpochRequest,
        end_quorum_epoch_request::EndQuorumEpochRequest,
        describe_quorum_request::DescribeQuorumRequest,
        alter_partition_request::AlterPartitionRequest,
        update_features_request::UpdateFeaturesRequest,
        envelope_request::EnvelopeRequest,
        fetch_snapshot_request::FetchSnapshotRequest,
        describe_cluster_request::DescribeClusterRequest,
        broker_registration_request::BrokerRegistrationRequest,
        broker_heartbeat_request::BrokerHeartbeatRequest,
        unregister_broker_request::UnregisterBrokerRequest,
        allocate_producer_ids_request::AllocateProducerIdsRequest,
        assign_replicas_to_dirs_request::AssignReplicasToDirsRequest,
        alter_replica_log_dirs_request::AlterReplicaLogDirsRequest,
        controller_registration_request::ControllerRegistrationRequest,
        describe_topic_partitions_request::DescribeTopicPartitionsRequest,
        add_raft_voter_request::AddRaftVoterRequest,
        remove_raft_voter_request::RemoveRaftVoterRequest,
        update_raft_voter_request::UpdateRaftVoterRequest,
    );
    assert_eq!(cov.len(), 52);
    report("requests", &cov);
}

#[test]
fn responses_match_kafka_protocol() {
    let cov = cross!(
        produce_response::ProduceResponse,
        fetch_response::FetchResponse,
        list_offsets_response::ListOffsetsResponse,
        metadata_response::MetadataResponse,
        offset_commit_response::OffsetCommitResponse,
        offset_fetch_response::OffsetFetchResponse,
        find_coordinator_response::FindCoordinatorResponse,
        join_group_response::JoinGroupResponse,
        heartbeat_response::HeartbeatResponse,
        leave_group_response::LeaveGroupResponse,
        sync_group_response::SyncGroupResponse,
        describe_groups_response::DescribeGroupsResponse,
        list_groups_response::ListGroupsResponse,
        sasl_handshake_response::SaslHandshakeResponse,
        api_versions_response::ApiVersionsResponse,
        create_topics_response::CreateTopicsResponse,
        delete_topics_response::DeleteTopicsResponse,
        delete_records_response::DeleteRecordsResponse,
        init_producer_id_response::InitProducerIdResponse,
        offset_for_leader_epoch_response::OffsetForLeaderEpochResponse,
        describe_acls_response::DescribeAclsResponse,
        create_acls_response::CreateAclsResponse,
        delete_acls_response::DeleteAclsResponse,
        describe_configs_response::DescribeConfigsResponse,
        alter_configs_response::AlterConfigsResponse,
        describe_log_dirs_response::DescribeLogDirsResponse,
        sasl_authenticate_response::SaslAuthenticateResponse,
        create_partitions_response::CreatePartitionsResponse,
        delete_groups_response::DeleteGroupsResponse,
        elect_leaders_response::ElectLeadersResponse,
        incremental_alter_configs_response::IncrementalAlterConfigsResponse,
        offset_delete_response::OffsetDeleteResponse,
        vote_response::VoteResponse,
        begin_quorum_epoch_response::BeginQuorumEpochResponse,
        end_quorum_epoch_response::EndQuorumEpochResponse,
        describe_quorum_response::DescribeQuorumResponse,
        alter_partition_response::AlterPartitionResponse,
        update_features_response::UpdateFeaturesResponse,
        envelope_response::EnvelopeResponse,
        fetch_snapshot_response::FetchSnapshotResponse,
        describe_cluster_response::DescribeClusterResponse,
        broker_registration_response::BrokerRegistrationResponse,
        broker_heartbeat_response::BrokerHeartbeatResponse,
        unregister_broker_response::UnregisterBrokerResponse,
        allocate_producer_ids_response::AllocateProducerIdsResponse,
        assign_replicas_to_dirs_response::AssignReplicasToDirsResponse,
        alter_replica_log_dirs_response::AlterReplicaLogDirsResponse,
        controller_registration_response::ControllerRegistrationResponse,
        describe_topic_partitions_response::DescribeTopicPartitionsResponse,
        add_raft_voter_response::AddRaftVoterResponse,
        remove_raft_voter_response::RemoveRaftVoterResponse,
        update_raft_voter_response::UpdateRaftVoterResponse,
    );
    assert_eq!(cov.len(), 52);
    report("responses", &cov);
}

#[test]
fn headers_and_kraft_control_records_match_kafka_protocol() {
    let mut cov = cross!(
        request_header::RequestHeader,
        response_header::ResponseHeader,
        snapshot_footer_record::SnapshotFooterRecord,
    );
    // kafka-protocol 0.18 names a local after a schema field called `Version`, shadowing the
    // message version it decodes nested structs with. Keep that field equal to the message
    // version so the comparison still checks every other field.
    cov.extend(cross!(
        leader_change_message::LeaderChangeMessage => |m: &mut ours::leader_change_message::LeaderChangeMessage, v| m.version = v,
        snapshot_header_record::SnapshotHeaderRecord => |m: &mut ours::snapshot_header_record::SnapshotHeaderRecord, v| m.version = v,
        k_raft_version_record::KRaftVersionRecord => |m: &mut ours::k_raft_version_record::KRaftVersionRecord, v| m.version = v,
        voters_record::VotersRecord => |m: &mut ours::voters_record::VotersRecord, v| m.version = v,
    ));
    assert_eq!(cov.len(), 7);
    report("headers and control records", &cov);
}
