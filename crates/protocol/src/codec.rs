//! Primitive wire encodings shared by every generated message: fixed-width integers, varints,
//! strings, bytes, arrays and tagged fields, classic and compact. Readers are checked (a short
//! buffer is an error, never a panic) and never allocate more than the bytes present justify.

use crate::error::{DecodeError, EncodeError};
use crate::payload::{Chunk, FileSlice, Records};
use bytes::{Buf, Bytes, BytesMut};
use uuid::Uuid;

/// Decoders reserve room for at most this many array elements up front; longer arrays grow as
/// their elements are actually read, so memory follows the bytes present, whatever the count
/// claims and however large each element is in memory.
pub const MAX_PREALLOCATED_ELEMENTS: usize = 256;

/// Byte slices at least this long are passed by reference by [`ChainWriter`] instead of copied.
pub const ZERO_COPY_MIN_BYTES: usize = 1024;

/// A tagged field this build does not know, kept so that it can be written back unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RawTaggedField {
    /// The field's tag.
    pub tag: u32,
    /// The field's encoded value.
    pub data: Bytes,
}

/// Where encoders write. Implemented by `BytesMut` (one contiguous buffer) and by
/// [`ChainWriter`] (a chain of buffers that shares large `Bytes` instead of copying them).
pub trait Writer {
    /// Writes raw bytes, copying them.
    fn put_slice(&mut self, src: &[u8]);
    /// Writes a shared buffer; writers that can keep a reference do so instead of copying.
    fn put_shared(&mut self, src: &Bytes) {
        self.put_slice(src);
    }
    /// Writes a file slice; writers that can send it from the file keep a reference, others
    /// read it.
    fn put_file(&mut self, src: &FileSlice) -> Result<(), EncodeError> {
        let bytes = src
            .read()
            .map_err(|e| EncodeError::RecordsUnreadable(e.to_string()))?;
        self.put_slice(&bytes);
        Ok(())
    }
    /// Writes one byte.
    fn put_u8(&mut self, v: u8) {
        self.put_slice(&[v]);
    }
    /// Writes an int8.
    fn put_i8(&mut self, v: i8) {
        self.put_slice(&v.to_be_bytes());
    }
    /// Writes an int16.
    fn put_i16(&mut self, v: i16) {
        self.put_slice(&v.to_be_bytes());
    }
    /// Writes a uint16.
    fn put_u16(&mut self, v: u16) {
        self.put_slice(&v.to_be_bytes());
    }
    /// Writes an int32.
    fn put_i32(&mut self, v: i32) {
        self.put_slice(&v.to_be_bytes());
    }
    /// Writes a uint32.
    fn put_u32(&mut self, v: u32) {
        self.put_slice(&v.to_be_bytes());
    }
    /// Writes an int64.
    fn put_i64(&mut self, v: i64) {
        self.put_slice(&v.to_be_bytes());
    }
    /// Writes a float64.
    fn put_f64(&mut self, v: f64) {
        self.put_slice(&v.to_be_bytes());
    }
}

impl Writer for BytesMut {
    fn put_slice(&mut self, src: &[u8]) {
        self.extend_from_slice(src);
    }
}

impl Writer for Vec<u8> {
    fn put_slice(&mut self, src: &[u8]) {
        self.extend_from_slice(src);
    }
}

/// A writer that produces a chain of [`Chunk`]s for the socket: small fields are gathered
/// into a scratch buffer, large shared buffers (record batches) and file slices are
/// referenced, not copied.
#[derive(Debug, Default)]
pub struct ChainWriter {
    chunks: Vec<Chunk>,
    scratch: BytesMut,
}

impl ChainWriter {
    /// A writer whose scratch buffer starts with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> ChainWriter {
        ChainWriter {
            chunks: Vec::new(),
            scratch: BytesMut::with_capacity(capacity),
        }
    }

    /// The written chunks, in order.
    pub fn finish(mut self) -> Vec<Chunk> {
        self.flush_scratch();
        self.chunks
    }

    fn flush_scratch(&mut self) {
        if !self.scratch.is_empty() {
            self.chunks
                .push(Chunk::Bytes(self.scratch.split().freeze()));
        }
    }
}

impl Writer for ChainWriter {
    fn put_slice(&mut self, src: &[u8]) {
        self.scratch.extend_from_slice(src);
    }

    fn put_shared(&mut self, src: &Bytes) {
        if src.len() < ZERO_COPY_MIN_BYTES {
            self.scratch.extend_from_slice(src);
            return;
        }
        self.flush_scratch();
        self.chunks.push(Chunk::Bytes(src.clone()));
    }

    fn put_file(&mut self, src: &FileSlice) -> Result<(), EncodeError> {
        if !src.is_empty() {
            self.flush_scratch();
            self.chunks.push(Chunk::File(src.clone()));
        }
        Ok(())
    }
}

fn need(buf: &Bytes, n: usize) -> Result<(), DecodeError> {
    if buf.remaining() < n {
        return Err(DecodeError::Truncated {
            needed: n,
            remaining: buf.remaining(),
        });
    }
    Ok(())
}

/// Reads an int8.
pub fn read_i8(buf: &mut Bytes) -> Result<i8, DecodeError> {
    need(buf, 1)?;
    Ok(buf.get_i8())
}

/// Reads a bool (any non-zero byte is true, as in Kafka).
pub fn read_bool(buf: &mut Bytes) -> Result<bool, DecodeError> {
    need(buf, 1)?;
    Ok(buf.get_u8() != 0)
}

/// Reads an int16.
pub fn read_i16(buf: &mut Bytes) -> Result<i16, DecodeError> {
    need(buf, 2)?;
    Ok(buf.get_i16())
}

/// Reads a uint16.
pub fn read_u16(buf: &mut Bytes) -> Result<u16, DecodeError> {
    need(buf, 2)?;
    Ok(buf.get_u16())
}

/// Reads an int32.
pub fn read_i32(buf: &mut Bytes) -> Result<i32, DecodeError> {
    need(buf, 4)?;
    Ok(buf.get_i32())
}

/// Reads a uint32.
pub fn read_u32(buf: &mut Bytes) -> Result<u32, DecodeError> {
    need(buf, 4)?;
    Ok(buf.get_u32())
}

/// Reads an int64.
pub fn read_i64(buf: &mut Bytes) -> Result<i64, DecodeError> {
    need(buf, 8)?;
    Ok(buf.get_i64())
}

/// Reads a float64.
pub fn read_f64(buf: &mut Bytes) -> Result<f64, DecodeError> {
    need(buf, 8)?;
    Ok(buf.get_f64())
}

/// Reads a UUID (16 bytes, big-endian).
pub fn read_uuid(buf: &mut Bytes) -> Result<Uuid, DecodeError> {
    need(buf, 16)?;
    let mut b = [0u8; 16];
    buf.copy_to_slice(&mut b);
    Ok(Uuid::from_bytes(b))
}

/// Reads an unsigned varint of at most 5 bytes (a u32).
pub fn read_uvarint(buf: &mut Bytes) -> Result<u32, DecodeError> {
    let mut value: u32 = 0;
    for i in 0..5 {
        need(buf, 1)?;
        let b = buf.get_u8();
        if i == 4 && b > 0x0f {
            return Err(DecodeError::VarintTooLong);
        }
        value |= u32::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(DecodeError::VarintTooLong)
}

/// Writes an unsigned varint.
pub fn write_uvarint<W: Writer + ?Sized>(w: &mut W, mut v: u32) {
    let mut tmp = [0u8; 5];
    let mut n = 0;
    while v >= 0x80 {
        tmp[n] = (v as u8) | 0x80;
        v >>= 7;
        n += 1;
    }
    tmp[n] = v as u8;
    w.put_slice(&tmp[..=n]);
}

/// The encoded size of an unsigned varint.
pub fn uvarint_len(v: u32) -> usize {
    match v {
        0..=0x7f => 1,
        0x80..=0x3fff => 2,
        0x4000..=0x1f_ffff => 3,
        0x20_0000..=0xfff_ffff => 4,
        _ => 5,
    }
}

/// Writes a bool.
pub fn write_bool<W: Writer + ?Sized>(w: &mut W, v: bool) {
    w.put_u8(u8::from(v));
}

/// Writes a UUID.
pub fn write_uuid<W: Writer + ?Sized>(w: &mut W, v: &Uuid) {
    w.put_slice(v.as_bytes());
}

/// Reads a length prefix: compact (uvarint, 0 = null, else len+1) or classic (`classic_width`
/// bytes, -1 = null). Returns `None` for null and checks the length against what is left.
fn read_len(
    buf: &mut Bytes,
    compact: bool,
    classic_width: u8,
) -> Result<Option<usize>, DecodeError> {
    let len: i64 = if compact {
        i64::from(read_uvarint(buf)?) - 1
    } else if classic_width == 2 {
        i64::from(read_i16(buf)?)
    } else {
        i64::from(read_i32(buf)?)
    };
    if len < -1 {
        return Err(DecodeError::InvalidLength(len));
    }
    if len == -1 {
        return Ok(None);
    }
    let len = len as usize;
    if len > buf.remaining() {
        return Err(DecodeError::LengthExceedsBuffer {
            length: len,
            remaining: buf.remaining(),
        });
    }
    Ok(Some(len))
}

/// Reads a nullable string.
pub fn read_nullable_string(buf: &mut Bytes, compact: bool) -> Result<Option<String>, DecodeError> {
    match read_len(buf, compact, 2)? {
        None => Ok(None),
        Some(len) => {
            let raw = buf.split_to(len);
            String::from_utf8(raw.to_vec())
                .map(Some)
                .map_err(|_| DecodeError::InvalidUtf8)
        }
    }
}

/// Reads a non-null string; null is an error naming `field`.
pub fn read_string(
    buf: &mut Bytes,
    compact: bool,
    field: &'static str,
) -> Result<String, DecodeError> {
    read_nullable_string(buf, compact)?.ok_or(DecodeError::UnexpectedNull { field })
}

/// Reads nullable bytes, sharing the input buffer (no copy).
pub fn read_nullable_bytes(buf: &mut Bytes, compact: bool) -> Result<Option<Bytes>, DecodeError> {
    Ok(read_len(buf, compact, 4)?.map(|len| buf.split_to(len)))
}

/// Reads non-null bytes, sharing the input buffer; null is an error naming `field`.
pub fn read_bytes(
    buf: &mut Bytes,
    compact: bool,
    field: &'static str,
) -> Result<Bytes, DecodeError> {
    read_nullable_bytes(buf, compact)?.ok_or(DecodeError::UnexpectedNull { field })
}

/// Reads an array length; `None` is a null array. The count is checked against the bytes left
/// (every element takes at least one byte), so it bounds any allocation.
pub fn read_array_len(buf: &mut Bytes, compact: bool) -> Result<Option<usize>, DecodeError> {
    read_len(buf, compact, 4)
}

/// Reads a non-null array length; null is an error naming `field`.
pub fn read_array_len_non_null(
    buf: &mut Bytes,
    compact: bool,
    field: &'static str,
) -> Result<usize, DecodeError> {
    read_array_len(buf, compact)?.ok_or(DecodeError::UnexpectedNull { field })
}

/// Writes a string (non-null).
pub fn write_string<W: Writer + ?Sized>(
    w: &mut W,
    s: &str,
    compact: bool,
) -> Result<(), EncodeError> {
    if compact {
        let n = u32::try_from(s.len()).ok().and_then(|n| n.checked_add(1));
        write_uvarint(w, n.ok_or(EncodeError::TooLong { len: s.len() })?);
    } else {
        let n = i16::try_from(s.len()).map_err(|_| EncodeError::TooLong { len: s.len() })?;
        w.put_i16(n);
    }
    w.put_slice(s.as_bytes());
    Ok(())
}

/// Writes a nullable string.
pub fn write_nullable_string<W: Writer + ?Sized>(
    w: &mut W,
    s: Option<&str>,
    compact: bool,
) -> Result<(), EncodeError> {
    match s {
        Some(s) => write_string(w, s, compact),
        None if compact => {
            write_uvarint(w, 0);
            Ok(())
        }
        None => {
            w.put_i16(-1);
            Ok(())
        }
    }
}

/// Writes non-null bytes; large buffers are shared with a [`ChainWriter`].
pub fn write_bytes<W: Writer + ?Sized>(
    w: &mut W,
    b: &Bytes,
    compact: bool,
) -> Result<(), EncodeError> {
    write_len_prefix(w, b.len(), compact)?;
    w.put_shared(b);
    Ok(())
}

/// Writes non-null record data: bytes as [`write_bytes`] does, a file slice by reference
/// where the writer can send it from the file.
pub fn write_records<W: Writer + ?Sized>(
    w: &mut W,
    r: &Records,
    compact: bool,
) -> Result<(), EncodeError> {
    match r {
        Records::Memory(b) => write_bytes(w, b, compact),
        Records::File(f) => {
            write_len_prefix(w, f.len(), compact)?;
            w.put_file(f)
        }
    }
}

/// Writes nullable bytes.
pub fn write_nullable_bytes<W: Writer + ?Sized>(
    w: &mut W,
    b: Option<&Bytes>,
    compact: bool,
) -> Result<(), EncodeError> {
    match b {
        Some(b) => write_bytes(w, b, compact),
        None => {
            write_null(w, compact);
            Ok(())
        }
    }
}

/// Writes the length of a non-null array or byte string (int32 classic, uvarint+1 compact).
pub fn write_len_prefix<W: Writer + ?Sized>(
    w: &mut W,
    len: usize,
    compact: bool,
) -> Result<(), EncodeError> {
    if compact {
        let n = u32::try_from(len).ok().and_then(|n| n.checked_add(1));
        write_uvarint(w, n.ok_or(EncodeError::TooLong { len })?);
    } else {
        w.put_i32(i32::try_from(len).map_err(|_| EncodeError::TooLong { len })?);
    }
    Ok(())
}

/// Writes a null array or null bytes.
pub fn write_null<W: Writer + ?Sized>(w: &mut W, compact: bool) {
    if compact {
        write_uvarint(w, 0);
    } else {
        w.put_i32(-1);
    }
}

/// The encoded size of a length prefix for `len` items (arrays, bytes).
pub fn len_prefix_len(len: usize, compact: bool) -> usize {
    if compact {
        uvarint_len((len as u32).wrapping_add(1))
    } else {
        4
    }
}

/// The encoded size of a null array or null bytes.
pub fn null_len(compact: bool) -> usize {
    if compact {
        1
    } else {
        4
    }
}

/// The encoded size of a string.
pub fn string_len(s: &str, compact: bool) -> usize {
    if compact {
        uvarint_len((s.len() as u32).wrapping_add(1)) + s.len()
    } else {
        2 + s.len()
    }
}

/// The encoded size of a nullable string.
pub fn nullable_string_len(s: Option<&str>, compact: bool) -> usize {
    match s {
        Some(s) => string_len(s, compact),
        None if compact => 1,
        None => 2,
    }
}

/// The encoded size of bytes.
pub fn bytes_len(b: &Bytes, compact: bool) -> usize {
    len_prefix_len(b.len(), compact) + b.len()
}

/// The encoded size of record data.
pub fn records_len(r: &Records, compact: bool) -> usize {
    len_prefix_len(r.len(), compact) + r.len()
}

/// The encoded size of nullable bytes.
pub fn nullable_bytes_len(b: Option<&Bytes>, compact: bool) -> usize {
    b.map_or(null_len(compact), |b| bytes_len(b, compact))
}

/// Reads one tagged field header: its tag and a buffer holding exactly its value. Tags must
/// come in strictly ascending order (as every Kafka writer sends them); `last` carries the
/// previous tag of the section.
pub fn read_tagged_field(
    buf: &mut Bytes,
    last: &mut Option<u32>,
) -> Result<(u32, Bytes), DecodeError> {
    let tag = read_uvarint(buf)?;
    if last.is_some_and(|prev| tag <= prev) {
        return Err(DecodeError::TaggedFieldOrder { tag });
    }
    *last = Some(tag);
    let size = read_uvarint(buf)? as usize;
    need(buf, size)?;
    Ok((tag, buf.split_to(size)))
}

/// Checks that a known tagged field's value used exactly the bytes its header gave it.
pub fn finish_tagged_field(rest: &Bytes, tag: u32) -> Result<(), DecodeError> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(DecodeError::TaggedFieldSize { tag })
    }
}

/// Reads the number of tagged fields in a tagged-field section.
pub fn read_tagged_count(buf: &mut Bytes) -> Result<u32, DecodeError> {
    let n = read_uvarint(buf)?;
    // Each tagged field takes at least two bytes (tag and size).
    if n as usize > buf.remaining() / 2 {
        return Err(DecodeError::LengthExceedsBuffer {
            length: n as usize,
            remaining: buf.remaining(),
        });
    }
    Ok(n)
}

/// The encoded size of an unknown tagged field.
pub fn raw_tagged_len(f: &RawTaggedField) -> usize {
    uvarint_len(f.tag) + uvarint_len(f.data.len() as u32) + f.data.len()
}

/// Writes an unknown tagged field back as it came.
pub fn write_raw_tagged<W: Writer + ?Sized>(w: &mut W, f: &RawTaggedField) {
    write_uvarint(w, f.tag);
    write_uvarint(w, f.data.len() as u32);
    w.put_shared(&f.data);
}

/// Unknown tagged fields in ascending tag order, as they must be written.
pub fn sorted_unknown(fields: &[RawTaggedField]) -> Vec<&RawTaggedField> {
    let mut v: Vec<&RawTaggedField> = fields.iter().collect();
    v.sort_by_key(|f| f.tag);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uvarint_round_trip_and_sizes() {
        for v in [
            0u32,
            1,
            127,
            128,
            16383,
            16384,
            2_097_151,
            2_097_152,
            u32::MAX,
        ] {
            let mut b = BytesMut::new();
            write_uvarint(&mut b, v);
            assert_eq!(b.len(), uvarint_len(v), "{v}");
            let mut r = b.freeze();
            assert_eq!(read_uvarint(&mut r).unwrap(), v);
            assert!(r.is_empty());
        }
    }

    #[test]
    fn overlong_varint_is_an_error() {
        let mut r = Bytes::from_static(&[0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
        assert_eq!(read_uvarint(&mut r), Err(DecodeError::VarintTooLong));
    }

    #[test]
    fn huge_length_prefix_is_rejected_without_allocating() {
        let mut r = Bytes::from_static(&[0x7f, 0xff, 0xff, 0xff, 1, 2]);
        assert!(matches!(
            read_nullable_bytes(&mut r, false),
            Err(DecodeError::LengthExceedsBuffer {
                length: 2147483647,
                remaining: 2
            })
        ));
        let mut r = Bytes::from_static(&[0x7f, 0xff, 0xff, 0xff]);
        assert!(read_array_len(&mut r, false).is_err());
    }

    #[test]
    fn chain_writer_shares_large_buffers() {
        let big = Bytes::from(vec![7u8; ZERO_COPY_MIN_BYTES * 2]);
        let mut w = ChainWriter::default();
        w.put_i32(5);
        write_bytes(&mut w, &big, false).unwrap();
        w.put_i8(1);
        let chunks = w.finish();
        assert_eq!(chunks.len(), 3);
        let Chunk::Bytes(shared) = &chunks[1] else {
            panic!("bytes stay bytes")
        };
        assert_eq!(
            shared.as_ptr(),
            big.as_ptr(),
            "records must be referenced, not copied"
        );
    }

    #[test]
    fn chain_writer_refers_to_file_slices_and_contiguous_writers_read_them() {
        let dir = std::env::temp_dir().join(format!("fjord-codec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("segment");
        std::fs::write(&path, b"xxrecordsxx").unwrap();
        let file = std::sync::Arc::new(std::fs::File::open(&path).unwrap());
        let records = Records::File(FileSlice::new(file, 2, 7));
        let mut w = ChainWriter::default();
        w.put_i32(5);
        write_records(&mut w, &records, false).unwrap();
        let chunks = w.finish();
        assert!(matches!(&chunks[1], Chunk::File(f) if f.position() == 2 && f.len() == 7));
        let mut flat = BytesMut::new();
        write_records(&mut flat, &records, true).unwrap();
        assert_eq!(&flat[..], b"\x08records");
        assert_eq!(records_len(&records, true), flat.len());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
