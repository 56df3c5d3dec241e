//! Kafka's rules for a topic's tiered-storage keys (its `LogConfig.validate` with remote
//! storage): checked on the configs a topic would have after a CreateTopics or an
//! AlterConfigs, with Kafka's messages.

use fjord_configdef::topic;
use std::collections::BTreeMap;

/// Why Kafka refuses a topic whose configs would become `next` (from `previous`, none for a
/// new topic), on a cluster where tiered storage is `system_enabled` or not.
pub fn refusal(
    next: &BTreeMap<String, String>,
    previous: Option<&BTreeMap<String, String>>,
    system_enabled: bool,
) -> Option<String> {
    let text = |def: &fjord_configdef::Def, map: &BTreeMap<String, String>| {
        map.get(def.name)
            .cloned()
            .or_else(|| def.effective_default())
            .unwrap_or_default()
    };
    let flag = |def: &fjord_configdef::Def, map: &BTreeMap<String, String>| {
        text(def, map).eq_ignore_ascii_case("true")
    };
    let long = |def: &fjord_configdef::Def| text(def, next).trim().parse::<i64>().unwrap_or(-1);
    let remote = flag(&topic::REMOTE_STORAGE_ENABLE, next);
    let was_remote = previous.is_some_and(|p| flag(&topic::REMOTE_STORAGE_ENABLE, p));
    if was_remote && !remote && !flag(&topic::REMOTE_LOG_DELETE_ON_DISABLE, next) {
        return Some(
            "It is invalid to disable remote storage without deleting remote data. If you want \
             to keep the remote data and turn to read only, please set \
             `remote.storage.enable=true,remote.log.copy.disable=true`. If you want to disable \
             remote storage and delete all remote data, please set \
             `remote.storage.enable=false,remote.log.delete.on.disable=true`."
                .into(),
        );
    }
    if !remote {
        return None;
    }
    if !system_enabled {
        return Some(
            "Tiered Storage functionality is disabled in the broker. Topic cannot be configured \
             with remote log storage."
                .into(),
        );
    }
    if text(&topic::CLEANUP_POLICY, next)
        .split(',')
        .any(|p| p.trim() == "compact")
    {
        return Some(
            "Remote log storage only supports topics with cleanup.policy=delete or \
             cleanup.policy being an empty list."
                .into(),
        );
    }
    let pairs = [
        (&topic::RETENTION_MS, &topic::LOCAL_RETENTION_MS),
        (&topic::RETENTION_BYTES, &topic::LOCAL_RETENTION_BYTES),
    ];
    for (total, local) in pairs {
        let (t, l) = (long(total), long(local));
        if t > -1 && l != -2 {
            if l == -1 {
                return Some(format!(
                    "Invalid value -1 for configuration {}: Value must not be -1 as {} value is \
                     set as {t}.",
                    local.name, total.name
                ));
            }
            if l > t {
                return Some(format!(
                    "Invalid value {l} for configuration {}: Value must not be more than {} \
                     property value: {t}",
                    local.name, total.name
                ));
            }
        }
    }
    if flag(&topic::REMOTE_LOG_COPY_DISABLE, next) {
        for (total, local) in pairs {
            let (t, l) = (long(total), long(local));
            if l != -2 && l != t {
                return Some(format!(
                    "When `remote.log.copy.disable` is set to true, the `{}` and `{}` must be \
                     set to the identical value because there will be no more logs copied to \
                     the remote storage.",
                    local.name, total.name
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(kv: &[(&str, &str)]) -> BTreeMap<String, String> {
        kv.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn kafkas_rules_with_kafkas_messages() {
        let on = map(&[("remote.storage.enable", "true")]);
        assert!(refusal(&on, None, false)
            .unwrap()
            .starts_with("Tiered Storage functionality is disabled"));
        assert_eq!(refusal(&on, None, true), None);
        let compact = map(&[
            ("remote.storage.enable", "true"),
            ("cleanup.policy", "compact"),
        ]);
        assert!(refusal(&compact, None, true)
            .unwrap()
            .contains("cleanup.policy=delete"));
        let local = map(&[
            ("remote.storage.enable", "true"),
            ("retention.ms", "1000"),
            ("local.retention.ms", "5000"),
        ]);
        assert_eq!(
            refusal(&local, None, true).unwrap(),
            "Invalid value 5000 for configuration local.retention.ms: Value must not be more \
             than retention.ms property value: 1000"
        );
        let off = map(&[("remote.storage.enable", "false")]);
        assert!(refusal(&off, Some(&on), true)
            .unwrap()
            .starts_with("It is invalid to disable"));
        let off_delete = map(&[
            ("remote.storage.enable", "false"),
            ("remote.log.delete.on.disable", "true"),
        ]);
        assert_eq!(refusal(&off_delete, Some(&on), true), None);
        let read_only = map(&[
            ("remote.storage.enable", "true"),
            ("remote.log.copy.disable", "true"),
            ("local.retention.ms", "1000"),
        ]);
        assert!(refusal(&read_only, None, true)
            .unwrap()
            .contains("`local.retention.ms` and"));
    }
}
