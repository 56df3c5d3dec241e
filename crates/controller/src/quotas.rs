//! AlterClientQuotas (KIP-546) at the controller, with Kafka's checks: an entity of users
//! and/or client ids (each named or the default, never empty, never twice), keys Kafka knows
//! for it, values above 0 and whole where the key is a byte rate. Each change is a
//! `ClientQuotaRecord` (a value set, or removed), written only when it changes something;
//! `ValidateOnly` writes nothing. IP entities (`connection_creation_rate`) are refused:
//! fjord does not limit connection rates.

use crate::controller::{Controller, Handled};
use fjord_metadata::quotas::{
    ClientQuotasImage, QuotaEntity, CLIENT_ID, CLIENT_QUOTA_KEYS, IP, USER,
};
use fjord_protocol::generated::{
    alter_client_quotas_request::{AlterClientQuotasRequest, EntityData as RequestEntity},
    alter_client_quotas_response::{AlterClientQuotasResponse, EntityData, EntryData},
    client_quota_record::{self, ClientQuotaRecord},
};
use fjord_protocol::{ErrorCode, MetadataRecord, ResponseBody};
use std::collections::{BTreeMap, BTreeSet};

/// The most entities one AlterClientQuotas may change.
pub const MAX_QUOTA_ENTRIES_PER_REQUEST: usize = 10_000;

/// An entity as Kafka's messages print it: `ClientQuotaEntity(entries={user=alice})`.
fn entity_text(data: &[RequestEntity]) -> String {
    let parts: Vec<String> = data
        .iter()
        .map(|e| {
            format!(
                "{}={}",
                e.entity_type,
                e.entity_name.as_deref().unwrap_or("null")
            )
        })
        .collect();
    format!("ClientQuotaEntity(entries={{{}}})", parts.join(", "))
}

/// The entity `data` names, or why it is invalid (INVALID_REQUEST).
fn validated(data: &[RequestEntity]) -> Result<QuotaEntity, String> {
    if data.is_empty() {
        return Err("Invalid empty client quota entity".into());
    }
    let mut entity = QuotaEntity::new();
    for e in data {
        if entity.contains_key(&e.entity_type) {
            return Err(format!(
                "Invalid client quota entity, duplicate entity entry {}",
                e.entity_type
            ));
        }
        match e.entity_type.as_str() {
            USER | CLIENT_ID => {}
            IP => {
                return Err(
                    "IP quota entities (connection_creation_rate) are not supported: fjord \
                     does not limit connection rates"
                        .into(),
                )
            }
            other => return Err(format!("Unhandled client quota entity type: {other}")),
        }
        if e.entity_name.as_deref() == Some("") {
            return Err(format!("Empty {} not supported", e.entity_type));
        }
        entity.insert(e.entity_type.clone(), e.entity_name.clone());
    }
    Ok(entity)
}

/// Checks one value for `key` as Kafka's `validateQuotaKeyValue` does.
fn check_value(key: &str, value: f64) -> Result<(), String> {
    let Some((_, whole)) = CLIENT_QUOTA_KEYS.iter().find(|(k, _)| *k == key) else {
        return Err(format!("Invalid configuration key {key}"));
    };
    if value <= 0.0 || value.is_nan() {
        return Err(format!("Quota {key} must be greater than 0"));
    }
    if *whole {
        if value > i64::MAX as f64 {
            return Err(format!("Proposed value for {key} is too large for a LONG."));
        }
        if (value % 1.0).abs() > 1e-6 {
            return Err(format!("{key} cannot be a fractional value."));
        }
    }
    Ok(())
}

impl Controller {
    /// AlterClientQuotas: each entry answered on its own; the records of the valid ones are
    /// written together.
    pub(crate) fn alter_client_quotas(&mut self, r: &AlterClientQuotasRequest) -> Handled {
        if r.entries.len() > MAX_QUOTA_ENTRIES_PER_REQUEST {
            return crate::controller::too_large();
        }
        let mut records = Vec::new();
        let mut entries = Vec::with_capacity(r.entries.len());
        let mut seen = BTreeSet::new();
        let quotas = self.image().quotas.clone();
        for entry in &r.entries {
            let outcome = entry_records(&quotas, entry, &mut seen);
            let (code, message) = match outcome {
                Ok(more) => {
                    records.extend(more);
                    (ErrorCode::None, None)
                }
                Err(m) => (ErrorCode::InvalidRequest, Some(m)),
            };
            entries.push(EntryData {
                error_code: code.code(),
                error_message: message,
                entity: entry
                    .entity
                    .iter()
                    .map(|e| EntityData {
                        entity_type: e.entity_type.clone(),
                        entity_name: e.entity_name.clone(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            });
        }
        let response = ResponseBody::AlterClientQuotas(AlterClientQuotasResponse {
            entries,
            ..Default::default()
        });
        if r.validate_only {
            return Handled::Reply(response);
        }
        self.write(records, response)
    }
}

/// The records one entry writes, or why it is refused.
fn entry_records(
    quotas: &ClientQuotasImage,
    entry: &fjord_protocol::generated::alter_client_quotas_request::EntryData,
    seen: &mut BTreeSet<QuotaEntity>,
) -> Result<Vec<MetadataRecord>, String> {
    let entity = validated(&entry.entity)?;
    if !seen.insert(entity.clone()) {
        return Err(format!(
            "Ignoring duplicate entity {}",
            entity_text(&entry.entity)
        ));
    }
    let mut ops: BTreeMap<&str, Option<f64>> = BTreeMap::new();
    for op in &entry.ops {
        if ops.contains_key(op.key.as_str()) {
            return Err(format!(
                "Duplicate quota key {} not updating quota for this entity {}",
                op.key,
                entity_text(&entry.entity)
            ));
        }
        if !op.remove {
            check_value(&op.key, op.value)?;
        }
        ops.insert(&op.key, (!op.remove).then_some(op.value));
    }
    let record_entity: Vec<client_quota_record::EntityData> = entity
        .iter()
        .map(|(t, n)| client_quota_record::EntityData {
            entity_type: t.clone(),
            entity_name: n.clone(),
            ..Default::default()
        })
        .collect();
    let mut out = Vec::new();
    for (key, value) in ops {
        let current = quotas.get(&entity, key);
        let record = match value {
            None if current.is_some() => ClientQuotaRecord {
                entity: record_entity.clone(),
                key: key.to_string(),
                remove: true,
                ..Default::default()
            },
            Some(v) if current != Some(v) => ClientQuotaRecord {
                entity: record_entity.clone(),
                key: key.to_string(),
                value: v,
                ..Default::default()
            },
            _ => continue,
        };
        out.push(MetadataRecord::ClientQuota(record));
    }
    Ok(out)
}
