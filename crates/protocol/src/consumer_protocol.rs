//! Kafka's consumer protocol payloads inside the classic group APIs: a member's subscription
//! (JoinGroup's protocol metadata) and its assignment (SyncGroup, DescribeGroups), generated
//! from Kafka's `ConsumerProtocolSubscription` and `ConsumerProtocolAssignment` specs. Each
//! payload is an int16 version and the message at that version (classic encoding); a version
//! newer than this build knows is read with the newest format it does know, as Kafka's
//! `ConsumerProtocol` does (new versions only add fields at the end).

use crate::generated::consumer_protocol_assignment::ConsumerProtocolAssignment;
use crate::generated::consumer_protocol_subscription::ConsumerProtocolSubscription;
use crate::{DecodeError, EncodeError};
use bytes::Bytes;

/// The newest subscription and assignment version this build reads and writes.
pub const CONSUMER_PROTOCOL_VERSION: i16 = 3;

/// The version a payload starts with (capped at the newest this build reads), and its body.
fn versioned(bytes: &[u8]) -> Result<(i16, Bytes), DecodeError> {
    let mut b = Bytes::copy_from_slice(bytes);
    let version = crate::codec::read_i16(&mut b)?;
    if version < 0 {
        return Err(DecodeError::UnsupportedVersion {
            message: "ConsumerProtocol",
            version,
        });
    }
    Ok((version.min(CONSUMER_PROTOCOL_VERSION), b))
}

/// Reads a member's subscription.
pub fn decode_subscription(bytes: &[u8]) -> Result<ConsumerProtocolSubscription, DecodeError> {
    let (version, mut b) = versioned(bytes)?;
    ConsumerProtocolSubscription::decode(&mut b, version)
}

/// Writes a subscription at `version`.
pub fn encode_subscription(
    s: &ConsumerProtocolSubscription,
    version: i16,
) -> Result<Bytes, EncodeError> {
    let mut out = Vec::with_capacity(2 + s.encoded_len(version));
    out.extend_from_slice(&version.to_be_bytes());
    s.encode(&mut out, version)?;
    Ok(out.into())
}

/// Reads a member's assignment.
pub fn decode_assignment(bytes: &[u8]) -> Result<ConsumerProtocolAssignment, DecodeError> {
    let (version, mut b) = versioned(bytes)?;
    ConsumerProtocolAssignment::decode(&mut b, version)
}

/// Writes an assignment at `version`.
pub fn encode_assignment(
    a: &ConsumerProtocolAssignment,
    version: i16,
) -> Result<Bytes, EncodeError> {
    let mut out = Vec::with_capacity(2 + a.encoded_len(version));
    out.extend_from_slice(&version.to_be_bytes());
    a.encode(&mut out, version)?;
    Ok(out.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generated::consumer_protocol_assignment::TopicPartition;

    #[test]
    fn every_version_round_trips_and_newer_versions_read_as_the_newest() {
        let a = ConsumerProtocolAssignment {
            assigned_partitions: vec![TopicPartition {
                topic: "t".into(),
                partitions: vec![0, 2],
            }],
            ..Default::default()
        };
        for v in 0..=CONSUMER_PROTOCOL_VERSION {
            let bytes = encode_assignment(&a, v).unwrap();
            assert_eq!(decode_assignment(&bytes).unwrap(), a);
        }
        // Version 9 with a field this build does not know appended: read as version 3.
        let mut newer = encode_assignment(&a, 3).unwrap().to_vec();
        newer[1] = 9;
        newer.extend_from_slice(&[1, 2, 3]);
        assert_eq!(decode_assignment(&newer).unwrap(), a);
        assert!(decode_assignment(&[0]).is_err());
        assert!(decode_assignment(&[0xff, 0xff]).is_err());
    }
}
