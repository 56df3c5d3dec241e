//! Kerberos for fjord: the principal names and `sasl.kerberos.principal.to.local.rules`
//! (pure, in `name` and `rules`), the default realm from the system's krb5.conf (`realm`), and
//! GSSAPI security contexts over the system's MIT library (`gss`), which the SASL listener in
//! `fjord-net` drives as RFC 4752 describes.

#[cfg(feature = "gssapi")]
pub mod gss;
pub mod name;
pub mod realm;
pub mod rules;

pub use name::KerberosName;
pub use rules::{NoMatchingRule, RuleError, ShortNamer};
