//! Electing the chosen replicas: ElectLeaders v3 DESIGNATED where the cluster serves it, and
//! otherwise (Apache Kafka 4.4) Kafka's own steps to the same end. Kafka's KRaft controller
//! elects, in an UNCLEAN election, the first live replica in assignment order, whatever
//! `unclean.leader.election.enable` says. So each chosen replica is first moved to the front
//! of its partition's replica list (AlterPartitionReassignments to the same set: no data
//! moves), then an UNCLEAN election runs, then the tool checks that the chosen replica leads
//! and the replica set is unchanged, then puts back the operator's order (the leader stays).

use crate::leader_election::{self, ElectionOutcome, ElectionType, Target};
use fjord_admin::{Admin, AdminError, ClusterInfo};
use std::collections::BTreeMap;
use tokio::time::Instant;

/// A partition by name.
type Part = (String, i32);

/// How the election went, and what was done on the way (a line each).
pub struct Elected {
    /// Each partition's outcome.
    pub results: BTreeMap<Part, ElectionOutcome>,
    /// The steps taken on a cluster without DESIGNATED elections.
    pub lines: Vec<String>,
}

/// Elects `plan`'s designated leaders: DESIGNATED where served, else reorder then UNCLEAN.
pub async fn elect(admin: &Admin, plan: &[Target]) -> Result<Elected, AdminError> {
    match leader_election::elect(admin, ElectionType::Designated, Some(plan)).await {
        Err(AdminError::UnsupportedVersion { .. }) => by_reordering(admin, plan).await,
        other => other.map(|results| Elected {
            results,
            lines: Vec::new(),
        }),
    }
}

/// Each partition's replica list with `leader` first, the others in their order.
pub fn leader_first(replicas: &[i32], leader: i32) -> Vec<i32> {
    std::iter::once(leader)
        .chain(replicas.iter().copied().filter(|r| *r != leader))
        .collect()
}

/// The replica lists of `parts` in the metadata.
fn replicas_of(cluster: &ClusterInfo, parts: &[Part]) -> BTreeMap<Part, Vec<i32>> {
    parts
        .iter()
        .filter_map(|(t, p)| {
            let info = cluster
                .topics
                .get(t)?
                .partitions
                .iter()
                .find(|x| x.partition == *p)?;
            Some(((t.clone(), *p), info.replicas.clone()))
        })
        .collect()
}

/// AlterPartitionReassignments to `orders` (the same sets, reordered); the partitions
/// refused, with why.
async fn reorder(
    admin: &Admin,
    orders: &BTreeMap<Part, Vec<i32>>,
) -> Result<BTreeMap<Part, String>, AdminError> {
    let changes = orders
        .iter()
        .map(|(k, v)| (k.clone(), Some(v.clone())))
        .collect();
    crate::reassign_partitions::alter_reassignments(admin, &changes).await
}

/// Polls the metadata (up to `default.api.timeout.ms`) until `done` holds for it.
async fn wait_metadata(
    admin: &Admin,
    mut done: impl FnMut(&ClusterInfo) -> bool,
) -> Option<std::sync::Arc<ClusterInfo>> {
    let until = Instant::now() + admin.config().api_timeout;
    loop {
        if let Ok(c) = admin.refresh(None).await {
            if done(&c) || Instant::now() >= until {
                return Some(c);
            }
        } else if Instant::now() >= until {
            return None;
        }
        tokio::time::sleep(fjord_admin::POLL_INTERVAL).await;
    }
}

fn names(parts: impl IntoIterator<Item = Part>) -> String {
    parts
        .into_iter()
        .map(|(t, p)| format!("{t}-{p}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Apache Kafka's way: the chosen replica first in the list, an UNCLEAN election, a check,
/// and the list put back.
async fn by_reordering(admin: &Admin, plan: &[Target]) -> Result<Elected, AdminError> {
    let mut lines = vec![
        "The cluster does not serve ElectLeaders v3 (DESIGNATED): electing each chosen replica by moving it to the front of the replica list, then an UNCLEAN election (Kafka's controller elects the first live replica in assignment order), then putting the list back.".to_string(),
    ];
    let parts: Vec<Part> = plan
        .iter()
        .map(|t| (t.topic.clone(), t.partition))
        .collect();
    let chosen: BTreeMap<Part, i32> = plan
        .iter()
        .map(|t| {
            (
                (t.topic.clone(), t.partition),
                t.designated_leader.unwrap_or(-1),
            )
        })
        .collect();
    let cluster = admin.refresh(None).await?;
    let original = replicas_of(&cluster, &parts);
    let mut results: BTreeMap<Part, ElectionOutcome> = BTreeMap::new();
    let orders: BTreeMap<Part, Vec<i32>> = original
        .iter()
        .filter(|(k, r)| r.first() != chosen.get(*k))
        .map(|(k, r)| (k.clone(), leader_first(r, chosen[k])))
        .collect();
    let mut reordered: BTreeMap<Part, Vec<i32>> = BTreeMap::new();
    if !orders.is_empty() {
        let refused = reorder(admin, &orders).await?;
        for (k, why) in &refused {
            results.insert(
                k.clone(),
                ElectionOutcome::Failed(format!("could not reorder the replicas: {why}")),
            );
        }
        for k in orders.keys().filter(|k| !refused.contains_key(*k)) {
            reordered.insert(k.clone(), original[k].clone());
        }
        let want: BTreeMap<Part, Vec<i32>> = orders
            .iter()
            .filter(|(k, _)| reordered.contains_key(*k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        wait_metadata(admin, |c| {
            replicas_of(c, &parts)
                .iter()
                .all(|(k, r)| want.get(k).is_none_or(|w| w == r))
        })
        .await;
        if !reordered.is_empty() {
            lines.push(format!(
                "Moved the chosen replica to the front of {}.",
                names(reordered.keys().cloned())
            ));
        }
    }
    let targets: Vec<Target> = plan
        .iter()
        .filter(|t| !results.contains_key(&(t.topic.clone(), t.partition)))
        .map(|t| Target {
            topic: t.topic.clone(),
            partition: t.partition,
            designated_leader: None,
        })
        .collect();
    // Whatever the election does, the order is put back below.
    let elected = unclean_and_check(admin, &targets, &chosen, &original).await;
    // The operator's order back; the leader stays where the election put it.
    if !reordered.is_empty() {
        let refused = reorder(admin, &reordered).await?;
        let back: Vec<Part> = reordered
            .keys()
            .filter(|k| !refused.contains_key(*k))
            .cloned()
            .collect();
        wait_metadata(admin, |c| {
            replicas_of(c, &back)
                .iter()
                .all(|(k, r)| reordered.get(k) == Some(r))
        })
        .await;
        if !back.is_empty() {
            lines.push(format!("Put back the replica order of {}.", names(back)));
        }
        for (k, why) in refused {
            lines.push(format!(
                "Could not put back the replica order {:?} of {}-{}: {why}",
                reordered[&k], k.0, k.1
            ));
        }
    }
    results.extend(elected?);
    Ok(Elected { results, lines })
}

/// The UNCLEAN election of `targets`, then the check: the chosen replica leads and the
/// replica set is the one before.
async fn unclean_and_check(
    admin: &Admin,
    targets: &[Target],
    chosen: &BTreeMap<Part, i32>,
    original: &BTreeMap<Part, Vec<i32>>,
) -> Result<BTreeMap<Part, ElectionOutcome>, AdminError> {
    let mut results = BTreeMap::new();
    if targets.is_empty() {
        return Ok(results);
    }
    let elected = leader_election::elect(admin, ElectionType::Unclean, Some(targets)).await?;
    let c = wait_metadata(admin, |c| {
        targets.iter().all(|t| {
            c.topics
                .get(&t.topic)
                .and_then(|x| x.partitions.iter().find(|p| p.partition == t.partition))
                .is_some_and(|p| p.leader >= 0)
        })
    })
    .await;
    for t in targets {
        let k = (t.topic.clone(), t.partition);
        let outcome = match elected.get(&k) {
            Some(ElectionOutcome::Elected) => {
                let now = c.as_ref().and_then(|c| {
                    c.topics
                        .get(&t.topic)?
                        .partitions
                        .iter()
                        .find(|p| p.partition == t.partition)
                        .cloned()
                });
                let sorted = |v: &[i32]| {
                    let mut v = v.to_vec();
                    v.sort_unstable();
                    v
                };
                let before = sorted(original.get(&k).map_or(&[][..], |v| &v[..]));
                match now {
                    Some(p) if sorted(&p.replicas) != before => ElectionOutcome::Failed(format!(
                        "the replica set changed meanwhile (now {:?}); broker {} leads",
                        p.replicas, p.leader
                    )),
                    Some(p) if p.leader == chosen[&k] => ElectionOutcome::Elected,
                    Some(p) => ElectionOutcome::Failed(format!(
                        "the UNCLEAN election chose broker {} instead of broker {} (was broker {} down?)",
                        p.leader, chosen[&k], chosen[&k]
                    )),
                    None => ElectionOutcome::Failed(
                        "the metadata could not be read after the election".into(),
                    ),
                }
            }
            Some(other) => other.clone(),
            None => ElectionOutcome::Failed("no result from the controller".into()),
        };
        results.insert(k, outcome);
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chosen_replica_goes_first_and_the_rest_keep_their_order() {
        assert_eq!(leader_first(&[1, 2, 3], 3), [3, 1, 2]);
        assert_eq!(leader_first(&[1, 2, 3], 1), [1, 2, 3]);
        assert_eq!(leader_first(&[4, 2, 9, 1], 9), [9, 4, 2, 1]);
    }
}
