//! Replica placement, as Kafka's rack-aware `assignReplicasToBrokers`: brokers ordered
//! alternating racks, leaders round-robin from a start, followers shifted each round, so
//! leaders and racks spread. Used for new topics and partitions (the controller) and for the
//! plans `kafka-reassign-partitions --generate` proposes.

use std::collections::BTreeMap;

/// Places `partitions` partitions of `rf` replicas on `brokers` (id, rack), starting at
/// partition `first`, with the first leader chosen by `seed`; `None` when there are fewer
/// brokers than `rf`.
pub fn place(
    brokers: &[(i32, Option<String>)],
    first: i32,
    partitions: i32,
    rf: usize,
    seed: u64,
) -> Option<Vec<Vec<i32>>> {
    if rf > brokers.len() || brokers.is_empty() {
        return None;
    }
    // Alternate racks: rack A's first broker, rack B's first, ..., rack A's second, ...
    let mut by_rack: BTreeMap<Option<String>, Vec<i32>> = BTreeMap::new();
    for (id, rack) in brokers {
        by_rack.entry(rack.clone()).or_default().push(*id);
    }
    let mut order = Vec::with_capacity(brokers.len());
    let mut round = 0;
    while order.len() < brokers.len() {
        for ids in by_rack.values() {
            if let Some(id) = ids.get(round) {
                order.push(*id);
            }
        }
        round += 1;
    }
    let n = order.len();
    let start = (seed % n as u64) as usize;
    let mut out = Vec::with_capacity(usize::try_from(partitions).unwrap_or(0));
    for i in 0..usize::try_from(partitions).unwrap_or(0) {
        let p = usize::try_from(first).unwrap_or(0) + i;
        let leader = (start + p) % n;
        let shift = if n > 1 { 1 + (p / n) % (n - 1) } else { 0 };
        let mut replicas = vec![order[leader]];
        let mut j = 0;
        while replicas.len() < rf {
            let candidate = order[(leader + shift + j) % n];
            if !replicas.contains(&candidate) {
                replicas.push(candidate);
            }
            j += 1;
        }
        out.push(replicas);
    }
    Some(out)
}
