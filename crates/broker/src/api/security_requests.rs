//! The security requests a node answers from its metadata image: DescribeAcls (Kafka's filter
//! semantics, SECURITY_DISABLED without an authorizer) and DescribeUserScramCredentials (the
//! mechanisms and iteration counts, never the keys).

use fjord_metadata::acls::AclFilter;
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    describe_acls_request::DescribeAclsRequest,
    describe_acls_response::{AclDescription, DescribeAclsResource, DescribeAclsResponse},
    describe_user_scram_credentials_request::DescribeUserScramCredentialsRequest,
    describe_user_scram_credentials_response::{
        CredentialInfo, DescribeUserScramCredentialsResponse, DescribeUserScramCredentialsResult,
    },
};
use fjord_protocol::ErrorCode;
use std::collections::BTreeMap;

/// DescribeAcls from the image; `enabled` is whether an authorizer is configured.
pub fn describe_acls(
    image: &MetadataImage,
    r: &DescribeAclsRequest,
    enabled: bool,
) -> DescribeAclsResponse {
    let refuse = |code: ErrorCode, message: &str| DescribeAclsResponse {
        error_code: code.code(),
        error_message: Some(message.into()),
        ..Default::default()
    };
    if !enabled {
        return refuse(ErrorCode::SecurityDisabled, "No Authorizer is configured.");
    }
    let filter = AclFilter::from_codes(
        r.resource_type_filter,
        r.resource_name_filter.clone(),
        r.pattern_type_filter,
        r.principal_filter.clone(),
        r.host_filter.clone(),
        r.operation,
        r.permission_type,
    );
    let Ok(filter) = filter else {
        return refuse(ErrorCode::InvalidRequest, "The filter has an unknown value");
    };
    let mut resources: BTreeMap<(i8, String, i8), Vec<AclDescription>> = BTreeMap::new();
    for (_, acl) in image.acls.matching(&filter) {
        resources
            .entry((
                acl.resource_type.code(),
                acl.resource_name.clone(),
                acl.pattern_type.code(),
            ))
            .or_default()
            .push(AclDescription {
                principal: acl.principal.clone(),
                host: acl.host.clone(),
                operation: acl.operation.code(),
                permission_type: acl.permission.code(),
                ..Default::default()
            });
    }
    DescribeAclsResponse {
        resources: resources
            .into_iter()
            .map(|((t, name, p), acls)| DescribeAclsResource {
                resource_type: t,
                resource_name: name,
                pattern_type: p,
                acls,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

/// DescribeUserScramCredentials from the image: every user with a credential when no user is
/// named; RESOURCE_NOT_FOUND for a named user without one, DUPLICATE_RESOURCE for a user named
/// twice.
pub fn describe_user_scram_credentials(
    image: &MetadataImage,
    r: &DescribeUserScramCredentialsRequest,
) -> DescribeUserScramCredentialsResponse {
    let mut by_user: BTreeMap<&str, Vec<CredentialInfo>> = BTreeMap::new();
    for ((user, mechanism), c) in image.scram.by_user.iter() {
        by_user.entry(user).or_default().push(CredentialInfo {
            mechanism: *mechanism,
            iterations: c.iterations,
            ..Default::default()
        });
    }
    let results = match r.users.as_ref().filter(|u| !u.is_empty()) {
        None => by_user
            .into_iter()
            .map(|(user, infos)| DescribeUserScramCredentialsResult {
                user: user.to_string(),
                credential_infos: infos,
                ..Default::default()
            })
            .collect(),
        Some(users) => users
            .iter()
            .map(|u| {
                let twice = users.iter().filter(|o| o.name == u.name).count() > 1;
                let (code, message, infos) = match (twice, by_user.get(u.name.as_str())) {
                    (true, _) => (
                        ErrorCode::DuplicateResource,
                        Some(format!("Cannot describe SCRAM credentials for the same user twice in a single request: {}", u.name)),
                        Vec::new(),
                    ),
                    (false, None) => (
                        ErrorCode::ResourceNotFound,
                        Some(format!("Attempt to describe a user credential that does not exist: {}", u.name)),
                        Vec::new(),
                    ),
                    (false, Some(infos)) => (ErrorCode::None, None, infos.clone()),
                };
                DescribeUserScramCredentialsResult {
                    user: u.name.clone(),
                    error_code: code.code(),
                    error_message: message,
                    credential_infos: infos,
                    ..Default::default()
                }
            })
            .collect(),
    };
    DescribeUserScramCredentialsResponse {
        results,
        ..Default::default()
    }
}
