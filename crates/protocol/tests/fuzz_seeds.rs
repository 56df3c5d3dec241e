//! Writes seed corpora for the cargo-fuzz targets (valid messages, frames, batches in every
//! codec, metadata records), so fuzzing starts from real structure. Run on demand:
//! `cargo test -p fjord-protocol --test fuzz_seeds -- --ignored`.

use bytes::BytesMut;
use fjord_protocol::generated::request_header::RequestHeader;
use fjord_protocol::header::encode_request;
use fjord_protocol::records::{Compression, ControlRecordType, RecordBatchBuilder};
use fjord_protocol::sample::SampleRng;
use fjord_protocol::{ApiKey, MetadataRecord, RequestBody, ResponseBody};
use std::path::PathBuf;

fn corpus(target: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One batch of a few records in `codec`.
fn b_single(codec: Compression) -> Vec<u8> {
    let mut b = RecordBatchBuilder::new(codec);
    for i in 0..3u8 {
        b.append(i64::from(i), Some(&[i]), Some(b"v"), &[("h", None)]);
    }
    b.build().unwrap().to_vec()
}

#[test]
#[ignore = "writes fuzz seed corpora; run on demand"]
fn write_fuzz_seeds() {
    let mut written = 0;
    for (index, &api) in ApiKey::ALL.iter().enumerate() {
        for v in api.min_version()..=api.max_version() {
            let sel = [index as u8, (v - api.min_version()) as u8];
            let req = RequestBody::sample(api, &mut SampleRng::new(1), v);
            let mut b = BytesMut::from(&sel[..]);
            req.encode(&mut b, v).unwrap();
            std::fs::write(corpus("request_decode").join(format!("{api:?}-{v}")), &b).unwrap();
            let resp = ResponseBody::sample(api, &mut SampleRng::new(1), v);
            let mut b = BytesMut::from(&sel[..]);
            resp.encode(&mut b, v).unwrap();
            std::fs::write(corpus("response_decode").join(format!("{api:?}-{v}")), &b).unwrap();
            let header = RequestHeader {
                request_api_key: api.key(),
                request_api_version: v,
                correlation_id: 1,
                client_id: Some("seed".into()),
                ..Default::default()
            };
            let frame: Vec<u8> =
                fjord_protocol::payload::concat(&encode_request(&header, &req).unwrap()).unwrap();
            std::fs::write(corpus("frame_header").join(format!("{api:?}-{v}")), frame).unwrap();
            written += 3;
        }
    }
    for codec in Compression::ALL {
        let mut b = RecordBatchBuilder::new(codec)
            .base_offset(5)
            .partition_leader_epoch(2);
        for i in 0..4u8 {
            b.append(
                i64::from(i),
                Some(&[i]),
                Some(b"value value value"),
                &[("h", Some(b"v"))],
            );
        }
        let mut blob = b.build().unwrap().to_vec();
        let mut c = RecordBatchBuilder::new(Compression::None);
        c.append_control(9, ControlRecordType::Commit, &[0, 0, 0, 0, 0, 1]);
        blob.extend_from_slice(&c.build().unwrap());
        let mut raw_mode = vec![0u8];
        raw_mode.extend_from_slice(&blob);
        std::fs::write(corpus("record_batch").join(codec.name()), raw_mode).unwrap();
        let mut repaired = vec![1u8];
        repaired.extend_from_slice(&b_single(codec));
        std::fs::write(
            corpus("record_batch").join(format!("{}-single", codec.name())),
            repaired,
        )
        .unwrap();
        written += 1;
    }
    for record_type in 0..32i16 {
        let Some(max) = MetadataRecord::max_version(record_type) else {
            continue;
        };
        for v in 0..=max {
            let Some(rec) = MetadataRecord::sample(record_type, &mut SampleRng::new(1), v) else {
                continue;
            };
            let mut b = BytesMut::from(&[record_type as u8, v as u8][..]);
            if rec.encode(&mut b, v).is_ok() {
                std::fs::write(
                    corpus("metadata_record").join(format!("{record_type}-{v}")),
                    &b,
                )
                .unwrap();
                written += 1;
            }
        }
    }
    let pairs: usize = ApiKey::ALL
        .iter()
        .map(|k| (k.max_version() - k.min_version() + 1) as usize)
        .sum();
    let metadata = written - 3 * pairs - Compression::ALL.len();
    assert!(
        metadata >= 18,
        "a seed for every metadata record type, wrote {metadata}"
    );
}
