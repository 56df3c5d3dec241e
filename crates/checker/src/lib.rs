//! fjord-checker: an independent checker of what Kafka clients saw. It reads only a
//! history of client operations (JSON lines, see [`history`]) and knows nothing of fjord's
//! code, so it holds fjord and Apache Kafka to the same rules: Jepsen's Kafka queue
//! anomalies ([`queue`], [`cycles`]), consumer-group overlap and share-group double
//! delivery ([`groups`]), and what the unclean-recovery tool announced ([`announce`]).

pub mod announce;
pub mod cycles;
pub mod groups;
pub mod history;
pub mod queue;

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

pub use announce::Announcement;
pub use history::{History, HistoryError};

/// One anomaly: its kind (Jepsen's names where Jepsen has one), where, and the evidence.
#[derive(Debug, Clone, Serialize)]
pub struct Anomaly {
    /// `lost-write`, `G1c`, `group-overlap`, ...
    pub kind: String,
    /// The key (partition) it is about, if one.
    pub key: Option<i64>,
    /// The offset it is about, if one.
    pub offset: Option<i64>,
    /// The evidence: operations, values, offsets, a cycle.
    pub detail: Value,
}

impl Anomaly {
    /// An anomaly of a fixed kind.
    pub fn new(kind: &str, key: Option<i64>, offset: Option<i64>, detail: Value) -> Anomaly {
        Anomaly::named(kind.to_string(), key, offset, detail)
    }

    /// An anomaly of a computed kind (`int-` prefixed ones).
    pub fn named(kind: String, key: Option<i64>, offset: Option<i64>, detail: Value) -> Anomaly {
        Anomaly {
            kind,
            key,
            offset,
            detail,
        }
    }

    /// The same anomaly where an announcement should have covered it and did not.
    fn under_announced(self) -> Anomaly {
        let detail = serde_json::json!({"anomaly": self.kind, "detail": self.detail});
        Anomaly {
            kind: "under-announced".into(),
            detail,
            ..self
        }
    }
}

/// What a check found, with the history's size.
#[derive(Debug, Default, Serialize)]
pub struct Report {
    /// Operations in the history.
    pub operations: usize,
    /// Operations that took effect.
    pub ok: usize,
    /// Sends acknowledged (in operations that took effect).
    pub acknowledged_writes: usize,
    /// The anomalies found.
    pub anomalies: Vec<Anomaly>,
    /// Anomalies the recovery tool's announcement covers (not counted as anomalies).
    pub announced: Vec<Anomaly>,
}

impl Report {
    /// How many anomalies of each kind.
    pub fn counts(&self) -> BTreeMap<&str, usize> {
        let mut m = BTreeMap::new();
        for a in &self.anomalies {
            *m.entry(a.kind.as_str()).or_default() += 1;
        }
        m
    }
}

/// Checks a history against every rule, then lets `announcement` cover what it announced.
pub fn check(h: &History, announcement: Option<&Announcement>) -> Report {
    let mut anomalies = Vec::new();
    let ix = queue::Index::build(h, &mut anomalies);
    queue::offsets(&ix, &mut anomalies);
    queue::lost(h, &ix, &mut anomalies);
    queue::reads(h, &ix, &mut anomalies);
    queue::orders(h, &ix, &mut anomalies);
    cycles::cycles(h, &ix, &mut anomalies);
    groups::overlap(h, &mut anomalies);
    groups::share(h, &mut anomalies);
    let announced = announcement.map_or_else(Vec::new, |a| a.cover(&mut anomalies));
    let ok: Vec<_> = h
        .ops
        .iter()
        .filter(|o| o.outcome == history::Outcome::Ok)
        .collect();
    Report {
        operations: h.ops.len(),
        ok: ok.len(),
        acknowledged_writes: ok
            .iter()
            .flat_map(|o| &o.mops)
            .filter(|m| {
                matches!(
                    m,
                    history::Mop::Send {
                        offset: Some(_),
                        ..
                    }
                )
            })
            .count(),
        anomalies,
        announced,
    }
}
