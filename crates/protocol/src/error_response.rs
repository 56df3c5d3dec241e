//! The error response of every API at every version, as Kafka's `getErrorResponse`: the
//! top-level error code (and message, where the version has one) when the response has one,
//! and for responses that carry their errors per entity (topic, partition, resource, group,
//! ACL), one result per entity of the request with the error. A node that cannot serve a
//! request answers with this instead of closing the connection.
//!
//! The answers are generated ([`crate::generated::error_response`]) from the specs and the
//! entity paths in `schemas/error_responses.json`; the two answers no path can describe are
//! written here.

use crate::generated::{alter_user_scram_credentials_response, describe_log_dirs_response};
use crate::{ErrorCode, RequestBody, ResponseBody};

/// The response to `request` (read at `version`) that fails all of it with `code` and
/// `message`.
pub fn error_response(
    request: &RequestBody,
    version: i16,
    code: ErrorCode,
    message: &str,
) -> ResponseBody {
    let c = code.code();
    match request {
        RequestBody::DescribeLogDirs(_) if version < 3 => {
            // No top-level error before v3: one result without a directory carries it.
            use describe_log_dirs_response::*;
            ResponseBody::DescribeLogDirs(DescribeLogDirsResponse {
                results: vec![DescribeLogDirsResult {
                    error_code: c,
                    ..Default::default()
                }],
                ..Default::default()
            })
        }
        RequestBody::AlterUserScramCredentials(r) => {
            use alter_user_scram_credentials_response::*;
            // One result per user the request names, each once, as Kafka's getErrorResponse.
            let mut users: Vec<&str> = Vec::new();
            for u in r
                .deletions
                .iter()
                .map(|d| d.name.as_str())
                .chain(r.upsertions.iter().map(|u| u.name.as_str()))
            {
                if !users.contains(&u) {
                    users.push(u);
                }
            }
            ResponseBody::AlterUserScramCredentials(AlterUserScramCredentialsResponse {
                results: users
                    .into_iter()
                    .map(|user| AlterUserScramCredentialsResult {
                        user: user.to_string(),
                        error_code: c,
                        error_message: Some(message.to_string()),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
        }
        RequestBody::JoinGroup(_) if version >= 7 => {
            // Kafka's JoinGroup error answer names no protocol (null from v7, where it may be).
            let mut r =
                crate::generated::error_response::error_response(request, version, c, message);
            if let ResponseBody::JoinGroup(j) = &mut r {
                j.protocol_name = None;
            }
            r
        }
        _ => crate::generated::error_response::error_response(request, version, c, message),
    }
}
