//! Forwarding in an Envelope (KIP-590), as Kafka's brokers forward admin requests to the
//! controller: the client's request (header and body, as it arrived), its principal
//! (`DefaultPrincipalData`) and its address go inside; the controller opens it, authorizes the
//! original principal, and answers the request's own response inside the Envelope's.

use crate::principal::{Caller, Principal};
use bytes::Bytes;
use fjord_protocol::generated::{
    envelope_request::EnvelopeRequest, envelope_response::EnvelopeResponse,
    request_header::RequestHeader,
};
use fjord_protocol::header::{
    encode_request, encode_response, parse_request, parse_response, RequestFrame,
};
use fjord_protocol::payload::concat;
use fjord_protocol::{ApiKey, ErrorCode, RequestBody, ResponseBody};
use std::net::IpAddr;

/// The size prefix every encoded frame starts with (an Envelope carries frames without it).
const SIZE_PREFIX: usize = 4;

/// Why a request could not be put in an Envelope.
#[derive(Debug, thiserror::Error)]
pub enum WrapError {
    /// The request does not encode at its version.
    #[error("encoding the forwarded request: {0}")]
    Encode(#[from] fjord_protocol::EncodeError),
    /// Its encoded chunks could not be read back.
    #[error("reading the forwarded request: {0}")]
    Read(#[from] std::io::Error),
}

impl WrapError {
    /// The Kafka error code the request is answered with.
    pub fn code(&self) -> ErrorCode {
        ErrorCode::UnknownServerError
    }
}

fn unframed(chunks: &[fjord_protocol::payload::Chunk]) -> Result<Bytes, WrapError> {
    let bytes = concat(chunks)?;
    Ok(Bytes::from(bytes).slice(SIZE_PREFIX..))
}

/// The Envelope that forwards `body` (sent with `header`) for `caller`.
pub fn wrap(
    header: &RequestHeader,
    body: &RequestBody,
    caller: &Caller,
) -> Result<RequestBody, WrapError> {
    let chunks = encode_request(header, body)?;
    let address = match caller.peer.ip() {
        IpAddr::V4(a) => Bytes::copy_from_slice(&a.octets()),
        IpAddr::V6(a) => Bytes::copy_from_slice(&a.octets()),
    };
    Ok(RequestBody::Envelope(EnvelopeRequest {
        request_data: unframed(&chunks)?,
        request_principal: Some(caller.principal.serialize()),
        client_host_address: address,
        ..Default::default()
    }))
}

/// What an Envelope carries, opened: the request, its principal and address; or the error
/// the Envelope is answered with.
pub fn open(
    r: &EnvelopeRequest,
) -> Result<(RequestFrame, RequestBody, Principal, IpAddr), (ErrorCode, String)> {
    let principal = r
        .request_principal
        .clone()
        .and_then(Principal::deserialize)
        .ok_or((
            ErrorCode::PrincipalDeserializationFailure,
            "the forwarded principal could not be read".into(),
        ))?;
    let address = match r.client_host_address.len() {
        4 => <[u8; 4]>::try_from(&r.client_host_address[..])
            .map(IpAddr::from)
            .ok(),
        16 => <[u8; 16]>::try_from(&r.client_host_address[..])
            .map(IpAddr::from)
            .ok(),
        _ => None,
    }
    .ok_or((
        ErrorCode::InvalidRequest,
        "the forwarded client address is not an IP address".into(),
    ))?;
    let invalid = |m: String| (ErrorCode::InvalidRequest, m);
    let frame = parse_request(r.request_data.clone())
        .map_err(|e| invalid(format!("the forwarded request: {e}")))?;
    if frame.api_key.is_none_or(|k| k == ApiKey::Envelope) {
        return Err(invalid(
            "the forwarded request is not one a broker forwards".into(),
        ));
    }
    let body = frame
        .decode_body()
        .map_err(|e| invalid(format!("the forwarded request: {e}")))?;
    Ok((frame, body, principal, address))
}

/// The Envelope's answer carrying `response` to the request `frame`.
pub fn answer(frame: &RequestFrame, response: &ResponseBody) -> ResponseBody {
    let encoded = encode_response(
        frame.header.correlation_id,
        frame.header.request_api_version,
        response,
    )
    .map_err(WrapError::from)
    .and_then(|c| unframed(&c));
    ResponseBody::Envelope(match encoded {
        Ok(data) => EnvelopeResponse {
            response_data: Some(data),
            ..Default::default()
        },
        Err(e) => {
            tracing::warn!("encoding a forwarded response: {e}");
            EnvelopeResponse {
                error_code: ErrorCode::UnknownServerError.code(),
                ..Default::default()
            }
        }
    })
}

/// The forwarded request's response from the Envelope's answer, or the Envelope's error.
pub fn unwrap(
    api: ApiKey,
    version: i16,
    r: EnvelopeResponse,
) -> Result<ResponseBody, (ErrorCode, String)> {
    if r.error_code != 0 {
        let code = ErrorCode::from_code(r.error_code).unwrap_or(ErrorCode::UnknownServerError);
        return Err((
            code,
            format!("forwarding to the controller failed: {}", code.name()),
        ));
    }
    let data = r.response_data.ok_or((
        ErrorCode::UnknownServerError,
        "the controller's Envelope answer is empty".into(),
    ))?;
    parse_response(api, version, data)
        .map(|(_, body)| body)
        .map_err(|e| {
            (
                ErrorCode::UnknownServerError,
                format!("the controller's answer: {e}"),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fjord_protocol::generated::{
        create_topics_request::{CreatableTopic, CreateTopicsRequest},
        create_topics_response::CreateTopicsResponse,
    };
    use std::sync::Arc;

    #[test]
    fn a_forwarded_request_keeps_its_principal_address_and_answer() {
        let header = RequestHeader {
            request_api_key: ApiKey::CreateTopics.key(),
            request_api_version: 7,
            correlation_id: 42,
            client_id: Some("admin".into()),
            ..Default::default()
        };
        let body = RequestBody::CreateTopics(CreateTopicsRequest {
            topics: vec![CreatableTopic {
                name: "t".into(),
                num_partitions: 3,
                replication_factor: 1,
                ..Default::default()
            }],
            ..Default::default()
        });
        let caller = Caller {
            peer: "10.1.2.3:5555".parse().unwrap(),
            principal: Arc::new(Principal::user("alice")),
            listener: "CLIENT".into(),
            connection: 0,
            protocol: crate::security::SecurityProtocol::Plaintext,
            software: None,
        };
        let RequestBody::Envelope(e) = wrap(&header, &body, &caller).unwrap() else {
            panic!("an Envelope")
        };
        let (frame, inner, principal, address) = open(&e).unwrap();
        assert_eq!(inner, body);
        assert_eq!(frame.header.correlation_id, 42);
        assert_eq!(principal, Principal::user("alice"));
        assert_eq!(address, "10.1.2.3".parse::<IpAddr>().unwrap());
        let response = ResponseBody::CreateTopics(CreateTopicsResponse::default());
        let ResponseBody::Envelope(answered) = answer(&frame, &response) else {
            panic!("an Envelope answer")
        };
        assert_eq!(unwrap(ApiKey::CreateTopics, 7, answered).unwrap(), response);

        let mut bad = e.clone();
        bad.request_principal = Some(Bytes::from_static(b"\x00"));
        assert_eq!(
            open(&bad).unwrap_err().0,
            ErrorCode::PrincipalDeserializationFailure
        );
        let mut bad = e.clone();
        bad.client_host_address = Bytes::from_static(b"abc");
        assert_eq!(open(&bad).unwrap_err().0, ErrorCode::InvalidRequest);
        let mut bad = e;
        bad.request_data = Bytes::from_static(b"\x00");
        assert_eq!(open(&bad).unwrap_err().0, ErrorCode::InvalidRequest);
        let refused = EnvelopeResponse {
            error_code: ErrorCode::ClusterAuthorizationFailed.code(),
            ..Default::default()
        };
        assert_eq!(
            unwrap(ApiKey::CreateTopics, 7, refused).unwrap_err().0,
            ErrorCode::ClusterAuthorizationFailed
        );
    }
}
