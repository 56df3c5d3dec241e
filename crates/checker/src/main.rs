//! `fjord-check HISTORY [--announce FILE] [--allow KIND,...] [--json]`: checks a client
//! history and prints a summary (or the whole report as JSON); exits 1 when it holds an
//! anomaly not allowed, 2 when the history cannot be read.

use std::process::ExitCode;

use fjord_checker::{check, Announcement, History};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut history = None;
    let mut announce = None;
    let mut allow: Vec<String> = Vec::new();
    let mut json = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--announce" => announce = args.next(),
            "--allow" => allow.extend(
                args.next()
                    .unwrap_or_default()
                    .split(',')
                    .map(str::to_string),
            ),
            "--json" => json = true,
            "-h" | "--help" => {
                println!(
                    "usage: fjord-check HISTORY [--announce FILE] [--allow KIND,...] [--json]"
                );
                return ExitCode::SUCCESS;
            }
            _ if history.is_none() => history = Some(a),
            _ => {
                eprintln!("fjord-check: unexpected argument {a}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(path) = history else {
        eprintln!("usage: fjord-check HISTORY [--announce FILE] [--allow KIND,...] [--json]");
        return ExitCode::from(2);
    };
    let read = |p: &str| std::fs::read_to_string(p).map_err(|e| format!("reading {p}: {e}"));
    let h = match read(&path).and_then(|t| History::parse(&t).map_err(|e| format!("{path}: {e}"))) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("fjord-check: {e}");
            return ExitCode::from(2);
        }
    };
    let announcement = match announce.as_deref().map(|p| {
        read(p)
            .and_then(|t| serde_json::from_str::<Announcement>(&t).map_err(|e| format!("{p}: {e}")))
    }) {
        None => None,
        Some(Ok(a)) => Some(a),
        Some(Err(e)) => {
            eprintln!("fjord-check: {e}");
            return ExitCode::from(2);
        }
    };
    let report = check(&h, announcement.as_ref());
    let counts = report.counts();
    let bad: usize = counts
        .iter()
        .filter(|(k, _)| !allow.iter().any(|a| a == *k))
        .map(|(_, n)| n)
        .sum();
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).expect("serializable")
        );
    } else {
        println!(
            "operations {} ok {} acknowledged writes {} announced {}",
            report.operations,
            report.ok,
            report.acknowledged_writes,
            report.announced.len()
        );
        for (kind, n) in &counts {
            let note = if allow.iter().any(|a| a == kind) {
                " (allowed)"
            } else {
                ""
            };
            println!("anomaly {kind}: {n}{note}");
            for a in report.anomalies.iter().filter(|a| a.kind == *kind).take(3) {
                println!("  key {:?} offset {:?}: {}", a.key, a.offset, a.detail);
            }
        }
        println!("{}", if bad == 0 { "valid" } else { "INVALID" });
    }
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
