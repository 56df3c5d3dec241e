//! The default realm (`DEFAULT` in the principal rules maps names of this realm): the
//! `default_realm` of `[libdefaults]` in the krb5.conf files the GSSAPI library reads too
//! (`KRB5_CONFIG`, a colon-separated list, else `/etc/krb5.conf`).

use std::path::PathBuf;

/// The krb5.conf files in the order the library reads them.
pub fn config_files() -> Vec<PathBuf> {
    match std::env::var("KRB5_CONFIG") {
        Ok(list) if !list.is_empty() => list
            .split(':')
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
            .collect(),
        _ => vec![PathBuf::from("/etc/krb5.conf")],
    }
}

/// The default realm: the first file that names one; empty when none does (as Kafka, whose
/// `DEFAULT` rule then maps no realm's names).
pub fn default_realm() -> String {
    config_files()
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .find_map(|text| libdefaults_realm(&text))
        .unwrap_or_default()
}

/// `default_realm` in the `[libdefaults]` section of a krb5.conf's text.
pub fn libdefaults_realm(text: &str) -> Option<String> {
    let mut in_libdefaults = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(section) = line.strip_prefix('[') {
            in_libdefaults = section.trim_end_matches(']').trim() == "libdefaults";
            continue;
        }
        if !in_libdefaults {
            continue;
        }
        if let Some((key, value)) = line.split_once('=') {
            if key.trim() == "default_realm" {
                return Some(value.trim().to_string()).filter(|v| !v.is_empty());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_realm_comes_from_libdefaults_only() {
        let conf = "# a comment\n[realms]\n default_realm = NOT.THIS\n[libdefaults]\n  dns_lookup_kdc = false\n  default_realm = FJORD.TEST\n";
        assert_eq!(libdefaults_realm(conf).as_deref(), Some("FJORD.TEST"));
        assert_eq!(libdefaults_realm("[realms]\ndefault_realm = X\n"), None);
        assert_eq!(libdefaults_realm("[libdefaults]\ndefault_realm =\n"), None);
    }
}
