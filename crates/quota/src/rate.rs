//! A rate measured over a ring of sample windows, as Kafka's metrics `Rate` over
//! `quota.window.num` windows of `quota.window.size.seconds` each. One difference: the rate
//! of a young sensor is taken over the time it has actually measured (at least one window).
//! Kafka pads it to `samples - 1` windows, which lets a burst of ten windows' worth through
//! before any quota bites; a throttle of 1 MB/s here holds from the first second.

use std::collections::VecDeque;

/// A windowed rate (units a second), fed with `record` and read with `rate`.
#[derive(Debug, Clone)]
pub struct SampledRate {
    /// Each window's length.
    window_ms: i64,
    /// How many windows are kept (the current one included).
    samples: usize,
    /// The kept windows, oldest first: (start, total recorded in it).
    windows: VecDeque<(i64, f64)>,
}

impl SampledRate {
    /// A rate over `samples` windows of `window_ms` each (both at least 1).
    pub fn new(samples: usize, window_ms: i64) -> SampledRate {
        SampledRate {
            window_ms: window_ms.max(1),
            samples: samples.max(1),
            windows: VecDeque::new(),
        }
    }

    /// Kafka's default for quotas: 11 windows of one second.
    pub fn kafka_default() -> SampledRate {
        SampledRate::new(11, 1_000)
    }

    /// Drops the windows that have left the measured span at `now_ms`.
    fn purge(&mut self, now_ms: i64) {
        let span = self.window_ms * self.samples as i64;
        while self
            .windows
            .front()
            .is_some_and(|(start, _)| now_ms - start >= span)
        {
            self.windows.pop_front();
        }
    }

    /// Adds `value` at `now_ms` (to the current window, opening a new one when it ended).
    pub fn record(&mut self, now_ms: i64, value: f64) {
        self.purge(now_ms);
        match self.windows.back_mut() {
            Some((start, total)) if now_ms - *start < self.window_ms => *total += value,
            _ => {
                self.windows.push_back((now_ms, value));
                while self.windows.len() > self.samples {
                    self.windows.pop_front();
                }
            }
        }
    }

    /// The time the rate is measured over at `now_ms`: since the oldest kept window began,
    /// and at least one window.
    pub fn elapsed_ms(&mut self, now_ms: i64) -> i64 {
        self.purge(now_ms);
        let since = self.windows.front().map_or(0, |(start, _)| now_ms - start);
        since.max(self.window_ms)
    }

    /// Units a second at `now_ms`.
    pub fn rate(&mut self, now_ms: i64) -> f64 {
        let elapsed = self.elapsed_ms(now_ms);
        let total: f64 = self.windows.iter().map(|(_, v)| v).sum();
        total * 1_000.0 / elapsed as f64
    }

    /// How long, from `now_ms`, until the rate is back within `bound` (units a second) if
    /// nothing more is recorded: the time at which what is counted now, spread over the span
    /// measured, makes `bound`. 0 when it is within it already. (Kafka's
    /// `(rate - bound) / bound * window` is the same for a full span; for a young one it
    /// would end the wait too early.)
    pub fn throttle_ms(&mut self, now_ms: i64, bound: f64) -> i64 {
        if self.rate(now_ms) <= bound {
            return 0;
        }
        let total: f64 = self.windows.iter().map(|(_, v)| v).sum();
        if bound <= 0.0 {
            return self.window_ms * self.samples as i64;
        }
        let since = self.windows.front().map_or(0, |(start, _)| now_ms - start);
        let needed = (total * 1_000.0 / bound).ceil() as i64;
        (needed - since).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_young_rate_counts_at_least_one_window_and_old_windows_leave() {
        let mut r = SampledRate::new(3, 1_000);
        r.record(0, 500.0);
        assert_eq!(r.rate(0), 500.0, "one window at least");
        r.record(1_500, 500.0);
        assert_eq!(r.rate(2_000), 500.0, "1,000 over 2 s");
        // At 3 s the first window (started at 0) has left the 3-window span.
        let left = r.rate(3_000);
        assert!(
            (left - 500.0 / 1.5).abs() < 1e-9,
            "only the window from 1.5 s: {left}"
        );
        assert_eq!(r.rate(10_000), 0.0);
    }

    #[test]
    fn the_throttle_time_brings_the_rate_back_to_its_bound() {
        let mut r = SampledRate::kafka_default();
        r.record(0, 100.0);
        assert_eq!(r.throttle_ms(0, 100.0), 0, "100 over one window");
        r.record(0, 100.0);
        // 200 at 100 a second: two seconds after the first record.
        assert_eq!(r.throttle_ms(0, 100.0), 2_000);
        assert_eq!(r.throttle_ms(500, 100.0), 1_500);
        assert_eq!(r.throttle_ms(2_000, 100.0), 0);
    }

    proptest! {
        /// Independent oracle: a sender that waits out every throttle time sends at most
        /// eleven seconds' worth of the bound, plus the one record sent before its throttle
        /// was known, in any ten seconds (the span every kept window covers), whatever the
        /// sizes it sends.
        #[test]
        fn waiting_out_throttles_holds_every_ten_seconds_to_the_bound(
            sizes in proptest::collection::vec(1u32..200_000, 1..400),
            bound in 10_000u32..2_000_000,
        ) {
            let bound = f64::from(bound);
            let mut r = SampledRate::kafka_default();
            let mut now = 0i64;
            let mut sent: std::collections::BTreeMap<i64, f64> = Default::default();
            for s in &sizes {
                r.record(now, f64::from(*s));
                *sent.entry(now / 10_000).or_default() += f64::from(*s);
                now += r.throttle_ms(now, bound).max(1);
            }
            let largest = sizes.iter().copied().max().unwrap_or(0) as f64;
            for (span, total) in sent {
                prop_assert!(total <= 11.0 * bound + largest + 1.0,
                    "{total} sent in the 10 s from {}s at a bound of {bound}/s", span * 10);
            }
        }
    }
}
