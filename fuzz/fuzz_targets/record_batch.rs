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

fuzz_target!(|data: &[u8]| {
    for batch in RecordBatches::new(Bytes::copy_from_slice(data)) {
        let Ok(batch) = batch else { break };
        let crc_ok = batch.verify_crc().is_ok();
        let valid = batch.validate().is_ok();
        if crc_ok {
            assert_eq!(valid, valid_by_iterator(&batch), "validate disagrees with the iterator");
        } else {
            assert!(!valid);
        }
    }
});
