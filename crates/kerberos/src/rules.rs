//! `sasl.kerberos.principal.to.local.rules`: how a Kerberos principal becomes the short name a
//! connection speaks for (`User:<short name>`), with Kafka's rule syntax and semantics:
//! `DEFAULT` (the first component of a name in the default realm) and
//! `RULE:[n:format](match)s/from/to/g/L` (or `/U`), tried in order, the first that gives a name
//! wins.

use crate::name::KerberosName;
use regex::Regex;
use std::fmt;
use std::sync::LazyLock;

/// A rule list that does not parse (the node refuses to start).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// Not `DEFAULT` or a `RULE:[...]`.
    #[error("Invalid rule: {0}")]
    Invalid(String),
    /// A rule followed by text that belongs to none.
    #[error("Invalid rule: `{rule}`, unmatched substring: `{rest}`")]
    Trailing {
        /// The rule as given.
        rule: String,
        /// What is left after the rule.
        rest: String,
    },
    /// A rule's pattern that is not a regular expression this engine takes.
    #[error("Invalid rule: `{rule}`: {reason}")]
    Pattern {
        /// The rule as given.
        rule: String,
        /// Why the pattern was refused.
        reason: String,
    },
}

/// A principal no rule maps, or a rule that fails on it (the authentication fails).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NoMatchingRule(pub String);

/// Kafka's rule grammar (the 4.4 pattern, matched from the rule's start).
static RULE_PARSER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^((DEFAULT)|((RULE:\[(\d*):([^\]]*)\](\(([^)]*)\))?(s/([^/]*)/([^/]*)/(g)?)?/?(L|U)?)))",
    )
    .expect("the rule grammar is a valid pattern")
});

/// The case a rule's result is put in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Case {
    Lower,
    Upper,
}

/// One `RULE:[...]`.
#[derive(Debug, Clone)]
struct Rule {
    /// The rule's text, for messages.
    text: String,
    components: usize,
    format: String,
    /// Matched against the whole formatted name.
    matcher: Option<Regex>,
    /// The substitution: the pattern, its replacement, and whether every match is replaced.
    substitution: Option<(Regex, Replacement, bool)>,
    case: Option<Case>,
}

/// One entry of the list.
#[derive(Debug, Clone)]
enum Entry {
    /// `DEFAULT`: the first component, for a name in the default realm.
    Default,
    Rule(Box<Rule>),
}

/// The parsed rule list, with the realm `DEFAULT` takes names from.
#[derive(Debug, Clone)]
pub struct ShortNamer {
    default_realm: String,
    rules: Vec<Entry>,
}

impl ShortNamer {
    /// Parses `rules` (the config list's entries, in order; as in Kafka, an empty list maps
    /// only simple names: the key's default is `DEFAULT`).
    pub fn parse(default_realm: &str, rules: &[String]) -> Result<ShortNamer, RuleError> {
        Ok(ShortNamer {
            default_realm: default_realm.to_string(),
            rules: rules
                .iter()
                .map(|r| parse_rule(r))
                .collect::<Result<_, _>>()?,
        })
    }

    /// The short name of `name`: a simple name is itself, otherwise the first rule that gives
    /// a name decides; none is an error.
    pub fn short_name(&self, name: &KerberosName) -> Result<String, NoMatchingRule> {
        let Some(realm) = &name.realm else {
            if name.host.is_none() {
                return Ok(name.service.clone());
            }
            return Err(NoMatchingRule(format!("No rules apply to {name}")));
        };
        let mut params = vec![realm.as_str(), name.service.as_str()];
        params.extend(name.host.as_deref());
        for entry in &self.rules {
            let result = match entry {
                Entry::Default => (self.default_realm == *realm).then(|| name.service.clone()),
                Entry::Rule(rule) => rule.apply(&params)?,
            };
            if let Some(short) = result {
                return Ok(short);
            }
        }
        Err(NoMatchingRule(format!(
            "No rules apply to {name}, rules [{}]",
            self.rules
                .iter()
                .map(|e| match e {
                    Entry::Default => "DEFAULT",
                    Entry::Rule(r) => &r.text,
                })
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }
}

fn parse_rule(text: &str) -> Result<Entry, RuleError> {
    let caps = RULE_PARSER
        .captures(text)
        .ok_or_else(|| RuleError::Invalid(text.to_string()))?;
    let end = caps.get(0).map_or(0, |m| m.end());
    if end != text.len() {
        return Err(RuleError::Trailing {
            rule: text.to_string(),
            rest: text[end..].to_string(),
        });
    }
    if caps.get(2).is_some() {
        return Ok(Entry::Default);
    }
    let group = |i: usize| caps.get(i).map(|m| m.as_str());
    let pattern_error = |reason: String| RuleError::Pattern {
        rule: text.to_string(),
        reason,
    };
    let components = group(5)
        .unwrap_or("")
        .parse::<usize>()
        .map_err(|e| pattern_error(format!("the number of components: {e}")))?;
    let compile = |p: &str, whole: bool| {
        let p = if whole {
            format!("^(?:{p})$")
        } else {
            p.to_string()
        };
        Regex::new(&p).map_err(|e| pattern_error(e.to_string()))
    };
    let matcher = group(8).map(|m| compile(m, true)).transpose()?;
    let substitution = match (group(10), group(11)) {
        (Some(from), Some(to)) => {
            let from = compile(from, false)?;
            let to = Replacement::parse(to, &from);
            Some((from, to, group(12) == Some("g")))
        }
        _ => None,
    };
    Ok(Entry::Rule(Box::new(Rule {
        text: text.to_string(),
        components,
        format: group(6).unwrap_or("").to_string(),
        matcher,
        substitution,
        case: match group(13) {
            Some("L") => Some(Case::Lower),
            Some("U") => Some(Case::Upper),
            _ => None,
        },
    })))
}

impl Rule {
    /// The rule's result for a name of `params` (realm, then the components), `None` when the
    /// rule does not apply.
    fn apply(&self, params: &[&str]) -> Result<Option<String>, NoMatchingRule> {
        if params.len() - 1 != self.components {
            return Ok(None);
        }
        let base = replace_parameters(&self.format, params)?;
        if self.matcher.as_ref().is_some_and(|m| !m.is_match(&base)) {
            return Ok(None);
        }
        let result = match &self.substitution {
            None => base,
            Some((from, to, all)) => to.substitute(from, &base, *all)?,
        };
        if result.contains(['/', '@']) {
            return Err(NoMatchingRule(format!(
                "Non-simple name {result} after auth_to_local rule {self}"
            )));
        }
        Ok(Some(match self.case {
            Some(Case::Lower) => result.to_lowercase(),
            Some(Case::Upper) => result.to_uppercase(),
            None => result,
        }))
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// `format` with each `$n` replaced by `params[n]` (`$0` the realm, `$1` the first component).
fn replace_parameters(format: &str, params: &[&str]) -> Result<String, NoMatchingRule> {
    let mut out = String::new();
    let mut rest = format;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let digits: String = rest[at + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        rest = &rest[at + 1 + digits.len()..];
        let num = digits
            .parse::<usize>()
            .map_err(|_| NoMatchingRule(format!("bad format in username mapping in {digits}")))?;
        let param = params.get(num).ok_or_else(|| {
            NoMatchingRule(format!(
                "index {num} from {format} is outside of the valid range 0 to {}",
                params.len() - 1
            ))
        })?;
        out.push_str(param);
    }
    out.push_str(rest);
    Ok(out)
}

/// A substitution's replacement in Java's syntax (`$n`, `${name}`, `\` escaping the next
/// character), read once; a replacement Java would refuse fails each name it is applied to.
#[derive(Debug, Clone)]
struct Replacement(Result<Vec<Piece>, String>);

#[derive(Debug, Clone)]
enum Piece {
    Text(String),
    Group(usize),
    Named(String),
}

impl Replacement {
    fn parse(to: &str, from: &Regex) -> Replacement {
        let groups = from.captures_len() - 1;
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut chars = to.chars().peekable();
        let flush = |text: &mut String, pieces: &mut Vec<Piece>| {
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(text)));
            }
        };
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(escaped) => text.push(escaped),
                    None => return Replacement(Err("character to be escaped is missing".into())),
                },
                '$' => {
                    flush(&mut text, &mut pieces);
                    match chars.next() {
                        Some('{') => {
                            let name: String = chars.by_ref().take_while(|c| *c != '}').collect();
                            if from.capture_names().flatten().all(|n| n != name) {
                                return Replacement(Err(format!("No group with name {{{name}}}")));
                            }
                            pieces.push(Piece::Named(name));
                        }
                        Some(d) if d.is_ascii_digit() => {
                            // Java reads further digits while the number names a group.
                            let mut num = d as usize - '0' as usize;
                            while let Some(next) = chars.peek().and_then(|c| c.to_digit(10)) {
                                let longer = num * 10 + next as usize;
                                if longer > groups {
                                    break;
                                }
                                num = longer;
                                chars.next();
                            }
                            if num > groups {
                                return Replacement(Err(format!("No group {num}")));
                            }
                            pieces.push(Piece::Group(num));
                        }
                        _ => return Replacement(Err("Illegal group reference".into())),
                    }
                }
                c => text.push(c),
            }
        }
        flush(&mut text, &mut pieces);
        Replacement(Ok(pieces))
    }

    /// `base` with the first (or every) match of `from` replaced.
    fn substitute(&self, from: &Regex, base: &str, all: bool) -> Result<String, NoMatchingRule> {
        // As Java, a replacement is read only when there is a match to replace.
        let pieces = match &self.0 {
            Ok(pieces) => pieces,
            Err(_) if !from.is_match(base) => return Ok(base.to_string()),
            Err(e) => return Err(NoMatchingRule(e.clone())),
        };
        let mut out = String::new();
        let mut last = 0;
        for caps in from
            .captures_iter(base)
            .take(if all { usize::MAX } else { 1 })
        {
            let whole = caps.get(0).expect("a match has group 0");
            out.push_str(&base[last..whole.start()]);
            for piece in pieces {
                match piece {
                    Piece::Text(t) => out.push_str(t),
                    Piece::Group(g) => out.push_str(caps.get(*g).map_or("", |m| m.as_str())),
                    Piece::Named(n) => out.push_str(caps.name(n).map_or("", |m| m.as_str())),
                }
            }
            last = whole.end();
        }
        out.push_str(&base[last..]);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn namer(rules: &[&str]) -> ShortNamer {
        let rules: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
        ShortNamer::parse("REALM.COM", &rules).unwrap()
    }

    fn short(n: &ShortNamer, name: &str) -> Result<String, NoMatchingRule> {
        n.short_name(&KerberosName::parse(name).unwrap())
    }

    /// The cases of Kafka's own KerberosNameTest, which the rules must give alike.
    #[test]
    fn kafkas_examples_map_alike() {
        let n = namer(&[
            "RULE:[1:$1](App\\..*)s/App\\.(.*)/$1/g",
            "RULE:[2:$1](App\\..*)s/App\\.(.*)/$1/g",
            "DEFAULT",
        ]);
        assert_eq!(
            short(&n, "App.service-name/example.com@REALM.COM").unwrap(),
            "service-name"
        );
        assert_eq!(
            short(&n, "App.service-name@REALM.COM").unwrap(),
            "service-name"
        );
        assert_eq!(short(&n, "user/host@REALM.COM").unwrap(), "user");
        assert_eq!(short(&n, "alice").unwrap(), "alice");
        assert!(short(&n, "user/host@BAR").is_err());

        let lower = namer(&[
            "RULE:[1:$1]/L",
            "RULE:[2:$1](Test.*)s/ABC///L",
            "RULE:[2:$1](ABC.*)s/ABC/XYZ/g/L",
            "RULE:[2:$1](App\\..*)s/App\\.(.*)/$1/g/L",
            "RULE:[2:$1]/L",
            "DEFAULT",
        ]);
        assert_eq!(short(&lower, "User@REALM.COM").unwrap(), "user");
        assert_eq!(short(&lower, "TestABC/host@FOO.COM").unwrap(), "test");
        assert_eq!(
            short(&lower, "ABC_User_ABC/host@FOO.COM").unwrap(),
            "xyz_user_xyz"
        );
        assert_eq!(
            short(&lower, "App.SERVICE-name/example.com@REALM.COM").unwrap(),
            "service-name"
        );
        assert_eq!(short(&lower, "User/root@REALM.COM").unwrap(), "user");
        let upper = namer(&["RULE:[1:$1]/U", "RULE:[2:$1](Test.*)s/ABC///U", "DEFAULT"]);
        assert_eq!(short(&upper, "user@REALM.COM").unwrap(), "USER");
        assert_eq!(short(&upper, "TestABC/host@FOO.COM").unwrap(), "TEST");
    }

    #[test]
    fn bad_rules_are_refused_as_kafka_refuses_them() {
        let parse = |r: &str| ShortNamer::parse("R", &[r.to_string()]).err();
        assert_eq!(
            parse("DEFAULT/L"),
            Some(RuleError::Trailing {
                rule: "DEFAULT/L".into(),
                rest: "/L".into()
            })
        );
        assert!(matches!(
            parse("RULE:[1:$1]/L/U"),
            Some(RuleError::Trailing { .. })
        ));
        assert!(matches!(
            parse("RULE:[1:$1]/LU"),
            Some(RuleError::Trailing { .. })
        ));
        assert!(matches!(
            parse("RULE:[1:$1]/E"),
            Some(RuleError::Trailing { .. })
        ));
        assert!(matches!(parse("NOTARULE"), Some(RuleError::Invalid(_))));
        assert!(matches!(
            parse("RULE:[:$1]"),
            Some(RuleError::Pattern { .. })
        ));
        assert!(matches!(
            parse("RULE:[1:$1](a(b)"),
            Some(RuleError::Trailing { .. }) | Some(RuleError::Pattern { .. })
        ));
        assert!(parse("RULE:[1:$1]").is_none());
    }

    #[test]
    fn a_rule_that_fails_fails_the_name() {
        // A non-simple result is refused, not passed on to the next rule.
        let n = namer(&["RULE:[1:$1@$0]", "DEFAULT"]);
        let e = short(&n, "alice@REALM.COM").unwrap_err();
        assert!(e.0.starts_with("Non-simple name alice@REALM.COM"), "{e}");
        let out_of_range = namer(&["RULE:[1:$2]"]);
        assert!(short(&out_of_range, "alice@R")
            .unwrap_err()
            .0
            .contains("outside of the valid range 0 to 1"));
        let no_group = namer(&["RULE:[1:$1]s/(a)/$2/"]);
        assert_eq!(short(&no_group, "alice@R").unwrap_err().0, "No group 2");
        // Java reads `$12` as group 1 then `2` when there is no group 12.
        let digits = namer(&["RULE:[1:$1]s/(a)/$12/"]);
        assert_eq!(short(&digits, "alice@R").unwrap(), "a2lice");
        let escaped = namer(&["RULE:[1:$1]s/a/\\$x/g"]);
        assert_eq!(short(&escaped, "banana@R").unwrap(), "b$xn$xn$x");
        // DEFAULT takes the default realm's names only; with no rule left, none maps.
        let default = namer(&["DEFAULT"]);
        assert_eq!(short(&default, "kafka/host@REALM.COM").unwrap(), "kafka");
        assert!(short(&default, "alice@OTHER.COM")
            .unwrap_err()
            .0
            .starts_with("No rules apply to alice@OTHER.COM"));
    }
}
