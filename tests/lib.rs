//! Shared helpers for fjord integration tests against real Kafka clients.
