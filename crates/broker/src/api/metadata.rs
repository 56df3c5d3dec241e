//! The broker's answers about the cluster, as pure functions of the metadata image: Metadata
//! (brokers that are unfenced, topics with leaders, ISR, offline replicas, topic ids; which
//! unknown topics to auto-create) and DescribeCluster.

use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    describe_cluster_request::DescribeClusterRequest,
    describe_cluster_response::{DescribeClusterBroker, DescribeClusterResponse},
    metadata_request::MetadataRequest,
    metadata_response::{
        MetadataResponse, MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
    },
};
use fjord_protocol::{ErrorCode, Uuid};

/// Topics Kafka treats as internal.
pub const INTERNAL_TOPICS: &[&str] = &["__consumer_offsets", "__transaction_state"];

/// Whether a name may be auto-created (a valid topic name, not internal).
pub fn creatable(name: &str) -> bool {
    fjord_metadata::names::validate_topic_name(name).is_ok() && !INTERNAL_TOPICS.contains(&name)
}

/// The controller id broker `me` tells clients: itself while it is a registered, unfenced
/// broker (it is alive, since it answers, and it forwards controller-bound requests to the
/// active controller, as every KRaft broker does), else the lowest live broker. Naming any
/// other broker would send clients to one that may have died and is not fenced yet.
pub fn controller_id_for(image: &MetadataImage, me: i32) -> i32 {
    match image.cluster.brokers.get(&me) {
        Some(b) if !b.fenced => me,
        _ => client_controller_id(image),
    }
}

/// The lowest live broker (in KRaft, clients send controller-bound requests to any broker,
/// which forwards them).
pub fn client_controller_id(image: &MetadataImage) -> i32 {
    image
        .cluster
        .brokers
        .values()
        .find(|b| !b.fenced)
        .map_or(-1, |b| b.id)
}

/// A broker's endpoint on `listener`, else its first.
pub(crate) fn endpoint_on<'a>(
    b: &'a fjord_metadata::BrokerRegistration,
    listener: &str,
) -> Option<&'a fjord_metadata::Listener> {
    b.listeners
        .iter()
        .find(|l| l.name == listener)
        .or(b.listeners.first())
}

/// The endpoints on `listener` (else each broker's first) of the `leaders` named in
/// NOT_LEADER_OR_FOLLOWER answers (KIP-951), once each, built by `make(id, host, port, rack)`
/// into the response's own endpoint type.
pub fn leader_endpoints<T>(
    image: &MetadataImage,
    mut leaders: Vec<i32>,
    listener: &str,
    make: impl Fn(i32, String, i32, Option<String>) -> T,
) -> Vec<T> {
    leaders.sort_unstable();
    leaders.dedup();
    leaders
        .into_iter()
        .filter_map(|id| {
            let b = image.cluster.brokers.get(&id)?;
            let l = endpoint_on(b, listener)?;
            Some(make(id, l.host.clone(), i32::from(l.port), b.rack.clone()))
        })
        .collect()
}

/// Unfenced brokers with their endpoint on `listener` (else their first): id, host, port, rack.
pub fn live_brokers(
    image: &MetadataImage,
    listener: &str,
) -> Vec<(i32, String, i32, Option<String>)> {
    image
        .cluster
        .brokers
        .values()
        .filter(|b| !b.fenced && !b.in_controlled_shutdown)
        .filter_map(|b| {
            let l = endpoint_on(b, listener)?;
            Some((b.id, l.host.clone(), i32::from(l.port), b.rack.clone()))
        })
        .collect()
}

/// A partition's error in topic descriptions: LEADER_NOT_AVAILABLE while it has no leader.
pub(crate) fn partition_error(p: &fjord_metadata::PartitionRegistration) -> i16 {
    if p.has_leader() {
        0
    } else {
        ErrorCode::LeaderNotAvailable.code()
    }
}

/// A partition's replicas whose broker is fenced or gone.
pub(crate) fn offline_replicas(
    image: &MetadataImage,
    p: &fjord_metadata::PartitionRegistration,
) -> Vec<i32> {
    let live = |id: &i32| image.cluster.brokers.get(id).is_some_and(|b| !b.fenced);
    p.replicas.iter().copied().filter(|r| !live(r)).collect()
}

fn describe_topic(image: &MetadataImage, name: &str) -> MetadataResponseTopic {
    let Some(t) = image.topics.get_by_name(name) else {
        return MetadataResponseTopic {
            error_code: ErrorCode::UnknownTopicOrPartition.code(),
            name: Some(name.to_string()),
            ..Default::default()
        };
    };
    MetadataResponseTopic {
        name: Some(t.name.clone()),
        topic_id: t.id,
        is_internal: INTERNAL_TOPICS.contains(&t.name.as_str()),
        partitions: t
            .partitions
            .iter()
            .map(|(index, p)| MetadataResponsePartition {
                error_code: partition_error(p),
                partition_index: *index,
                leader_id: p.leader,
                leader_epoch: p.leader_epoch,
                replica_nodes: p.replicas.clone(),
                isr_nodes: p.isr.clone(),
                offline_replicas: offline_replicas(image, p),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

/// The Metadata answer, and the unknown topics to auto-create (reported as
/// LEADER_NOT_AVAILABLE until they exist).
pub fn metadata_response(
    image: &MetadataImage,
    r: &MetadataRequest,
    version: i16,
    cluster_id: &str,
    listener: &str,
    auto_create_topics: bool,
) -> (MetadataResponse, Vec<String>) {
    // All topics: null, or an empty list before v1; else by name or (v10+) by id.
    let wanted: Option<Vec<(Option<String>, Uuid)>> = match &r.topics {
        None => None,
        Some(t) if t.is_empty() && version == 0 => None,
        Some(t) => Some(t.iter().map(|x| (x.name.clone(), x.topic_id)).collect()),
    };
    let auto_create = auto_create_topics && (version < 4 || r.allow_auto_topic_creation);
    let mut topics = Vec::new();
    let mut to_create = Vec::new();
    match wanted {
        None => topics.extend(
            image
                .topics
                .by_name
                .keys()
                .map(|n| describe_topic(image, n)),
        ),
        Some(list) => {
            for (name, id) in list {
                // A topic id, when given, names the topic: the Java client asks by id with the
                // name left at its default "" (to resolve a regex subscription's assignment).
                let name = name.filter(|_| id == Uuid::default());
                match name {
                    Some(n) => {
                        let mut t = describe_topic(image, &n);
                        if t.error_code == ErrorCode::UnknownTopicOrPartition.code() {
                            if fjord_metadata::names::validate_topic_name(&n).is_err() {
                                // As Kafka: a name that can never exist fails the client at
                                // once instead of leaving it waiting for the topic.
                                t.error_code = ErrorCode::InvalidTopicException.code();
                            } else if auto_create && creatable(&n) {
                                to_create.push(n.clone());
                                t.error_code = ErrorCode::LeaderNotAvailable.code();
                            }
                        }
                        topics.push(t);
                    }
                    None => match image.topics.by_id.get(&id) {
                        Some(t) => topics.push(describe_topic(image, &t.name)),
                        None => topics.push(MetadataResponseTopic {
                            error_code: ErrorCode::UnknownTopicId.code(),
                            topic_id: id,
                            ..Default::default()
                        }),
                    },
                }
            }
        }
    }
    let response = MetadataResponse {
        brokers: live_brokers(image, listener)
            .into_iter()
            .map(|(id, host, port, rack)| MetadataResponseBroker {
                node_id: id,
                host,
                port,
                rack,
                ..Default::default()
            })
            .collect(),
        cluster_id: Some(cluster_id.to_string()),
        controller_id: client_controller_id(image),
        topics,
        ..Default::default()
    };
    (response, to_create)
}

/// DescribeCluster on a broker (endpoint type 1: brokers; other types are refused).
pub fn describe_cluster(
    image: &MetadataImage,
    request: &DescribeClusterRequest,
    version: i16,
    cluster_id: &str,
    listener: &str,
) -> DescribeClusterResponse {
    let endpoint_type = if version == 0 {
        1
    } else {
        request.endpoint_type
    };
    if endpoint_type != 1 {
        return DescribeClusterResponse {
            error_code: ErrorCode::UnsupportedEndpointType.code(),
            error_message: Some("Brokers describe brokers only (endpoint type 1)".into()),
            endpoint_type,
            ..Default::default()
        };
    }
    let mut brokers: Vec<DescribeClusterBroker> = live_brokers(image, listener)
        .into_iter()
        .map(|(id, host, port, rack)| DescribeClusterBroker {
            broker_id: id,
            host,
            port,
            rack,
            ..Default::default()
        })
        .collect();
    if version >= 2 && request.include_fenced_brokers {
        // KIP-1073: fenced brokers too, marked as such.
        for b in image.cluster.brokers.values() {
            if brokers.iter().any(|x| x.broker_id == b.id) {
                continue;
            }
            let Some(l) = endpoint_on(b, listener) else {
                continue;
            };
            brokers.push(DescribeClusterBroker {
                broker_id: b.id,
                host: l.host.clone(),
                port: i32::from(l.port),
                rack: b.rack.clone(),
                is_fenced: true,
                ..Default::default()
            });
        }
        brokers.sort_by_key(|b| b.broker_id);
    }
    DescribeClusterResponse {
        endpoint_type,
        cluster_id: cluster_id.to_string(),
        controller_id: client_controller_id(image),
        brokers,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::generated::metadata_request::MetadataRequestTopic;
    use fjord_protocol::generated::{
        partition_record::PartitionRecord,
        register_broker_record::{BrokerEndpoint, RegisterBrokerRecord},
        topic_record::TopicRecord,
    };
    use fjord_protocol::MetadataRecord;

    fn image() -> MetadataImage {
        let broker = |id: i32, fenced: bool| {
            MetadataRecord::RegisterBroker(RegisterBrokerRecord {
                broker_id: id,
                broker_epoch: id as i64,
                end_points: vec![
                    BrokerEndpoint {
                        name: "INTERNAL".into(),
                        host: "10.0.0.1".into(),
                        port: 7000,
                        ..Default::default()
                    },
                    BrokerEndpoint {
                        name: "PLAINTEXT".into(),
                        host: "127.0.0.1".into(),
                        port: 9000 + id as u16,
                        ..Default::default()
                    },
                ],
                rack: Some(format!("r{id}")),
                fenced,
                ..Default::default()
            })
        };
        let id = Uuid::from_u128(9);
        let records = vec![
            broker(1, false),
            broker(2, true),
            broker(3, false),
            MetadataRecord::Topic(TopicRecord {
                name: "t".into(),
                topic_id: id,
                ..Default::default()
            }),
            MetadataRecord::Partition(PartitionRecord {
                partition_id: 0,
                topic_id: id,
                replicas: vec![1, 2, 3],
                isr: vec![1, 3],
                leader: 1,
                leader_epoch: 4,
                ..Default::default()
            }),
            MetadataRecord::Partition(PartitionRecord {
                partition_id: 1,
                topic_id: id,
                replicas: vec![2],
                isr: vec![],
                leader: -1,
                ..Default::default()
            }),
        ];
        MetadataImage::empty().apply(&records, 10, 1).unwrap().0
    }

    #[test]
    fn a_broker_in_controlled_shutdown_is_not_listed() {
        use fjord_protocol::generated::broker_registration_change_record::BrokerRegistrationChangeRecord;
        let shutting_down =
            MetadataRecord::BrokerRegistrationChange(BrokerRegistrationChangeRecord {
                broker_id: 3,
                broker_epoch: 3,
                in_controlled_shutdown: 1,
                ..Default::default()
            });
        let image = image().apply([&shutting_down], 11, 1).unwrap().0;
        let listed: Vec<i32> = live_brokers(&image, "PLAINTEXT")
            .iter()
            .map(|b| b.0)
            .collect();
        assert_eq!(
            listed,
            vec![1],
            "broker 3 is still unfenced but shutting down"
        );
    }

    #[test]
    fn metadata_reports_live_brokers_leaders_and_offline_replicas() {
        let all = MetadataRequest {
            topics: None,
            ..Default::default()
        };
        let (r, create) = metadata_response(&image(), &all, 12, "c", "PLAINTEXT", true);
        assert!(create.is_empty());
        let brokers: Vec<(i32, i32)> = r.brokers.iter().map(|b| (b.node_id, b.port)).collect();
        assert_eq!(
            brokers,
            vec![(1, 9001), (3, 9003)],
            "unfenced only, on the asked listener"
        );
        assert_eq!(r.controller_id, 1);
        assert_eq!(
            controller_id_for(&image(), 3),
            3,
            "a live broker names itself"
        );
        assert_eq!(
            controller_id_for(&image(), 2),
            1,
            "a fenced one names the lowest live broker"
        );
        let t = &r.topics[0];
        assert_eq!(t.topic_id, Uuid::from_u128(9));
        let p0 = &t.partitions[0];
        assert_eq!((p0.leader_id, p0.leader_epoch, p0.error_code), (1, 4, 0));
        assert_eq!(p0.offline_replicas, vec![2]);
        let p1 = &t.partitions[1];
        assert_eq!(
            (p1.leader_id, p1.error_code),
            (-1, ErrorCode::LeaderNotAvailable.code())
        );
    }

    #[test]
    fn unknown_topics_are_auto_created_only_when_allowed() {
        let ask = |name: &str, allow: bool, version: i16, enabled: bool| {
            let req = MetadataRequest {
                topics: Some(vec![MetadataRequestTopic {
                    name: Some(name.into()),
                    ..Default::default()
                }]),
                allow_auto_topic_creation: allow,
                ..Default::default()
            };
            metadata_response(&image(), &req, version, "c", "PLAINTEXT", enabled)
        };
        let (r, create) = ask("new", true, 12, true);
        assert_eq!(create, vec!["new".to_string()]);
        assert_eq!(r.topics[0].error_code, ErrorCode::LeaderNotAvailable.code());
        let (r, create) = ask("new", false, 12, true);
        assert!(create.is_empty());
        assert_eq!(
            r.topics[0].error_code,
            ErrorCode::UnknownTopicOrPartition.code()
        );
        assert_eq!(
            ask("new", false, 3, true).1,
            vec!["new".to_string()],
            "before v4 always"
        );
        assert!(
            ask("new", true, 12, false).1.is_empty(),
            "auto.create.topics.enable=false"
        );
        for (allow, enabled) in [(true, true), (false, true), (true, false)] {
            let (r, create) = ask("bad$#!", allow, 12, enabled);
            assert!(create.is_empty());
            assert_eq!(
                r.topics[0].error_code,
                ErrorCode::InvalidTopicException.code(),
                "an invalid name (allowed {allow}, enabled {enabled})"
            );
        }
        assert!(ask("bad/name", true, 12, true).1.is_empty());
        assert!(ask("__consumer_offsets", true, 12, true).1.is_empty());
        // v0: an empty list means every topic; by id from v10.
        let (r, _) = metadata_response(
            &image(),
            &MetadataRequest {
                topics: Some(vec![]),
                ..Default::default()
            },
            0,
            "c",
            "PLAINTEXT",
            true,
        );
        assert_eq!(r.topics.len(), 1);
        let by_id_named = |id: u128, name: Option<&str>| {
            metadata_response(
                &image(),
                &MetadataRequest {
                    topics: Some(vec![MetadataRequestTopic {
                        topic_id: Uuid::from_u128(id),
                        name: name.map(str::to_string),
                        ..Default::default()
                    }]),
                    ..Default::default()
                },
                12,
                "c",
                "PLAINTEXT",
                true,
            )
            .0
        };
        let by_id = |id: u128| by_id_named(id, None);
        assert_eq!(by_id(9).topics[0].name.as_deref(), Some("t"));
        // The Java client leaves the name at "" when it asks by id: the id decides.
        let named = by_id_named(9, Some(""));
        assert_eq!(
            (named.topics[0].name.as_deref(), named.topics[0].error_code),
            (Some("t"), 0)
        );
        assert_eq!(
            by_id(8).topics[0].error_code,
            ErrorCode::UnknownTopicId.code()
        );
    }

    #[test]
    fn describe_cluster_describes_brokers_only() {
        let brokers = DescribeClusterRequest::default();
        let r = describe_cluster(&image(), &brokers, 1, "c", "PLAINTEXT");
        assert_eq!(
            r.brokers.iter().map(|b| b.broker_id).collect::<Vec<_>>(),
            vec![1, 3]
        );
        assert_eq!(r.brokers[0].rack.as_deref(), Some("r1"));
        let with_fenced = DescribeClusterRequest {
            include_fenced_brokers: true,
            ..Default::default()
        };
        let r = describe_cluster(&image(), &with_fenced, 2, "c", "PLAINTEXT");
        let listed: Vec<(i32, bool)> = r
            .brokers
            .iter()
            .map(|b| (b.broker_id, b.is_fenced))
            .collect();
        assert!(
            listed.contains(&(1, false)) && listed.len() >= 2,
            "{listed:?}"
        );
        assert!(
            listed.iter().any(|(_, fenced)| *fenced),
            "a fenced broker listed: {listed:?}"
        );
        let controllers = DescribeClusterRequest {
            endpoint_type: 2,
            ..Default::default()
        };
        let r = describe_cluster(&image(), &controllers, 2, "c", "PLAINTEXT");
        assert_eq!(r.error_code, ErrorCode::UnsupportedEndpointType.code());
    }
}
