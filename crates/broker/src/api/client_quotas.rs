//! DescribeClientQuotas (KIP-546), answered by any broker from its image, with Kafka's checks
//! of the filter (each entity type once, a name only for EXACT, IP never beside user or
//! client id) and its matching (`fjord_metadata::quotas::matches`).

use fjord_metadata::quotas::{self, match_type, Component};
use fjord_metadata::MetadataImage;
use fjord_protocol::generated::{
    describe_client_quotas_request::DescribeClientQuotasRequest,
    describe_client_quotas_response::{
        DescribeClientQuotasResponse, EntityData, EntryData, ValueData,
    },
};
use fjord_protocol::ErrorCode;

/// The filter's components, or the refusal Kafka gives.
fn components(r: &DescribeClientQuotasRequest) -> Result<Vec<Component>, (ErrorCode, String)> {
    let invalid = |m: String| Err((ErrorCode::InvalidRequest, m));
    let mut out: Vec<Component> = Vec::new();
    for c in &r.components {
        if c.entity_type.is_empty() {
            return invalid("Invalid empty entity type.".into());
        }
        if out.iter().any(|(t, _, _)| *t == c.entity_type) {
            return invalid(format!(
                "Entity type {} cannot appear more than once in the filter.",
                c.entity_type
            ));
        }
        if ![quotas::IP, quotas::USER, quotas::CLIENT_ID].contains(&c.entity_type.as_str()) {
            return Err((
                ErrorCode::UnsupportedVersion,
                format!("Unsupported entity type {}", c.entity_type),
            ));
        }
        match c.match_type {
            match_type::EXACT if c.r#match.is_none() => {
                return invalid(
                    "Request specified MATCH_TYPE_EXACT, but set match string to null.".into(),
                )
            }
            match_type::DEFAULT if c.r#match.is_some() => {
                return invalid(
                    "Request specified MATCH_TYPE_DEFAULT, but also specified a match string."
                        .into(),
                )
            }
            match_type::SPECIFIED if c.r#match.is_some() => {
                return invalid(
                    "Request specified MATCH_TYPE_SPECIFIED, but also specified a match string."
                        .into(),
                )
            }
            match_type::EXACT | match_type::DEFAULT | match_type::SPECIFIED => {}
            other => return invalid(format!("Unknown match type {other}")),
        }
        out.push((c.entity_type.clone(), c.match_type, c.r#match.clone()));
    }
    let has = |t: &str| out.iter().any(|(x, _, _)| x == t);
    if has(quotas::IP) && (has(quotas::USER) || has(quotas::CLIENT_ID)) {
        return invalid(
            "Invalid entity filter component combination. IP filter component should not be \
             used with user or clientId filter component."
                .into(),
        );
    }
    Ok(out)
}

/// DescribeClientQuotas: every entity of the image the filter matches, with its values.
pub fn describe_client_quotas(
    image: &MetadataImage,
    r: &DescribeClientQuotasRequest,
) -> DescribeClientQuotasResponse {
    let filter = match components(r) {
        Ok(f) => f,
        Err((code, message)) => {
            return DescribeClientQuotasResponse {
                error_code: code.code(),
                error_message: Some(message),
                entries: None,
                ..Default::default()
            }
        }
    };
    let entries = image
        .quotas
        .by_entity
        .iter()
        .filter(|(entity, _)| quotas::matches(entity, &filter, r.strict))
        .map(|(entity, values)| EntryData {
            entity: entity
                .iter()
                .map(|(t, n)| EntityData {
                    entity_type: t.clone(),
                    entity_name: n.clone(),
                    ..Default::default()
                })
                .collect(),
            values: values
                .iter()
                .map(|(k, bits)| ValueData {
                    key: k.clone(),
                    value: f64::from_bits(*bits),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
        .collect();
    DescribeClientQuotasResponse {
        entries: Some(entries),
        ..Default::default()
    }
}
