//! Record batch v2 tests: CRC-32C, layout, every codec through builder and reader, corruption
//! and truncation as errors.

use bytes::Bytes;
use fjord_protocol::records::batch::{set_base_offset, set_partition_leader_epoch};
use fjord_protocol::records::{
    Compression, ControlRecordType, RecordBatch, RecordBatchBuilder, RecordBatches, TimestampType,
};

#[test]
fn crc32c_matches_the_standard_check_value() {
    // The CRC-32C (Castagnoli) check value from the CRC catalogue.
    assert_eq!(crc32c::crc32c(b"123456789"), 0xe306_9283);
}

fn sample_batch(codec: Compression, n: usize) -> Bytes {
    let mut b = RecordBatchBuilder::new(codec)
        .base_offset(100)
        .partition_leader_epoch(7);
    for i in 0..n {
        let key = format!("key-{i}");
        let value = format!("value-{i}-").repeat(i % 5 + 1);
        b.append(
            1_700_000_000_000 + i as i64,
            Some(key.as_bytes()),
            Some(value.as_bytes()),
            &[("h", Some(b"v"))],
        );
    }
    b.build().unwrap()
}

#[test]
fn every_codec_builds_and_reads_back() {
    for codec in Compression::ALL {
        let bytes = sample_batch(codec, 50);
        let batch = RecordBatch::new(bytes).unwrap();
        batch.validate().unwrap();
        assert_eq!(batch.compression().unwrap(), codec);
        assert_eq!(batch.base_offset(), 100);
        assert_eq!(batch.partition_leader_epoch(), 7);
        assert_eq!(batch.record_count(), 50);
        assert_eq!(batch.last_offset(), 149);
        assert_eq!(batch.base_timestamp(), 1_700_000_000_000);
        assert_eq!(batch.max_timestamp(), 1_700_000_000_049);
        assert_eq!(batch.timestamp_type(), TimestampType::CreateTime);
        let records: Vec<_> = batch.records().unwrap().collect::<Result<_, _>>().unwrap();
        assert_eq!(records.len(), 50);
        for (i, r) in records.iter().enumerate() {
            assert_eq!(r.offset_delta, i as i32);
            assert_eq!(r.timestamp_delta, i as i64);
            assert_eq!(r.key.as_deref(), Some(format!("key-{i}").as_bytes()));
            assert_eq!(r.headers[0].key, "h");
            assert_eq!(r.headers[0].value.as_deref(), Some(&b"v"[..]));
        }
    }
}

#[test]
fn uncompressed_records_share_the_batch_buffer() {
    let bytes = sample_batch(Compression::None, 3);
    let range = bytes.as_ptr() as usize..bytes.as_ptr() as usize + bytes.len();
    let batch = RecordBatch::new(bytes).unwrap();
    let r = batch.records().unwrap().next().unwrap().unwrap();
    let p = r.value.unwrap().as_ptr() as usize;
    assert!(
        range.contains(&p),
        "values of an uncompressed batch must not be copied"
    );
}

#[test]
fn header_layout_is_kafkas() {
    let bytes = sample_batch(Compression::None, 1);
    assert_eq!(&bytes[0..8], &100i64.to_be_bytes());
    assert_eq!(
        i32::from_be_bytes(bytes[8..12].try_into().unwrap()) as usize,
        bytes.len() - 12
    );
    assert_eq!(bytes[16], 2, "magic");
    let crc = u32::from_be_bytes(bytes[17..21].try_into().unwrap());
    assert_eq!(crc, crc32c::crc32c(&bytes[21..]));
    assert_eq!(&bytes[43..51], &(-1i64).to_be_bytes(), "producer id");
}

#[test]
fn a_flipped_bit_fails_the_crc() {
    let mut v = sample_batch(Compression::None, 5).to_vec();
    let last = v.len() - 1;
    v[last] ^= 1;
    let batch = RecordBatch::new(Bytes::from(v)).unwrap();
    assert!(batch.verify_crc().is_err());
    assert!(batch.validate().is_err());
}

#[test]
fn base_offset_and_epoch_patches_keep_the_crc_valid() {
    let mut v = sample_batch(Compression::Lz4, 5).to_vec();
    set_base_offset(&mut v, 9_000);
    set_partition_leader_epoch(&mut v, 42);
    let batch = RecordBatch::new(Bytes::from(v)).unwrap();
    batch.validate().unwrap();
    assert_eq!(batch.base_offset(), 9_000);
    assert_eq!(batch.partition_leader_epoch(), 42);
}

#[test]
fn batches_iterate_back_to_back_and_stop_at_a_partial_tail() {
    let a = sample_batch(Compression::None, 2);
    let b = sample_batch(Compression::Gzip, 3);
    let mut blob = a.to_vec();
    blob.extend_from_slice(&b);
    blob.extend_from_slice(&b[..20]);
    let mut it = RecordBatches::new(Bytes::from(blob));
    assert_eq!(it.next().unwrap().unwrap().record_count(), 2);
    assert_eq!(it.next().unwrap().unwrap().record_count(), 3);
    assert!(it.next().is_none());
    assert_eq!(it.remaining().len(), 20);
}

#[test]
fn every_truncation_is_an_error_or_partial_never_a_panic() {
    let full = sample_batch(Compression::Zstd, 4);
    for cut in 0..full.len() {
        let mut part = full.slice(..cut);
        assert!(matches!(
            RecordBatch::split_first(&mut part),
            Ok(None) | Err(_)
        ));
        assert!(RecordBatch::new(full.slice(..cut)).is_err());
    }
    // A batch whose records section is cut inside (length fields fixed up) fails validation.
    let mut v = sample_batch(Compression::None, 4).to_vec();
    v.truncate(v.len() - 3);
    let len = (v.len() - 12) as i32;
    v[8..12].copy_from_slice(&len.to_be_bytes());
    let batch = RecordBatch::new(Bytes::from(v)).unwrap();
    let crc = crc32c::crc32c(&batch.as_bytes()[21..]);
    let mut v = batch.into_bytes().to_vec();
    v[17..21].copy_from_slice(&crc.to_be_bytes());
    assert!(RecordBatch::new(Bytes::from(v))
        .unwrap()
        .validate()
        .is_err());
}

#[test]
fn control_records_carry_their_type() {
    let mut b = RecordBatchBuilder::new(Compression::None);
    b.append_control(5, ControlRecordType::Commit, &[0, 0, 0, 0, 0, 3]);
    let batch = RecordBatch::new(b.build().unwrap()).unwrap();
    assert!(batch.is_control());
    let r = batch.records().unwrap().next().unwrap().unwrap();
    assert_eq!(
        ControlRecordType::parse_key(r.key.as_deref().unwrap()).unwrap(),
        ControlRecordType::Commit
    );
}

#[test]
fn null_key_and_value_round_trip() {
    let mut b = RecordBatchBuilder::new(Compression::Snappy);
    b.append(1, None, None, &[]);
    let batch = RecordBatch::new(b.build().unwrap()).unwrap();
    batch.validate().unwrap();
    let r = batch.records().unwrap().next().unwrap().unwrap();
    assert_eq!((r.key, r.value), (None, None));
}

/// What `validate` must agree with: every record parses through the iterator, the count
/// matches, and offset deltas increase up to lastOffsetDelta.
fn valid_by_iterator(batch: &RecordBatch) -> bool {
    let Ok(records) = batch.records() else {
        return false;
    };
    let mut seen = 0;
    let mut last = -1;
    for r in records {
        let Ok(r) = r else { return false };
        if r.offset_delta <= last {
            return false;
        }
        last = r.offset_delta;
        seen += 1;
    }
    seen == batch.record_count() && (seen == 0 || last <= batch.last_offset_delta())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

    #[test]
    fn validate_agrees_with_the_record_iterator(
        n in 0usize..6,
        codec in 0usize..5,
        flips in proptest::collection::vec((proptest::prelude::any::<usize>(), proptest::prelude::any::<u8>()), 0..4),
    ) {
        let codec = Compression::ALL[codec];
        let mut b = RecordBatchBuilder::new(Compression::None);
        for i in 0..n {
            let key = vec![b'k'; i];
            b.append(i as i64 * 3, Some(&key), if i % 2 == 0 { Some(b"value") } else { None }, &[("hdr", Some(b"x"))]);
        }
        let mut raw = b.build().unwrap().to_vec();
        // Corrupt the records section, then fix the CRC so validation reaches the records.
        for (at, x) in &flips {
            if raw.len() > 61 {
                let i = 61 + at % (raw.len() - 61);
                raw[i] ^= x;
            }
        }
        let crc = crc32c::crc32c(&raw[21..]);
        raw[17..21].copy_from_slice(&crc.to_be_bytes());
        let batch = RecordBatch::new(Bytes::from(raw)).unwrap();
        proptest::prop_assert_eq!(batch.validate().is_ok(), valid_by_iterator(&batch));
        // The same records compressed must validate the same way.
        if flips.is_empty() {
            let mut c = RecordBatchBuilder::new(codec);
            for r in batch.records().unwrap() {
                let r = r.unwrap();
                c.append(r.timestamp_delta, r.key.as_deref(), r.value.as_deref(), &[("hdr", Some(b"x"))]);
            }
            let compressed = RecordBatch::new(c.build().unwrap()).unwrap();
            proptest::prop_assert!(compressed.validate().is_ok());
        }
    }
}
