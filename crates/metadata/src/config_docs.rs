//! The documentation DescribeConfigs answers when a client sets `IncludeDocumentation`: each
//! key's one line, in fjord's own words, from its definition in `fjord-configdef`.

/// The documentation of config `key` (a listener-prefixed key is documented as its base
/// key), if fjord has one.
pub fn documentation(key: &str) -> Option<&'static str> {
    let base = crate::config_defs::listener_base(key).unwrap_or(key);
    fjord_configdef::topic_key(base)
        .or_else(|| fjord_configdef::broker_key(base))
        .map(|d| d.doc)
}

/// Sets each described config's documentation when the request asked for it (null
/// otherwise, as Kafka answers).
pub fn document(
    response: &mut fjord_protocol::generated::describe_configs_response::DescribeConfigsResponse,
    include: bool,
) {
    for r in &mut response.results {
        for c in &mut r.configs {
            c.documentation = if include {
                documentation(&c.name).map(str::to_string)
            } else {
                None
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config_defs::{broker, topic};

    #[test]
    fn every_topic_and_dynamic_broker_key_is_documented() {
        let keys = topic::ALL.iter().chain(broker::ALL).map(|d| d.name);
        for key in keys {
            let doc = documentation(key).unwrap_or_else(|| panic!("{key} has no documentation"));
            assert!(doc.ends_with('.') || doc.ends_with(')'), "{key}: {doc}");
        }
        assert_eq!(
            documentation("listener.name.external.ssl.keystore.location"),
            documentation("ssl.keystore.location")
        );
        assert_eq!(documentation("no.such.key"), None);
    }
}
