//! Record batches v2 (magic 2): a zero-copy view over `Bytes`, record iteration, a builder and
//! the compression codecs. See Kafka's "Record Batch" format in its implementation guide.

pub mod batch;
pub mod builder;
pub mod compression;
pub mod marker;
pub mod record;
pub mod varint;

pub use batch::{RecordBatch, RecordBatches, TimestampType, BATCH_HEADER_LEN};
pub use builder::RecordBatchBuilder;
pub use compression::{Compression, MAX_DECOMPRESSED_BATCH_BYTES};
pub use marker::EndTxnMarker;
pub use record::{ControlRecordType, Record, RecordHeader, Records};
