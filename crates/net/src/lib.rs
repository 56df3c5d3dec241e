//! fjord-net: Kafka's wire transport over TCP, for every listener and client of the server: a
//! pipelining client connection ([`client`]) and a listener ([`serve`]) that admits
//! connections within the configured limits, reads frames ahead, handles each connection's
//! requests strictly in order and writes each response with vectored writes.

pub mod client;
pub mod serve;

use std::io::IoSlice;

/// The most buffers handed to one vectored write.
const MAX_IOV: usize = 64;

/// Writes chunks (a framed request or response) with vectored writes: the size prefix, the
/// header and the record data go out in one syscall where the socket takes them.
pub(crate) async fn write_chunks<W: tokio::io::AsyncWrite + Unpin>(
    w: &mut W,
    chunks: &[bytes::Bytes],
) -> std::io::Result<()> {
    use tokio::io::AsyncWriteExt;
    let mut index = 0;
    let mut offset = 0;
    while index < chunks.len() {
        if offset == chunks[index].len() {
            index += 1;
            offset = 0;
            continue;
        }
        let slices: Vec<IoSlice<'_>> = std::iter::once(&chunks[index][offset..])
            .chain(chunks[index + 1..].iter().map(|c| &c[..]))
            .filter(|c| !c.is_empty())
            .take(MAX_IOV)
            .map(IoSlice::new)
            .collect();
        let mut written = w.write_vectored(&slices).await?;
        if written == 0 {
            return Err(std::io::ErrorKind::WriteZero.into());
        }
        while written > 0 {
            let left = chunks[index].len() - offset;
            if written >= left {
                written -= left;
                index += 1;
                offset = 0;
            } else {
                offset += written;
                written = 0;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;

    /// A writer that takes at most 3 bytes per call, to exercise partial vectored writes.
    struct Trickle(Vec<u8>);

    impl tokio::io::AsyncWrite for Trickle {
        fn poll_write(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &[u8],
        ) -> std::task::Poll<std::io::Result<usize>> {
            let n = buf.len().min(3);
            self.0.extend_from_slice(&buf[..n]);
            std::task::Poll::Ready(Ok(n))
        }
        fn poll_flush(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }
        fn poll_shutdown(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn partial_writes_write_every_byte_once_in_order() {
        let chunks: Vec<Bytes> = ["ab", "", "cdefg", "h", "ijklmnop"]
            .iter()
            .map(|s| Bytes::from_static(s.as_bytes()))
            .collect();
        let mut w = Trickle(Vec::new());
        super::write_chunks(&mut w, &chunks).await.unwrap();
        assert_eq!(w.0, b"abcdefghijklmnop");
    }
}
