//! The match: the list of games (groups with rotated seats and the same draws, sliced by shard),
//! worker threads that each drive their own engine processes, the records file, the progress bar
//! and the early stop of the SPRT.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use indicatif::ProgressBar;
use zatre::rules::{Rules, Variant};

use super::engine_process::Fault;
use super::game::{self, End, GameSpec, Limits, Slots};
use super::interrupt;
use super::record::Record;
use super::report::Report;
use super::sprt::{Sprt, SprtState, Verdict};

/// `--shard i/n`: the i-th (from 1) of n slices of the game list, cut along whole pairs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole list.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Parses `i/n` with 1 <= i <= n.
    ///
    /// # Errors
    /// A message when it is not.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard takes i/n with 1 <= i <= n, not '{text}'");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether a pair belongs to this slice (pairs are dealt round-robin).
    pub fn holds(&self, pair: u64) -> bool {
        pair % self.count == self.index - 1
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines' command lines, in `--engine` order; one seat each.
    pub engines: Vec<String>,
    /// Games in the whole match (all shards).
    pub games: u64,
    pub seed: u64,
    pub rules: Rules,
    /// The rule options as given (`key=value`), passed on to the engines.
    pub rule_args: Vec<String>,
    pub limits: Limits,
    /// The limit of the first command after an engine starts (`--startup-timeout`); none: that
    /// command's own.
    pub startup_timeout: Option<Duration>,
    pub concurrency: usize,
    pub shard: Shard,
    pub sprt: Option<Sprt>,
    pub records: Option<PathBuf>,
    pub progress: bool,
}

/// One game of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePlan {
    pub game: u64,
    pub pair: u64,
    pub seed: u64,
    /// The engine index by seat.
    pub seating: Vec<usize>,
}

/// The seed of a pair's draws: SplitMix64 of the match seed and the pair index, so that pairs
/// have unrelated draws and a pair's draws do not depend on the shard or the thread.
pub fn pair_seed(seed: u64, pair: u64) -> u64 {
    let mut z = seed.wrapping_add(pair.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The most games of a match (and of `zatre-ceiling`'s players): every game is planned before
/// the first is played, and a million is weeks of play at 100 ms a move.
pub const MAX_GAMES: u64 = 1_000_000;

/// The games of this shard in play order. With k engines, game g belongs to group g / k and seats
/// engine (s + g) mod k in seat s: each group rotates the seats through every engine, with the
/// same draws (a pair for two engines).
pub fn plan(config: &MatchConfig) -> Vec<GamePlan> {
    plan_games(config.engines.len(), config.games, config.seed, config.shard)
}

/// [`plan`] of a match of `engines` engines (one a seat), `games` games in all, the match seed
/// `seed` and the slice `shard`.
pub fn plan_games(engines: usize, games: u64, seed: u64, shard: Shard) -> Vec<GamePlan> {
    let k = engines.max(1) as u64;
    (0..games)
        .filter(|g| shard.holds(g / k))
        .map(|game| {
            let pair = game / k;
            let rotation = game % k;
            let seating = (0..k).map(|s| ((s + rotation) % k) as usize).collect();
            GamePlan { game, pair, seed: pair_seed(seed, pair), seating }
        })
        .collect()
}

/// The `newgame` arguments of a game.
pub fn newgame_args(config: &MatchConfig, seed: u64) -> String {
    newgame_text(&config.rules, &config.rule_args, seed)
}

/// The rules of `--variant`, `--players` and the `--rule KEY=VALUE` options, as `newgame` reads
/// them.
///
/// # Errors
/// An unknown variant, an option not written `KEY=VALUE`, or one the rules refuse.
pub fn rules_of(variant: &str, players: u8, rule_args: &[String]) -> Result<Rules, String> {
    let variant = Variant::parse(variant)
        .ok_or_else(|| format!("unknown variant '{variant}' (classic, dice or kids)"))?;
    let mut pairs = Vec::new();
    for rule in rule_args {
        let (key, value) =
            rule.split_once('=').ok_or_else(|| format!("--rule takes KEY=VALUE, not '{rule}'"))?;
        pairs.push((key, value));
    }
    Rules::with_options(variant, players, pairs).map_err(|e| e.to_string())
}

/// The `newgame` arguments of a game of `rules` (the options as given, `rule_args`) and `seed`.
pub fn newgame_text(rules: &Rules, rule_args: &[String], seed: u64) -> String {
    let mut args = format!("variant {} players {} seed {seed}", rules.variant, rules.players);
    for rule in rule_args {
        args.push(' ');
        args.push_str(rule);
    }
    args
}

/// Why a match stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The records file cannot be written.
    #[error("writing records: {0}")]
    Records(#[from] io::Error),
    /// An engine could not be started for its first game (from 1 in `--engine` order).
    #[error("engine {engine} cannot be started ({fault}); the match is abandoned")]
    Start { engine: usize, fault: Fault },
}

/// What a match leaves.
pub struct MatchResult {
    pub records: Vec<Record>,
    pub planned: usize,
    pub sprt: Option<SprtState>,
}

/// Plays the match.
///
/// # Errors
/// The records file cannot be written, or an engine cannot be started for its first game (a
/// spawn fault before it ever answered): then no game is recorded past the ones already written.
pub fn run(config: &MatchConfig) -> Result<MatchResult, MatchError> {
    let plans = plan(config);
    let mut out = match &config.records {
        Some(path) => Some(BufWriter::new(File::create(path)?)),
        None => None,
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<Record, MatchError>>();
    let bar = progress_bar(config, plans.len());
    let workers = config.concurrency.clamp(1, plans.len().max(1));
    let mut records = Vec::with_capacity(plans.len());
    let mut match_error = None;
    thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (plans, next, stop) = (&plans, &next, &stop);
            scope.spawn(move || {
                let mut slots = Slots::new(&config.engines).with_startup_timeout(config.startup_timeout);
                while !stop.load(Ordering::Relaxed) {
                    let Some(plan) = plans.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                    let args = newgame_args(config, plan.seed);
                    let spec = GameSpec {
                        rules: &config.rules,
                        newgame_args: &args,
                        seed: plan.seed,
                        seating: &plan.seating,
                        limits: &config.limits,
                    };
                    let played = game::play(&spec, &mut slots);
                    if let End::Fault { seat, fault: fault @ Fault::Spawn(_) } = &played.end {
                        let engine = plan.seating[*seat];
                        if !slots.has_answered(engine) {
                            let _ =
                                tx.send(Err(MatchError::Start { engine: engine + 1, fault: fault.clone() }));
                            break;
                        }
                    }
                    let record =
                        Record::new(plan.game, plan.pair, plan.seed, &config.engines, &plan.seating, &played);
                    if tx.send(Ok(record)).is_err() {
                        break;
                    }
                }
                slots.quit_all();
            });
        }
        drop(tx);
        for record in rx {
            let record = match record {
                Ok(record) => record,
                Err(e) => {
                    match_error.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            if let Some(w) = out.as_mut() {
                let _whole = interrupt::writing_records();
                let line = serde_json::to_string(&record).map_err(io::Error::other);
                let written = line.and_then(|l| writeln!(w, "{l}").and_then(|()| w.flush()));
                if let Err(e) = written {
                    match_error.get_or_insert(MatchError::Records(e));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            records.push(record);
            // The running tallies are built from every record: after each game for the first
            // thousand, then at every thousandth of those played (each game was quadratic).
            let due = tally_due(records.len());
            if let Some(bar) = &bar {
                if due {
                    bar.set_message(running_score(&records));
                }
                bar.inc(1);
            }
            if let (Some(test), true) = (&config.sprt, due) {
                if Report::from_records(&records).sprt(test).verdict != Verdict::Continue {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    // The test's state of every game played, whenever it was last looked at.
    let sprt_state = config.sprt.as_ref().map(|test| Report::from_records(&records).sprt(test));
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some(e) = match_error {
        return Err(e);
    }
    records.sort_by_key(|r| r.game);
    Ok(MatchResult { records, planned: plans.len(), sprt: sprt_state })
}

fn progress_bar(config: &MatchConfig, games: usize) -> Option<ProgressBar> {
    if !config.progress {
        return None;
    }
    Some(crate::progress::bar(games as u64, "{bar:30} {pos}/{len} games, {msg}, eta {eta}"))
}

/// Whether the running tallies are looked at after game `n`: each of the first thousand, then one
/// in every `n / 1000`.
fn tally_due(n: usize) -> bool {
    n <= 1000 || n.is_multiple_of(n / 1000)
}

/// `engine 1: W-D-L (rate%)` so far.
fn running_score(records: &[Record]) -> String {
    let report = Report::from_records(records);
    match report.engines.iter().next() {
        Some((index, t)) => format!(
            "engine {}: +{} ={} -{} ({:.1}%)",
            index + 1,
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.win_rate()
        ),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zatre::rules::Variant;

    #[test]
    fn the_tallies_are_looked_at_every_game_then_at_every_thousandth() {
        assert!((1..=1000).all(tally_due));
        let looks = (1..=1_000_000).filter(|&n| tally_due(n)).count();
        // About 1000 * (1 + ln 1000): a million games are tallied some 9,000 times, not a million.
        assert!(looks < 10_000, "{looks} looks in a million games");
        assert!(tally_due(1_000_000) && tally_due(2002) && !tally_due(2003));
    }

    fn config(games: u64, shard: Shard) -> MatchConfig {
        MatchConfig {
            engines: vec!["a".into(), "b".into()],
            games,
            seed: 3,
            rules: Rules::new(Variant::Classic, 2).expect("2 players"),
            rule_args: vec!["center_cross=never".into()],
            limits: Limits {
                go: "movetime 10".into(),
                go_timeout: Duration::from_secs(1),
                command_timeout: Duration::from_secs(1),
            },
            startup_timeout: None,
            concurrency: 1,
            shard,
            sprt: None,
            records: None,
            progress: false,
        }
    }

    #[test]
    fn pairs_swap_seats_and_share_seeds() {
        let p = plan(&config(4, Shard::ALL));
        assert_eq!(p.len(), 4);
        assert_eq!(p[0].seating, vec![0, 1]);
        assert_eq!(p[1].seating, vec![1, 0]);
        assert_eq!(p[0].seed, p[1].seed);
        assert_ne!(p[1].seed, p[2].seed);
    }

    #[test]
    fn shards_partition_the_games_along_pairs() {
        let all: Vec<u64> = plan(&config(10, Shard::ALL)).iter().map(|g| g.game).collect();
        let mut joined: Vec<u64> = (1..=3)
            .flat_map(|i| plan(&config(10, Shard { index: i, count: 3 })).into_iter().map(|g| g.game))
            .collect();
        joined.sort();
        assert_eq!(joined, all);
        let first = plan(&config(10, Shard { index: 1, count: 3 }));
        assert_eq!(first.iter().map(|g| g.game).collect::<Vec<_>>(), vec![0, 1, 6, 7]);
        assert!(Shard::parse("0/3").is_err() && Shard::parse("4/3").is_err());
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
    }

    #[test]
    fn newgame_args_carry_the_rules() {
        let c = config(2, Shard::ALL);
        assert_eq!(newgame_args(&c, 9), "variant classic players 2 seed 9 center_cross=never");
    }
}
