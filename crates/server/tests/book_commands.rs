//! Every command the documentation shows is one that works: each `fjord` command in README.md,
//! ARCHITECTURE.md and docs/ (the lines of `sh` blocks, and the `$ ` lines of any block) is
//! parsed by the same argument parser the binary uses, and every other program a block runs
//! is one this test knows (issue 38). The walk-throughs that matter most are also run on
//! real nodes: README's tour and the share-group walk-through
//! (`readme_walkthrough.rs`), the secured cluster (`config_examples.rs`).

mod common;

use std::path::PathBuf;

/// The repository's root.
fn root() -> PathBuf {
    common::repo_root()
}

/// The documentation's markdown files, the generated reference pages aside (they hold
/// `--help` text, not commands).
fn markdown_files() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    out.extend(common::files_under(
        &root().join("docs"),
        "md",
        &["reference"],
    ));
    out
}

/// The command lines of `text`'s fenced blocks, continuation lines joined.
fn command_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block: Option<String> = None;
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(fence) = line.trim_start().strip_prefix("```") {
            in_block = match in_block {
                Some(_) => None,
                None => Some(fence.trim().to_string()),
            };
            continue;
        }
        let Some(kind) = &in_block else { continue };
        let line = line.trim_end();
        let command = match current.take() {
            Some(mut c) => {
                c.push(' ');
                c.push_str(line.trim_start());
                Some(c)
            }
            None if kind == "sh" => Some(line.to_string()),
            None => line.strip_prefix("$ ").map(str::to_string),
        };
        if let Some(c) = command {
            match c.strip_suffix('\\') {
                Some(head) => current = Some(head.to_string()),
                None => out.push(c),
            }
        }
    }
    out
}

/// Shell words and operators of one line: quotes removed, `$(...)` bodies returned apart,
/// comments dropped.
fn words(line: &str, inner: &mut Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut has_word = false;
    let mut chars = line.chars().peekable();
    let flush = |word: &mut String, has: &mut bool, out: &mut Vec<String>| {
        if *has {
            out.push(std::mem::take(word));
            *has = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                has_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                has_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        '$' if chars.peek() == Some(&'(') => {
                            chars.next();
                            inner.push(substitution(&mut chars));
                            word.push_str("SUBSTITUTED");
                        }
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                has_word = true;
                word.extend(chars.next());
            }
            '$' if chars.peek() == Some(&'(') => {
                chars.next();
                inner.push(substitution(&mut chars));
                has_word = true;
                word.push_str("SUBSTITUTED");
            }
            '#' if !has_word => break,
            c if c.is_whitespace() => flush(&mut word, &mut has_word, &mut out),
            '|' | ';' | '&' | '>' | '<' => {
                // A file descriptor before a redirection (`2>&1`) is not a word.
                if c == '>' && has_word && word.chars().all(|d| d.is_ascii_digit()) {
                    word.clear();
                    has_word = false;
                }
                flush(&mut word, &mut has_word, &mut out);
                let mut op = c.to_string();
                while chars.peek().is_some_and(|n| matches!(n, '|' | '&' | '>')) {
                    op.extend(chars.next());
                }
                out.push(op);
            }
            c => {
                has_word = true;
                word.push(c);
            }
        }
    }
    flush(&mut word, &mut has_word, &mut out);
    out
}

/// The body of a `$(...)` whose `$(` was just read.
fn substitution(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> String {
    let mut depth = 1;
    let mut body = String::new();
    for c in chars.by_ref() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
        body.push(c);
    }
    body
}

/// The simple commands of a line: split at operators, redirections and shell keywords
/// removed, leading `NAME=value` assignments dropped.
fn simple_commands(line: &str) -> Vec<Vec<String>> {
    let mut inner = Vec::new();
    let words = words(line, &mut inner);
    let mut out = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut skip_next = false;
    for w in words {
        if skip_next {
            skip_next = false;
            continue;
        }
        match w.as_str() {
            "|" | "||" | "&&" | ";" | "&" => out.push(std::mem::take(&mut current)),
            // A redirection and its target (a file, or `&1`'s descriptor).
            op if op.starts_with('>') || op == "<" => skip_next = true,
            "do" | "then" if current.is_empty() => {}
            _ if current.is_empty() && is_assignment(&w) => {}
            _ => current.push(w),
        }
    }
    out.push(current);
    let mut out: Vec<Vec<String>> = out.into_iter().filter(|c| !c.is_empty()).collect();
    for body in inner {
        out.extend(simple_commands(&body));
    }
    out
}

fn is_assignment(w: &str) -> bool {
    w.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Checks one command line whose program is `fjord` (or its path, or a link named as one of
/// Kafka's scripts) with the binary's own parser and link mapping; None when it parses.
fn check_fjord(argv: &[String]) -> Option<String> {
    let args = fjord_server::cli::as_fjord_args(argv.iter().map(Into::into).collect());
    fjord_server::cli::Cli::try_from_args(args)
        .err()
        .filter(|e| {
            !matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            )
        })
        .map(|e| e.to_string())
}

/// Programs the documentation runs besides fjord: installed with the toolchain or the
/// system, or files of this repository.
const OTHER_PROGRAMS: &[&str] = &[
    "cargo",
    "curl",
    "grep",
    "printf",
    "seq",
    "tail",
    "echo",
    "alias",
    "install",
    "ln",
    "for",
    "done",
    "docker",
    "mdbook",
    "mvn",
    "python3",
    "config/secured/make-certs.sh",
    "ulimit",
    "cd",
];

#[test]
fn every_command_in_the_docs_parses() {
    let mut checked = 0;
    let mut problems = Vec::new();
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(root()).unwrap().display().to_string();
        for line in command_lines(&text) {
            for cmd in simple_commands(&line) {
                let program = cmd[0].as_str();
                // `fjord`, the binary's path, or a link named as one of Kafka's scripts.
                let base = program.rsplit('/').next().unwrap_or(program);
                let args = (base == "fjord"
                    || base
                        .strip_suffix(".sh")
                        .is_some_and(|s| s.starts_with("kafka-")))
                .then(|| cmd.clone());
                match args {
                    Some(args) => {
                        checked += 1;
                        if let Some(e) = check_fjord(&args) {
                            problems.push(format!("{name}: `{line}`: {e}"));
                        }
                    }
                    None if OTHER_PROGRAMS.contains(&program) => {}
                    None => problems.push(format!("{name}: `{line}`: unknown program {program}")),
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} fjord commands found");
    println!("{checked} fjord commands parsed");
    assert!(
        problems.is_empty(),
        "commands in the docs that do not parse:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_shell_reading_finds_the_commands() {
    let cmds = simple_commands(
        "for i in 1 2 3; do fjord server --config node$i.properties > node$i.log 2>&1 & done",
    );
    assert_eq!(
        cmds[1],
        ["fjord", "server", "--config", "node$i.properties"]
    );
    let cmds = simple_commands("CLUSTER_ID=\"$(fjord random-uuid)\" docker compose up # x");
    assert!(cmds.contains(&vec!["fjord".to_string(), "random-uuid".to_string()]));
    assert!(cmds.contains(&vec!["docker".into(), "compose".into(), "up".into()]));
    let cmds = simple_commands("printf 'a|b' | fjord kafka-topics --list");
    assert_eq!(cmds[0], ["printf", "a|b"]);
    let argv = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(check_fjord(&argv(&["fjord", "kafka-topics", "--no-such-flag"])).is_some());
    assert!(check_fjord(&argv(&["fjord", "format", "--no-such-flag"])).is_some());
    assert!(check_fjord(&argv(&["kafka-storage.sh", "format", "--no-such-flag"])).is_some());
    assert!(check_fjord(&argv(&["fjord", "--version"])).is_none());
    assert!(check_fjord(&argv(&[
        "kafka-topics.sh",
        "--list",
        "--bootstrap-server",
        "x:1"
    ]))
    .is_none());
    assert!(check_fjord(&argv(&["fjord", "server", "--config", "x.properties"])).is_none());
}
