//! A node's view of the cluster metadata: the committed image, how far it is applied, and the
//! publication it came in (whose journal says what changed since earlier ones), as the image
//! loader (`fjord_kraft::loader`) publishes it for the broker's answers and the active
//! controller.

use crate::delta::{Cursor, MetadataDelta, Publication};
use crate::MetadataImage;
use std::sync::Arc;

/// A node's view of the cluster metadata, as the loader publishes it.
#[derive(Debug, Clone)]
pub struct View {
    /// The committed image.
    pub image: Arc<MetadataImage>,
    /// Everything committed below this offset is applied.
    pub applied_up_to: i64,
    /// The publication this view is: what changed since earlier ones.
    pub publication: Publication,
}

impl View {
    /// A view of `image` with no history (its first follower sees a full delta).
    pub fn new(image: Arc<MetadataImage>, applied_up_to: i64) -> View {
        View {
            image,
            applied_up_to,
            publication: Publication::default(),
        }
    }

    /// What changed since `cursor` last followed this publisher (which it now has).
    pub fn delta(&self, cursor: &mut Cursor) -> MetadataDelta {
        cursor.advance(&self.publication)
    }
}
