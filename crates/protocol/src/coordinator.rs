//! Where a coordinator key lives: the partition of `__consumer_offsets` (a group id) or
//! `__transaction_state` (a transactional id) that coordinates it, computed as Kafka computes
//! it so that a key maps to the same partition on every server.

/// The partition coordinating `key` among `partitions`: Java's `String.hashCode` of the key,
/// made non-negative as Kafka's `Utils.abs`, modulo the partition count.
pub fn partition_for(key: &str, partitions: i32) -> i32 {
    let mut h: i32 = 0;
    for unit in key.encode_utf16() {
        h = h.wrapping_mul(31).wrapping_add(unit as i32);
    }
    (h & 0x7fff_ffff) % partitions.max(1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_map_to_the_partitions_kafka_maps_them_to() {
        assert_eq!(super::partition_for("", 50), 0);
        // "a".hashCode() == 97.
        assert_eq!(super::partition_for("a", 50), 47);
        // "test-group".hashCode() == 627841412.
        assert_eq!(super::partition_for("test-group", 50), 12);
        // A negative hash: "polygenelubricants".hashCode() == Integer.MIN_VALUE.
        assert_eq!(super::partition_for("polygenelubricants", 50), 0);
    }
}
