//! A streams group's topology against the cluster's topics, as Kafka 4.4's coordinator
//! configures it: the source topics must exist; each repartition topic without a fixed
//! partition count takes the most partitions of the topics its writers read (repeated until
//! every count is known); co-partitioned topics must agree (a flexible repartition topic
//! takes the group's count); each changelog topic has one partition per task; internal
//! topics that do not exist yet are to be created, and one that exists with another count
//! is refused. The outcome is a status for the heartbeat (KIP-1071's
//! MISSING_SOURCE_TOPICS, INCORRECTLY_PARTITIONED_TOPICS, MISSING_INTERNAL_TOPICS) with
//! Kafka's wording, or an invalid topology (STREAMS_INVALID_TOPOLOGY).

use super::assignor::Subtopology as AssignorSubtopology;
use std::collections::{BTreeMap, BTreeSet};

/// MISSING_SOURCE_TOPICS: a source topic does not exist.
pub const STATUS_MISSING_SOURCE_TOPICS: i8 = 1;
/// INCORRECTLY_PARTITIONED_TOPICS: co-partitioned or internal topics disagree.
pub const STATUS_INCORRECTLY_PARTITIONED_TOPICS: i8 = 2;
/// MISSING_INTERNAL_TOPICS: internal topics are still to be created.
pub const STATUS_MISSING_INTERNAL_TOPICS: i8 = 3;
/// How many topic names a status detail lists before it summarizes (Kafka's 3).
const NAMES_SHOWN: usize = 3;

/// An internal topic as the topology declares it (0 partitions: the broker decides).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TopicInfo {
    /// Its name.
    pub name: String,
    /// Its partition count, or 0.
    pub partitions: i32,
    /// Its replication factor, or 0 for the broker's default.
    pub replication_factor: i16,
    /// Its topic configs.
    pub configs: Vec<(String, String)>,
}

/// A co-partition group: indexes into its subtopology's lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CopartitionGroup {
    /// Indexes into the source topics.
    pub source_topics: Vec<i16>,
    /// Indexes into the repartition source topics.
    pub repartition_source_topics: Vec<i16>,
}

/// One subtopology as a member declares it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubtopologySpec {
    /// Its id.
    pub id: String,
    /// The user topics it reads.
    pub source_topics: Vec<String>,
    /// The repartition topics it writes.
    pub repartition_sink_topics: Vec<String>,
    /// The repartition topics it reads.
    pub repartition_source_topics: Vec<TopicInfo>,
    /// Its state stores' changelog topics.
    pub state_changelog_topics: Vec<TopicInfo>,
    /// Its co-partition groups.
    pub copartition_groups: Vec<CopartitionGroup>,
}

/// An internal topic to create.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicToCreate {
    /// Its name.
    pub name: String,
    /// Its partition count.
    pub partitions: i32,
    /// Its replication factor (-1: the broker's default).
    pub replication_factor: i16,
    /// Its topic configs.
    pub configs: Vec<(String, String)>,
}

/// A heartbeat status: its code and detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// KIP-1071's status code.
    pub code: i8,
    /// What it is about, in Kafka's words.
    pub detail: String,
}

/// The topology configured against the topics.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Configured {
    /// Each subtopology's tasks, when the partition counts are consistent.
    pub subtopologies: Option<BTreeMap<String, AssignorSubtopology>>,
    /// Internal topics to create.
    pub to_create: Vec<TopicToCreate>,
    /// What keeps the group from being assigned, if anything.
    pub status: Option<Status>,
    /// Why no cluster can run the topology (STREAMS_INVALID_TOPOLOGY), if so.
    pub invalid: Option<String>,
}

impl Configured {
    /// True when tasks can be assigned: consistent and nothing missing.
    pub fn ready(&self) -> bool {
        self.subtopologies.is_some() && self.status.is_none() && self.invalid.is_none()
    }
}

/// A topology no cluster can run (answered STREAMS_INVALID_TOPOLOGY), with Kafka's message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidTopology(pub String);

/// Topic names for a status detail: up to three, then how many more.
fn summarize<'a>(names: impl IntoIterator<Item = &'a String>) -> String {
    let names: Vec<&String> = names.into_iter().collect();
    let mut s = names
        .iter()
        .take(NAMES_SHOWN)
        .map(|n| n.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > NAMES_SHOWN {
        s.push_str(&format!(
            " and {} additional topics",
            names.len() - NAMES_SHOWN
        ));
    }
    s
}

fn failed(code: i8, detail: String) -> Configured {
    Configured {
        status: Some(Status { code, detail }),
        ..Configured::default()
    }
}

/// Configures `topology` against the cluster's topics (`partitions_of` gives an existing
/// topic's partition count).
pub fn configure(
    topology: &[SubtopologySpec],
    partitions_of: impl Fn(&str) -> Option<i32>,
) -> Result<Configured, InvalidTopology> {
    let missing: BTreeSet<&String> = topology
        .iter()
        .flat_map(|s| &s.source_topics)
        .filter(|t| partitions_of(t).is_none())
        .collect();
    if !missing.is_empty() {
        return Ok(failed(
            STATUS_MISSING_SOURCE_TOPICS,
            format!("Source topics {} are missing.", summarize(missing)),
        ));
    }
    let mut decided = repartition_counts(topology, &partitions_of)?;
    let count = |decided: &BTreeMap<String, i32>, t: &str| {
        partitions_of(t).or_else(|| decided.get(t).copied())
    };
    if let Err(detail) = copartition(topology, &mut decided, &count) {
        return Ok(failed(STATUS_INCORRECTLY_PARTITIONED_TOPICS, detail));
    }
    // Each subtopology's tasks; its changelogs get that many partitions.
    let mut subtopologies = BTreeMap::new();
    let mut wanted: BTreeMap<String, TopicToCreate> = BTreeMap::new();
    for s in topology {
        let inputs = s
            .source_topics
            .iter()
            .map(String::as_str)
            .chain(s.repartition_source_topics.iter().map(|t| t.name.as_str()));
        let tasks = inputs
            .map(|t| {
                count(&decided, t).ok_or_else(|| {
                    InvalidTopology(format!("Number of partitions must be set for topic {t}"))
                })
            })
            .collect::<Result<Vec<i32>, _>>()?
            .into_iter()
            .max()
            .ok_or_else(|| {
                InvalidTopology("Subtopology does not contain any source topics".into())
            })?;
        subtopologies.insert(
            s.id.clone(),
            AssignorSubtopology {
                tasks,
                stateful: !s.state_changelog_topics.is_empty(),
            },
        );
        for t in &s.repartition_source_topics {
            let partitions = if t.partitions > 0 {
                t.partitions
            } else {
                decided.get(&t.name).copied().unwrap_or(tasks)
            };
            wanted.insert(t.name.clone(), to_create(t, partitions));
        }
        for t in &s.state_changelog_topics {
            wanted.insert(t.name.clone(), to_create(t, tasks));
        }
    }
    // Internal topics that exist must have the count; the others are to be created.
    let mut to_create = Vec::new();
    for (name, t) in wanted {
        match partitions_of(&name) {
            Some(found) if found != t.partitions => {
                return Ok(failed(
                    STATUS_INCORRECTLY_PARTITIONED_TOPICS,
                    format!(
                        "Existing topic {name} has different number of partitions: expected {}, \
                         found {found}",
                        t.partitions
                    ),
                ))
            }
            Some(_) => {}
            None => to_create.push(t),
        }
    }
    let status = (!to_create.is_empty()).then(|| Status {
        code: STATUS_MISSING_INTERNAL_TOPICS,
        detail: format!(
            "Internal topics are missing: {}",
            summarize(to_create.iter().map(|t| &t.name))
        ),
    });
    Ok(Configured {
        subtopologies: Some(subtopologies),
        to_create,
        status,
        invalid: None,
    })
}

fn to_create(t: &TopicInfo, partitions: i32) -> TopicToCreate {
    TopicToCreate {
        name: t.name.clone(),
        partitions,
        replication_factor: if t.replication_factor == 0 {
            -1
        } else {
            t.replication_factor
        },
        configs: t.configs.clone(),
    }
}

/// The partition counts of repartition topics without a fixed one: the most partitions of
/// the inputs of the subtopologies that write them, until all are known.
fn repartition_counts(
    topology: &[SubtopologySpec],
    partitions_of: &impl Fn(&str) -> Option<i32>,
) -> Result<BTreeMap<String, i32>, InvalidTopology> {
    let mut decided: BTreeMap<String, i32> = BTreeMap::new();
    let mut open: BTreeSet<&str> = BTreeSet::new();
    for t in topology.iter().flat_map(|s| &s.repartition_source_topics) {
        if t.partitions > 0 {
            decided.insert(t.name.clone(), t.partitions);
        } else {
            open.insert(&t.name);
        }
    }
    let written: BTreeSet<&str> = topology
        .iter()
        .flat_map(|s| s.repartition_sink_topics.iter().map(String::as_str))
        .collect();
    if open.iter().any(|t| !written.contains(t)) {
        return Err(InvalidTopology(
            "Failed to compute number of partitions for all repartition topics, because a \
             repartition source topic is never used as a sink topic."
                .into(),
        ));
    }
    while !open.is_empty() {
        let mut progress = Vec::new();
        for topic in &open {
            let mut best: Option<i32> = None;
            for s in topology
                .iter()
                .filter(|s| s.repartition_sink_topics.iter().any(|x| x == topic))
            {
                let inputs = s.source_topics.iter().map(|t| partitions_of(t)).chain(
                    s.repartition_source_topics
                        .iter()
                        .map(|t| decided.get(&t.name).copied()),
                );
                for n in inputs.flatten() {
                    best = Some(best.map_or(n, |b| b.max(n)));
                }
            }
            if let Some(n) = best {
                progress.push((topic.to_string(), n));
            }
        }
        if progress.is_empty() {
            return Err(InvalidTopology(
                "Failed to compute number of partitions for all repartition topics. There may \
                 be loops in the topology that cannot be resolved."
                    .into(),
            ));
        }
        for (t, n) in progress {
            open.remove(t.as_str());
            decided.insert(t, n);
        }
    }
    Ok(decided)
}

/// Makes every co-partition group agree: user topics must already; a fixed repartition topic
/// must match them; a flexible one takes the group's count. Err: the detail of
/// INCORRECTLY_PARTITIONED_TOPICS.
fn copartition(
    topology: &[SubtopologySpec],
    decided: &mut BTreeMap<String, i32>,
    count: &impl Fn(&BTreeMap<String, i32>, &str) -> Option<i32>,
) -> Result<(), String> {
    let fixed: BTreeSet<&str> = topology
        .iter()
        .flat_map(|s| &s.repartition_source_topics)
        .filter(|t| t.partitions > 0)
        .map(|t| t.name.as_str())
        .collect();
    for s in topology {
        for g in &s.copartition_groups {
            let pick = |list: &[i16], names: &dyn Fn(usize) -> Option<String>| {
                list.iter()
                    .filter_map(|i| usize::try_from(*i).ok().and_then(names))
                    .collect::<BTreeSet<String>>()
            };
            let users = pick(&g.source_topics, &|i| s.source_topics.get(i).cloned());
            let repartition = pick(&g.repartition_source_topics, &|i| {
                s.repartition_source_topics.get(i).map(|t| t.name.clone())
            });
            let user_counts: BTreeMap<&String, i32> = users
                .iter()
                .filter_map(|t| count(decided, t).map(|n| (t, n)))
                .collect();
            let agreed = if user_counts.is_empty() {
                let fixed_counts: BTreeSet<i32> = repartition
                    .iter()
                    .filter(|t| fixed.contains(t.as_str()))
                    .filter_map(|t| count(decided, t))
                    .collect();
                if fixed_counts.len() > 1 {
                    return Err(unequal(&repartition, decided, count));
                }
                match fixed_counts.first() {
                    Some(n) => *n,
                    None => match repartition.iter().filter_map(|t| count(decided, t)).max() {
                        Some(n) => n,
                        None => continue,
                    },
                }
            } else {
                let distinct: BTreeSet<i32> = user_counts.values().copied().collect();
                if distinct.len() > 1 {
                    return Err(unequal(&users, decided, count));
                }
                let n = *distinct.first().expect("one count");
                for t in repartition.iter().filter(|t| fixed.contains(t.as_str())) {
                    let m = count(decided, t).unwrap_or(0);
                    if m != n {
                        return Err(format!(
                            "Number of partitions [{m}] of repartition topic [{t}] doesn't match \
                             number of partitions [{n}] of the source topic."
                        ));
                    }
                }
                n
            };
            for t in repartition.iter().filter(|t| !fixed.contains(t.as_str())) {
                decided.insert(t.clone(), agreed);
            }
        }
    }
    Ok(())
}

fn unequal(
    topics: &BTreeSet<String>,
    decided: &BTreeMap<String, i32>,
    count: &impl Fn(&BTreeMap<String, i32>, &str) -> Option<i32>,
) -> String {
    let listed: Vec<String> = topics
        .iter()
        .map(|t| format!("{t}={}", count(decided, t).unwrap_or(0)))
        .collect();
    format!(
        "Following topics do not have the same number of partitions: [{}]",
        listed.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(name: &str, partitions: i32) -> TopicInfo {
        TopicInfo {
            name: name.into(),
            partitions,
            ..Default::default()
        }
    }

    /// Kafka Streams' word count: subtopology 0 reads `input` and writes the repartition topic;
    /// subtopology 1 reads it and counts into a store.
    fn word_count() -> Vec<SubtopologySpec> {
        vec![
            SubtopologySpec {
                id: "0".into(),
                source_topics: vec!["input".into()],
                repartition_sink_topics: vec!["app-repartition".into()],
                ..Default::default()
            },
            SubtopologySpec {
                id: "1".into(),
                repartition_source_topics: vec![info("app-repartition", 0)],
                state_changelog_topics: vec![TopicInfo {
                    configs: vec![("cleanup.policy".into(), "compact".into())],
                    ..info("app-changelog", 0)
                }],
                ..Default::default()
            },
        ]
    }

    #[test]
    fn internal_topics_take_their_counts_from_the_inputs() {
        let topics: BTreeMap<&str, i32> = [("input", 3)].into();
        let c = configure(&word_count(), |t| topics.get(t).copied()).unwrap();
        let subs = c.subtopologies.clone().unwrap();
        assert_eq!((subs["0"].tasks, subs["0"].stateful), (3, false));
        assert_eq!((subs["1"].tasks, subs["1"].stateful), (3, true));
        let made: Vec<(&str, i32, i16)> = c
            .to_create
            .iter()
            .map(|t| (t.name.as_str(), t.partitions, t.replication_factor))
            .collect();
        assert_eq!(
            made,
            vec![("app-changelog", 3, -1), ("app-repartition", 3, -1)]
        );
        assert_eq!(
            c.status.unwrap().detail,
            "Internal topics are missing: app-changelog, app-repartition"
        );
        // Once they exist, the topology is ready; with another count, refused.
        let topics: BTreeMap<&str, i32> =
            [("input", 3), ("app-repartition", 3), ("app-changelog", 3)].into();
        assert!(configure(&word_count(), |t| topics.get(t).copied())
            .unwrap()
            .ready());
        let topics: BTreeMap<&str, i32> =
            [("input", 3), ("app-repartition", 3), ("app-changelog", 5)].into();
        let c = configure(&word_count(), |t| topics.get(t).copied()).unwrap();
        assert_eq!(
            c.status.unwrap(),
            Status {
                code: STATUS_INCORRECTLY_PARTITIONED_TOPICS,
                detail: "Existing topic app-changelog has different number of partitions: \
                         expected 3, found 5"
                    .into()
            }
        );
    }

    #[test]
    fn missing_sources_unequal_copartitions_and_loops_are_reported_as_kafka_does() {
        let c = configure(&word_count(), |_| None).unwrap();
        assert_eq!(c.status.unwrap().detail, "Source topics input are missing.");
        assert_eq!(
            summarize(&[
                "a".to_string(),
                "b".into(),
                "c".into(),
                "d".into(),
                "e".into()
            ]),
            "a, b, c and 2 additional topics"
        );
        let join = vec![SubtopologySpec {
            id: "0".into(),
            source_topics: vec!["left".into(), "right".into()],
            copartition_groups: vec![CopartitionGroup {
                source_topics: vec![0, 1],
                ..Default::default()
            }],
            ..Default::default()
        }];
        let topics: BTreeMap<&str, i32> = [("left", 2), ("right", 4)].into();
        let c = configure(&join, |t| topics.get(t).copied()).unwrap();
        assert_eq!(
            c.status.unwrap().detail,
            "Following topics do not have the same number of partitions: [left=2, right=4]"
        );
        let looped = vec![
            SubtopologySpec {
                id: "0".into(),
                repartition_source_topics: vec![info("a", 0)],
                repartition_sink_topics: vec!["b".into()],
                ..Default::default()
            },
            SubtopologySpec {
                id: "1".into(),
                repartition_source_topics: vec![info("b", 0)],
                repartition_sink_topics: vec!["a".into()],
                ..Default::default()
            },
        ];
        assert!(configure(&looped, |_| None)
            .unwrap_err()
            .0
            .contains("There may be loops"));
    }

    #[test]
    fn a_flexible_repartition_topic_takes_its_copartition_group_s_count() {
        let topology = vec![
            SubtopologySpec {
                id: "0".into(),
                source_topics: vec!["small".into()],
                repartition_sink_topics: vec!["rekeyed".into()],
                ..Default::default()
            },
            SubtopologySpec {
                id: "1".into(),
                source_topics: vec!["big".into()],
                repartition_source_topics: vec![info("rekeyed", 0)],
                copartition_groups: vec![CopartitionGroup {
                    source_topics: vec![0],
                    repartition_source_topics: vec![0],
                }],
                ..Default::default()
            },
        ];
        let topics: BTreeMap<&str, i32> = [("small", 2), ("big", 6)].into();
        let c = configure(&topology, |t| topics.get(t).copied()).unwrap();
        assert_eq!(
            c.to_create[0].partitions, 6,
            "joined with big, not small's 2"
        );
        assert_eq!(c.subtopologies.unwrap()["1"].tasks, 6);
    }
}
