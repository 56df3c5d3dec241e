//! The broker's place in the cluster.
//!
//! - [`view`]: the metadata image the loader publishes, with its delta.
//! - [`lifecycle`]: registration, heartbeats, fencing and controlled shutdown.
//! - [`controller_client`]: the connection to the active controller.
//! - [`peers`]: connections to other brokers on the inter-broker listener.

pub(crate) mod controller_client;
pub(crate) mod lifecycle;
pub(crate) mod peers;
pub(crate) mod view;
