//! SCRAM credentials in the image: each user's credential per mechanism, as
//! `UserScramCredentialRecord` writes it (replacing any earlier one) and
//! `RemoveUserScramCredentialRecord` removes it. What a SASL/SCRAM listener checks proofs
//! against.

use crate::image::Map;
use fjord_protocol::generated::user_scram_credential_record::UserScramCredentialRecord;

/// Kafka's ScramMechanism codes: SCRAM-SHA-256.
pub const SCRAM_SHA_256: i8 = 1;
/// Kafka's ScramMechanism codes: SCRAM-SHA-512.
pub const SCRAM_SHA_512: i8 = 2;

/// A stored SCRAM credential.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ScramCredential {
    /// The salt.
    pub salt: bytes::Bytes,
    /// The stored key.
    pub stored_key: bytes::Bytes,
    /// The server key.
    pub server_key: bytes::Bytes,
    /// The iteration count.
    pub iterations: i32,
}

/// Every user's SCRAM credentials, by (user, mechanism code).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScramImage {
    /// Credentials by (user name, mechanism).
    pub by_user: Map<(String, i8), ScramCredential>,
}

impl ScramImage {
    /// The credential of `user` for `mechanism`, if set.
    pub fn get(&self, user: &str, mechanism: i8) -> Option<&ScramCredential> {
        self.by_user.get(&(user.to_string(), mechanism))
    }
}

impl ScramCredential {
    /// The record that stores it for `user` and `mechanism`.
    pub fn to_record(&self, user: &str, mechanism: i8) -> UserScramCredentialRecord {
        UserScramCredentialRecord {
            name: user.to_string(),
            mechanism,
            salt: self.salt.clone(),
            stored_key: self.stored_key.clone(),
            server_key: self.server_key.clone(),
            iterations: self.iterations,
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::MetadataImage;
    use fjord_protocol::generated::{
        remove_user_scram_credential_record::RemoveUserScramCredentialRecord,
        user_scram_credential_record::UserScramCredentialRecord,
    };
    use fjord_protocol::MetadataRecord;

    #[test]
    fn credentials_are_set_replaced_and_removed() {
        let set = |iterations| {
            MetadataRecord::UserScramCredential(UserScramCredentialRecord {
                name: "alice".into(),
                mechanism: super::SCRAM_SHA_256,
                salt: vec![1; 16].into(),
                stored_key: vec![2; 32].into(),
                server_key: vec![3; 32].into(),
                iterations,
                ..Default::default()
            })
        };
        let (img, changes) = MetadataImage::empty()
            .apply(&[set(4096), set(8192)], 2, 1)
            .unwrap();
        assert_eq!(img.scram.get("alice", 1).map(|c| c.iterations), Some(8192));
        assert!(img.scram.get("alice", 2).is_none());
        assert!(changes.scram_users.contains("alice"));
        let remove = |mechanism| {
            MetadataRecord::RemoveUserScramCredential(RemoveUserScramCredentialRecord {
                name: "alice".into(),
                mechanism,
                ..Default::default()
            })
        };
        assert!(img.apply(&[remove(2)], 3, 1).is_err(), "nothing to remove");
        let (img, _) = img.apply(&[remove(1)], 3, 1).unwrap();
        assert!(img.scram.by_user.is_empty());
        let bad = MetadataRecord::UserScramCredential(UserScramCredentialRecord {
            mechanism: 3,
            ..Default::default()
        });
        assert!(MetadataImage::empty().apply(&[bad], 1, 1).is_err());
    }
}
