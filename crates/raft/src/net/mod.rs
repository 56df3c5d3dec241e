//! Kafka's wire transport over TCP, for the Raft driver and for every other listener and
//! client of the server: a pipelining client connection ([`client`]) and a listener that reads
//! frames, hands each request to a handler and writes the responses in request order
//! ([`serve`]).

pub mod client;
pub mod serve;

/// Writes chunks (a framed request or response) with one vectored write at a time.
pub(crate) async fn write_chunks<W: tokio::io::AsyncWrite + Unpin>(
    w: &mut W,
    chunks: &[bytes::Bytes],
) -> std::io::Result<()> {
    use tokio::io::AsyncWriteExt;
    for c in chunks {
        w.write_all(c).await?;
    }
    Ok(())
}
