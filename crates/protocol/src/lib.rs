//! fjord-protocol: the Kafka wire protocol. Generated messages (from `schemas/` by
//! fjord-codegen), API keys and version ranges, request/response headers, the length-prefixed
//! frame codec, record batches v2 with their compression codecs, and the error-code table.

pub mod acl;
pub mod codec;
pub mod consumer_protocol;
pub mod coordinator;
pub mod error;
pub mod error_codes;
pub mod error_response;
pub mod frame;
pub mod header;
pub mod nulls;
pub mod payload;
pub mod records;
#[cfg(feature = "sample")]
pub mod sample;

/// Generated message types, one module per spec file.
#[rustfmt::skip]
#[allow(clippy::all, clippy::pedantic, unused_parens, unused_variables, unused_mut, unused_comparisons)]
pub mod generated;

pub use codec::{ChainWriter, RawTaggedField, Writer};
pub use error::{DecodeError, EncodeError};
pub use error_codes::ErrorCode;
pub use error_response::error_response;
pub use generated::api::{ApiKey, RequestBody, ResponseBody};
pub use generated::metadata_record::MetadataRecord;
pub use payload::{Chunk, FileSlice, Records};
pub use uuid::Uuid;
