//! Request and response headers: choosing the header version for an API and version, reading
//! a request frame into header and body, and writing a response frame without copying large
//! record data.

use crate::codec::{read_i16, ChainWriter};
use crate::error::{DecodeError, EncodeError};
use crate::frame::frame_chunks;
use crate::generated::api::{ApiKey, RequestBody, ResponseBody};
use crate::generated::request_header::RequestHeader;
use crate::generated::response_header::ResponseHeader;
use crate::payload::Chunk;
use bytes::Bytes;

/// The most scratch space reserved up front for one frame's small fields.
const FRAME_SCRATCH_MAX: usize = 4096;

/// A request frame split into its parsed header and its still-encoded body.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestFrame {
    /// The parsed header.
    pub header: RequestHeader,
    /// The API, when this build knows the key.
    pub api_key: Option<ApiKey>,
    /// The body, not yet decoded (it shares the frame's buffer).
    pub body: Bytes,
}

impl RequestFrame {
    /// True when the API is known and the version is one this build reads.
    pub fn is_supported(&self) -> bool {
        self.api_key
            .is_some_and(|k| k.supports(self.header.request_api_version))
    }

    /// Decodes the body. Unknown keys and versions are errors.
    pub fn decode_body(&self) -> Result<RequestBody, DecodeError> {
        let api = self
            .api_key
            .ok_or(DecodeError::UnknownApiKey(self.header.request_api_key))?;
        let mut body = self.body.clone();
        RequestBody::decode(api, &mut body, self.header.request_api_version)
    }
}

/// The request header version for a key and version. Unknown keys use v1, which every
/// client sends for non-flexible requests; versions above the known range are read with the
/// header of the newest version (KIP-511), so an ApiVersions request from a newer client can
/// still be answered.
pub fn request_header_version(api_key: i16, api_version: i16) -> i16 {
    match ApiKey::from_key(api_key) {
        Some(api) => api.request_header_version(api_version),
        None => 1,
    }
}

/// Parses a request frame's header; the body is left encoded.
pub fn parse_request(frame: Bytes) -> Result<RequestFrame, DecodeError> {
    let mut peek = frame.clone();
    let key = read_i16(&mut peek)?;
    let version = read_i16(&mut peek)?;
    let mut buf = frame;
    let header = RequestHeader::decode(&mut buf, request_header_version(key, version))?;
    Ok(RequestFrame {
        api_key: ApiKey::from_key(key),
        header,
        body: buf,
    })
}

/// Writes a whole request frame (size, header, body) as chunks for a vectored write.
pub fn encode_request(
    header: &RequestHeader,
    body: &RequestBody,
) -> Result<Vec<Chunk>, EncodeError> {
    let version = header.request_api_version;
    let header_version = body.api_key().request_header_version(version);
    encode_frame(body.encoded_len(version), |w| {
        header.encode(w, header_version)?;
        body.encode(w, version)
    })
}

/// Writes a whole response frame (size, header, body) as chunks; record data is shared, not
/// copied.
pub fn encode_response(
    correlation_id: i32,
    version: i16,
    body: &ResponseBody,
) -> Result<Vec<Chunk>, EncodeError> {
    let header = ResponseHeader {
        correlation_id,
        ..Default::default()
    };
    let header_version = body.api_key().response_header_version(version);
    encode_frame(body.encoded_len(version), |w| {
        header.encode(w, header_version)?;
        body.encode(w, version)
    })
}

/// Runs `write` into a chain writer sized for a body of `body_len` bytes (large shared buffers
/// are referenced, so the scratch space is capped) and frames the result.
fn encode_frame(
    body_len: usize,
    write: impl FnOnce(&mut ChainWriter) -> Result<(), EncodeError>,
) -> Result<Vec<Chunk>, EncodeError> {
    let mut w = ChainWriter::with_capacity(64 + body_len.min(FRAME_SCRATCH_MAX));
    write(&mut w)?;
    frame_chunks(w.finish())
}

/// Parses a response frame (for clients and tests): its header and decoded body.
pub fn parse_response(
    api: ApiKey,
    version: i16,
    frame: Bytes,
) -> Result<(ResponseHeader, ResponseBody), DecodeError> {
    let mut buf = frame;
    let header = ResponseHeader::decode(&mut buf, api.response_header_version(version))?;
    let body = ResponseBody::decode(api, &mut buf, version)?;
    Ok((header, body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generated::api_versions_request::ApiVersionsRequest;

    #[test]
    fn header_versions_follow_flexibility() {
        assert_eq!(ApiKey::Produce.request_header_version(8), 1);
        assert_eq!(ApiKey::Produce.request_header_version(9), 2);
        assert_eq!(ApiKey::Produce.response_header_version(9), 1);
        assert_eq!(ApiKey::ApiVersions.request_header_version(3), 2);
        assert_eq!(
            ApiKey::ApiVersions.response_header_version(3),
            0,
            "ApiVersions answers with header v0"
        );
        assert_eq!(
            request_header_version(18, 99),
            2,
            "newer ApiVersions is read as flexible"
        );
    }

    #[test]
    fn request_frame_round_trip() {
        let header = RequestHeader {
            request_api_key: 18,
            request_api_version: 3,
            correlation_id: 7,
            client_id: Some("c".into()),
            ..Default::default()
        };
        let body = RequestBody::ApiVersions(ApiVersionsRequest {
            client_software_name: "fjord".into(),
            client_software_version: "1".into(),
            ..Default::default()
        });
        let chunks = encode_request(&header, &body).unwrap();
        let whole = crate::payload::concat(&chunks).unwrap();
        let frame = Bytes::from(whole[4..].to_vec());
        let parsed = parse_request(frame).unwrap();
        assert_eq!(parsed.header, header);
        assert!(parsed.is_supported());
        assert_eq!(parsed.decode_body().unwrap(), body);
    }

    #[test]
    fn truncated_header_is_an_error() {
        assert!(parse_request(Bytes::from_static(&[0, 18, 0])).is_err());
        assert!(parse_request(Bytes::from_static(&[0, 18, 0, 3, 0, 0, 0, 1, 0, 5, b'a'])).is_err());
    }
}
