//! The four record-batch codecs: gzip, snappy (raw, and Java's xerial framing, which the Java
//! client and librdkafka produce), lz4 (the LZ4 frame format Kafka uses) and zstd. Inflating
//! is bounded by [`MAX_DECOMPRESSED_BATCH_BYTES`] so a small batch cannot expand without limit.

use crate::error::{DecodeError, EncodeError};
use std::io::{Read, Write};

/// The most bytes one compressed batch may inflate to.
pub const MAX_DECOMPRESSED_BATCH_BYTES: usize = 256 * 1024 * 1024;

/// The xerial snappy stream header: magic, version 1, compatible version 1.
const XERIAL_HEADER: [u8; 16] = [
    0x82, b'S', b'N', b'A', b'P', b'P', b'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1,
];
/// The xerial block size the Java client uses.
const XERIAL_BLOCK: usize = 32 * 1024;

/// A batch's compression codec (attributes bits 0-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compression {
    /// No compression.
    None,
    /// gzip.
    Gzip,
    /// snappy.
    Snappy,
    /// lz4 (frame format).
    Lz4,
    /// zstd.
    Zstd,
}

impl Compression {
    /// Every codec.
    pub const ALL: [Compression; 5] = [
        Compression::None,
        Compression::Gzip,
        Compression::Snappy,
        Compression::Lz4,
        Compression::Zstd,
    ];

    /// The codec for attribute bits 0-2.
    pub fn from_id(id: u8) -> Result<Compression, DecodeError> {
        Ok(match id {
            0 => Compression::None,
            1 => Compression::Gzip,
            2 => Compression::Snappy,
            3 => Compression::Lz4,
            4 => Compression::Zstd,
            other => {
                return Err(DecodeError::Compression(format!(
                    "unknown codec id {other}"
                )))
            }
        })
    }

    /// The attribute bits for this codec.
    pub fn id(self) -> u8 {
        match self {
            Compression::None => 0,
            Compression::Gzip => 1,
            Compression::Snappy => 2,
            Compression::Lz4 => 3,
            Compression::Zstd => 4,
        }
    }

    /// The name Kafka uses in `compression.type`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Snappy => "snappy",
            Compression::Lz4 => "lz4",
            Compression::Zstd => "zstd",
        }
    }
}

fn comp_err(codec: Compression, e: impl std::fmt::Display) -> EncodeError {
    EncodeError::Records(format!("{} compression failed: {e}", codec.name()))
}

fn decomp_err(codec: Compression, e: impl std::fmt::Display) -> DecodeError {
    DecodeError::Compression(format!("{} decompression failed: {e}", codec.name()))
}

/// Compresses `data` with `codec`.
pub fn compress(codec: Compression, data: &[u8]) -> Result<Vec<u8>, EncodeError> {
    match codec {
        Compression::None => Ok(data.to_vec()),
        Compression::Gzip => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(data).map_err(|e| comp_err(codec, e))?;
            e.finish().map_err(|e| comp_err(codec, e))
        }
        Compression::Snappy => {
            let mut out = XERIAL_HEADER.to_vec();
            let mut enc = snap::raw::Encoder::new();
            for block in data.chunks(XERIAL_BLOCK) {
                let c = enc.compress_vec(block).map_err(|e| comp_err(codec, e))?;
                out.extend_from_slice(&(c.len() as i32).to_be_bytes());
                out.extend_from_slice(&c);
            }
            Ok(out)
        }
        Compression::Lz4 => {
            let info = lz4_flex::frame::FrameInfo::new()
                .block_mode(lz4_flex::frame::BlockMode::Independent)
                .block_size(lz4_flex::frame::BlockSize::Max64KB);
            let mut e = lz4_flex::frame::FrameEncoder::with_frame_info(info, Vec::new());
            e.write_all(data).map_err(|e| comp_err(codec, e))?;
            e.finish().map_err(|e| comp_err(codec, e))
        }
        Compression::Zstd => zstd::bulk::compress(data, 3).map_err(|e| comp_err(codec, e)),
    }
}

fn read_bounded(
    codec: Compression,
    mut r: impl Read,
    limit: usize,
) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::new();
    let read = r
        .by_ref()
        .take(limit as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| decomp_err(codec, e))?;
    if read > limit {
        return Err(DecodeError::Compression(format!(
            "{} data inflates past {limit} bytes",
            codec.name()
        )));
    }
    Ok(out)
}

fn snappy_raw(data: &[u8], limit: usize) -> Result<Vec<u8>, DecodeError> {
    let len = snap::raw::decompress_len(data).map_err(|e| decomp_err(Compression::Snappy, e))?;
    if len > limit {
        return Err(DecodeError::Compression(format!(
            "snappy data inflates past {limit} bytes"
        )));
    }
    snap::raw::Decoder::new()
        .decompress_vec(data)
        .map_err(|e| decomp_err(Compression::Snappy, e))
}

/// Decompresses `data`, refusing to produce more than `limit` bytes.
pub fn decompress(codec: Compression, data: &[u8], limit: usize) -> Result<Vec<u8>, DecodeError> {
    match codec {
        Compression::None => Ok(data.to_vec()),
        Compression::Gzip => read_bounded(codec, flate2::read::GzDecoder::new(data), limit),
        Compression::Lz4 => read_bounded(codec, lz4_flex::frame::FrameDecoder::new(data), limit),
        Compression::Zstd => {
            let d = zstd::stream::read::Decoder::new(data).map_err(|e| decomp_err(codec, e))?;
            read_bounded(codec, d, limit)
        }
        Compression::Snappy => {
            if data.len() < XERIAL_HEADER.len() || data[..8] != XERIAL_HEADER[..8] {
                return snappy_raw(data, limit);
            }
            let mut rest = &data[XERIAL_HEADER.len()..];
            let mut out = Vec::new();
            while !rest.is_empty() {
                if rest.len() < 4 {
                    return Err(DecodeError::Compression(
                        "truncated xerial snappy block".into(),
                    ));
                }
                let n = i32::from_be_bytes([rest[0], rest[1], rest[2], rest[3]]);
                let n = usize::try_from(n)
                    .map_err(|_| DecodeError::Compression("negative xerial block".into()))?;
                if rest.len() - 4 < n {
                    return Err(DecodeError::Compression(
                        "truncated xerial snappy block".into(),
                    ));
                }
                let block = snappy_raw(&rest[4..4 + n], limit - out.len())?;
                out.extend_from_slice(&block);
                rest = &rest[4 + n..];
            }
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_codec_round_trips() {
        let data: Vec<u8> = (0..200_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        for codec in Compression::ALL {
            let c = compress(codec, &data).unwrap();
            if codec != Compression::None {
                assert!(
                    c.len() < data.len(),
                    "{codec:?} should shrink repetitive data"
                );
            }
            assert_eq!(
                decompress(codec, &c, MAX_DECOMPRESSED_BATCH_BYTES).unwrap(),
                data,
                "{codec:?}"
            );
        }
    }

    #[test]
    fn decompression_is_bounded() {
        let data = vec![0u8; 100_000];
        for codec in [
            Compression::Gzip,
            Compression::Snappy,
            Compression::Lz4,
            Compression::Zstd,
        ] {
            let c = compress(codec, &data).unwrap();
            assert!(
                decompress(codec, &c, 1000).is_err(),
                "{codec:?} must stop at the limit"
            );
        }
    }

    #[test]
    fn snappy_is_written_with_javas_xerial_framing() {
        let c = compress(Compression::Snappy, b"abcabcabc").unwrap();
        assert_eq!(
            &c[..16],
            &XERIAL_HEADER,
            "magic, version 1, compatible version 1"
        );
        let block_len = i32::from_be_bytes([c[16], c[17], c[18], c[19]]) as usize;
        assert_eq!(c.len(), 20 + block_len);
    }

    /// librdkafka 2.12 writes raw snappy blocks without the xerial header.
    #[test]
    fn raw_snappy_is_accepted() {
        let data = b"hello hello hello hello".to_vec();
        let raw = snap::raw::Encoder::new().compress_vec(&data).unwrap();
        assert_eq!(
            decompress(Compression::Snappy, &raw, 1 << 20).unwrap(),
            data
        );
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for codec in [
            Compression::Gzip,
            Compression::Snappy,
            Compression::Lz4,
            Compression::Zstd,
        ] {
            assert!(
                decompress(codec, &[1, 2, 3, 4, 5, 6, 7, 8, 9], 1 << 20).is_err(),
                "{codec:?}"
            );
        }
        assert!(Compression::from_id(7).is_err());
    }
}
