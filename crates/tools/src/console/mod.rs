//! `kafka-console-producer`, `kafka-console-consumer` and `kafka-console-share-consumer`:
//! lines from stdin to a topic, and a topic's records to stdout (a share group's, acknowledged), with Kafka's common flags and `--property` settings.

pub mod consumer;
mod group;
mod partitioner;
pub mod producer;
pub mod share_consumer;

use crate::common::ToolError;
use std::collections::BTreeMap;

/// `--property k=v` (and `--producer-property`, `--consumer-property`) values, by key.
pub(crate) fn properties(
    list: &[String],
    flag: &str,
) -> Result<BTreeMap<String, String>, ToolError> {
    list.iter()
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.to_string()))
                .ok_or_else(|| {
                    ToolError::Usage(format!("Invalid {flag} {p:?}: expected key=value"))
                })
        })
        .collect()
}

/// A property as a boolean ("true", any case).
pub(crate) fn flag(props: &BTreeMap<String, String>, key: &str) -> bool {
    props
        .get(key)
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
}

/// Kafka's escapes in separators given on a command line (`\t`, `\n`).
pub(crate) fn unescape(s: &str) -> String {
    s.replace("\\t", "\t")
        .replace("\\n", "\n")
        .replace("\\r", "\r")
}
