//! Every example in `config/` loads and formats (into a temporary directory), and a bad value
//! is refused naming its key.

mod common;

use common::fjord;

fn examples() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config");
    let mut out = vec![root.join("server.properties")];
    for i in 1..=3 {
        out.push(root.join(format!("cluster/node{i}.properties")));
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
    assert!(names.len() >= 10, "{names:?}");
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
