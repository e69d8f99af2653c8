//! What the command-line suites share: the binary, scratch files and folders under the target
//! directory (each suite passes its own folder name, so suites running side by side never share
//! a file), and the standard output of a run that must succeed.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// The `sepax` binary as a command.
pub fn sepax() -> Command {
    Command::cargo_bin("sepax").expect("the sepax binary is built")
}

/// The file `name` with `text` in it, in the scratch folder `dir` (created if missing).
pub fn scratch(dir: &str, name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The empty folder `dir/name` under the scratch root (emptied if it exists).
pub fn folder(dir: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The standard output of `sepax args`, which must succeed.
pub fn stdout_of(args: &[&str]) -> String {
    let out = sepax().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
