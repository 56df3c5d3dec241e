//! fjord-net: Kafka's wire transport over TCP, for every listener and client of the server: a
//! pipelining client connection ([`client`]) and a listener ([`serve`]) that admits
//! connections within the configured limits, reads frames ahead, handles each connection's
//! requests strictly in order and writes each response with vectored writes; each side in any
//! of Kafka's security protocols ([`security`]): TLS ([`tls`]), SASL ([`sasl`]), and the
//! principal a request is made for ([`principal`]).

pub mod api;
pub mod authorize;
pub mod client;
pub mod envelope;
pub mod operations;
pub mod pipeline;
pub mod principal;
pub mod sasl;
pub mod security;
pub mod serve;
pub mod tls;

use fjord_protocol::payload::{Chunk, FileSlice};
use std::future::Future;
use std::io::IoSlice;
use tokio::io::Interest;
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::TcpStream;

/// The most buffers handed to one vectored write.
const MAX_IOV: usize = 64;
/// The most bytes handed to one sendfile(2) call.
const MAX_SENDFILE: usize = 1 << 30;

/// Where frames go: a socket (file slices leave with sendfile(2), record data never passing
/// through user space) or, in tests, any writer.
pub(crate) trait FrameSink: tokio::io::AsyncWrite + Unpin + Send {
    /// Sends a whole file slice after everything written before it.
    fn send_file(&mut self, slice: &FileSlice) -> impl Future<Output = std::io::Result<()>> + Send;
}

impl FrameSink for OwnedWriteHalf {
    async fn send_file(&mut self, slice: &FileSlice) -> std::io::Result<()> {
        let stream: &TcpStream = self.as_ref();
        let mut offset = slice.position();
        let end = offset + slice.len() as u64;
        while offset < end {
            stream.writable().await?;
            let want = usize::try_from(end - offset).map_or(MAX_SENDFILE, |n| n.min(MAX_SENDFILE));
            let sent = stream.try_io(Interest::WRITABLE, || {
                rustix::fs::sendfile(stream, slice.file(), Some(&mut offset), want)
                    .map_err(std::io::Error::from)
            });
            match sent {
                Ok(0) => {
                    // The frame's size is already on the wire: only closing is left.
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        "the segment became shorter than the records read from it (truncated)",
                    ));
                }
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// The most bytes of a file slice read into memory at once on a TLS connection.
const TLS_FILE_CHUNK: usize = 256 * 1024;

/// Writes a file slice through a writer that cannot take sendfile(2) (TLS encrypts in user
/// space): read in bounded chunks and written in order.
async fn copy_file_slice<W: tokio::io::AsyncWrite + Unpin>(
    w: &mut W,
    slice: &FileSlice,
) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    use tokio::io::AsyncWriteExt;
    let mut offset = slice.position();
    let end = offset + slice.len() as u64;
    let mut buf = vec![0u8; TLS_FILE_CHUNK.min(slice.len())];
    while offset < end {
        let want = usize::try_from(end - offset).map_or(buf.len(), |n| n.min(buf.len()));
        let n = slice.file().read_at(&mut buf[..want], offset)?;
        if n == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the segment became shorter than the records read from it (truncated)",
            ));
        }
        w.write_all(&buf[..n]).await?;
        offset += n as u64;
    }
    Ok(())
}

impl<S> FrameSink for tokio::io::WriteHalf<tokio_rustls::server::TlsStream<S>>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send,
{
    async fn send_file(&mut self, slice: &FileSlice) -> std::io::Result<()> {
        copy_file_slice(self, slice).await
    }
}

impl<S> FrameSink for tokio::io::WriteHalf<tokio_rustls::client::TlsStream<S>>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send,
{
    async fn send_file(&mut self, slice: &FileSlice) -> std::io::Result<()> {
        copy_file_slice(self, slice).await
    }
}

/// Writes a framed request or response: runs of in-memory chunks with vectored writes (the
/// size prefix, the header and small fields in one syscall where the socket takes them), file
/// slices with [`FrameSink::send_file`].
pub(crate) async fn write_chunks<W: FrameSink>(w: &mut W, chunks: &[Chunk]) -> std::io::Result<()> {
    let mut start = 0;
    while start < chunks.len() {
        if let Chunk::File(f) = &chunks[start] {
            w.send_file(f).await?;
            start += 1;
            continue;
        }
        let run: Vec<&bytes::Bytes> = chunks[start..]
            .iter()
            .map_while(|c| match c {
                Chunk::Bytes(b) => Some(b),
                Chunk::File(_) => None,
            })
            .collect();
        start += run.len();
        write_buffers(w, &run).await?;
    }
    // A TLS writer holds encrypted bytes until flushed; a socket's flush does nothing.
    tokio::io::AsyncWriteExt::flush(w).await
}

/// Writes every buffer, in order, with vectored writes.
async fn write_buffers<W: tokio::io::AsyncWrite + Unpin>(
    w: &mut W,
    chunks: &[&bytes::Bytes],
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
    use fjord_protocol::payload::{Chunk, FileSlice};

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

    impl super::FrameSink for Trickle {
        async fn send_file(&mut self, slice: &FileSlice) -> std::io::Result<()> {
            self.0.extend_from_slice(&slice.read()?);
            Ok(())
        }
    }

    #[tokio::test]
    async fn partial_writes_write_every_byte_once_in_order() {
        let chunks: Vec<Chunk> = ["ab", "", "cdefg", "h", "ijklmnop"]
            .iter()
            .map(|s| Chunk::Bytes(Bytes::from_static(s.as_bytes())))
            .collect();
        let mut w = Trickle(Vec::new());
        super::write_chunks(&mut w, &chunks).await.unwrap();
        assert_eq!(w.0, b"abcdefghijklmnop");
    }

    /// A connected pair of sockets on 127.0.0.1.
    async fn socket_pair() -> (tokio::net::TcpStream, tokio::net::TcpStream) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (a, b) = tokio::join!(tokio::net::TcpStream::connect(addr), listener.accept());
        (a.unwrap(), b.unwrap().0)
    }

    #[tokio::test]
    async fn file_slices_go_out_with_sendfile_between_buffers_in_order() {
        use tokio::io::AsyncReadExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("segment");
        // Larger than a socket buffer, so sendfile meets a full socket and waits.
        let data: Vec<u8> = (0..8 << 20).map(|i: u32| (i % 251) as u8).collect();
        std::fs::write(&path, &data).unwrap();
        let file = std::sync::Arc::new(std::fs::File::open(&path).unwrap());
        let chunks = vec![
            Chunk::Bytes(Bytes::from_static(b"head")),
            Chunk::File(FileSlice::new(file.clone(), 5, data.len() - 10)),
            Chunk::Bytes(Bytes::from_static(b"tail")),
        ];
        let (a, b) = socket_pair().await;
        let (_read, mut write) = a.into_split();
        let reader = tokio::spawn(async move {
            let mut b = b;
            let mut got = Vec::new();
            b.read_to_end(&mut got).await.unwrap();
            got
        });
        super::write_chunks(&mut write, &chunks).await.unwrap();
        drop(write);
        drop(_read);
        let got = reader.await.unwrap();
        let mut want = b"head".to_vec();
        want.extend_from_slice(&data[5..data.len() - 5]);
        want.extend_from_slice(b"tail");
        assert_eq!(got.len(), want.len());
        assert!(got == want, "the bytes differ");

        // A slice past the file's end (a segment truncated since the read) fails the write.
        let short = dir.path().join("short");
        std::fs::write(&short, b"0123456789").unwrap();
        let short = std::sync::Arc::new(std::fs::File::open(&short).unwrap());
        let (a, _b) = socket_pair().await;
        let (_r, mut write) = a.into_split();
        let beyond = vec![Chunk::File(FileSlice::new(short, 0, 11))];
        let err = tokio::time::timeout(
            std::time::Duration::from_secs(30),
            super::write_chunks(&mut write, &beyond),
        )
        .await
        .expect("the write ends")
        .unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
    }
}
