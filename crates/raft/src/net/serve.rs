//! A Kafka listener: accepts connections, splits frames (rejecting oversized ones before
//! reading them), hands each request to a [`Handler`] as it arrives and writes the responses
//! in request order, as Kafka guarantees per connection. A malformed frame closes its
//! connection and nothing else.

use bytes::BytesMut;
use fjord_protocol::frame::FrameDecoder;
use fjord_protocol::generated::api_versions_response::{ApiVersion, ApiVersionsResponse};
use fjord_protocol::header::{encode_response, parse_request, RequestFrame};
use fjord_protocol::{ApiKey, ErrorCode, RequestBody, ResponseBody};
use std::future::Future;
use std::sync::Arc;
use tokio::io::AsyncReadExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot};

/// The most requests of one connection handled at once; reading pauses beyond it.
pub const MAX_IN_FLIGHT_PER_CONNECTION: usize = 64;

/// What to do with a request.
#[derive(Debug)]
pub enum Reply {
    /// Send this response.
    Respond(ResponseBody),
    /// Send nothing (a produce with acks=0).
    Nothing,
    /// Close the connection (an unsupported version or an undecodable request).
    Close,
}

/// Answers requests.
pub trait Handler: Send + Sync + 'static {
    /// Handles one request; `peer` is the client's address.
    fn handle(
        &self,
        frame: RequestFrame,
        peer: std::net::SocketAddr,
    ) -> impl Future<Output = Reply> + Send;
}

/// The APIs a listener serves, with the versions it advertises: (api, min, max).
pub type ServedApis = &'static [(ApiKey, i16, i16)];

/// ApiVersions' answer for a listener serving `apis` (with UNSUPPORTED_VERSION, KIP-511, when
/// the request's version is unknown).
pub fn api_versions(apis: ServedApis, error: ErrorCode) -> ResponseBody {
    ResponseBody::ApiVersions(ApiVersionsResponse {
        error_code: error.code(),
        api_keys: apis
            .iter()
            .map(|(k, min, max)| ApiVersion {
                api_key: k.key(),
                min_version: *min,
                max_version: *max,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    })
}

/// What every listener does first: answers ApiVersions (at any version); closes on an API or
/// version it does not advertise, or a body that does not decode; otherwise hands back the
/// decoded request.
pub fn admit(
    frame: &RequestFrame,
    apis: ServedApis,
    peer: std::net::SocketAddr,
) -> Result<RequestBody, Box<Reply>> {
    let Some(api) = frame.api_key else {
        return Err(Box::new(Reply::Close));
    };
    let version = frame.header.request_api_version;
    let served = apis
        .iter()
        .any(|(k, min, max)| *k == api && (*min..=*max).contains(&version));
    if api == ApiKey::ApiVersions && !served {
        let versions = api_versions(apis, ErrorCode::UnsupportedVersion);
        return Err(Box::new(Reply::Respond(versions)));
    }
    if !served {
        tracing::debug!(%peer, ?api, version, "closing: not served on this listener");
        return Err(Box::new(Reply::Close));
    }
    let body = frame.decode_body().map_err(|e| {
        tracing::debug!(%peer, ?api, version, "closing on an undecodable request: {e}");
        Box::new(Reply::Close)
    })?;
    if api == ApiKey::ApiVersions {
        return Err(Box::new(Reply::Respond(api_versions(
            apis,
            ErrorCode::None,
        ))));
    }
    Ok(body)
}

/// Serves `listener` until the task is dropped, with frames up to `max_frame` bytes
/// (`socket.request.max.bytes`).
pub async fn serve<H: Handler>(listener: TcpListener, handler: Arc<H>, max_frame: usize) {
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => {
                let _ = stream.set_nodelay(true);
                tokio::spawn(connection(stream, peer, handler.clone(), max_frame));
            }
            Err(e) => {
                tracing::warn!("accept failed: {e}");
                tokio::task::yield_now().await;
            }
        }
    }
}

async fn connection<H: Handler>(
    stream: TcpStream,
    peer: std::net::SocketAddr,
    handler: Arc<H>,
    max_frame: usize,
) {
    let (mut read, mut write) = stream.into_split();
    let (order_tx, mut order_rx) =
        mpsc::channel::<(i32, i16, oneshot::Receiver<Reply>, fjord_protocol::ApiKey)>(
            MAX_IN_FLIGHT_PER_CONNECTION,
        );
    let writer = tokio::spawn(async move {
        while let Some((corr, version, rx, api)) = order_rx.recv().await {
            let reply = rx.await.unwrap_or(Reply::Close);
            match reply {
                Reply::Respond(body) => {
                    let chunks = match encode_response(corr, version, &body) {
                        Ok(c) => c,
                        Err(e) => {
                            tracing::warn!(%peer, ?api, "could not encode a response: {e}");
                            return;
                        }
                    };
                    if super::write_chunks(&mut write, &chunks).await.is_err() {
                        return;
                    }
                }
                Reply::Nothing => {}
                Reply::Close => return,
            }
        }
    });
    let decoder = FrameDecoder::new(max_frame);
    let mut buf = BytesMut::with_capacity(64 * 1024);
    loop {
        let frame = match decoder.decode(&mut buf) {
            Ok(Some(f)) => f,
            Ok(None) => match read.read_buf(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(_) => continue,
            },
            Err(e) => {
                tracing::debug!(%peer, "closing: {e}");
                break;
            }
        };
        let request = match parse_request(frame) {
            Ok(r) => r,
            Err(e) => {
                tracing::debug!(%peer, "closing on an unreadable request header: {e}");
                break;
            }
        };
        let corr = request.header.correlation_id;
        let mut version = request.header.request_api_version;
        let Some(api) = request.api_key else {
            tracing::debug!(%peer, key = request.header.request_api_key, "closing on an unknown api key");
            break;
        };
        if api == fjord_protocol::ApiKey::ApiVersions && !api.supports(version) {
            // KIP-511: a version this build cannot read is answered at version 0.
            version = 0;
        }
        let (tx, rx) = oneshot::channel();
        let h = handler.clone();
        tokio::spawn(async move {
            let _ = tx.send(h.handle(request, peer).await);
        });
        if order_tx.send((corr, version, rx, api)).await.is_err() {
            break;
        }
        if writer.is_finished() {
            break;
        }
    }
    drop(order_tx);
    let _ = writer.await;
}
