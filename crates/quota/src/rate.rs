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
}

/// How long a client (or fetcher) must wait for `rate`, measured over `elapsed_ms`, to come
/// back down to `bound` if nothing more is recorded: Kafka's
/// `(rate - bound) / bound * window`; 0 when the rate is within the bound.
pub fn throttle_time_ms(rate: f64, bound: f64, elapsed_ms: i64) -> i64 {
    if rate <= bound || bound <= 0.0 && rate <= 0.0 {
        return 0;
    }
    if bound <= 0.0 {
        return elapsed_ms;
    }
    ((rate - bound) / bound * elapsed_ms as f64).ceil() as i64
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
        assert_eq!(throttle_time_ms(100.0, 100.0, 1_000), 0);
        assert_eq!(throttle_time_ms(200.0, 100.0, 1_000), 1_000);
        assert_eq!(throttle_time_ms(150.0, 100.0, 2_000), 1_000);
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
                let rate = r.rate(now);
                let elapsed = r.elapsed_ms(now);
                now += throttle_time_ms(rate, bound, elapsed).max(1);
            }
            let largest = sizes.iter().copied().max().unwrap_or(0) as f64;
            for (span, total) in sent {
                prop_assert!(total <= 11.0 * bound + largest + 1.0,
                    "{total} sent in the 10 s from {}s at a bound of {bound}/s", span * 10);
            }
        }
    }
}
