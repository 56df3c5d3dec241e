//! `kafka-configs` for users and clients: client quotas described (DescribeClientQuotas, the
//! entities that have exactly the named types) and altered (AlterClientQuotas), and users'
//! SCRAM credentials beside them, with Kafka's checks and lines ("Quota configs for
//! user-principal 'alice', client-id 'app' are producer_byte_rate=1048576.0").

use crate::common::ToolError;
use crate::configs::{parse_add_config, Args};
use fjord_admin::{expect_response, Admin, AdminError};
use fjord_protocol::generated::{
    alter_client_quotas_request::{AlterClientQuotasRequest, EntityData, EntryData, OpData},
    describe_client_quotas_request::{ComponentData, DescribeClientQuotasRequest},
};
use fjord_protocol::RequestBody;
use std::collections::BTreeMap;

/// The quota keys Kafka's tool accepts for users and clients.
const QUOTA_KEYS: [&str; 4] = [
    "producer_byte_rate",
    "consumer_byte_rate",
    "request_percentage",
    "controller_mutation_rate",
];

/// The entity type a flag's type names.
fn entity_type(t: &str) -> &'static str {
    if t == "users" {
        "user"
    } else {
        "client-id"
    }
}

fn is_scram(key: &str) -> bool {
    key == "SCRAM-SHA-256" || key == "SCRAM-SHA-512"
}

/// A number as Java's `Double.toString` prints it (`1048576.0`, `1.0E7`, `0.5`).
pub fn java_double(v: f64) -> String {
    let a = v.abs();
    if v != 0.0 && !(1e-3..1e7).contains(&a) {
        let s = format!("{v:e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let mantissa = if mantissa.contains('.') {
            mantissa.to_string()
        } else {
            format!("{mantissa}.0")
        };
        return format!("{mantissa}E{exp}");
    }
    let s = format!("{v}");
    if s.contains('.') {
        s
    } else {
        format!("{s}.0")
    }
}

/// Describes or alters the quotas of `parts` (and users' SCRAM credentials).
pub(crate) async fn run(
    admin: &Admin,
    a: &Args,
    parts: &[(String, Option<String>)],
) -> Result<(), ToolError> {
    if a.describe {
        describe(admin, parts).await?;
        let clients = parts.iter().any(|(t, _)| t == "clients");
        let default = parts.iter().any(|(_, n)| n.as_deref() == Some(""));
        if !clients && !default {
            let user = parts.first().and_then(|(_, n)| n.as_deref());
            crate::configs::users(admin, a, user).await?;
        }
        return Ok(());
    }
    if parts.iter().any(|(_, n)| n.is_none()) {
        return Err(ToolError::Usage(
            "--entity-name or --entity-default must be specified with each --entity-type for --alter"
                .into(),
        ));
    }
    let mut adds: Vec<(String, String)> = Vec::new();
    if let Some(s) = &a.add_config {
        adds = parse_add_config(s).map_err(|e| ToolError::Usage(e.0))?;
    }
    let deletes: Vec<String> = a
        .delete_config
        .as_deref()
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(str::to_string)
        .collect();
    let head = &parts[0];
    let users_only = parts.len() == 1 && head.0 == "users";
    let unknown = |keys: Vec<&str>| -> Vec<String> {
        keys.into_iter()
            .filter(|k| !(QUOTA_KEYS.contains(k) || users_only && is_scram(k)))
            .map(str::to_string)
            .collect()
    };
    let (what, scope) = if users_only {
        ("quota and SCRAM credential", "users")
    } else {
        ("quota", "clients")
    };
    let bad_adds = unknown(adds.iter().map(|(k, _)| k.as_str()).collect());
    if !bad_adds.is_empty() {
        return Err(ToolError::Failed(format!(
            "Only {what} configs can be added for '{scope}' using --bootstrap-server. Unexpected config names: Set({})",
            bad_adds.join(", ")
        )));
    }
    let bad_deletes = unknown(deletes.iter().map(String::as_str).collect());
    if !bad_deletes.is_empty() {
        return Err(ToolError::Failed(format!(
            "Only {what} configs can be deleted for '{scope}' using --bootstrap-server. Unexpected config names: Set({})",
            bad_deletes.join(", ")
        )));
    }
    let scram = adds.iter().any(|(k, _)| is_scram(k)) || deletes.iter().any(|k| is_scram(k));
    let quota = adds.iter().any(|(k, _)| !is_scram(k)) || deletes.iter().any(|k| !is_scram(k));
    if scram {
        if head.1.as_deref() == Some("") {
            return Err(ToolError::Failed(
                "The use of --entity-default or --user-defaults is not allowed with User SCRAM Credentials using --bootstrap-server.".into(),
            ));
        }
        if quota {
            return Err(ToolError::Failed(
                "Cannot alter both quota and SCRAM credential configs simultaneously for 'users' using --bootstrap-server.".into(),
            ));
        }
        return crate::configs::users(admin, a, head.1.as_deref()).await;
    }
    if adds.is_empty() && deletes.is_empty() {
        return Err(ToolError::Usage(
            "At least one of --add-config or --delete-config must be specified with --alter".into(),
        ));
    }
    alter(admin, parts, &adds, &deletes).await?;
    match head.1.as_deref() {
        Some("") | None => println!(
            "Completed updating default config for {} in the cluster.",
            head.0
        ),
        Some(n) => println!(
            "Completed updating config for {} {n}.",
            head.0.trim_end_matches('s')
        ),
    }
    Ok(())
}

/// The entities and values DescribeClientQuotas gives for exactly these parts.
async fn quotas(
    admin: &Admin,
    parts: &[(String, Option<String>)],
) -> Result<Vec<(BTreeMap<String, Option<String>>, BTreeMap<String, f64>)>, ToolError> {
    let components = parts
        .iter()
        .map(|(t, n)| {
            let (match_type, m) = match n.as_deref() {
                Some("") => (1, None),
                Some(name) => (0, Some(name.to_string())),
                None => (2, None),
            };
            ComponentData {
                entity_type: entity_type(t).into(),
                match_type,
                r#match: m,
                ..Default::default()
            }
        })
        .collect();
    let body = RequestBody::DescribeClientQuotas(DescribeClientQuotasRequest {
        components,
        strict: true,
        ..Default::default()
    });
    let r = admin
        .retry(|| async {
            let r = admin.call_any(body.clone(), 0..=1).await?;
            let r = expect_response!(r, DescribeClientQuotas)?;
            AdminError::check(r.error_code, r.error_message.as_deref()).map(|()| r)
        })
        .await
        .map_err(ToolError::from_server)?;
    Ok(r.entries
        .unwrap_or_default()
        .into_iter()
        .map(|e| {
            (
                e.entity
                    .into_iter()
                    .map(|x| (x.entity_type, x.entity_name))
                    .collect(),
                e.values.into_iter().map(|v| (v.key, v.value)).collect(),
            )
        })
        .collect())
}

async fn describe(admin: &Admin, parts: &[(String, Option<String>)]) -> Result<(), ToolError> {
    for (entity, values) in quotas(admin, parts).await? {
        let part = |t: &str, words: &str| {
            entity.get(t).map(|n| match n {
                Some(name) => format!("{words} '{name}'"),
                None => format!("the default {words}"),
            })
        };
        let who: Vec<String> = [
            part("user", "user-principal"),
            part("client-id", "client-id"),
            part("ip", "ip"),
        ]
        .into_iter()
        .flatten()
        .collect();
        let values: Vec<String> = values
            .iter()
            .map(|(k, v)| format!("{k}={}", java_double(*v)))
            .collect();
        println!(
            "Quota configs for {} are {}",
            who.join(", "),
            values.join(", ")
        );
    }
    Ok(())
}

async fn alter(
    admin: &Admin,
    parts: &[(String, Option<String>)],
    adds: &[(String, String)],
    deletes: &[String],
) -> Result<(), ToolError> {
    let current = quotas(admin, parts)
        .await?
        .into_iter()
        .next()
        .map(|(_, v)| v)
        .unwrap_or_default();
    let invalid: Vec<&str> = deletes
        .iter()
        .filter(|k| !current.contains_key(*k))
        .map(String::as_str)
        .collect();
    if !invalid.is_empty() {
        return Err(ToolError::Failed(format!(
            "Invalid config(s): {}",
            invalid.join(",")
        )));
    }
    let mut ops = Vec::new();
    for (k, v) in adds {
        let value = v.trim().parse::<f64>().map_err(|_| {
            ToolError::Failed(format!(
                "Cannot parse quota configuration value for {k}: {v}"
            ))
        })?;
        ops.push(OpData {
            key: k.clone(),
            value,
            remove: false,
            ..Default::default()
        });
    }
    ops.extend(deletes.iter().map(|k| OpData {
        key: k.clone(),
        remove: true,
        ..Default::default()
    }));
    let entity = parts
        .iter()
        .map(|(t, n)| EntityData {
            entity_type: entity_type(t).into(),
            entity_name: n.clone().filter(|n| !n.is_empty()),
            ..Default::default()
        })
        .collect();
    let body = RequestBody::AlterClientQuotas(AlterClientQuotasRequest {
        entries: vec![EntryData {
            entity,
            ops,
            ..Default::default()
        }],
        validate_only: false,
        ..Default::default()
    });
    let r = admin
        .retry(|| async {
            let r = admin.call_controller(body.clone(), 0..=1).await?;
            expect_response!(r, AlterClientQuotas)
        })
        .await
        .map_err(ToolError::from_server)?;
    for e in &r.entries {
        AdminError::check(e.error_code, e.error_message.as_deref())
            .map_err(ToolError::from_server)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::java_double;

    #[test]
    fn doubles_print_as_java_prints_them() {
        assert_eq!(java_double(1_048_576.0), "1048576.0");
        assert_eq!(java_double(1e7), "1.0E7");
        assert_eq!(java_double(12_345_678.0), "1.2345678E7");
        assert_eq!(java_double(0.5), "0.5");
        assert_eq!(java_double(200.0), "200.0");
        assert_eq!(java_double(0.0001), "1.0E-4");
    }
}
