//! Every flag of every `fjord` subcommand that takes a value (a number, or a string a tool
//! reads as one) takes a negative number, as Kafka's tools do (joptsimple parses `--request-required-acks -1` or `--offset -2`): the value reaches the
//! flag's parser and is accepted there (what a value means is each tool's to check, as in
//! Kafka). Found by the issue that asked for it: `kafka-console-producer
//! --request-required-acks -1` was refused as an unexpected argument.

use clap::error::ErrorKind;
use std::any::TypeId;

fn numeric(parser: &clap::builder::ValueParser) -> bool {
    let id = parser.type_id();
    [
        TypeId::of::<i8>(),
        TypeId::of::<i16>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
        TypeId::of::<isize>(),
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
        TypeId::of::<f32>(),
        TypeId::of::<f64>(),
    ]
    .iter()
    .any(|t| id == *t)
}

/// A flag that takes a value: its subcommand path, its long name, and whether its value is
/// typed as a number (others, such as `--request-required-acks` which also takes `all`, are
/// strings a tool reads as numbers).
struct Flag {
    path: Vec<String>,
    long: String,
    numeric: bool,
}

fn value_flags(c: &clap::Command, path: &mut Vec<String>, out: &mut Vec<Flag>) {
    for a in c.get_arguments() {
        let takes_value = a.get_num_args().is_some_and(|n| n.takes_values());
        let choices = !a.get_possible_values().is_empty();
        if let (Some(long), true, false) = (a.get_long(), takes_value, choices) {
            out.push(Flag {
                path: path.clone(),
                long: long.to_string(),
                numeric: numeric(a.get_value_parser()),
            });
        }
    }
    for s in c.get_subcommands() {
        path.push(s.get_name().to_string());
        value_flags(s, path, out);
        path.pop();
    }
}

#[test]
fn every_numeric_flag_takes_a_negative_number() {
    let mut command = fjord_server::cli::command();
    command.build();
    let mut flags = Vec::new();
    value_flags(&command, &mut Vec::new(), &mut flags);
    let numeric = flags.iter().filter(|f| f.numeric).count();
    assert!(numeric > 20, "numeric flags found: {numeric}");
    assert!(flags
        .iter()
        .any(|f| f.path == ["kafka-console-producer"] && f.long == "request-required-acks"));
    let mut refused = Vec::new();
    for flag in &flags {
        let mut args = vec!["fjord".to_string()];
        args.extend(flag.path.iter().cloned());
        args.push(format!("--{}", flag.long));
        args.push("-1".into());
        if let Err(e) = fjord_server::cli::Cli::try_from_args(&args) {
            if matches!(
                e.kind(),
                ErrorKind::UnknownArgument | ErrorKind::ValueValidation | ErrorKind::InvalidValue
            ) {
                refused.push(format!("{}: {}", args.join(" "), e.kind()));
            }
        }
    }
    assert!(refused.is_empty(), "refused:\n{}", refused.join("\n"));
}
