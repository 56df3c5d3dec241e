//! Golden bytes, worked out by hand from the Kafka protocol guide and the specs.

use bytes::{Bytes, BytesMut};
use fjord_protocol::generated::api_versions_request::ApiVersionsRequest;
use fjord_protocol::generated::api_versions_response::{ApiVersion, ApiVersionsResponse};
use fjord_protocol::generated::elect_leaders_request::{ElectLeadersRequest, TopicPartitions};
use fjord_protocol::generated::get_replica_log_info_response::{
    GetReplicaLogInfoResponse, PartitionLogInfo, TopicPartitionLogInfo,
};
use fjord_protocol::generated::metadata_request::{MetadataRequest, MetadataRequestTopic};
use fjord_protocol::generated::request_header::RequestHeader;
use fjord_protocol::generated::unregister_controller_request::UnregisterControllerRequest;
use fjord_protocol::{ApiKey, Uuid};

fn enc<F: FnOnce(&mut BytesMut)>(f: F) -> Vec<u8> {
    let mut b = BytesMut::new();
    f(&mut b);
    b.to_vec()
}

#[test]
fn api_versions_request_v3_with_header_v2() {
    let h = RequestHeader {
        request_api_key: 18,
        request_api_version: 3,
        correlation_id: 1,
        client_id: Some("c".into()),
        ..Default::default()
    };
    // Header v2: key, version, correlation id, ClientId as a classic (int16) string, no tags.
    assert_eq!(
        enc(|b| h.encode(b, 2).unwrap()),
        [0, 18, 0, 3, 0, 0, 0, 1, 0, 1, b'c', 0]
    );
    let r = ApiVersionsRequest {
        client_software_name: "a".into(),
        client_software_version: "1".into(),
        ..Default::default()
    };
    // Compact strings (length + 1 as uvarint), then an empty tagged-field section.
    assert_eq!(enc(|b| r.encode(b, 3).unwrap()), [2, b'a', 2, b'1', 0]);
}

#[test]
fn request_header_v0_has_no_client_id() {
    let mut b = Bytes::from_static(&[0, 7, 0, 0, 0, 0, 0, 42]);
    let h = RequestHeader::decode(&mut b, 0).unwrap();
    assert_eq!(
        (h.request_api_key, h.request_api_version, h.correlation_id),
        (7, 0, 42)
    );
    assert!(b.is_empty());
}

#[test]
fn api_versions_response_v0() {
    let r = ApiVersionsResponse {
        api_keys: vec![ApiVersion {
            api_key: 0,
            min_version: 0,
            max_version: 9,
            ..Default::default()
        }],
        ..Default::default()
    };
    assert_eq!(
        enc(|b| r.encode(b, 0).unwrap()),
        [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 9],
        "error code, int32 array length, then key/min/max"
    );
}

#[test]
fn metadata_request_v0_and_v9() {
    let r = MetadataRequest {
        topics: Some(vec![MetadataRequestTopic {
            name: Some("t".into()),
            ..Default::default()
        }]),
        ..Default::default()
    };
    assert_eq!(enc(|b| r.encode(b, 0).unwrap()), [0, 0, 0, 1, 0, 1, b't']);
    let all = MetadataRequest {
        topics: None,
        ..Default::default()
    };
    // v9: null compact array, AllowAutoTopicCreation (default true), the two authorized-operations
    // flags, and no tags.
    assert_eq!(enc(|b| all.encode(b, 9).unwrap()), [0, 1, 0, 0, 0]);
}

#[test]
fn elect_leaders_v3_designated() {
    let r = ElectLeadersRequest {
        election_type: 2,
        topic_partitions: Some(vec![TopicPartitions {
            topic: "t".into(),
            partitions: vec![1],
            designated_leaders: Some(vec![3]),
            ..Default::default()
        }]),
        timeout_ms: 60_000,
        ..Default::default()
    };
    assert_eq!(
        enc(|b| r.encode(b, 3).unwrap()),
        [2, 2, 2, b't', 2, 0, 0, 0, 1, 2, 0, 0, 0, 3, 0, 0, 0, 0xea, 0x60, 0]
    );
    // Version 2 cannot carry designated leaders.
    assert!(r.encode(&mut BytesMut::new(), 2).is_err());
}

#[test]
fn get_replica_log_info_writes_only_non_default_tags() {
    let id = Uuid::from_u128(0x0102_0304_0506_0708_090a_0b0c_0d0e_0f10);
    let r = GetReplicaLogInfoResponse {
        broker_epoch: 5,
        topic_partition_log_info_list: vec![TopicPartitionLogInfo {
            topic_id: id,
            partition_log_info: vec![PartitionLogInfo {
                partition: 0,
                partition_leader_epoch: 3,
                log_end_offset: 10,
                last_written_leader_epoch: 2,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    assert_eq!(PartitionLogInfo::default().high_watermark, -1);
    let mut want = vec![0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 2];
    want.extend_from_slice(id.as_bytes());
    want.extend_from_slice(&[2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0]);
    // One tagged field: tag 0 (LastWrittenLeaderEpoch), size 4, value 2. HighWatermark and
    // LogStartOffset are at their default (-1) and are not written.
    want.extend_from_slice(&[1, 0, 4, 0, 0, 0, 2]);
    want.extend_from_slice(&[0, 0]);
    assert_eq!(enc(|b| r.encode(b, 0).unwrap()), want);
    assert_eq!(r.encoded_len(0), want.len());
    let back = GetReplicaLogInfoResponse::decode(&mut Bytes::from(want), 0).unwrap();
    assert_eq!(back, r);
}

#[test]
fn unregister_controller_and_get_replica_log_info_keys() {
    assert_eq!(ApiKey::UnregisterController.key(), 94);
    assert_eq!(ApiKey::GetReplicaLogInfo.key(), 1000);
    assert_eq!(ApiKey::ElectLeaders.max_version(), 3);
    assert_eq!(ApiKey::from_key(1000), Some(ApiKey::GetReplicaLogInfo));
    assert_eq!(ApiKey::GetReplicaLogInfo.listeners(), &["broker"]);
    let r = UnregisterControllerRequest {
        controller_id: 3,
        ..Default::default()
    };
    assert_eq!(enc(|b| r.encode(b, 0).unwrap()), [0, 0, 0, 3, 0]);
}
