//! The broker's log upkeep: retention every `log.retention.check.interval.ms`, idle producer
//! ids forgotten after `producer.id.expiration.ms`, checkpoints,
//! and the log cleaner thread.

use crate::error::BrokerError;
use crate::replica::replica_manager::ReplicaManager;
use fjord_util::tasks::Fatal;
use std::sync::Arc;
use std::time::Duration;

/// The log upkeep's intervals.
#[derive(Debug, Clone, Copy)]
pub struct MaintenanceSettings {
    /// `log.retention.check.interval.ms`.
    pub retention_every: Duration,
    /// `producer.id.expiration.check.interval.ms`.
    pub producer_check_every: Duration,
    /// `producer.id.expiration.ms`.
    pub producer_max_age_ms: i64,
    /// `replica.high.watermark.checkpoint.interval.ms`.
    pub checkpoint_every: Duration,
    /// The shorter of `log.flush.offset.checkpoint.interval.ms` and
    /// `log.flush.start.offset.checkpoint.interval.ms`.
    pub full_checkpoint_every: Duration,
}

/// How long the log cleaner sleeps between passes (Kafka's `log.cleaner.backoff.ms`).
const CLEANER_BACKOFF: std::time::Duration = std::time::Duration::from_secs(15);

/// Retention every `log.retention.check.interval.ms`, high-watermark checkpoints every
/// `replica.high.watermark.checkpoint.interval.ms` (all checkpoints every
/// `log.flush.offset.checkpoint.interval.ms`), and the log
/// cleaner thread for compacted topics (running until the returned handle is dropped); the
/// blocking work runs off the async workers.
pub(crate) fn spawn_log_maintenance(
    settings: &MaintenanceSettings,
    replicas: &Arc<ReplicaManager>,
    fatal: &Fatal,
) -> Result<fjord_log::cleaner::LogCleaner, BrokerError> {
    let every = settings.retention_every;
    let producer_check = settings.producer_check_every;
    let producer_max_age = settings.producer_max_age_ms;
    // High watermarks every `replica.high.watermark.checkpoint.interval.ms`; recovery points
    // and log start offsets too every `log.flush.offset.checkpoint.interval.ms` /
    // `log.flush.start.offset.checkpoint.interval.ms` (one pass for both, at the shorter):
    // each checkpoint is an fsynced file, and fewer keep appends' latency steady.
    let checkpoint_every = settings.checkpoint_every;
    let full_every = settings.full_checkpoint_every;
    let rm = replicas.clone();
    fatal.spawn("log maintenance", async move {
        let mut retention = tokio::time::interval(every);
        let mut checkpoint = tokio::time::interval(checkpoint_every);
        let mut last_full = tokio::time::Instant::now();
        let mut producers = tokio::time::interval(producer_check);
        loop {
            tokio::select! {
                _ = producers.tick() => {
                    let rm = rm.clone();
                    let now = fjord_util::system_now_ms();
                    let _ = tokio::task::spawn_blocking(move || {
                        let n: usize = rm.all().iter().map(|p| p.log.expire_producers(now, producer_max_age)).sum();
                        if n > 0 {
                            tracing::info!(producers = n, "expired idle producer ids");
                        }
                    })
                    .await;
                }
                _ = retention.tick() => {
                    let rm = rm.clone();
                    let now = fjord_util::system_now_ms();
                    let deleted = tokio::task::spawn_blocking(move || rm.apply_retention(now)).await;
                    if let Ok(n) = deleted {
                        if n > 0 {
                            tracing::info!(segments = n, "retention deleted segments");
                        }
                    }
                }
                _ = checkpoint.tick() => {
                    let rm = rm.clone();
                    let full = last_full.elapsed() >= full_every;
                    if full {
                        last_full = tokio::time::Instant::now();
                    }
                    let written = tokio::task::spawn_blocking(move || {
                        if full {
                            rm.checkpoint()
                        } else {
                            rm.checkpoint_high_watermarks()
                        }
                    });
                    match written.await {
                        Ok(Ok(())) => {}
                        Ok(Err(e)) => tracing::error!("writing the log checkpoints: {e}"),
                        Err(e) => tracing::error!("writing the log checkpoints: {e}"),
                    }
                }
            }
        }
    });
    let dirs = replicas.dirs().clone();
    fjord_log::cleaner::LogCleaner::start_over(
        move || {
            dirs.all()
                .iter()
                .filter_map(|d| d.logs().cloned())
                .collect()
        },
        CLEANER_BACKOFF,
        fjord_util::system_now_ms,
    )
    .map_err(BrokerError::Cleaner)
}
