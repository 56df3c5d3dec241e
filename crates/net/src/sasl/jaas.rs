//! Kafka's `sasl.jaas.config` values: `<LoginModule class> required key="value" ...;`. A
//! listener's PLAIN users are its `user_<name>` options; a client's (and an inter-node
//! connection's) credentials are `username` and `password`.

use std::collections::BTreeMap;

/// Kafka's PLAIN login module.
pub const PLAIN_LOGIN_MODULE: &str = "org.apache.kafka.common.security.plain.PlainLoginModule";
/// Kafka's SCRAM login module.
pub const SCRAM_LOGIN_MODULE: &str = "org.apache.kafka.common.security.scram.ScramLoginModule";

/// One JAAS login module entry.
#[derive(Clone, PartialEq, Eq)]
pub struct JaasEntry {
    /// The login module's class name.
    pub module: String,
    /// Its options.
    pub options: BTreeMap<String, String>,
}

impl std::fmt::Debug for JaasEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Options hold passwords: only their names are shown.
        f.debug_struct("JaasEntry")
            .field("module", &self.module)
            .field("options", &self.options.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl JaasEntry {
    /// The PLAIN users a listener accepts (`user_<name>="<password>"`).
    pub fn plain_users(&self) -> BTreeMap<String, String> {
        self.options
            .iter()
            .filter_map(|(k, v)| Some((k.strip_prefix("user_")?.to_string(), v.clone())))
            .collect()
    }

    /// The `username` and `password` a client logs in with.
    pub fn credentials(&self) -> Option<(String, String)> {
        Some((
            self.options.get("username")?.clone(),
            self.options.get("password")?.clone(),
        ))
    }
}

/// Parses a `sasl.jaas.config` value holding one login module (Kafka allows exactly one).
/// Errors never quote option values.
pub fn parse(text: &str) -> Result<JaasEntry, JaasError> {
    parse_text(text).map_err(JaasError)
}

fn parse_text(text: &str) -> Result<JaasEntry, String> {
    let mut rest = text.trim();
    let word = |s: &str| -> (String, usize) {
        let end = s
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(s.len());
        (s[..end].to_string(), end)
    };
    let (module, n) = word(rest);
    if module.is_empty() {
        return Err("no login module".into());
    }
    rest = rest[n..].trim_start();
    let (flag, n) = word(rest);
    if !matches!(
        flag.as_str(),
        "required" | "requisite" | "sufficient" | "optional"
    ) {
        return Err(format!(
            "expected a control flag (required, requisite, sufficient, optional) after {module}"
        ));
    }
    rest = rest[n..].trim_start();
    let mut options = BTreeMap::new();
    loop {
        if let Some(r) = rest.strip_prefix(';') {
            if !r.trim().is_empty() {
                return Err("only one login module is allowed".into());
            }
            break;
        }
        if rest.is_empty() {
            return Err("the login module entry does not end with ';'".into());
        }
        let eq = rest
            .find('=')
            .ok_or_else(|| "an option without '=' (options are key=\"value\")".to_string())?;
        let key = rest[..eq].trim().to_string();
        if key.is_empty() || key.contains(char::is_whitespace) {
            return Err("a malformed option name".into());
        }
        rest = rest[eq + 1..].trim_start();
        let value;
        if let Some(r) = rest.strip_prefix('"') {
            let mut v = String::new();
            let mut chars = r.char_indices();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, e)) = chars.next() {
                            v.push(e);
                        }
                    }
                    '"' => {
                        end = Some(i);
                        break;
                    }
                    c => v.push(c),
                }
            }
            let end = end.ok_or_else(|| format!("the value of option {key} is not closed"))?;
            value = v;
            rest = r[end + 1..].trim_start();
        } else {
            let (v, n) = word(rest);
            value = v;
            rest = rest[n..].trim_start();
        }
        options.insert(key, value);
    }
    Ok(JaasEntry { module, options })
}

fjord_util::message_error! {
    /// A `sasl.jaas.config` that is not one login module with its options (never quoting an
    /// option's value).
    pub struct JaasError;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kafkas_jaas_lines_parse() {
        let e = parse(
            r#"org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="admin-secret" user_admin="admin-secret" user_alice="al\"ice";"#,
        )
        .unwrap();
        assert_eq!(e.module, PLAIN_LOGIN_MODULE);
        assert_eq!(
            e.credentials(),
            Some(("admin".into(), "admin-secret".into()))
        );
        assert_eq!(e.plain_users()["alice"], "al\"ice");
        assert_eq!(e.plain_users().len(), 2);
        assert!(!format!("{e:?}").contains("admin-secret"));
        let e = parse("org.apache.kafka.common.security.scram.ScramLoginModule required;").unwrap();
        assert!(e.options.is_empty());
        for bad in [
            "",
            "Module",
            "Module required user=\"x\"",
            "Module required user=\"x;",
            "Module maybe;",
            "Module required; Other required;",
            "Module required novalue;",
        ] {
            let e = parse(bad).unwrap_err();
            assert!(!e.contains("\"x"), "{e}");
        }
    }
}
