//! Client telemetry (KIP-714) on the broker: the client-metrics subscriptions
//! ([`subscription`]), the manager that answers GetTelemetrySubscriptions and PushTelemetry
//! ([`manager`], sans-IO), the OTLP payload ([`otlp`]) and the bounded series the pushed
//! metrics become on `/metrics` ([`series`]).

pub mod manager;
pub mod otlp;
pub mod series;
pub mod subscription;

pub use manager::{Client, Manager, Settings};
