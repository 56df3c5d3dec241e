//! Typed codec errors. Each maps to the Kafka error code a server answers with.

use crate::error_codes::ErrorCode;

/// Why bytes could not be decoded into a message, header, frame or record batch.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The buffer ended before the value did.
    #[error("truncated: needed {needed} bytes, {remaining} remain")]
    Truncated {
        /// Bytes the value needed.
        needed: usize,
        /// Bytes that were left.
        remaining: usize,
    },
    /// A negative length other than -1 (null).
    #[error("invalid length {0}")]
    InvalidLength(i64),
    /// A length prefix larger than the bytes that follow it.
    #[error("length {length} exceeds the {remaining} bytes remaining")]
    LengthExceedsBuffer {
        /// The length read.
        length: usize,
        /// Bytes that were left.
        remaining: usize,
    },
    /// A varint longer than its type allows.
    #[error("varint too long")]
    VarintTooLong,
    /// A string that is not UTF-8.
    #[error("string is not valid UTF-8")]
    InvalidUtf8,
    /// Null where this version does not allow it.
    #[error("field {field} is null but not nullable in this version")]
    UnexpectedNull {
        /// The field.
        field: &'static str,
    },
    /// A known tagged field whose value did not fill exactly the size its header gave.
    #[error("tagged field {tag} has the wrong size")]
    TaggedFieldSize {
        /// The tag.
        tag: u32,
    },
    /// A tagged field whose tag is not above the previous one in its section.
    #[error("tagged field {tag} is out of order or repeated")]
    TaggedFieldOrder {
        /// The tag.
        tag: u32,
    },
    /// A version the message does not have.
    #[error("{message} has no version {version}")]
    UnsupportedVersion {
        /// The message.
        message: &'static str,
        /// The version asked for.
        version: i16,
    },
    /// An API key this build does not know.
    #[error("unknown api key {0}")]
    UnknownApiKey(i16),
    /// A frame larger than the configured maximum.
    #[error("frame of {size} bytes exceeds the maximum of {max}")]
    FrameTooLarge {
        /// The size the frame announced.
        size: i64,
        /// The configured maximum (`socket.request.max.bytes`).
        max: usize,
    },
    /// A record batch that is malformed (bad magic, CRC, sizes or records).
    #[error("corrupt record batch: {0}")]
    CorruptRecords(String),
    /// A compression codec this build cannot handle, or data it could not decompress.
    #[error("compression: {0}")]
    Compression(String),
}

impl DecodeError {
    /// The Kafka error code a server answers with for this failure.
    pub fn error_code(&self) -> ErrorCode {
        match self {
            DecodeError::UnsupportedVersion { .. } | DecodeError::UnknownApiKey(_) => {
                ErrorCode::UnsupportedVersion
            }
            DecodeError::FrameTooLarge { .. } => ErrorCode::InvalidRequest,
            DecodeError::CorruptRecords(_) | DecodeError::Compression(_) => {
                ErrorCode::CorruptMessage
            }
            _ => ErrorCode::InvalidRequest,
        }
    }
}

/// Why a value could not be encoded at the version asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// A version the message does not have.
    #[error("{message} has no version {version}")]
    UnsupportedVersion {
        /// The message.
        message: &'static str,
        /// The version asked for.
        version: i16,
    },
    /// A non-default value in a field this version cannot carry.
    #[error("field {field} cannot carry a non-default value at version {version}")]
    FieldNotInVersion {
        /// The field.
        field: &'static str,
        /// The version.
        version: i16,
    },
    /// Null in a field this version cannot carry null in.
    #[error("field {field} cannot be null at version {version}")]
    NullNotAllowed {
        /// The field.
        field: &'static str,
        /// The version.
        version: i16,
    },
    /// Unknown tagged fields at a version without tagged fields.
    #[error("tagged fields were set, but version {version} does not support them")]
    TaggedFieldsNotInVersion {
        /// The version.
        version: i16,
    },
    /// A string, byte string or array longer than its length prefix can say.
    #[error("value of {len} bytes or items is too long for its length prefix")]
    TooLong {
        /// Its length.
        len: usize,
    },
    /// A record batch that could not be built (compression failed).
    #[error("record batch: {0}")]
    Records(String),
    /// Record data in a file that could not be read back (a writer without file support).
    #[error("record data could not be read from its segment: {0}")]
    RecordsUnreadable(String),
}

impl EncodeError {
    /// The Kafka error code that describes this failure.
    pub fn error_code(&self) -> ErrorCode {
        match self {
            EncodeError::UnsupportedVersion { .. }
            | EncodeError::FieldNotInVersion { .. }
            | EncodeError::TaggedFieldsNotInVersion { .. } => ErrorCode::UnsupportedVersion,
            _ => ErrorCode::UnknownServerError,
        }
    }
}
