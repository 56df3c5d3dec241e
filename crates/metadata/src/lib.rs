//! fjord-metadata: the cluster's metadata as Kafka's KRaft keeps it. Metadata records (the
//! controller's decisions, as they appear in `__cluster_metadata`) are folded in log order into
//! an immutable [`MetadataImage`]; each batch also yields the [`Changes`] it caused, so brokers
//! react to what changed instead of rescanning. A snapshot writes the image back as records
//! that replay to the identical image. The [`loader`] folds the committed stream of the
//! metadata log into the image every node publishes.

pub mod acls;
pub mod authorization;
pub mod config_defs;
pub mod image;
pub mod loader;
pub mod names;
pub mod partition;
pub mod record_serde;
pub mod replay;
pub mod scram;
pub mod snapshot;
pub mod version;

pub use image::{
    BrokerRegistration, ClusterImage, ConfigResource, ControllerRegistration, FeaturesImage,
    Listener, MetadataImage, TopicImage, TopicsImage,
};
pub use partition::{LeaderRecoveryState, PartitionRegistration};
pub use replay::{ApplyError, Changes};
