//! Where the tests of the tools (`zatre-web`, `zatre-match`) find the engine binary `zatre`, which
//! belongs to another package so that Cargo does not build it for them: `$ZATRE_ENGINE` when set,
//! else `zatre` beside the tools' binaries (built by a workspace-wide `cargo test` or
//! `cargo build`), else a build of its own
//! with `cargo build -p zatre --bin zatre` into `target/web-engine` (a target directory of its own,
//! so the build does not wait on the lock that the running `cargo test` holds).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub const BRIDGE: &str = env!("CARGO_BIN_EXE_zatre-web");

/// The engine binary (see the module docs).
pub fn engine() -> &'static Path {
    static ENGINE: OnceLock<PathBuf> = OnceLock::new();
    ENGINE.get_or_init(|| {
        if let Some(path) = std::env::var_os("ZATRE_ENGINE") {
            return PathBuf::from(path);
        }
        let profile_dir = Path::new(BRIDGE).parent().expect("the bridge lives in a directory");
        let beside = profile_dir.join("zatre");
        if beside.exists() {
            return beside;
        }
        let target = profile_dir.parent().expect("a profile directory lives in target/");
        let own = target.join("web-engine");
        let release = profile_dir.file_name().is_some_and(|n| n == "release");
        let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cargo.args(["build", "-p", "zatre", "--bin", "zatre", "--target-dir"]).arg(&own);
        if release {
            cargo.arg("--release");
        }
        let status = cargo.current_dir(env!("CARGO_MANIFEST_DIR")).status().expect("cargo runs");
        assert!(status.success(), "building the engine failed");
        own.join(if release { "release" } else { "debug" }).join("zatre")
    })
}
