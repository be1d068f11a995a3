//! One refereed game: the referee deals the draws, tells the engine to move the position, asks it
//! for a move, judges the move with the rules core and enters it, until the game ends or an
//! engine faults.

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use zatre::protocol::{replay_command, Token};
use zatre::rules::{Move, Phase, Position, Rules, Variant};
use zatre::search::Foresight;

use super::engine_process::{clip, EngineProcess, Fault};

/// How the referee limits each `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The arguments of `go`, e.g. `movetime 100`.
    pub go: String,
    /// How long an answer to `go` may take before the engine loses on time.
    pub go_timeout: Duration,
    /// How long any other command may take.
    pub command_timeout: Duration,
}

/// The result of one seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SeatResult {
    Win,
    Draw,
    Loss,
}

impl SeatResult {
    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            SeatResult::Win => "win",
            SeatResult::Draw => "draw",
            SeatResult::Loss => "loss",
        }
    }

    /// The points of a result: 1, 1/2 or 0.
    pub fn points(self) -> f64 {
        match self {
            SeatResult::Win => 1.0,
            SeatResult::Draw => 0.5,
            SeatResult::Loss => 0.0,
        }
    }

    /// Reads a name back.
    pub fn parse(name: &str) -> Option<SeatResult> {
        match name {
            "win" => Some(SeatResult::Win),
            "draw" => Some(SeatResult::Draw),
            "loss" => Some(SeatResult::Loss),
            _ => None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The rules ended it.
    Normal,
    /// An engine (the seat, 0-based) faulted and lost.
    Fault { seat: usize, fault: Fault },
    /// The rules core refused the referee's own draw: a referee bug, nobody's fault.
    Aborted(String),
}

/// What a finished game leaves for the record.
#[derive(Clone, Debug)]
pub struct Played {
    /// `position startpos <newgame args> moves <tokens>`.
    pub replay: String,
    /// The final score by seat (the team's score for a team member).
    pub scores: Vec<i64>,
    /// The sheet (from 0) each seat writes on: partners share one.
    pub sheets: Vec<usize>,
    /// The result by seat.
    pub outcomes: Vec<SeatResult>,
    /// The `score` lines of the final position, as the engine prints them.
    pub standings: Vec<String>,
    pub end: End,
    /// Moves played.
    pub moves: u32,
    pub duration: Duration,
    /// By seat, the longest wait for an answer to `go` (zero for a seat that never moved).
    pub slowest_go: Vec<Duration>,
}

/// The referee's bag: one generator per game pair, so that both games of the pair see the same
/// draws as far as the rules allow. Classic: the start draw as the rules do it, then the rest of
/// the bag in one shuffled order, each draw taking the next tiles of that order (so a different
/// number of tiles drawn in one game shifts, but does not change, what comes next). Dice and kids:
/// two rolls a turn from the generator.
pub struct Dealer {
    rng: ChaCha8Rng,
    order: Option<Vec<u8>>,
    next: usize,
}

impl Dealer {
    /// The dealer of the pair with this seed.
    pub fn new(seed: u64) -> Dealer {
        Dealer { rng: ChaCha8Rng::seed_from_u64(seed), order: None, next: 0 }
    }

    /// Makes the draw due now and returns the drawn values in the order of a draw token.
    ///
    /// # Errors
    /// A message when the rules core refuses the draw (a referee bug, never an engine's fault).
    pub fn deal(&mut self, position: &mut Position) -> Result<Vec<u8>, String> {
        let classic = position.rules().variant == Variant::Classic;
        if !classic || position.board().count() == 0 && self.order.is_none() {
            let values = position.draw_random(&mut self.rng).map_err(|e| e.to_string())?;
            if classic {
                let mut order: Vec<u8> = position.bag().values().collect();
                order.shuffle(&mut self.rng);
                self.order = Some(order);
            }
            return Ok(values);
        }
        let order = self.order.as_deref().unwrap_or(&[]);
        let n = position.draw_count();
        let values: Vec<u8> = order.iter().skip(self.next).take(n).copied().collect();
        self.next += values.len();
        position.draw(&values).map_err(|e| e.to_string())?;
        Ok(values)
    }

    /// What the dealer will deal from now on, for a clairvoyant player (`zatre-ceiling`; the
    /// search's [`Foresight`]). Classic: the rest of the shuffled order, in order (`None` before
    /// the start draw, which is drawn as the rules draw it). Dice and kids: the next `rolls`
    /// rolls, each as [`Dealer::deal`] will roll it.
    pub fn foresight(&self, rules: &Rules, rolls: usize) -> Option<Foresight> {
        if rules.variant == Variant::Classic {
            let order = self.order.as_deref()?;
            return Some(Foresight::Bag(order.get(self.next..).unwrap_or(&[]).to_vec()));
        }
        let mut rng = self.rng.clone();
        let fresh = Position::new(rules.clone());
        let rolls = (0..rolls).map(|_| fresh.clone().draw_random(&mut rng)).collect::<Result<Vec<_>, _>>();
        // A new dice position is due a draw, so every roll is made; none is known otherwise.
        rolls.ok().map(Foresight::Rolls)
    }
}

/// One game to play.
pub struct GameSpec<'a> {
    pub rules: &'a Rules,
    /// `variant ... players ... seed ... [rule=value ...]`, as `newgame` and `position startpos`
    /// take them.
    pub newgame_args: &'a str,
    /// The seed of the pair's draws.
    pub seed: u64,
    /// The engine (an index into `slots`) by seat.
    pub seating: &'a [usize],
    pub limits: &'a Limits,
}

/// Engine processes by engine index, started when first needed and replaced after a fault.
pub struct Slots {
    commands: Vec<String>,
    processes: Vec<Option<EngineProcess>>,
    /// By engine, whether any of its processes here has answered a command.
    answered: Vec<bool>,
    /// The limit of the first command after a process starts, when not the command's own.
    startup_timeout: Option<Duration>,
}

impl Slots {
    /// No process runs yet.
    pub fn new(commands: &[String]) -> Slots {
        Slots {
            commands: commands.to_vec(),
            processes: commands.iter().map(|_| None).collect(),
            answered: vec![false; commands.len()],
            startup_timeout: None,
        }
    }

    /// The same slots, giving the first command after a process starts `timeout` (when some)
    /// instead of that command's own limit: for engines slow to start.
    pub fn with_startup_timeout(mut self, timeout: Option<Duration>) -> Slots {
        self.startup_timeout = timeout;
        self
    }

    /// Whether a process of `engine` has answered a command here: one that never has and cannot
    /// be started will not start for the next game either.
    pub fn has_answered(&self, engine: usize) -> bool {
        self.answered.get(engine).copied().unwrap_or(false)
    }

    /// The running process of an engine, started if needed.
    fn get(&mut self, engine: usize) -> Result<&mut EngineProcess, Fault> {
        let slot = &mut self.processes[engine];
        if slot.is_none() {
            *slot = Some(EngineProcess::spawn(&self.commands[engine])?);
        }
        slot.as_mut().ok_or_else(|| Fault::Spawn("no process".to_string()))
    }

    /// Sends one command to an engine; on a fault the process is ended.
    fn request(
        &mut self,
        engine: usize,
        command: &str,
        timeout: Duration,
        go: bool,
    ) -> Result<Vec<String>, Fault> {
        let timeout = match self.startup_timeout {
            Some(startup) if !self.is_running(engine) => startup,
            _ => timeout,
        };
        let result = self.get(engine).and_then(|p| p.request(command, timeout, go));
        match &result {
            Ok(_) => self.answered[engine] = true,
            Err(_) => self.processes[engine] = None,
        }
        result.map(|reply| reply.payload)
    }

    /// Whether a process of `engine` runs now.
    fn is_running(&self, engine: usize) -> bool {
        self.processes.get(engine).is_some_and(Option::is_some)
    }

    /// Ends an engine's process (after a fault the process may be out of step).
    fn discard(&mut self, engine: usize) {
        self.processes[engine] = None;
    }

    /// Asks every running engine to quit.
    pub fn quit_all(&mut self) {
        for slot in &mut self.processes {
            if let Some(p) = slot.take() {
                p.quit();
            }
        }
    }
}

/// Plays one game to its end.
pub fn play(spec: &GameSpec<'_>, slots: &mut Slots) -> Played {
    let started = Instant::now();
    let newgame = format!("newgame {}", spec.newgame_args);
    let mut played = None;
    for (seat, &engine) in spec.seating.iter().enumerate() {
        if let Err(fault) = slots.request(engine, &newgame, spec.limits.command_timeout, false) {
            let slowest_go = vec![Duration::ZERO; spec.seating.len()];
            let replay = replay_command(spec.newgame_args, &[]);
            let end = End::Fault { seat, fault };
            played = Some(Played::of(
                &Position::new(spec.rules.clone()),
                end,
                replay,
                0,
                started.elapsed(),
                slowest_go,
            ));
            break;
        }
    }
    let played = played.unwrap_or_else(|| {
        let slots = std::cell::RefCell::new(&mut *slots);
        deal_and_play_then(
            spec.rules,
            spec.seed,
            spec.newgame_args,
            started,
            |seat, position, _, tokens| {
                let replay = replay_command(spec.newgame_args, tokens);
                ask_move(spec, &mut slots.borrow_mut(), spec.seating[seat], position, &replay)
            },
            |end| sync(spec, &mut slots.borrow_mut(), end),
        )
    });
    if let End::Fault { seat, .. } = &played.end {
        slots.discard(spec.seating[*seat]);
    }
    played
}

/// At the end of a game, `isready` to each engine still running, so that whatever it printed
/// after its last move is charged to this game, not to its next one: the first seat whose engine
/// prints anything but a response to it (or nothing in time) faults; what the response says is
/// not judged. After a fault the others are still
/// synced (an engine out of step is replaced), but the game keeps its first fault.
fn sync(spec: &GameSpec<'_>, slots: &mut Slots, end: &End) -> Option<(usize, Fault)> {
    let faulty = match end {
        End::Fault { seat, .. } => Some(spec.seating[*seat]),
        End::Normal | End::Aborted(_) => None,
    };
    let mut first = None;
    for (seat, &engine) in spec.seating.iter().enumerate() {
        if Some(engine) == faulty || !slots.is_running(engine) {
            continue;
        }
        if let Err(fault) = slots.request(engine, "isready", spec.limits.command_timeout, false) {
            first.get_or_insert((seat, fault.after_the_game()));
        }
    }
    first
}

/// A game on the dealer of `seed` to its end (started at `started`): the dealer deals each draw,
/// `choose` gives the move of the seat to move (given the position, the dealer and the tokens so
/// far) with how long its answer took, and the rules core judges and enters it. A seat that
/// has no move for it, or gives an illegal one, faults and loses.
pub fn deal_and_play(
    rules: &Rules,
    seed: u64,
    newgame_args: &str,
    started: Instant,
    choose: impl FnMut(usize, &Position, &Dealer, &[String]) -> Result<(Move, Duration), Fault>,
) -> Played {
    deal_and_play_then(rules, seed, newgame_args, started, choose, |_| None)
}

/// [`deal_and_play`], then `after` given the final position (unless the game already ended in a
/// fault) may charge a seat with a fault that comes after the last move: that seat loses the game.
fn deal_and_play_then(
    rules: &Rules,
    seed: u64,
    newgame_args: &str,
    started: Instant,
    mut choose: impl FnMut(usize, &Position, &Dealer, &[String]) -> Result<(Move, Duration), Fault>,
    after: impl FnOnce(&End) -> Option<(usize, Fault)>,
) -> Played {
    let mut position = Position::new(rules.clone());
    let mut dealer = Dealer::new(seed);
    let mut tokens: Vec<String> = Vec::new();
    let mut moves = 0;
    let mut slowest = vec![Duration::ZERO; usize::from(rules.players)];
    let mut end = End::Normal;
    loop {
        match position.phase() {
            Phase::Over => break,
            Phase::Draw => match dealer.deal(&mut position) {
                Ok(values) => tokens.push(Token::Draw(values).to_string()),
                Err(message) => {
                    end = End::Aborted(message);
                    break;
                }
            },
            Phase::Place => {
                let seat = position.to_move();
                let asked = choose(seat, &position, &dealer, &tokens).map(|(mv, waited)| {
                    slowest[seat] = slowest[seat].max(waited);
                    mv
                });
                match asked.and_then(|mv| {
                    position
                        .play(&mv)
                        .map_err(|e| Fault::IllegalMove(format!("{}: {e}", clip(&mv.to_string()))))?;
                    Ok(mv)
                }) {
                    Ok(mv) => {
                        tokens.push(mv.to_string());
                        moves += 1;
                    }
                    Err(fault) => {
                        end = End::Fault { seat, fault };
                        break;
                    }
                }
            }
        }
    }
    if let Some((seat, fault)) = after(&end) {
        if !matches!(end, End::Fault { .. }) {
            end = End::Fault { seat, fault };
        }
    }
    Played::of(&position, end, replay_command(newgame_args, &tokens), moves, started.elapsed(), slowest)
}

impl Played {
    /// What a game that ended in `position` leaves: the scores, results and standings of the
    /// final position, with what the referee kept of the game.
    pub fn of(
        position: &Position,
        end: End,
        replay: String,
        moves: u32,
        duration: Duration,
        slowest_go: Vec<Duration>,
    ) -> Played {
        let rules = position.rules();
        let standings = position.standings();
        let players = usize::from(rules.players);
        let sheets: Vec<usize> = (0..players).map(|s| rules.sheet_of_seat(s)).collect();
        let scores: Vec<i64> = sheets.iter().map(|&i| standings[i].total).collect();
        let outcomes = outcomes(position, &end);
        let mut lines: Vec<String> = standings.iter().map(|s| s.to_string()).collect();
        if position.is_over() {
            lines.push("gameover".to_string());
        }
        Played { replay, scores, sheets, outcomes, standings: lines, end, moves, duration, slowest_go }
    }
}

/// Sends the position and `go` to an engine, reads its move and checks it against `position`;
/// with the move, how long the answer to `go` took (from writing `go` to reading `bestmove`).
fn ask_move(
    spec: &GameSpec<'_>,
    slots: &mut Slots,
    engine: usize,
    position: &Position,
    replay: &str,
) -> Result<(Move, Duration), Fault> {
    slots.request(engine, replay, spec.limits.command_timeout, false)?;
    let go = format!("go {}", spec.limits.go);
    let asked = Instant::now();
    let payload = slots.request(engine, go.trim(), spec.limits.go_timeout, true)?;
    let waited = asked.elapsed();
    let first = payload.first().map(String::as_str).unwrap_or("");
    let mut words = first.split_whitespace();
    let text = match (words.next(), words.next()) {
        (Some("bestmove"), Some(text)) => text,
        _ => return Err(Fault::Garbage(format!("go answered '{}' instead of bestmove <move>", clip(first)))),
    };
    let mv = Move::parse(position.board().geometry(), text).map_err(|e| {
        Fault::IllegalMove(format!("'{}' does not parse: {}", clip(text), clip(&e.to_string())))
    })?;
    position.check(&mv).map_err(|e| Fault::IllegalMove(format!("{}: {e}", clip(text))))?;
    Ok((mv, waited))
}

/// The result of each seat: by the rules' leaders after a normal end; after a fault the faulty
/// seat loses and the leaders among the others win (share the win when several).
fn outcomes(position: &Position, end: &End) -> Vec<SeatResult> {
    let rules = position.rules();
    let players = usize::from(rules.players);
    let standings = position.standings();
    let faulty = match end {
        End::Fault { seat, .. } => Some(*seat),
        End::Normal | End::Aborted(_) => None,
    };
    let key = |seat: usize| standings[rules.sheet_of_seat(seat)].rank_key;
    let contenders: Vec<usize> = (0..players)
        .filter(|&s| faulty.is_none_or(|f| rules.sheet_of_seat(f) != rules.sheet_of_seat(s)))
        .collect();
    let best = contenders.iter().map(|&s| key(s)).max();
    let winners: Vec<usize> = contenders.iter().copied().filter(|&s| Some(key(s)) == best).collect();
    let winning_sheets: std::collections::BTreeSet<usize> =
        winners.iter().map(|&s| rules.sheet_of_seat(s)).collect();
    (0..players)
        .map(|s| {
            if !winners.contains(&s) {
                SeatResult::Loss
            } else if winning_sheets.len() > 1 || (players == 1 && faulty.is_none()) {
                // A shared lead; a solo game that ends normally counts as a draw with itself.
                SeatResult::Draw
            } else {
                SeatResult::Win
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> Rules {
        Rules::new(Variant::Classic, 2).expect("2 players are allowed")
    }

    #[test]
    fn the_same_seed_deals_the_same_start() {
        let mut a = Position::new(classic());
        let mut b = Position::new(classic());
        let (mut da, mut db) = (Dealer::new(7), Dealer::new(7));
        assert_eq!(da.deal(&mut a).unwrap(), db.deal(&mut b).unwrap());
        assert_eq!(a, b);
        assert_eq!(a.bag().len(), 121 - 3);
    }

    /// What the dealer foresees at every move is what it deals after it: at every draw of a game
    /// (greedy in every seat), the foresight taken at each earlier move says this draw is due, in
    /// classic for two, three and four players, dice and kids.
    #[test]
    fn the_dealers_foresight_is_what_it_deals() {
        let games = [
            (Variant::Classic, 2),
            (Variant::Classic, 3),
            (Variant::Classic, 4),
            (Variant::Dice, 2),
            (Variant::Kids, 2),
        ];
        for (variant, players) in games {
            let rules = Rules::new(variant, players).unwrap();
            let mut position = Position::new(rules.clone());
            let mut dealer = Dealer::new(17);
            let mut roots: Vec<(Position, Foresight)> = Vec::new();
            let mut checked = 0;
            while !position.is_over() {
                if position.phase() == Phase::Draw {
                    let due: Vec<Option<Vec<u8>>> =
                        roots.iter().map(|(root, future)| future.draw_due(root, &position)).collect();
                    let dealt = dealer.deal(&mut position).unwrap();
                    for (k, foreseen) in due.iter().enumerate() {
                        // Dice and kids: a foresight of 8 rolls reaches the 8 turns after its move.
                        if variant == Variant::Classic || roots.len() - k <= 8 {
                            assert_eq!(foreseen.as_ref(), Some(&dealt), "{variant} {players}: move {k}");
                            checked += 1;
                        } else {
                            assert_eq!(foreseen, &None);
                        }
                    }
                    continue;
                }
                let future = dealer.foresight(&rules, 8).unwrap();
                roots.push((position.clone(), future));
                let mv = zatre::search::greedy_choice(&position).unwrap();
                position.play(&mv).unwrap();
            }
            assert!(checked >= 60, "{variant} {players}: {checked} draws checked");
        }
        // Before the classic start draw the dealer knows nothing.
        assert_eq!(Dealer::new(1).foresight(&classic(), 8), None);
    }

    #[test]
    fn a_fault_loses_and_the_other_wins() {
        let p = Position::new(classic());
        let end = End::Fault { seat: 0, fault: Fault::Crash("gone".into()) };
        assert_eq!(outcomes(&p, &end), vec![SeatResult::Loss, SeatResult::Win]);
        assert_eq!(outcomes(&p, &End::Normal), vec![SeatResult::Draw, SeatResult::Draw]);
    }

    /// In a game of teams (four players or six) a seat's margin is over the best other team's
    /// sheet, not over its partner's (the same sheet, the same score), and the record says which
    /// sheet each seat wrote on; with a sheet for every seat the record leaves that out and the
    /// margin is over the best other seat.
    #[test]
    fn a_teams_margin_is_over_the_other_team() {
        for players in [4u8, 6] {
            let mut rules = Rules::new(Variant::Classic, players).expect("4 and 6 players are allowed");
            rules.teams = true;
            let mut game = Position::new(rules);
            let mut dealer = Dealer::new(11);
            while !game.is_over() {
                if game.phase() == Phase::Draw {
                    dealer.deal(&mut game).expect("the dealer deals");
                } else {
                    let mv = zatre::search::greedy_choice(&game).expect("a move is due");
                    game.play(&mv).expect("greedy's move is legal");
                }
            }
            let seats = usize::from(players);
            let played = Played::of(&game, End::Normal, String::new(), 0, Duration::ZERO, vec![]);
            assert_eq!(played.sheets, (0..seats).map(|s| s / 2).collect::<Vec<_>>());
            let commands: Vec<String> = (0..seats).map(|e| format!("engine{e}")).collect();
            let seating: Vec<usize> = (0..seats).collect();
            let record = crate::referee::Record::new(0, 0, 11, &commands, &seating, &played);
            let team = |t: usize| record.score(2 * t);
            for seat in 0..seats {
                assert_eq!(record.score(seat), team(seat / 2), "partners share the score");
                let other = (0..seats / 2).filter(|&t| t != seat / 2).map(team).max().expect("another team");
                assert_eq!(record.margin(seat), Some(record.score(seat) - other), "seat {seat} of {players}");
            }
            // The leading team's margin is above zero: over a partner's seat it was zero at best.
            let lead = (0..seats).max_by_key(|&s| record.score(s)).expect("seats");
            assert!(record.margin(lead).expect("a margin") > 0, "a shared lead proves nothing here");
            let line = serde_json::to_string(&record).expect("a record serializes");
            let sheets: Vec<String> = played.sheets.iter().map(usize::to_string).collect();
            assert!(line.contains(&format!(r#""sheets":[{}]"#, sheets.join(","))), "{line}");
        }

        let alone = crate::referee::test_record(0, 0, [0, 1], [30, 20]);
        assert_eq!((alone.margin(0), alone.margin(1)), (Some(10), Some(-10)));
        assert!(!serde_json::to_string(&alone).expect("a record serializes").contains("sheets"));
    }
}
