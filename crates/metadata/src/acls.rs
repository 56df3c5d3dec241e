//! ACLs as Kafka's StandardAuthorizer keeps them: the image's part (each
//! `AccessControlEntryRecord` by id, removed by `RemoveAccessControlEntryRecord`), Kafka's enum
//! codes, the filters DescribeAcls and DeleteAcls match with, and the authorization rule
//! itself: super users, DENY before ALLOW, implied operations, LITERAL, wildcard and PREFIXED
//! resources, wildcard principals and hosts, and `allow.everyone.if.no.acl.found`. Pure
//! functions of the image, so every node decides the same way.

use crate::image::Map;
use fjord_protocol::generated::access_control_entry_record::AccessControlEntryRecord;
use fjord_protocol::Uuid;

/// The cluster resource's name.
pub const CLUSTER_NAME: &str = "kafka-cluster";
/// The wildcard resource name and host.
pub const WILDCARD: &str = "*";
/// The wildcard principal (every user).
pub const WILDCARD_PRINCIPAL: &str = "User:*";

pub use fjord_protocol::acl::{AclOperation, PatternType, Permission, ResourceType};

/// One ACL, as its record holds it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StandardAcl {
    /// The resource type.
    pub resource_type: ResourceType,
    /// The resource name (or prefix, or `*`).
    pub resource_name: String,
    /// LITERAL or PREFIXED.
    pub pattern_type: PatternType,
    /// `User:alice`, or `User:*`.
    pub principal: String,
    /// A host, or `*`.
    pub host: String,
    /// The operation.
    pub operation: AclOperation,
    /// ALLOW or DENY.
    pub permission: Permission,
}

impl StandardAcl {
    /// The ACL of a record, or why the record cannot be one (a value a stored ACL cannot
    /// take: an ANY, MATCH or unknown code).
    pub fn from_record(r: &AccessControlEntryRecord) -> Result<StandardAcl, crate::MetadataError> {
        let resource_type = ResourceType::from_code(r.resource_type)
            .filter(|t| !matches!(t, ResourceType::Any | ResourceType::Unknown))
            .ok_or_else(|| {
                crate::MetadataError::InvalidAcl(format!(
                    "invalid resource type {}",
                    r.resource_type
                ))
            })?;
        let pattern_type = PatternType::from_code(r.pattern_type)
            .filter(|p| matches!(p, PatternType::Literal | PatternType::Prefixed))
            .ok_or_else(|| {
                crate::MetadataError::InvalidAcl(format!("invalid pattern type {}", r.pattern_type))
            })?;
        let operation = AclOperation::from_code(r.operation)
            .filter(|o| !matches!(o, AclOperation::Any | AclOperation::Unknown))
            .ok_or_else(|| {
                crate::MetadataError::InvalidAcl(format!("invalid operation {}", r.operation))
            })?;
        let permission = Permission::from_code(r.permission_type)
            .filter(|p| matches!(p, Permission::Allow | Permission::Deny))
            .ok_or_else(|| {
                crate::MetadataError::InvalidAcl(format!(
                    "invalid permission type {}",
                    r.permission_type
                ))
            })?;
        Ok(StandardAcl {
            resource_type,
            resource_name: r.resource_name.clone(),
            pattern_type,
            principal: r.principal.clone(),
            host: r.host.clone(),
            operation,
            permission,
        })
    }

    /// The record that stores it under `id`.
    pub fn to_record(&self, id: Uuid) -> AccessControlEntryRecord {
        AccessControlEntryRecord {
            id,
            resource_type: self.resource_type.code(),
            resource_name: self.resource_name.clone(),
            pattern_type: self.pattern_type.code(),
            principal: self.principal.clone(),
            host: self.host.clone(),
            operation: self.operation.code(),
            permission_type: self.permission.code(),
            ..Default::default()
        }
    }

    /// Whether its resource pattern covers the resource `name` of `kind`.
    fn covers(&self, kind: ResourceType, name: &str) -> bool {
        self.resource_type == kind
            && match self.pattern_type {
                PatternType::Literal => {
                    self.resource_name == name || self.resource_name == WILDCARD
                }
                PatternType::Prefixed => name.starts_with(&self.resource_name),
                _ => false,
            }
    }

    /// Whether it speaks of `principal` at `host`.
    fn applies_to(&self, principal: &str, host: &str) -> bool {
        (self.principal == principal
            || (self.principal == WILDCARD_PRINCIPAL && principal.starts_with("User:")))
            && (self.host == host || self.host == WILDCARD)
    }

    /// Whether it decides `op`: the same operation or ALL; an ALLOW also grants the operations
    /// Kafka implies (DESCRIBE from READ, WRITE, DELETE, ALTER; DESCRIBE_CONFIGS from
    /// ALTER_CONFIGS).
    fn decides(&self, op: AclOperation) -> bool {
        if self.operation == op || self.operation == AclOperation::All {
            return true;
        }
        self.permission == Permission::Allow
            && match op {
                AclOperation::Describe => matches!(
                    self.operation,
                    AclOperation::Read
                        | AclOperation::Write
                        | AclOperation::Delete
                        | AclOperation::Alter
                ),
                AclOperation::DescribeConfigs => self.operation == AclOperation::AlterConfigs,
                _ => false,
            }
    }
}

/// The ACLs of the cluster, by id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AclsImage {
    /// ACLs by the id of the record that created them.
    pub by_id: Map<Uuid, StandardAcl>,
}

/// The authorizer's settings (Kafka's names).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuthorizerSettings {
    /// `super.users`: principals allowed everything.
    pub super_users: Vec<String>,
    /// `allow.everyone.if.no.acl.found`.
    pub allow_if_no_acl: bool,
}

/// Why a request was allowed or denied, for the audit log and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// A super user.
    AllowedSuperUser,
    /// An ALLOW ACL matched and no DENY did.
    Allowed,
    /// No ACL covers the resource and `allow.everyone.if.no.acl.found` is set.
    AllowedNoAcl,
    /// A DENY ACL matched.
    Denied,
    /// ACLs cover the resource but none allows this.
    DeniedNoMatch,
    /// No ACL covers the resource.
    DeniedNoAcl,
}

impl Decision {
    /// True for the allowing decisions.
    pub fn allowed(self) -> bool {
        matches!(
            self,
            Decision::AllowedSuperUser | Decision::Allowed | Decision::AllowedNoAcl
        )
    }
}

impl AclsImage {
    /// Kafka's StandardAuthorizer decision for `principal` from `host` doing `op` on the
    /// resource `name` of `kind`.
    pub fn authorize(
        &self,
        settings: &AuthorizerSettings,
        principal: &str,
        host: &str,
        op: AclOperation,
        kind: ResourceType,
        name: &str,
    ) -> Decision {
        if settings.super_users.iter().any(|s| s == principal) {
            return Decision::AllowedSuperUser;
        }
        let mut covered = false;
        let mut allowed = false;
        for acl in self.by_id.values().filter(|a| a.covers(kind, name)) {
            covered = true;
            if !acl.applies_to(principal, host) || !acl.decides(op) {
                continue;
            }
            match acl.permission {
                Permission::Deny => return Decision::Denied,
                Permission::Allow => allowed = true,
                _ => {}
            }
        }
        match (allowed, covered) {
            (true, _) => Decision::Allowed,
            (false, true) => Decision::DeniedNoMatch,
            (false, false) if settings.allow_if_no_acl => Decision::AllowedNoAcl,
            (false, false) => Decision::DeniedNoAcl,
        }
    }

    /// Whether some resource of `kind` allows `principal` at `host` to do `op` (a super
    /// user, an ALLOW ACL that applies, or no ACL at all with `allow.everyone.if.no.acl.found`).
    /// DENY ACLs on other names do not count against it, as in Kafka's check by resource type
    /// for a principal with an ALLOW somewhere.
    pub fn any_allowed(
        &self,
        settings: &AuthorizerSettings,
        principal: &str,
        host: &str,
        op: AclOperation,
        kind: ResourceType,
    ) -> bool {
        if settings.super_users.iter().any(|s| s == principal) {
            return true;
        }
        let mut covered = false;
        for acl in self.by_id.values().filter(|a| a.resource_type == kind) {
            covered = true;
            if acl.permission == Permission::Allow
                && acl.applies_to(principal, host)
                && acl.decides(op)
            {
                return true;
            }
        }
        !covered && settings.allow_if_no_acl
    }

    /// The ACLs a DescribeAcls or DeleteAcls filter selects, with their ids.
    pub fn matching<'a>(
        &'a self,
        f: &'a AclFilter,
    ) -> impl Iterator<Item = (&'a Uuid, &'a StandardAcl)> {
        self.by_id.iter().filter(move |(_, a)| f.matches(a))
    }
}

/// A DescribeAcls / DeleteAcls filter (Kafka's AclBindingFilter): `None` fields match
/// anything; ANY codes match every value; pattern MATCH selects the LITERAL, wildcard and
/// PREFIXED ACLs that would apply to the named resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AclFilter {
    /// The resource type, or ANY.
    pub resource_type: ResourceType,
    /// The resource name, or any.
    pub resource_name: Option<String>,
    /// The pattern type: LITERAL, PREFIXED, ANY or MATCH.
    pub pattern_type: PatternType,
    /// The principal, or any.
    pub principal: Option<String>,
    /// The host, or any.
    pub host: Option<String>,
    /// The operation, or ANY.
    pub operation: AclOperation,
    /// The permission, or ANY.
    pub permission: Permission,
}

impl AclFilter {
    /// The filter a DescribeAcls or DeleteAcls request's fields give, or which field holds a
    /// code Kafka does not know (UNKNOWN is refused).
    pub fn from_codes(
        resource_type: i8,
        resource_name: Option<String>,
        pattern_type: i8,
        principal: Option<String>,
        host: Option<String>,
        operation: i8,
        permission: i8,
    ) -> Result<AclFilter, crate::MetadataError> {
        Ok(AclFilter {
            resource_type: ResourceType::from_code(resource_type)
                .filter(|t| *t != ResourceType::Unknown)
                .ok_or_else(|| {
                    crate::MetadataError::InvalidAcl("Invalid resourceTypeFilter".into())
                })?,
            resource_name,
            pattern_type: PatternType::from_code(pattern_type)
                .filter(|p| *p != PatternType::Unknown)
                .ok_or_else(|| {
                    crate::MetadataError::InvalidAcl("Invalid patternTypeFilter".into())
                })?,
            principal,
            host,
            operation: AclOperation::from_code(operation)
                .filter(|o| *o != AclOperation::Unknown)
                .ok_or_else(|| crate::MetadataError::InvalidAcl("Invalid operation".into()))?,
            permission: Permission::from_code(permission)
                .filter(|p| *p != Permission::Unknown)
                .ok_or_else(|| crate::MetadataError::InvalidAcl("Invalid permissionType".into()))?,
        })
    }

    /// Whether it selects `acl`.
    pub fn matches(&self, acl: &StandardAcl) -> bool {
        let kind =
            self.resource_type == ResourceType::Any || self.resource_type == acl.resource_type;
        let resource = match (self.pattern_type, &self.resource_name) {
            (PatternType::Any, None) => true,
            (PatternType::Any, Some(n)) => &acl.resource_name == n,
            (PatternType::Match, None) => true,
            (PatternType::Match, Some(n)) => match acl.pattern_type {
                PatternType::Literal => &acl.resource_name == n || acl.resource_name == WILDCARD,
                PatternType::Prefixed => n.starts_with(&acl.resource_name),
                _ => false,
            },
            (p, name) => {
                p == acl.pattern_type && name.as_ref().is_none_or(|n| &acl.resource_name == n)
            }
        };
        let principal = self.principal.as_ref().is_none_or(|p| &acl.principal == p);
        let host = self.host.as_ref().is_none_or(|h| &acl.host == h);
        let op = self.operation == AclOperation::Any || self.operation == acl.operation;
        let permission = self.permission == Permission::Any || self.permission == acl.permission;
        kind && resource && principal && host && op && permission
    }
}
