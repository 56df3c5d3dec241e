//! Streams groups (KIP-1071): Kafka Streams applications whose tasks the broker assigns.
//! `assignor` is Kafka 4.4's `sticky` task assignor; `refine` turns its target into the
//! assignment members converge to, with warm-up tasks where state must be restored first;
//! `topology` configures a topology against the topics (internal topics, statuses).

pub mod assignor;
pub mod convert;
pub mod coordinator;
pub mod describe;
pub mod reconcile;
pub mod records;
pub mod refine;
pub mod topology;
pub mod validate;
