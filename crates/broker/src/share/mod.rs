//! Share groups (KIP-932) on a broker.
//!
//! - [`fetch`]: ShareFetch and ShareAcknowledge on a partition leader (sessions, record locks).
//! - [`persister`]: how leaders and the group coordinator reach the share coordinator.
//! - [`coordinator`]: the share coordinator over `__share_group_state`.
//! - [`offsets`]: describing, altering and deleting a share group's offsets.
//! - [`dlq`]: dead-letter queues (KIP-1191).

pub(crate) mod coordinator;
pub(crate) mod dlq;
pub(crate) mod fetch;
pub(crate) mod offsets;
pub(crate) mod persister;
