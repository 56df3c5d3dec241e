//! The reference pages of the operator's guide are generated from the code and never drift
//! (issue 38): `docs/reference/configuration.md` (every broker key fjord reads and every topic
//! key, with type, default, whether it changes at runtime, and its documentation),
//! `docs/reference/errors.md` (the error-code table) and `docs/reference/commands.md` (the
//! `--help` of `fjord` and of every subcommand). A test fails when a page differs from what
//! the code gives; `FJORD_WRITE_REFERENCE=1 cargo test -p fjord-server --test
//! reference_pages` writes them.

use fjord_metadata::config_defs::{
    ConfigType, BROKER_DYNAMIC_CONFIGS, LISTENER_KEYS, OTHER_DYNAMIC_KEYS, SSL_STORE_KEYS,
    TOPIC_CONFIGS,
};
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
    let dynamic = |k: &str| {
        BROKER_DYNAMIC_CONFIGS.iter().any(|(n, ..)| *n == k)
            || OTHER_DYNAMIC_KEYS.iter().any(|(n, _)| *n == k)
            || LISTENER_KEYS.iter().any(|(n, _)| *n == k)
            || SSL_STORE_KEYS.iter().any(|(n, _)| *n == k)
    };
    let doc = |k: &str| fjord_metadata::config_docs::documentation(k).unwrap_or("");
    let mut out = String::from(
        "# Configuration reference\n\n\
         Generated from the code (`crates/config`, `crates/metadata/src/config_defs.rs` and\n\
         `config_docs.rs`) by `crates/server/tests/reference_pages.rs`; a test fails when it\n\
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
    let mut topics: Vec<_> = TOPIC_CONFIGS.iter().collect();
    topics.sort_by_key(|(n, ..)| *n);
    for (name, t, default) in topics {
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

fn commands_page() -> String {
    let top = fjord(&["--help"]);
    let subcommands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect();
    let mut out = String::from(
        "# Commands\n\n\
         Generated from the `fjord` binary's `--help` by `crates/server/tests/reference_pages.rs`.\n\
         Each tool is also reached through a link named after Kafka's script (`kafka-topics.sh`\n\
         or `kafka-topics`).\n\n```text\n",
    );
    out.push_str(top.trim_end());
    out.push_str("\n```\n");
    for c in subcommands {
        out.push_str(&format!("\n## `fjord {c}`\n\n```text\n"));
        out.push_str(fjord(&[&c, "--help"]).trim_end());
        out.push_str("\n```\n");
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
