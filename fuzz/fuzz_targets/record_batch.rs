//! Record batches: framing, CRC, decompression (all four codecs) and record parsing. The
//! in-place validator must agree with walking the records through the iterator.
#![no_main]
use bytes::Bytes;
use fjord_protocol::records::{RecordBatch, RecordBatches};
use libfuzzer_sys::fuzz_target;

fn valid_by_iterator(batch: &RecordBatch) -> bool {
    let Ok(records) = batch.records() else { return false };
    let (mut seen, mut last) = (0, -1);
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

fn check(batch: &RecordBatch) {
    let crc_ok = batch.verify_crc().is_ok();
    let valid = batch.validate().is_ok();
    if crc_ok {
        assert_eq!(valid, valid_by_iterator(batch), "validate disagrees with the iterator");
    } else {
        assert!(!valid);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, data)) = data.split_first() else { return };
    if mode & 1 == 0 {
        // A blob of batches as a client or disk would give them.
        for batch in RecordBatches::new(Bytes::copy_from_slice(data)) {
            let Ok(batch) = batch else { break };
            check(&batch);
        }
    } else if data.len() >= 61 {
        // One batch with its framing and CRC repaired, so the records themselves are fuzzed.
        let mut raw = data.to_vec();
        let len = (raw.len() - 12) as i32;
        raw[8..12].copy_from_slice(&len.to_be_bytes());
        raw[16] = 2;
        let crc = crc32c::crc32c(&raw[21..]);
        raw[17..21].copy_from_slice(&crc.to_be_bytes());
        if let Ok(batch) = RecordBatch::new(Bytes::from(raw)) {
            check(&batch);
        }
    }
});
