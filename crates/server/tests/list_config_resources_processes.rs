//! ListConfigResources (api key 74, KIP-1142) on a real node: every type when none is asked
//! (brokers as brokers and as broker loggers, topics by name), only the asked types, v0 (the
//! old ListClientMetricsResources) listing client metrics only, and a type Kafka does not list
//! failing the whole request with UNSUPPORTED_VERSION. The node advertises versions 0-1.

mod common;

use common::{call, create, Node};
use fjord_protocol::generated::list_config_resources_request::ListConfigResourcesRequest;
use fjord_protocol::generated::list_config_resources_response::ListConfigResourcesResponse;
use fjord_protocol::{ApiKey, ErrorCode, RequestBody, ResponseBody};

async fn list(addr: &str, types: &[i8], version: i16) -> ListConfigResourcesResponse {
    let body = RequestBody::ListConfigResources(ListConfigResourcesRequest {
        resource_types: types.to_vec(),
        ..Default::default()
    });
    match call(addr, body, version).await {
        Some(ResponseBody::ListConfigResources(r)) => r,
        other => panic!("ListConfigResources v{version}: {other:?}"),
    }
}

fn rows(r: &ListConfigResourcesResponse) -> Vec<(i8, String)> {
    r.config_resources
        .iter()
        .map(|c| (c.resource_type, c.resource_name.clone()))
        .collect()
}

#[test]
fn config_resources_are_listed_by_type() {
    let root = tempfile::tempdir().unwrap();
    let node = Node::single(root.path(), 0, "");
    let addr = node.broker_addr();
    create(&addr, "zeta", "1", &[]);
    create(&addr, "alpha", "1", &[]);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(listed(&addr));
}

async fn listed(addr: &str) {
    let addr = addr.to_string();

    let versions = match call(&addr, common::api_versions_request(), 3).await {
        Some(ResponseBody::ApiVersions(v)) => v,
        other => panic!("ApiVersions: {other:?}"),
    };
    let advertised = versions
        .api_keys
        .iter()
        .find(|k| k.api_key == ApiKey::ListConfigResources.key())
        .map(|k| (k.min_version, k.max_version));
    assert_eq!(advertised, Some((0, 1)));

    let all = list(&addr, &[], 1).await;
    assert_eq!(all.error_code, 0);
    let all = rows(&all);
    let topics: Vec<&str> = all
        .iter()
        .filter(|(t, _)| *t == 2)
        .map(|(_, n)| n.as_str())
        .collect();
    assert_eq!(topics, ["alpha", "zeta"], "{all:?}");
    // Broker loggers before brokers, then topics: Kafka's order.
    let first_topic = all.iter().position(|(t, _)| *t == 2).unwrap();
    assert_eq!(
        &all[..first_topic],
        &[(8, "1".to_string()), (4, "1".to_string())]
    );

    let only_brokers = list(&addr, &[4], 1).await;
    assert_eq!(rows(&only_brokers), [(4, "1".to_string())]);

    let v0 = list(&addr, &[], 0).await;
    assert_eq!((v0.error_code, v0.config_resources.len()), (0, 0));

    let unknown = list(&addr, &[2, 64], 1).await;
    assert_eq!(unknown.error_code, ErrorCode::UnsupportedVersion.code());
    assert!(unknown.config_resources.is_empty());
}
