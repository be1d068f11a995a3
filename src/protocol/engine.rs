//! The engine: owns the game, executes one command at a time and returns the response as a
//! value. It touches no stream and knows nothing of scheduling: a long command comes back as a
//! [`Job`], which the session ([`super::session`]) runs.

use std::time::Duration;

use log::warn;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::rules::{
    Cell, Game, Move, MoveError, MoveScore, Phase, Position, Preset, Rules, SetupError, Sheet, SheetRow,
    Status, Variant, MAX_UNDO,
};
use crate::search::{Clock, Limits, Model, Watch};

use super::analyse::{Analysis, TurnLimits};
use super::command::{
    AnalyseArgs, Command, GoArgs, Id, NewGameArgs, PositionArgs, RawMove, RawPlacement, Token,
};
use super::job::Job;
use super::options::EngineOptions;
use super::reason::Reason;
use super::registry;
use super::response::{Failure, Payload, Response};
use super::show::{hand_text, picture};

/// The version of the protocol a client speaks until it sends `protocol 3`.
pub const PROTOCOL_VERSION: u32 = 2;

/// The versions of the protocol this engine speaks (`protocol <version>`).
pub const PROTOCOL_VERSIONS: [u32; 2] = [2, 3];

/// Where the game began.
#[derive(Debug, Clone)]
enum Origin {
    /// A start position of these rules (`newgame`, `position startpos`).
    Start(Rules),
    /// A position line (`position <line>`): the game has no start to replay from.
    Line,
}

/// A draw or a move of the game, as a token of `position startpos ... moves`.
#[derive(Debug, Clone)]
struct Step {
    /// `+566` or `5@h8,6@h9`.
    token: String,
    /// The generator of random draws before the step (none for a replayed token, or one older
    /// than the last [`MAX_UNDO`]); boxed, so that a step without one takes a few bytes.
    rng: Option<Box<ChaCha8Rng>>,
}

/// What a command comes to.
#[derive(Debug)]
pub enum Effect {
    /// Its response, at once.
    Reply(Response),
    /// A job to run (on a thread of its own); its result is the response.
    Start(Job),
}

/// The engine: the game, the generator for random draws, the engine options.
pub struct Engine {
    game: Game,
    rng: ChaCha8Rng,
    /// Where the game began: what `history` prints before the tokens.
    origin: Origin,
    /// Every draw and move since then, for `undo` and `history`.
    steps: Vec<Step>,
    options: EngineOptions,
    /// What the engine has seen of how each seat plays, for `go` ([`crate::search::Model`]).
    watch: Watch,
    /// The version of the protocol the client speaks (`protocol`, `protocol_version`).
    protocol: u32,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

/// A generator seeded from the operating system, for games started without `seed`.
fn entropy_rng() -> ChaCha8Rng {
    ChaCha8Rng::from_os_rng()
}

/// The rules that `newgame` arguments ask for.
fn rules_of(args: &NewGameArgs) -> Result<Rules, Failure> {
    args.rules().map_err(|e| Failure::of(&e))
}

/// Reads a move against the board of `position`.
fn move_of(position: &Position, raw: &RawMove) -> Result<Move, Failure> {
    raw.resolve(position).map_err(|e| Failure::of(&e))
}

/// What a move scores, as `place` and `score <move>` answer; `sheet` (version 3) is the mover's
/// sheet before the move, whose boxes the move fills are then named.
fn move_score(position: &Position, score: &MoveScore, mv: &Move, sheet: Option<&Sheet>) -> Payload {
    let rules = position.rules();
    let boxes = sheet.map(|before| {
        let mut after = before.clone();
        after.record(rules, score, mv.placements().len());
        filled_boxes(before, &after)
    });
    Payload::MoveScore { points: score.points(rules), crosses: score.reported_crosses(rules), boxes }
}

/// The boxes filled in `after` that are empty in `before`, row by row from the top, each row's
/// mark box (`x`) first, then its sum boxes `a`, `b`, `c`: `x1,b1,c2`; `-` for none.
fn filled_boxes(before: &Sheet, after: &Sheet) -> String {
    let empty = SheetRow::default();
    let mut names = Vec::new();
    for (r, row) in after.rows().iter().enumerate() {
        let old = before.rows().get(r).unwrap_or(&empty);
        if row.mark().is_some() && old.mark().is_none() {
            names.push(format!("x{}", r + 1));
        }
        for (column, (new, old)) in ["a", "b", "c"].iter().zip(row.boxes().iter().zip(old.boxes())) {
            if new.is_some() && old.is_none() {
                names.push(format!("{column}{}", r + 1));
            }
        }
    }
    if names.is_empty() {
        "-".to_owned()
    } else {
        names.join(",")
    }
}

/// The sheet the player to move writes on.
fn mover_sheet(position: &Position) -> &Sheet {
    &position.sheets()[position.rules().sheet_of_seat(position.to_move())]
}

/// The limits of a `go`: its clock, and its `searchmoves` read against the board.
fn limits_of(position: &Position, args: GoArgs) -> Result<Limits, Failure> {
    let clock = match (args.time, args.inc, args.movestogo) {
        (Some(left), inc, movestogo) => Some(Clock {
            left: Duration::from_millis(left),
            inc: Duration::from_millis(inc.unwrap_or(0)),
            movestogo,
        }),
        (None, None, None) => None,
        (None, ..) => {
            return Err(Failure::new(Reason::ClockArguments, "inc and movestogo go with time <ms>"));
        }
    };
    if args.movestogo == Some(0) {
        return Err(Failure::new(Reason::OutOfRange, "movestogo is at least 1"));
    }
    // Read against the board here; whether they are legal, the job checks (in a huge kept hand
    // that takes a while, and the engine's loop must stay prompt).
    let searchmoves =
        args.searchmoves.iter().map(|raw| move_of(position, raw)).collect::<Result<Vec<_>, _>>()?;
    Ok(Limits {
        movetime: args.movetime.map(Duration::from_millis),
        nodes: args.nodes,
        depth: args.depth,
        infinite: args.infinite,
        clock,
        searchmoves: (!searchmoves.is_empty()).then_some(searchmoves),
        models: Vec::new(),
    })
}

/// The `status` payload: `phase ... turn ... tomove ... due ...`, and at the end `end <reason>`
/// and the ranking, `rank <r> player <n> total <t>` a line (`team <n>` with teams).
fn status_payload(status: &Status) -> String {
    let mut lines = vec![format!(
        "phase {} turn {} tomove {} due {}",
        status.phase.name(),
        status.turn,
        status.to_move + 1,
        status.due
    )];
    if let Some(end) = &status.end {
        lines.push(format!("end {}", end.reason.name()));
        lines.extend(end.ranking.iter().map(|r| {
            format!("rank {} {} {} total {}", r.rank, r.standing.label, r.standing.number, r.standing.total)
        }));
    }
    lines.join("\n")
}

impl Engine {
    /// An engine with the default game (classic, 2 players, DE rules), its draws seeded from the
    /// operating system.
    pub fn new() -> Engine {
        Engine::with_rng(entropy_rng())
    }

    /// An engine whose random draws before the first `newgame seed` come from `seed`.
    pub fn with_seed(seed: u64) -> Engine {
        Engine::with_rng(ChaCha8Rng::seed_from_u64(seed))
    }

    fn with_rng(rng: ChaCha8Rng) -> Engine {
        // `Rules::new` fails only for a player count outside 1..=6; 2 is inside.
        #[allow(clippy::expect_used)]
        let rules = Rules::new(Variant::Classic, 2).expect("2 players are within 1..=6");
        Engine {
            game: Game::new(rules.clone()),
            rng,
            origin: Origin::Start(rules),
            steps: Vec::new(),
            options: EngineOptions::default(),
            watch: Watch::default(),
            protocol: PROTOCOL_VERSION,
        }
    }

    /// The version of the protocol the client speaks: [`PROTOCOL_VERSION`] until a `protocol`
    /// command sets another. The session writes every line in it.
    pub fn protocol(&self) -> u32 {
        self.protocol
    }

    /// The engine options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Sets an engine option, as `setoption` does.
    ///
    /// # Errors
    /// An unknown option or a bad value; nothing changes then.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), Failure> {
        self.options.set(name, value).map_err(|e| Failure::of(&e))
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Executes one command. A command that fails changes nothing. The command is read in the
    /// protocol version in force already (`parse::in_version`, which the session applies).
    pub fn execute(&mut self, id: Option<Id>, command: Command) -> Effect {
        let result = match command {
            Command::Go(args) => match self.go_job(id.clone(), args) {
                Ok(job) => return Effect::Start(job),
                Err(failure) => Err(failure),
            },
            Command::Analyse(args) => match self.analyse_job(id.clone(), args) {
                Ok(job) => return Effect::Start(job),
                Err(failure) => Err(failure),
            },
            Command::Perft(depth) => {
                return Effect::Start(Job::perft(id, self.game.position().clone(), depth))
            }
            Command::Bench => return Effect::Start(Job::bench(id)),
            Command::Next(raw) => match self.next_job(id.clone(), &raw) {
                Ok(job) => return Effect::Start(job),
                Err(failure) => Err(failure),
            },
            Command::Legal | Command::LegalCount => match self.move_due() {
                Ok(()) => {
                    let count = matches!(command, Command::LegalCount);
                    return Effect::Start(Job::legal(id, self.game.position().clone(), count));
                }
                Err(failure) => Err(failure),
            },
            command => self.run(command),
        };
        if let Err(failure) = &result {
            warn!("{failure}");
        }
        Effect::Reply(Response { id, result })
    }

    /// Builds the job of a `go`: the limits, and how each seat is expected to move, from the
    /// moves of this game.
    fn go_job(&mut self, id: Option<Id>, args: GoArgs) -> Result<Job, Failure> {
        let position = self.game.position();
        // Version 3 checks the arguments before the phase, as `place`, `score` and `next` do;
        // version 2 keeps its order (PROTOCOL.md, "Version 3").
        let checked = if self.protocol >= 3 { Some(limits_of(position, args.clone())?) } else { None };
        match position.phase() {
            Phase::Over => Err(Failure::of(&MoveError::GameOver)),
            Phase::Draw => Err(Failure::of(&MoveError::DrawDue)),
            Phase::Place => {
                let limits = match checked {
                    Some(limits) => limits,
                    None => limits_of(position, args)?,
                };
                let limits = Limits { models: self.models(), ..limits };
                Ok(Job::go(id, self.game.position().clone(), limits, self.options))
            }
        }
    }

    /// Builds the job of an `analyse`: the game given, or the current one from its start, replayed
    /// here so that a bad game is refused before any search.
    fn analyse_job(&self, id: Option<Id>, args: AnalyseArgs) -> Result<Job, Failure> {
        let (newgame, tokens) = match args.game {
            Some(game) => game,
            None => self.start_and_tokens()?,
        };
        let rules = rules_of(&newgame)?;
        replay(Game::new(rules.clone()), &tokens)?;
        let limits = TurnLimits { movetime: args.movetime, nodes: args.nodes, depth: args.depth };
        Ok(Job::analyse(id, Analysis::new(rules, tokens, limits, self.options)))
    }

    /// The current game as its start and its tokens (`history`), when it has a start.
    fn start_and_tokens(&self) -> Result<(NewGameArgs, Vec<Token>), Failure> {
        if matches!(self.origin, Origin::Line) {
            return Err(Failure::new(
                Reason::NoStart,
                "the game was set up from a position line: it has no start to replay; give analyse startpos ...",
            ));
        }
        match super::parse::parse_command(&format!("position {}", self.history())) {
            Ok(Command::Position(PositionArgs::StartPos { newgame, tokens })) => Ok((newgame, tokens)),
            _ => Err(Failure::new(Reason::Internal, "the history of the game does not read back")),
        }
    }

    /// How each seat is expected to move: as `greedy` while every move it made in this game was
    /// greedy's, else as a strong player ([`crate::search::Model`]).
    fn models(&mut self) -> Vec<Model> {
        self.watch.models(&self.game)
    }

    /// Executes a command that is answered at once.
    fn run(&mut self, command: Command) -> Result<Payload, Failure> {
        let text = |s: String| Ok(Payload::Text(s));
        match command {
            Command::ProtocolVersion => text(self.protocol.to_string()),
            Command::Protocol(version) => {
                if !PROTOCOL_VERSIONS.contains(&version) {
                    return Err(Failure::new(
                        Reason::UnsupportedVersion,
                        format!("this engine speaks protocol versions 2 and 3, not {version}"),
                    ));
                }
                self.protocol = version;
                text(version.to_string())
            }
            Command::Name => text(env!("CARGO_PKG_NAME").to_owned()),
            Command::Version => text(env!("CARGO_PKG_VERSION").to_owned()),
            Command::ListCommands => text(registry::words().collect::<Vec<_>>().join("\n")),
            Command::KnownCommand(word) => text(registry::find(&word).is_some().to_string()),
            Command::Help => text(registry::help_text()),
            Command::IsReady => text("readyok".to_owned()),
            // The session answers these before they reach the engine; alone, the engine has no job
            // to stop.
            Command::Stop | Command::Quit => text(String::new()),
            Command::Options => text(EngineOptions::describe().join("\n")),
            Command::SetOption { name, value } => {
                self.set_option(&name, &value)?;
                text(String::new())
            }
            Command::NewGame(args) => {
                let rules = rules_of(&args)?;
                self.start(Game::new(rules.clone()), Origin::Start(rules), Vec::new(), args.seed);
                text(String::new())
            }
            Command::Draw(values) => self.draw(&values).map(Payload::Text),
            Command::DrawWord(digits) => {
                let values: Vec<u8> = digits.bytes().map(|b| b - b'0').collect();
                self.draw(&values).map(Payload::Text)
            }
            Command::Place(raw) => {
                let mv = move_of(self.game.position(), &raw)?;
                let before = (self.protocol >= 3).then(|| mover_sheet(self.game.position()).clone());
                let score = self.game.play(&mv).map_err(Failure::from)?;
                self.push_step(Step { token: mv.to_string(), rng: Some(Box::new(self.rng.clone())) });
                Ok(move_score(self.game.position(), &score, &mv, before.as_ref()))
            }
            Command::Undo => {
                self.undo()?;
                text(String::new())
            }
            Command::UndoTurn => {
                let steps = self.game.turn_steps();
                if steps == 0 {
                    // Nothing the history holds: the error a single `undo` gives.
                    self.undo()?;
                }
                for _ in 0..steps {
                    self.undo()?;
                }
                text(steps.to_string())
            }
            Command::Score(None) => {
                let position = self.game.position();
                let one_word = self.protocol >= 3;
                let mut lines: Vec<String> = position
                    .standings()
                    .iter()
                    .map(|s| if one_word { format!("{s:#}") } else { s.to_string() })
                    .collect();
                if position.is_over() {
                    lines.push("gameover".to_owned());
                }
                text(lines.join("\n"))
            }
            Command::Score(Some(raw)) => {
                let position = self.game.position();
                let mv = move_of(position, &raw)?;
                let score = position.score_move(&mv).map_err(Failure::from)?;
                let before = (self.protocol >= 3).then(|| mover_sheet(position));
                Ok(move_score(position, &score, &mv, before))
            }
            Command::Show => text(picture(self.game.position(), self.protocol >= 3)),
            Command::Geometry => text(self.geometry()),
            Command::History => text(self.history()),
            Command::Position(PositionArgs::Print) => text(self.game.position().to_line()),
            Command::Position(PositionArgs::Line(fields)) => {
                let position = Position::from_fields(fields.iter().map(|(k, v)| (k.as_str(), v.as_str())))
                    .map_err(|e: SetupError| Failure::of(&e))?;
                self.start(Game::from_position(position), Origin::Line, Vec::new(), None);
                text(String::new())
            }
            Command::Position(PositionArgs::StartPos { newgame, tokens }) => {
                let rules = rules_of(&newgame)?;
                let (game, steps) = replay(Game::new(rules.clone()), &tokens)?;
                self.start(game, Origin::Start(rules), steps, newgame.seed);
                text(String::new())
            }
            Command::Variants => text(Engine::variants(self.protocol >= 3)),
            Command::Status => text(status_payload(&self.game.position().status())),
            Command::Go(_)
            | Command::Analyse(_)
            | Command::Bench
            | Command::Perft(_)
            | Command::Legal
            | Command::LegalCount
            | Command::Next(_) => Err(Failure::new(Reason::Internal, "command dispatched twice")),
        }
    }

    /// Takes back the last draw or move, and the generator of random draws with it.
    fn undo(&mut self) -> Result<(), Failure> {
        if let Err(e) = self.game.undo() {
            if self.steps.is_empty() {
                return Err(Failure::new(Reason::NothingToUndo, e.to_string()));
            }
            return Err(Failure::new(
                Reason::UndoTooOld,
                format!("only the last {MAX_UNDO} draws and moves can be taken back"),
            ));
        }
        if let Some(rng) = self.steps.pop().and_then(|step| step.rng) {
            self.rng = *rng;
        }
        Ok(())
    }

    /// Replaces the game and its history; reseeds the draws when `seed` is given.
    fn start(&mut self, game: Game, origin: Origin, steps: Vec<Step>, seed: Option<u64>) {
        self.game = game;
        self.origin = origin;
        self.steps = steps;
        if let Some(seed) = seed {
            self.rng = ChaCha8Rng::seed_from_u64(seed);
        }
    }

    fn draw(&mut self, values: &[u8]) -> Result<String, Failure> {
        let rng = self.rng.clone();
        let mut start = Vec::new();
        let drawn = if values.is_empty() {
            match self.game.draw_random_seen(&mut self.rng) {
                Ok((drawn, rounds)) => {
                    start = rounds;
                    drawn
                }
                Err(e) => {
                    // A failed command changes nothing, the generator included.
                    self.rng = rng;
                    return Err(Failure::of(&e));
                }
            }
        } else {
            self.game.draw(values).map_err(|e| Failure::of(&e))?;
            values.to_vec()
        };
        self.push_step(Step { token: Token::Draw(drawn).to_string(), rng: Some(Box::new(rng)) });
        let hand = hand_text(*self.game.position().hand_to_move(), self.protocol >= 3);
        if self.protocol < 3 || start.is_empty() {
            return Ok(hand);
        }
        // Version 3: the rounds of the classic start draw, each the tiles of the seats in it.
        let rounds: Vec<String> =
            start.iter().map(|round| round.iter().map(u8::to_string).collect::<Vec<_>>().join(",")).collect();
        Ok(format!("{hand}\nstart {}", rounds.join("/")))
    }

    /// Records a step; the generator of a step that can no longer be taken back (older than the
    /// last [`MAX_UNDO`]) is dropped, its token kept for `history`.
    fn push_step(&mut self, step: Step) {
        self.steps.push(step);
        if let Some(old) = self.steps.len().checked_sub(MAX_UNDO + 1) {
            self.steps[old].rng = None;
        }
    }

    /// `history`: `startpos <newgame args> [moves <tokens>]`, or the position line when the game
    /// began from one.
    fn history(&self) -> String {
        let Origin::Start(rules) = &self.origin else {
            return self.game.position().to_line();
        };
        let mut words = vec![format!("startpos variant {} players {}", rules.variant, rules.players)];
        words.extend(rules.option_fields().into_iter().map(|(k, v)| format!("{k}={v}")));
        if !self.steps.is_empty() {
            words.push("moves".to_owned());
            words.extend(self.steps.iter().map(|step| step.token.clone()));
        }
        words.join(" ")
    }

    /// The `variants` payload: per variant its player counts, then its rule options; with
    /// `presets` (version 3) after the classic options a line per preset of `rules`, `preset
    /// <name> <option>=<value>...`, with what it sets.
    fn variants(presets: bool) -> String {
        let (min, max) = (Rules::PLAYERS.start(), Rules::PLAYERS.end());
        let mut lines = Vec::new();
        for &variant in Variant::ALL {
            // The sums the sheet's three boxes record: limit-2, limit-1 and limit.
            let limit = Rules::new(variant, Rules::DEFAULT_PLAYERS).map_or(12, |rules| rules.limit());
            lines.push(format!(
                "variant {variant} players {min}-{max} default {} boxes {},{},{limit}",
                Rules::DEFAULT_PLAYERS,
                limit - 2,
                limit - 1
            ));
            lines.extend(variant.option_specs().iter().map(|spec| format!("rule {spec}")));
            if presets && variant == Variant::Classic {
                lines.extend(Preset::ALL.iter().map(|preset| {
                    let settings: Vec<String> = preset
                        .settings()
                        .iter()
                        .map(|(option, value)| format!("{}={value}", option.name))
                        .collect();
                    format!("preset {preset} {}", settings.join(" "))
                }));
            }
        }
        lines.join("\n")
    }

    /// The geometry payload: the box, every cell, the extra cells.
    fn geometry(&self) -> String {
        let geometry = self.game.position().board().geometry();
        let names = |cells: &mut dyn Iterator<Item = Cell>| -> String {
            let names: Vec<String> = cells.map(|c| c.to_string()).collect();
            if names.is_empty() {
                "-".to_owned()
            } else {
                names.join(",")
            }
        };
        let centre = geometry.centre().map_or_else(|| "-".to_owned(), |c| c.to_string());
        format!(
            "columns {side} rows {side} centre {centre}\ncells {}\nextra {}",
            names(&mut geometry.cells().iter().copied()),
            names(&mut geometry.extra_cells()),
            side = geometry.side(),
        )
    }

    /// Builds the job of a `next`: the placements read against the board, the phase checked.
    fn next_job(&self, id: Option<Id>, raw: &[RawPlacement]) -> Result<Job, Failure> {
        let position = self.game.position();
        let partial = move_of(position, &RawMove::Place(raw.to_vec()))?;
        self.move_due()?;
        Ok(Job::next(id, position.clone(), partial.placements().to_vec()))
    }

    /// Fails unless a move is due now.
    fn move_due(&self) -> Result<(), Failure> {
        match self.game.position().phase() {
            Phase::Place => Ok(()),
            Phase::Draw => Err(Failure::of(&MoveError::DrawDue)),
            Phase::Over => Err(Failure::of(&MoveError::GameOver)),
        }
    }
}

/// Replays draw and move tokens on `game`; returns it with the steps replayed.
fn replay(mut game: Game, tokens: &[Token]) -> Result<(Game, Vec<Step>), Failure> {
    let mut steps = Vec::new();
    for (k, token) in tokens.iter().enumerate() {
        let played = match token {
            Token::Draw(values) => game.draw(values).map(|_| token.to_string()).map_err(|e| e.to_string()),
            Token::Move(raw) => match raw.resolve(game.position()) {
                Ok(mv) => game.play(&mv).map(|_| mv.to_string()).map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            },
        };
        match played {
            Ok(token) => steps.push(Step { token, rng: None }),
            Err(why) => {
                return Err(Failure::new(Reason::ReplayFailed, format!("token {} '{token}': {why}", k + 1)));
            }
        }
    }
    Ok((game, steps))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse::{parse_line, Line};
    use proptest::prelude::*;
    use std::sync::atomic::AtomicBool;

    /// The response to `line` (nothing for a line the engine ignores); a job it starts runs,
    /// stopped at once.
    fn reply(engine: &mut Engine, line: &str) -> String {
        answer(engine, line, true)
    }

    /// [`reply`], the job stopped at once or run to its own limits.
    fn answer(engine: &mut Engine, line: &str, stop_at_once: bool) -> String {
        match parse_line(line.as_bytes()) {
            Line::Ignored => String::new(),
            Line::Request { id, command: Err(e) } => Response::failure(id, e.into()).to_string(),
            Line::Request { id, command: Ok(command) } => match engine.execute(id, command) {
                Effect::Reply(r) => r.to_string(),
                Effect::Start(job) => job.run(&AtomicBool::new(stop_at_once), &mut |_| ()).to_string(),
            },
        }
    }

    /// The limits `help` states are the ones the engine keeps.
    #[test]
    fn help_states_the_limits_in_force() {
        let help = registry::help_text();
        assert!(help.contains(&format!("(the last {MAX_UNDO})")), "{help}");
        let perft = format!("(depth 0 to {})", crate::protocol::MAX_PERFT_DEPTH);
        assert!(help.contains(&perft), "{help}");
    }

    #[test]
    fn a_failed_command_changes_nothing() {
        let mut engine = Engine::with_seed(1);
        reply(&mut engine, "newgame seed 3");
        reply(&mut engine, "draw");
        let before = engine.position().clone();
        for bad in [
            "place 1@a1",
            "place pass",
            "draw 1 2",
            "newgame players 9",
            "position x=y",
            "position startpos moves +1",
            "setoption name Threads value 0",
            "undo x",
        ] {
            let r = reply(&mut engine, bad);
            assert!(r.starts_with('?'), "{bad}: {r}");
            assert_eq!(engine.position(), &before, "{bad}");
        }
        // The generator is restored by undo: the same random draw again.
        reply(&mut engine, "newgame seed 3");
        let first = reply(&mut engine, "draw");
        reply(&mut engine, "undo");
        assert_eq!(reply(&mut engine, "draw"), first);
    }

    #[test]
    fn a_position_line_with_a_turn_too_large_to_go_on_is_refused() {
        // turn=4294967295 was accepted, and the next move overflowed the turn counter (a panic
        // in a build with overflow checks, a wrapped turn=0 that no position line reads otherwise).
        let mut engine = Engine::with_seed(1);
        reply(&mut engine, "position startpos moves +123 1@h8,2@h9,3@h10 +45");
        let line = engine.position().to_line();
        for (turn, ok) in
            [("4294967295", false), ("1000000002", false), ("1000000000", true), ("1000002", true)]
        {
            let r =
                reply(&mut engine, &format!("position {}", line.replace("turn=2", &format!("turn={turn}"))));
            assert_eq!(r.starts_with('='), ok, "turn={turn}: {r}");
            if ok {
                assert!(reply(&mut engine, "place 4@i10,5@i11").starts_with("= points"), "{line}");
            } else {
                assert!(r.starts_with("? invalid_position bad value in field 'turn'"), "{r}");
            }
        }
    }

    /// The move `go` answers, and its score.
    fn go(engine: &mut Engine, args: GoArgs) -> (Move, f64) {
        let Effect::Start(job) = engine.execute(None, Command::Go(args)) else { panic!("go starts a job") };
        match job.run(&AtomicBool::new(false), &mut |_| ()).result {
            Ok(Payload::BestMove { best, score, .. }) => (best, score),
            other => panic!("go answered {other:?}"),
        }
    }

    /// What a move adds to the mover's total in the standings.
    fn standing_gain(pos: &Position, mv: &Move) -> i64 {
        let mut after = pos.clone();
        after.play(mv).expect("a legal move");
        after.standings()[pos.to_move()].total - pos.standings()[pos.to_move()].total
    }

    /// A two-player game of eight turns in which both seats play greedy's move, except seat 2 at
    /// its third turn: a move of fewer points. Checks the models `go` would use before each turn.
    fn watched_game() -> Engine {
        use crate::search::Model;
        let mut engine = Engine::with_seed(1);
        reply(&mut engine, "setoption name Strategy value greedy");
        reply(&mut engine, "newgame seed 4");
        for turn in 0..8 {
            reply(&mut engine, "draw");
            let seat_two = if turn > 5 { Model::Strong } else { Model::Greedy };
            assert_eq!(engine.models(), vec![Model::Greedy, seat_two], "before turn {turn}");
            let mut mv = go(&mut engine, GoArgs::default()).0;
            if turn == 5 {
                let pos = engine.position().clone();
                let best = standing_gain(&pos, &mv);
                let lesser = pos.movegen().legal_moves().into_iter().find(|m| standing_gain(&pos, m) < best);
                mv = lesser.expect("a move of fewer points");
            }
            reply(&mut engine, &format!("place {mv}"));
        }
        reply(&mut engine, "setoption name Strategy value search");
        engine
    }

    /// `go` models a seat as it played in this game: greedy until its first other move, then a
    /// strong player, whose replies cost the mover more; an undo takes that back, and a game
    /// given as a position line has no moves to go by.
    #[test]
    fn go_models_each_seat_by_the_moves_it_played_in_this_game() {
        use crate::search::Model;
        let mut engine = watched_game();
        assert_eq!(engine.models(), vec![Model::Greedy, Model::Strong]);
        reply(&mut engine, "draw");
        let depth_one = GoArgs { depth: Some(1), ..GoArgs::default() };
        let (_, watched) = go(&mut engine, depth_one.clone());
        let line = format!("position {}", engine.position().to_line());
        reply(&mut engine, &line);
        assert_eq!(engine.models(), vec![Model::Greedy; 2], "a position line has no moves");
        let (_, unwatched) = go(&mut engine, depth_one);
        assert!(
            watched < unwatched,
            "a strong opponent's replies cost {watched}, a greedy one's {unwatched}"
        );

        let mut engine = watched_game();
        for _ in 0..5 {
            reply(&mut engine, "undo");
        }
        assert_eq!(engine.models(), vec![Model::Greedy; 2], "the other move was taken back");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        #[test]
        /// Any sequence of lines, jobs included, is answered with one response each, never
        /// `internal`. A `go nodes` job runs to its limit; every other job is stopped at once
        /// (`perft`, `bench`, `go` with no limit).
        /// The numbers at the edges of their types and the long hands are the inputs that once
        /// overflowed (`go depth 3000000000`, a hand of 256 ones).
        fn the_engine_never_panics(lines in proptest::collection::vec(
            prop_oneof![
                "[a-z_]{1,12}( [ -~]{0,30})?",
                proptest::sample::select(vec![
                    "draw", "legal", "legal count", "next", "undo", "score", "show", "position",
                    "status", "history", "go", "go nodes 50", "go nodes 50 depth 3", "perft 2",
                    "newgame variant dice",
                    "newgame variant kids", "newgame players 1 rounds=1", "place pass",
                ]).prop_map(str::to_owned),
                (0u8..10, 0u8..16, 0u16..17).prop_map(|(v, c, r)| {
                    format!("place {v}@{}{r}", char::from(b'a' + c))
                }),
                (
                    proptest::sample::select(vec!["depth", "nodes", "movetime", "time", "inc", "movestogo"]),
                    proptest::sample::select(vec![0u64, 1, 2_147_483_648, 4_294_967_295, u64::MAX]),
                ).prop_map(|(key, n)| format!("go nodes 50 {key} {n}")),
                (250usize..300, 0u8..7).prop_map(|(n, v)| format!(
                    "position variant=dice players=2 turn=1 tomove=1 phase=draw board=1@f6 bag=- hands=-/{} sheets=none;none",
                    v.to_string().repeat(n)
                )),
            ],
            1..40,
        )) {
            // A hand drawn, so that moves, `legal` and `go` have something to work on.
            let mut engine = Engine::with_seed(9);
            reply(&mut engine, "draw");
            for line in lines {
                let answer = answer(&mut engine, &line, !line.starts_with("go nodes"));
                if answer.is_empty() {
                    continue;
                }
                prop_assert!(answer.starts_with('=') || answer.starts_with('?'), "{line}: {answer}");
                prop_assert!(answer.ends_with("\n\n"), "{line}: {answer}");
                prop_assert!(!answer.starts_with("? internal"), "{line}: {answer}");
            }
        }
    }
}
