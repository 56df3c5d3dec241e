//! The reference pages of the operator's guide are generated from the code and never drift
//! (issue 38): `docs/reference/configuration.md` (every broker key fjord reads and every topic
//! key, with type, default, whether it changes at runtime, and its documentation),
//! `docs/reference/errors.md` (the error-code table) and `docs/reference/commands.md` (the
//! `--help` of `fjord` and of every subcommand), `docs/reference/metrics.md` (every series
//! family a live node serves, with its type, labels and help). A test fails when a page differs from what
//! the code gives; `FJORD_WRITE_REFERENCE=1 cargo test -p fjord-server --test
//! reference_pages` writes them.

mod common;

use common::{metrics_text, wait_for, Node};
use fjord_metadata::config_defs::{broker_config, topic, ConfigType};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Kafka's DescribeConfigs type names, by number.
fn type_name(t: i8) -> &'static str {
    match t {
        1 => "boolean",
        2 => "string",
        3 => "int",
        4 => "short",
        5 => "long",
        6 => "double",
        7 => "list",
        8 => "class",
        9 => "password",
        _ => "unknown",
    }
}

fn topic_type(t: &ConfigType) -> &'static str {
    match t {
        ConfigType::Bool => "boolean",
        ConfigType::Int(_) => "int",
        ConfigType::Long(_) => "long",
        ConfigType::Double | ConfigType::Number => "double",
        ConfigType::Choice(_, true) => "list",
        _ => "string",
    }
}

/// A table cell: pipes escaped, one line.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn configuration_page() -> String {
    let dynamic = |k: &str| broker_config(k).is_some();
    let doc = |k: &str| fjord_metadata::config_docs::documentation(k).unwrap_or("");
    let mut out = String::from(
        "# Configuration reference\n\n\
         Generated from the code (`crates/configdef`, `crates/config`,\n\
         `crates/metadata/src/config_defs.rs` and `config_docs.rs`) by `crates/server/tests/reference_pages.rs`; a test fails when it\n\
         drifts. Key names, types and defaults are Kafka 4.4's. \"dynamic\" keys may be changed\n\
         at runtime with `kafka-configs --entity-type brokers`.\n\n\
         ## Broker keys fjord reads\n\n\
         | key | type | default | dynamic | documentation |\n|---|---|---|---|---|\n",
    );
    let mut keys = fjord_config::ServerConfig::known_keys();
    keys.sort_by_key(|(n, ..)| *n);
    keys.dedup_by_key(|(n, ..)| *n);
    for (name, t, default) in keys {
        out.push_str(&format!(
            "| `{name}` | {} | {} | {} | {} |\n",
            type_name(t),
            match default {
                None => "(none)".to_string(),
                Some("") => "(empty)".to_string(),
                Some(d) => format!("`{}`", cell(d)),
            },
            if dynamic(name) { "yes" } else { "no" },
            cell(doc(name)),
        ));
    }
    out.push_str(
        "\n## Topic keys\n\n| key | type | default | documentation |\n|---|---|---|---|\n",
    );
    for def in topic::ALL {
        let (name, t, default) = (def.name, &def.ty, def.default.unwrap_or_default());
        out.push_str(&format!(
            "| `{name}` | {} | {} | {} |\n",
            topic_type(t),
            if default.is_empty() {
                "(empty)".to_string()
            } else {
                format!("`{}`", cell(default))
            },
            cell(doc(name)),
        ));
    }
    out
}

fn errors_page() -> String {
    let mut out = String::from(
        "# Error codes\n\n\
         Generated from `crates/protocol/src/error_codes.rs` by\n\
         `crates/server/tests/reference_pages.rs`. Kafka's codes with Kafka's names, and fjord's\n\
         own from 1000 up.\n\n\
         | code | name | retriable | default message |\n|---|---|---|---|\n",
    );
    for e in fjord_protocol::ErrorCode::ALL {
        out.push_str(&format!(
            "| {} | `{}` | {} | {} |\n",
            e.code(),
            e.name(),
            if e.is_retriable() { "yes" } else { "no" },
            cell(e.message()),
        ));
    }
    out
}

/// `fjord ARGS` 's standard output.
fn fjord(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fjord"))
        .args(args)
        .output()
        .expect("run fjord");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The subcommands a `--help` text lists under "Commands:" (`help` aside).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

fn commands_page() -> String {
    let top = fjord(&["--help"]);
    let mut out = String::from(
        "# Commands\n\n\
         Generated from the `fjord` binary's `--help` by `crates/server/tests/reference_pages.rs`.\n\
         Each tool is also reached through a link named after Kafka's script (`kafka-topics.sh`\n\
         or `kafka-topics`).\n\n```text\n",
    );
    out.push_str(top.trim_end());
    out.push_str("\n```\n");
    for c in subcommands(&top) {
        let help = fjord(&[&c, "--help"]);
        out.push_str(&format!("\n## `fjord {c}`\n\n```text\n"));
        out.push_str(help.trim_end());
        out.push_str("\n```\n");
        // A tool with actions of its own (`kafka-features upgrade`, ...): each action's help.
        for sub in subcommands(&help) {
            out.push_str(&format!("\n### `fjord {c} {sub}`\n\n```text\n"));
            out.push_str(fjord(&[&c, &sub, "--help"]).trim_end());
            out.push_str("\n```\n");
        }
    }
    out
}

/// The metrics page from one scrape's text: every family's name, type, label names and help.
fn metrics_page(scrape: &str) -> String {
    use std::collections::{BTreeMap, BTreeSet};
    // name -> (type, help, label names)
    let mut families: BTreeMap<String, (String, String, BTreeSet<String>)> = BTreeMap::new();
    for line in scrape.lines() {
        if let Some(rest) = line.strip_prefix("# HELP ") {
            let (name, help) = rest.split_once(' ').unwrap_or((rest, ""));
            families.entry(name.to_string()).or_default().1 = help.to_string();
        } else if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, t) = rest.split_once(' ').unwrap_or((rest, ""));
            families.entry(name.to_string()).or_default().0 = t.to_string();
        } else if !line.starts_with('#') && !line.trim().is_empty() {
            let name_end = line.find(['{', ' ']).unwrap_or(line.len());
            let series = &line[..name_end];
            let Some(family) = families
                .keys()
                .filter(|f| series.starts_with(f.as_str()))
                .max_by_key(|f| f.len())
                .cloned()
            else {
                continue;
            };
            if let Some(labels) = line[name_end..]
                .strip_prefix('{')
                .and_then(|l| l.split_once('}'))
                .map(|(l, _)| l)
            {
                for pair in labels.split("\",") {
                    if let Some((k, _)) = pair.split_once('=') {
                        if k != "le" && k != "quantile" {
                            families
                                .get_mut(&family)
                                .unwrap()
                                .2
                                .insert(k.trim().to_string());
                        }
                    }
                }
            }
        }
    }
    let mut out = String::from(
        "# Metrics reference\n\n\
         Generated from a live node's `GET /metrics` (a combined node with a topic, a consumer\n\
         group and client quotas) by `crates/server/tests/reference_pages.rs`; a test fails when\n\
         it drifts. Names are those the Prometheus JMX exporter gives Kafka's MBeans; counters\n\
         carry the `_total` suffix in the samples. Partition series are reported by every\n\
         replica (0 on followers, as Kafka's). What to watch first, and the alerts built on these:\n\
         [observe](../guide/observe.md).\n\n\
         | series | type | labels | meaning |\n|---|---|---|---|\n",
    );
    for (name, (t, help, labels)) in &families {
        let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
        out.push_str(&format!(
            "| `{name}` | {t} | {} | {} |\n",
            if labels.is_empty() {
                String::new()
            } else {
                format!("`{}`", labels.join("`, `"))
            },
            cell(help)
        ));
    }
    out
}

/// Compares (or, with FJORD_WRITE_REFERENCE=1, writes) one page.
fn check(file: &str, expected: String) {
    let path = root().join("docs/reference").join(file);
    if std::env::var("FJORD_WRITE_REFERENCE").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &expected).unwrap();
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/reference/{file} is stale: run FJORD_WRITE_REFERENCE=1 cargo test -p fjord-server --test reference_pages"
    );
}

#[test]
fn the_configuration_reference_is_the_code() {
    check("configuration.md", configuration_page());
}

#[test]
fn the_error_code_reference_is_the_code() {
    check("errors.md", errors_page());
}

#[test]
fn the_commands_reference_is_the_binary() {
    check("commands.md", commands_page());
}

#[test]
fn the_metrics_reference_is_what_a_node_serves() {
    let root_dir = tempfile::tempdir().unwrap();
    let node = Node::embedded_like(root_dir.path());
    let addr = node.broker_addr();
    let bin = env!("CARGO_BIN_EXE_fjord");
    // Quotas on every client (so the per-client quota series exist), a topic, a record
    // produced and consumed in a group.
    let steps = [
        format!("{bin} kafka-configs --bootstrap-server {addr} --alter --entity-type clients --entity-default --add-config producer_byte_rate=100000000,consumer_byte_rate=100000000,request_percentage=1000,controller_mutation_rate=1000"),
        format!("{bin} kafka-topics --bootstrap-server {addr} --create --topic metrics-ref --partitions 1"),
        format!("echo one | {bin} kafka-console-producer --bootstrap-server {addr} --topic metrics-ref"),
        format!("{bin} kafka-console-consumer --bootstrap-server {addr} --topic metrics-ref --group metrics-ref --from-beginning --max-messages 1"),
    ];
    for step in &steps {
        let ok = wait_for(std::time::Duration::from_secs(60), || {
            std::process::Command::new("timeout")
                .args(["60", "sh", "-c", step])
                .output()
                .unwrap()
                .status
                .success()
                .then_some(())
        });
        assert!(ok.is_some(), "`{step}` failed\n{}", node.log_tail());
    }
    let file = "metrics.md";
    if std::env::var("FJORD_WRITE_REFERENCE").is_ok_and(|v| v == "1") {
        // Let every family appear (the quota series once their clients were measured).
        std::thread::sleep(std::time::Duration::from_secs(3));
        check(file, metrics_page(&metrics_text(node.metrics_port)));
        return;
    }
    // Scraped until it matches: some families appear once a client has been measured.
    let page =
        std::fs::read_to_string(root().join("docs/reference").join(file)).unwrap_or_default();
    let mut last = String::new();
    let same = wait_for(std::time::Duration::from_secs(30), || {
        last = metrics_page(&metrics_text(node.metrics_port));
        (last == page).then_some(())
    });
    if same.is_none() {
        check(file, last);
    }
}
