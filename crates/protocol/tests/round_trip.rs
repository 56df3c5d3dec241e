//! Round trip for every request and response at every valid version, with seeded sample values
//! driven by proptest: `decode(encode(x, v), v) == x` and `encoded_len` is exact.

use bytes::{Bytes, BytesMut};
use fjord_protocol::sample::SampleRng;
use fjord_protocol::{ApiKey, RequestBody, ResponseBody};
use proptest::prelude::*;

fn check_request(api: ApiKey, version: i16, seed: u64) -> Result<(), TestCaseError> {
    let mut g = SampleRng::new(seed);
    let msg = RequestBody::sample(api, &mut g, version);
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
    let mut bytes = buf.freeze();
    let back = RequestBody::decode(api, &mut bytes, version)
        .map_err(|e| TestCaseError::fail(format!("{api:?} v{version}: decode: {e}")))?;
    prop_assert!(
        bytes.is_empty(),
        "{:?} v{} left {} bytes",
        api,
        version,
        bytes.len()
    );
    prop_assert_eq!(back, msg);
    Ok(())
}

fn check_response(api: ApiKey, version: i16, seed: u64) -> Result<(), TestCaseError> {
    let mut g = SampleRng::new(seed);
    let msg = ResponseBody::sample(api, &mut g, version);
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
    let back = ResponseBody::decode(api, &mut bytes, version)
        .map_err(|e| TestCaseError::fail(format!("{api:?} v{version}: decode: {e}")))?;
    prop_assert!(
        bytes.is_empty(),
        "{:?} v{} left {} bytes",
        api,
        version,
        bytes.len()
    );
    prop_assert_eq!(back, msg);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_request_round_trips_at_every_version(seed in any::<u64>()) {
        for &api in ApiKey::ALL {
            for v in api.min_version()..=api.max_version() {
                check_request(api, v, seed)?;
            }
        }
    }

    #[test]
    fn every_response_round_trips_at_every_version(seed in any::<u64>()) {
        for &api in ApiKey::ALL {
            for v in api.min_version()..=api.max_version() {
                check_response(api, v, seed)?;
            }
        }
    }
}
