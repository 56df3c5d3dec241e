//! The object store behind tiered storage: a local directory (the embedded default, so a
//! single node tiers with no other service) or any S3-compatible service, both through the
//! `object_store` crate, and the names of a segment's objects in it.
//!
//! Layout (fjord's; Kafka leaves it to the storage plugin): below an optional key prefix,
//! `{topic}-{partition}-{topic id}/{start offset, 20 digits}-{segment id}.{suffix}`, one object
//! per file of the segment (`log`, `index`, `timeindex`, `txnindex`, `snapshot`,
//! `leader-epoch-checkpoint`). Every object is written whole or not at all (S3's PUT and
//! multipart completion; a staged file renamed into place on a local directory), and a
//! segment is read only once `__remote_log_metadata` says its copy finished, so a half-written
//! upload is never visible.

use crate::error::{Result, TieredError};
use crate::records::{RemoteSegmentId, TopicIdPartition};
use bytes::Bytes;
use futures_util::StreamExt;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The bytes read from a local file per write to the store when copying a segment.
pub const UPLOAD_CHUNK_BYTES: usize = 8 * 1024 * 1024;
/// How long one request to the store may take before it is retried or fails.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How many times a failed request to the store is retried before the operation fails (the
/// remote log manager's own backoff takes over from there).
pub const REQUEST_RETRIES: usize = 2;

/// One file of a segment in the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// The records (`.log`).
    Log,
    /// The offset index.
    OffsetIndex,
    /// The time index.
    TimeIndex,
    /// The aborted transactions.
    TxnIndex,
    /// The producer state at the segment's end.
    ProducerSnapshot,
    /// The leader epochs up to the segment's end.
    LeaderEpochs,
}

impl FileKind {
    /// Every kind, the log last (so a listing that shows the log shows a whole copy).
    pub const ALL: [FileKind; 6] = [
        FileKind::OffsetIndex,
        FileKind::TimeIndex,
        FileKind::TxnIndex,
        FileKind::ProducerSnapshot,
        FileKind::LeaderEpochs,
        FileKind::Log,
    ];

    /// The object name's suffix.
    pub fn suffix(self) -> &'static str {
        match self {
            FileKind::Log => "log",
            FileKind::OffsetIndex => "index",
            FileKind::TimeIndex => "timeindex",
            FileKind::TxnIndex => "txnindex",
            FileKind::ProducerSnapshot => "snapshot",
            FileKind::LeaderEpochs => "leader-epoch-checkpoint",
        }
    }
}

/// Where the store is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backend {
    /// A directory on this machine (shared by every node that reads the same topics).
    Local {
        /// The directory.
        root: PathBuf,
    },
    /// An S3-compatible service.
    S3(S3Settings),
}

/// An S3-compatible service.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct S3Settings {
    /// The bucket.
    pub bucket: String,
    /// The service's URL (none: AWS's for the region).
    pub endpoint: Option<String>,
    /// The region.
    pub region: String,
    /// Path-style addressing (`endpoint/bucket/key`), as most S3-compatible servers need.
    pub path_style: bool,
    /// The access key (none: `AWS_ACCESS_KEY_ID` from the environment).
    pub access_key_id: Option<String>,
    /// The secret key (none: `AWS_SECRET_ACCESS_KEY` from the environment).
    pub secret_access_key: Option<String>,
}

/// A file to copy: on disk (streamed) or in memory.
#[derive(Debug, Clone)]
pub enum SegmentFile {
    /// A file on disk.
    Path(PathBuf),
    /// Bytes in memory.
    Bytes(Bytes),
}

/// The object store with fjord's layout.
#[derive(Debug, Clone)]
pub struct RemoteStore {
    inner: Arc<dyn ObjectStore>,
    prefix: String,
    describe: String,
}

fn store_err(e: object_store::Error) -> TieredError {
    match e {
        object_store::Error::NotFound { path, .. } => TieredError::NotFound(path),
        e => TieredError::Store(e.to_string()),
    }
}

impl RemoteStore {
    /// Opens the store (no request is made: an unreachable store shows on first use).
    pub fn open(backend: &Backend, prefix: &str) -> Result<Self> {
        let retry = object_store::RetryConfig {
            max_retries: REQUEST_RETRIES,
            retry_timeout: REQUEST_TIMEOUT,
            ..Default::default()
        };
        let (inner, describe): (Arc<dyn ObjectStore>, String) = match backend {
            Backend::Local { root } => {
                std::fs::create_dir_all(root).map_err(|source| TieredError::Io {
                    path: root.display().to_string(),
                    source,
                })?;
                let fs = object_store::local::LocalFileSystem::new_with_prefix(root)
                    .map_err(store_err)?;
                (Arc::new(fs), format!("directory {}", root.display()))
            }
            Backend::S3(s) => {
                if s.bucket.is_empty() {
                    return Err(TieredError::Config("the S3 bucket is not set".into()));
                }
                let mut b = object_store::aws::AmazonS3Builder::from_env()
                    .with_bucket_name(&s.bucket)
                    .with_region(&s.region)
                    .with_virtual_hosted_style_request(!s.path_style)
                    .with_retry(retry)
                    .with_client_options(
                        object_store::ClientOptions::new()
                            .with_timeout(REQUEST_TIMEOUT)
                            .with_connect_timeout(Duration::from_secs(5))
                            .with_allow_http(true),
                    );
                if let Some(e) = &s.endpoint {
                    b = b.with_endpoint(e);
                }
                if let Some(k) = &s.access_key_id {
                    b = b.with_access_key_id(k);
                }
                if let Some(k) = &s.secret_access_key {
                    b = b.with_secret_access_key(k);
                }
                let s3 = b.build().map_err(|e| TieredError::Config(e.to_string()))?;
                let at = s.endpoint.as_deref().unwrap_or("AWS");
                (Arc::new(s3), format!("S3 bucket {} at {at}", s.bucket))
            }
        };
        Ok(RemoteStore {
            inner,
            prefix: prefix.trim_matches('/').to_string(),
            describe,
        })
    }

    /// The store in words, for log lines.
    pub fn describe(&self) -> &str {
        &self.describe
    }

    /// The folder of a partition's objects.
    pub fn partition_folder(&self, tp: &TopicIdPartition) -> String {
        let folder = format!("{}-{}-{}", tp.topic, tp.partition, tp.topic_id);
        if self.prefix.is_empty() {
            folder
        } else {
            format!("{}/{folder}", self.prefix)
        }
    }

    /// The name of one file of a segment.
    pub fn object_name(&self, seg: &RemoteSegmentId, start_offset: i64, kind: FileKind) -> String {
        format!(
            "{}/{start_offset:020}-{}.{}",
            self.partition_folder(&seg.tp),
            seg.id,
            kind.suffix()
        )
    }

    fn path(&self, seg: &RemoteSegmentId, start_offset: i64, kind: FileKind) -> ObjectPath {
        ObjectPath::from(self.object_name(seg, start_offset, kind))
    }

    /// Copies a segment's files; returns the bytes written. A failure leaves no object half
    /// written (each is whole or absent), but may leave some of the files: the caller deletes
    /// the segment, or a later sweep does.
    pub async fn copy_segment(
        &self,
        seg: &RemoteSegmentId,
        start_offset: i64,
        files: Vec<(FileKind, SegmentFile)>,
    ) -> Result<u64> {
        let mut ordered = files;
        ordered.sort_by_key(|(k, _)| FileKind::ALL.iter().position(|x| x == k));
        let mut total = 0;
        for (kind, file) in ordered {
            let path = self.path(seg, start_offset, kind);
            total += match file {
                SegmentFile::Bytes(b) => {
                    let n = b.len() as u64;
                    self.inner
                        .put(&path, PutPayload::from(b))
                        .await
                        .map_err(store_err)?;
                    n
                }
                SegmentFile::Path(p) => self.upload_file(&path, &p).await?,
            };
        }
        Ok(total)
    }

    async fn upload_file(&self, to: &ObjectPath, from: &std::path::Path) -> Result<u64> {
        let io = |source| TieredError::Io {
            path: from.display().to_string(),
            source,
        };
        let mut file = tokio::fs::File::open(from).await.map_err(io)?;
        let len = file.metadata().await.map_err(io)?.len();
        if len as usize <= UPLOAD_CHUNK_BYTES {
            let mut buf = Vec::with_capacity(len as usize);
            file.read_to_end(&mut buf).await.map_err(io)?;
            let n = buf.len() as u64;
            self.inner
                .put(to, PutPayload::from(buf))
                .await
                .map_err(store_err)?;
            return Ok(n);
        }
        let mut w = object_store::buffered::BufWriter::with_capacity(
            self.inner.clone(),
            to.clone(),
            UPLOAD_CHUNK_BYTES,
        );
        let mut buf = vec![0u8; UPLOAD_CHUNK_BYTES];
        let mut n = 0u64;
        loop {
            let read = match file.read(&mut buf).await {
                Ok(0) => break,
                Ok(r) => r,
                Err(e) => {
                    let _ = w.abort().await;
                    return Err(io(e));
                }
            };
            if let Err(e) = w.write_all(&buf[..read]).await {
                let _ = w.abort().await;
                return Err(TieredError::Store(e.to_string()));
            }
            n += read as u64;
        }
        w.shutdown()
            .await
            .map_err(|e| TieredError::Store(e.to_string()))?;
        Ok(n)
    }

    /// Reads one file of a segment, or the byte range `range` of it.
    pub async fn fetch(
        &self,
        seg: &RemoteSegmentId,
        start_offset: i64,
        kind: FileKind,
        range: Option<Range<u64>>,
    ) -> Result<Bytes> {
        let path = self.path(seg, start_offset, kind);
        match range {
            Some(r) => self.inner.get_range(&path, r).await.map_err(store_err),
            None => self
                .inner
                .get(&path)
                .await
                .map_err(store_err)?
                .bytes()
                .await
                .map_err(store_err),
        }
    }

    /// Deletes every file of a segment (absent ones are fine).
    pub async fn delete_segment(&self, seg: &RemoteSegmentId, start_offset: i64) -> Result<()> {
        for kind in FileKind::ALL {
            match self.inner.delete(&self.path(seg, start_offset, kind)).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
                Err(e) => return Err(store_err(e)),
            }
        }
        Ok(())
    }

    /// Every object of a partition: its name, size and the segment id and start offset its
    /// name carries (for the sweep that removes what no metadata names).
    pub async fn list_partition(&self, tp: &TopicIdPartition) -> Result<Vec<StoredObject>> {
        let folder = ObjectPath::from(self.partition_folder(tp));
        let mut out = Vec::new();
        let mut s = self.inner.list(Some(&folder));
        while let Some(meta) = s.next().await {
            let meta = meta.map_err(store_err)?;
            let name = meta.location.filename().unwrap_or_default().to_string();
            let parsed = parse_object_name(&name);
            out.push(StoredObject {
                name: meta.location.to_string(),
                size: meta.size,
                segment: parsed,
                modified_ms: meta.last_modified.timestamp_millis(),
            });
        }
        Ok(out)
    }
}

/// One object the store holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredObject {
    /// Its full name.
    pub name: String,
    /// Its size.
    pub size: u64,
    /// The start offset and segment id its name carries, if it is one of fjord's.
    pub segment: Option<(i64, uuid::Uuid)>,
    /// When it was last written (ms since the epoch).
    pub modified_ms: i64,
}

fn parse_object_name(name: &str) -> Option<(i64, uuid::Uuid)> {
    let (stem, _) = name.split_once('.')?;
    let (start, id) = stem.split_once('-')?;
    Some((start.parse().ok()?, id.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

    fn seg() -> RemoteSegmentId {
        RemoteSegmentId {
            tp: TopicIdPartition {
                topic_id: Uuid::from_u128(5),
                topic: "orders".into(),
                partition: 2,
            },
            id: Uuid::from_u128(9),
        }
    }

    #[tokio::test]
    async fn a_local_directory_holds_copies_reads_ranges_and_deletes() {
        let dir = tempfile::tempdir().unwrap();
        let store = RemoteStore::open(
            &Backend::Local {
                root: dir.path().join("store"),
            },
            "fj",
        )
        .unwrap();
        let log = dir.path().join("0.log");
        // Larger than one chunk, so the multipart path runs.
        let big: Vec<u8> = (0..UPLOAD_CHUNK_BYTES + 12345)
            .map(|i| (i % 251) as u8)
            .collect();
        std::fs::write(&log, &big).unwrap();
        let n = store
            .copy_segment(
                &seg(),
                100,
                vec![
                    (FileKind::Log, SegmentFile::Path(log)),
                    (
                        FileKind::OffsetIndex,
                        SegmentFile::Bytes(Bytes::from_static(b"idx")),
                    ),
                ],
            )
            .await
            .unwrap();
        assert_eq!(n, big.len() as u64 + 3);
        let got = store
            .fetch(&seg(), 100, FileKind::Log, Some(10..20))
            .await
            .unwrap();
        assert_eq!(&got[..], &big[10..20]);
        let idx = store
            .fetch(&seg(), 100, FileKind::OffsetIndex, None)
            .await
            .unwrap();
        assert_eq!(&idx[..], b"idx");
        let listed = store.list_partition(&seg().tp).await.unwrap();
        assert_eq!(listed.len(), 2);
        assert!(listed.iter().all(|o| o.segment == Some((100, seg().id))));
        assert!(store
            .object_name(&seg(), 100, FileKind::Log)
            .starts_with("fj/orders-2-00000000-0000-0000-0000-000000000005/00000000000000000100-"));
        store.delete_segment(&seg(), 100).await.unwrap();
        assert!(matches!(
            store.fetch(&seg(), 100, FileKind::Log, None).await,
            Err(TieredError::NotFound(_))
        ));
        assert!(store.list_partition(&seg().tp).await.unwrap().is_empty());
    }
}
