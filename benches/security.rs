//! What security costs: one release `fjord server` with a listener per protocol (PLAINTEXT,
//! SSL, SASL_SSL with SCRAM-SHA-512), certificates from `config/secured/make-certs.sh`; the
//! same librdkafka producer (1 KiB records, acks=1, one partition) and consumer run against
//! each in turn, and the throughput of each is printed next to plaintext's (issue 13's goal:
//! TLS keeps at least 70% of plaintext for 1 KiB records).
//!
//! `cargo build --release --bin fjord && cargo bench -p fjord-benches --bench security`
//! (`FJORD_LOAD_SECONDS` sets each run's length, default 5; `FJORD_BIN` another binary).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const RECORD: usize = 1024;

fn fjord_bin() -> PathBuf {
    if let Ok(p) = std::env::var("FJORD_BIN") {
        return PathBuf::from(p);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let bin = root.join("target/release/fjord");
    assert!(
        bin.exists(),
        "build the binary first: cargo build --release --bin fjord ({bin:?})"
    );
    bin
}

/// librdkafka settings: (key, value) pairs.
type Settings<'a> = [(&'a str, &'a str)];

struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn main() {
    let secs: f64 = std::env::var("FJORD_LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5.0);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let certs = Command::new(root.join("config/secured/make-certs.sh"))
        .args([d.join("certs").to_str().unwrap(), "node"])
        .output()
        .unwrap();
    assert!(certs.status.success(), "{certs:?}");
    let ca = d.join("certs/ca.pem").display().to_string();
    let (plain, ssl, sasl_ssl, controller) = (
        fjord_benches::free_port(),
        fjord_benches::free_port(),
        fjord_benches::free_port(),
        fjord_benches::free_port(),
    );
    let props = d.join("server.properties");
    std::fs::write(
        &props,
        format!(
            "node.id=1\nprocess.roles=broker,controller\n\
             listeners=PLAINTEXT://127.0.0.1:{plain},SSL://127.0.0.1:{ssl},SASL_SSL://127.0.0.1:{sasl_ssl},CONTROLLER://127.0.0.1:{controller}\n\
             controller.listener.names=CONTROLLER\ncontroller.quorum.voters=1@127.0.0.1:{controller}\n\
             log.dirs={}\nmetrics.listener=\n\
             ssl.keystore.location={}\nssl.truststore.location={ca}\n\
             sasl.enabled.mechanisms=SCRAM-SHA-512\n\
             listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;\n\
             offsets.topic.replication.factor=1\n",
            d.join("data").display(),
            d.join("certs/node.pem").display()
        ),
    )
    .unwrap();
    let bin = fjord_bin();
    let cluster = String::from_utf8(
        Command::new(&bin)
            .arg("random-uuid")
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let formatted = Command::new(&bin)
        .args([
            "format",
            "--config",
            props.to_str().unwrap(),
            "--cluster-id",
            cluster.trim(),
        ])
        .args([
            "--add-scram",
            "SCRAM-SHA-512=[name=bench,password=bench-secret]",
        ])
        .output()
        .unwrap();
    assert!(formatted.status.success(), "{formatted:?}");
    let node = Kill(
        Command::new(&bin)
            .args(["server", "--config", props.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let pid = node.0.id();
    let tls: Vec<(&str, &str)> = vec![("security.protocol", "SSL"), ("ssl.ca.location", &ca)];
    let sasl: Vec<(&str, &str)> = vec![
        ("security.protocol", "SASL_SSL"),
        ("ssl.ca.location", &ca),
        ("sasl.mechanism", "SCRAM-SHA-512"),
        ("sasl.username", "bench"),
        ("sasl.password", "bench-secret"),
    ];
    let runs: [(&str, u16, &Settings); 3] = [
        ("PLAINTEXT", plain, &[]),
        ("SSL", ssl, &tls),
        ("SASL_SSL", sasl_ssl, &sasl),
    ];
    println!("1 KiB records, acks=1, 1 partition, one librdkafka client, {secs} s per produce run");
    println!(
        "{:<10} {:>13} {:>9} {:>13} {:>9} {:>16} {:>16}",
        "protocol",
        "produce MB/s",
        "of plain",
        "consume MB/s",
        "of plain",
        "broker CPU s/GB",
        "(produce, fetch)"
    );
    let mut base: Option<(f64, f64)> = None;
    for (i, (name, port, client)) in runs.iter().enumerate() {
        let bootstrap = format!("127.0.0.1:{port}");
        let topic = format!("bench-{i}");
        assert!(Command::new("sync").status().unwrap().success());
        // The first produce creates the topic; wait until the node takes records.
        let ready = Instant::now() + Duration::from_secs(60);
        while fjord_benches::produce(client, &bootstrap, &topic, 1, RECORD, "1", 0.2, None).0 == 0 {
            assert!(
                Instant::now() < ready,
                "{name}: the node never took a record"
            );
        }
        let cpu0 = fjord_benches::cpu_seconds(pid);
        let (acked, failed, _) =
            fjord_benches::produce(client, &bootstrap, &topic, 1, RECORD, "1", secs, None);
        assert_eq!(failed, 0, "{name}: failed deliveries");
        let cpu1 = fjord_benches::cpu_seconds(pid);
        let gb = acked as f64 * RECORD as f64 / 1e9;
        let produce_mb = gb * 1e3 / secs;
        let took = fjord_benches::consume(client, &bootstrap, &topic, 1, acked);
        let cpu2 = fjord_benches::cpu_seconds(pid);
        let consume_mb = gb * 1e3 / took;
        // Each run starts with the page cache clean: the topic deleted and its pages written
        // out, so no run pays for writing back an earlier one's data.
        let deleted = Command::new(&bin)
            .args([
                "kafka-topics",
                "--bootstrap-server",
                &format!("127.0.0.1:{plain}"),
            ])
            .args(["--delete", "--topic", &topic])
            .output()
            .unwrap();
        assert!(deleted.status.success(), "{deleted:?}");
        assert!(Command::new("sync").status().unwrap().success());
        let (p0, c0) = *base.get_or_insert((produce_mb, consume_mb));
        println!(
            "{:<10} {:>13.1} {:>8.0}% {:>13.1} {:>8.0}% {:>16} {:>16}",
            name,
            produce_mb,
            100.0 * produce_mb / p0,
            consume_mb,
            100.0 * consume_mb / c0,
            "",
            format!("{:.2}, {:.2}", (cpu1 - cpu0) / gb, (cpu2 - cpu1) / gb)
        );
    }
}
