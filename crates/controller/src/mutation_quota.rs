//! The controller mutation quota (KIP-599): `controller_mutation_rate` bounds the partitions a
//! second a (user, client id) creates or deletes with CreateTopics, CreatePartitions and
//! DeleteTopics, measured on the active controller. Clients that know the error (CreateTopics
//! v6+, CreatePartitions v3+, DeleteTopics v5+) get THROTTLING_QUOTA_EXCEEDED for each topic
//! asked while they are over the bound (the first mutation past it still goes through, as in
//! Kafka); older clients are never refused, only throttled. Either way the answer carries the
//! throttle time. Requests with `validate_only` cost nothing.

use fjord_metadata::quotas::{Resolved, CONTROLLER_MUTATION_RATE};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    create_partitions_response::CreatePartitionsTopicResult,
    create_topics_response::CreatableTopicResult, delete_topics_response::DeletableTopicResult,
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody, Uuid};
use fjord_quota::{ClientQuotaManager, QuotaKind};

/// The first CreateTopics version whose clients get THROTTLING_QUOTA_EXCEEDED.
const CREATE_TOPICS_STRICT: i16 = 6;
/// The first CreatePartitions version whose clients get it.
const CREATE_PARTITIONS_STRICT: i16 = 3;
/// The first DeleteTopics version whose clients get it.
const DELETE_TOPICS_STRICT: i16 = 5;

/// The active controller's mutation sensors.
#[derive(Debug)]
pub struct MutationQuota {
    manager: ClientQuotaManager,
}

impl Default for MutationQuota {
    fn default() -> MutationQuota {
        MutationQuota {
            manager: ClientQuotaManager::new(QuotaKind::ControllerMutation),
        }
    }
}

/// What admitting a request decided: the topics refused, and the sensor to read the throttle
/// time from once it is answered.
#[derive(Debug, Default)]
pub struct Admitted {
    refused: Vec<(Option<String>, Uuid)>,
    quota: Option<Resolved>,
}

impl MutationQuota {
    /// The sensors (for the metrics).
    pub fn manager(&self) -> &ClientQuotaManager {
        &self.manager
    }

    /// Counts the partitions `body` creates or deletes against the client's quota, leaving
    /// out of it (strict versions) the topics asked while the client is over its bound.
    pub fn admit(
        &self,
        image: &MetadataImage,
        user: &str,
        client_id: &str,
        body: &mut RequestBody,
        version: i16,
        now_ms: i64,
    ) -> Admitted {
        let Some(quota) = image
            .quotas
            .resolve(user, client_id, CONTROLLER_MUTATION_RATE)
        else {
            return Admitted::default();
        };
        let mut refused = Vec::new();
        // Records `partitions` unless a strict client is over its bound already.
        let take = |strict: bool, partitions: i64| -> bool {
            if strict
                && self
                    .manager
                    .throttle_ms(&quota.user, &quota.client_id, quota.value, now_ms)
                    > 0
            {
                return false;
            }
            self.manager.record(
                &quota.user,
                &quota.client_id,
                quota.value,
                partitions.max(0) as f64,
                now_ms,
            );
            true
        };
        let default_partitions = image
            .configs
            .get(
                fjord_metadata::config_defs::BROKER,
                "",
                fjord_configdef::broker::NUM_PARTITIONS.name,
            )
            .and_then(|v| v.parse::<i64>().ok())
            .unwrap_or(1);
        match body {
            RequestBody::CreateTopics(r) if !r.validate_only => {
                let strict = version >= CREATE_TOPICS_STRICT;
                r.topics.retain(|t| {
                    let n = if !t.assignments.is_empty() {
                        t.assignments.len() as i64
                    } else if t.num_partitions > 0 {
                        i64::from(t.num_partitions)
                    } else {
                        default_partitions
                    };
                    let ok = take(strict, n);
                    if !ok {
                        refused.push((Some(t.name.clone()), Uuid::nil()));
                    }
                    ok
                });
            }
            RequestBody::CreatePartitions(r) if !r.validate_only => {
                let strict = version >= CREATE_PARTITIONS_STRICT;
                r.topics.retain(|t| {
                    let now = image
                        .topics
                        .get_by_name(&t.name)
                        .map_or(0, |x| x.partitions.len() as i64);
                    let ok = take(strict, i64::from(t.count) - now);
                    if !ok {
                        refused.push((Some(t.name.clone()), Uuid::nil()));
                    }
                    ok
                });
            }
            RequestBody::DeleteTopics(r) => {
                let strict = version >= DELETE_TOPICS_STRICT;
                let size = |name: Option<&str>, id: Uuid| -> i64 {
                    let topic = match name {
                        Some(n) => image.topics.get_by_name(n).cloned(),
                        None => image.topics.by_id.get(&id).cloned(),
                    };
                    topic.map_or(0, |t| t.partitions.len() as i64)
                };
                r.topic_names.retain(|n| {
                    let ok = take(strict, size(Some(n), Uuid::nil()));
                    if !ok {
                        refused.push((Some(n.clone()), Uuid::nil()));
                    }
                    ok
                });
                r.topics.retain(|t| {
                    let ok = take(strict, size(t.name.as_deref(), t.topic_id));
                    if !ok {
                        refused.push((t.name.clone(), t.topic_id));
                    }
                    ok
                });
            }
            _ => return Admitted::default(),
        }
        Admitted {
            refused,
            quota: Some(quota),
        }
    }

    /// Adds the refused topics to the answer, and the throttle time the client's quota gives.
    pub fn finish(&self, admitted: Admitted, response: &mut ResponseBody, now_ms: i64) {
        let Some(q) = admitted.quota else {
            return;
        };
        let code = ErrorCode::ThrottlingQuotaExceeded;
        let message = || Some(code.message().to_string());
        match response {
            ResponseBody::CreateTopics(r) => r.topics.extend(admitted.refused.into_iter().map(
                |(n, _)| CreatableTopicResult {
                    name: n.unwrap_or_default(),
                    error_code: code.code(),
                    error_message: message(),
                    num_partitions: -1,
                    replication_factor: -1,
                    ..Default::default()
                },
            )),
            ResponseBody::CreatePartitions(r) => {
                r.results.extend(admitted.refused.into_iter().map(|(n, _)| {
                    CreatePartitionsTopicResult {
                        name: n.unwrap_or_default(),
                        error_code: code.code(),
                        error_message: message(),
                        ..Default::default()
                    }
                }))
            }
            ResponseBody::DeleteTopics(r) => {
                r.responses
                    .extend(admitted.refused.into_iter().map(|(name, topic_id)| {
                        DeletableTopicResult {
                            name,
                            topic_id,
                            error_code: code.code(),
                            error_message: message(),
                            ..Default::default()
                        }
                    }))
            }
            _ => {}
        }
        let throttle = self
            .manager
            .throttle_ms(&q.user, &q.client_id, q.value, now_ms);
        let ms = i32::try_from(throttle).unwrap_or(i32::MAX);
        if ms > response.throttle_time_ms() {
            response.set_throttle_time_ms(ms);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::generated::client_quota_record::{ClientQuotaRecord, EntityData};
    use fjord_protocol::generated::create_topics_request::{CreatableTopic, CreateTopicsRequest};
    use fjord_protocol::generated::create_topics_response::CreateTopicsResponse;
    use fjord_protocol::MetadataRecord;

    fn image(rate: f64) -> MetadataImage {
        let r = MetadataRecord::ClientQuota(ClientQuotaRecord {
            entity: vec![EntityData {
                entity_type: "client-id".into(),
                entity_name: None,
                ..Default::default()
            }],
            key: CONTROLLER_MUTATION_RATE.into(),
            value: rate,
            ..Default::default()
        });
        MetadataImage::empty().apply([&r], 0, 1).unwrap().0
    }

    fn create(names: &[&str], partitions: i32) -> RequestBody {
        RequestBody::CreateTopics(CreateTopicsRequest {
            topics: names
                .iter()
                .map(|n| CreatableTopic {
                    name: n.to_string(),
                    num_partitions: partitions,
                    replication_factor: 1,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
    }

    fn topics(body: &RequestBody) -> Vec<String> {
        match body {
            RequestBody::CreateTopics(r) => r.topics.iter().map(|t| t.name.clone()).collect(),
            _ => vec![],
        }
    }

    #[test]
    fn strict_clients_are_refused_past_the_bound_and_old_ones_only_throttled() {
        let q = MutationQuota::default();
        let img = image(10.0);
        // 10 partitions a second: the first topic of 20 goes through (Kafka lets the first
        // one past the bound), the next ones are refused while the client is over it.
        let mut body = create(&["a", "b", "c"], 20);
        let admitted = q.admit(&img, "u", "app", &mut body, 7, 0);
        assert_eq!(topics(&body), ["a"]);
        let mut response = ResponseBody::CreateTopics(CreateTopicsResponse::default());
        q.finish(admitted, &mut response, 0);
        let ResponseBody::CreateTopics(r) = &response else {
            panic!()
        };
        let refused: Vec<(&str, i16)> = r
            .topics
            .iter()
            .map(|t| (t.name.as_str(), t.error_code))
            .collect();
        assert_eq!(refused, [("b", 89), ("c", 89)]);
        assert_eq!(r.throttle_time_ms, 2_000);
        // A version 5 client is throttled, never refused.
        let mut old = create(&["d", "e"], 20);
        let admitted = q.admit(&img, "u", "app", &mut old, 5, 0);
        assert_eq!(topics(&old), ["d", "e"]);
        let mut response = ResponseBody::CreateTopics(CreateTopicsResponse::default());
        q.finish(admitted, &mut response, 0);
        assert_eq!(response.throttle_time_ms(), 6_000);
        // Another client id has its own sensor; validate_only costs nothing.
        let mut other = create(&["f"], 5);
        q.admit(&img, "u", "other", &mut other, 7, 0);
        assert_eq!(topics(&other), ["f"]);
        // Without a quota nothing is counted.
        let mut free = create(&["g"], 1_000);
        let admitted = q.admit(&MetadataImage::empty(), "u", "app", &mut free, 7, 0);
        assert_eq!(topics(&free), ["g"]);
        assert!(admitted.quota.is_none());
    }
}
