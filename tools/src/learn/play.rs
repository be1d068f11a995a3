//! Plays seeded games in-process for the learned evaluation's data (`zatre-learn play`) and for
//! `zatre-fit`: every seat moves by its strategy under a node limit, a share of moves is chosen by
//! exploration instead (uniformly among greedy's best few), and the game comes back as its turns
//! and the position after every move.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zatre::rules::{Move, Position, Rules};
use zatre::search::{run, Limits, SearchOptions, Strategy};

use super::data::{ranks, read, totals, Record, Settings, Targets, Turn};
use crate::jobs::in_order;

/// Exploration's and sampling's random generators draw from the game's seed mixed with these, apart
/// from the draws' (which take the seed itself), so that exploring or sampling never changes the
/// tiles a game draws.
const EXPLORE_SALT: u64 = 0x6578_706c_6f72_6521;
const SAMPLE_SALT: u64 = 0x7361_6d70_6c65_7321;

/// The node limit of greedy's and exploration's moves: greedy looks at the first this many legal
/// moves, and a node limit with no time limit keeps the games reproducible.
pub const GREEDY_NODES: u64 = 1_000_000;

/// How the moves of a game are chosen.
pub struct Movers<'a> {
    /// The strategy of each seat.
    pub strategy_of_seat: Box<dyn Fn(usize) -> Strategy + Sync + 'a>,
    /// The limits of a strategy's move.
    pub limits: &'a Limits,
    /// The share of moves chosen uniformly at random among greedy's best `top` instead.
    pub explore: f64,
    pub top: usize,
}

/// A game played to its end.
pub struct Played {
    pub turns: Vec<Turn>,
    /// The position after every move (`positions[k]` after move `k + 1`; the last is the end).
    pub positions: Vec<Position>,
}

/// Plays a game under `rules` whose draws come from `seed` (the search's own seed of a move is
/// `seed ^ turn`).
///
/// # Errors
/// A draw refused, no move found, an illegal move: a bug, which no data may come from.
pub fn play_game(rules: &Rules, seed: u64, movers: &Movers<'_>) -> Result<Played, String> {
    play_from(Position::new(rules.clone()), seed, movers)
}

/// Plays on from `start` to the end of the game, the draws from `seed`, as [`play_game`].
///
/// # Errors
/// As [`play_game`].
pub fn play_from(start: Position, seed: u64, movers: &Movers<'_>) -> Result<Played, String> {
    let mut draws = ChaCha8Rng::seed_from_u64(seed);
    let mut explore = ChaCha8Rng::seed_from_u64(seed ^ EXPLORE_SALT);
    let mut pos = start;
    let stop = AtomicBool::new(false);
    let mut played = Played { turns: Vec::new(), positions: Vec::new() };
    while !pos.is_over() {
        let drawn = pos.draw_random(&mut draws).map_err(|e| format!("turn {}: the draw: {e}", pos.turn()))?;
        let search_seed = seed ^ u64::from(pos.turn());
        let explored = movers.explore > 0.0 && explore.random::<f64>() < movers.explore;
        let mv = if explored {
            let options = SearchOptions {
                strategy: Strategy::Greedy,
                threads: 1,
                multipv: movers.top,
                seed: search_seed,
                ..SearchOptions::default()
            };
            let limits = Limits { nodes: Some(GREEDY_NODES), ..Limits::default() };
            let mut best: Vec<Move> = Vec::new();
            run(&pos, &limits, &options, &stop, &mut |info| best.extend(info.pv.first().cloned()));
            if best.is_empty() {
                return Err(format!("turn {}: greedy found no move", pos.turn()));
            }
            best.swap_remove(explore.random_range(0..best.len()))
        } else {
            let strategy = (movers.strategy_of_seat)(pos.to_move());
            let options = SearchOptions { strategy, seed: search_seed, ..SearchOptions::default() };
            let outcome = run(&pos, movers.limits, &options, &stop, &mut |_| {})
                .ok_or_else(|| format!("turn {}: {} found no move", pos.turn(), strategy.name()))?;
            outcome.best
        };
        pos.play(&mv).map_err(|e| format!("turn {}: the move {mv}: {e}", pos.turn()))?;
        played.turns.push(Turn { drawn, mv, explored });
        played.positions.push(pos.clone());
    }
    Ok(played)
}

/// The limits of a strategy's move under `settings`.
pub fn limits_of(settings: &Settings) -> Limits {
    match settings.strategy {
        Strategy::Search => Limits { nodes: Some(settings.nodes), ..Limits::default() },
        _ => Limits { nodes: Some(GREEDY_NODES), ..Limits::default() },
    }
}

/// The movers of a data run: every seat by its strategy, exploring as `settings` say.
pub fn movers_of<'a>(settings: &'a Settings, limits: &'a Limits) -> Movers<'a> {
    let strategy = settings.strategy;
    Movers {
        strategy_of_seat: Box::new(move |_| strategy),
        limits,
        explore: settings.explore,
        top: settings.top,
    }
}

/// Game `index` of a data run: played as `settings` say, with the targets of a sampled share of
/// its positions after a move (the last, the end, never: nothing is to come).
///
/// # Errors
/// As [`play_game`].
pub fn play_record(settings: &Settings, index: usize) -> Result<Record, String> {
    let seed = settings.seed.wrapping_add(index as u64);
    let limits = limits_of(settings);
    let played = play_game(&settings.rules, seed, &movers_of(settings, &limits))
        .map_err(|e| format!("game {index} (seed {seed}): {e}"))?;
    let end = played.positions.last().ok_or_else(|| format!("game {index} (seed {seed}) has no move"))?;
    let finals = totals(end);
    let rank = ranks(end);
    let mut sampler = ChaCha8Rng::seed_from_u64(seed ^ SAMPLE_SALT);
    let samples = played.positions[..played.positions.len() - 1]
        .iter()
        .enumerate()
        .filter(|_| sampler.random::<f64>() < settings.sample)
        .map(|(k, pos)| Targets {
            ply: k + 1,
            to_come: finals.iter().zip(totals(pos)).map(|(f, n)| f - n).collect(),
            rank: rank.clone(),
        })
        .collect();
    Ok(Record { index, seed, finals, turns: played.turns, samples })
}

/// Where [`run_to_file`] left a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// Games the file held before and holds now.
    pub before: usize,
    pub after: usize,
}

/// Plays games `0..games` of `settings` into the data file at `path`, `jobs` at a time, each
/// game's line written whole as soon as the games before it are (so that a run stopped at any
/// moment leaves whole games only), calling `on_game` with the games the file holds after each.
/// With `resume` an existing file is read first and its missing games are appended: the result
/// is the file an uninterrupted run writes. Without it the file must not exist.
///
/// # Errors
/// The file exists (without `resume`), cannot be read or written, is not a data file, holds games
/// of other settings or is cut short; nothing is changed then. A game that cannot be played ends
/// the run after the games before it.
pub fn run_to_file(
    settings: &Settings,
    games: usize,
    jobs: usize,
    path: &Path,
    resume: bool,
    on_game: &(dyn Fn(usize) + Sync),
) -> Result<RunSummary, String> {
    settings.check()?;
    let name = path.display();
    let (mut file, before) = if resume && path.exists() {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        let data = read(&text).map_err(|e| format!("{name}: {e}"))?;
        if data.settings.header() != settings.header() {
            return Err(format!(
                "{name} holds games of other settings:\n  the file: {}\n  asked:    {}",
                data.settings.header(),
                settings.header()
            ));
        }
        let file = OpenOptions::new().append(true).open(path).map_err(|e| format!("{name}: {e}"))?;
        (file, data.games.len())
    } else {
        let mut file = OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                format!("{name} exists: --resume goes on with it, or name another file")
            } else {
                format!("{name}: {e}")
            }
        })?;
        file.write_all(format!("{}\n", settings.header()).as_bytes()).map_err(|e| format!("{name}: {e}"))?;
        (file, 0)
    };
    let mut after = before;
    let mut failure = None;
    in_order(
        before..games.max(before),
        jobs,
        |i| play_record(settings, i),
        |_, record| {
            let written = record.and_then(|r| {
                // One write a line: a run killed at any moment leaves whole lines.
                file.write_all(format!("{}\n", r.line()).as_bytes()).map_err(|e| format!("{name}: {e}"))
            });
            match written {
                Ok(()) => {
                    after += 1;
                    on_game(after);
                    true
                }
                Err(e) => {
                    failure = Some(e);
                    false
                }
            }
        },
    );
    match failure {
        Some(e) => Err(format!("{e} (the file holds {after} whole games; --resume goes on)")),
        None => Ok(RunSummary { before, after }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::data::{verify, DataFile};
    use zatre::rules::Variant;

    fn settings(variant: Variant, players: u8, options: &[(&str, &str)], strategy: Strategy) -> Settings {
        Settings {
            rules: Rules::with_options(variant, players, options.iter().copied()).expect("valid rules"),
            strategy,
            nodes: 300,
            explore: 0.2,
            top: 3,
            sample: 0.5,
            seed: 77,
        }
    }

    fn greedy_cz4() -> Settings {
        settings(Variant::Classic, 4, &[("rules", "cz4")], Strategy::Greedy)
    }

    fn scratch() -> tempfile::TempDir {
        tempfile::tempdir().expect("a scratch directory")
    }

    /// Plays `games` into a new file of `dir` and returns its bytes.
    fn written(s: &Settings, games: usize, jobs: usize, dir: &Path, name: &str) -> Vec<u8> {
        let path = dir.join(name);
        run_to_file(s, games, jobs, &path, false, &|_| {}).expect("the run");
        std::fs::read(path).expect("the file")
    }

    #[test]
    fn the_same_settings_give_the_same_file_whatever_the_threads() {
        let dir = scratch();
        let s = greedy_cz4();
        let one = written(&s, 6, 1, dir.path(), "one");
        assert_eq!(one, written(&s, 6, 2, dir.path(), "two"));
        assert_ne!(one, written(&Settings { seed: 78, ..s }, 6, 2, dir.path(), "other"));
    }

    /// A run stopped after some games (at a line's end: what a kill leaves) and resumed, maybe
    /// in several steps and with other threads, gives the uninterrupted run's file.
    #[test]
    fn a_resumed_run_equals_an_uninterrupted_one() {
        let dir = scratch();
        let s = greedy_cz4();
        let whole = written(&s, 7, 2, dir.path(), "whole");
        let path = dir.path().join("part");
        let lines: Vec<&[u8]> = whole.split_inclusive(|&b| b == b'\n').collect();
        std::fs::write(&path, lines[..3].concat()).expect("two games written");
        let summary = run_to_file(&s, 5, 1, &path, true, &|_| {}).expect("resumed");
        assert_eq!(summary, RunSummary { before: 2, after: 5 });
        run_to_file(&s, 7, 2, &path, true, &|_| {}).expect("resumed again");
        assert_eq!(std::fs::read(&path).expect("the file"), whole);
        // Nothing left to do changes nothing.
        assert_eq!(run_to_file(&s, 4, 2, &path, true, &|_| {}), Ok(RunSummary { before: 7, after: 7 }));
        assert_eq!(std::fs::read(&path).expect("the file"), whole);
    }

    /// Every game of every table replays through the rules core to its final totals, and every
    /// target is what the replayed position gives; a tampered target is caught.
    #[test]
    fn the_targets_are_what_a_replay_gives() {
        let dir = scratch();
        let tables = [
            settings(Variant::Classic, 2, &[], Strategy::Search),
            settings(Variant::Classic, 3, &[("rules", "cz3")], Strategy::Greedy),
            greedy_cz4(),
            settings(Variant::Kids, 2, &[], Strategy::Search),
            settings(Variant::Dice, 2, &[], Strategy::Search),
        ];
        for (t, s) in tables.iter().enumerate() {
            let bytes = written(s, 2, 2, dir.path(), &format!("table{t}"));
            let DataFile { settings: read_back, games } =
                read(std::str::from_utf8(&bytes).expect("text")).expect("a data file");
            assert_eq!(&read_back, s);
            assert_eq!(games.len(), 2);
            let mut explored = 0;
            for game in &games {
                let replay = verify(game, &s.rules).expect("the replay agrees");
                assert_eq!(replay.positions.len(), game.turns.len());
                explored += game.turns.iter().filter(|t| t.explored).count();
                assert!(!game.samples.is_empty(), "table {t}: half the positions sampled, none drawn");
                let mut tampered = game.clone();
                tampered.samples[0].to_come[0] += 1;
                assert!(verify(&tampered, &s.rules).is_err());
            }
            assert!(explored > 0, "table {t}: a fifth of the moves explore, none did");
        }
    }

    /// A file cut mid-line, a foreign file and a file of other settings are refused with a
    /// message that says why, and stay as they were; so does an existing file without `resume`.
    #[test]
    fn bad_files_are_refused_and_left_alone() {
        let dir = scratch();
        let s = greedy_cz4();
        let whole = written(&s, 3, 2, dir.path(), "whole");
        let cases: [(&str, Vec<u8>, Settings, &str); 4] = [
            ("cut", whole[..whole.len() - 9].to_vec(), s.clone(), "cut short"),
            ("foreign", b"player 1 total 3\n".to_vec(), s.clone(), "not a zatre-learn data file"),
            ("other", whole.clone(), Settings { explore: 0.3, ..s.clone() }, "other settings"),
            ("version", b"zatre-learn-data 7 variant=classic\n".to_vec(), s.clone(), "version 7"),
        ];
        for (name, bytes, asked, why) in cases {
            let path = dir.path().join(name);
            std::fs::write(&path, &bytes).expect("written");
            let e = run_to_file(&asked, 5, 2, &path, true, &|_| {}).expect_err(name);
            assert!(e.contains(why), "{name}: {e}");
            assert_eq!(std::fs::read(&path).expect("the file"), bytes, "{name} was changed");
        }
        let path = dir.path().join("whole");
        let e = run_to_file(&s, 5, 2, &path, false, &|_| {}).expect_err("the file exists");
        assert!(e.contains("exists"), "{e}");
        assert_eq!(std::fs::read(&path).expect("the file"), whole);
        // A game line out of order is refused too, naming its line.
        let text = String::from_utf8(whole).expect("text");
        let mut lines: Vec<&str> = text.lines().collect();
        lines.swap(1, 2);
        let e = read(&format!("{}\n", lines.join("\n"))).err().expect("out of order");
        assert!(e.starts_with("line 2: game 1"), "{e}");
    }
}
