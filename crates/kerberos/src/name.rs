//! Kerberos principal names as Kafka reads them: `service[/host]@REALM`, or a simple name with
//! neither a host nor a realm.

use std::fmt;

/// A Kerberos principal name split into its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KerberosName {
    /// The first component (a user's name, or a service's).
    pub service: String,
    /// The second component, a service's host, if there is one.
    pub host: Option<String>,
    /// The realm, if the name has one.
    pub realm: Option<String>,
}

/// A name with an `@` that is not `service[/host]@REALM`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Malformed Kerberos name: {0}")]
pub struct MalformedName(pub String);

impl KerberosName {
    /// Parses `name` as Kafka's `KerberosName.parse` does: at most two components (neither
    /// holding `/` or `@`) and a realm after a single `@`; a name without `@` is simple.
    pub fn parse(name: &str) -> Result<KerberosName, MalformedName> {
        let Some((principal, realm)) = name.split_once('@') else {
            return Ok(KerberosName {
                service: name.to_string(),
                host: None,
                realm: None,
            });
        };
        let malformed = || MalformedName(name.to_string());
        if realm.contains(['@', '/']) {
            return Err(malformed());
        }
        let (service, host) = match principal.split_once('/') {
            Some((_, h)) if h.contains('/') => return Err(malformed()),
            Some((s, h)) => (s, Some(h.to_string())),
            None => (principal, None),
        };
        Ok(KerberosName {
            service: service.to_string(),
            host,
            realm: Some(realm.to_string()),
        })
    }
}

impl fmt::Display for KerberosName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.service)?;
        if let Some(host) = &self.host {
            write!(f, "/{host}")?;
        }
        if let Some(realm) = &self.realm {
            write!(f, "@{realm}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_as_kafka_splits_them() {
        let n = KerberosName::parse("kafka/broker1.example.com@EXAMPLE.COM").unwrap();
        assert_eq!(n.service, "kafka");
        assert_eq!(n.host.as_deref(), Some("broker1.example.com"));
        assert_eq!(n.realm.as_deref(), Some("EXAMPLE.COM"));
        assert_eq!(n.to_string(), "kafka/broker1.example.com@EXAMPLE.COM");
        let user = KerberosName::parse("alice@EXAMPLE.COM").unwrap();
        assert_eq!(
            (user.host, user.realm.as_deref()),
            (None, Some("EXAMPLE.COM"))
        );
        let simple = KerberosName::parse("alice").unwrap();
        assert_eq!((simple.host, simple.realm), (None, None));
        // A simple name may hold '/': Kafka keeps it whole.
        assert_eq!(KerberosName::parse("a/b").unwrap().service, "a/b");
        assert_eq!(
            KerberosName::parse("alice@").unwrap().realm.as_deref(),
            Some("")
        );
        for bad in ["a/b/c@R", "a@b@R", "a@R/x", "@R/"] {
            assert!(KerberosName::parse(bad).is_err(), "{bad}");
        }
    }
}
