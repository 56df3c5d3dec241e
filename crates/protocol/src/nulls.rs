//! Null where Kafka sends null: a success answer's error messages, and config documentation
//! not asked for, are null, never `""` (clients compare them exactly). Applied to every answer
//! before it is written.

use crate::ResponseBody;

/// The nullable string fields that are null when they say nothing.
pub const NULL_WHEN_EMPTY: [&str; 3] = ["ErrorMessage", "BatchIndexErrorMessage", "Documentation"];

/// Sets every empty error message and documentation `body` carries at `version` to null,
/// except the top-level message of the answers Kafka 4.4 sends as `""` on success
/// (AlterPartitionReassignments, DescribeClientQuotas, DescribeUserScramCredentials,
/// DescribeQuorum: found by the differential test; SaslAuthenticate, each step of an exchange:
/// found by the OAUTHBEARER and GSSAPI comparisons), each DescribeConfigs result's, and a
/// refused FindCoordinator key's.
pub fn null_empty_messages(body: &mut ResponseBody, version: i16) {
    body.each_nullable_string(version, &mut |name, value| {
        if value.as_deref() == Some("") && NULL_WHEN_EMPTY.contains(&name) {
            *value = None;
        }
    });
    let top = match body {
        ResponseBody::AlterPartitionReassignments(r) => Some((r.error_code, &mut r.error_message)),
        ResponseBody::DescribeClientQuotas(r) => Some((r.error_code, &mut r.error_message)),
        ResponseBody::DescribeUserScramCredentials(r) => Some((r.error_code, &mut r.error_message)),
        ResponseBody::DescribeQuorum(r) => Some((r.error_code, &mut r.error_message)),
        ResponseBody::SaslAuthenticate(r) => Some((r.error_code, &mut r.error_message)),
        _ => None,
    };
    if let Some((0, message @ None)) = top {
        *message = Some(String::new());
    }
    // A coordinator Kafka refuses a key for with no words (a share-partition key at v5, or
    // a malformed one) carries "".
    if let ResponseBody::FindCoordinator(r) = body {
        for c in r.coordinators.iter_mut().filter(|c| c.error_code != 0) {
            c.error_message.get_or_insert_with(String::new);
        }
    }
    if let ResponseBody::DescribeConfigs(r) = body {
        for result in r.results.iter_mut().filter(|r| r.error_code == 0) {
            result.error_message.get_or_insert_with(String::new);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generated::create_topics_response::{CreatableTopicResult, CreateTopicsResponse};

    #[test]
    fn empty_messages_become_null_and_others_stay() {
        let mut body = ResponseBody::CreateTopics(CreateTopicsResponse {
            topics: vec![
                CreatableTopicResult {
                    name: "a".into(),
                    error_message: Some(String::new()),
                    ..Default::default()
                },
                CreatableTopicResult {
                    name: "b".into(),
                    error_code: 36,
                    error_message: Some("Topic 'b' already exists.".into()),
                    ..Default::default()
                },
            ],
            ..Default::default()
        });
        null_empty_messages(&mut body, 7);
        let ResponseBody::CreateTopics(r) = body else {
            unreachable!()
        };
        assert_eq!(r.topics[0].error_message, None);
        assert_eq!(
            r.topics[1].error_message.as_deref(),
            Some("Topic 'b' already exists.")
        );
    }
}
