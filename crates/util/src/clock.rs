//! The two clocks: the wall clock, only for what Kafka defines as wall-clock time (record and
//! batch timestamps, retention by time, timestamps reported to operators), and a monotonic
//! clock for every timer, session and timeout, so a wall-clock step never fences brokers or
//! starts elections. A [`Clock`] hands both out, with sleeps: the system's, or a test's
//! [`Hand`] that moves time on only when told, so timers (session expiry, lock expiry,
//! delayed requests) are tested without waiting for them.

use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// Where a part of the broker reads time and sleeps: the system's clocks, or a manual clock
/// a test moves with its [`Hand`].
#[derive(Debug, Clone, Default)]
pub struct Clock {
    manual: Option<Arc<Manual>>,
}

/// A manual clock's time.
#[derive(Debug)]
struct Manual {
    /// The wall-clock time when the monotonic reading was `MONOTONIC_BASE_MS`.
    wall_origin: i64,
    /// The monotonic reading now.
    now: tokio::sync::watch::Sender<i64>,
}

/// Where monotonic readings start (well above zero, so `now - x` stays positive).
const MONOTONIC_BASE_MS: i64 = 1 << 32;

/// What moves a manual clock on.
#[derive(Debug, Clone)]
pub struct Hand(Arc<Manual>);

impl Hand {
    /// Moves the clock on by `ms`, waking the sleeps it ends.
    pub fn advance(&self, ms: i64) {
        self.0.now.send_modify(|t| *t += ms.max(0));
    }
}

impl Clock {
    /// The system's clocks.
    pub fn system() -> Clock {
        Clock { manual: None }
    }

    /// A manual clock at wall-clock time `wall_ms`, and the hand that moves it.
    pub fn manual(wall_ms: i64) -> (Clock, Hand) {
        let m = Arc::new(Manual {
            wall_origin: wall_ms,
            now: tokio::sync::watch::Sender::new(MONOTONIC_BASE_MS),
        });
        (
            Clock {
                manual: Some(m.clone()),
            },
            Hand(m),
        )
    }

    /// Milliseconds since the Unix epoch.
    pub fn wall_ms(&self) -> i64 {
        match &self.manual {
            None => system_now_ms(),
            Some(m) => m.wall_origin + (*m.now.borrow() - MONOTONIC_BASE_MS),
        }
    }

    /// Milliseconds on the monotonic clock.
    pub fn monotonic_ms(&self) -> i64 {
        match &self.manual {
            None => monotonic_ms(),
            Some(m) => *m.now.borrow(),
        }
    }

    /// Sleeps until the monotonic clock reads `deadline`.
    pub async fn sleep_until(&self, deadline: i64) {
        match &self.manual {
            None => {
                let ms = (deadline - monotonic_ms()).max(0) as u64;
                tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
            }
            Some(m) => {
                let mut now = m.now.subscribe();
                // The sender lives as long as this clock: the wait ends only at the deadline.
                let _ = now.wait_for(|t| *t >= deadline).await;
            }
        }
    }

    /// Sleeps until the wall clock reads `at`. On a manual clock the deadline is exact
    /// however the clock moves meanwhile (no second reading to race with the hand).
    pub async fn sleep_until_wall(&self, at: i64) {
        match &self.manual {
            None => self.sleep_ms(at - system_now_ms()).await,
            Some(m) => {
                self.sleep_until(MONOTONIC_BASE_MS + (at - m.wall_origin))
                    .await
            }
        }
    }

    /// Sleeps for `ms` milliseconds from now. A deadline computed from an earlier reading
    /// belongs in [`Clock::sleep_until`]: this reads the clock again, so time that passed
    /// since (or a manual clock moved on) would be added to the wait.
    pub async fn sleep_ms(&self, ms: i64) {
        self.sleep_until(self.monotonic_ms() + ms.max(0)).await;
    }
}

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
    MONOTONIC_BASE_MS + ORIGIN.get_or_init(Instant::now).elapsed().as_millis() as i64
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

    #[tokio::test]
    async fn a_manual_clock_moves_only_when_told_and_wakes_its_sleeps() {
        let (clock, hand) = Clock::manual(1_000_000);
        let start = clock.monotonic_ms();
        let sleeper = {
            let clock = clock.clone();
            tokio::spawn(async move { clock.sleep_ms(500).await })
        };
        tokio::task::yield_now().await;
        hand.advance(499);
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished(), "499 ms of 500");
        hand.advance(1);
        sleeper.await.unwrap();
        assert_eq!(clock.monotonic_ms() - start, 500);
        assert_eq!(clock.wall_ms(), 1_000_500);
    }

    /// A deadline taken before the clock moves is kept: the sleep does not start counting
    /// again from the later reading (the share-lock expiry once overslept by the 29 s its test
    /// advanced between computing its deadline and going to sleep).
    #[tokio::test]
    async fn a_sleep_until_a_deadline_read_earlier_ends_at_that_deadline() {
        let (clock, hand) = Clock::manual(1_000_000);
        let deadline = clock.monotonic_ms() + 30_000;
        let wall_deadline = clock.wall_ms() + 30_000;
        hand.advance(29_000);
        let until = {
            let clock = clock.clone();
            tokio::spawn(async move { clock.sleep_until(deadline).await })
        };
        let until_wall = {
            let clock = clock.clone();
            tokio::spawn(async move { clock.sleep_until_wall(wall_deadline).await })
        };
        tokio::task::yield_now().await;
        assert!(!until.is_finished() && !until_wall.is_finished());
        hand.advance(1_000);
        until.await.unwrap();
        until_wall.await.unwrap();
    }
}
