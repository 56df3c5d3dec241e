//! fjord-broker: the broker role. Its view of the cluster (the metadata image every node folds
//! from the metadata log), the broker listener (ApiVersions, Metadata and DescribeCluster
//! answered from that view; controller-bound admin requests forwarded to the active
//! controller), and its standing with the controller (registration, heartbeats, controlled
//! shutdown). Produce and Fetch arrive with the data plane.

pub mod controller_client;
pub mod lifecycle;
pub mod listener;
pub mod metadata;
pub mod view;

pub use view::View;
