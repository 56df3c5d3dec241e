//! Kafka's StandardAuthorizer rules, table by table, over ACLs folded from their records:
//! super users, no-ACL defaults, DENY precedence, implied operations, LITERAL, wildcard and
//! PREFIXED resources, wildcard principals and hosts; the DescribeAcls/DeleteAcls filters; and
//! the records the image refuses.

use fjord_metadata::acls::{
    AclFilter, AclOperation as Op, AuthorizerSettings, Decision, PatternType, Permission,
    ResourceType as Rt, StandardAcl,
};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    access_control_entry_record::AccessControlEntryRecord,
    remove_access_control_entry_record::RemoveAccessControlEntryRecord,
};
use fjord_protocol::{MetadataRecord, Uuid};

fn acl(
    kind: Rt,
    name: &str,
    pattern: PatternType,
    principal: &str,
    host: &str,
    op: Op,
    permission: Permission,
) -> StandardAcl {
    StandardAcl {
        resource_type: kind,
        resource_name: name.into(),
        pattern_type: pattern,
        principal: principal.into(),
        host: host.into(),
        operation: op,
        permission,
    }
}

fn image(acls: &[StandardAcl]) -> MetadataImage {
    let records: Vec<MetadataRecord> = acls
        .iter()
        .enumerate()
        .map(|(i, a)| {
            MetadataRecord::AccessControlEntry(a.to_record(Uuid::from_u128(i as u128 + 1)))
        })
        .collect();
    MetadataImage::empty().apply(&records, 10, 1).unwrap().0
}

use PatternType::{Literal, Prefixed};
use Permission::{Allow, Deny};

/// Settings, principal, host, operation, resource type and name, the decision, and why.
type Case<'a> = (
    &'a AuthorizerSettings,
    &'a str,
    &'a str,
    Op,
    Rt,
    &'a str,
    Decision,
    &'a str,
);

#[test]
fn the_standard_authorizer_rules() {
    let acls = [
        acl(
            Rt::Topic,
            "orders",
            Literal,
            "User:alice",
            "*",
            Op::Read,
            Allow,
        ),
        acl(
            Rt::Topic,
            "orders",
            Literal,
            "User:alice",
            "*",
            Op::AlterConfigs,
            Allow,
        ),
        acl(
            Rt::Topic,
            "pay",
            Prefixed,
            "User:bob",
            "*",
            Op::Write,
            Allow,
        ),
        acl(
            Rt::Topic,
            "payroll",
            Literal,
            "User:bob",
            "*",
            Op::Write,
            Deny,
        ),
        acl(Rt::Topic, "*", Literal, "User:*", "*", Op::Describe, Allow),
        acl(
            Rt::Topic,
            "audit",
            Literal,
            "User:carol",
            "10.0.0.1",
            Op::All,
            Allow,
        ),
        acl(
            Rt::Topic,
            "audit",
            Literal,
            "User:carol",
            "*",
            Op::Delete,
            Deny,
        ),
        acl(
            Rt::Group,
            "orders",
            Literal,
            "User:alice",
            "*",
            Op::Read,
            Allow,
        ),
        acl(
            Rt::Cluster,
            "kafka-cluster",
            Literal,
            "User:ops",
            "*",
            Op::ClusterAction,
            Allow,
        ),
        acl(Rt::Topic, "secret", Literal, "User:*", "*", Op::All, Deny),
        acl(
            Rt::Topic,
            "quiet",
            Literal,
            "User:dave",
            "*",
            Op::Read,
            Deny,
        ),
    ];
    let img = image(&acls);
    let strict = AuthorizerSettings {
        super_users: vec!["User:admin".into()],
        allow_if_no_acl: false,
    };
    let open = AuthorizerSettings {
        allow_if_no_acl: true,
        ..strict.clone()
    };
    use Decision::*;
    #[rustfmt::skip]
    let table: &[Case] = &[
        (&strict, "User:admin", "h", Op::Delete, Rt::Topic, "secret", AllowedSuperUser, "super users are allowed everything, DENY or not"),
        (&strict, "User:alice", "h", Op::Read, Rt::Topic, "orders", Allowed, "a literal ALLOW"),
        (&strict, "User:alice", "h", Op::Write, Rt::Topic, "orders", DeniedNoMatch, "READ does not give WRITE"),
        (&strict, "User:alice", "h", Op::Describe, Rt::Topic, "orders", Allowed, "DESCRIBE implied by READ (and the wildcard ALLOW)"),
        (&strict, "User:alice", "h", Op::DescribeConfigs, Rt::Topic, "orders", Allowed, "DESCRIBE_CONFIGS implied by ALTER_CONFIGS"),
        (&strict, "User:alice", "h", Op::Read, Rt::Group, "orders", Allowed, "the group is its own resource"),
        (&strict, "User:alice", "h", Op::Write, Rt::Group, "orders", DeniedNoMatch, "no WRITE on the group"),
        (&strict, "User:bob", "h", Op::Write, Rt::Topic, "payments", Allowed, "a PREFIXED ALLOW covers the name"),
        (&strict, "User:bob", "h", Op::Write, Rt::Topic, "payroll", Denied, "a literal DENY beats the prefixed ALLOW"),
        (&strict, "User:bob", "h", Op::Write, Rt::Topic, "xpay", DeniedNoMatch, "a prefix covers names starting with it only"),
        (&strict, "User:zed", "h", Op::Describe, Rt::Topic, "anything", Allowed, "the wildcard resource and principal"),
        (&strict, "User:zed", "h", Op::Read, Rt::Topic, "anything", DeniedNoMatch, "the wildcard ALLOW is for DESCRIBE only"),
        (&strict, "User:carol", "10.0.0.1", Op::Write, Rt::Topic, "audit", Allowed, "ALL from the ACL's host"),
        (&strict, "User:carol", "10.0.0.2", Op::Write, Rt::Topic, "audit", DeniedNoMatch, "not from another host"),
        (&strict, "User:carol", "10.0.0.1", Op::Delete, Rt::Topic, "audit", Denied, "DENY DELETE beats ALLOW ALL"),
        (&strict, "User:alice", "h", Op::Read, Rt::Topic, "secret", Denied, "DENY ALL for every user"),
        (&strict, "User:dave", "h", Op::Describe, Rt::Topic, "quiet", Allowed, "DENY READ does not deny DESCRIBE (the wildcard allows it)"),
        (&strict, "User:ops", "h", Op::ClusterAction, Rt::Cluster, "kafka-cluster", Allowed, "CLUSTER_ACTION on the cluster"),
        (&strict, "User:alice", "h", Op::ClusterAction, Rt::Cluster, "kafka-cluster", DeniedNoMatch, "not for others"),
        (&strict, "User:alice", "h", Op::Read, Rt::TransactionalId, "tx", DeniedNoAcl, "no ACL: denied by default"),
        (&open, "User:alice", "h", Op::Read, Rt::TransactionalId, "tx", AllowedNoAcl, "no ACL: allow.everyone.if.no.acl.found"),
        (&open, "User:zed", "h", Op::Write, Rt::Topic, "orders", DeniedNoMatch, "ACLs cover it, so the default does not apply"),
        (&open, "Group:x", "h", Op::Describe, Rt::Topic, "orders", DeniedNoMatch, "User:* is for users only"),
    ];
    for (settings, principal, host, op, kind, name, want, why) in table {
        let got = img
            .acls
            .authorize(settings, principal, host, *op, *kind, name);
        assert_eq!(
            got, *want,
            "{why}: {principal} {op:?} {kind:?}:{name} from {host}"
        );
        assert_eq!(
            got.allowed(),
            matches!(want, Allowed | AllowedNoAcl | AllowedSuperUser)
        );
    }
}

#[test]
fn filters_select_as_kafkas_acl_binding_filters() {
    let acls = [
        acl(
            Rt::Topic,
            "orders",
            Literal,
            "User:alice",
            "*",
            Op::Read,
            Allow,
        ),
        acl(Rt::Topic, "*", Literal, "User:bob", "*", Op::Write, Allow),
        acl(
            Rt::Topic,
            "ord",
            Prefixed,
            "User:carol",
            "*",
            Op::Read,
            Deny,
        ),
        acl(
            Rt::Topic,
            "other",
            Literal,
            "User:alice",
            "*",
            Op::Read,
            Allow,
        ),
        acl(
            Rt::Group,
            "orders",
            Literal,
            "User:alice",
            "*",
            Op::Read,
            Allow,
        ),
    ];
    let img = image(&acls);
    let filter =
        |kind, name: Option<&str>, pattern, principal: Option<&str>, op, permission| AclFilter {
            resource_type: kind,
            resource_name: name.map(String::from),
            pattern_type: pattern,
            principal: principal.map(String::from),
            host: None,
            operation: op,
            permission,
        };
    let count = |f: AclFilter| img.acls.matching(&f).count();
    assert_eq!(
        count(filter(
            Rt::Any,
            None,
            PatternType::Any,
            None,
            Op::Any,
            Permission::Any
        )),
        5
    );
    assert_eq!(
        count(filter(
            Rt::Topic,
            None,
            PatternType::Any,
            None,
            Op::Any,
            Permission::Any
        )),
        4
    );
    assert_eq!(
        count(filter(
            Rt::Topic,
            Some("orders"),
            PatternType::Match,
            None,
            Op::Any,
            Permission::Any
        )),
        3,
        "MATCH: the literal, the wildcard and the prefix that apply to 'orders'"
    );
    assert_eq!(
        count(filter(
            Rt::Topic,
            Some("orders"),
            Literal,
            None,
            Op::Any,
            Permission::Any
        )),
        1
    );
    assert_eq!(
        count(filter(
            Rt::Topic,
            Some("ord"),
            Prefixed,
            None,
            Op::Any,
            Permission::Any
        )),
        1
    );
    assert_eq!(
        count(filter(
            Rt::Any,
            None,
            PatternType::Any,
            Some("User:alice"),
            Op::Any,
            Permission::Any
        )),
        3
    );
    assert_eq!(
        count(filter(
            Rt::Any,
            None,
            PatternType::Any,
            None,
            Op::Read,
            Permission::Deny
        )),
        1
    );
}

#[test]
fn records_that_cannot_be_acls_are_refused() {
    let good =
        acl(Rt::Topic, "t", Literal, "User:a", "*", Op::Read, Allow).to_record(Uuid::from_u128(1));
    let img = MetadataImage::empty()
        .apply(&[MetadataRecord::AccessControlEntry(good.clone())], 1, 1)
        .unwrap()
        .0;
    assert!(
        img.apply(&[MetadataRecord::AccessControlEntry(good.clone())], 2, 1)
            .is_err(),
        "an id already in use"
    );
    let remove = |id| {
        MetadataRecord::RemoveAccessControlEntry(RemoveAccessControlEntryRecord {
            id: Uuid::from_u128(id),
            ..Default::default()
        })
    };
    assert!(img.apply(&[remove(9)], 2, 1).is_err(), "no such ACL");
    let (after, changes) = img.apply(&[remove(1)], 2, 1).unwrap();
    assert!(after.acls.by_id.is_empty() && changes.acls);
    for bad in [
        AccessControlEntryRecord {
            resource_type: 1,
            ..good.clone()
        },
        AccessControlEntryRecord {
            pattern_type: 2,
            ..good.clone()
        },
        AccessControlEntryRecord {
            operation: 1,
            ..good.clone()
        },
        AccessControlEntryRecord {
            permission_type: 1,
            ..good.clone()
        },
        AccessControlEntryRecord {
            operation: 99,
            ..good.clone()
        },
    ] {
        let r =
            MetadataImage::empty().apply(&[MetadataRecord::AccessControlEntry(bad.clone())], 1, 1);
        assert!(r.is_err(), "{bad:?}");
    }
}

/// The request table: a request is let through, refused whole, or narrowed to the entities
/// the principal may touch and completed with the others' errors.
#[test]
fn requests_are_let_through_refused_or_narrowed_entity_by_entity() {
    use fjord_metadata::authorization::ImageAcls;
    use fjord_net::authorize::{Access, Denied, Gate};
    use fjord_protocol::generated::{
        create_topics_request as ct, create_topics_response as ctr, describe_configs_request as dc,
        describe_configs_response as dcr, describe_groups_request as dg,
        describe_groups_response as dgr, elect_leaders_request as el,
    };
    use fjord_protocol::{RequestBody, ResponseBody};
    let img = image(&[
        acl(
            Rt::Topic,
            "alice-",
            Prefixed,
            "User:alice",
            "*",
            Op::Create,
            Allow,
        ),
        acl(
            Rt::Topic,
            "shared",
            Literal,
            "User:alice",
            "*",
            Op::AlterConfigs,
            Allow,
        ),
        acl(Rt::Group, "*", Literal, "User:alice", "*", Op::Read, Allow),
        acl(
            Rt::Group,
            "tuned",
            Literal,
            "User:alice",
            "*",
            Op::AlterConfigs,
            Allow,
        ),
        acl(
            Rt::TransactionalId,
            "*",
            Literal,
            "User:alice",
            "*",
            Op::Write,
            Allow,
        ),
    ]);
    let settings = AuthorizerSettings {
        super_users: vec!["User:admin".into()],
        allow_if_no_acl: false,
    };
    let acls = ImageAcls::new(std::sync::Arc::new(settings.clone()), img.clone());
    let alice = Access::new(Some(&acls), &"User:alice", &"10.0.0.1");
    let admin = Access::new(Some(&acls), &"User:admin", &"10.0.0.1");
    let off = Access::new(None, &"User:alice", &"10.0.0.1");

    // CreateTopics: CREATE on a prefix lets alice create alice-1 but not bob-1.
    let create = RequestBody::CreateTopics(ct::CreateTopicsRequest {
        topics: ["alice-1", "bob-1"]
            .iter()
            .map(|n| ct::CreatableTopic {
                name: n.to_string(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    });
    let Gate::Partial(RequestBody::CreateTopics(narrowed), denied) = alice.gate(create.clone(), 7)
    else {
        panic!("narrowed")
    };
    assert_eq!(narrowed.topics.len(), 1);
    assert_eq!(narrowed.topics[0].name, "alice-1");
    let [Denied {
        part: RequestBody::CreateTopics(refused),
        code: fjord_protocol::ErrorCode::TopicAuthorizationFailed,
    }] = denied.as_slice()
    else {
        panic!("{denied:?}")
    };
    assert_eq!(refused.topics[0].name, "bob-1");
    let answered = alice.finish(
        ResponseBody::CreateTopics(ctr::CreateTopicsResponse {
            topics: vec![ctr::CreatableTopicResult {
                name: "alice-1".into(),
                ..Default::default()
            }],
            ..Default::default()
        }),
        &denied,
        7,
    );
    let ResponseBody::CreateTopics(r) = answered else {
        panic!()
    };
    let codes: Vec<(String, i16)> = r
        .topics
        .iter()
        .map(|t| (t.name.clone(), t.error_code))
        .collect();
    assert_eq!(codes, vec![("alice-1".into(), 0), ("bob-1".into(), 29)]);
    assert!(
        matches!(admin.gate(create.clone(), 7), Gate::Open(_)),
        "a super user"
    );
    assert!(
        matches!(off.gate(create, 7), Gate::Open(_)),
        "no authorizer"
    );

    // DescribeConfigs: DESCRIBE_CONFIGS comes with ALTER_CONFIGS; a broker needs the cluster,
    // a group config the group itself (READ on a group is not enough).
    let describe = RequestBody::DescribeConfigs(dc::DescribeConfigsRequest {
        resources: [
            (2, "shared"),
            (2, "private"),
            (4, "1"),
            (32, "tuned"),
            (32, "other"),
        ]
        .iter()
        .map(|(t, n)| dc::DescribeConfigsResource {
            resource_type: *t,
            resource_name: n.to_string(),
            configuration_keys: None,
            ..Default::default()
        })
        .collect(),
        ..Default::default()
    });
    let Gate::Partial(_, denied) = alice.gate(describe, 4) else {
        panic!()
    };
    let ResponseBody::DescribeConfigs(r) = alice.finish(
        ResponseBody::DescribeConfigs(dcr::DescribeConfigsResponse::default()),
        &denied,
        4,
    ) else {
        panic!()
    };
    let codes: Vec<(String, i16)> = r
        .results
        .iter()
        .map(|c| (c.resource_name.clone(), c.error_code))
        .collect();
    assert_eq!(
        codes,
        vec![
            ("private".into(), 29),
            ("other".into(), 30),
            ("1".into(), 31)
        ]
    );

    // DescribeGroups: READ on every group implies DESCRIBE.
    let groups = RequestBody::DescribeGroups(dg::DescribeGroupsRequest {
        groups: vec!["g".into()],
        ..Default::default()
    });
    assert!(matches!(alice.gate(groups, 5), Gate::Open(_)));
    let nobody = Access::new(Some(&acls), &"User:bob", &"10.0.0.1");
    let groups = RequestBody::DescribeGroups(dg::DescribeGroupsRequest {
        groups: vec!["g".into()],
        ..Default::default()
    });
    let Gate::Partial(_, denied) = nobody.gate(groups, 5) else {
        panic!()
    };
    let ResponseBody::DescribeGroups(r) = nobody.finish(
        ResponseBody::DescribeGroups(dgr::DescribeGroupsResponse::default()),
        &denied,
        5,
    ) else {
        panic!()
    };
    assert_eq!(r.groups[0].error_code, 30);

    // OffsetCommit: READ on the group first (alice has it on every group), then each topic.
    let commit = RequestBody::OffsetCommit(
        fjord_protocol::generated::offset_commit_request::OffsetCommitRequest {
            group_id: "g".into(),
            topics: vec![
                fjord_protocol::generated::offset_commit_request::OffsetCommitRequestTopic {
                    name: "private".into(),
                    partitions: vec![Default::default()],
                    ..Default::default()
                },
            ],
            ..Default::default()
        },
    );
    let Gate::Partial(RequestBody::OffsetCommit(narrowed), denied) = alice.gate(commit.clone(), 9)
    else {
        panic!()
    };
    assert!(narrowed.topics.is_empty());
    let ResponseBody::OffsetCommit(r) =
        alice.finish(ResponseBody::OffsetCommit(Default::default()), &denied, 9)
    else {
        panic!()
    };
    assert_eq!(r.topics[0].partitions[0].error_code, 29);
    let Gate::Deny(ResponseBody::OffsetCommit(_)) = nobody.gate(commit, 9) else {
        panic!("no READ on the group: refused whole")
    };

    // TxnOffsetCommit: WRITE on the transactional id and READ on the group, then READ on
    // each topic, as Kafka checks it: a topic alice may not read is refused per partition.
    use fjord_protocol::generated::txn_offset_commit_request as tc;
    let txn_commit = RequestBody::TxnOffsetCommit(tc::TxnOffsetCommitRequest {
        transactional_id: "tx".into(),
        group_id: "g".into(),
        topics: vec![tc::TxnOffsetCommitRequestTopic {
            name: "private".into(),
            partitions: vec![Default::default()],
            ..Default::default()
        }],
        ..Default::default()
    });
    let Gate::Partial(RequestBody::TxnOffsetCommit(narrowed), denied) =
        alice.gate(txn_commit.clone(), 6)
    else {
        panic!("TxnOffsetCommit narrowed by topic")
    };
    assert!(narrowed.topics.is_empty());
    let ResponseBody::TxnOffsetCommit(r) = alice.finish(
        ResponseBody::TxnOffsetCommit(Default::default()),
        &denied,
        6,
    ) else {
        panic!()
    };
    assert_eq!(r.topics[0].partitions[0].error_code, 29);
    let Gate::Deny(ResponseBody::TxnOffsetCommit(_)) = nobody.gate(txn_commit, 6) else {
        panic!("no WRITE on the transactional id: refused whole")
    };

    // OffsetDelete: admin may delete the group; a topic nobody may read is answered per
    // partition (Kafka's error response for it has a top-level code only).
    use fjord_protocol::generated::offset_delete_request as od;
    let delete = RequestBody::OffsetDelete(od::OffsetDeleteRequest {
        group_id: "g".into(),
        topics: vec![od::OffsetDeleteRequestTopic {
            name: "private".into(),
            partitions: vec![od::OffsetDeleteRequestPartition { partition_index: 3 }],
        }],
    });
    let group_admin = AuthorizerSettings {
        super_users: vec![],
        allow_if_no_acl: false,
    };
    let img2 = image(&[acl(
        Rt::Group,
        "g",
        Literal,
        "User:ops",
        "*",
        Op::Delete,
        Allow,
    )]);
    let acls2 = ImageAcls::new(std::sync::Arc::new(group_admin.clone()), img2.clone());
    let ops = Access::new(Some(&acls2), &"User:ops", &"h");
    let Gate::Partial(_, denied) = ops.gate(delete, 0) else {
        panic!()
    };
    let ResponseBody::OffsetDelete(r) =
        ops.finish(ResponseBody::OffsetDelete(Default::default()), &denied, 0)
    else {
        panic!()
    };
    assert_eq!(r.error_code, 0);
    assert_eq!(r.topics[0].partitions[0].partition_index, 3);
    assert_eq!(r.topics[0].partitions[0].error_code, 29);

    // A DESIGNATED election needs CLUSTER_ACTION (docs/EXTENSIONS.md): refused whole.
    let elect = RequestBody::ElectLeaders(el::ElectLeadersRequest {
        election_type: 2,
        ..Default::default()
    });
    let Gate::Deny(ResponseBody::ElectLeaders(r)) = alice.gate(elect, 3) else {
        panic!()
    };
    assert_eq!(r.error_code, 31);
}
