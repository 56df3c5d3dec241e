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
