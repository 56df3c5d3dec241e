//! The data plane: Produce and Fetch and what they wait on.
//!
//! - [`produce`]: validation and leader appends, acks=all waits, transaction verification.
//! - [`fetch`] and [`fetch_session`]: reads up to the high watermark or last stable offset,
//!   incremental sessions (KIP-227).
//! - [`delayed`]: long-polling fetches and acks=all produces parked per partition.
//! - [`inline_io`]: which log work runs on the async worker and which on the blocking pool.
//! - [`quotas`]: the client byte-rate and request-time quotas and their throttles.

pub(crate) mod delayed;
pub(crate) mod fetch;
pub(crate) mod fetch_session;
pub(crate) mod inline_io;
pub(crate) mod produce;
pub(crate) mod quotas;
