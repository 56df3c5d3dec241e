//! KIP-430's authorized operations: the bit field of what the caller may do to each described
//! topic, group or the cluster, when a describe request asks for it (Metadata v8+,
//! DescribeCluster, DescribeGroups v3+, ConsumerGroupDescribe, ShareGroupDescribe) or always
//! (DescribeTopicPartitions). Handlers leave the fields at "not requested"; the request layer
//! fills them here, after the answer and before refused entities are merged in (those keep
//! "not requested", as Kafka's do). Without an authorizer every supported operation is
//! allowed, as Kafka answers.

use crate::authorize::{Access, CLUSTER};
use fjord_protocol::acl::{
    operations_field, supported_operations, AclOperation as Op, ResourceType as Kind,
};
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};

/// Which fields of an answer carry authorized operations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wanted {
    /// Each described topic's.
    pub topics: bool,
    /// Each described group's (those answered without error).
    pub groups: bool,
    /// The cluster's.
    pub cluster: bool,
}

/// What `body` (at `version`) asks to be told of its authorized operations; `None` when
/// nothing.
pub fn wanted(body: &RequestBody, version: i16) -> Option<Wanted> {
    let w = match body {
        RequestBody::Metadata(r) if version >= 8 => Wanted {
            topics: r.include_topic_authorized_operations,
            // Removed from the answer in v11 (KIP-700): DescribeCluster carries it.
            cluster: version <= 10 && r.include_cluster_authorized_operations,
            groups: false,
        },
        RequestBody::DescribeCluster(r) => Wanted {
            cluster: r.include_cluster_authorized_operations,
            ..Wanted::default()
        },
        RequestBody::DescribeTopicPartitions(_) => Wanted {
            topics: true,
            ..Wanted::default()
        },
        RequestBody::DescribeGroups(r) if version >= 3 => Wanted {
            groups: r.include_authorized_operations,
            ..Wanted::default()
        },
        RequestBody::ConsumerGroupDescribe(r) => Wanted {
            groups: r.include_authorized_operations,
            ..Wanted::default()
        },
        RequestBody::ShareGroupDescribe(r) => Wanted {
            groups: r.include_authorized_operations,
            ..Wanted::default()
        },
        _ => return None,
    };
    (w != Wanted::default()).then_some(w)
}

impl Access<'_> {
    /// The bit field of the supported operations on `name` of `kind` the caller may do.
    pub fn authorized_operations(&self, kind: Kind, name: &str) -> i32 {
        operations_field(
            supported_operations(kind)
                .iter()
                .copied()
                .filter(|op| self.allows(*op, kind, name)),
        )
    }

    /// The cluster's field: 0 for a caller that may not DESCRIBE it, as Kafka answers.
    fn cluster_operations(&self) -> i32 {
        if self.cluster(Op::Describe) {
            self.authorized_operations(Kind::Cluster, CLUSTER)
        } else {
            0
        }
    }

    /// Fills the fields `wanted` names in `response`.
    pub fn fill_operations(&self, response: &mut ResponseBody, wanted: Wanted) {
        let ok = ErrorCode::None.code();
        match response {
            ResponseBody::Metadata(r) => {
                if wanted.topics {
                    for t in &mut r.topics {
                        if let Some(name) = &t.name {
                            t.topic_authorized_operations =
                                self.authorized_operations(Kind::Topic, name);
                        }
                    }
                }
                if wanted.cluster {
                    r.cluster_authorized_operations = self.cluster_operations();
                }
            }
            ResponseBody::DescribeTopicPartitions(r) => {
                for t in &mut r.topics {
                    if let Some(name) = &t.name {
                        t.topic_authorized_operations =
                            self.authorized_operations(Kind::Topic, name);
                    }
                }
            }
            ResponseBody::DescribeCluster(r) if r.error_code == ok => {
                r.cluster_authorized_operations = self.cluster_operations();
            }
            ResponseBody::DescribeGroups(r) => {
                for g in r.groups.iter_mut().filter(|g| g.error_code == ok) {
                    g.authorized_operations = self.authorized_operations(Kind::Group, &g.group_id);
                }
            }
            ResponseBody::ConsumerGroupDescribe(r) => {
                for g in r.groups.iter_mut().filter(|g| g.error_code == ok) {
                    g.authorized_operations = self.authorized_operations(Kind::Group, &g.group_id);
                }
            }
            ResponseBody::ShareGroupDescribe(r) => {
                for g in r.groups.iter_mut().filter(|g| g.error_code == ok) {
                    g.authorized_operations = self.authorized_operations(Kind::Group, &g.group_id);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::acl::{Acls, OPERATIONS_NOT_REQUESTED};
    use fjord_protocol::generated::{
        describe_groups_response::{DescribeGroupsResponse, DescribedGroup},
        metadata_request::MetadataRequest,
        metadata_response::{MetadataResponse, MetadataResponseTopic},
    };

    /// Allows alice READ on topic "t" and DESCRIBE on group "g"; nothing else.
    struct Few;
    impl Acls for Few {
        fn allows(&self, principal: &str, _: &str, op: Op, kind: Kind, name: &str) -> bool {
            principal == "User:alice"
                && matches!(
                    (op, kind, name),
                    (Op::Read | Op::Describe, Kind::Topic, "t") | (Op::Describe, Kind::Group, "g")
                )
        }
        fn any_allowed(&self, _: &str, _: &str, _: Op, _: Kind) -> bool {
            false
        }
        fn topic_name(&self, _: &fjord_protocol::Uuid) -> Option<String> {
            None
        }
    }

    fn topic(name: &str) -> MetadataResponseTopic {
        MetadataResponseTopic {
            name: Some(name.into()),
            ..Default::default()
        }
    }

    #[test]
    fn only_what_is_asked_for() {
        let asked = |topics, cluster, version| {
            let r = MetadataRequest {
                include_topic_authorized_operations: topics,
                include_cluster_authorized_operations: cluster,
                ..Default::default()
            };
            wanted(&RequestBody::Metadata(r), version)
        };
        assert_eq!(asked(false, false, 12), None);
        assert_eq!(asked(true, true, 7), None);
        assert_eq!(
            asked(true, true, 11),
            Some(Wanted {
                topics: true,
                ..Wanted::default()
            })
        );
        assert_eq!(asked(false, true, 10).map(|w| w.cluster), Some(true));
    }

    #[test]
    fn without_an_authorizer_every_supported_operation() {
        let access = Access::new(None, &"User:ANONYMOUS", &"127.0.0.1");
        let mut r = ResponseBody::Metadata(MetadataResponse {
            topics: vec![topic("t")],
            ..Default::default()
        });
        access.fill_operations(
            &mut r,
            Wanted {
                topics: true,
                cluster: true,
                groups: false,
            },
        );
        let ResponseBody::Metadata(r) = r else {
            unreachable!()
        };
        // READ 3, WRITE 4, CREATE 5, DELETE 6, ALTER 7, DESCRIBE 8, DESCRIBE_CONFIGS 10,
        // ALTER_CONFIGS 11: the value Kafka 4.4 answers with no authorizer.
        assert_eq!(r.topics[0].topic_authorized_operations, 0b1101_1111_1000);
        // CREATE 5, ALTER 7, DESCRIBE 8, CLUSTER_ACTION 9, DESCRIBE_CONFIGS 10,
        // ALTER_CONFIGS 11, IDEMPOTENT_WRITE 12.
        assert_eq!(r.cluster_authorized_operations, 0b1_1111_1010_0000);
    }

    #[test]
    fn with_acls_only_the_allowed_ones() {
        let acls = Few;
        let alice = Access::new(Some(&acls), &"User:alice", &"127.0.0.1");
        let mut r = ResponseBody::Metadata(MetadataResponse {
            topics: vec![topic("t"), topic("u")],
            cluster_authorized_operations: OPERATIONS_NOT_REQUESTED,
            ..Default::default()
        });
        alice.fill_operations(
            &mut r,
            Wanted {
                topics: true,
                cluster: true,
                groups: false,
            },
        );
        let ResponseBody::Metadata(r) = r else {
            unreachable!()
        };
        assert_eq!(r.topics[0].topic_authorized_operations, (1 << 3) | (1 << 8));
        assert_eq!(r.topics[1].topic_authorized_operations, 0);
        assert_eq!(
            r.cluster_authorized_operations, 0,
            "no DESCRIBE on the cluster"
        );

        let mut g = ResponseBody::DescribeGroups(DescribeGroupsResponse {
            groups: vec![
                DescribedGroup {
                    group_id: "g".into(),
                    authorized_operations: OPERATIONS_NOT_REQUESTED,
                    ..Default::default()
                },
                DescribedGroup {
                    group_id: "g".into(),
                    error_code: ErrorCode::CoordinatorNotAvailable.code(),
                    authorized_operations: OPERATIONS_NOT_REQUESTED,
                    ..Default::default()
                },
            ],
            ..Default::default()
        });
        alice.fill_operations(
            &mut g,
            Wanted {
                groups: true,
                ..Wanted::default()
            },
        );
        let ResponseBody::DescribeGroups(g) = g else {
            unreachable!()
        };
        assert_eq!(g.groups[0].authorized_operations, 1 << 8);
        assert_eq!(
            g.groups[1].authorized_operations, OPERATIONS_NOT_REQUESTED,
            "a group answered with an error keeps the default"
        );
    }
}
