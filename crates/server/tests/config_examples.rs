//! Every example in `config/` loads and formats (into a temporary directory), and a bad value
//! is refused naming its key; the docker files run what the tests run, and the alerting rules
//! and dashboard use metrics a node serves.

mod common;

use common::fjord;

fn examples() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config");
    let mut out = vec![root.join("server.properties")];
    for i in 1..=3 {
        out.push(root.join(format!("cluster/node{i}.properties")));
    }
    for i in 1..=3 {
        out.push(root.join(format!("secured/node{i}.properties")));
    }
    out
}

#[test]
fn every_example_config_formats() {
    let cluster_id = common::random_uuid();
    for path in examples() {
        let dir = tempfile::tempdir().unwrap();
        let dirs = format!("log.dirs={}", dir.path().display());
        let standalone = path.ends_with("server.properties");
        let mut args = vec![
            "format",
            "--config",
            path.to_str().unwrap(),
            "--override",
            &dirs,
            "--cluster-id",
            &cluster_id,
        ];
        if standalone {
            args.push("--standalone");
        }
        let out = fjord(&args);
        assert!(
            out.status.success(),
            "{}: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(dir.path().join("meta.properties").exists());
        let again = fjord(&args);
        assert!(!again.status.success(), "formatting twice is refused");
        assert!(String::from_utf8_lossy(&again.stderr).contains("is already formatted"));
    }
}

#[test]
fn an_invalid_value_names_its_key() {
    let path = &examples()[1];
    let out = fjord(&[
        "server",
        "--config",
        path.to_str().unwrap(),
        "--override",
        "controller.quorum.election.timeout.ms=soon",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("controller.quorum.election.timeout.ms"),
        "{err}"
    );
}

/// The compose file runs each `config/cluster` node with the same two commands the process
/// tests run (format, then server, on the unchanged properties file), and every script name
/// the image links is one the binary answers to.
#[test]
fn the_docker_files_run_what_the_tests_run() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let compose = std::fs::read_to_string(repo.join("docker/compose.yaml")).unwrap();
    let cluster_id = common::random_uuid();
    for i in 1..=3 {
        let config = format!("/etc/fjord/cluster/node{i}.properties");
        let format = format!(
            "fjord format --config {config} --cluster-id \"$$CLUSTER_ID\" --ignore-formatted"
        );
        let server = format!("exec fjord server --config {config}");
        assert!(compose.contains(&format), "node{i}: {format}");
        assert!(compose.contains(&server), "node{i}: {server}");
        // The same format command, against the repository's file, twice: the second run
        // (a restarted container) leaves the formatted directory alone.
        let dir = tempfile::tempdir().unwrap();
        let path = repo.join(format!("config/cluster/node{i}.properties"));
        let dirs = format!("log.dirs={}", dir.path().display());
        for _ in 0..2 {
            let out = fjord(&[
                "format",
                "--config",
                path.to_str().unwrap(),
                "--override",
                &dirs,
                "--cluster-id",
                &cluster_id,
                "--ignore-formatted",
            ]);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    let dockerfile = std::fs::read_to_string(repo.join("docker/Dockerfile")).unwrap();
    let links = dockerfile
        .split("for tool in ")
        .nth(1)
        .and_then(|s| s.split("; do").next())
        .expect("the link loop");
    let names: Vec<&str> = links.split_whitespace().filter(|w| *w != "\\").collect();
    // Every tool the binary has is linked under its script name.
    let help = std::process::Command::new(common::fjord_bin())
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let tools: Vec<&str> = help
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.starts_with("kafka-"))
        .collect();
    assert!(tools.len() >= 15, "{help}");
    for tool in &tools {
        assert!(
            names.contains(tool) || *tool == "kafka-storage",
            "docker/Dockerfile does not link {tool}.sh"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    for name in names {
        let link = dir.path().join(format!("{name}.sh"));
        std::os::unix::fs::symlink(common::fjord_bin(), &link).unwrap();
        let out = std::process::Command::new(&link)
            .arg("--help")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}.sh --help: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Runs `fjord` in `dir` (where the secured example's relative paths point).
fn fjord_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(common::fjord_bin())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run fjord")
}

/// README's secured cluster, command by command: certificates from `make-certs.sh`, three
/// nodes formatted with the admin's SCRAM credential and started from `config/secured`
/// unchanged; topics, a SCRAM user, ACLs and the console clients through `admin.properties`.
#[test]
fn the_secured_example_runs_as_the_readme_says() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let secured = repo.join("config/secured").canonicalize().unwrap();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    let _nodes = start_secured_cluster(&secured, dir);
    let admin = secured.join("admin.properties");
    let admin = admin.to_str().unwrap();
    the_admin_creates_and_produces(dir, admin);
    alice_reads_once_granted(dir, &secured, admin);
}

/// Asserts a command succeeded, showing what it said otherwise.
fn assert_ran(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The certificates made and the three nodes of `config/secured` formatted (with the admin's
/// SCRAM credential) and started in `dir`.
fn start_secured_cluster(secured: &std::path::Path, dir: &std::path::Path) -> Vec<KillOnDrop> {
    let certs = std::process::Command::new(secured.join("make-certs.sh"))
        .arg("./certs")
        .current_dir(dir)
        .output()
        .unwrap();
    assert_ran(&certs);
    let cluster_id = common::random_uuid();
    let mut nodes = Vec::new();
    for i in 1..=3 {
        let config = secured.join(format!("node{i}.properties"));
        let config = config.to_str().unwrap();
        assert_ran(&fjord_in(
            dir,
            &[
                "format",
                "--config",
                config,
                "--cluster-id",
                &cluster_id,
                "--add-scram",
                "SCRAM-SHA-512=[name=admin,password=admin-secret]",
            ],
        ));
        nodes.push(start_fixed_port_node(
            dir,
            config,
            &dir.join(format!("node{i}.log")),
        ));
    }
    nodes
}

/// The admin creates `payments` (three replicas, once the cluster serves) and produces three
/// records with the console producer.
fn the_admin_creates_and_produces(dir: &std::path::Path, admin: &str) {
    let logs = || {
        (1..=3)
            .map(|i| std::fs::read_to_string(dir.join(format!("node{i}.log"))).unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n----\n")
    };
    let create = [
        "kafka-topics",
        "--bootstrap-server",
        "127.0.0.1:19192",
        "--command-config",
        admin,
        "--create",
        "--topic",
        "payments",
        "--partitions",
        "3",
        "--replication-factor",
        "3",
    ];
    let created = common::wait_for(std::time::Duration::from_secs(90), || {
        fjord_in(dir, &create).status.success().then_some(())
    });
    assert!(
        created.is_some(),
        "{:?}\n{}",
        fjord_in(dir, &create),
        logs()
    );
    let produce = std::process::Command::new(common::fjord_bin())
        .args([
            "kafka-console-producer",
            "--bootstrap-server",
            "127.0.0.1:19192",
            "--producer.config",
            admin,
            "--topic",
            "payments",
        ])
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = produce.stdin.as_ref().unwrap();
        stdin.write_all(b"one\ntwo\nthree\n").unwrap();
    }
    let produced = produce.wait_with_output().unwrap();
    assert!(
        produced.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&produced.stderr),
        logs()
    );
}

/// A SCRAM user, refused until ACLs let her read; then she reads the three records.
fn alice_reads_once_granted(dir: &std::path::Path, secured: &std::path::Path, admin: &str) {
    let out = fjord_in(
        dir,
        &[
            "kafka-configs",
            "--bootstrap-server",
            "127.0.0.1:19192",
            "--command-config",
            admin,
            "--alter",
            "--entity-type",
            "users",
            "--entity-name",
            "alice",
            "--add-config",
            "SCRAM-SHA-512=[password=alice-secret]",
        ],
    );
    assert_ran(&out);
    let alice = dir.join("alice.properties");
    std::fs::write(
        &alice,
        std::fs::read_to_string(secured.join("admin.properties"))
            .unwrap()
            .replace(
                "username=\"admin\" password=\"admin-secret\"",
                "username=\"alice\" password=\"alice-secret\"",
            ),
    )
    .unwrap();
    let alice = alice.to_str().unwrap();
    let consume = || {
        fjord_in(
            dir,
            &[
                "kafka-console-consumer",
                "--bootstrap-server",
                "127.0.0.1:29192",
                "--consumer.config",
                alice,
                "--topic",
                "payments",
                "--group",
                "audit",
                "--from-beginning",
                "--max-messages",
                "3",
                "--timeout-ms",
                "20000",
            ],
        )
    };
    let refused = consume();
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("uthoriz"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    let out = fjord_in(
        dir,
        &[
            "kafka-acls",
            "--bootstrap-server",
            "127.0.0.1:19192",
            "--command-config",
            admin,
            "--add",
            "--allow-principal",
            "User:alice",
            "--consumer",
            "--topic",
            "payments",
            "--group",
            "audit",
        ],
    );
    assert_ran(&out);
    let read = consume();
    assert_ran(&read);
    let mut values: Vec<String> = String::from_utf8_lossy(&read.stdout)
        .lines()
        .map(String::from)
        .collect();
    values.sort();
    assert_eq!(values, vec!["one", "three", "two"]);
}

/// A child process SIGKILLed when the test ends, however it ends.
struct KillOnDrop(std::process::Child);

/// Starts a node of `config` in `dir`, logging to `log`, once its listeners are bound. The
/// examples' ports are fixed and some lie in the ephemeral range, where another test's
/// client connection can hold one for a moment: a node that could not bind one is started
/// again (at most five times).
fn start_fixed_port_node(dir: &std::path::Path, config: &str, log: &std::path::Path) -> KillOnDrop {
    for _ in 0..5 {
        let file = std::fs::File::create(log).unwrap();
        let mut child = KillOnDrop(
            std::process::Command::new(common::fjord_bin())
                .args(["server", "--config", config])
                .current_dir(dir)
                .stdout(std::process::Stdio::null())
                .stderr(file)
                .spawn()
                .unwrap(),
        );
        let outcome = common::wait_for(std::time::Duration::from_secs(30), || {
            let text = std::fs::read_to_string(log).unwrap_or_default();
            if text.contains("Address already in use") {
                return Some(false);
            }
            let bound = text.matches("broker listener bound").count() >= 2;
            let exited = child.0.try_wait().ok().flatten().is_some();
            (bound || exited).then_some(true)
        });
        if outcome != Some(false) {
            return child;
        }
    }
    panic!("{config}: a port stayed in use");
}

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The `kafka_...` metric names in `text`.
fn metric_names(text: &str) -> Vec<String> {
    let re = regex::Regex::new(r"\bkafka_[a-z0-9_]+").unwrap();
    re.find_iter(text).map(|m| m.as_str().to_string()).collect()
}

/// `docker/prometheus/alerts.yml` and the Grafana dashboard, as KIP-427 intends the alerts:
/// the four rules exist with their severities and annotations (the offline one pointing to
/// `kafka-unclean-recovery --dry-run`), every query parses as PromQL, and every metric they
/// name is served by a live node's `/metrics`.
#[test]
fn the_alerts_and_the_dashboard_use_metrics_a_node_serves() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(repo.join("docker/prometheus/alerts.yml")).unwrap();
    let docs = yaml_rust2::YamlLoader::load_from_str(&text).expect("alerts.yml is YAML");
    let mut rules: std::collections::BTreeMap<String, (String, String, String)> =
        Default::default();
    for group in docs[0]["groups"].as_vec().expect("groups") {
        for rule in group["rules"].as_vec().expect("rules") {
            let name = rule["alert"].as_str().expect("alert").to_string();
            let expr = rule["expr"].as_str().expect("expr").to_string();
            let severity = rule["labels"]["severity"]
                .as_str()
                .expect("severity")
                .to_string();
            let described = format!(
                "{} {}",
                rule["annotations"]["summary"].as_str().expect("summary"),
                rule["annotations"]["description"]
                    .as_str()
                    .unwrap_or_default()
            );
            rules.insert(name, (expr, severity, described));
        }
    }
    let severity = |name: &str| rules.get(name).map(|r| r.1.as_str());
    assert_eq!(severity("FjordPartitionAtMinIsr"), Some("warning"));
    assert_eq!(severity("FjordPartitionAtMinIsrFlapping"), Some("warning"));
    assert_eq!(severity("FjordPartitionUnderMinIsr"), Some("critical"));
    assert_eq!(severity("FjordOfflinePartitions"), Some("critical"));
    let offline = &rules["FjordOfflinePartitions"].2;
    assert!(
        offline.contains("fjord kafka-unclean-recovery") && offline.contains("--dry-run"),
        "{offline}"
    );
    let mut queries: Vec<String> = rules.values().map(|r| r.0.clone()).collect();

    let dashboard: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join("docker/grafana/dashboards/fjord.json")).unwrap(),
    )
    .expect("the dashboard is JSON");
    for panel in dashboard["panels"].as_array().expect("panels") {
        for target in panel["targets"].as_array().expect("targets") {
            queries.push(target["expr"].as_str().expect("expr").to_string());
        }
    }
    let mut names: std::collections::BTreeSet<String> = Default::default();
    for q in &queries {
        promql_parser::parser::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
        names.extend(metric_names(q));
    }
    for v in dashboard["templating"]["list"]
        .as_array()
        .expect("variables")
    {
        names.extend(metric_names(v["definition"].as_str().unwrap_or_default()));
    }
    assert!(names.len() >= 6, "{names:?}");

    // A live node serves every one of them (partition series once it leads a partition).
    let root = tempfile::tempdir().unwrap();
    let node = common::Node::single(root.path(), 0, "");
    let created = common::wait_for(std::time::Duration::from_secs(60), || {
        fjord(&[
            "kafka-topics",
            "--bootstrap-server",
            &node.broker_addr(),
            "--create",
            "--if-not-exists",
            "--topic",
            "watched",
        ])
        .status
        .success()
        .then_some(())
    });
    assert!(created.is_some(), "{}", node.log_tail());
    let missing = || -> Vec<String> {
        let served = common::metrics_text(node.metrics_port);
        names
            .iter()
            .filter(|n| {
                !served
                    .lines()
                    .any(|l| l.starts_with(n.as_str()) && l[n.len()..].starts_with(['{', ' ']))
            })
            .cloned()
            .collect()
    };
    let all = common::wait_for(std::time::Duration::from_secs(60), || {
        missing().is_empty().then_some(())
    });
    assert!(all.is_some(), "not on /metrics: {:?}", missing());
}
