//! Client quotas in the image (KIP-13, KIP-55, KIP-546, KIP-599): each entity's values, as
//! `ClientQuotaRecord`s set and remove them; the filter DescribeClientQuotas matches entities
//! with; and the resolution a broker enforces: for a (user, client id) and a key, the most
//! specific entity that sets it, in Kafka's order, with the tags of the sensor it is measured
//! in.

use crate::image::Map;
use fjord_protocol::generated::client_quota_record::{ClientQuotaRecord, EntityData};
use std::collections::BTreeMap;

/// Kafka's entity type of a user principal.
pub const USER: &str = "user";
/// Kafka's entity type of a client id.
pub const CLIENT_ID: &str = "client-id";
/// Kafka's entity type of an IP address.
pub const IP: &str = "ip";

/// Bytes a second a producer may send.
pub const PRODUCER_BYTE_RATE: &str = "producer_byte_rate";
/// Bytes a second a consumer may fetch.
pub const CONSUMER_BYTE_RATE: &str = "consumer_byte_rate";
/// Percent of one request handler's time a client may use.
pub const REQUEST_PERCENTAGE: &str = "request_percentage";
/// Partitions a second a client may create or delete (KIP-599).
pub const CONTROLLER_MUTATION_RATE: &str = "controller_mutation_rate";

/// The keys a user or client-id entity takes: name, and whether whole numbers only.
pub const CLIENT_QUOTA_KEYS: [(&str, bool); 4] = [
    (PRODUCER_BYTE_RATE, true),
    (CONSUMER_BYTE_RATE, true),
    (REQUEST_PERCENTAGE, false),
    (CONTROLLER_MUTATION_RATE, false),
];

/// A quota entity: entity type to name (`None`: the type's default).
pub type QuotaEntity = BTreeMap<String, Option<String>>;

/// Every entity's quota values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientQuotasImage {
    /// Values by entity, then key (an `f64`'s bits, so that the image compares exactly).
    pub by_entity: Map<QuotaEntity, BTreeMap<String, u64>>,
}

/// The quota a broker applies to a client, and the sensor it is measured in.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The bound.
    pub value: f64,
    /// The sensor's `user` tag: the client's user when the quota's entity names users (its
    /// own name or the default), else empty.
    pub user: String,
    /// The sensor's `client-id` tag, the same way.
    pub client_id: String,
}

impl ClientQuotasImage {
    /// The entity of a record.
    pub fn entity_of(data: &[EntityData]) -> QuotaEntity {
        data.iter()
            .map(|e| (e.entity_type.clone(), e.entity_name.clone()))
            .collect()
    }

    /// The value of `key` set on exactly `entity`.
    pub fn get(&self, entity: &QuotaEntity, key: &str) -> Option<f64> {
        self.by_entity
            .get(entity)
            .and_then(|m| m.get(key))
            .map(|b| f64::from_bits(*b))
    }

    /// Folds one record in.
    pub fn replay(&mut self, r: &ClientQuotaRecord) {
        let entity = ClientQuotasImage::entity_of(&r.entity);
        if r.remove {
            let emptied = match self.by_entity.get_mut(&entity) {
                Some(values) => {
                    values.remove(&r.key);
                    values.is_empty()
                }
                None => false,
            };
            if emptied {
                self.by_entity.remove(&entity);
            }
        } else {
            self.by_entity
                .entry(entity)
                .or_default()
                .insert(r.key.clone(), r.value.to_bits());
        }
    }

    /// Every value as the records that set it (for a snapshot).
    pub fn records(&self) -> Vec<ClientQuotaRecord> {
        let mut out = Vec::new();
        for (entity, values) in self.by_entity.iter() {
            for (key, bits) in values {
                out.push(ClientQuotaRecord {
                    entity: entity
                        .iter()
                        .map(|(t, n)| EntityData {
                            entity_type: t.clone(),
                            entity_name: n.clone(),
                            ..Default::default()
                        })
                        .collect(),
                    key: key.clone(),
                    value: f64::from_bits(*bits),
                    remove: false,
                    ..Default::default()
                });
            }
        }
        out
    }

    /// The quota `key` for a client of `user` with `client_id`: the first entity that sets it
    /// of /users/u/clients/c, /users/u/clients/default, /users/u, /users/default/clients/c,
    /// /users/default/clients/default, /users/default, /clients/c, /clients/default (Kafka's
    /// order); `None` when no quota applies.
    pub fn resolve(&self, user: &str, client_id: &str, key: &str) -> Option<Resolved> {
        if self.by_entity.is_empty() {
            return None;
        }
        let u = Some(user.to_string());
        let c = Some(client_id.to_string());
        // Each entity's user part and client-id part: absent, the default, or the name.
        type Part<'a> = Option<&'a Option<String>>;
        let order: [(Part, Part); 8] = [
            (Some(&u), Some(&c)),
            (Some(&u), Some(&None)),
            (Some(&u), None),
            (Some(&None), Some(&c)),
            (Some(&None), Some(&None)),
            (Some(&None), None),
            (None, Some(&c)),
            (None, Some(&None)),
        ];
        for (user_part, client_part) in order {
            let mut entity = QuotaEntity::new();
            if let Some(n) = user_part {
                entity.insert(USER.into(), n.clone());
            }
            if let Some(n) = client_part {
                entity.insert(CLIENT_ID.into(), n.clone());
            }
            if let Some(value) = self.get(&entity, key) {
                return Some(Resolved {
                    value,
                    user: if user_part.is_some() {
                        user.to_string()
                    } else {
                        String::new()
                    },
                    client_id: if client_part.is_some() {
                        client_id.to_string()
                    } else {
                        String::new()
                    },
                });
            }
        }
        None
    }
}

/// DescribeClientQuotas' match types.
pub mod match_type {
    /// The entity type's name is exactly the component's.
    pub const EXACT: i8 = 0;
    /// The entity type's default.
    pub const DEFAULT: i8 = 1;
    /// The entity has the type, whatever its name (the default too, as Kafka matches it).
    pub const SPECIFIED: i8 = 2;
}

/// One filter component: entity type, match type, name for EXACT.
pub type Component = (String, i8, Option<String>);

/// Whether `entity` passes the filter: it has every component's type with a matching name,
/// and, when `strict`, no other type.
pub fn matches(entity: &QuotaEntity, components: &[Component], strict: bool) -> bool {
    let each = components.iter().all(|(t, m, name)| match entity.get(t) {
        None => false,
        Some(n) => match *m {
            match_type::EXACT => n == name,
            match_type::DEFAULT => n.is_none(),
            _ => true,
        },
    });
    each && (!strict
        || entity
            .keys()
            .all(|t| components.iter().any(|(c, _, _)| c == t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(img: &mut ClientQuotasImage, entity: &[(&str, Option<&str>)], key: &str, v: f64) {
        img.replay(&ClientQuotaRecord {
            entity: entity
                .iter()
                .map(|(t, n)| EntityData {
                    entity_type: t.to_string(),
                    entity_name: n.map(str::to_string),
                    ..Default::default()
                })
                .collect(),
            key: key.into(),
            value: v,
            ..Default::default()
        });
    }

    #[test]
    fn the_most_specific_entity_wins_in_kafkas_order_with_its_sensor_tags() {
        let mut img = ClientQuotasImage::default();
        let k = PRODUCER_BYTE_RATE;
        assert_eq!(img.resolve("alice", "app", k), None);
        set(&mut img, &[(CLIENT_ID, None)], k, 8.0);
        let r = img.resolve("alice", "app", k).unwrap();
        assert_eq!(
            (r.value, r.user.as_str(), r.client_id.as_str()),
            (8.0, "", "app")
        );
        set(&mut img, &[(CLIENT_ID, Some("app"))], k, 7.0);
        assert_eq!(img.resolve("alice", "app", k).unwrap().value, 7.0);
        set(&mut img, &[(USER, None)], k, 6.0);
        let r = img.resolve("alice", "app", k).unwrap();
        assert_eq!(
            (r.value, r.user.as_str(), r.client_id.as_str()),
            (6.0, "alice", "")
        );
        set(&mut img, &[(USER, None), (CLIENT_ID, Some("app"))], k, 4.0);
        assert_eq!(img.resolve("alice", "app", k).unwrap().value, 4.0);
        set(&mut img, &[(USER, Some("alice"))], k, 3.0);
        assert_eq!(img.resolve("alice", "app", k).unwrap().value, 3.0);
        set(
            &mut img,
            &[(USER, Some("alice")), (CLIENT_ID, Some("app"))],
            k,
            1.0,
        );
        let r = img.resolve("alice", "app", k).unwrap();
        assert_eq!(
            (r.value, r.user.as_str(), r.client_id.as_str()),
            (1.0, "alice", "app")
        );
        // Another user falls back to the user default; another key to nothing.
        assert_eq!(img.resolve("bob", "app", k).unwrap().value, 4.0);
        assert_eq!(img.resolve("bob", "other", k).unwrap().value, 6.0);
        assert_eq!(img.resolve("alice", "app", CONSUMER_BYTE_RATE), None);
        // Removing the last value removes the entity; the records rebuild the same image.
        let mut copy = ClientQuotasImage::default();
        for r in img.records() {
            copy.replay(&r);
        }
        assert_eq!(copy, img);
        img.replay(&ClientQuotaRecord {
            entity: vec![EntityData {
                entity_type: USER.into(),
                entity_name: Some("alice".into()),
                ..Default::default()
            }],
            key: k.into(),
            remove: true,
            ..Default::default()
        });
        assert_eq!(img.by_entity.len(), 5);
    }

    #[test]
    fn filters_match_as_describe_client_quotas_defines_them() {
        let e = |pairs: &[(&str, Option<&str>)]| -> QuotaEntity {
            pairs
                .iter()
                .map(|(t, n)| (t.to_string(), n.map(str::to_string)))
                .collect()
        };
        let alice_app = e(&[(USER, Some("alice")), (CLIENT_ID, Some("app"))]);
        let alice = e(&[(USER, Some("alice"))]);
        let default_user = e(&[(USER, None)]);
        let exact = |n: &str| -> Component { (USER.into(), match_type::EXACT, Some(n.into())) };
        assert!(matches(&alice_app, &[exact("alice")], false));
        assert!(!matches(&alice_app, &[exact("alice")], true));
        assert!(matches(&alice, &[exact("alice")], true));
        let default: Component = (USER.into(), match_type::DEFAULT, None);
        assert!(matches(&default_user, std::slice::from_ref(&default), true));
        assert!(!matches(&alice, &[default], false));
        let any: Component = (USER.into(), match_type::SPECIFIED, None);
        assert!(matches(&alice, std::slice::from_ref(&any), false));
        assert!(matches(&default_user, std::slice::from_ref(&any), true));
        assert!(!matches(&e(&[(CLIENT_ID, Some("app"))]), &[any], false));
        assert!(matches(&alice, &[], false));
        assert!(!matches(&alice, &[], true));
    }
}
