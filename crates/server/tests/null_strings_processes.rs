//! Success answers carry null where Kafka sends null: every request below succeeds on a real
//! node, at every version the node advertises for its API (the version table comes from the
//! node's own ApiVersions), and no nullable string in the answer is `""`. A Node.js client's
//! own tests compare these exactly. Only the fields whose empty value means something (a
//! config value, an offset's metadata) may be empty.

mod common;

use common::{call, Node};
use fjord_protocol::generated::alter_configs_request::{
    AlterConfigsRequest, AlterConfigsResource, AlterableConfig,
};
use fjord_protocol::generated::{
    api_versions_request::ApiVersionsRequest,
    consumer_group_describe_request::ConsumerGroupDescribeRequest,
    consumer_group_heartbeat_request::ConsumerGroupHeartbeatRequest,
    create_acls_request::{AclCreation, CreateAclsRequest},
    create_topics_request::{CreatableTopic, CreateTopicsRequest},
    delete_acls_request::{DeleteAclsFilter, DeleteAclsRequest},
    describe_acls_request::DescribeAclsRequest,
    describe_cluster_request::DescribeClusterRequest,
    describe_configs_request::{DescribeConfigsRequest, DescribeConfigsResource},
    describe_groups_request::DescribeGroupsRequest,
    find_coordinator_request::FindCoordinatorRequest,
    incremental_alter_configs_request as incremental,
    list_groups_request::ListGroupsRequest,
    list_offsets_request::{ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic},
    metadata_request::{MetadataRequest, MetadataRequestTopic},
    offset_fetch_request::{OffsetFetchRequest, OffsetFetchRequestGroup},
};
use fjord_protocol::{ApiKey, RequestBody, ResponseBody};
use std::collections::BTreeMap;

/// Nullable strings whose empty value is a value, not an absence.
const MAY_BE_EMPTY: [&str; 2] = ["Value", "Metadata"];

/// Success messages Kafka 4.4 sends as `""`, not null (found by the differential test
/// against a real Kafka 4.4 broker): each DescribeConfigs result's.
const KAFKA_SENDS_EMPTY: [(ApiKey, &str); 1] = [(ApiKey::DescribeConfigs, "ErrorMessage")];

/// The topic every request reads.
const TOPIC: &str = "nulls";

/// Each request that succeeds, by API; `v` is the version it is sent at (a request that
/// creates something is named by version so each one is new).
fn requests(v: i16) -> Vec<(ApiKey, RequestBody)> {
    let acl = |name: &str| AclCreation {
        resource_type: 2,
        resource_name: name.into(),
        // Before v1 every ACL is LITERAL, and the field is not sent.
        resource_pattern_type: if v >= 1 { 3 } else { 0 },
        principal: "User:reader".into(),
        host: "*".into(),
        operation: 3,
        permission_type: 3,
        ..Default::default()
    };
    let api_versions = if v >= 3 {
        ApiVersionsRequest {
            client_software_name: "fjord-tests".into(),
            client_software_version: "1".into(),
            ..Default::default()
        }
    } else {
        ApiVersionsRequest::default()
    };
    let create = |name: String, validate_only: bool| CreateTopicsRequest {
        topics: vec![CreatableTopic {
            name,
            num_partitions: 1,
            replication_factor: 1,
            ..Default::default()
        }],
        timeout_ms: 30_000,
        validate_only,
        ..Default::default()
    };
    let find = if v >= 4 {
        FindCoordinatorRequest {
            coordinator_keys: vec!["a-group".into()],
            ..Default::default()
        }
    } else {
        FindCoordinatorRequest {
            key: "a-group".into(),
            ..Default::default()
        }
    };
    let offset_fetch = if v >= 8 {
        OffsetFetchRequest {
            groups: vec![OffsetFetchRequestGroup {
                group_id: "a-group".into(),
                member_epoch: if v >= 9 { -1 } else { 0 },
                topics: None,
                ..Default::default()
            }],
            ..Default::default()
        }
    } else {
        OffsetFetchRequest {
            group_id: "a-group".into(),
            // All topics is null from v2; before, an empty list.
            topics: if v >= 2 { None } else { Some(Vec::new()) },
            ..Default::default()
        }
    };
    let alter = AlterConfigsRequest {
        resources: vec![AlterConfigsResource {
            resource_type: 2,
            resource_name: TOPIC.into(),
            configs: vec![AlterableConfig {
                name: "retention.ms".into(),
                value: Some("3600000".into()),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let incremental_alter = incremental::IncrementalAlterConfigsRequest {
        resources: vec![incremental::AlterConfigsResource {
            resource_type: 2,
            resource_name: TOPIC.into(),
            configs: vec![incremental::AlterableConfig {
                name: "retention.ms".into(),
                config_operation: 0,
                value: Some("7200000".into()),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let list_offsets = ListOffsetsRequest {
        replica_id: -1,
        topics: vec![ListOffsetsTopic {
            name: TOPIC.into(),
            partitions: vec![ListOffsetsPartition {
                partition_index: 0,
                current_leader_epoch: -1,
                timestamp: -1,
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    vec![
        (ApiKey::ApiVersions, RequestBody::ApiVersions(api_versions)),
        (
            ApiKey::Metadata,
            RequestBody::Metadata(MetadataRequest {
                topics: Some(vec![MetadataRequestTopic {
                    name: Some(TOPIC.into()),
                    ..Default::default()
                }]),
                ..Default::default()
            }),
        ),
        (
            ApiKey::CreateTopics,
            RequestBody::CreateTopics(create(format!("created-v{v}"), false)),
        ),
        (
            ApiKey::CreateTopics,
            // Before v1 there is no validate-only: it creates the topic.
            RequestBody::CreateTopics(create(format!("validated-v{v}"), v >= 1)),
        ),
        (
            ApiKey::DescribeConfigs,
            RequestBody::DescribeConfigs(DescribeConfigsRequest {
                resources: vec![DescribeConfigsResource {
                    resource_type: 2,
                    resource_name: TOPIC.into(),
                    configuration_keys: None,
                    ..Default::default()
                }],
                include_synonyms: v >= 1,
                ..Default::default()
            }),
        ),
        (ApiKey::AlterConfigs, RequestBody::AlterConfigs(alter)),
        (
            ApiKey::IncrementalAlterConfigs,
            RequestBody::IncrementalAlterConfigs(incremental_alter),
        ),
        (
            ApiKey::CreateAcls,
            RequestBody::CreateAcls(CreateAclsRequest {
                creations: vec![acl(&format!("acl-v{v}"))],
                ..Default::default()
            }),
        ),
        (
            ApiKey::DescribeAcls,
            RequestBody::DescribeAcls(DescribeAclsRequest {
                resource_type_filter: 1,
                // ANY from v1; before, only LITERAL (and not sent).
                pattern_type_filter: if v >= 1 { 1 } else { 3 },
                operation: 1,
                permission_type: 1,
                ..Default::default()
            }),
        ),
        (
            ApiKey::DeleteAcls,
            RequestBody::DeleteAcls(DeleteAclsRequest {
                filters: vec![DeleteAclsFilter {
                    resource_type_filter: 2,
                    resource_name_filter: Some(format!("acl-v{v}")),
                    pattern_type_filter: 3,
                    operation: 1,
                    permission_type: 1,
                    ..Default::default()
                }],
                ..Default::default()
            }),
        ),
        (ApiKey::FindCoordinator, RequestBody::FindCoordinator(find)),
        (
            ApiKey::ListGroups,
            RequestBody::ListGroups(ListGroupsRequest::default()),
        ),
        (
            ApiKey::DescribeGroups,
            RequestBody::DescribeGroups(DescribeGroupsRequest {
                groups: vec!["a-group".into()],
                ..Default::default()
            }),
        ),
        (
            ApiKey::DescribeCluster,
            RequestBody::DescribeCluster(DescribeClusterRequest::default()),
        ),
        (ApiKey::ListOffsets, RequestBody::ListOffsets(list_offsets)),
        (ApiKey::OffsetFetch, RequestBody::OffsetFetch(offset_fetch)),
        (
            ApiKey::ConsumerGroupHeartbeat,
            RequestBody::ConsumerGroupHeartbeat(ConsumerGroupHeartbeatRequest {
                group_id: format!("c-group-v{v}"),
                member_id: format!("member-v{v}"),
                member_epoch: 0,
                rebalance_timeout_ms: 30_000,
                subscribed_topic_names: Some(vec![TOPIC.into()]),
                topic_partitions: Some(Vec::new()),
                ..Default::default()
            }),
        ),
        (
            ApiKey::ConsumerGroupDescribe,
            RequestBody::ConsumerGroupDescribe(ConsumerGroupDescribeRequest {
                group_ids: vec![format!("c-group-v{v}")],
                ..Default::default()
            }),
        ),
    ]
}

#[test]
fn success_answers_carry_null_where_kafka_does_at_every_version() {
    let root = tempfile::tempdir().unwrap();
    let node = Node::single(
        root.path(),
        0,
        "offsets.topic.replication.factor=1\n\
         authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer\n\
         super.users=User:ANONYMOUS",
    );
    let addr = node.broker_addr();
    common::create(&addr, TOPIC, "1", &[]);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        // The first FindCoordinator creates __consumer_offsets: wait until its shards serve.
        let c = fjord_net::client::Client::connect(&addr, std::time::Duration::from_secs(5))
            .await
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let find = RequestBody::FindCoordinator(FindCoordinatorRequest {
                key: "a-group".into(),
                ..Default::default()
            });
            match c.call(find, 1, std::time::Duration::from_secs(30)).await {
                Ok(ResponseBody::FindCoordinator(f)) if f.error_code == 0 => {
                    // ... and the group exists (an admin commit makes it; v6 answers GROUP_ID_NOT_FOUND
                    // until it does).
                    use fjord_protocol::generated::offset_commit_request::*;
                    let commit = RequestBody::OffsetCommit(OffsetCommitRequest {
                        group_id: "a-group".into(),
                        generation_id_or_member_epoch: -1,
                        topics: vec![OffsetCommitRequestTopic {
                            name: TOPIC.into(),
                            partitions: vec![OffsetCommitRequestPartition {
                                partition_index: 0,
                                committed_offset: 0,
                                committed_metadata: Some("m".into()),
                                ..Default::default()
                            }],
                            ..Default::default()
                        }],
                        ..Default::default()
                    });
                    let _ = c.call(commit, 8, std::time::Duration::from_secs(30)).await;
                    let describe = RequestBody::DescribeGroups(DescribeGroupsRequest {
                        groups: vec!["a-group".into()],
                        ..Default::default()
                    });
                    if let Ok(ResponseBody::DescribeGroups(d)) = c
                        .call(describe, 6, std::time::Duration::from_secs(30))
                        .await
                    {
                        if d.groups.iter().all(|g| g.error_code == 0) {
                            break;
                        }
                    }
                }
                other => assert!(
                    std::time::Instant::now() < deadline,
                    "no group coordinator: {other:?}\n{}",
                    node.log_tail()
                ),
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let Some(ResponseBody::ApiVersions(versions)) =
            call(&addr, common::api_versions_request(), 3).await
        else {
            panic!("ApiVersions\n{}", node.log_tail())
        };
        let table: BTreeMap<i16, (i16, i16)> = versions
            .api_keys
            .iter()
            .map(|k| (k.api_key, (k.min_version, k.max_version)))
            .collect();
        let mut checked = 0;
        let mut empty = Vec::new();
        let mut apis: Vec<ApiKey> = requests(0).into_iter().map(|(a, _)| a).collect();
        apis.dedup();
        for api in apis {
            let (min, max) = table[&(api as i16)];
            for v in min..=max {
                for (a, body) in requests(v) {
                    if a != api {
                        continue;
                    }
                    let Some(mut answer) = call(&addr, body, v).await else {
                        panic!("{api:?} v{v} was not answered\n{}", node.log_tail())
                    };
                    let mut codes = Vec::new();
                    answer.each_error_code(&mut |c| codes.push(c));
                    assert!(
                        codes.iter().all(|c| *c == 0),
                        "{api:?} v{v} did not succeed: {answer:?}"
                    );
                    answer.each_nullable_string(v, &mut |field, value| {
                        if value.as_deref() == Some("")
                            && !MAY_BE_EMPTY.contains(&field)
                            && !KAFKA_SENDS_EMPTY.contains(&(api, field))
                        {
                            empty.push(format!("{api:?} v{v}: {field}"));
                        }
                    });
                    checked += 1;
                }
            }
        }
        assert!(empty.is_empty(), "\"\" where Kafka sends null: {empty:#?}");
        // IncludeSynonyms and IncludeDocumentation are honoured at every version with them.
        let (_, max) = table[&(ApiKey::DescribeConfigs as i16)];
        for v in 1..=max {
            for (synonyms, documentation) in [(false, false), (true, true), (false, true)] {
                let ask = RequestBody::DescribeConfigs(DescribeConfigsRequest {
                    resources: vec![DescribeConfigsResource {
                        resource_type: 2,
                        resource_name: TOPIC.into(),
                        configuration_keys: Some(vec!["retention.ms".into()]),
                        ..Default::default()
                    }],
                    include_synonyms: synonyms,
                    include_documentation: documentation && v >= 3,
                    ..Default::default()
                });
                let Some(ResponseBody::DescribeConfigs(d)) = call(&addr, ask, v).await else {
                    panic!("DescribeConfigs v{v}")
                };
                let config = &d.results[0].configs[0];
                assert_eq!(
                    !config.synonyms.is_empty(),
                    synonyms,
                    "v{v} IncludeSynonyms={synonyms}: {config:?}"
                );
                if v >= 3 && documentation {
                    let doc = config.documentation.as_deref().unwrap_or_default();
                    assert!(doc.contains("deleted"), "v{v}: {config:?}");
                } else if v >= 3 {
                    assert_eq!(config.documentation, None, "v{v}: not asked for");
                }
            }
        }
        // Every config a broker and a topic describe has its documentation.
        for (resource_type, resource_name) in [(4, "1"), (2, TOPIC)] {
            let ask = RequestBody::DescribeConfigs(DescribeConfigsRequest {
                resources: vec![DescribeConfigsResource {
                    resource_type,
                    resource_name: resource_name.into(),
                    configuration_keys: None,
                    ..Default::default()
                }],
                include_documentation: true,
                ..Default::default()
            });
            let Some(ResponseBody::DescribeConfigs(d)) = call(&addr, ask, max).await else {
                panic!("DescribeConfigs v{max}")
            };
            let undocumented: Vec<&str> = d.results[0]
                .configs
                .iter()
                .filter(|c| c.documentation.is_none())
                .map(|c| c.name.as_str())
                .collect();
            assert!(d.results[0].configs.len() > 20);
            assert!(
                undocumented.is_empty(),
                "no documentation: {undocumented:?}"
            );
        }
        // Every API above, at each of the versions the node advertises (91 answers when
        // this was written).
        eprintln!("{checked} answers checked");
        assert!(checked >= 80, "{checked} answers checked");
    });
}
