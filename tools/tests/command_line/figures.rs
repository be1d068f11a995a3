//! The published figures cannot drift from their kept outputs: `zatre-figures check` finds nothing
//! wrong in the repository (every kept output under docs/figures/ there and readable, docs/figures.md
//! and the README's figure table as `zatre-figures table` writes them, no document quoting a figure
//! the table lacks), and it does find each of those faults in a copy where one was made.

use std::fs;
use std::path::Path;

use zatre_tools::figures::{check, write_tables, FIGURES, FIGURES_MD, README, README_BEGIN, README_END};

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the repository above tools/")
}

#[test]
fn the_repository_s_figures_hold() {
    let problems = check(repository());
    assert!(
        problems.is_empty(),
        "{} problem(s) with the figures (zatre-figures table rewrites the tables; zatre-figures run <name> \
         measures again):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// A copy of the repository's kept outputs with a README holding only the figure block, the
/// tables written by `table`.
fn copy_with_tables() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    fs::create_dir_all(dir.path().join("docs/figures")).expect("docs/figures");
    for f in FIGURES {
        fs::copy(repository().join(f.output), dir.path().join(f.output)).expect("a kept output");
    }
    fs::write(dir.path().join(README), format!("# x\n\n{README_BEGIN}\n{README_END}\n")).expect("README");
    write_tables(dir.path()).expect("the tables written");
    dir
}

#[test]
fn a_copy_with_its_tables_written_holds_and_each_fault_is_found() {
    let dir = copy_with_tables();
    let root = dir.path();
    assert_eq!(check(root), Vec::<String>::new());

    // A document quoting a rate and a bench signature the table does not hold.
    fs::write(root.join("docs/other.md"), "It wins 99.9% [99.0, 100.0].\n\nThe bench says 1234567.\n")
        .unwrap();
    let problems = check(root);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains("docs/other.md:1") && problems[0].contains("99.9% [99.0, 100.0]"),
        "{problems:?}"
    );
    assert!(problems[1].contains("docs/other.md:3") && problems[1].contains("1234567"), "{problems:?}");
    fs::remove_file(root.join("docs/other.md")).unwrap();

    // The README's table edited by hand.
    let readme = fs::read_to_string(root.join(README)).unwrap();
    fs::write(root.join(README), readme.replacen("| figure | today |", "| figure | now |", 1)).unwrap();
    assert!(check(root).iter().any(|p| p.contains("figure table of README.md")), "{:?}", check(root));
    fs::write(root.join(README), &readme).unwrap();

    // docs/figures.md out of date.
    fs::write(root.join(FIGURES_MD), "# Figures\n").unwrap();
    assert!(check(root).iter().any(|p| p.contains("docs/figures.md is not what")), "{:?}", check(root));
    write_tables(root).unwrap();

    // A kept output gone.
    fs::remove_file(root.join(FIGURES[0].output)).unwrap();
    let problems = check(root);
    assert!(problems.iter().any(|p| p.contains(FIGURES[0].output)), "{problems:?}");
}
