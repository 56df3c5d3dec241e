//! A node's view of the cluster metadata: the image the loader in `crates/metadata` publishes.

pub use fjord_metadata::view::View;
