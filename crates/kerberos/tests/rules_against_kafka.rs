//! `sasl.kerberos.principal.to.local.rules` against an independent oracle, Kafka 4.4's own
//! `KerberosShortNamer` (run by `tests/kerberos/ShortNames.java` with Kafka's jars): a seeded
//! generator makes rule lists from the grammar's parts (components, formats with parameters
//! in and out of range, match patterns, substitutions with groups and escapes, `g`, `/L`,
//! `/U`, `DEFAULT`, malformed rules) and principals of one and two components in the default
//! realm, another or none; every case must map to the same short name, or fail on both.
//! Ignored in a plain `cargo test` (it needs the jars of `tests/kafka/kafka.sh fetch`);
//! `.ci/run` runs it.

use fjord_kerberos::{KerberosName, ShortNamer};
use std::process::Command;

/// A small seeded generator (xorshift64*), so a failing case can be made again.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }
}

fn rule(rng: &mut Rng) -> String {
    if rng.next() % 6 == 0 {
        return rng
            .pick(&[
                "DEFAULT",
                "RULE:[1:$1]/X",
                "RULE:[x:$1]",
                "RULE:[1:$1](",
                "DEFAULT/L",
            ])
            .into();
    }
    let components = rng.pick(&["1", "2", "1", "2", "0", "3"]);
    let format: String = (0..1 + rng.next() % 3)
        .map(|_| rng.pick(&["$0", "$1", "$2", "@", ".", "x", "$1", "$3", "-"]))
        .collect();
    let matcher = rng.pick(&[
        "",
        "",
        "(.*@R1\\.COM)",
        "(a.*)",
        "([A-Z].*)",
        "(.*)",
        "(App\\..*)",
        "(x)",
    ]);
    let substitution = rng.pick(&[
        "",
        "",
        "s/@.*//",
        "s/a/b/",
        "s/a/b/g",
        "s/(.*)@(.*)/$2-$1/",
        "s/X/\\$/",
        "s/^/u_/",
        "s/(a)/$12/",
        "s/App\\.(.*)/$1/g",
        "s/(p)/${p}/",
    ]);
    let case = rng.pick(&["", "", "/L", "/U"]);
    format!("RULE:[{components}:{format}]{matcher}{substitution}{case}")
}

fn principal(rng: &mut Rng) -> String {
    let service = rng.pick(&["alice", "Alice", "App.svc", "admin", "xa", "ABC_a_ABC"]);
    let host = rng.pick(&["", "", "/host1", "/h.example.com"]);
    let realm = rng.pick(&["@R1.COM", "@R1.COM", "@R2.COM", ""]);
    format!("{service}{host}{realm}")
}

/// fjord's answer in the oracle's form.
fn fjord(realm: &str, name: &str, rules: &[String]) -> String {
    let namer = match ShortNamer::parse(realm, rules) {
        Ok(n) => n,
        Err(_) => return "ERR".into(),
    };
    match KerberosName::parse(name).map(|n| namer.short_name(&n)) {
        Ok(Ok(short)) => format!("OK {short}"),
        _ => "ERR".into(),
    }
}

#[test]
#[ignore = "runs Kafka 4.4's KerberosShortNamer (the jars of tests/kafka/kafka.sh fetch); .ci/run runs it"]
fn the_rules_map_as_kafkas_do() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let libs = root.join("target/kafka-4.4.0/libs");
    assert!(
        libs.join("kafka-clients-4.4.0.jar").exists(),
        "run tests/kafka/kafka.sh fetch"
    );
    let seed = std::env::var("FJORD_RULES_SEED").map_or(1, |s| s.parse().unwrap());
    let mut rng = Rng(seed | 1);
    let cases: Vec<(String, Vec<String>)> = (0..2000)
        .map(|_| {
            let rules = (0..1 + rng.next() % 3).map(|_| rule(&mut rng)).collect();
            (principal(&mut rng), rules)
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cases.tsv");
    let lines: Vec<String> = cases
        .iter()
        .map(|(name, rules)| format!("R1.COM\t{name}\t{}", rules.join("\u{1f}")))
        .collect();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let o = Command::new("java")
        .arg("-cp")
        .arg(format!("{}/*", libs.display()))
        .arg(root.join("tests/kerberos/ShortNames.java"))
        .arg(&file)
        .output()
        .expect("java runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let kafka: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(kafka.len(), cases.len());
    let mut mapped = 0;
    for ((name, rules), theirs) in cases.iter().zip(&kafka) {
        let theirs = if theirs.starts_with("ERR") {
            "ERR"
        } else {
            theirs.as_str()
        };
        let ours = fjord("R1.COM", name, rules);
        assert_eq!(ours, theirs, "seed {seed}: {name} with {rules:?}");
        mapped += usize::from(ours.starts_with("OK"));
    }
    // The generator must reach both outcomes often enough to mean something.
    assert!(
        mapped > 200 && mapped < 1800,
        "{mapped} of {} mapped",
        cases.len()
    );
}
