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

/// Values that break lengths, counts and tags where they stand: zero, all ones (-1, null), the
/// largest positive, and a varint that never ends.
const MUTATIONS: [u8; 4] = [0x00, 0xff, 0x7f, 0x80];

/// Re-decoding what decoded gives the same value (decoders and encoders agree even on
/// mutated input). Compared by their encodings: a float64 field may hold a NaN, which is not
/// equal to itself, and must still come back with the same bits.
fn check_mutant<T: std::fmt::Debug + PartialEq>(
    decoded: Result<T, fjord_protocol::DecodeError>,
    encode: impl Fn(&T, &mut BytesMut) -> Result<(), fjord_protocol::EncodeError>,
    decode: impl Fn(&mut Bytes) -> Result<T, fjord_protocol::DecodeError>,
) -> bool {
    let Ok(m) = decoded else { return false };
    let mut out = BytesMut::new();
    encode(&m, &mut out).expect("a decoded value encodes");
    let first = out.freeze();
    let again = decode(&mut first.clone()).expect("re-decodes");
    let mut out = BytesMut::new();
    encode(&again, &mut out).expect("a re-decoded value encodes");
    assert_eq!(out.freeze(), first, "{m:?} came back as {again:?}");
    true
}

/// Valid requests and responses of every API at every version, with one byte at every
/// position, and one 4-byte window at every position, replaced by values that break lengths,
/// counts and tags: each decode gives a typed error or a value that round-trips, never a
/// panic. Mutating real frames reaches past the first length prefix, where random bytes stop.
#[test]
fn mutated_valid_messages_of_every_api_decode_or_fail_cleanly() {
    let mut decoded = 0usize;
    let mut failed = 0usize;
    for (api, v) in all_versions() {
        for seed in 0..2 {
            for request in [true, false] {
                let mut b = BytesMut::new();
                if request {
                    RequestBody::sample(api, &mut SampleRng::new(seed), v).encode(&mut b, v)
                } else {
                    ResponseBody::sample(api, &mut SampleRng::new(seed), v).encode(&mut b, v)
                }
                .unwrap();
                let valid = b.freeze().to_vec();
                let mut mutants: Vec<Vec<u8>> = Vec::new();
                for i in 0..valid.len() {
                    for m in MUTATIONS {
                        let mut x = valid.clone();
                        x[i] = m;
                        mutants.push(x);
                    }
                    if i + 4 <= valid.len() {
                        for word in [i32::MAX, -1, 0x0100_0000] {
                            let mut x = valid.clone();
                            x[i..i + 4].copy_from_slice(&word.to_be_bytes());
                            mutants.push(x);
                        }
                    }
                }
                for x in mutants {
                    let ok = if request {
                        check_mutant(
                            RequestBody::decode(api, &mut Bytes::from(x), v),
                            |m, out| m.encode(out, v),
                            |b| RequestBody::decode(api, b, v),
                        )
                    } else {
                        check_mutant(
                            ResponseBody::decode(api, &mut Bytes::from(x), v),
                            |m, out| m.encode(out, v),
                            |b| ResponseBody::decode(api, b, v),
                        )
                    };
                    if ok {
                        decoded += 1;
                    } else {
                        failed += 1;
                    }
                }
            }
        }
    }
    // Both outcomes must be common, or the mutations are not reaching the structure.
    assert!(
        decoded > 10_000 && failed > 10_000,
        "decoded {decoded}, failed {failed}"
    );
}
