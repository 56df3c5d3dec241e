//! Record batches: framing, CRC, decompression (all four codecs) and record parsing.
#![no_main]
use bytes::Bytes;
use fjord_protocol::records::RecordBatches;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for batch in RecordBatches::new(Bytes::copy_from_slice(data)) {
        let Ok(batch) = batch else { break };
        let _ = batch.verify_crc();
        if let Ok(records) = batch.records() {
            for r in records {
                if r.is_err() {
                    break;
                }
            }
        }
    }
});
