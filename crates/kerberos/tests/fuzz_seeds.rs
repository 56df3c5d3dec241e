//! Writes the seed corpus of the `sasl_gssapi` fuzz target (`fuzz/corpus/`): a whole mutual
//! exchange of the modelled context, one without mutual authentication, and rule lists with
//! a name. Ignored in a plain `cargo test`; `.ci/run` runs it before fuzzing.

/// Messages as the target reads them: a length byte before each.
fn framed(mutual: bool, messages: &[&[u8]]) -> Vec<u8> {
    let mut out = vec![u8::from(mutual)];
    for m in messages {
        out.push(u8::try_from(m.len()).expect("short"));
        out.extend_from_slice(m);
    }
    out
}

#[test]
#[ignore = "writes fuzz/corpus; .ci/run runs it before fuzzing"]
fn write_fuzz_seeds() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/sasl_gssapi");
    std::fs::create_dir_all(&dir).unwrap();
    let seeds = [
        ("mutual", framed(true, &[b"AP-REQ", b"", b"W:\x01\x00\x00\x00alice"])),
        ("direct", framed(false, &[b"AP-REQ", b"W:\x01\x00\x00\x00"])),
        (
            "rules",
            b"RULE:[1:$1@$0](.*@FJORD\\.TEST)s/@.*///L\nRULE:[2:$1](App\\..*)s/App\\.(.*)/$1/g\nDEFAULT\nApp.x/host@FJORD.TEST"
                .to_vec(),
        ),
        ("upper", b"RULE:[1:$1]/U\nCarol@FJORD.TEST".to_vec()),
    ];
    for (name, bytes) in &seeds {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    // The fuzzer adds inputs of its own to the directory: every seed is there, as written.
    for (name, bytes) in &seeds {
        assert_eq!(std::fs::read(dir.join(name)).unwrap(), *bytes, "{name}");
    }
}
