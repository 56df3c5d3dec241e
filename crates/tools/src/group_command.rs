//! What `kafka-consumer-groups`, `kafka-share-groups` and `kafka-streams-groups` share, as
//! Kafka's group commands share their options: the actions, the groups and topics they act
//! on, the describe switches, `--timeout` (every admin call's deadline), listing the groups of
//! a type, and offset resets: the scenarios, the partitions a reset applies to, the new
//! offsets, and how they are shown or exported.

use crate::common::{BrokerConnection, ToolError};
use crate::table::Table;
use clap::Args as ClapArgs;
use fjord_admin::{expect_response, Admin, AdminError, EARLIEST, LATEST};
use fjord_protocol::generated::{
    delete_groups_request::DeleteGroupsRequest, list_groups_request::ListGroupsRequest,
    list_groups_response::ListedGroup,
};
use fjord_protocol::RequestBody;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// A group's partitions and an offset each.
pub type Offsets = BTreeMap<(String, i32), i64>;

/// The options both group tools take.
#[derive(Debug, ClapArgs)]
pub struct GroupOptions {
    /// The cluster to reach.
    #[command(flatten)]
    pub connection: BrokerConnection,
    /// List all groups.
    #[arg(long)]
    pub list: bool,
    /// Describe the group(s): offsets and lag, members, or state.
    #[arg(long)]
    pub describe: bool,
    /// Delete the group(s).
    #[arg(long)]
    pub delete: bool,
    /// Delete offsets of a group (with --topic).
    #[arg(long)]
    pub delete_offsets: bool,
    /// Reset offsets of a group (with a scenario and --dry-run or --execute).
    #[arg(long)]
    pub reset_offsets: bool,
    /// The group(s) to act on.
    #[arg(long = "group")]
    pub groups: Vec<String>,
    /// Apply to all groups.
    #[arg(long)]
    pub all_groups: bool,
    /// The topic(s); `topic:0,1` for some partitions when resetting.
    #[arg(long = "topic")]
    pub topics: Vec<String>,
    /// Apply to all topics (reset-offsets).
    #[arg(long)]
    pub all_topics: bool,
    /// Describe the members of the group.
    #[arg(long)]
    pub members: bool,
    /// Describe the group's offsets (the default).
    #[arg(long)]
    pub offsets: bool,
    /// With --describe, the group's state; with --list, every group's state (or only groups in
    /// these states, comma-separated).
    #[arg(long, num_args = 0..=1, default_missing_value = "")]
    pub state: Option<String>,
    /// Show more columns.
    #[arg(long)]
    pub verbose: bool,
    /// How offsets are reset.
    #[command(flatten)]
    pub reset: ResetOptions,
    /// The timeout of the tool's calls to the cluster, in ms.
    #[arg(long, default_value_t = 30_000)]
    pub timeout: i64,
}

/// The offset-reset options both group tools take.
#[derive(Debug, ClapArgs)]
pub struct ResetOptions {
    /// Reset to the earliest offset.
    #[arg(long)]
    pub to_earliest: bool,
    /// Reset to the latest offset.
    #[arg(long)]
    pub to_latest: bool,
    /// Reset to the current offset.
    #[arg(long)]
    pub to_current: bool,
    /// Reset to this offset.
    #[arg(long)]
    pub to_offset: Option<i64>,
    /// Reset to the first offset at or after a time, 'YYYY-MM-DDThh:mm:ss.sss' (UTC).
    #[arg(long)]
    pub to_datetime: Option<String>,
    /// Reset to the offsets of a CSV file (`topic,partition,offset`, or
    /// `group,topic,partition,offset` as --export writes several groups).
    #[arg(long)]
    pub from_file: Option<PathBuf>,
    /// Only show the offsets a reset would set.
    #[arg(long)]
    pub dry_run: bool,
    /// Reset the offsets.
    #[arg(long)]
    pub execute: bool,
    /// Print the new offsets as CSV.
    #[arg(long)]
    pub export: bool,
}

/// How a reset picks each partition's new offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scenario {
    /// The log start.
    Earliest,
    /// The log end.
    Latest,
    /// The group's current offset (the log end when it has none).
    Current,
    /// This offset.
    Offset(i64),
    /// The first offset at or after this time (ms), the log end when there is none.
    At(i64),
    /// The current offset moved by this many (refused for a partition without one).
    ShiftBy(i64),
    /// The offsets of a file.
    File(PathBuf),
}

impl GroupOptions {
    /// How many actions were asked for (a tool runs exactly one).
    pub fn actions(&self) -> usize {
        [
            self.list,
            self.describe,
            self.delete,
            self.delete_offsets,
            self.reset_offsets,
        ]
        .iter()
        .filter(|x| **x)
        .count()
    }

    /// Kafka's refusal when `--bootstrap-server` is missing.
    pub fn require_bootstrap(&self) -> Result<(), ToolError> {
        match self.connection.bootstrap_server {
            Some(_) => Ok(()),
            None => Err(ToolError::Usage(
                "Missing required argument \"[bootstrap-server]\"".into(),
            )),
        }
    }

    /// The admin client, each call bounded by `--timeout`.
    pub fn admin(&self) -> Result<Admin, ToolError> {
        let admin = self.connection.admin()?;
        let mut config = admin.config().clone();
        config.api_timeout = std::time::Duration::from_millis(self.timeout.max(0) as u64);
        Ok(Admin::new(config))
    }
}

/// Every unfenced broker's ListGroups answer to `request` (at a version in `versions`), the
/// groups of all of them together.
pub async fn listed_groups(
    admin: &Admin,
    request: ListGroupsRequest,
    versions: std::ops::RangeInclusive<i16>,
) -> Result<Vec<ListedGroup>, ToolError> {
    let cluster = admin.retry(|| admin.refresh(None)).await?;
    let mut out = Vec::new();
    for b in cluster.brokers.values().filter(|b| !b.fenced) {
        let r = admin
            .retry(|| async {
                let r = admin
                    .call_broker(
                        b.id,
                        RequestBody::ListGroups(request.clone()),
                        versions.clone(),
                    )
                    .await?;
                let r = expect_response!(r, ListGroups)?;
                AdminError::check(r.error_code, None).map(|()| r)
            })
            .await?;
        out.extend(r.groups);
    }
    Ok(out)
}

/// Every group of `group_type` (`share`, `streams`) on every broker's coordinator in `states`
/// (all when empty), sorted: (id, state).
pub async fn typed_groups(
    admin: &Admin,
    group_type: &str,
    states: &[String],
) -> Result<Vec<(String, String)>, ToolError> {
    let request = ListGroupsRequest {
        states_filter: states.to_vec(),
        types_filter: vec![group_type.into()],
        ..Default::default()
    };
    let groups = listed_groups(admin, request, 5..=5).await?;
    let out: BTreeSet<(String, String)> = groups
        .into_iter()
        .filter(|g| g.group_type == group_type)
        .map(|g| (g.group_id, g.group_state))
        .collect();
    Ok(out.into_iter().collect())
}

/// `--list` of a group tool: every group of `group_type` by id, or with `--state` (`filter`;
/// empty for all states) a GROUP / STATE table of those in the states asked for, a state not
/// in `valid` refused as Kafka's tools refuse it.
pub async fn list_typed(
    admin: &Admin,
    group_type: &str,
    valid: &[&str],
    filter: Option<&str>,
) -> Result<(), ToolError> {
    let Some(filter) = filter else {
        for (g, _) in typed_groups(admin, group_type, &[]).await? {
            println!("{g}");
        }
        return Ok(());
    };
    let mut states = Vec::new();
    for s in filter.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match valid.iter().find(|x| x.eq_ignore_ascii_case(s)) {
            Some(x) => states.push(x.to_string()),
            None => {
                return Err(ToolError::Usage(format!(
                    "Invalid state list '{filter}'. Valid states are: {}",
                    valid.join(", ")
                )))
            }
        }
    }
    let groups = typed_groups(admin, group_type, &states).await?;
    let width = groups
        .iter()
        .map(|(g, _)| g.len())
        .max()
        .unwrap_or(0)
        .max(15);
    let rows: Vec<Vec<String>> = std::iter::once(["GROUP".to_string(), "STATE".into()])
        .chain(groups.iter().map(|(g, s)| [g.clone(), s.clone()]))
        .map(Vec::from)
        .collect();
    for line in Table::fixed(&[width], " ").lines(&rows) {
        println!("{line}");
    }
    Ok(())
}

/// The reset scenario of a tool that also takes `--shift-by` and `--by-duration` (the
/// consumer and streams group tools): exactly one of them all.
pub fn scenario_with_shifts(
    reset: &ResetOptions,
    shift_by: Option<i64>,
    by_duration: Option<&str>,
) -> Result<Scenario, ToolError> {
    let mut extra: Vec<(&'static str, Scenario)> = Vec::new();
    extra.extend(shift_by.map(|n| ("shift-by", Scenario::ShiftBy(n))));
    if let Some(d) = by_duration {
        let ago = parse_duration(d).ok_or_else(|| {
            ToolError::Failed(format!(
                "Error parsing duration. It does not conform to the expected format PnDTnHnMnS: {d}"
            ))
        })?;
        extra.push((
            "by-duration",
            Scenario::At(fjord_util::system_now_ms() - ago),
        ));
    }
    reset.scenario(extra, &SCENARIO_ORDER)
}

/// Deletes one group at its coordinator (DeleteGroups), asking again while the coordinator
/// moves: the group's own error, if any.
pub async fn delete_group(admin: &Admin, group: &str) -> Result<(), AdminError> {
    admin
        .retry(|| async {
            let r = admin
                .call_group(
                    group,
                    RequestBody::DeleteGroups(DeleteGroupsRequest {
                        groups_names: vec![group.to_string()],
                        ..Default::default()
                    }),
                    0..=2,
                )
                .await?;
            let r = expect_response!(r, DeleteGroups)?;
            let code = r.results.first().map_or(0, |x| x.error_code);
            AdminError::check(code, None)
        })
        .await
}

/// Kafka's order of the reset scenarios, in which its refusals name them.
const SCENARIO_ORDER: [&str; 8] = [
    "to-offset",
    "to-datetime",
    "by-duration",
    "to-earliest",
    "to-latest",
    "to-current",
    "shift-by",
    "from-file",
];

impl ResetOptions {
    /// The one scenario asked for, among the shared ones and a tool's own (`extra`, named and
    /// parsed); `known` are the tool's scenario names for Kafka's refusal when none is given.
    /// Two are refused as Kafka refuses them, naming the first two in its order.
    pub fn scenario(
        &self,
        extra: Vec<(&'static str, Scenario)>,
        known: &[&str],
    ) -> Result<Scenario, ToolError> {
        let mut asked: Vec<(&'static str, Scenario)> = Vec::new();
        let flags = [
            ("to-earliest", self.to_earliest, Scenario::Earliest),
            ("to-latest", self.to_latest, Scenario::Latest),
            ("to-current", self.to_current, Scenario::Current),
        ];
        asked.extend(flags.into_iter().filter(|f| f.1).map(|(n, _, s)| (n, s)));
        asked.extend(self.to_offset.map(|o| ("to-offset", Scenario::Offset(o))));
        if let Some(s) = &self.to_datetime {
            let at = parse_datetime(s).ok_or_else(|| {
                ToolError::Failed(format!(
                    "Error parsing timestamp. It does not conform to the expected format yyyy-MM-dd'T'HH:mm:ss.SSS: {s}"
                ))
            })?;
            asked.push(("to-datetime", Scenario::At(at)));
        }
        asked.extend(
            self.from_file
                .clone()
                .map(|f| ("from-file", Scenario::File(f))),
        );
        asked.extend(extra);
        asked.sort_by_key(|(n, _)| SCENARIO_ORDER.iter().position(|o| o == n));
        match asked.len() {
            1 => Ok(asked.remove(0).1),
            0 => {
                let names: Vec<String> = known.iter().map(|n| format!("[{n}]")).collect();
                Err(ToolError::Usage(format!(
                    "Option '[reset-offsets]' requires one of the following scenarios: {}",
                    names.join(", ")
                )))
            }
            _ => Err(ToolError::Usage(format!(
                "Option \"[{}]\" can't be used with option \"[{}]\"",
                asked[0].0, asked[1].0
            ))),
        }
    }
}

/// `--topic t` or `t:0,1` into (topic, partitions or all).
pub fn topic_spec(s: &str) -> Result<(String, Option<Vec<i32>>), ToolError> {
    match s.split_once(':') {
        None => Ok((s.to_string(), None)),
        Some((t, ps)) => {
            let parts = ps
                .split(',')
                .map(|p| p.trim().parse::<i32>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| ToolError::Usage(format!("Invalid partitions in --topic {s}")))?;
            Ok((t.to_string(), Some(parts)))
        }
    }
}

/// The offsets a `--from-file` CSV gives `group`: its `topic,partition,offset` lines, and the
/// `group,topic,partition,offset` lines naming it.
pub fn offsets_file(path: &std::path::Path, group: &str) -> Result<Offsets, ToolError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ToolError::Failed(format!("Error: cannot read {}: {e}", path.display())))?;
    let mut out = Offsets::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let (g, t, p, o) = match f.as_slice() {
            [t, p, o] => (None, t, p, o),
            [g, t, p, o] => (Some(*g), t, p, o),
            _ => (None, &"", &"", &""),
        };
        let parsed = p.parse::<i32>().ok().zip(o.parse::<i64>().ok());
        let Some((p, o)) = parsed.filter(|_| !t.is_empty()) else {
            return Err(ToolError::Failed(format!(
                "Error: malformed CSV line '{line}'"
            )));
        };
        if g.is_none_or(|g| g == group) {
            out.insert((t.to_string(), p), o);
        }
    }
    Ok(out)
}

/// Each target partition's new offset under `scenario`, clamped into the log as Kafka's tools
/// clamp; `current` is the group's offset of a partition, `file` the `--from-file` offsets.
pub async fn new_offsets(
    admin: &Admin,
    targets: &[(String, i32)],
    scenario: &Scenario,
    current: impl Fn(&str, i32) -> Option<i64>,
    file: &Offsets,
) -> Result<Offsets, ToolError> {
    let mut new = Offsets::new();
    for (topic, p) in targets {
        let earliest = admin.list_offset(topic, *p, EARLIEST).await?;
        let latest = admin.list_offset(topic, *p, LATEST).await?;
        let wanted = match scenario {
            Scenario::Earliest => earliest,
            Scenario::Latest => latest,
            Scenario::Current => current(topic, *p).unwrap_or(latest),
            Scenario::Offset(o) => *o,
            Scenario::ShiftBy(n) => match current(topic, *p) {
                Some(c) => c.saturating_add(*n),
                None => {
                    return Err(ToolError::Usage(format!(
                        "Cannot shift offset for partition {topic}-{p} since there is no current committed offset"
                    )))
                }
            },
            Scenario::At(ts) => match admin.list_offset(topic, *p, *ts).await? {
                at if at < 0 => latest,
                at => at,
            },
            Scenario::File(_) => file.get(&(topic.clone(), *p)).copied().unwrap_or(latest),
        };
        new.insert((topic.clone(), *p), wanted.clamp(earliest, latest));
    }
    Ok(new)
}

/// The new offsets as Kafka's tools show them: a GROUP / TOPIC / PARTITION / NEW-OFFSET table,
/// or with `--export` CSV (`topic,partition,offset`; `group,...` first when `several` groups
/// are reset).
pub fn reset_text(group: &str, new: &Offsets, export: bool, several: bool) -> String {
    if export {
        return new
            .iter()
            .map(|((t, p), o)| match several {
                true => format!("{group},{t},{p},{o}\n"),
                false => format!("{t},{p},{o}\n"),
            })
            .collect();
    }
    let mut rows = vec![vec![
        "GROUP".to_string(),
        "TOPIC".into(),
        "PARTITION".into(),
        "NEW-OFFSET".into(),
    ]];
    for ((t, p), o) in new {
        rows.push(vec![
            group.to_string(),
            t.clone(),
            p.to_string(),
            o.to_string(),
        ]);
    }
    Table::fit(&[15, 15, 10, 0], " ").block(&rows)
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `YYYY-MM-DDThh:mm:ss[.sss]` (UTC, a trailing `Z` allowed) in ms since the epoch.
pub fn parse_datetime(s: &str) -> Option<i64> {
    let s = s.trim_end_matches('Z');
    let (date, time) = s.split_once('T')?;
    let mut d = date.split('-');
    let (y, mo, da) = (
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
    );
    let (hms, ms) = match time.split_once('.') {
        Some((hms, frac)) => (hms, format!("{frac:0<3}")[..3].parse::<i64>().ok()?),
        None => (time, 0),
    };
    let mut t = hms.split(':');
    let (h, mi, se): (i64, i64, i64) = (
        t.next()?.parse().ok()?,
        t.next()?.parse().ok()?,
        t.next()?.parse().ok()?,
    );
    if !(1..=12).contains(&mo) || !(1..=31).contains(&da) || h > 23 || mi > 59 || se > 60 {
        return None;
    }
    Some(((days_from_civil(y, mo, da) * 24 + h) * 60 + mi) * 60_000 + se * 1000 + ms)
}

/// A Java `Duration` text (`PnDTnHnMnS`, seconds may have a fraction) in ms.
pub fn parse_duration(s: &str) -> Option<i64> {
    let rest = s.strip_prefix('P').or_else(|| s.strip_prefix('p'))?;
    let (days, time) = match rest.split_once(['T', 't']) {
        Some((d, t)) => (d, Some(t)),
        None => (rest, None),
    };
    let mut ms = 0i64;
    if !days.is_empty() {
        let n = days.strip_suffix(['D', 'd'])?.parse::<i64>().ok()?;
        ms = ms.checked_add(n.checked_mul(86_400_000)?)?;
    }
    let Some(mut time) = time else {
        return (!days.is_empty()).then_some(ms);
    };
    if time.is_empty() {
        return None;
    }
    for (unit, scale) in [('H', 3_600_000i64), ('M', 60_000)] {
        if let Some((n, after)) = time.split_once([unit, unit.to_ascii_lowercase()]) {
            ms = ms.checked_add(n.parse::<i64>().ok()?.checked_mul(scale)?)?;
            time = after;
        }
    }
    if let Some(secs) = time.strip_suffix(['S', 's']) {
        let (whole, frac) = secs.split_once('.').unwrap_or((secs, ""));
        let frac_ms = if frac.is_empty() {
            0
        } else {
            format!("{frac:0<3}")[..3].parse::<i64>().ok()?
        };
        ms = ms.checked_add(whole.parse::<i64>().ok()?.checked_mul(1000)?)? + frac_ms;
    } else if !time.is_empty() {
        return None;
    }
    Some(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datetimes_are_utc() {
        assert_eq!(parse_datetime("1970-01-01T00:00:00.000"), Some(0));
        assert_eq!(
            parse_datetime("2026-12-04T09:30:00.5"),
            Some(1_796_376_600_500)
        );
        assert_eq!(parse_datetime("2026-13-04T09:30:00"), None);
    }

    #[test]
    fn durations_are_javas() {
        assert_eq!(parse_duration("PT1H"), Some(3_600_000));
        assert_eq!(parse_duration("P1DT2H3M4.5S"), Some(93_784_500));
        assert_eq!(parse_duration("PT0.25S"), Some(250));
        assert_eq!(parse_duration("P2D"), Some(172_800_000));
        assert_eq!(parse_duration("PT"), None);
        assert_eq!(parse_duration("1H"), None);
        assert_eq!(parse_duration("PT5X"), None);
    }

    #[test]
    fn offset_files_name_their_group_or_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("o.csv");
        std::fs::write(&path, "t,0,5\ng1,t,1,7\ng2,t,1,9\n").unwrap();
        let mine = offsets_file(&path, "g1").unwrap();
        assert_eq!(
            mine,
            Offsets::from([(("t".into(), 0), 5), (("t".into(), 1), 7)])
        );
        std::fs::write(&path, "t,x,5\n").unwrap();
        assert!(offsets_file(&path, "g1").is_err());
    }

    #[test]
    fn exports_name_the_group_only_beside_others() {
        let new = Offsets::from([(("t".into(), 0), 5)]);
        assert_eq!(reset_text("g", &new, true, false), "t,0,5\n");
        assert_eq!(reset_text("g", &new, true, true), "g,t,0,5\n");
        assert_eq!(
            reset_text("g", &new, false, false),
            "\nGROUP           TOPIC           PARTITION  NEW-OFFSET\ng               t               0          5"
        );
    }
}
