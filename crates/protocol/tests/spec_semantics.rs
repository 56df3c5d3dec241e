//! The spec language's rules as Kafka applies them: defaults, tagged fields, unknown tags,
//! ignorable fields, nullability and version checks.

use bytes::{Bytes, BytesMut};
use fjord_protocol::generated::fetch_response::{
    EpochEndOffset, FetchResponse, FetchableTopicResponse, PartitionData,
};
use fjord_protocol::generated::metadata_request::MetadataRequest;
use fjord_protocol::generated::offset_commit_value::OffsetCommitValue;
use fjord_protocol::{EncodeError, RawTaggedField};

/// A Fetch response whose one partition carries a (tagged) diverging epoch.
fn diverged() -> FetchResponse {
    fetch_with(PartitionData {
        diverging_epoch: EpochEndOffset {
            epoch: 4,
            end_offset: 99,
            ..Default::default()
        },
        ..Default::default()
    })
}

fn fetch_with(p: PartitionData) -> FetchResponse {
    FetchResponse {
        responses: vec![FetchableTopicResponse {
            partitions: vec![p],
            ..Default::default()
        }],
        ..Default::default()
    }
}

#[test]
fn default_tagged_fields_are_not_written() {
    let plain = fetch_with(PartitionData::default());
    let mut a = BytesMut::new();
    plain.encode(&mut a, 12).unwrap();
    let diverged = diverged();
    let mut b = BytesMut::new();
    diverged.encode(&mut b, 12).unwrap();
    // tag 0, size, int32 epoch, int64 offset, the struct's empty tag section.
    assert_eq!(b.len(), a.len() + 2 + 4 + 8 + 1);
    assert_eq!(
        FetchResponse::decode(&mut b.freeze(), 12).unwrap(),
        diverged
    );
}

#[test]
fn tagged_field_at_a_version_without_tags_is_an_error() {
    let diverged = diverged();
    assert!(matches!(
        diverged.encode(&mut BytesMut::new(), 11),
        Err(EncodeError::FieldNotInVersion {
            field: "DivergingEpoch",
            version: 11
        })
    ));
}

#[test]
fn unknown_tagged_fields_survive_a_round_trip() {
    let mut m = MetadataRequest {
        topics: None,
        ..Default::default()
    };
    m.unknown_tagged_fields = vec![RawTaggedField {
        tag: 77,
        data: Bytes::from_static(b"xyz"),
    }];
    let mut b = BytesMut::new();
    m.encode(&mut b, 12).unwrap();
    let back = MetadataRequest::decode(&mut b.freeze(), 12).unwrap();
    assert_eq!(back.unknown_tagged_fields, m.unknown_tagged_fields);
    assert!(matches!(
        m.encode(&mut BytesMut::new(), 8),
        Err(EncodeError::TaggedFieldsNotInVersion { .. })
    ));
}

#[test]
fn non_default_value_in_a_missing_field_is_an_error_unless_ignorable() {
    let m = MetadataRequest {
        allow_auto_topic_creation: false,
        ..Default::default()
    };
    assert!(matches!(
        m.encode(&mut BytesMut::new(), 3),
        Err(EncodeError::FieldNotInVersion {
            field: "AllowAutoTopicCreation",
            version: 3
        })
    ));
    assert!(m.encode(&mut BytesMut::new(), 4).is_ok());
    // leaderEpoch is ignorable: dropped silently at version 1.
    let v = OffsetCommitValue {
        leader_epoch: 5,
        ..Default::default()
    };
    assert!(v.encode(&mut BytesMut::new(), 1).is_ok());
}

#[test]
fn null_where_the_version_forbids_it_is_an_error() {
    let m = MetadataRequest {
        topics: None,
        ..Default::default()
    };
    assert!(matches!(
        m.encode(&mut BytesMut::new(), 0),
        Err(EncodeError::NullNotAllowed {
            field: "Topics",
            ..
        })
    ));
    assert!(m.encode(&mut BytesMut::new(), 1).is_ok());
    // And on the read side, a null array at version 0 is rejected.
    assert!(
        MetadataRequest::decode(&mut Bytes::from_static(&[0xff, 0xff, 0xff, 0xff]), 0).is_err()
    );
}

#[test]
fn versions_outside_the_range_are_errors() {
    let m = MetadataRequest::default();
    assert!(matches!(
        m.encode(&mut BytesMut::new(), 99),
        Err(EncodeError::UnsupportedVersion { .. })
    ));
    assert!(MetadataRequest::decode(&mut Bytes::new(), -1).is_err());
}

#[test]
fn a_known_tag_with_the_wrong_size_is_an_error() {
    let diverged = diverged();
    let mut b = BytesMut::new();
    diverged.encode(&mut b, 12).unwrap();
    let mut v = b.to_vec();
    // Find the tag header "0, 13" (tag 0, size 13) and claim one byte more.
    let at = v
        .windows(2)
        .position(|w| w == [0, 13])
        .expect("tag header present");
    v[at + 1] = 14;
    assert!(FetchResponse::decode(&mut Bytes::from(v), 12).is_err());
}

#[test]
fn tagged_fields_out_of_order_or_repeated_are_rejected() {
    // MetadataRequest v12: null topics, two bools, then tags 5 and 3 (out of order).
    let bad = Bytes::from_static(&[0, 1, 0, 2, 5, 0, 3, 0]);
    assert!(MetadataRequest::decode(&mut bad.clone(), 12).is_err());
    let repeated = Bytes::from_static(&[0, 1, 0, 2, 5, 0, 5, 0]);
    assert!(MetadataRequest::decode(&mut repeated.clone(), 12).is_err());
    let ok = Bytes::from_static(&[0, 1, 0, 2, 3, 0, 5, 0]);
    assert_eq!(
        MetadataRequest::decode(&mut ok.clone(), 12)
            .unwrap()
            .unknown_tagged_fields
            .len(),
        2
    );
}
