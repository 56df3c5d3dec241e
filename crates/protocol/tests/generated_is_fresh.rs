//! The checked-in generated code must be exactly what fjord-codegen makes of `schemas/` now.

use std::path::PathBuf;

#[test]
fn checked_in_generated_code_matches_the_schemas() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = fjord_codegen::generate(&root.join("schemas")).expect("schemas generate");
    let dir = root.join("crates/protocol/src/generated");
    let mut stale = Vec::new();
    for f in &files {
        match std::fs::read_to_string(dir.join(&f.path)) {
            Ok(text) if text == f.contents => {}
            _ => stale.push(f.path.clone()),
        }
    }
    let on_disk = std::fs::read_dir(&dir).unwrap().count();
    assert!(
        stale.is_empty() && on_disk == files.len(),
        "generated code is stale ({} files differ, {on_disk} on disk vs {} generated): run `cargo run -p fjord-codegen`. First: {:?}",
        stale.len(),
        files.len(),
        stale.first()
    );
}
