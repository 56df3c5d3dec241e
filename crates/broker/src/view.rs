//! A node's view of the cluster metadata, as its metadata loop publishes it.

use fjord_metadata::MetadataImage;
use std::sync::Arc;

/// The image and the offset it has applied everything below.
#[derive(Debug, Clone)]
pub struct View {
    /// The committed image.
    pub image: Arc<MetadataImage>,
    /// Everything committed below this offset is applied.
    pub applied_up_to: i64,
}
