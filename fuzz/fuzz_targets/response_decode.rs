//! Every response decoder: bytes in, a value or a typed error out; a decoded value re-encodes to
//! bytes that decode to the same value, and `encoded_len` is exact.
#![no_main]
use bytes::{Bytes, BytesMut};
use fjord_protocol::{ApiKey, ResponseBody};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let api = ApiKey::ALL[data[0] as usize % ApiKey::ALL.len()];
    let span = (api.max_version() - api.min_version() + 1) as u8;
    let version = api.min_version() + (data[1] % span) as i16;
    let mut buf = Bytes::copy_from_slice(&data[2..]);
    if let Ok(msg) = ResponseBody::decode(api, &mut buf, version) {
        let mut out = BytesMut::new();
        msg.encode(&mut out, version).expect("a decoded response re-encodes");
        assert_eq!(out.len(), msg.encoded_len(version));
        let again = ResponseBody::decode(api, &mut out.freeze(), version).expect("re-encoded response decodes");
        assert_eq!(again, msg);
    }
});
