//! The best replica of an offline partition, by the rule in EXTENSIONS.md: among replicas that
//! answered without error on unfenced brokers, the highest last written leader epoch (the
//! current leader epoch where the tag is absent), then the longest log, then a member of the
//! last known ISR, then the lowest broker id. Pure, so it is tested case by case.

/// What one replica's broker said, or why it said nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplicaState {
    /// GetReplicaLogInfo answered for this partition without error.
    Answered(LogInfo),
    /// The broker is registered but fenced: not eligible, not asked.
    Fenced,
    /// The broker is not registered.
    NotRegistered,
    /// No answer before the deadline; the last failure.
    Unreachable(String),
    /// The broker answered with an error for this partition ("NAME: message").
    Error(String),
}

impl ReplicaState {
    /// The word the table shows.
    pub fn label(&self) -> &'static str {
        match self {
            ReplicaState::Answered(_) => "answered",
            ReplicaState::Fenced => "fenced",
            ReplicaState::NotRegistered => "unregistered",
            ReplicaState::Unreachable(_) => "unreachable",
            ReplicaState::Error(_) => "error",
        }
    }
}

/// A replica's log, as GetReplicaLogInfo reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogInfo {
    /// The broker's view of the partition's leader epoch.
    pub leader_epoch: i32,
    /// The newest epoch in the replica's leader-epoch cache, -1 if absent.
    pub last_written_epoch: i32,
    /// The log end offset.
    pub log_end_offset: i64,
    /// The last high watermark the replica knew, -1 if absent.
    pub high_watermark: i64,
    /// The log start offset, -1 if absent.
    pub log_start_offset: i64,
}

impl LogInfo {
    /// The epoch the rule compares: the last written one, else the current one.
    pub fn epoch(&self) -> i32 {
        if self.last_written_epoch >= 0 {
            self.last_written_epoch
        } else {
            self.leader_epoch
        }
    }
}

/// The chosen replica and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The broker to designate.
    pub broker: i32,
    /// Its log.
    pub log: LogInfo,
    /// Why it won, for the table.
    pub reason: String,
}

/// Picks the best replica among `replicas` (broker id, state); `isr` holds the members of the
/// last known ISR and ELR.
/// `None` when no replica answered.
pub fn choose(replicas: &[(i32, ReplicaState)], isr: &[i32]) -> Option<Choice> {
    let answered: Vec<(i32, LogInfo)> = replicas
        .iter()
        .filter_map(|(b, s)| match s {
            ReplicaState::Answered(l) => Some((*b, *l)),
            _ => None,
        })
        .collect();
    let key = |(b, l): &(i32, LogInfo)| (l.epoch(), l.log_end_offset, isr.contains(b), -b);
    let (broker, log) = *answered.iter().max_by_key(|c| key(c))?;
    let reason = if answered.len() == 1 {
        format!(
            "the only replica that answered (epoch {}, log end offset {})",
            log.epoch(),
            log.log_end_offset
        )
    } else {
        let same_epoch: Vec<&(i32, LogInfo)> = answered
            .iter()
            .filter(|(_, l)| l.epoch() == log.epoch())
            .collect();
        let same_end: Vec<&&(i32, LogInfo)> = same_epoch
            .iter()
            .filter(|(_, l)| l.log_end_offset == log.log_end_offset)
            .collect();
        if same_epoch.len() == 1 {
            format!("highest last written leader epoch ({})", log.epoch())
        } else if same_end.len() == 1 {
            format!(
                "longest log (log end offset {}) among replicas at epoch {}",
                log.log_end_offset,
                log.epoch()
            )
        } else if isr.contains(&broker)
            && same_end.iter().filter(|(b, _)| isr.contains(b)).count() == 1
        {
            format!(
                "in the last known ISR or ELR, tied on epoch {} and log end offset {}",
                log.epoch(),
                log.log_end_offset
            )
        } else {
            format!(
                "lowest broker id, tied on epoch {} and log end offset {}",
                log.epoch(),
                log.log_end_offset
            )
        }
    };
    Some(Choice {
        broker,
        log,
        reason,
    })
}

/// Records lost by electing `choice`: the highest high watermark any replica reported minus
/// the chosen log end offset, when positive. `None` when no high watermark is known.
pub fn estimated_loss(replicas: &[(i32, ReplicaState)], choice: &Choice) -> Option<(i64, i64)> {
    let hw = replicas
        .iter()
        .filter_map(|(_, s)| match s {
            ReplicaState::Answered(l) if l.high_watermark >= 0 => Some(l.high_watermark),
            _ => None,
        })
        .max()?;
    Some(((hw - choice.log.log_end_offset).max(0), hw))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(epoch: i32, end: i64, hw: i64) -> ReplicaState {
        ReplicaState::Answered(LogInfo {
            leader_epoch: epoch + 1,
            last_written_epoch: epoch,
            log_end_offset: end,
            high_watermark: hw,
            log_start_offset: 0,
        })
    }

    #[test]
    fn epoch_beats_length() {
        let r = vec![(1, log(3, 500, 400)), (2, log(4, 100, 100))];
        let c = choose(&r, &[]).unwrap();
        assert_eq!(c.broker, 2);
        assert!(c.reason.contains("epoch"), "{}", c.reason);
        assert_eq!(estimated_loss(&r, &c), Some((300, 400)));
    }

    #[test]
    fn length_then_isr_then_lowest_id() {
        let r = vec![
            (1, log(4, 100, 90)),
            (2, log(4, 120, 90)),
            (3, log(4, 90, 90)),
        ];
        assert_eq!(choose(&r, &[]).unwrap().broker, 2);
        let r = vec![
            (1, log(4, 100, 90)),
            (2, log(4, 100, 90)),
            (3, log(4, 100, 90)),
        ];
        assert_eq!(choose(&r, &[3]).unwrap().broker, 3);
        let c = choose(&r, &[]).unwrap();
        assert_eq!(c.broker, 1);
        assert!(c.reason.contains("lowest broker id"), "{}", c.reason);
        assert_eq!(estimated_loss(&r, &c), Some((0, 90)));
    }

    #[test]
    fn the_current_epoch_stands_in_for_an_absent_last_written_one() {
        let absent = ReplicaState::Answered(LogInfo {
            leader_epoch: 7,
            last_written_epoch: -1,
            log_end_offset: 10,
            high_watermark: -1,
            log_start_offset: -1,
        });
        let r = vec![(1, log(5, 100, -1)), (2, absent)];
        assert_eq!(choose(&r, &[]).unwrap().broker, 2);
    }

    #[test]
    fn nothing_is_guessed() {
        let r = vec![
            (1, ReplicaState::Fenced),
            (2, ReplicaState::Unreachable("refused".into())),
            (
                3,
                ReplicaState::Error("KAFKA_STORAGE_ERROR: dir offline".into()),
            ),
        ];
        assert_eq!(choose(&r, &[1]), None);
    }
}
