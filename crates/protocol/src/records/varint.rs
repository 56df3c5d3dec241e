//! Zig-zag varints and varlongs, as records v2 use them.

use crate::error::DecodeError;
use bytes::{Buf, Bytes};

/// Reads a zig-zag varint (at most 5 bytes).
pub fn read_varint(buf: &mut Bytes) -> Result<i32, DecodeError> {
    let raw = crate::codec::read_uvarint(buf)?;
    Ok(((raw >> 1) as i32) ^ -((raw & 1) as i32))
}

/// Reads a zig-zag varlong (at most 10 bytes).
pub fn read_varlong(buf: &mut Bytes) -> Result<i64, DecodeError> {
    let mut raw: u64 = 0;
    for i in 0..10 {
        if !buf.has_remaining() {
            return Err(DecodeError::Truncated {
                needed: 1,
                remaining: 0,
            });
        }
        let b = buf.get_u8();
        if i == 9 && b > 0x01 {
            return Err(DecodeError::VarintTooLong);
        }
        raw |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Ok(((raw >> 1) as i64) ^ -((raw & 1) as i64));
        }
    }
    Err(DecodeError::VarintTooLong)
}

/// Appends a zig-zag varint.
pub fn put_varint(out: &mut Vec<u8>, v: i32) {
    put_uvarlong(out, u64::from(((v << 1) ^ (v >> 31)) as u32));
}

/// Appends a zig-zag varlong.
pub fn put_varlong(out: &mut Vec<u8>, v: i64) {
    put_uvarlong(out, ((v << 1) ^ (v >> 63)) as u64);
}

fn put_uvarlong(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The encoded size of a zig-zag varint.
pub fn varint_len(v: i32) -> usize {
    varlong_len(i64::from(v))
}

/// The encoded size of a zig-zag varlong.
pub fn varlong_len(v: i64) -> usize {
    let mut raw = ((v << 1) ^ (v >> 63)) as u64;
    let mut n = 1;
    while raw >= 0x80 {
        raw >>= 7;
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zigzag_matches_kafka_examples() {
        // From Kafka's protocol guide: 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3, 2147483647 -> 4294967294.
        for (v, first) in [(0i32, 0u8), (-1, 1), (1, 2), (-2, 3)] {
            let mut out = Vec::new();
            put_varint(&mut out, v);
            assert_eq!(out, vec![first]);
        }
        let mut out = Vec::new();
        put_varint(&mut out, i32::MAX);
        assert_eq!(out, vec![0xfe, 0xff, 0xff, 0xff, 0x0f]);
    }

    #[test]
    fn varints_round_trip_at_the_edges() {
        for v in [
            0i64,
            1,
            -1,
            63,
            -64,
            64,
            i32::MAX as i64,
            i32::MIN as i64,
            i64::MAX,
            i64::MIN,
        ] {
            let mut out = Vec::new();
            put_varlong(&mut out, v);
            assert_eq!(out.len(), varlong_len(v));
            assert_eq!(read_varlong(&mut Bytes::from(out)).unwrap(), v);
            if let Ok(v32) = i32::try_from(v) {
                let mut out = Vec::new();
                put_varint(&mut out, v32);
                assert_eq!(out.len(), varint_len(v32));
                assert_eq!(read_varint(&mut Bytes::from(out)).unwrap(), v32);
            }
        }
        assert!(read_varlong(&mut Bytes::from(vec![0xff; 11])).is_err());
    }
}
