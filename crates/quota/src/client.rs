//! Client quotas' measuring side (KIP-13, KIP-124, KIP-219, KIP-599), as Kafka's
//! `ClientQuotaManager` does it: one sensor per (user, client id) tag pair, whose rate is
//! recorded as requests are answered; a client over its bound gets the time it must wait as
//! its throttle time (the broker mutes its connection that long and never refuses the
//! request). The bound and the tags come from the image's resolution
//! (`fjord_metadata::quotas`). The number of sensors is bounded: idle ones expire, and past
//! [`MAX_SENSORS`] the least recently used goes.

use crate::rate::SampledRate;
use std::collections::HashMap;
use std::sync::Mutex;

/// The most sensors one manager keeps (one per user and client id pair it throttles).
pub const MAX_SENSORS: usize = 100_000;
/// A sensor unused this long is dropped (Kafka's inactive sensor expiration).
pub const SENSOR_EXPIRY_MS: i64 = 3_600_000;

/// What a manager measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuotaKind {
    /// Produce request bytes (`producer_byte_rate`).
    Produce,
    /// Fetch response bytes of consumers (`consumer_byte_rate`).
    Fetch,
    /// Request handling time as percent of one thread (`request_percentage`).
    Request,
    /// Partitions created and deleted (`controller_mutation_rate`).
    ControllerMutation,
}

impl QuotaKind {
    /// Kafka's metric group (the JMX `type`), lower-cased as the Prometheus names use it.
    pub fn group(self) -> &'static str {
        match self {
            QuotaKind::Produce => "produce",
            QuotaKind::Fetch => "fetch",
            QuotaKind::Request => "request",
            QuotaKind::ControllerMutation => "controllermutation",
        }
    }

    /// Kafka's name of the measured rate.
    pub fn rate_name(self) -> &'static str {
        match self {
            QuotaKind::Produce | QuotaKind::Fetch => "byte_rate",
            QuotaKind::Request => "request_time",
            QuotaKind::ControllerMutation => "mutation_rate",
        }
    }
}

/// One client's measurements.
#[derive(Debug)]
struct Sensor {
    rate: SampledRate,
    /// Throttle times given, and how many answers: their average is Kafka's `throttle-time`.
    throttle_sum: SampledRate,
    throttle_count: SampledRate,
    last_used_ms: i64,
}

/// A sensor's values for the metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct SensorView {
    /// The `user` tag.
    pub user: String,
    /// The `client-id` tag.
    pub client_id: String,
    /// The measured rate (units a second).
    pub rate: f64,
    /// The average throttle time of its answers (ms).
    pub throttle_time: f64,
}

/// The sensors of one kind of client quota on one node.
#[derive(Debug)]
pub struct ClientQuotaManager {
    kind: QuotaKind,
    samples: usize,
    window_ms: i64,
    sensors: Mutex<Sensors>,
}

/// Sensors by user tag, then client-id tag (looked up without building a key), and how many.
#[derive(Debug, Default)]
struct Sensors {
    by_user: HashMap<String, HashMap<String, Sensor>>,
    count: usize,
}

impl Sensors {
    fn get_mut(&mut self, user: &str, client_id: &str) -> Option<&mut Sensor> {
        self.by_user.get_mut(user)?.get_mut(client_id)
    }

    /// Drops the sensors `keep` refuses.
    fn retain(&mut self, mut keep: impl FnMut(&Sensor) -> bool) {
        for clients in self.by_user.values_mut() {
            clients.retain(|_, s| keep(s));
        }
        self.by_user.retain(|_, clients| !clients.is_empty());
        self.count = self.by_user.values().map(HashMap::len).sum();
    }
}

impl ClientQuotaManager {
    /// A manager over Kafka's default windows (`quota.window.num` 11 of
    /// `quota.window.size.seconds` 1).
    pub fn new(kind: QuotaKind) -> ClientQuotaManager {
        ClientQuotaManager::with_windows(kind, 11, 1_000)
    }

    /// A manager over `samples` windows of `window_ms`.
    pub fn with_windows(kind: QuotaKind, samples: usize, window_ms: i64) -> ClientQuotaManager {
        ClientQuotaManager {
            kind,
            samples: samples.max(1),
            window_ms: window_ms.max(1),
            sensors: Mutex::new(Sensors::default()),
        }
    }

    /// What it measures.
    pub fn kind(&self) -> QuotaKind {
        self.kind
    }

    /// The longest throttle time it gives: the span its rate is measured over.
    pub fn max_throttle_ms(&self) -> i64 {
        self.window_ms * self.samples as i64
    }

    /// Records `value` for the client measured under (`user`, `client_id`) at `now_ms`;
    /// returns the throttle time it earned against `bound` (0 within it), at most
    /// [`ClientQuotaManager::max_throttle_ms`].
    pub fn record(&self, user: &str, client_id: &str, bound: f64, value: f64, now_ms: i64) -> i64 {
        let mut sensors = self.sensors.lock().expect("sensors");
        let s = self.sensor(&mut sensors, user, client_id, now_ms);
        s.rate.record(now_ms, value);
        let throttle = s
            .rate
            .throttle_ms(now_ms, bound)
            .min(self.max_throttle_ms());
        s.throttle_sum.record(now_ms, throttle as f64);
        s.throttle_count.record(now_ms, 1.0);
        throttle
    }

    /// How long the client must wait at `now_ms` before its rate is within `bound` again (0:
    /// it is within it); records nothing (KIP-599's check before a mutation).
    pub fn throttle_ms(&self, user: &str, client_id: &str, bound: f64, now_ms: i64) -> i64 {
        let mut sensors = self.sensors.lock().expect("sensors");
        match sensors.get_mut(user, client_id) {
            Some(s) => s
                .rate
                .throttle_ms(now_ms, bound)
                .min(self.max_throttle_ms()),
            None => 0,
        }
    }

    /// The sensor of (`user`, `client_id`), made room for and created when new.
    fn sensor<'a>(
        &self,
        sensors: &'a mut Sensors,
        user: &str,
        client_id: &str,
        now_ms: i64,
    ) -> &'a mut Sensor {
        if sensors.get_mut(user, client_id).is_none() {
            if sensors.count >= MAX_SENSORS {
                sensors.retain(|s| now_ms - s.last_used_ms < SENSOR_EXPIRY_MS);
            }
            if sensors.count >= MAX_SENSORS {
                let oldest = sensors
                    .by_user
                    .iter()
                    .flat_map(|(u, cs)| cs.iter().map(move |(c, s)| (s.last_used_ms, u, c)))
                    .min()
                    .map(|(_, u, c)| (u.clone(), c.clone()));
                if let Some((u, c)) = oldest {
                    if let Some(cs) = sensors.by_user.get_mut(&u) {
                        cs.remove(&c);
                        if cs.is_empty() {
                            sensors.by_user.remove(&u);
                        }
                    }
                    sensors.count -= 1;
                }
            }
            let (samples, window) = (self.samples, self.window_ms);
            sensors.by_user.entry(user.to_string()).or_default().insert(
                client_id.to_string(),
                Sensor {
                    rate: SampledRate::new(samples, window),
                    throttle_sum: SampledRate::new(samples, window),
                    throttle_count: SampledRate::new(samples, window),
                    last_used_ms: now_ms,
                },
            );
            sensors.count += 1;
        }
        let s = sensors
            .get_mut(user, client_id)
            .expect("the sensor was just made");
        s.last_used_ms = now_ms;
        s
    }

    /// Every sensor's values at `now_ms`, by tags (expired ones dropped).
    pub fn snapshot(&self, now_ms: i64) -> Vec<SensorView> {
        let mut sensors = self.sensors.lock().expect("sensors");
        sensors.retain(|s| now_ms - s.last_used_ms < SENSOR_EXPIRY_MS);
        let mut out: Vec<SensorView> = sensors
            .by_user
            .iter_mut()
            .flat_map(|(user, clients)| clients.iter_mut().map(move |(c, s)| (user, c, s)))
            .map(|(user, client_id, s)| {
                let count = s.throttle_count.rate(now_ms);
                let sum = s.throttle_sum.rate(now_ms);
                SensorView {
                    user: user.clone(),
                    client_id: client_id.clone(),
                    rate: s.rate.rate(now_ms),
                    throttle_time: if count > 0.0 { sum / count } else { 0.0 },
                }
            })
            .collect();
        out.sort_by(|a, b| (&a.user, &a.client_id).cmp(&(&b.user, &b.client_id)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_over_its_bound_is_told_how_long_to_wait_and_others_are_not() {
        let m = ClientQuotaManager::new(QuotaKind::Produce);
        // 1 MB/s: the first megabyte is within it, the second earns a second's wait.
        assert_eq!(m.record("", "slow", 1e6, 1e6, 0), 0);
        assert_eq!(m.record("", "slow", 1e6, 1e6, 0), 2_000);
        assert_eq!(m.throttle_ms("", "slow", 1e6, 1_000), 1_000);
        assert_eq!(m.throttle_ms("", "slow", 1e6, 2_000), 0);
        // Another client id has its own sensor.
        assert_eq!(m.record("", "fast", 1e6, 1e6, 0), 0);
        // Never longer than the measured span.
        assert_eq!(m.record("", "huge", 1.0, 1e9, 0), 11_000);
        let views = m.snapshot(0);
        assert_eq!(views.len(), 3);
        assert_eq!(views[1].client_id, "huge");
        assert!(views[2].throttle_time > 0.0, "{views:?}");
    }

    #[test]
    fn sensors_are_bounded_and_idle_ones_expire() {
        let m = ClientQuotaManager::with_windows(QuotaKind::Fetch, 2, 10);
        for i in 0..MAX_SENSORS + 10 {
            m.record("", &format!("c{i}"), 1.0, 1.0, i as i64);
        }
        assert_eq!(m.sensors.lock().unwrap().count, MAX_SENSORS);
        assert!(m.snapshot(SENSOR_EXPIRY_MS * 2).is_empty());
    }
}
