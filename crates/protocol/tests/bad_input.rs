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
        for b in RecordBatches::new(bytes).flatten() {
            let _ = b.validate();
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

/// The fuzz targets' property: a decoded value re-encodes and decodes to the same value.
fn assert_stable(data: &[u8], request: bool) {
    let api = ApiKey::ALL[data[0] as usize % ApiKey::ALL.len()];
    let span = (api.max_version() - api.min_version() + 1) as u8;
    let v = api.min_version() + (data[1] % span) as i16;
    let mut buf = Bytes::copy_from_slice(&data[2..]);
    if request {
        if let Ok(m) = RequestBody::decode(api, &mut buf, v) {
            let mut out = BytesMut::new();
            m.encode(&mut out, v).unwrap();
            assert_eq!(RequestBody::decode(api, &mut out.freeze(), v).unwrap(), m);
        }
    } else if let Ok(m) = ResponseBody::decode(api, &mut buf, v) {
        let mut out = BytesMut::new();
        m.encode(&mut out, v).unwrap();
        assert_eq!(ResponseBody::decode(api, &mut out.freeze(), v).unwrap(), m);
    }
}

/// Inputs the fuzzers found: unknown tagged fields out of order and repeated, which re-encode
/// sorted and so came back different. Such sections are now rejected as malformed.
#[test]
fn fuzz_regressions() {
    assert_stable(&[0x23, 2, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0], true);
    assert_stable(
        &[
            0xf6, 0x88, 0, 0, 1, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0x3b, 0, 0, 0, 0, 0,
        ],
        false,
    );
}
