//! Metadata record decoders, as the metadata log replays them.
#![no_main]
use bytes::{Bytes, BytesMut};
use fjord_protocol::MetadataRecord;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let record_type = i16::from(data[0] % 32);
    let Some(max) = MetadataRecord::max_version(record_type) else { return };
    let version = i16::from(data[1]) % (max + 1);
    if let Ok(rec) = MetadataRecord::decode(record_type, &mut Bytes::copy_from_slice(&data[2..]), version) {
        let mut out = BytesMut::new();
        rec.encode(&mut out, version).expect("a decoded record re-encodes");
        let first = out.freeze();
        let again = MetadataRecord::decode(record_type, &mut first.clone(), version).expect("re-encoded record decodes");
        // Compared by encoding: a float64 field may hold a NaN, never equal to itself.
        let mut out = BytesMut::new();
        again.encode(&mut out, version).expect("a re-decoded record encodes");
        assert_eq!(out.freeze(), first, "{rec:?} came back as {again:?}");
    }
});
