//! fjord-util: the small utilities that belong to no one concept: the wall and monotonic
//! clocks, Java's properties format, Kafka's base64 text for UUIDs, replacing a file
//! atomically, and the seeded random sequence of the simulations. It depends on nothing of
//! fjord's, so any crate may use it.

pub mod atomic_file;
pub mod clock;
pub mod murmur2;
pub mod properties;
pub mod sim_rng;
pub mod tasks;
pub mod uuid_text;

pub use clock::{monotonic_ms, system_now_ms, Clock, Hand};
pub use sim_rng::SimRng;

/// Declares an error that is one message (a malformed file, argument or certificate): it
/// displays as its text, and derefs to it.
#[macro_export]
macro_rules! message_error {
    ($(#[$doc:meta])* pub struct $name:ident;) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $name(pub String);

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl std::error::Error for $name {}

        impl std::ops::Deref for $name {
            type Target = str;

            /// The message.
            fn deref(&self) -> &str {
                &self.0
            }
        }
    };
}
