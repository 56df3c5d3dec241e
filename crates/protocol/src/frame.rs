//! Frames: every request and response is an int32 size followed by that many bytes. The size
//! is checked against the configured maximum (`socket.request.max.bytes`) before any buffer
//! is grown for it.

use crate::error::DecodeError;
use crate::payload::Chunk;
use bytes::{Buf, Bytes, BytesMut};

/// Kafka's default for `socket.request.max.bytes`: 100 MiB.
pub const DEFAULT_SOCKET_REQUEST_MAX_BYTES: usize = 100 * 1024 * 1024;

/// The size of the length prefix.
pub const FRAME_PREFIX_LEN: usize = 4;

/// Splits length-prefixed frames off a growing input buffer.
#[derive(Debug, Clone, Copy)]
pub struct FrameDecoder {
    max_frame: usize,
}

impl Default for FrameDecoder {
    fn default() -> Self {
        FrameDecoder::new(DEFAULT_SOCKET_REQUEST_MAX_BYTES)
    }
}

impl FrameDecoder {
    /// A decoder that rejects frames larger than `max_frame` bytes.
    pub fn new(max_frame: usize) -> FrameDecoder {
        FrameDecoder { max_frame }
    }

    /// The largest frame accepted.
    pub fn max_frame(&self) -> usize {
        self.max_frame
    }

    /// Takes one whole frame (without its prefix) off the front of `src`, or returns `None`
    /// when more bytes are needed. A negative or oversized length is an error: the caller
    /// closes the connection. Room for a frame is reserved only once its size is validated.
    pub fn decode(&self, src: &mut BytesMut) -> Result<Option<Bytes>, DecodeError> {
        if src.len() < FRAME_PREFIX_LEN {
            return Ok(None);
        }
        let size = i32::from_be_bytes([src[0], src[1], src[2], src[3]]);
        if size < 0 || size as usize > self.max_frame {
            return Err(DecodeError::FrameTooLarge {
                size: i64::from(size),
                max: self.max_frame,
            });
        }
        let size = size as usize;
        let total = FRAME_PREFIX_LEN + size;
        if src.len() < total {
            src.reserve(total - src.len());
            return Ok(None);
        }
        src.advance(FRAME_PREFIX_LEN);
        Ok(Some(src.split_to(size).freeze()))
    }
}

/// Prefixes `chunks` (the encoded header and body) with their total size, ready for a
/// vectored write. Fails if the total does not fit an int32.
pub fn frame_chunks(mut chunks: Vec<Chunk>) -> Result<Vec<Chunk>, crate::EncodeError> {
    let total: usize = chunks.iter().map(Chunk::len).sum();
    let size = i32::try_from(total).map_err(|_| crate::EncodeError::TooLong { len: total })?;
    chunks.insert(0, Chunk::Bytes(Bytes::copy_from_slice(&size.to_be_bytes())));
    Ok(chunks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_frames_and_waits_for_more() {
        let d = FrameDecoder::new(16);
        let mut b = BytesMut::from(&[0, 0, 0, 3, 1, 2][..]);
        assert_eq!(d.decode(&mut b).unwrap(), None);
        b.extend_from_slice(&[3, 0, 0, 0, 0]);
        assert_eq!(
            d.decode(&mut b).unwrap().unwrap(),
            Bytes::from_static(&[1, 2, 3])
        );
        assert_eq!(d.decode(&mut b).unwrap().unwrap(), Bytes::new());
        assert!(b.is_empty());
    }

    #[test]
    fn oversized_frame_is_rejected_before_allocation() {
        let d = FrameDecoder::new(1024);
        let mut b = BytesMut::from(&[0x7f, 0xff, 0xff, 0xff, 0][..]);
        let cap = b.capacity();
        assert!(matches!(
            d.decode(&mut b),
            Err(DecodeError::FrameTooLarge { .. })
        ));
        assert_eq!(
            b.capacity(),
            cap,
            "no room may be reserved for a rejected frame"
        );
        let mut neg = BytesMut::from(&[0xff, 0xff, 0xff, 0xfe][..]);
        assert!(d.decode(&mut neg).is_err());
    }

    #[test]
    fn frame_chunks_prefixes_total_size() {
        let f = frame_chunks(vec![
            Chunk::Bytes(Bytes::from_static(b"ab")),
            Chunk::Bytes(Bytes::from_static(b"cde")),
        ])
        .unwrap();
        assert_eq!(
            crate::payload::concat(&f).unwrap(),
            [0, 0, 0, 5, b'a', b'b', b'c', b'd', b'e']
        );
        assert_eq!(f.len(), 3);
    }
}
