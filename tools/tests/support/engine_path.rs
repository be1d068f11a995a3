//! Where the tests of the tools (`zatre-web`, `zatre-match`) find the engine binary `zatre`, which
//! belongs to another package so that Cargo does not build it for them: `$ZATRE_ENGINE` when set,
//! else `zatre` beside the tools' binaries (built by a workspace-wide `cargo test` or
//! `cargo build`), else a build of its own
//! with `cargo build -p zatre --bin zatre` into `target/web-engine` (a target directory of its own,
//! so the build does not wait on the lock that the running `cargo test` holds).

// Each test crate that includes this module uses part of it.
#![allow(dead_code)]
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

/// The first line a started `zatre-web` prints on stdout (`listening on http://<host>:<port>/`),
/// read on a thread of its own so that a bridge that prints nothing fails the test in 30 s.
pub fn first_line(child: &mut std::process::Child) -> String {
    let stdout = child.stdout.take().expect("the bridge's stdout is piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line);
        let _ = tx.send(line);
    });
    rx.recv_timeout(std::time::Duration::from_secs(30)).expect("zatre-web prints its address")
}
