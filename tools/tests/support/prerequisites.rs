//! What the board's tests need from outside the Rust toolchain, and what a test does without it.
//!
//! Chromium, chromedriver, nginx and axe-core are found at Debian's paths (axe-core at
//! `target/axe/axe.min.js`, where `tools/test` unpacks it), or where `ZATRE_CHROMIUM`,
//! `ZATRE_CHROMEDRIVER`, `ZATRE_NGINX` or `ZATRE_AXE` says. A test that finds one missing prints
//! `SKIPPED: <reason>` and passes, so that plain `cargo test --workspace` passes on a machine
//! without them; under `CI=true` it fails instead, since `tools/test` installs them all.

// Each test crate that includes this module uses part of it.
#![allow(dead_code)]
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Something a test needs that Cargo does not build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prerequisite {
    Chromium,
    Chromedriver,
    Nginx,
    Axe,
}

impl Prerequisite {
    /// The environment variable that names its path instead of the default ones.
    pub fn variable(self) -> &'static str {
        match self {
            Prerequisite::Chromium => "ZATRE_CHROMIUM",
            Prerequisite::Chromedriver => "ZATRE_CHROMEDRIVER",
            Prerequisite::Nginx => "ZATRE_NGINX",
            Prerequisite::Axe => "ZATRE_AXE",
        }
    }

    /// Its name in a message.
    pub fn name(self) -> &'static str {
        match self {
            Prerequisite::Chromium => "chromium",
            Prerequisite::Chromedriver => "chromedriver",
            Prerequisite::Nginx => "nginx",
            Prerequisite::Axe => "axe-core",
        }
    }

    /// Where it is looked for when the variable is not set, first found first.
    pub fn defaults(self) -> Vec<PathBuf> {
        match self {
            Prerequisite::Chromium => vec![PathBuf::from("/usr/bin/chromium")],
            Prerequisite::Chromedriver => vec![PathBuf::from("/usr/bin/chromedriver")],
            Prerequisite::Nginx => vec![PathBuf::from("/usr/sbin/nginx"), PathBuf::from("/usr/bin/nginx")],
            Prerequisite::Axe => {
                let root =
                    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace above tools/");
                vec![root.join("target/axe/axe.min.js")]
            }
        }
    }

    /// How a reader gets it: what `tools/test` does for them.
    pub fn remedy(self) -> &'static str {
        match self {
            Prerequisite::Chromium => "apt-get install chromium, or run tools/test",
            Prerequisite::Chromedriver => "apt-get install chromium-driver, or run tools/test",
            Prerequisite::Nginx => "apt-get install nginx, or run tools/test",
            Prerequisite::Axe => "tools/test unpacks it from npm",
        }
    }

    /// Its path, or why there is none, from the variable's value (`set`) and the default paths.
    pub fn locate(self, set: Option<OsString>, defaults: &[PathBuf]) -> Result<PathBuf, String> {
        if let Some(value) = set {
            let path = PathBuf::from(&value);
            return if path.is_file() {
                Ok(path)
            } else {
                Err(format!("{}={} is not a file", self.variable(), path.display()))
            };
        }
        match defaults.iter().find(|p| p.is_file()) {
            Some(path) => Ok(path.clone()),
            None => {
                let tried: Vec<String> = defaults.iter().map(|p| p.display().to_string()).collect();
                Err(format!("{} not found at {} ({})", self.name(), tried.join(" or "), self.remedy()))
            }
        }
    }

    /// Its path on this machine, or why there is none.
    pub fn find(self) -> Result<PathBuf, String> {
        self.locate(std::env::var_os(self.variable()), &self.defaults())
    }
}

/// Whether this run is CI's (`CI=true`), where a missing prerequisite fails the test.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// What a test does about its prerequisites.
#[derive(Debug, PartialEq, Eq)]
pub enum Decision {
    /// All found: their paths, in the order asked.
    Run(Vec<PathBuf>),
    /// One is missing outside CI: the line to print, `SKIPPED: <test>: <reason>`.
    Skip(String),
    /// One is missing in CI: the failure's message.
    Fail(String),
}

/// The decision for `test` from what was found of its prerequisites (`found`) and whether this is
/// CI (`ci`): the first missing one decides.
pub fn decide(test: &str, found: impl IntoIterator<Item = Result<PathBuf, String>>, ci: bool) -> Decision {
    let mut paths = Vec::new();
    for one in found {
        match one {
            Ok(path) => paths.push(path),
            Err(reason) if ci => {
                return Decision::Fail(format!("{test}: {reason}, and CI=true: tools/test installs it"))
            }
            Err(reason) => return Decision::Skip(format!("SKIPPED: {test}: {reason}")),
        }
    }
    Decision::Run(paths)
}

/// The paths of all of `needs` on this machine for the running test (named by its thread, as the
/// test harness names it), or `None` after printing why it is skipped; under CI a missing one
/// panics instead (see [`decide`]).
pub fn require(needs: &[Prerequisite]) -> Option<Vec<PathBuf>> {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("this test");
    match decide(test, needs.iter().map(|n| n.find()), in_ci()) {
        Decision::Run(paths) => Some(paths),
        Decision::Skip(line) => {
            // In one write, straight to the process's stderr: the test harness captures the
            // `eprintln!` of a test that passes, and a skip must be seen.
            let _ = std::io::stderr().write_all(format!("{line}\n").as_bytes());
            None
        }
        Decision::Fail(message) => panic!("{message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> tempfile::TempDir {
        tempfile::tempdir().expect("a temporary directory")
    }

    #[test]
    fn a_variable_names_the_path_and_wins_over_the_defaults() {
        let dir = scratch();
        let own = dir.path().join("my-nginx");
        let default = dir.path().join("nginx");
        std::fs::write(&own, "").unwrap();
        std::fs::write(&default, "").unwrap();
        let found = Prerequisite::Nginx.locate(Some(own.clone().into()), &[default]);
        assert_eq!(found, Ok(own));
    }

    #[test]
    fn a_variable_naming_nothing_is_missing_even_when_a_default_exists() {
        let dir = scratch();
        let default = dir.path().join("chromium");
        std::fs::write(&default, "").unwrap();
        let found = Prerequisite::Chromium.locate(Some("/nonexistent".into()), &[default]);
        assert_eq!(found, Err("ZATRE_CHROMIUM=/nonexistent is not a file".to_string()));
    }

    #[test]
    fn the_first_default_that_exists_is_taken_and_a_directory_is_not_one() {
        let dir = scratch();
        let first = dir.path().join("sbin");
        std::fs::create_dir(&first).unwrap();
        let second = dir.path().join("bin-nginx");
        std::fs::write(&second, "").unwrap();
        let found = Prerequisite::Nginx.locate(None, &[first, second.clone()]);
        assert_eq!(found, Ok(second));
    }

    #[test]
    fn none_found_says_where_it_looked_and_how_to_get_it() {
        let dir = scratch();
        let gone = dir.path().join("axe.min.js");
        let reason = Prerequisite::Axe.locate(None, std::slice::from_ref(&gone)).unwrap_err();
        assert!(reason.contains(&gone.display().to_string()), "{reason}");
        assert!(reason.contains("tools/test"), "{reason}");
    }

    #[test]
    fn a_missing_one_skips_outside_ci_saying_why() {
        let found = vec![Ok(PathBuf::from("/a")), Err("nginx not found".to_string())];
        assert_eq!(decide("t", found, false), Decision::Skip("SKIPPED: t: nginx not found".to_string()));
        let all = vec![Ok(PathBuf::from("/a")), Ok(PathBuf::from("/b"))];
        assert_eq!(decide("t", all, false), Decision::Run(vec![PathBuf::from("/a"), PathBuf::from("/b")]));
    }

    #[test]
    fn a_missing_one_fails_in_ci() {
        let found = vec![Ok(PathBuf::from("/a")), Err("gone".to_string())];
        assert_eq!(
            decide("t", found, true),
            Decision::Fail("t: gone, and CI=true: tools/test installs it".to_string())
        );
        assert_eq!(
            decide("t", vec![Ok(PathBuf::from("/a"))], true),
            Decision::Run(vec![PathBuf::from("/a")])
        );
    }
}
