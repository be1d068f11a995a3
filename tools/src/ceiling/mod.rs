//! The ceiling of `search` (`zatre-ceiling`): how much better than `search` could any player do
//! at a table of `greedy` players, measured by a clairvoyant player, the same search knowing the
//! draws to come exactly (`zatre::search::run_foreseeing`, fed the referee's dealer's future).
//!
//! Games are played in-process on the referee's [`Dealer`](crate::referee::Dealer), on the seeds and seat rotation of
//! `zatre-match` ([`plan_games`]: game `g` of `k` players is in group `g / k` with the pair seed of
//! that group, the player under test in seat `(k - g mod k) mod k`, `greedy` in every other seat),
//! so the games of `--player both` are the same games for the clairvoyant and for `search`: the
//! same draws (as far as the moves allow: classic deals one shuffled order, dice one stream of
//! rolls), the same seats.
//!
//! **The edge** of a player over `greedy`: per game, the player's result less what `greedy`
//! got in the same seat on the same draws (the group's game with `greedy` in every seat, played
//! once per group), averaged over the games; its 95% interval comes from the means of the groups
//! (the games of a group share their draws). Two results: first place (1, 1/2 for a shared lead,
//! 0, as the referee scores it) and the margin (final score less the best other seat's). With two
//! players `greedy`'s own edge averages zero over a pair; with more it is below zero (only one
//! seat leads), and the edge counts from there, not from zero.
//!
//! **The share** of the clairvoyant's edge that `search` gets: the mean edge of `search` divided by
//! the clairvoyant's, over the groups both played, with the 95% interval of a ratio estimator.

mod game;
mod report;

pub use game::{play, Seat, ROLLS_AHEAD};
pub use report::{CeilingReport, Estimate, PlayerSummary, Share};

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;

use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};
use zatre::rules::Rules;
use zatre::search::Limits;

use crate::jobs::map_indexed;
use crate::referee::{newgame_text, plan_games, GamePlan, Played, Record, Shard};

/// Everything a ceiling run needs.
#[derive(Clone, Debug)]
pub struct CeilingConfig {
    pub rules: Rules,
    /// The rule options as given (`key=value`), for the replay lines.
    pub rule_args: Vec<String>,
    /// Games of each player under test.
    pub games: u64,
    /// The match seed, as `zatre-match --seed`.
    pub seed: u64,
    /// The limits of each search (greedy takes none).
    pub limits: Limits,
    /// Games played at once.
    pub concurrency: usize,
    /// The players under test: [`Seat::Clairvoyant`], [`Seat::Search`] or both.
    pub tested: Vec<Seat>,
    pub records: Option<PathBuf>,
    pub progress: bool,
}

/// One game of a ceiling run, a line of `--records`: the referee's record of the game (the player
/// under test is engine 1) and of the same draws played by `greedy` in every seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CeilingRecord {
    /// The player under test: `clairvoyant` or `search`.
    pub player: String,
    /// The group's game with `greedy` in every seat, recorded as this game (the same index, seed
    /// and seating: engine 1 is the `greedy` in the seat of the player under test).
    pub greedy: Record,
    #[serde(flatten)]
    pub game: Record,
}

/// Plays the run: first the game of each group with `greedy` in every seat, then every game of
/// each player under test (the players alternating game by game), each written to the records
/// file as it ends. Returns the records in game order, players in the order of `tested`.
///
/// # Errors
/// The records file cannot be written.
pub fn run(config: &CeilingConfig) -> io::Result<Vec<CeilingRecord>> {
    let seats = usize::from(config.rules.players);
    let plans = plan_games(seats, config.games, config.seed, Shard::ALL);
    let out = match &config.records {
        Some(path) => Some(BufWriter::new(File::create(path)?)),
        None => None,
    };
    let out = Mutex::new(out);
    let write_error: Mutex<Option<io::Error>> = Mutex::new(None);
    let jobs = config.concurrency.max(1);
    let args = |seed: u64| newgame_text(&config.rules, &config.rule_args, seed);

    let groups: Vec<(u64, u64)> = {
        let mut seen = BTreeMap::new();
        for p in &plans {
            seen.insert(p.pair, p.seed);
        }
        seen.into_iter().collect()
    };
    let all_greedy = vec![Seat::Greedy; seats];
    let baselines: BTreeMap<u64, Played> = groups
        .iter()
        .map(|g| g.0)
        .zip(map_indexed(
            groups.len(),
            jobs,
            |i| play(&config.rules, &args(groups[i].1), groups[i].1, &all_greedy, &config.limits),
            || {},
        ))
        .collect();

    let tested = config.tested.len().max(1);
    let bar = progress_bar(config.progress, plans.len() * tested);
    let records = map_indexed(
        plans.len() * tested,
        jobs,
        |i| {
            let (plan, player) = (&plans[i / tested], config.tested[i % tested]);
            // Every plan's group has its greedy game (both come from `plans`); were one missing, it
            // would be played here.
            let missing;
            let baseline = match baselines.get(&plan.pair) {
                Some(played) => played,
                None => {
                    missing = play(&config.rules, &args(plan.seed), plan.seed, &all_greedy, &config.limits);
                    &missing
                }
            };
            let record = play_tested(config, plan, player, baseline, &args(plan.seed));
            let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(w) = out.as_mut() {
                let line = serde_json::to_string(&record).map_err(io::Error::other);
                if let Err(e) = line.and_then(|l| writeln!(w, "{l}").and_then(|()| w.flush())) {
                    write_error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                }
            }
            record
        },
        || {
            if let Some(bar) = &bar {
                bar.inc(1);
            }
        },
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(records),
    }
}

/// One game of a player under test (engine 0 of the plan's seating), with greedy's game of its group.
fn play_tested(
    config: &CeilingConfig,
    plan: &GamePlan,
    player: Seat,
    baseline: &Played,
    args: &str,
) -> CeilingRecord {
    let seats: Vec<Seat> = plan.seating.iter().map(|&e| if e == 0 { player } else { Seat::Greedy }).collect();
    let played = play(&config.rules, args, plan.seed, &seats, &config.limits);
    let commands: Vec<String> = (0..plan.seating.len())
        .map(|e| if e == 0 { player.name() } else { Seat::Greedy.name() }.to_string())
        .collect();
    let game = Record::new(plan.game, plan.pair, plan.seed, &commands, &plan.seating, &played);
    let all_greedy = vec![Seat::Greedy.name().to_string(); plan.seating.len()];
    let greedy = Record::new(plan.game, plan.pair, plan.seed, &all_greedy, &plan.seating, baseline);
    CeilingRecord { player: player.name().to_string(), greedy, game }
}

fn progress_bar(shown: bool, games: usize) -> Option<ProgressBar> {
    if !shown {
        return None;
    }
    Some(crate::progress::bar(games as u64, "{bar:30} {pos}/{len} games, eta {eta}"))
}
