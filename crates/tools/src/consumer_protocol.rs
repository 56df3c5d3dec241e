//! Kafka's consumer protocol payloads inside the classic group APIs (classic, non-flexible
//! encoding, version 0): a member's subscription (JoinGroup metadata) and its assignment
//! (SyncGroup, DescribeGroups). One topic per subscription is all the tools write; reading
//! takes any number. A payload that does not parse reads as empty.

/// Reads big-endian classic fields off the front of a slice.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Some(head)
    }

    fn i16(&mut self) -> Option<i16> {
        self.take(2).map(|x| i16::from_be_bytes([x[0], x[1]]))
    }

    fn i32(&mut self) -> Option<i32> {
        self.take(4)
            .map(|x| i32::from_be_bytes([x[0], x[1], x[2], x[3]]))
    }

    fn string(&mut self) -> Option<String> {
        let len = usize::try_from(self.i16()?).ok()?;
        String::from_utf8(self.take(len)?.to_vec()).ok()
    }
}

/// Version 0, an array of one string (the topic), then `tail`, then null user data.
fn one_topic(topic: &str, tail: &[u8]) -> bytes::Bytes {
    let mut b = Vec::with_capacity(16 + topic.len() + tail.len());
    b.extend_from_slice(&0i16.to_be_bytes());
    b.extend_from_slice(&1i32.to_be_bytes());
    b.extend_from_slice(&(topic.len() as i16).to_be_bytes());
    b.extend_from_slice(topic.as_bytes());
    b.extend_from_slice(tail);
    b.extend_from_slice(&(-1i32).to_be_bytes());
    b.into()
}

/// ConsumerProtocolSubscription v0 for one topic.
pub fn subscription(topic: &str) -> bytes::Bytes {
    one_topic(topic, &[])
}

/// The topics of a ConsumerProtocolSubscription.
pub fn subscribed_topics(bytes: &[u8]) -> Vec<String> {
    let mut r = Reader(bytes);
    let mut read = || -> Option<Vec<String>> {
        r.i16()?;
        (0..r.i32()?.max(0)).map(|_| r.string()).collect()
    };
    read().unwrap_or_default()
}

/// ConsumerProtocolAssignment v0 of one topic's partitions.
pub fn assignment_bytes(topic: &str, partitions: &[i32]) -> bytes::Bytes {
    let mut tail = Vec::with_capacity(4 + 4 * partitions.len());
    tail.extend_from_slice(&(partitions.len() as i32).to_be_bytes());
    for p in partitions {
        tail.extend_from_slice(&p.to_be_bytes());
    }
    one_topic(topic, &tail)
}

/// The (topic, partition) pairs of a ConsumerProtocolAssignment.
pub fn assignment(bytes: &[u8]) -> Vec<(String, i32)> {
    let mut r = Reader(bytes);
    let mut read = || -> Option<Vec<(String, i32)>> {
        r.i16()?;
        let mut out = Vec::new();
        for _ in 0..r.i32()?.max(0) {
            let topic = r.string()?;
            for _ in 0..r.i32()?.max(0) {
                out.push((topic.clone(), r.i32()?));
            }
        }
        Some(out)
    };
    read().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_consumer_protocol_assignment() {
        // Version 0; one topic "t" with partitions 0 and 2; no user data.
        let mut b = vec![
            0, 0, 0, 0, 0, 1, 0, 1, b't', 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2,
        ];
        b.extend_from_slice(&[0xff, 0xff, 0xff, 0xff]);
        assert_eq!(assignment(&b), vec![("t".to_string(), 0), ("t".into(), 2)]);
        assert_eq!(assignment_bytes("t", &[0, 2]), b);
        assert!(assignment(&[0, 0, 0]).is_empty());
    }

    #[test]
    fn subscriptions_round_trip() {
        assert_eq!(subscribed_topics(&subscription("orders")), vec!["orders"]);
        assert!(subscribed_topics(&[0]).is_empty());
    }
}
