//! Every request decoder: bytes in, a value or a typed error out; a decoded value re-encodes to
//! bytes that decode to a value encoding to the same bytes, and `encoded_len` is exact.
#![no_main]
use bytes::{Bytes, BytesMut};
use fjord_protocol::{ApiKey, RequestBody};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let api = ApiKey::ALL[data[0] as usize % ApiKey::ALL.len()];
    let span = (api.max_version() - api.min_version() + 1) as u8;
    let version = api.min_version() + (data[1] % span) as i16;
    let mut buf = Bytes::copy_from_slice(&data[2..]);
    if let Ok(msg) = RequestBody::decode(api, &mut buf, version) {
        let mut out = BytesMut::new();
        msg.encode(&mut out, version).expect("a decoded request re-encodes");
        assert_eq!(out.len(), msg.encoded_len(version));
        let first = out.freeze();
        let again = RequestBody::decode(api, &mut first.clone(), version).expect("re-encoded request decodes");
        // Compared by encoding: a float64 field may hold a NaN, never equal to itself.
        let mut out = BytesMut::new();
        again.encode(&mut out, version).expect("a re-decoded request encodes");
        assert_eq!(out.freeze(), first, "{msg:?} came back as {again:?}");
    }
});
