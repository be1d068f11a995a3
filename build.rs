//! Records the commit the engine is built from, for `--version` ([`zatre::cli::VERSION`]), as
//! `ZATRE_COMMIT`: `$ZATRE_COMMIT` when set (a build from a source archive without Git), else,
//! in a release build, Git's HEAD (12 hex digits; `unknown` outside a Git checkout).
//!
//! Only release builds (the package, `cargo install`, the benchmarks) read Git, and they run again
//! when HEAD or the branch it names moves. Debug and test builds say the commit is not recorded:
//! a new commit would otherwise rebuild the library and so every test binary (a build script's
//! new output rebuilds its whole package and what depends on it), on every commit.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=ZATRE_COMMIT");
    let commit = match std::env::var("ZATRE_COMMIT") {
        Ok(given) if !given.is_empty() => given,
        _ if std::env::var("PROFILE").as_deref() == Ok("release") => git_head(),
        _ => "not recorded in a debug build".to_string(),
    };
    println!("cargo:rustc-env=ZATRE_COMMIT={commit}");
}

/// HEAD's commit, after telling Cargo to run this again when HEAD, the branch it names or the
/// packed refs change; `unknown` without Git or a repository.
fn git_head() -> String {
    for file in ["HEAD", "packed-refs"] {
        if let Some(path) = git(&["rev-parse", "--git-path", file]) {
            println!("cargo:rerun-if-changed={}", PathBuf::from(path).display());
        }
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        if let Some(path) = git(&["rev-parse", "--git-path", &branch]) {
            println!("cargo:rerun-if-changed={}", PathBuf::from(path).display());
        }
    }
    git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".to_string())
}

/// Git's answer to `args`, trimmed, or `None` when it fails.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}
