//! The controller's security decisions, each a metadata record: CreateAcls
//! (`AccessControlEntryRecord`s, Kafka's validation), DeleteAcls (a
//! `RemoveAccessControlEntryRecord` per matching ACL) and AlterUserScramCredentials
//! (`UserScramCredentialRecord` / `RemoveUserScramCredentialRecord`, credentials derived from
//! the client's salted password).

use crate::controller::{Controller, Handled};
use fjord_metadata::acls::{
    AclFilter, AclOperation, PatternType, Permission, ResourceType, StandardAcl,
};
use fjord_net::sasl::scram::{Credential, Mechanism, MAX_ITERATIONS, MIN_ITERATIONS};
use fjord_protocol::generated::{
    alter_user_scram_credentials_request::AlterUserScramCredentialsRequest,
    alter_user_scram_credentials_response::{
        AlterUserScramCredentialsResponse, AlterUserScramCredentialsResult,
    },
    create_acls_request::{AclCreation, CreateAclsRequest},
    create_acls_response::{AclCreationResult, CreateAclsResponse},
    delete_acls_request::{DeleteAclsFilter, DeleteAclsRequest},
    delete_acls_response::{DeleteAclsFilterResult, DeleteAclsMatchingAcl, DeleteAclsResponse},
    remove_access_control_entry_record::RemoveAccessControlEntryRecord,
    remove_user_scram_credential_record::RemoveUserScramCredentialRecord,
    user_scram_credential_record::UserScramCredentialRecord,
};
use fjord_protocol::{ErrorCode, MetadataRecord, ResponseBody, Uuid};
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

/// The name of the cluster resource in ACLs.
pub const CLUSTER_NAME: &str = "kafka-cluster";
/// The most ACL creations, deletion filters or credential changes one request may carry.
pub const MAX_SECURITY_CHANGES_PER_REQUEST: usize = 1000;

const SECURITY_DISABLED: &str = "No Authorizer is configured.";

/// The ACL a creation asks for, or why it cannot be one (Kafka's checks and messages).
fn acl_of(c: &AclCreation) -> Result<StandardAcl, String> {
    let resource_type = ResourceType::from_code(c.resource_type)
        .filter(|t| !matches!(t, ResourceType::Any | ResourceType::Unknown))
        .ok_or("Invalid resourceType")?;
    let pattern_type = PatternType::from_code(c.resource_pattern_type)
        .filter(|p| matches!(p, PatternType::Literal | PatternType::Prefixed))
        .ok_or("Invalid patternType")?;
    let operation = AclOperation::from_code(c.operation)
        .filter(|o| !matches!(o, AclOperation::Any | AclOperation::Unknown))
        .ok_or("Invalid operation")?;
    let permission = Permission::from_code(c.permission_type)
        .filter(|p| matches!(p, Permission::Allow | Permission::Deny))
        .ok_or("Invalid permissionType")?;
    if c.resource_name.is_empty() {
        return Err("Resource name should not be empty".into());
    }
    if resource_type == ResourceType::Cluster && c.resource_name != CLUSTER_NAME {
        return Err(format!(
            "The only valid name for the CLUSTER resource is {CLUSTER_NAME}"
        ));
    }
    match c.principal.split_once(':') {
        Some((kind, _)) if !kind.is_empty() => {}
        _ => return Err(format!("Could not parse principal from `{}`", c.principal)),
    }
    if c.host.is_empty() {
        return Err("Invalid host: the host should be * or an address".into());
    }
    Ok(StandardAcl {
        resource_type,
        resource_name: c.resource_name.clone(),
        pattern_type,
        principal: c.principal.clone(),
        host: c.host.clone(),
        operation,
        permission,
    })
}

/// The filter a DeleteAcls entry gives.
fn filter_of(f: &DeleteAclsFilter) -> Result<AclFilter, fjord_metadata::MetadataError> {
    AclFilter::from_codes(
        f.resource_type_filter,
        f.resource_name_filter.clone(),
        f.pattern_type_filter,
        f.principal_filter.clone(),
        f.host_filter.clone(),
        f.operation,
        f.permission_type,
    )
}

impl Controller {
    /// A new ACL id, derived from the image's position so the controller stays deterministic.
    fn new_acl_id(&self, acl: &StandardAcl, taken: &HashSet<Uuid>) -> Uuid {
        let mut salt = 0u64;
        loop {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (self.image().provenance.last_offset, acl, salt).hash(&mut h);
            let high = h.finish();
            salt.hash(&mut h);
            let id = Uuid::from_u128((u128::from(high) << 64) | u128::from(h.finish()));
            if !taken.contains(&id) && !self.image().acls.by_id.contains_key(&id) {
                return id;
            }
            salt += 1;
        }
    }

    /// CreateAcls: an `AccessControlEntryRecord` per valid creation not already present.
    pub(crate) fn create_acls(&mut self, r: &CreateAclsRequest) -> Handled {
        if !self.settings.authorizer_enabled {
            return Handled::Refuse {
                code: ErrorCode::SecurityDisabled,
                message: SECURITY_DISABLED.into(),
            };
        }
        if r.creations.len() > MAX_SECURITY_CHANGES_PER_REQUEST {
            return crate::controller::too_large();
        }
        let mut records = Vec::new();
        let mut results = Vec::new();
        let mut taken = HashSet::new();
        let mut created: Vec<StandardAcl> = Vec::new();
        for c in &r.creations {
            match acl_of(c) {
                Ok(acl) => {
                    let exists = self.image().acls.by_id.values().any(|a| *a == acl)
                        || created.contains(&acl);
                    if !exists {
                        let id = self.new_acl_id(&acl, &taken);
                        taken.insert(id);
                        records.push(MetadataRecord::AccessControlEntry(acl.to_record(id)));
                        created.push(acl);
                    }
                    results.push(AclCreationResult::default());
                }
                Err(message) => results.push(AclCreationResult {
                    error_code: ErrorCode::InvalidRequest.code(),
                    error_message: Some(message),
                    ..Default::default()
                }),
            }
        }
        let response = ResponseBody::CreateAcls(CreateAclsResponse {
            results,
            ..Default::default()
        });
        self.write(records, response)
    }

    /// DeleteAcls: every ACL a filter matches is removed and listed in its result.
    pub(crate) fn delete_acls(&mut self, r: &DeleteAclsRequest) -> Handled {
        if !self.settings.authorizer_enabled {
            return Handled::Refuse {
                code: ErrorCode::SecurityDisabled,
                message: SECURITY_DISABLED.into(),
            };
        }
        if r.filters.len() > MAX_SECURITY_CHANGES_PER_REQUEST {
            return crate::controller::too_large();
        }
        let mut removed = HashSet::new();
        let mut records = Vec::new();
        let mut results = Vec::new();
        for f in &r.filters {
            let filter = match filter_of(f) {
                Ok(f) => f,
                Err(message) => {
                    results.push(DeleteAclsFilterResult {
                        error_code: ErrorCode::InvalidRequest.code(),
                        error_message: Some(message.to_string()),
                        ..Default::default()
                    });
                    continue;
                }
            };
            let mut matching = Vec::new();
            for (id, acl) in self.image().acls.matching(&filter) {
                if removed.insert(*id) {
                    records.push(MetadataRecord::RemoveAccessControlEntry(
                        RemoveAccessControlEntryRecord {
                            id: *id,
                            ..Default::default()
                        },
                    ));
                }
                matching.push(DeleteAclsMatchingAcl {
                    resource_type: acl.resource_type.code(),
                    resource_name: acl.resource_name.clone(),
                    pattern_type: acl.pattern_type.code(),
                    principal: acl.principal.clone(),
                    host: acl.host.clone(),
                    operation: acl.operation.code(),
                    permission_type: acl.permission.code(),
                    ..Default::default()
                });
            }
            results.push(DeleteAclsFilterResult {
                matching_acls: matching,
                ..Default::default()
            });
        }
        let response = ResponseBody::DeleteAcls(DeleteAclsResponse {
            filter_results: results,
            ..Default::default()
        });
        self.write(records, response)
    }

    /// AlterUserScramCredentials, with Kafka's per-user checks.
    pub(crate) fn alter_user_scram_credentials(
        &mut self,
        r: &AlterUserScramCredentialsRequest,
    ) -> Handled {
        if r.deletions.len() + r.upsertions.len() > MAX_SECURITY_CHANGES_PER_REQUEST {
            return crate::controller::too_large();
        }
        let mut seen = std::collections::HashMap::<(&str, i8), usize>::new();
        for (name, m) in r
            .deletions
            .iter()
            .map(|d| (d.name.as_str(), d.mechanism))
            .chain(r.upsertions.iter().map(|u| (u.name.as_str(), u.mechanism)))
        {
            *seen.entry((name, m)).or_default() += 1;
        }
        let mut users: Vec<&str> = Vec::new();
        let mut failures = std::collections::HashMap::<&str, (ErrorCode, String)>::new();
        let mut records = Vec::new();
        let mut fail = |user, code, message: String| {
            failures.entry(user).or_insert((code, message));
        };
        for d in &r.deletions {
            if !users.contains(&d.name.as_str()) {
                users.push(&d.name);
            }
            if d.name.is_empty() {
                fail(
                    &d.name,
                    ErrorCode::UnacceptableCredential,
                    "Username must not be empty".into(),
                );
            } else if Mechanism::from_code(d.mechanism).is_none() {
                fail(
                    &d.name,
                    ErrorCode::UnsupportedSaslMechanism,
                    "Unknown SCRAM mechanism".into(),
                );
            } else if seen[&(d.name.as_str(), d.mechanism)] > 1 {
                fail(
                    &d.name,
                    ErrorCode::DuplicateResource,
                    "A user credential cannot be altered twice in the same request".into(),
                );
            } else if self.image().scram.get(&d.name, d.mechanism).is_none() {
                fail(
                    &d.name,
                    ErrorCode::ResourceNotFound,
                    "Attempt to delete a user credential that does not exist".into(),
                );
            } else {
                records.push((
                    d.name.as_str(),
                    MetadataRecord::RemoveUserScramCredential(RemoveUserScramCredentialRecord {
                        name: d.name.clone(),
                        mechanism: d.mechanism,
                        ..Default::default()
                    }),
                ));
            }
        }
        for u in &r.upsertions {
            if !users.contains(&u.name.as_str()) {
                users.push(&u.name);
            }
            let Some(m) = Mechanism::from_code(u.mechanism) else {
                fail(
                    &u.name,
                    ErrorCode::UnsupportedSaslMechanism,
                    "Unknown SCRAM mechanism".into(),
                );
                continue;
            };
            let iterations = u32::try_from(u.iterations).unwrap_or(0);
            if u.name.is_empty() {
                fail(
                    &u.name,
                    ErrorCode::UnacceptableCredential,
                    "Username must not be empty".into(),
                );
            } else if seen[&(u.name.as_str(), u.mechanism)] > 1 {
                fail(
                    &u.name,
                    ErrorCode::DuplicateResource,
                    "A user credential cannot be altered twice in the same request".into(),
                );
            } else if !(MIN_ITERATIONS..=MAX_ITERATIONS).contains(&iterations) {
                fail(
                    &u.name,
                    ErrorCode::UnacceptableCredential,
                    format!(
                        "Iterations {} must be between {MIN_ITERATIONS} and {MAX_ITERATIONS}",
                        u.iterations
                    ),
                );
            } else if u.salt.is_empty() || u.salted_password.is_empty() {
                fail(
                    &u.name,
                    ErrorCode::UnacceptableCredential,
                    "Salt and salted password must not be empty".into(),
                );
            } else {
                let c =
                    Credential::from_salted_password(m, &u.salted_password, &u.salt, iterations);
                records.push((
                    u.name.as_str(),
                    MetadataRecord::UserScramCredential(UserScramCredentialRecord {
                        name: u.name.clone(),
                        mechanism: u.mechanism,
                        salt: u.salt.clone(),
                        stored_key: c.stored_key.into(),
                        server_key: c.server_key.into(),
                        iterations: u.iterations,
                        ..Default::default()
                    }),
                ));
            }
        }
        // A user with any failure changes nothing (Kafka applies each user's changes whole).
        let records = records
            .into_iter()
            .filter(|(user, _)| !failures.contains_key(user))
            .map(|(_, r)| r)
            .collect();
        let results = users
            .into_iter()
            .map(|user| {
                let (code, message) = failures
                    .get(user)
                    .map_or((ErrorCode::None, None), |(c, m)| (*c, Some(m.clone())));
                AlterUserScramCredentialsResult {
                    user: user.to_string(),
                    error_code: code.code(),
                    error_message: message,
                    ..Default::default()
                }
            })
            .collect();
        let response = ResponseBody::AlterUserScramCredentials(AlterUserScramCredentialsResponse {
            results,
            ..Default::default()
        });
        self.write(records, response)
    }
}
