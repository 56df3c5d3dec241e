//! The ACL vocabulary of the wire, with Kafka's codes and names: resource types, pattern
//! types, operations and permissions. The ACL APIs and `AccessControlEntryRecord` carry these
//! codes; the request layer asks for operations on resources in these terms ([`Acls`]), and
//! the metadata image decides them.

macro_rules! kafka_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $code:expr, $text:expr;)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
        }

        impl $name {
            /// The code on the wire and in records.
            pub fn code(self) -> i8 {
                match self { $($name::$variant => $code,)* }
            }

            /// The value of a code, if it is one.
            pub fn from_code(code: i8) -> Option<$name> {
                match code { $($code => Some($name::$variant),)* _ => None }
            }

            /// Kafka's name for it.
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text,)* }
            }

            /// The value Kafka's name (any case) stands for.
            pub fn parse(s: &str) -> Option<$name> {
                let s = s.trim().to_ascii_uppercase().replace('-', "_");
                match s.as_str() { $($text => Some($name::$variant),)* _ => None }
            }
        }
    };
}

kafka_enum!(
    /// Kafka's `ResourceType`.
    ResourceType {
        /// Not known.
        Unknown = 0, "UNKNOWN";
        /// Any type (filters only).
        Any = 1, "ANY";
        /// A topic.
        Topic = 2, "TOPIC";
        /// A consumer group.
        Group = 3, "GROUP";
        /// The cluster.
        Cluster = 4, "CLUSTER";
        /// A transactional id.
        TransactionalId = 5, "TRANSACTIONAL_ID";
        /// A delegation token.
        DelegationToken = 6, "DELEGATION_TOKEN";
        /// A user.
        User = 7, "USER";
    }
);

kafka_enum!(
    /// Kafka's `PatternType`.
    PatternType {
        /// Not known.
        Unknown = 0, "UNKNOWN";
        /// Any pattern (filters only).
        Any = 1, "ANY";
        /// The patterns that match a name (filters only).
        Match = 2, "MATCH";
        /// The exact name, or `*` for every name.
        Literal = 3, "LITERAL";
        /// Every name starting with it.
        Prefixed = 4, "PREFIXED";
    }
);

kafka_enum!(
    /// Kafka's `AclOperation`.
    AclOperation {
        /// Not known.
        Unknown = 0, "UNKNOWN";
        /// Any operation (filters only).
        Any = 1, "ANY";
        /// Every operation.
        All = 2, "ALL";
        /// Read.
        Read = 3, "READ";
        /// Write.
        Write = 4, "WRITE";
        /// Create.
        Create = 5, "CREATE";
        /// Delete.
        Delete = 6, "DELETE";
        /// Alter.
        Alter = 7, "ALTER";
        /// Describe.
        Describe = 8, "DESCRIBE";
        /// Inter-broker and tool actions on the cluster.
        ClusterAction = 9, "CLUSTER_ACTION";
        /// Describe configs.
        DescribeConfigs = 10, "DESCRIBE_CONFIGS";
        /// Alter configs.
        AlterConfigs = 11, "ALTER_CONFIGS";
        /// Idempotent writes.
        IdempotentWrite = 12, "IDEMPOTENT_WRITE";
        /// Create delegation tokens.
        CreateTokens = 13, "CREATE_TOKENS";
        /// Describe delegation tokens.
        DescribeTokens = 14, "DESCRIBE_TOKENS";
        /// Two-phase commit.
        TwoPhaseCommit = 15, "TWO_PHASE_COMMIT";
    }
);

kafka_enum!(
    /// Kafka's `AclPermissionType`.
    Permission {
        /// Not known.
        Unknown = 0, "UNKNOWN";
        /// Any permission (filters only).
        Any = 1, "ANY";
        /// Deny.
        Deny = 2, "DENY";
        /// Allow.
        Allow = 3, "ALLOW";
    }
);

/// The ACL decision a node's metadata makes, as the request layer asks it, and the topic
/// names it knows (requests may name topics by id).
pub trait Acls: Sync {
    /// Whether `principal` at `host` may do `op` on the resource `name` of `kind`.
    fn allows(
        &self,
        principal: &str,
        host: &str,
        op: AclOperation,
        kind: ResourceType,
        name: &str,
    ) -> bool;
    /// Whether some resource of `kind` allows `principal` at `host` to do `op` (Kafka's
    /// authorizeByResourceType).
    fn any_allowed(
        &self,
        principal: &str,
        host: &str,
        op: AclOperation,
        kind: ResourceType,
    ) -> bool;
    /// The name of the topic with id `id`, if one has it.
    fn topic_name(&self, id: &crate::Uuid) -> Option<String>;
}

/// `authorized_operations` when the request did not ask for them (the schemas' default).
pub const OPERATIONS_NOT_REQUESTED: i32 = i32::MIN;

/// The operations a resource of `kind` can be granted (Kafka's `AclEntry.supportedOperations`,
/// read from the 4.4 jars); none for `Unknown` and `Any`.
pub fn supported_operations(kind: ResourceType) -> &'static [AclOperation] {
    use AclOperation as O;
    match kind {
        ResourceType::Topic => &[
            O::Read,
            O::Write,
            O::Create,
            O::Delete,
            O::Alter,
            O::Describe,
            O::DescribeConfigs,
            O::AlterConfigs,
        ],
        ResourceType::Group => &[
            O::Read,
            O::Delete,
            O::Describe,
            O::DescribeConfigs,
            O::AlterConfigs,
        ],
        ResourceType::Cluster => &[
            O::Create,
            O::Alter,
            O::Describe,
            O::ClusterAction,
            O::DescribeConfigs,
            O::AlterConfigs,
            O::IdempotentWrite,
        ],
        ResourceType::TransactionalId => &[O::Write, O::Describe, O::TwoPhaseCommit],
        ResourceType::DelegationToken => &[O::Describe],
        ResourceType::User => &[O::CreateTokens, O::DescribeTokens],
        ResourceType::Unknown | ResourceType::Any => &[],
    }
}

/// The `authorized_operations` bit field of `ops`: bit `code` set for each (KIP-430).
pub fn operations_field(ops: impl IntoIterator<Item = AclOperation>) -> i32 {
    ops.into_iter()
        .fold(0, |field, op| field | (1i32 << (op.code() & 31)))
}
