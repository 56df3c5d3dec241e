//! The differential tests' shared pieces: one request asked of a node on a connection of its
//! own, its answer in a canonical order and with what must differ between Kafka and fjord
//! (ids, ports, hosts, times, producer ids) normalised.

use fjord_net::client::Client;
use fjord_protocol::generated::produce_request::ProduceRequest;
use fjord_protocol::{RequestBody, ResponseBody};
use std::time::Duration;

/// How long one request may take on either system.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// One request on a connection of its own: the answer, or how it failed.
pub async fn ask(addr: &str, body: RequestBody, version: i16) -> String {
    let c = match Client::connect(addr, CALL_TIMEOUT).await {
        Ok(c) => c,
        Err(e) => return format!("connect failed: {e}"),
    };
    match c.call(body, version, CALL_TIMEOUT).await {
        Ok(mut r) => {
            canonical(&mut r);
            format!("{r:?}")
        }
        Err(e) => format!("no answer: {}", kind(&e.to_string())),
    }
}

/// Lists whose order carries no meaning (Kafka's come from hash maps) in a fixed order.
pub fn canonical(r: &mut ResponseBody) {
    match r {
        ResponseBody::Metadata(m) => m.topics.sort_by(|a, b| a.name.cmp(&b.name)),
        ResponseBody::ListConfigResources(l) => l.config_resources.sort_by(|a, b| {
            (a.resource_type, &a.resource_name).cmp(&(b.resource_type, &b.resource_name))
        }),
        ResponseBody::ListGroups(l) => l.groups.sort_by(|a, b| a.group_id.cmp(&b.group_id)),
        // A group's configs: Kafka lists a Java HashMap's entries (its `GroupConfig`).
        ResponseBody::DescribeConfigs(d) => {
            for res in d.results.iter_mut().filter(|r| r.resource_type == 32) {
                res.configs.sort_by(|a, b| a.name.cmp(&b.name));
            }
        }
        _ => {}
    }
}

/// A client error's kind, without addresses.
pub fn kind(e: &str) -> String {
    if e.contains("closed") || e.contains("reset") || e.contains("EOF") || e.contains("eof") {
        "connection closed".into()
    } else if e.contains("timed out") || e.contains("timeout") {
        "timed out".into()
    } else {
        e.to_string()
    }
}

/// An answer with what must differ replaced: ids, ports, hosts, times, producer ids.
pub fn normalise(s: &str) -> String {
    let rules: &[(&str, &str)] = &[
        (
            r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
            "<uuid>",
        ),
        (r#"cluster_id: (Some\()?"[^"]*""#, "cluster_id: <id>"),
        (r"port: \d+", "port: <port>"),
        (
            r"(Local controller|Controller|Broker) \d+ only",
            "$1 <node> only",
        ),
        (r#"log_dir: "[^"]*""#, "log_dir: <dir>"),
        (r#"\\"[A-Za-z0-9_-]{22}\\""#, "<cluster id>"),
        (r"(total_bytes|usable_bytes): -?\d+", "$1: <n>"),
        (
            r"(producer_id|throttle_time_ms|session_id|subscription_id): -?\d+",
            "$1: <n>",
        ),
        (
            r"(timestamp|log_append_time_ms|start_time_ms): -?\d+",
            "$1: <time>",
        ),
    ];
    let mut out = s.to_string();
    for (re, with) in rules {
        out = regex::Regex::new(re)
            .unwrap()
            .replace_all(&out, *with)
            .into_owned();
    }
    out
}

/// Produce (acks=1) of one record with a `size`-byte value to `topic` partition `partition`.
pub fn produce(topic: &str, partition: i32, size: usize) -> RequestBody {
    use fjord_protocol::generated::produce_request::{PartitionProduceData, TopicProduceData};
    use fjord_protocol::records::builder::RecordBatchBuilder;
    use fjord_protocol::records::compression::Compression;
    use fjord_protocol::Records;
    let mut b = RecordBatchBuilder::new(Compression::None);
    b.append(1_700_000_000_000, None, Some(&vec![b'x'; size]), &[]);
    RequestBody::Produce(ProduceRequest {
        acks: 1,
        timeout_ms: 10_000,
        topic_data: vec![TopicProduceData {
            name: topic.into(),
            partition_data: vec![PartitionProduceData {
                index: partition,
                records: Some(Records::Memory(b.build().unwrap())),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    })
}

/// IncrementalAlterConfigs SET of `configs` on broker resource `name` ("" is the cluster's
/// default), validate only (the comparison leaves both systems as they were).
pub fn alter_broker(name: &str, configs: &[(&str, &str)]) -> RequestBody {
    alter_resource(4, name, configs)
}

/// A validate-only IncrementalAlterConfigs SET of `configs` on resource (`kind`, `name`).
pub fn alter_resource(kind: i8, name: &str, configs: &[(&str, &str)]) -> RequestBody {
    set_configs(kind, name, configs, true)
}

/// IncrementalAlterConfigs SET of `configs` on resource (`kind`, `name`), applied or only
/// validated.
pub fn set_configs(
    kind: i8,
    name: &str,
    configs: &[(&str, &str)],
    validate_only: bool,
) -> RequestBody {
    use fjord_protocol::generated::incremental_alter_configs_request::{
        AlterConfigsResource, AlterableConfig, IncrementalAlterConfigsRequest,
    };
    RequestBody::IncrementalAlterConfigs(IncrementalAlterConfigsRequest {
        resources: vec![AlterConfigsResource {
            resource_type: kind,
            resource_name: name.into(),
            configs: configs
                .iter()
                .map(|(k, v)| AlterableConfig {
                    name: (*k).into(),
                    config_operation: 0,
                    value: Some((*v).into()),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }],
        validate_only,
        ..Default::default()
    })
}
