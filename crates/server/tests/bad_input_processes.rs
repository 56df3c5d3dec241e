//! Bad input on a running node's listeners never takes the node down: an oversized frame
//! length, an unknown API key, a truncated body and random bytes each close only their own
//! connection; ApiVersions at an unknown version gets UNSUPPORTED_VERSION at version 0; the
//! node keeps answering Metadata on both listeners afterwards.

mod common;

use common::{fjord, free_port, wait_for};
use fjord_protocol::generated::api_versions_response::ApiVersionsResponse;
use fjord_protocol::generated::metadata_request::MetadataRequest;
use fjord_protocol::{ApiKey, RequestBody, ResponseBody};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Sends `bytes` and reports whether the server closed the connection (rather than answering).
/// True when the server closes the connection (EOF or reset) after `bytes`; false when it
/// answers. A connection that neither closes nor answers within 10 s fails the test: a hang is
/// not a close.
fn closes_on(addr: &str, bytes: &[u8]) -> bool {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = s.write_all(bytes);
    let mut buf = [0u8; 64];
    match s.read(&mut buf) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            panic!(
                "the server neither answered nor closed within 10 s after {} bytes",
                bytes.len()
            )
        }
        Err(_) => true,
    }
}

fn frame(api: i16, version: i16, body: &[u8]) -> Vec<u8> {
    let mut payload = Vec::new();
    payload.extend_from_slice(&api.to_be_bytes());
    payload.extend_from_slice(&version.to_be_bytes());
    payload.extend_from_slice(&7i32.to_be_bytes());
    payload.extend_from_slice(&(-1i16).to_be_bytes()); // null client id
    if version >= 9 && api == ApiKey::Metadata.key()
        || version >= 3 && api == ApiKey::ApiVersions.key()
    {
        payload.push(0); // empty tagged fields
    }
    payload.extend_from_slice(body);
    let mut f = (payload.len() as i32).to_be_bytes().to_vec();
    f.extend_from_slice(&payload);
    f
}

#[test]
fn bad_input_closes_only_its_connection() {
    let root = tempfile::tempdir().unwrap();
    let (bport, cport) = (free_port(), free_port());
    let props = root.path().join("server.properties");
    std::fs::write(
        &props,
        format!(
            "node.id=1\nprocess.roles=broker,controller\n\
             listeners=PLAINTEXT://127.0.0.1:{bport},CONTROLLER://127.0.0.1:{cport}\n\
             controller.listener.names=CONTROLLER\ncontroller.quorum.voters=1@127.0.0.1:{cport}\n\
             log.dirs={}\n",
            root.path().join("data").display()
        ),
    )
    .unwrap();
    let cluster_id = common::random_uuid();
    assert!(fjord(&[
        "format",
        "--config",
        props.to_str().unwrap(),
        "--cluster-id",
        &cluster_id
    ])
    .status
    .success());
    let mut child = Command::new(common::fjord_bin())
        .args(["server", "--config", props.to_str().unwrap()])
        .args(["--override", "metrics.listener="])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let metadata = |addr: String| {
        rt.block_on(common::call(
            &addr,
            RequestBody::Metadata(MetadataRequest {
                topics: None,
                ..Default::default()
            }),
            12,
        ))
    };
    let broker = format!("127.0.0.1:{bport}");
    let controller = format!("127.0.0.1:{cport}");
    let up = wait_for(Duration::from_secs(30), || match metadata(broker.clone()) {
        Some(ResponseBody::Metadata(m)) if m.brokers.len() == 1 => Some(()),
        _ => None,
    });
    assert!(up.is_some(), "the broker is registered and unfenced");

    for addr in [&broker, &controller] {
        // A length far above socket.request.max.bytes, rejected before any allocation.
        assert!(
            closes_on(addr, &0x7fff_fff0i32.to_be_bytes()),
            "{addr}: oversized frame"
        );
        assert!(
            closes_on(addr, &(-5i32).to_be_bytes()),
            "{addr}: negative length"
        );
        assert!(
            closes_on(addr, &frame(12_345, 0, &[])),
            "{addr}: unknown api key"
        );
        assert!(
            closes_on(addr, &frame(ApiKey::Metadata.key(), 12, &[1, 2])),
            "{addr}: truncated body"
        );
        let mut garbage = vec![0, 0, 0, 40];
        garbage.extend((0..40u8).map(|i| i.wrapping_mul(37).wrapping_add(11)));
        assert!(closes_on(addr, &garbage), "{addr}: garbage");
        // ApiVersions at a version from the future: answered at v0 with UNSUPPORTED_VERSION.
        let mut s = TcpStream::connect(addr.as_str()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(&frame(ApiKey::ApiVersions.key(), 99, &[]))
            .unwrap();
        let mut len = [0u8; 4];
        s.read_exact(&mut len).unwrap();
        let mut body = vec![0u8; i32::from_be_bytes(len) as usize];
        s.read_exact(&mut body).unwrap();
        let mut b = bytes::Bytes::from(body[4..].to_vec());
        let r = ApiVersionsResponse::decode(&mut b, 0).unwrap();
        assert_eq!(r.error_code, 35, "{addr}: UNSUPPORTED_VERSION");
        assert!(!r.api_keys.is_empty());
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "the node is still running"
    );
    match metadata(broker.clone()) {
        Some(ResponseBody::Metadata(m)) => assert_eq!(m.brokers.len(), 1),
        other => panic!("no Metadata after bad input: {other:?}"),
    }
    let _ = child.kill();
    let _ = child.wait();
}
