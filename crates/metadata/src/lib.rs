//! fjord-metadata: the cluster's metadata as Kafka's KRaft keeps it. Metadata records (the
//! controller's decisions, as they appear in `__cluster_metadata`) are folded in log order into
//! an immutable [`MetadataImage`]; each batch also yields the [`Changes`] it caused, so brokers
//! react to what changed instead of rescanning. A snapshot writes the image back as records
//! that replay to the identical image. A pure fold: no runtime, socket or file of its own (the
//! loader that folds the committed stream of the metadata log lives with the Raft driver,
//! `fjord_kraft::loader`, and publishes a [`view::View`]).

pub mod acls;
pub mod authorization;
pub mod client_metrics;
pub mod config_defs;
pub mod config_docs;
pub mod delegation_tokens;
pub mod delta;
pub mod error;
pub mod group_configs;
pub mod image;
pub mod names;
pub mod partition;
pub mod placement;
pub mod quotas;
pub mod record_serde;
pub mod replay;
pub mod scram;
pub mod snapshot;
pub mod version;
pub mod view;

pub use delta::MetadataDelta;
pub use error::MetadataError;
pub use image::{
    BrokerRegistration, ClusterImage, ConfigResource, ControllerRegistration, FeaturesImage,
    Listener, MetadataImage, TopicImage, TopicsImage,
};
pub use partition::{LeaderRecoveryState, PartitionRegistration};
pub use replay::{ApplyError, Changes};
