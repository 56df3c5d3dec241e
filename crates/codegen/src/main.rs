//! `cargo run -p fjord-codegen`: regenerates `crates/protocol/src/generated/` from `schemas/`.
//! `cargo run -p fjord-codegen -- SPEC.json OUT.rs`: generates the module of one spec file
//! (the spec-language test fixture uses this).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [] => generate_all(),
        [spec, out] => generate_one(Path::new(spec), Path::new(out)),
        _ => Err("usage: fjord-codegen [SPEC.json OUT.rs]".to_string()),
    };
    match result {
        Ok(msg) => {
            println!("{msg}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("codegen: {e}");
            ExitCode::FAILURE
        }
    }
}

fn generate_one(spec: &Path, out: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(spec).map_err(|e| format!("{}: {e}", spec.display()))?;
    let spec = fjord_codegen::spec::MessageSpec::parse(&text).map_err(|e| e.to_string())?;
    let module = fjord_codegen::rust_gen::message_module(&spec).map_err(|e| e.to_string())?;
    std::fs::write(out, module).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(format!("wrote {}", out.display()))
}

fn generate_all() -> Result<String, String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = root.join("crates/protocol/src/generated");
    let files = fjord_codegen::generate(&root.join("schemas")).map_err(|e| e.to_string())?;
    match std::fs::remove_dir_all(&out) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("clearing {}: {e}", out.display())),
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    for f in &files {
        std::fs::write(out.join(&f.path), &f.contents)
            .map_err(|e| format!("writing {}: {e}", f.path))?;
    }
    Ok(format!("wrote {} files to {}", files.len(), out.display()))
}
