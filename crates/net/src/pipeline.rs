//! The one request pipeline both listeners run, from the descriptor table ([`crate::api`]):
//! admit (served API and version, else close; ApiVersions answered here) → decode →
//! authorize and narrow ([`crate::authorize`]) → route (a broker forwards controller-bound
//! APIs; everything else goes to the listener's handler) → merge the refused entities and
//! leave out what the caller may not see → the answer. A controller opens Envelopes here and
//! runs the request inside through the same steps as its original principal.

use crate::api::{describe, served, Listener, Route};
use crate::authorize::{Access, Acls, Gate};
use crate::principal::Caller;
use crate::serve::{admit, with_features, Features, Reply};
use fjord_protocol::generated::envelope_request::EnvelopeRequest;
use fjord_protocol::generated::envelope_response::EnvelopeResponse;
use fjord_protocol::header::RequestFrame;
use fjord_protocol::{ErrorCode, RequestBody, ResponseBody};
use std::future::Future;
use std::sync::Arc;

/// What a listener plugs into the pipeline: its kind, its node's features and ACLs, and the
/// handler of the requests the caller may make.
pub trait Service: Send + Sync + 'static {
    /// The ACLs as of one moment (a metadata image's).
    type Acls: Acls + Send;

    /// The kind of listener this is.
    const LISTENER: Listener;

    /// The features advertised in ApiVersions v3+.
    fn features(&self) -> Features;

    /// The node's cluster id and node id, which an ApiVersions v5 request must name if it
    /// names any (KIP-1242).
    fn identity(&self) -> (String, i32);

    /// The ACLs to judge a request by now; `None` when no authorizer is configured.
    fn acls(&self) -> Option<Self::Acls>;

    /// Handles a request the caller may make (narrowed to the entities it may touch), with
    /// the caller's access for the checks a handler makes itself.
    fn handle(
        &self,
        body: RequestBody,
        frame: &RequestFrame,
        caller: &Caller,
        access: &Access<'_>,
    ) -> impl Future<Output = Reply> + Send;

    /// Forwards a controller-bound request ([`Route::Controller`]) to the active controller;
    /// only broker listeners are asked to.
    fn forward(
        &self,
        body: RequestBody,
        frame: &RequestFrame,
        caller: &Caller,
    ) -> impl Future<Output = ResponseBody> + Send {
        let version = frame.header.request_api_version;
        let _ = caller;
        async move {
            fjord_protocol::error_response(
                &body,
                version,
                ErrorCode::UnknownServerError,
                "this listener does not forward requests",
            )
        }
    }
}

/// Runs one request from `caller` through the pipeline.
pub async fn serve_request<S: Service>(service: &S, frame: RequestFrame, caller: Caller) -> Reply {
    let version = frame.header.request_api_version;
    let (cluster_id, node_id) = service.identity();
    let body = match admit(
        &frame,
        served(S::LISTENER),
        caller.peer,
        (&cluster_id, node_id),
    ) {
        Ok(b) => b,
        Err(reply) => return with_features(*reply, version, || service.features()),
    };
    let acls = service.acls();
    let acls = acls.as_ref().map(|a| a as &dyn Acls);
    if let RequestBody::Envelope(envelope) = body {
        if S::LISTENER == Listener::Controller {
            return Reply::Respond(opened(service, envelope, &caller, acls).await);
        }
        return Reply::Close;
    }
    let access = Access::new(acls, &caller.principal, &caller.peer.ip());
    authorized(service, body, &frame, &caller, &access).await
}

/// Authorizes, routes and answers an admitted request.
async fn authorized<S: Service>(
    service: &S,
    body: RequestBody,
    frame: &RequestFrame,
    caller: &Caller,
    access: &Access<'_>,
) -> Reply {
    let version = frame.header.request_api_version;
    let (body, denied) = match access.gate_on(S::LISTENER, body, version) {
        Gate::Open(b) => (b, Vec::new()),
        Gate::Partial(b, denied) => (b, denied),
        Gate::Deny(response) => return Reply::Respond(response),
    };
    let wanted = crate::operations::wanted(&body, version);
    let forwarded = S::LISTENER == Listener::Broker
        && describe(body.api_key()).is_some_and(|a| a.route == Route::Controller);
    let reply = if forwarded {
        Reply::Respond(service.forward(body, frame, caller).await)
    } else {
        service.handle(body, frame, caller, access).await
    };
    let reply = match reply {
        // The refused entities and the authorized operations are merged into the answer
        // itself: wait for it here.
        Reply::Later(answer) if !denied.is_empty() || wanted.is_some() => answer.await,
        other => other,
    };
    match reply {
        Reply::Respond(mut response) => {
            if let Some(wanted) = wanted {
                access.fill_operations(&mut response, wanted);
            }
            Reply::Respond(access.finish(response, &denied, version))
        }
        other => other,
    }
}

/// Answers an Envelope on a controller: the forwarding node must be allowed CLUSTER_ACTION;
/// the request inside must be one this listener serves, and is judged as its original
/// principal's.
async fn opened<S: Service>(
    service: &S,
    envelope: EnvelopeRequest,
    caller: &Caller,
    acls: Option<&dyn Acls>,
) -> ResponseBody {
    let forwarder = Access::new(acls, &caller.principal, &caller.peer.ip());
    let envelope = match forwarder.gate_on(S::LISTENER, RequestBody::Envelope(envelope), 0) {
        Gate::Open(RequestBody::Envelope(e)) => e,
        Gate::Deny(refused) => return refused,
        _ => return envelope_error(ErrorCode::UnknownServerError, "an Envelope was narrowed"),
    };
    let (inner, body, principal, address) = match crate::envelope::open(&envelope) {
        Ok(opened) => opened,
        Err((code, message)) => {
            tracing::debug!(peer = %caller.peer, "refusing an Envelope: {message}");
            return envelope_error(code, &message);
        }
    };
    let version = inner.header.request_api_version;
    if !inner
        .api_key
        .and_then(describe)
        .is_some_and(|a| a.serves(S::LISTENER, version))
    {
        return envelope_error(
            ErrorCode::InvalidRequest,
            "the forwarded request is not served by the controller",
        );
    }
    let original = Caller {
        peer: std::net::SocketAddr::new(address, 0),
        principal: Arc::new(principal),
        listener: caller.listener.clone(),
        // Not a connection of its own: nothing is tied to it.
        connection: 0,
        protocol: caller.protocol,
        software: None,
    };
    let access = Access::new(acls, &original.principal, &address);
    let response = match authorized(service, body, &inner, &original, &access).await {
        Reply::Respond(r) => r,
        Reply::Later(answer) => match answer.await {
            Reply::Respond(r) => r,
            _ => return envelope_error(ErrorCode::UnknownServerError, "no answer to forward"),
        },
        Reply::Nothing | Reply::Close | Reply::Muting(..) => {
            return envelope_error(ErrorCode::UnknownServerError, "no answer to forward")
        }
    };
    crate::envelope::answer(&inner, &response)
}

/// An Envelope refused as a whole.
fn envelope_error(code: ErrorCode, message: &str) -> ResponseBody {
    tracing::debug!("Envelope refused: {message}");
    ResponseBody::Envelope(EnvelopeResponse {
        error_code: code.code(),
        ..Default::default()
    })
}
