//! The documentation stays true to the tree: every path ARCHITECTURE.md and docs/CODE_MAP.md
//! name exists, and every relative link in README.md, ARCHITECTURE.md and docs/ leads to a
//! file that exists, and to a heading of it when it names one (issue 38).

mod common;

use std::path::PathBuf;

/// The repository's root.
fn root() -> PathBuf {
    common::repo_root()
}

/// The top-level directories a path in the docs may start with.
const TOP: &[&str] = &[
    "crates/", "tests/", "benches/", "docs/", "schemas/", "config/", "fuzz/", "docker/", ".ci/",
];

/// The markdown files of the documentation.
fn markdown_files() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    out.extend(common::files_under(&root().join("docs"), "md", &["book"]));
    out
}

/// The backticked spans of `text` that look like repository paths.
fn named_paths(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| TOP.iter().any(|t| s.starts_with(t)))
        .filter(|s| !s.contains(' ') && !s.contains('*') && !s.contains('{'))
        .map(|s| {
            // `path:line` and `path::item` name the path.
            let s = s.split("::").next().unwrap_or(s);
            s.split(':').next().unwrap_or(s).to_string()
        })
        .collect()
}

#[test]
fn every_path_the_architecture_map_names_exists() {
    let mut missing = Vec::new();
    for doc in ["ARCHITECTURE.md", "docs/CODE_MAP.md"] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        // In CODE_MAP.md a crate's section (`## \`crates/x\``) names its files from the
        // crate; a path is true from the root or from the section's crate.
        let mut section: Option<PathBuf> = None;
        for line in text.lines() {
            if let Some(h) = line.strip_prefix("## `") {
                section = h
                    .split('`')
                    .next()
                    .filter(|c| c.starts_with("crates/"))
                    .map(|c| root().join(c));
            }
            for p in named_paths(line) {
                let found = root().join(&p).exists()
                    || section.as_ref().is_some_and(|c| c.join(&p).exists());
                if !found {
                    missing.push(format!("{doc}: {p}"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "paths that do not exist:\n{}",
        missing.join("\n")
    );
}

/// The targets of `[text](target)` links in `text`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        }
        if in_block {
            continue;
        }
        // Code spans hold text such as Kerberos rules (`RULE:[1:$1](match)`), not links.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, part)| part)
            .collect();
        let mut rest = prose.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            if let Some(end) = rest.find(')') {
                out.push(rest[..end].to_string());
            }
        }
    }
    out
}

/// The anchors mdBook gives `text`'s headings: lower case, letters, digits, `-` and `_`
/// kept, spaces made `-`, the rest dropped.
fn anchors(text: &str) -> Vec<String> {
    let mut in_block = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        }
        if in_block || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                c if c.is_whitespace() => Some('-'),
                _ => None,
            })
            .collect();
        out.push(slug);
    }
    out
}

#[test]
fn every_relative_link_in_the_docs_leads_somewhere() {
    let mut dead = Vec::new();
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let dir = file.parent().unwrap();
        for link in links(&text) {
            let (target, fragment) = match link.trim().split_once('#') {
                Some((t, f)) => (t, Some(f)),
                None => (link.trim(), None),
            };
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let path = if target.is_empty() {
                file.clone()
            } else {
                dir.join(target)
            };
            if !path.exists() {
                dead.push(format!("{}: {link}", file.display()));
                continue;
            }
            // An anchor into a markdown page must name one of its headings.
            if let Some(f) = fragment.filter(|_| path.extension().is_some_and(|x| x == "md")) {
                let page = std::fs::read_to_string(&path).unwrap();
                if !anchors(&page).iter().any(|a| a == f) {
                    dead.push(format!("{}: {link} (no such heading)", file.display()));
                }
            }
        }
    }
    assert!(dead.is_empty(), "dead links:\n{}", dead.join("\n"));
}

#[test]
fn the_architecture_map_stays_a_map() {
    let lines = std::fs::read_to_string(root().join("ARCHITECTURE.md"))
        .unwrap()
        .lines()
        .count();
    assert!(
        lines <= 400,
        "ARCHITECTURE.md has {lines} lines: move detail to docs/CODE_MAP.md"
    );
}
