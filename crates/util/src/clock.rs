//! The two clocks: the wall clock, only for what Kafka defines as wall-clock time (record and
//! batch timestamps, retention by time, timestamps reported to operators), and a monotonic
//! clock for every timer, session and timeout, so a wall-clock step never fences brokers or
//! starts elections.

use std::sync::OnceLock;
use std::time::Instant;

/// Milliseconds since the Unix epoch (the wall clock).
pub fn system_now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Milliseconds on a monotonic clock (from a process-wide origin; never goes back, and has no
/// relation to the wall clock). For deadlines and timers.
pub fn monotonic_ms() -> i64 {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    // Start well above zero, so a deadline computed as `now - x` stays positive.
    const BASE_MS: i64 = 1 << 32;
    BASE_MS + ORIGIN.get_or_init(Instant::now).elapsed().as_millis() as i64
}

/// The wall-clock time of `monotonic` (a [`monotonic_ms`] reading), for reports.
pub fn wall_of_monotonic(monotonic: i64) -> i64 {
    system_now_ms() - (monotonic_ms() - monotonic)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monotonic_readings_never_go_back_and_map_to_the_wall_clock() {
        let a = monotonic_ms();
        let b = monotonic_ms();
        assert!(b >= a && a > 0);
        let wall = wall_of_monotonic(b);
        assert!((system_now_ms() - wall).abs() < 1_000);
    }
}
