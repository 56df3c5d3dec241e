//! Every API at every version has an error response of its own type that encodes and decodes
//! (as Kafka's `getErrorResponse`): the top-level error code where the response has one, else
//! one result per entity of the request, each carrying the error.

use bytes::{Bytes, BytesMut};
use fjord_protocol::sample::SampleRng;
use fjord_protocol::{error_response, ApiKey, ErrorCode, RequestBody, ResponseBody};

/// Sampled requests per API and version.
const SEEDS: u64 = 24;

#[test]
fn every_api_at_every_version_has_a_decodable_error_response() {
    let code = ErrorCode::PolicyViolation;
    let marker = format!("error_code: {}", code.code());
    let mut checked = 0;
    for &api in ApiKey::ALL {
        for version in api.min_version()..=api.max_version() {
            let has_top = ResponseBody::top_level_error(api, version, 1, None).is_some();
            let mut carried = 0;
            for seed in 0..SEEDS {
                let request = RequestBody::sample(api, &mut SampleRng::new(seed), version);
                let response = error_response(&request, version, code, "refused");
                assert_eq!(response.api_key(), api, "{api:?} v{version}: wrong type");
                let mut buf = BytesMut::new();
                response
                    .encode(&mut buf, version)
                    .unwrap_or_else(|e| panic!("{api:?} v{version} seed {seed}: encode: {e}"));
                let mut bytes: Bytes = buf.freeze();
                let back = ResponseBody::decode(api, &mut bytes, version)
                    .unwrap_or_else(|e| panic!("{api:?} v{version} seed {seed}: decode: {e}"));
                assert!(bytes.is_empty(), "{api:?} v{version}: trailing bytes");
                if format!("{back:?}").contains(&marker) {
                    carried += 1;
                } else {
                    assert!(!has_top, "{api:?} v{version}: top-level error lost");
                }
                checked += 1;
            }
            assert!(
                carried > 0,
                "{api:?} v{version}: no error response of {SEEDS} carried the error"
            );
        }
    }
    assert!(checked > 5_000, "only {checked} responses checked");
}

/// The `topic_id: …` values in a message's debug text, leaving out a Fetch's forgotten
/// topics (dropped from its session, never answered).
fn topic_ids(debug: &str) -> std::collections::BTreeSet<String> {
    let debug = match debug.find("forgotten_topics_data: [") {
        Some(at) => {
            let rest = &debug[at..];
            let mut depth = 0;
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    depth += i32::from(c == '[') - i32::from(c == ']');
                    c == ']' && depth == 0
                })
                .map_or(rest.len(), |(i, _)| i + 1);
            format!("{}{}", &debug[..at], &rest[end..])
        }
        None => debug.to_string(),
    };
    debug
        .split("topic_id: ")
        .skip(1)
        .map(|rest| rest.split([',', ' ', '}']).next().unwrap_or("").to_string())
        .collect()
}

/// An error response that names topics by id names each one the request asked about: a
/// client matches the refusal to its topics by id (Kafka 4.4's producer ignores a
/// TxnOffsetCommit v6 answer whose topic id is zero and asks again forever).
#[test]
fn error_responses_name_the_requests_topics_by_their_ids() {
    let mut checked = 0;
    for &api in ApiKey::ALL {
        for version in api.min_version()..=api.max_version() {
            for seed in 0..SEEDS {
                let request = RequestBody::sample(api, &mut SampleRng::new(seed), version);
                let response = error_response(&request, version, ErrorCode::NotCoordinator, "x");
                let answered = topic_ids(&format!("{response:?}"));
                if answered.is_empty() {
                    continue;
                }
                for id in topic_ids(&format!("{request:?}")) {
                    assert!(
                        answered.contains(&id),
                        "{api:?} v{version} seed {seed}: the answer lost topic id {id}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} topic ids checked");
}
