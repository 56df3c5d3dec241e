//! fjord-util: the small utilities that belong to no one concept: the wall and monotonic
//! clocks, Java's properties format, Kafka's base64 text for UUIDs, and replacing a file
//! atomically. It depends on nothing of fjord's, so any crate may use it.

pub mod atomic_file;
pub mod clock;
pub mod properties;
pub mod uuid_text;

pub use clock::{monotonic_ms, system_now_ms};
