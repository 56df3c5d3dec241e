//! SeaweedFS, the S3-compatible server tiered storage is tested against (`weed mini`, built
//! by `tests/tiered/weed.sh fetch` into `target/tools/weed`), started on loopback on free
//! ports with the bucket `fjord`, and killed when dropped.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `weed mini` with an S3 gateway and the bucket `fjord`.
pub struct Weed {
    child: Child,
    /// The S3 endpoint.
    pub endpoint: String,
}

impl Drop for Weed {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts SeaweedFS in `dir` and waits until its S3 gateway answers.
pub fn start_weed(dir: &std::path::Path) -> Weed {
    let bin = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/tools/weed");
    assert!(
        bin.exists(),
        "{} is missing: run tests/tiered/weed.sh fetch",
        bin.display()
    );
    let port = |_| super::free_port().to_string();
    let [m, mg, v, vg, f, fg, s, sg] = [0; 8].map(port);
    let log = std::fs::File::create(dir.join("weed.log")).unwrap();
    let child = Command::new(bin)
        .args([
            "mini",
            &format!("-dir={}", dir.display()),
            "-ip=127.0.0.1",
            "-ip.bind=127.0.0.1",
            &format!("-master.port={m}"),
            &format!("-master.port.grpc={mg}"),
            &format!("-volume.port={v}"),
            &format!("-volume.port.grpc={vg}"),
            &format!("-filer.port={f}"),
            &format!("-filer.port.grpc={fg}"),
            &format!("-s3.port={s}"),
            &format!("-s3.port.grpc={sg}"),
            "-s3.port.iceberg=0",
            "-s3.port.lance=0",
            "-webdav=false",
            "-admin.ui=false",
            "-bucket=fjord",
        ])
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("start weed");
    let weed = Weed {
        child,
        endpoint: format!("http://127.0.0.1:{s}"),
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if let Ok(mut c) = std::net::TcpStream::connect(("127.0.0.1", s.parse::<u16>().unwrap())) {
            let _ = c.write_all(b"HEAD /fjord HTTP/1.0\r\n\r\n");
            let mut head = [0u8; 12];
            if c.read(&mut head).is_ok_and(|n| n >= 12) && &head[9..12] == b"200" {
                return weed;
            }
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!(
        "weed's S3 gateway never answered; see {}",
        dir.join("weed.log").display()
    );
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
