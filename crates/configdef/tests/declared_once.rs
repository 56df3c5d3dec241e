//! The keys declared in `fjord-configdef` are spelled nowhere else: every crate's code reads
//! a declared key through its definition (`topic::SEGMENT_BYTES.name`, a `&Def`), so a key's
//! name, type, default and documentation cannot drift apart. Test code (a crate's `tests/`
//! and the `#[cfg(test)]` module that ends a file) may spell keys as a user would, and so may
//! the places in [`NOT_CONFIG`], where the same words name something else.

use fjord_configdef::{broker, topic};
use std::path::{Path, PathBuf};

/// Code where a declared key's words mean something other than the broker's or a topic's
/// config, with why.
const NOT_CONFIG: &[(&str, &str)] = &[
    // The admin client's own settings (Kafka's AdminClientConfig and its SSL and SASL keys):
    // a client's config, read from --command-config.
    ("admin/src/", "client configs"),
    // Kafka's JSON message schemas name a field `listeners`.
    ("codegen/src/", "schema fields"),
    // meta.properties, the formatted directory's identity file, has a `node.id` line.
    ("log/src/log_dir.rs", "meta.properties"),
];

/// Every `.rs` file under `dir`, but test directories and generated code.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        if p.is_dir() {
            if name != "tests" && name != "generated" && name != "target" {
                sources(&p, out);
            }
        } else if name.ends_with(".rs") {
            out.push(p);
        }
    }
}

/// (line, key) of each declared key spelled as a string literal in `text` before its
/// `#[cfg(test)]` module.
fn spelled(text: &str) -> Vec<(usize, &'static str)> {
    let names = topic::ALL.iter().chain(broker::ALL).map(|d| d.name);
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        for name in names.clone() {
            if line.contains(&format!("\"{name}\"")) {
                out.push((n + 1, name));
            }
        }
    }
    out
}

#[test]
fn no_declared_key_is_spelled_outside_its_definition() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crates directory")
        .to_path_buf();
    let mut files = Vec::new();
    for e in std::fs::read_dir(&crates).expect("crates").flatten() {
        if e.file_name() != "configdef" {
            sources(&e.path(), &mut files);
        }
    }
    assert!(files.len() > 100, "found only {} source files", files.len());
    let mut stray = Vec::new();
    for f in &files {
        let path = f.to_string_lossy();
        if NOT_CONFIG.iter().any(|(p, _)| path.contains(p)) {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("a source file");
        for (line, name) in spelled(&text) {
            stray.push(format!("{}:{line}: \"{name}\"", f.display()));
        }
    }
    assert!(
        stray.is_empty(),
        "declared keys spelled outside crates/configdef (use the definition):\n{}",
        stray.join("\n")
    );
}

#[test]
fn the_check_finds_a_spelled_key_and_skips_tests() {
    let text = "fn f() {\n    let k = \"segment.bytes\";\n    let m = \"segment.bytes.x\";\n}\n\
                #[cfg(test)]\nmod tests { const K: &str = \"retention.ms\"; }\n";
    assert_eq!(spelled(text), [(2, "segment.bytes")]);
}
