//! Replacing a file so that a crash leaves either the old or the new contents: write a
//! temporary file, fsync it, rename it over the target, fsync the directory. The one place
//! that does it, for checkpoints, `meta.properties`, metadata snapshots and `quorum-state`.

use std::io::Write;
use std::path::Path;

/// Replaces `path` with `contents`, writing through `tmp` (in the same directory).
pub fn write_via(tmp: &Path, path: &Path, contents: &[u8]) -> std::io::Result<()> {
    {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
    }
    std::fs::rename(tmp, path)?;
    sync_dir(path.parent().unwrap_or(Path::new(".")))
}

/// Fsyncs a directory, so a rename or unlink in it is durable.
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_target_holds_the_new_contents_and_the_temp_file_is_gone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let tmp = dir.path().join("f.tmp");
        std::fs::write(&path, b"old").unwrap();
        super::write_via(&tmp, &path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert!(!tmp.exists());
    }
}
