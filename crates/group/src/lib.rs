//! fjord-group: the classic consumer-group coordinator (JoinGroup, SyncGroup, Heartbeat,
//! LeaveGroup, offsets, describe/list/delete) as a sans-IO state machine, one [`Shard`] per
//! `__consumer_offsets` partition. Requests and timer ticks go in; `__consumer_offsets`
//! records and responses come out, and a response goes to its client only once the records
//! emitted with it are committed (Kafka 4's coordinator runtime). A shard's persistent state is
//! the fold of its records ([`Shard::replay`]), so a new leader of the partition rebuilds it
//! from the log. No clocks, sockets or randomness inside: the driver passes the time and a seed.

pub mod config;
pub mod group;
pub mod membership;
pub mod offsets;
pub mod overview;
pub mod records;
pub mod shard;
pub mod timers;

pub use config::GroupConfig;
pub use records::GroupRecord;
pub use shard::{Output, RequestContext, Shard, Token};

/// The partition of `__consumer_offsets` that coordinates `group_id` among `partitions`:
/// Java's `String.hashCode` of the id, made non-negative as Kafka's `Utils.abs`, modulo the
/// partition count (so a group maps where Kafka maps it).
pub fn partition_for(group_id: &str, partitions: i32) -> i32 {
    let mut h: i32 = 0;
    for unit in group_id.encode_utf16() {
        h = h.wrapping_mul(31).wrapping_add(unit as i32);
    }
    (h & 0x7fff_ffff) % partitions.max(1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn groups_map_to_the_partitions_kafka_maps_them_to() {
        assert_eq!(super::partition_for("", 50), 0);
        // "a".hashCode() == 97.
        assert_eq!(super::partition_for("a", 50), 47);
        // "test-group".hashCode() == 627841412.
        assert_eq!(super::partition_for("test-group", 50), 12);
        // A negative hash: "polygenelubricants".hashCode() == Integer.MIN_VALUE.
        assert_eq!(super::partition_for("polygenelubricants", 50), 0);
    }
}
