//! Codec hot paths at 1 MiB of records: decoding a Produce request, encoding a Fetch response
//! (records shared, never copied), validating a 1 MiB batch (CRC and every record), CRC-32C
//! over 1 MiB, and a plain 1 MiB memcpy for scale.
// criterion_group! defines an undocumented function.
#![allow(missing_docs)]

use bytes::{Bytes, BytesMut};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use fjord_protocol::generated::fetch_response::{
    FetchResponse, FetchableTopicResponse, PartitionData,
};
use fjord_protocol::generated::produce_request::{
    PartitionProduceData, ProduceRequest, TopicProduceData,
};
use fjord_protocol::header::encode_response;
use fjord_protocol::records::{Compression, RecordBatch, RecordBatchBuilder};
use fjord_protocol::Chunk;
use fjord_protocol::{ApiKey, RequestBody, ResponseBody};

const MIB: usize = 1024 * 1024;

/// An uncompressed batch of about 1 MiB: 1000 records of 1 KiB.
fn one_mib_batch() -> Bytes {
    let value = vec![b'x'; 1024];
    let mut b = RecordBatchBuilder::new(Compression::None);
    for i in 0..1000 {
        b.append(i, Some(b"key"), Some(&value), &[]);
    }
    b.build().expect("batch builds")
}

fn produce_request_bytes(records: Bytes) -> Bytes {
    let req = ProduceRequest {
        acks: -1,
        timeout_ms: 30_000,
        topic_data: vec![TopicProduceData {
            name: "bench".into(),
            partition_data: vec![PartitionProduceData {
                index: 0,
                records: Some(records.into()),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let mut buf = BytesMut::new();
    req.encode(&mut buf, 9).expect("encodes");
    buf.freeze()
}

fn fetch_response(records: Bytes) -> ResponseBody {
    ResponseBody::Fetch(FetchResponse {
        responses: vec![FetchableTopicResponse {
            topic: "bench".into(),
            partitions: vec![PartitionData {
                high_watermark: 1000,
                records: Some(records.into()),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    })
}

fn benches(c: &mut Criterion) {
    let batch = one_mib_batch();
    let mut g = c.benchmark_group("codec_1MiB");
    g.throughput(Throughput::Bytes(batch.len() as u64));

    let produce = produce_request_bytes(batch.clone());
    g.bench_function("produce_request_decode", |b| {
        b.iter(|| {
            let mut input = produce.clone();
            black_box(RequestBody::decode(ApiKey::Produce, &mut input, 9).expect("decodes"))
        })
    });

    let fetch = fetch_response(batch.clone());
    let chunks = encode_response(1, 12, &fetch).expect("encodes");
    assert!(
        chunks
            .iter()
            .any(|c| matches!(c, Chunk::Bytes(b) if b.as_ptr() == batch.as_ptr())),
        "the Fetch response must reference the records, not copy them"
    );
    g.bench_function("fetch_response_encode", |b| {
        b.iter(|| black_box(encode_response(1, 12, black_box(&fetch)).expect("encodes")))
    });

    let view = RecordBatch::new(batch.clone()).expect("batch frames");
    g.bench_function("record_batch_validate", |b| {
        b.iter(|| black_box(&view).validate().expect("valid"))
    });

    let data = vec![0xa5u8; MIB];
    g.throughput(Throughput::Bytes(MIB as u64));
    g.bench_function("crc32c", |b| {
        b.iter(|| black_box(crc32c::crc32c(black_box(&data))))
    });

    let mut dst = vec![0u8; MIB];
    g.bench_function("memcpy", |b| {
        b.iter(|| {
            dst.copy_from_slice(black_box(&data));
            black_box(&dst);
        })
    });
    g.finish();
}

criterion_group!(codec, benches);
criterion_main!(codec);
