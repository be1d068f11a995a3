//! What the command-line programs (`zatre`, `zatre-web`, `zatre-match`, `zatre-analyse`) share:
//! their version line, which names the commit they were built from, and their manual pages,
//! generated from their clap definitions. Each program's `main` starts with
//! [`print_manpage_if_asked`], the one place here that writes (to stdout).

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

/// The version that `--version` prints after the program's name: the package's version and the
/// commit (recorded by `build.rs`: Git's HEAD in a release build, `$ZATRE_COMMIT` when set).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("ZATRE_COMMIT"), ")");

/// The hidden flag that prints a program's manual page instead of running it (`tools/package`
/// writes the pages so); it must be the only argument.
pub const MANPAGE_FLAG: &str = "--manpage";

/// Whether the arguments (the program's name first) ask for the manual page alone.
pub fn manpage_asked(args: impl IntoIterator<Item = OsString>) -> bool {
    let rest: Vec<OsString> = args.into_iter().skip(1).collect();
    rest.len() == 1 && rest[0] == MANPAGE_FLAG
}

/// The manual page (section 1, roff) of the program that `command` defines, with its
/// subcommands' options.
pub fn manpage(command: clap::Command) -> Vec<u8> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page).expect("writing to a Vec does not fail");
    page
}

/// When the program's arguments are [`MANPAGE_FLAG`] alone, prints the manual page of `command`
/// to stdout and gives the exit code for `main` to return; else `None`, and the program runs.
pub fn print_manpage_if_asked(command: impl FnOnce() -> clap::Command) -> Option<ExitCode> {
    if !manpage_asked(std::env::args_os()) {
        return None;
    }
    let written = std::io::stdout().write_all(&manpage(command()));
    Some(if written.is_ok() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_manual_page_is_asked_only_by_the_flag_alone() {
        assert!(manpage_asked(args(&["zatre", "--manpage"])));
        assert!(!manpage_asked(args(&["zatre"])));
        assert!(!manpage_asked(args(&["zatre", "--manpage", "--option", "Threads=2"])));
        assert!(!manpage_asked(args(&["zatre", "--option", "--manpage"])));
    }

    #[test]
    fn the_page_has_the_name_the_synopsis_and_every_option() {
        let command = clap::Command::new("demo")
            .about("A demonstration")
            .version(VERSION)
            .arg(clap::Arg::new("level").long("level").help("How strong it plays"));
        let page = String::from_utf8(manpage(command)).expect("roff is text");
        assert!(page.contains(".SH NAME\ndemo \\- A demonstration"), "{page}");
        assert!(page.contains(".SH SYNOPSIS"), "{page}");
        assert!(page.contains("\\-\\-level"), "{page}");
        assert!(page.contains("How strong it plays"), "{page}");
        assert!(page.contains(env!("CARGO_PKG_VERSION")), "the version is in the page: {page}");
    }

    #[test]
    fn the_version_names_the_package_version_and_a_commit() {
        let (version, commit) = VERSION.split_once(" (commit ").expect("a commit");
        assert_eq!(version, env!("CARGO_PKG_VERSION"));
        assert!(commit.ends_with(')') && commit.len() > 1, "{VERSION}");
    }
}
