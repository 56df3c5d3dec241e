//! Bad input never panics: random bytes, truncations and bit flips fed to every request and
//! response decoder at every version give a value or a typed error.

use bytes::{Bytes, BytesMut};
use fjord_protocol::header::parse_request;
use fjord_protocol::records::RecordBatches;
use fjord_protocol::sample::SampleRng;
use fjord_protocol::{ApiKey, RequestBody, ResponseBody};
use proptest::prelude::*;

fn all_versions() -> impl Iterator<Item = (ApiKey, i16)> {
    ApiKey::ALL
        .iter()
        .flat_map(|&k| (k.min_version()..=k.max_version()).map(move |v| (k, v)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..96)) {
        let bytes = Bytes::from(data);
        for (api, v) in all_versions() {
            let _ = RequestBody::decode(api, &mut bytes.clone(), v);
            let _ = ResponseBody::decode(api, &mut bytes.clone(), v);
        }
        let _ = parse_request(bytes.clone()).map(|f| f.decode_body());
        for b in RecordBatches::new(bytes) {
            if let Ok(b) = b {
                let _ = b.validate();
            }
        }
    }

    #[test]
    fn every_truncation_of_a_valid_request_is_an_error(seed in any::<u64>()) {
        for (api, v) in all_versions() {
            let msg = RequestBody::sample(api, &mut SampleRng::new(seed), v);
            let mut b = BytesMut::new();
            msg.encode(&mut b, v).unwrap();
            let full = b.freeze();
            let cut = (seed as usize) % full.len().max(1);
            if cut < full.len() {
                prop_assert!(RequestBody::decode(api, &mut full.slice(..cut), v).is_err(),
                    "{:?} v{} cut at {} of {}", api, v, cut, full.len());
            }
        }
    }

    #[test]
    fn bit_flips_never_panic(seed in any::<u64>(), flips in proptest::collection::vec(any::<(usize, u8)>(), 1..4)) {
        for (api, v) in all_versions() {
            let msg = RequestBody::sample(api, &mut SampleRng::new(seed), v);
            let mut b = BytesMut::new();
            msg.encode(&mut b, v).unwrap();
            if b.is_empty() {
                continue;
            }
            let n = b.len();
            for &(at, bit) in &flips {
                b[at % n] ^= 1 << (bit % 8);
            }
            let _ = RequestBody::decode(api, &mut b.freeze(), v);
        }
    }
}

#[test]
fn a_huge_length_on_a_tiny_frame_is_an_error() {
    // Produce v3: transactional id (null), acks, timeout, then a topic array claiming 2^31-1 items.
    let frame = Bytes::from_static(&[0xff, 0xff, 0, 1, 0, 0, 0, 1, 0x7f, 0xff, 0xff, 0xff]);
    assert!(RequestBody::decode(ApiKey::Produce, &mut frame.clone(), 3).is_err());
}
