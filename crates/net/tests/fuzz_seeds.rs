//! Writes the seed corpus of the `sasl_oauthbearer` fuzz target (`fuzz/corpus/`): initial
//! responses a client sends, with an unsecured token, extensions and an authorization id.
//! Ignored in a plain `cargo test`; `.ci/run` runs it before fuzzing.

use fjord_net::sasl::oauthbearer::{initial_response, unsecured_token};

#[test]
#[ignore = "writes fuzz/corpus; .ci/run runs it before fuzzing"]
fn write_fuzz_seeds() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/sasl_oauthbearer");
    std::fs::create_dir_all(&dir).unwrap();
    let token = unsecured_token("alice", 1_800_000_000_000, 3600);
    let seeds = [
        ("plain", initial_response(&token)),
        (
            "extensions",
            format!("n,a=alice,\u{1}auth=Bearer {token}\u{1}traceId=abc\u{1}\u{1}").into_bytes(),
        ),
        ("token", token.clone().into_bytes()),
    ];
    for (name, bytes) in &seeds {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    // The fuzzer adds inputs of its own to the directory: every seed is there, as written.
    for (name, bytes) in &seeds {
        assert_eq!(std::fs::read(dir.join(name)).unwrap(), *bytes, "{name}");
    }
}
