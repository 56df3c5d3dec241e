//! The structural checks of a topology a member sends when it joins, before the coordinator
//! stores it: what no cluster could run is refused with STREAMS_INVALID_TOPOLOGY.

use fjord_protocol::generated::streams_group_heartbeat_request::Topology;
use std::collections::BTreeSet;

/// The most subtopologies one topology may have (fjord's bound on what a client can grow).
pub const MAX_SUBTOPOLOGIES: usize = 10_000;

/// Ok, or why the topology is invalid.
pub fn topology(t: &Topology) -> Result<(), String> {
    if t.subtopologies.len() > MAX_SUBTOPOLOGIES {
        return Err(format!(
            "The topology has {} subtopologies; at most {MAX_SUBTOPOLOGIES} are accepted.",
            t.subtopologies.len()
        ));
    }
    let mut ids = BTreeSet::new();
    for s in &t.subtopologies {
        if s.subtopology_id.is_empty() {
            return Err("Subtopology IDs can't be empty.".into());
        }
        if !ids.insert(s.subtopology_id.as_str()) {
            return Err(format!("Duplicate subtopology ID {}.", s.subtopology_id));
        }
        if s.source_topics.is_empty()
            && s.source_topic_regex.is_empty()
            && s.repartition_source_topics.is_empty()
        {
            return Err(format!(
                "Subtopology {} has no source topics.",
                s.subtopology_id
            ));
        }
        for c in &s.state_changelog_topics {
            if c.partitions != 0 {
                return Err(format!(
                    "Number of partitions for changelog topic {} is set, but must not be.",
                    c.name
                ));
            }
        }
        for r in &s.repartition_source_topics {
            if r.partitions < 0 {
                return Err("Number of partitions must be positive.".into());
            }
        }
        for g in &s.copartition_groups {
            let bad = |idx: &[i16], len: usize| {
                idx.iter()
                    .any(|i| usize::try_from(*i).map_or(true, |i| i >= len))
            };
            if bad(&g.source_topics, s.source_topics.len())
                || bad(&g.source_topic_regex, s.source_topic_regex.len())
                || bad(
                    &g.repartition_source_topics,
                    s.repartition_source_topics.len(),
                )
            {
                return Err(format!(
                    "Copartition group of subtopology {} refers to a topic that does not exist \
                     in the subtopology.",
                    s.subtopology_id
                ));
            }
        }
    }
    Ok(())
}
