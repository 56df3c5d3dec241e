//! `metadata.version` levels: the range this build supports and the levels at which features
//! appear, so that every node agrees on what the finalized level allows.

/// The lowest `metadata.version` level this build supports (Kafka 3.3-IV3).
pub const METADATA_VERSION_MIN: i16 = 7;
/// The newest `metadata.version` level this build supports.
pub const METADATA_VERSION_LATEST: i16 = 29;
/// The first `metadata.version` with UnregisterControllerRecord (KIP-1312).
pub const METADATA_VERSION_UNREGISTER_CONTROLLER: i16 = 28;
