//! Every warning and error line fjord can log is in the operator's guide
//! (`docs/guide/troubleshooting.md`), with what it means and what to do, and the guide lists
//! no line the code no longer prints (issue 38). A line is the message of a `warn!` or
//! `error!` macro in a crate's `src/`: its format string as written, which the page quotes in
//! a heading (`` ### `message` ``).

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

/// The repository's root.
fn root() -> PathBuf {
    common::repo_root()
}

/// The `.rs` files under every crate's `src/`.
fn sources() -> Vec<PathBuf> {
    common::files_under(
        &root().join("crates"),
        "rs",
        &["tests", "benches", "examples"],
    )
}

/// The string literal at the start of `arg` (a macro argument), escapes and `\`-newline
/// continuations resolved as Rust reads them; None when the argument is not a literal.
fn literal(arg: &str) -> Option<String> {
    let body = arg.trim().strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                '\n' => {
                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                        chars.next();
                    }
                }
                'n' => out.push('\n'),
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// The top-level, comma-separated arguments of the macro call whose `(` ends `text`'s prefix
/// at `open` (strings and nested brackets respected).
fn arguments(text: &str, open: usize) -> Vec<String> {
    let (mut depth, mut in_str, mut escaped) = (0i32, false, false);
    let mut args = vec![String::new()];
    for c in text[open + 1..].chars() {
        if in_str {
            args.last_mut().unwrap().push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return args,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                args.push(String::new());
                continue;
            }
            _ => {}
        }
        args.last_mut().unwrap().push(c);
    }
    args
}

/// Every warning and error message in the code: (level, file, message).
fn log_lines() -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    for file in sources() {
        let text = std::fs::read_to_string(&file).unwrap();
        for level in ["warn", "error"] {
            let needle = format!("{level}!(");
            let mut from = 0;
            while let Some(i) = text[from..].find(&needle) {
                let at = from + i;
                from = at + needle.len();
                // `tracing::warn!(` or a bare `warn!(`, not `some_warn!(`.
                let before = text[..at].chars().last();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let message = arguments(&text, at + needle.len() - 1)
                    .iter()
                    .find_map(|a| literal(a))
                    .unwrap_or_else(|| {
                        panic!("{}: a {level}! without a message literal", file.display())
                    });
                let rel = file
                    .strip_prefix(root())
                    .unwrap_or(&file)
                    .display()
                    .to_string();
                out.push((if level == "warn" { "WARN" } else { "ERROR" }, rel, message));
            }
        }
    }
    out
}

/// Whether `message` has words outside its `{...}` placeholders.
fn words(message: &str) -> bool {
    let mut depth = 0;
    let mut letters = 0;
    for c in message.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 && c.is_alphabetic() => letters += 1,
            _ => {}
        }
    }
    letters >= 3
}

/// The messages the troubleshooting page documents: its `` ### `...` `` headings.
fn documented() -> BTreeSet<String> {
    let page = std::fs::read_to_string(root().join("docs/guide/troubleshooting.md")).unwrap();
    page.lines()
        .filter_map(|l| l.strip_prefix("### `")?.strip_suffix('`'))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_warning_and_error_line_is_in_the_troubleshooting_guide() {
    let lines = log_lines();
    assert!(lines.len() > 50, "the scan found {} lines", lines.len());
    let documented = documented();
    let mut missing: Vec<String> = Vec::new();
    for (level, file, message) in &lines {
        assert!(
            words(message) || message == "{message}",
            "{file}: a {level} line must say what it is about, not only `{message}`"
        );
        if !documented.contains(message) {
            missing.push(format!("{level} {file}: ### `{message}`"));
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "log lines docs/guide/troubleshooting.md does not explain:\n{}",
        missing.join("\n")
    );
    let in_code: BTreeSet<&String> = lines.iter().map(|(_, _, m)| m).collect();
    let stale: Vec<&String> = documented.iter().filter(|m| !in_code.contains(m)).collect();
    assert!(
        stale.is_empty(),
        "docs/guide/troubleshooting.md explains lines the code no longer prints: {stale:?}"
    );
}

#[test]
fn the_scan_reads_messages_as_rust_does() {
    let text = "tracing::warn!(a = %b, c = f(\"x\"), \"said {e}\", e = 1);";
    let open = text.find('(').unwrap();
    let args = arguments(text, open);
    assert_eq!(args.len(), 4, "{args:?}");
    assert_eq!(
        args.iter().find_map(|a| literal(a)).as_deref(),
        Some("said {e}")
    );
    assert_eq!(literal("\"a \\\n     b\"").as_deref(), Some("a b"));
    assert!(!words("{e}") && !words("{what}: {e}") && words("statvfs: {e}"));
}
