//! Record data as messages carry it (`records` fields) and as frames leave a node: bytes in
//! memory, or a slice of a log segment file. A fetch answers with file slices, and the
//! transport hands them to the kernel with sendfile(2), so record data goes from the page
//! cache to the socket without a copy in user space (as Kafka's `FileRecords.writeTo`).

use bytes::Bytes;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::Arc;

/// A byte range of an open file (a log segment), shared cheaply.
#[derive(Debug, Clone)]
pub struct FileSlice {
    file: Arc<File>,
    position: u64,
    len: usize,
}

impl FileSlice {
    /// The `len` bytes of `file` from `position`.
    pub fn new(file: Arc<File>, position: u64, len: usize) -> FileSlice {
        FileSlice {
            file,
            position,
            len,
        }
    }

    /// The file.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// Where the slice starts in the file.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// The slice's length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the slice is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Copies the slice into memory (for writers that cannot send a file: tests, tools). Fails
    /// when the file no longer holds the whole range (a segment truncated since the read).
    pub fn read(&self) -> std::io::Result<Bytes> {
        let mut buf = vec![0u8; self.len];
        self.file.read_exact_at(&mut buf, self.position)?;
        Ok(Bytes::from(buf))
    }
}

/// The value of a `records` field.
#[derive(Debug, Clone)]
pub enum Records {
    /// Bytes in memory (every decoded message, every request).
    Memory(Bytes),
    /// A slice of a segment file, sent without passing through user space.
    File(FileSlice),
}

impl Records {
    /// The length in bytes.
    pub fn len(&self) -> usize {
        match self {
            Records::Memory(b) => b.len(),
            Records::File(f) => f.len(),
        }
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes, when they are in memory.
    pub fn memory(&self) -> Option<&Bytes> {
        match self {
            Records::Memory(b) => Some(b),
            Records::File(_) => None,
        }
    }

    /// The bytes, read from the file when they are a slice of one.
    pub fn into_bytes(self) -> std::io::Result<Bytes> {
        match self {
            Records::Memory(b) => Ok(b),
            Records::File(f) => f.read(),
        }
    }

    /// The bytes, read from the file when they are a slice of one.
    pub fn to_bytes(&self) -> std::io::Result<Bytes> {
        match self {
            Records::Memory(b) => Ok(b.clone()),
            Records::File(f) => f.read(),
        }
    }
}

impl Default for Records {
    fn default() -> Records {
        Records::Memory(Bytes::new())
    }
}

impl From<Bytes> for Records {
    fn from(b: Bytes) -> Records {
        Records::Memory(b)
    }
}

impl From<Vec<u8>> for Records {
    fn from(b: Vec<u8>) -> Records {
        Records::Memory(Bytes::from(b))
    }
}

impl PartialEq for Records {
    /// Bytes equal bytes; a file slice equals only a slice of the same open file and range.
    fn eq(&self, other: &Records) -> bool {
        match (self, other) {
            (Records::Memory(a), Records::Memory(b)) => a == b,
            (Records::File(a), Records::File(b)) => {
                Arc::ptr_eq(&a.file, &b.file) && a.position == b.position && a.len == b.len
            }
            _ => false,
        }
    }
}

/// One piece of an encoded frame, ready for the socket.
#[derive(Debug, Clone)]
pub enum Chunk {
    /// Bytes in memory, written with vectored writes.
    Bytes(Bytes),
    /// A file slice, sent with sendfile(2).
    File(FileSlice),
}

impl Chunk {
    /// The length in bytes.
    pub fn len(&self) -> usize {
        match self {
            Chunk::Bytes(b) => b.len(),
            Chunk::File(f) => f.len(),
        }
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The whole frame in one buffer, reading file slices (tests and tools; the transport sends
/// file slices without reading them).
pub fn concat(chunks: &[Chunk]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(chunks.iter().map(Chunk::len).sum());
    for c in chunks {
        match c {
            Chunk::Bytes(b) => out.extend_from_slice(b),
            Chunk::File(f) => out.extend_from_slice(&f.read()?),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_file_slice_reads_its_range_and_fails_when_the_file_shrank() {
        let dir = std::env::temp_dir().join(format!("fjord-payload-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("slice");
        let mut f = File::create(&path).unwrap();
        f.write_all(b"0123456789").unwrap();
        let file = Arc::new(File::open(&path).unwrap());
        let slice = FileSlice::new(file.clone(), 3, 4);
        assert_eq!(&slice.read().unwrap()[..], b"3456");
        let chunks = [
            Chunk::Bytes(Bytes::from_static(b"ab")),
            Chunk::File(slice.clone()),
        ];
        assert_eq!(concat(&chunks).unwrap(), b"ab3456");
        assert_eq!(
            Records::File(slice.clone()),
            Records::File(FileSlice::new(file, 3, 4))
        );
        f.set_len(5).unwrap();
        assert!(slice.read().is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
