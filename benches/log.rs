//! The partition log against the machine's own limits, in the same directory and run:
//! appending 16 KiB batches vs a plain sequential `write` of the same bytes, reading them back
//! vs a plain `read`, and finding an offset in a 1 GiB log.
// criterion_group! defines an undocumented function.
#![allow(missing_docs)]

use bytes::Bytes;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fjord_log::partition_log::load::Checkpointed;
use fjord_log::{LogConfig, PartitionLog};
use fjord_protocol::records::{Compression, RecordBatchBuilder};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

const BATCH_BYTES: usize = 16 * 1024;
/// Batches per measured run: 64 MiB.
const BATCHES: usize = 4096;
/// Batches in the lookup log: 1 GiB.
const LOOKUP_BATCHES: usize = 65_536;

/// A 16 KiB batch of 16 records of about 1 KiB.
fn batch() -> Bytes {
    let value = vec![b'v'; 1000];
    let mut b = RecordBatchBuilder::new(Compression::None);
    let mut i = 0;
    loop {
        b.append(i, Some(b"key"), Some(&value), &[]);
        i += 1;
        if b.clone().build().unwrap().len() + 1030 > BATCH_BYTES {
            break;
        }
    }
    b.build().unwrap()
}

fn open(dir: &std::path::Path) -> PartitionLog {
    PartitionLog::open(dir, LogConfig::default(), Checkpointed::default(), true)
        .unwrap()
        .0
}

fn benches(c: &mut Criterion) {
    let b = batch();
    let total = (b.len() * BATCHES) as u64;
    let mut g = c.benchmark_group("log_16KiB_batches");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .throughput(Throughput::Bytes(total));

    g.bench_function(BenchmarkId::new("append", "log"), |bench| {
        bench.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
                let log = open(dir.path());
                let start = Instant::now();
                for _ in 0..BATCHES {
                    log.append_as_leader(b.clone(), 0, 0).unwrap();
                }
                spent += start.elapsed();
            }
            spent
        })
    });
    g.bench_function(BenchmarkId::new("append", "plain_write"), |bench| {
        bench.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
                let mut f = std::fs::File::create(dir.path().join("plain")).unwrap();
                let start = Instant::now();
                for _ in 0..BATCHES {
                    f.write_all(&b).unwrap();
                }
                spent += start.elapsed();
            }
            spent
        })
    });

    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let log = open(dir.path());
    for _ in 0..BATCHES {
        log.append_as_leader(b.clone(), 0, 0).unwrap();
    }
    log.flush().unwrap();
    let end = log.log_end_offset();
    g.bench_function(BenchmarkId::new("read", "log"), |bench| {
        bench.iter(|| {
            let mut next = 0;
            let mut bytes = 0;
            while next < end {
                let r = log.read(next, 1 << 20, None, true).unwrap();
                bytes += r.records.len();
                let last = fjord_protocol::records::RecordBatches::new(r.records)
                    .last()
                    .unwrap()
                    .unwrap();
                next = last.next_offset();
            }
            black_box(bytes)
        })
    });
    // Written like the log was, in 16 KiB writes: the page cache keeps what one large write
    // makes in larger folios, which read faster and would not be the same bytes on disk.
    let plain = dir.path().join("plain");
    let mut f = std::fs::File::create(&plain).unwrap();
    for _ in 0..BATCHES {
        f.write_all(&b).unwrap();
    }
    drop(f);
    g.bench_function(BenchmarkId::new("read", "plain_read"), |bench| {
        bench.iter(|| {
            let mut f = std::fs::File::open(&plain).unwrap();
            let mut buf = vec![0u8; 1 << 20];
            let mut bytes = 0;
            loop {
                let n = f.read(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                bytes += n;
            }
            black_box(bytes)
        })
    });
    g.finish();

    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let big = open(dir.path());
    for _ in 0..LOOKUP_BATCHES {
        big.append_as_leader(b.clone(), 0, 0).unwrap();
    }
    let end = big.log_end_offset();
    let mut g = c.benchmark_group("log_1GiB");
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    g.bench_function("offset_lookup", |bench| {
        bench.iter(|| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            black_box(big.locate((x % end as u64) as i64).unwrap())
        })
    });
    g.finish();
}

criterion_group!(log, benches);
criterion_main!(log);
