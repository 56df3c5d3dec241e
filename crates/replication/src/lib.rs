//! fjord-replication: the rules of partition replication as a sans-IO core, so that they can
//! be run with a seed in a simulation and driven by a thin broker driver alike.
//!
//! - [`leader`]: the leader's view of one partition: each follower's log end offset and when
//!   it last caught up, the ISR with Kafka's pending-change rules (a proposed ISR counts as
//!   the larger of the two sets until the controller answers), ISR shrink after
//!   `replica.lag.time.max.ms` and expansion once a follower reaches the high watermark and
//!   the leader's epoch, the high watermark (the smallest log end offset in the maximal ISR,
//!   advanced only while the ISR has at least the effective min ISR, KIP-966, never moved
//!   back), and when an acks=all append is answered.
//! - [`follower`]: where a follower truncates given the leader's diverging epoch (KIP-320),
//!   and the same worked out on paper for a follower of a newly elected leader.
//! - [`recovery`]: unclean recovery's choice of replica and what it costs.
//!
//! Events in (appends, follower fetches, clock ticks, the controller's answers, image
//! changes), effects out (a high watermark to publish, an ISR to propose); no I/O, no clock.

pub mod follower;
pub mod leader;
pub mod recovery;

pub use follower::{truncation_offset, Truncation};
pub use leader::{AckState, Effects, Leader, PartitionState, ProposedIsr, Seen};
