//! `cargo run -p fjord-codegen`: regenerates `crates/protocol/src/generated/` from `schemas/`.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = root.join("crates/protocol/src/generated");
    let files = match fjord_codegen::generate(&root.join("schemas")) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("codegen: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = std::fs::remove_dir_all(&out) {
        if e.kind() != std::io::ErrorKind::NotFound {
            eprintln!("codegen: clearing {}: {e}", out.display());
            return ExitCode::FAILURE;
        }
    }
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("codegen: {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    for f in &files {
        if let Err(e) = std::fs::write(out.join(&f.path), &f.contents) {
            eprintln!("codegen: writing {}: {e}", f.path);
            return ExitCode::FAILURE;
        }
    }
    println!("wrote {} files to {}", files.len(), out.display());
    ExitCode::SUCCESS
}
