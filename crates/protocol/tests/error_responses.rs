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
