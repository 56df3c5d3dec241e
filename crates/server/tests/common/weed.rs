//! SeaweedFS, the S3-compatible server tiered storage is tested against (`weed mini`, built
//! by `tests/tiered/weed.sh fetch` into `target/tools/weed`), started on loopback on free
//! ports with the bucket `fjord`, and killed when dropped.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `weed mini` with an S3 gateway and the bucket `fjord`.
pub struct Weed {
    child: Option<Child>,
    /// The S3 endpoint.
    pub endpoint: String,
    /// Its data directory.
    dir: PathBuf,
    /// Its command line (to start it again on the same ports and data).
    args: Vec<String>,
}

impl Drop for Weed {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Weed {
    /// SIGKILLs it (the store unreachable: connections refused).
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts it again on its ports and data, and waits until its S3 gateway answers.
    pub fn start_again(&mut self) {
        self.stop();
        self.child = Some(spawn(&self.args, &self.dir));
        wait_answers(self);
    }
}

fn spawn(args: &[String], dir: &std::path::Path) -> Child {
    // The workspace's target dir, from whichever package includes this file.
    let bin = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|d| d.join("Cargo.lock").exists())
        .expect("the workspace root")
        .join("target/tools/weed");
    assert!(
        bin.exists(),
        "{} is missing: run tests/tiered/weed.sh fetch",
        bin.display()
    );
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("weed.log"))
        .unwrap();
    Command::new(bin)
        .args(args)
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("start weed")
}

/// Waits until `weed`'s S3 gateway answers for its bucket (up to 60 s).
fn wait_answers(weed: &Weed) {
    let port: u16 = weed.endpoint.rsplit(':').next().unwrap().parse().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if let Ok(mut c) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            let _ = c.write_all(b"HEAD /fjord HTTP/1.0\r\n\r\n");
            let mut head = [0u8; 12];
            if c.read(&mut head).is_ok_and(|n| n >= 12) && &head[9..12] == b"200" {
                return;
            }
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!(
        "weed's S3 gateway never answered; see {}",
        weed.dir.join("weed.log").display()
    );
}

/// Starts SeaweedFS in `dir` and waits until its S3 gateway answers.
pub fn start_weed(dir: &std::path::Path) -> Weed {
    let port = |_| super::free_port().to_string();
    let [m, mg, v, vg, f, fg, s, sg] = [0; 8].map(port);
    let args: Vec<String> = [
        "mini".to_string(),
        format!("-dir={}", dir.display()),
        "-ip=127.0.0.1".into(),
        "-ip.bind=127.0.0.1".into(),
        format!("-master.port={m}"),
        format!("-master.port.grpc={mg}"),
        format!("-volume.port={v}"),
        format!("-volume.port.grpc={vg}"),
        format!("-filer.port={f}"),
        format!("-filer.port.grpc={fg}"),
        format!("-s3.port={s}"),
        format!("-s3.port.grpc={sg}"),
        "-s3.port.iceberg=0".into(),
        "-s3.port.lance=0".into(),
        "-webdav=false".into(),
        "-admin.ui=false".into(),
        "-bucket=fjord".into(),
    ]
    .to_vec();
    let weed = Weed {
        child: Some(spawn(&args, dir)),
        endpoint: format!("http://127.0.0.1:{s}"),
        dir: dir.to_path_buf(),
        args,
    };
    wait_answers(&weed);
    weed
}

/// The properties that put a node's tiered storage on `weed`'s bucket.
pub fn s3_properties(weed: &Weed) -> String {
    format!(
        "rsm.config.storage.backend.class=s3\n\
         rsm.config.storage.s3.bucket.name=fjord\n\
         rsm.config.storage.s3.endpoint.url={}\n\
         rsm.config.storage.s3.region=us-east-1\n\
         rsm.config.storage.s3.path.style.access.enabled=true\n\
         rsm.config.storage.aws.access.key.id=fjord\n\
         rsm.config.storage.aws.secret.access.key=fjord-secret\n",
        weed.endpoint
    )
}
