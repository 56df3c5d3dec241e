//! A node's view of the cluster metadata: the committed image and how far it is applied, as
//! the image loader (`fjord_kraft::loader`) publishes it for the broker's answers and the
//! active controller.

use crate::MetadataImage;
use std::sync::Arc;

/// A node's view of the cluster metadata, as the loader publishes it.
#[derive(Debug, Clone)]
pub struct View {
    /// The committed image.
    pub image: Arc<MetadataImage>,
    /// Everything committed below this offset is applied.
    pub applied_up_to: i64,
}
