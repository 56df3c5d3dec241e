//! Round trip for every request and response at every valid version, with seeded sample values
//! driven by proptest: `decode(encode(x, v), v) == x` and `encoded_len` is exact.

use bytes::{Bytes, BytesMut};
use fjord_protocol::sample::SampleRng;
use fjord_protocol::{ApiKey, RequestBody, ResponseBody};
use proptest::prelude::*;

/// Checks one sampled body type (`RequestBody` or `ResponseBody`) at one version.
macro_rules! check {
    ($body:ident, $api:expr, $version:expr, $seed:expr) => {{
        let (api, version) = ($api, $version);
        let msg = $body::sample(api, &mut SampleRng::new($seed), version);
        let mut buf = BytesMut::new();
        msg.encode(&mut buf, version)
            .map_err(|e| TestCaseError::fail(format!("{api:?} v{version}: encode: {e}")))?;
        prop_assert_eq!(
            buf.len(),
            msg.encoded_len(version),
            "{:?} v{} encoded_len",
            api,
            version
        );
        let mut bytes: Bytes = buf.freeze();
        let back = $body::decode(api, &mut bytes, version)
            .map_err(|e| TestCaseError::fail(format!("{api:?} v{version}: decode: {e}")))?;
        prop_assert!(
            bytes.is_empty(),
            "{:?} v{} left {} bytes",
            api,
            version,
            bytes.len()
        );
        prop_assert_eq!(back, msg);
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_request_round_trips_at_every_version(seed in any::<u64>()) {
        for &api in ApiKey::ALL {
            for v in api.min_version()..=api.max_version() {
                check!(RequestBody, api, v, seed);
            }
        }
    }

    #[test]
    fn every_response_round_trips_at_every_version(seed in any::<u64>()) {
        for &api in ApiKey::ALL {
            for v in api.min_version()..=api.max_version() {
                check!(ResponseBody, api, v, seed);
            }
        }
    }
}
