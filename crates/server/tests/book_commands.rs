//! Every command the documentation shows is one that works: each `fjord` command in README.md,
//! ARCHITECTURE.md and docs/ (the lines of `sh` blocks, and the `$ ` lines of any block) is
//! parsed by the same argument parser the binary uses, and every other program a block runs
//! is one this test knows (issue 38). The walk-throughs that matter most are also run on
//! real nodes: README's tour and the share-group walk-through
//! (`readme_walkthrough.rs`), the secured cluster (`config_examples.rs`).

mod common;

use clap::{Args as _, Command};
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

/// The parser of one `fjord` subcommand, as the binary builds it.
fn tool(name: &str) -> Option<Command> {
    use fjord_tools as t;
    let c = Command::new("tool");
    Some(match name {
        "kafka-metadata-quorum" => t::metadata_quorum::Args::augment_args(c),
        "kafka-topics" => t::topics::Args::augment_args(c),
        "kafka-leader-election" => t::leader_election::Args::augment_args(c),
        "kafka-unclean-recovery" => t::unclean_recovery::Args::augment_args(c),
        "kafka-console-producer" => t::console::producer::Args::augment_args(c),
        "kafka-console-consumer" => t::console::consumer::Args::augment_args(c),
        "kafka-configs" => t::configs::Args::augment_args(c),
        "kafka-delegation-tokens" => t::delegation_tokens::Args::augment_args(c),
        "kafka-acls" => t::acls::Args::augment_args(c),
        "kafka-consumer-groups" => t::consumer_groups::Args::augment_args(c),
        "kafka-console-share-consumer" => t::console::share_consumer::Args::augment_args(c),
        "kafka-share-groups" => t::share_groups::Args::augment_args(c),
        "kafka-features" => t::features::Args::augment_args(c),
        "kafka-reassign-partitions" => t::reassign_partitions::Args::augment_args(c),
        "kafka-log-dirs" => t::log_dirs::Args::augment_args(c),
        "kafka-transactions" => t::transactions::Args::augment_args(c),
        "kafka-cluster" => t::cluster::Args::augment_args(c),
        _ => return None,
    })
}

/// Checks one `fjord` command line (`args` after `fjord`); None when it parses.
fn check_fjord(args: &[String]) -> Option<String> {
    let (sub, rest) = args.split_first()?;
    if rest.is_empty() && ["--version", "--help", "-V", "-h"].contains(&sub.as_str()) {
        return None;
    }
    if let Some(cmd) = tool(sub) {
        let argv = std::iter::once(sub.clone()).chain(rest.iter().cloned());
        return cmd.try_get_matches_from(argv).err().map(|e| e.to_string());
    }
    // The binary's own subcommands: every flag given is one its --help lists.
    if !["server", "format", "random-uuid", "kafka-dump-log"].contains(&sub.as_str()) {
        return Some(format!("no fjord subcommand {sub}"));
    }
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_fjord"))
        .args([sub.as_str(), "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    rest.iter()
        .filter(|a| a.starts_with('-'))
        .map(|a| a.split('=').next().unwrap())
        .find(|flag| {
            !help
                .split(|c: char| c.is_whitespace() || c == ',')
                .any(|w| w == *flag)
        })
        .map(|flag| format!("fjord {sub} has no flag {flag}"))
}

/// Programs the documentation runs besides fjord: installed with the toolchain or the
/// system, or files of this repository.
const OTHER_PROGRAMS: &[&str] = &[
    "cargo",
    "curl",
    "grep",
    "printf",
    "seq",
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
                // `fjord`, the binary's path, or a link named as Kafka's script.
                let args: Option<Vec<String>> = if program == "fjord" || program.ends_with("/fjord")
                {
                    Some(cmd[1..].to_vec())
                } else if let Some(script) = program
                    .rsplit('/')
                    .next()
                    .and_then(|p| p.strip_suffix(".sh"))
                    .filter(|s| s.starts_with("kafka-"))
                {
                    let mapped = match script {
                        "kafka-storage" => vec![],
                        "kafka-server-start" => vec!["server".to_string(), "--config".into()],
                        s => vec![s.to_string()],
                    };
                    Some(mapped.into_iter().chain(cmd[1..].iter().cloned()).collect())
                } else {
                    None
                };
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
    assert!(check_fjord(&["kafka-topics".into(), "--no-such-flag".into()]).is_some());
    assert!(check_fjord(&["format".into(), "--no-such-flag".into()]).is_some());
    assert!(check_fjord(&[
        "kafka-topics".into(),
        "--list".into(),
        "--bootstrap-server".into(),
        "x:1".into()
    ])
    .is_none());
}
