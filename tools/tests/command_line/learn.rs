//! `zatre-learn train` through its binary: a model trained on a few greedy games reads back as
//! the engine's model of their table, and bad input is refused with a clear message and no file
//! written.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use zatre::rules::{Rules, Variant};
use zatre::search::learned::Model;

const LEARN: &str = env!("CARGO_BIN_EXE_zatre-learn");

fn learn(args: &[&str]) -> Output {
    Command::new(LEARN).args(args).stdin(Stdio::null()).output().expect("zatre-learn runs")
}

fn play(dir: &Path, name: &str, players: &str, seed: &str, games: &str) -> String {
    let out = dir.join(name).display().to_string();
    let o = learn(&[
        "play",
        "--players",
        players,
        "--strategy",
        "greedy",
        "--sample",
        "0.5",
        "--seed",
        seed,
        "--games",
        games,
        "--jobs",
        "1",
        "--out",
        &out,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

#[test]
fn train_writes_the_engines_model_and_refuses_bad_input() {
    let dir = std::env::temp_dir().join(format!("zatre-learn-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let train = play(&dir, "train.data", "3", "1500000000", "4");
    let test = play(&dir, "test.data", "3", "2000000000", "2");
    let other = play(&dir, "other.data", "4", "2000000000", "1");
    let model = dir.join("model.txt");
    let out = model.display().to_string();

    let o = learn(&["train", "--train", &train, "--test", &test, "--jobs", "1", "--out", &out]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let row = String::from_utf8_lossy(&o.stdout);
    assert!(row.starts_with("| classic 3p de | 4, "), "{row}");
    let text = std::fs::read_to_string(&model).expect("the model is written");
    let read = Model::parse(&text).expect("the engine reads the model");
    assert!(read.fits(&Rules::new(Variant::Classic, 3).expect("three players")));
    assert!(text.contains("# on 4 games") && text.contains("of train.data"), "{text}");
    std::fs::remove_file(&model).expect("the model is removed");

    // Training and held-out data of other tables, a training file that is missing: refused, and
    // nothing written.
    let o = learn(&["train", "--train", &train, "--test", &other, "--jobs", "1", "--out", &out]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("is of other rules than"), "{o:?}");
    let o = learn(&["train", "--train", &out, "--test", &test, "--jobs", "1", "--out", &out]);
    assert!(!o.status.success());
    assert!(!model.exists(), "a refused training wrote a model");
    std::fs::remove_dir_all(&dir).ok();
}
