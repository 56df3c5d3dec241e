//! Naming: spec names (`ThrottleTimeMs`) to Rust names (`throttle_time_ms`).

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while",
    "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro", "override",
    "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// `ThrottleTimeMs` -> `throttle_time_ms`; acronyms stay together (`ISRNodes` -> `isr_nodes`).
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push('_');
            }
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// A field name safe to use in Rust.
pub fn field_ident(name: &str) -> String {
    let s = snake_case(name);
    if KEYWORDS.contains(&s.as_str()) {
        format!("r#{s}")
    } else {
        s
    }
}

/// A type name safe to use in Rust (spec struct names are already UpperCamelCase).
pub fn type_ident(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Text safe to put in a `///` doc comment or a string literal's doc.
pub fn doc_text(s: &str) -> String {
    s.replace('\n', " ").replace("\r", "")
}

/// A Rust string literal for `s`.
pub fn str_lit(s: &str) -> String {
    format!("{s:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_cases_spec_names() {
        assert_eq!(snake_case("ThrottleTimeMs"), "throttle_time_ms");
        assert_eq!(snake_case("ISRNodes"), "isr_nodes");
        assert_eq!(snake_case("offset"), "offset");
        assert_eq!(snake_case("TopicId"), "topic_id");
        assert_eq!(snake_case("ProducerIdsRecord"), "producer_ids_record");
        assert_eq!(field_ident("Type"), "r#type");
    }
}
