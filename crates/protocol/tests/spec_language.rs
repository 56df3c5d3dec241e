//! Every construct of the spec language, through a test-only spec (`spec_language/`): its
//! generated module is checked in and must be fresh, every version round-trips, and the rare
//! types (float64, uint32) and rules (classic strings in flexible versions, nullable structs,
//! hex defaults, ignorable fields) have golden bytes.

use bytes::{Bytes, BytesMut};
use fjord_protocol::sample::SampleRng;
use fjord_protocol::EncodeError;

/// The generated module refers to `crate::codec`, `crate::error`, `crate::payload` and
/// `crate::sample`.
mod codec {
    pub use fjord_protocol::codec::*;
}
mod error {
    pub use fjord_protocol::error::*;
}
mod payload {
    pub use fjord_protocol::payload::*;
}
mod sample {
    pub use fjord_protocol::sample::*;
}

#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, unused_parens, unused_variables, unused_mut, unused_comparisons, dead_code)]
#[path = "spec_language/spec_language_test.rs"]
mod generated;

use generated::{Item, Point, SpecLanguageTest};

const SPEC: &str = include_str!("spec_language/SpecLanguageTest.json");
const GENERATED: &str = include_str!("spec_language/spec_language_test.rs");

#[test]
fn generated_module_is_fresh() {
    let spec = fjord_codegen::spec::MessageSpec::parse(SPEC).unwrap();
    let text = fjord_codegen::rust_gen::message_module(&spec).unwrap();
    assert!(
        text == GENERATED,
        "tests/spec_language/spec_language_test.rs is stale: run `cargo run -p fjord-codegen -- \
         crates/protocol/tests/spec_language/SpecLanguageTest.json \
         crates/protocol/tests/spec_language/spec_language_test.rs`"
    );
}

#[test]
fn defaults_follow_the_spec() {
    let d = SpecLanguageTest::default();
    assert!(d.flag);
    assert_eq!(d.tiny, -2);
    assert_eq!(d.port, 9092);
    assert_eq!(d.big, u32::MAX);
    assert_eq!(d.ratio, 1.5);
    assert_eq!(d.label, "fjord");
    assert_eq!(d.client, Some(String::new()));
    assert_eq!(d.records, None, "records default to null");
    assert_eq!(d.items, None, "explicit null default");
    assert_eq!(
        d.origin,
        Some(Point {
            x: 0,
            y: -1,
            ..Default::default()
        })
    );
    assert_eq!(d.note, None);
    assert_eq!(d.limit, i32::MAX);
}

#[test]
fn every_version_round_trips() {
    for seed in 0..200 {
        for v in 0..=3 {
            let m = SpecLanguageTest::sample(&mut SampleRng::new(seed), v);
            let mut b = BytesMut::new();
            m.encode(&mut b, v).unwrap();
            assert_eq!(b.len(), m.encoded_len(v));
            let back = SpecLanguageTest::decode(&mut b.freeze(), v).unwrap();
            assert_eq!(back, m, "seed {seed} v{v}");
        }
    }
}

fn minimal(v: i16) -> SpecLanguageTest {
    SpecLanguageTest {
        label: String::new(),
        client: None,
        blob: Bytes::from_static(b"z").into(),
        origin: if v >= 1 { None } else { Some(Point::default()) },
        ..Default::default()
    }
}

#[test]
fn golden_bytes_at_version_0() {
    let mut b = BytesMut::new();
    let m = SpecLanguageTest {
        ratio: 1.5,
        ..minimal(0)
    };
    m.encode(&mut b, 0).unwrap();
    let mut want = vec![1, 0xfe, 0x23, 0x84]; // bool, int8 -2, uint16 9092
    want.extend_from_slice(&[0x3f, 0xf8, 0, 0, 0, 0, 0, 0]); // float64 1.5
    want.extend_from_slice(&[0, 0, 0, 0]); // Old
    want.extend_from_slice(&[0; 8]); // Strict
    want.extend_from_slice(&[0, 0]); // Label ""
    want.extend_from_slice(&[0xff, 0xff]); // Client null (classic)
    want.extend_from_slice(&[0, 0, 0, 1, b'z']); // Blob
    want.extend_from_slice(&[0xff, 0xff, 0xff, 0xff]); // Records null
    want.extend_from_slice(&[0; 16]); // Id
    want.extend_from_slice(&[0xff, 0xff, 0xff, 0xff]); // Items null
    want.extend_from_slice(&[0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]); // Origin (not nullable at v0: no marker)
    want.extend_from_slice(&[0, 0, 0, 0]); // Names []
    assert_eq!(&b[..], &want[..]);
}

#[test]
fn golden_bytes_at_version_3() {
    let mut m = minimal(3);
    m.old = 9; // ignorable: dropped at v2+
    m.big = 1;
    m.client = Some("c".into());
    m.items = Some(vec![Item {
        key: "k".into(),
        values: vec![5],
        ..Default::default()
    }]);
    m.note = Some("n".into());
    m.extra = vec![Point {
        x: 1,
        y: 2,
        ..Default::default()
    }];
    let mut b = BytesMut::new();
    m.encode(&mut b, 3).unwrap();
    let mut want = vec![1, 0xfe, 0x23, 0x84, 0, 0, 0, 1]; // bool, int8, uint16, uint32 1
    want.extend_from_slice(&[0x3f, 0xf8, 0, 0, 0, 0, 0, 0]); // float64 1.5
    want.extend_from_slice(&[1]); // Label "" (compact)
    want.extend_from_slice(&[0, 1, b'c']); // Client: classic string despite flexible version
    want.extend_from_slice(&[2, b'z']); // Blob (compact)
    want.extend_from_slice(&[0]); // Records null (compact)
    want.extend_from_slice(&[0; 16]); // Id
                                      // Items: one item, key "k", values [5], Where {0, -1} with its tags, the item's tags.
    want.extend_from_slice(&[
        2, 2, b'k', 2, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0,
    ]);
    want.extend_from_slice(&[0xff]); // Origin null: int8 -1 marker
    want.extend_from_slice(&[1]); // Names []
                                  // Tags: Note (tag 0: compact "n"), Extra (tag 1: [{1, 2}]); Limit is at its default.
    want.extend_from_slice(&[2, 0, 2, 2, b'n', 1, 10, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0]);
    assert_eq!(&b[..], &want[..]);
    assert_eq!(
        SpecLanguageTest::decode(&mut b.freeze(), 3).unwrap(),
        SpecLanguageTest { old: 0, ..m }
    );
}

#[test]
fn version_rules_are_enforced() {
    let strict = SpecLanguageTest {
        strict: 1,
        ..minimal(2)
    };
    assert!(matches!(
        strict.encode(&mut BytesMut::new(), 2),
        Err(EncodeError::FieldNotInVersion {
            field: "Strict",
            ..
        })
    ));
    let big = SpecLanguageTest {
        big: 7,
        ..minimal(0)
    };
    assert!(matches!(
        big.encode(&mut BytesMut::new(), 0),
        Err(EncodeError::FieldNotInVersion { field: "Big", .. })
    ));
    let null_blob = SpecLanguageTest {
        blob: None,
        ..minimal(0)
    };
    assert!(matches!(
        null_blob.encode(&mut BytesMut::new(), 0),
        Err(EncodeError::NullNotAllowed { field: "Blob", .. })
    ));
    let null_origin = SpecLanguageTest {
        origin: None,
        ..minimal(0)
    };
    assert!(null_origin.encode(&mut BytesMut::new(), 0).is_err());
    let extra = SpecLanguageTest {
        extra: vec![Point::default()],
        ..minimal(2)
    };
    assert!(
        extra.encode(&mut BytesMut::new(), 2).is_err(),
        "Extra exists from v3"
    );
}
