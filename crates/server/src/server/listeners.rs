//! Binding and serving the node's listeners: the shared limits (`max.connections`, ...,
//! `queued.max.request.bytes`), binding before listening (so the broker port stays closed
//! until the broker is ready, and a port 0 is known at once), and serving as a task the node
//! cannot live without.

use super::settings::LimitSettings;
use fjord_net::serve::{ByteBudget, Limits};
use fjord_util::tasks::Fatal;
use std::sync::Arc;

/// The limits every listener of the node shares (`queued.max.request.bytes` is one budget),
/// reporting answered requests to `observer`.
pub(super) fn limits(
    settings: &LimitSettings,
    observer: Arc<dyn fjord_net::serve::Observer>,
) -> Limits {
    Limits {
        max_frame: settings.max_frame,
        max_connections: settings.max_connections,
        max_connections_per_ip: settings.max_connections_per_ip,
        idle_timeout: settings.idle_timeout,
        queued_bytes: settings.queued_bytes.map(ByteBudget::new),
        observer: Some(observer),
    }
}

/// The most connections waiting to be accepted on a listener.
const LISTEN_BACKLOG: u32 = 1024;

/// Binds a listener's socket without listening yet (connections are refused until
/// [`open`]): an empty host means every interface, IPv6 and IPv4 (Kafka's wildcard bind), or
/// IPv4 alone where the machine has no IPv6; port 0 takes a free port. Returns the socket and
/// the address it is bound to.
pub(super) fn bind(
    what: &str,
    l: &crate::config::Listener,
) -> Result<(tokio::net::TcpSocket, std::net::SocketAddr), String> {
    let addrs = if l.host.is_empty() {
        vec![format!("[::]:{}", l.port), format!("0.0.0.0:{}", l.port)]
    } else {
        vec![crate::config::host_port(&l.host, l.port)]
    };
    let mut last = String::new();
    for addr in &addrs {
        let bound = (|| {
            let target: std::net::SocketAddr = match addr.parse() {
                Ok(a) => a,
                Err(_) => std::net::ToSocketAddrs::to_socket_addrs(addr)?
                    .next()
                    .ok_or_else(|| std::io::Error::other("no address"))?,
            };
            let socket = if target.is_ipv6() {
                tokio::net::TcpSocket::new_v6()?
            } else {
                tokio::net::TcpSocket::new_v4()?
            };
            socket.set_reuseaddr(true)?;
            socket.bind(target)?;
            let local = socket.local_addr()?;
            Ok::<_, std::io::Error>((socket, local))
        })();
        match bound {
            Ok(b) => return Ok(b),
            Err(e) => last = format!("binding the {what} listener {addr}: {e}"),
        }
    }
    Err(last)
}

/// Starts listening on a bound socket.
pub(super) fn open(
    what: &str,
    socket: tokio::net::TcpSocket,
    addr: std::net::SocketAddr,
) -> Result<tokio::net::TcpListener, String> {
    let listener = socket
        .listen(LISTEN_BACKLOG)
        .map_err(|e| format!("listening on the {what} listener {addr}: {e}"))?;
    tracing::info!(%addr, "{what} listener ready");
    Ok(listener)
}

/// Serves `listener` with `handler` as a task the node cannot live without, until `stop`
/// turns true (then it answers the requests already read and closes every connection); the
/// returned receiver fires once it has.
pub(super) fn listen<H: fjord_net::serve::Handler>(
    what: &'static str,
    listener: tokio::net::TcpListener,
    handler: H,
    (limits, security): (Limits, Arc<fjord_net::security::ListenerSecurity>),
    stop: tokio::sync::watch::Receiver<bool>,
    fatal: &Fatal,
) -> tokio::sync::oneshot::Receiver<()> {
    let (done, stopped) = tokio::sync::oneshot::channel();
    fatal.spawn(what, async move {
        fjord_net::serve::serve_until(listener, Arc::new(handler), limits, security, stop).await;
        let _ = done.send(());
    });
    stopped
}
