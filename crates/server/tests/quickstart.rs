//! Kafka's quickstart as a script (`tests/quickstart/quickstart.sh`), run against the binary
//! under test through links named as Kafka's scripts, on free ports.

mod common;

#[test]
fn kafkas_quickstart_runs_through_links_named_as_its_scripts() {
    let work = tempfile::tempdir().unwrap();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/quickstart/quickstart.sh");
    let out = std::process::Command::new("bash")
        .arg(&script)
        .arg(common::fjord_bin())
        .arg(work.path())
        .env("BROKER_PORT", common::free_port().to_string())
        .env("CONTROLLER_PORT", common::free_port().to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let log = std::fs::read_to_string(work.path().join("server.log")).unwrap_or_default();
    assert!(
        out.status.success(),
        "stdout:\n{stdout}\nstderr:\n{}\nserver log:\n{log}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines.contains(&"Created topic quickstart-events."),
        "{stdout}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Topic: quickstart-events\tTopicId: ")
                && l.contains("\tPartitionCount: 1\tReplicationFactor: 1\t")),
        "{stdout}"
    );
    let first = lines
        .iter()
        .position(|l| *l == "This is my first event")
        .expect("the first event is read back");
    assert_eq!(lines[first + 1], "This is my second event");
    assert!(lines.contains(&"user1:logged in"), "{stdout}");
    assert_eq!(lines.last(), Some(&"quickstart: done"));
}
