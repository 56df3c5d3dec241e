//! Tiered storage (KIP-405): closed segments of a topic with `remote.storage.enable` are copied
//! to an object store, local retention then removes them from disk, and reads below the local
//! log start are served from the store.
//!
//! - [`records`]: the values of `__remote_log_metadata`, in Kafka's layout.
//! - [`rlmm`]: their fold, what every partition has in the store (sans-IO).
//! - [`plan`]: the copy and retention decisions (pure functions).
//! - [`store`]: the object store (a local directory, the embedded default, or S3) and the
//!   names of a segment's objects in it.

pub mod error;
pub mod manager;
pub mod plan;
pub mod records;
pub mod rlmm;
pub mod store;

pub use error::{Result, TieredError};
