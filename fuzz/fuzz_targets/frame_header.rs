//! The network edge: frames split off a byte stream, request headers parsed, bodies decoded.
#![no_main]
use bytes::BytesMut;
use fjord_protocol::frame::FrameDecoder;
use fjord_protocol::header::parse_request;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let decoder = FrameDecoder::new(1 << 20);
    let mut input = BytesMut::from(data);
    while let Ok(Some(frame)) = decoder.decode(&mut input) {
        if let Ok(req) = parse_request(frame) {
            let _ = req.decode_body();
        }
    }
});
