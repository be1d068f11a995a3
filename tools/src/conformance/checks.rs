//! The checks, in groups: each group runs on a fresh engine process, and a failure that leaves
//! the stream out of step (a timeout, a crash, a broken frame) ends its group only.

use std::time::{Duration, Instant};

use zatre::protocol::replay_command;
use zatre::rules::{Move, Position, Rules, Variant};

use super::sections::{self as s, ERRORS, FRAMING};
use super::session::{Failure, Response, Session};
use super::{Config, Report, Unrunnable};
use crate::referee::{clip, deal_and_play, End, Fault};

type Checked = Result<(), Failure>;

/// A group of checks, run on a fresh engine process.
type Group = fn(&mut Session, &Config, &mut Report) -> Checked;

/// A framing case: the bytes sent, the id the answer echoes, its code and version-3 key, and what
/// it shows.
type FramingCase = (&'static [u8], Option<&'static str>, &'static str, &'static str, &'static str);

/// The commands of version 2 every engine must list (PROTOCOL.md, "Commands").
const REQUIRED: [&str; 27] = [
    "protocol_version",
    "name",
    "version",
    "list_commands",
    "known_command",
    "help",
    "isready",
    "quit",
    "options",
    "setoption",
    "newgame",
    "draw",
    "place",
    "undo",
    "legal",
    "score",
    "show",
    "position",
    "go",
    "stop",
    "perft",
    "bench",
    "geometry",
    "next",
    "status",
    "variants",
    "history",
];

/// The commands the kit checks beyond [`REQUIRED`]: a listed command outside both is noted as
/// not checked.
const CHECKED_V3: [&str; 1] = ["protocol"];

/// How far past `go nodes <n>` an engine may count: a unit of work under way is finished
/// (PROTOCOL.md, `go`), some dozens of moves at the start of a game; this allows far more.
const NODE_SLACK: u64 = 20_000;

/// A command that must fail: the line, the code and the version-3 reason key it must get, and
/// the section that documents it. The table to adjust when the protocol changes.
struct Refusal {
    line: &'static str,
    code: &'static str,
    reason: &'static str,
    section: &'static str,
}

const fn refusal(
    line: &'static str,
    code: &'static str,
    reason: &'static str,
    section: &'static str,
) -> Refusal {
    Refusal { line, code, reason, section }
}

/// Refused at the start of a classic game of two, while the first draw is due.
const WHILE_DRAW_DUE: &[Refusal] = &[
    refusal("status x", "syntax_error", "bad_syntax", s::STATUS),
    refusal("geometry x", "syntax_error", "bad_syntax", s::GEOMETRY),
    refusal("variants x", "syntax_error", "bad_syntax", s::VARIANTS),
    refusal("history x", "syntax_error", "bad_syntax", s::HISTORY),
    refusal("show x", "syntax_error", "bad_syntax", s::SHOW),
    refusal("options x", "syntax_error", "bad_syntax", s::OPTIONS),
    refusal("setoption name", "syntax_error", "bad_syntax", s::OPTIONS),
    refusal("bench x", "syntax_error", "bad_syntax", s::BENCH),
    refusal("isready x", "syntax_error", "bad_syntax", s::ABOUT),
    refusal("stop x", "syntax_error", "bad_syntax", s::STOP),
    refusal("help x", "syntax_error", "bad_syntax", s::ABOUT),
    refusal("version x", "syntax_error", "bad_syntax", s::ABOUT),
    refusal("list_commands x", "syntax_error", "bad_syntax", s::ABOUT),
    refusal("protocol_version x", "syntax_error", "bad_syntax", s::ABOUT),
    refusal("quit x", "syntax_error", "bad_syntax", s::ABOUT),
    refusal("undo x", "syntax_error", "bad_syntax", s::UNDO),
    refusal("legal x", "syntax_error", "bad_syntax", s::LEGAL),
    refusal("score 1@h8 x", "syntax_error", "bad_syntax", s::SCORE),
    refusal("next 1@h8 2@h9", "syntax_error", "bad_syntax", s::NEXT),
    refusal("perft", "syntax_error", "bad_syntax", s::PERFT),
    refusal("name extra", "syntax_error", "bad_syntax", s::ABOUT),
    refusal("known_command", "syntax_error", "bad_syntax", s::ABOUT),
    refusal("newgame players 9", "invalid_argument", "player_count", s::NEWGAME),
    refusal("newgame variant chess", "invalid_argument", "unknown_variant", s::NEWGAME),
    refusal("newgame seed 1 seed 2", "syntax_error", "given_twice", s::NEWGAME),
    refusal("newgame players 3 teams=on", "invalid_argument", "teams_player_count", s::NEWGAME),
    refusal("newgame variant dice center_cross=never", "invalid_argument", "rule_not_in_variant", s::NEWGAME),
    refusal("newgame center_cross=sometimes", "invalid_argument", "bad_rule_value", s::NEWGAME),
    refusal("newgame colour=red", "invalid_argument", "unknown_rule_option", s::NEWGAME),
    refusal("setoption name Hash value 16", "invalid_argument", "unknown_engine_option", s::OPTIONS),
    refusal("setoption name Threads value 0", "invalid_argument", "bad_option_value", s::OPTIONS),
    refusal("draw x", "syntax_error", "bad_syntax", s::DRAW),
    refusal("draw 1 2", "illegal_draw", "draw_count", s::DRAW),
    refusal("draw 7 1 2", "invalid_argument", "not_a_tile", s::DRAW),
    refusal("place 1@h8,2@h9,3@h10", "illegal_move", "draw_due", s::PLACE),
    refusal("place 1@a1", "invalid_argument", "not_a_cell", s::PLACE),
    refusal("place 1@h-1", "syntax_error", "bad_syntax", ERRORS),
    refusal("legal", "illegal_move", "draw_due", s::LEGAL),
    refusal("legal count", "illegal_move", "draw_due", s::LEGAL),
    refusal("next", "illegal_move", "draw_due", s::NEXT),
    refusal("go nodes 10", "illegal_move", "draw_due", s::GO),
    refusal("go depth -1", "syntax_error", "bad_syntax", s::GO),
    refusal("perft 1001", "invalid_argument", "out_of_range", s::PERFT),
    refusal("perft x", "syntax_error", "bad_syntax", s::PERFT),
    refusal("undo", "cannot_undo", "nothing_to_undo", s::UNDO),
    refusal("score 1@a1", "invalid_argument", "not_a_cell", s::SCORE),
    refusal("position variant=classic", "invalid_position", "missing_field", s::POSITION),
    refusal("position bag=", "syntax_error", "bad_syntax", s::POSITION),
    refusal("position startpos players 9", "invalid_argument", "player_count", s::POSITION),
    refusal("position startpos moves 5@h8", "invalid_position", "replay_failed", s::POSITION),
    refusal("fly", "unknown_command", "unknown_command", ERRORS),
];

/// Refused in version 3 only, while the first draw is due: where version 2 answers otherwise
/// or has no such command.
const WHILE_DRAW_DUE_V3: &[Refusal] = &[
    refusal("protocol", "syntax_error", "bad_syntax", s::VERSION_3),
    refusal("go inc 5", "invalid_argument", "clock_arguments", s::VERSION_3),
    refusal("protocol 4", "invalid_argument", "unsupported_version", s::VERSION_3),
];

/// Refused in version 2 only, while the first draw is due: `go` checks the phase first.
const WHILE_DRAW_DUE_V2: &[Refusal] = &[refusal("go inc 5", "illegal_move", "draw_due", s::GO)];

/// Refused after `draw 1 2 3` at the start of a classic game of two.
const WITH_HAND_123: &[Refusal] = &[
    refusal("draw", "illegal_draw", "move_due", s::DRAW),
    refusal("place 1@h9,2@h10,3@h11", "illegal_move", "off_centre", s::PLACE),
    refusal("place 3@h8", "illegal_move", "too_few", s::PLACE),
    refusal("place 4@h8,1@h9,2@h10", "illegal_move", "not_in_hand", s::PLACE),
    refusal("place 1@h8,2@h10,3@h12", "illegal_move", "not_adjacent", s::PLACE),
    refusal("place pass", "illegal_move", "pass_while_fits", s::PLACE),
    refusal("place 1@h8 3@h9", "syntax_error", "bad_syntax", s::PLACE),
    refusal("score 3@h8", "illegal_move", "too_few", s::SCORE),
    refusal("next 5@h8", "illegal_move", "not_in_hand", s::NEXT),
    refusal("next 1@a1", "invalid_argument", "not_a_cell", s::NEXT),
    refusal("go searchmoves 1@h8", "illegal_move", "too_few", s::GO),
];

/// Runs every group.
pub fn run(config: &Config) -> Result<super::Report, Unrunnable> {
    let mut report = Report::default();
    let version = start(config, &mut report)?;
    report.version = version;
    let groups: [(&str, Group); 9] = [
        ("framing", framing),
        ("bad input", bad_input),
        ("commands", commands),
        ("refusals", refusals),
        ("go", go),
        ("reads while go runs", reads_while_go_runs),
        ("quit", quit),
        ("end of input", end_of_input),
        ("a game to its end", game),
    ];
    for (name, group) in groups {
        match Session::start(&config.engine, version, config.timeout) {
            Ok(mut session) => {
                let result = group(&mut session, config, &mut report);
                if result.is_err() {
                    report.check(format!("{name}: the group ran to its end"), result);
                }
            }
            Err(fault) => {
                let section = if version == 3 { s::VERSION_3 } else { s::ABOUT };
                report.check(
                    format!("{name}: a fresh process starts"),
                    Err(Failure::new(section, fault.to_string())),
                );
            }
        }
    }
    Ok(report)
}

/// The first contact: `isready`, then the version: `protocol 3` unless version 2 was asked for.
fn start(config: &Config, report: &mut Report) -> Result<u8, Unrunnable> {
    let mut session =
        Session::start(&config.engine, 2, config.timeout).map_err(|f| Unrunnable(f.to_string()))?;
    session.send("1 isready").map_err(|f| Unrunnable(f.what))?;
    let first = match session.response(Some("1"), false, s::ABOUT) {
        // No line at all: nothing runs that could be checked.
        Err(f) if f.section == s::ABOUT => return Err(Unrunnable(f.what)),
        other => other,
    };
    report.check("start: isready answers readyok", first.and_then(|r| payload_is(&r, "readyok", s::ABOUT)));
    let version = match config.protocol {
        Some(2) => 2,
        wanted => {
            let answer = session.ask("protocol 3", s::VERSION_3);
            let accepted = matches!(&answer, Ok(r) if r.ok);
            let result = match (&answer, wanted) {
                (Ok(r), _) if r.ok => payload_is(r, "3", s::VERSION_3),
                (Ok(r), None) if r.code() == Some("unknown_command") => Ok(()),
                (Ok(r), _) => Err(Failure::new(s::VERSION_3, format!("protocol 3 answered {}", r.shown()))),
                (Err(f), _) => Err(f.clone()),
            };
            report.check("start: protocol 3 is accepted or an unknown command", result);
            if accepted {
                3
            } else {
                2
            }
        }
    };
    let answer = session.ask("protocol_version", s::ABOUT);
    report.check(
        format!("start: protocol_version answers {version}"),
        answer.and_then(|r| payload_is(&r, &version.to_string(), s::ABOUT)),
    );
    Ok(version)
}

/// A success whose payload is exactly `want`.
fn payload_is(r: &Response, want: &str, section: &'static str) -> Checked {
    if r.ok && r.text() == want {
        Ok(())
    } else {
        Err(Failure::new(section, format!("{} instead of '={} {want}'", r.shown(), r.id)))
    }
}

/// A success whose first payload line starts with `prefix`.
fn starts(r: &[String], prefix: &str, section: &'static str, command: &str) -> Checked {
    match r.first() {
        Some(first) if first.starts_with(prefix) => Ok(()),
        other => Err(Failure::new(
            section,
            format!("{command} answered '{}', not '{prefix}...'", clip(other.map_or("", String::as_str))),
        )),
    }
}

/// An error response with `code` and, in version 3, `reason`.
fn refused(
    r: &Response,
    version: u8,
    code: &str,
    reason: &str,
    section: &'static str,
    line: &str,
) -> Checked {
    let fits = !r.ok && r.code() == Some(code) && (version < 3 || r.reason() == Some(reason));
    if fits {
        return Ok(());
    }
    let want = if version < 3 { code.to_string() } else { format!("{code} {reason}") };
    Err(Failure::new(section, format!("'{}' answered {}, not '?{} {want} ...'", clip(line), r.shown(), r.id)))
}

fn framing(e: &mut Session, _: &Config, report: &mut Report) -> Checked {
    let v = e.version;
    e.send("007 isready")?;
    let r = e.response(Some("007"), false, FRAMING)?;
    report.check("framing: an id is echoed as written (007)", payload_is(&r, "readyok", FRAMING));
    e.send("0 isready")?;
    let r = e.response(Some("0"), false, FRAMING)?;
    report.check("framing: 0 is an id", payload_is(&r, "readyok", FRAMING));
    e.send("isready")?;
    let r = e.response(None, false, FRAMING)?;
    report.check(
        "framing: a command without an id is answered without one",
        payload_is(&r, "readyok", FRAMING),
    );
    e.send_raw(b"8\tname \t \r\n")?;
    let r = e.response(Some("8"), false, FRAMING)?;
    let named = if r.ok && !r.text().is_empty() { Ok(()) } else { Err(Failure::new(FRAMING, r.shown())) };
    report.check("framing: tabs, blanks and a trailing \\r are allowed", named);
    // Ignored lines get no answer: the next response must be the isready's.
    e.send_raw(b"\n \t \n# a comment\n   # another\n9 isready\n")?;
    let r = e.response(Some("9"), false, FRAMING)?;
    report.check("framing: empty, blank and # lines get no response", payload_is(&r, "readyok", FRAMING));
    let cases: [FramingCase; 4] = [
        (b"1234567890 name\n", None, "syntax_error", "bad_id", "an id of 10 digits is refused without an id"),
        (b"42\n", Some("42"), "syntax_error", "missing_command", "an id alone is a syntax error"),
        (b"-1 isready\n", None, "unknown_command", "unknown_command", "-1 is a command word, not an id"),
        (b"10 NAME\n", Some("10"), "unknown_command", "unknown_command", "command words are case-sensitive"),
    ];
    for (line, id, code, reason, name) in cases {
        e.send_raw(line)?;
        let r = e.response(id, false, FRAMING)?;
        let text = String::from_utf8_lossy(line);
        report.check(format!("framing: {name}"), refused(&r, v, code, reason, FRAMING, text.trim_end()));
    }
    // Pipelined commands are answered in order.
    e.send_raw(b"11 name\n12 version\n13 isready\n14 protocol_version\n15 known_command name\n")?;
    let mut in_order = Ok(());
    for id in ["11", "12", "13", "14", "15"] {
        let r = e.response(Some(id), false, FRAMING)?;
        if !r.ok {
            in_order = Err(Failure::new(FRAMING, format!("pipelined command {id} answered {}", r.shown())));
        }
    }
    report.check("framing: pipelined commands are answered in order", in_order);
    if v >= 3 {
        let back = e.ask("protocol 2", s::VERSION_3)?;
        let spoken = e.ask("protocol_version", s::VERSION_3)?;
        let again = e.ask("protocol 3", s::VERSION_3)?;
        let result = payload_is(&back, "2", s::VERSION_3)
            .and_then(|()| payload_is(&spoken, "2", s::VERSION_3))
            .and_then(|()| payload_is(&again, "3", s::VERSION_3));
        report.check("framing: protocol 2 goes back to version 2, protocol 3 forward again", result);
    }
    Ok(())
}

fn bad_input(e: &mut Session, _: &Config, report: &mut Report) -> Checked {
    let v = e.version;
    e.send_raw(b"5 n\xffme\n")?;
    let r = e.response(None, false, FRAMING)?;
    report.check(
        "bad input: a line that is not UTF-8 is a syntax error without an id",
        refused(&r, v, "syntax_error", "not_utf8", FRAMING, "5 n\\xffme"),
    );
    let mut long = b"6 known_command ".to_vec();
    long.resize(65_600, b'x');
    long.push(b'\n');
    e.send_raw(&long)?;
    let r = e.response(None, false, FRAMING)?;
    report.check(
        "bad input: a line over 65536 bytes is a syntax error without an id",
        refused(&r, v, "syntax_error", "line_too_long", FRAMING, "6 known_command {65600*x}"),
    );
    let mut longest = b"7 known_command ".to_vec();
    longest.resize(65_536, b'x');
    longest.extend_from_slice(b"\r\n");
    e.send_raw(&longest)?;
    let r = e.response(Some("7"), false, FRAMING)?;
    report.check(
        "bad input: a line of exactly 65536 bytes (and \\r) is read",
        payload_is(&r, "false", FRAMING),
    );
    e.send("8 isready")?;
    let r = e.response(Some("8"), false, FRAMING)?;
    report.check("bad input: the engine goes on after them", payload_is(&r, "readyok", FRAMING));
    Ok(())
}

fn commands(e: &mut Session, _: &Config, report: &mut Report) -> Checked {
    let listed = e.ok("list_commands", s::ABOUT)?;
    let help = e.ok("help", s::ABOUT)?;
    let mut required: Vec<&str> = REQUIRED.to_vec();
    if e.version >= 3 {
        required.extend(CHECKED_V3);
    }
    let missing: Vec<&str> = required.iter().copied().filter(|w| !listed.iter().any(|l| l == w)).collect();
    report.check(
        "commands: list_commands lists every command of PROTOCOL.md",
        if missing.is_empty() {
            Ok(())
        } else {
            Err(Failure::new(s::ABOUT, format!("missing: {}", missing.join(", "))))
        },
    );
    for word in &listed {
        if word.is_empty() || word.contains(char::is_whitespace) {
            report.check(
                "commands: list_commands gives one word a line",
                Err(Failure::new(s::ABOUT, format!("'{}'", clip(word)))),
            );
            continue;
        }
        let known = e.ask(&format!("known_command {word}"), s::ABOUT)?;
        let helped = help.iter().any(|l| l.split_whitespace().next() == Some(word));
        let result = payload_is(&known, "true", s::ABOUT).and_then(|()| {
            if helped {
                Ok(())
            } else {
                Err(Failure::new(s::ABOUT, format!("help has no line for '{}'", clip(word))))
            }
        });
        report.check(format!("commands: {word} is a known command with a help line"), result);
        if !required.contains(&word.as_str()) && !CHECKED_V3.contains(&word.as_str()) {
            report.notes.push(format!("the command '{}' is not checked by this kit", clip(word)));
        }
    }
    let unlisted: Vec<&str> = help
        .iter()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| !listed.iter().any(|l| l == w))
        .collect();
    report.check(
        "commands: every help line is of a listed command",
        if unlisted.is_empty() {
            Ok(())
        } else {
            Err(Failure::new(s::ABOUT, format!("help has lines for {}", clip(&unlisted.join(", ")))))
        },
    );
    let r = e.ask("known_command fly", s::ABOUT)?;
    report.check("commands: known_command fly is false", payload_is(&r, "false", s::ABOUT));
    for (command, want) in [("name", None), ("version", None), ("isready", Some("readyok"))] {
        let r = e.ask(command, s::ABOUT)?;
        let result = match want {
            Some(want) => payload_is(&r, want, s::ABOUT),
            None if r.ok && r.lines.len() == 1 => Ok(()),
            None => Err(Failure::new(s::ABOUT, format!("{command} answered {}", r.shown()))),
        };
        report.check(format!("commands: {command} answers one line"), result);
    }
    let options = e.ok("options", s::OPTIONS)?;
    let all_options = options.iter().all(|l| l.starts_with("option name "));
    report.check(
        "commands: options lists option lines",
        if all_options && !options.is_empty() {
            Ok(())
        } else {
            Err(Failure::new(s::OPTIONS, format!("'{}'", clip(&options.join(" | ")))))
        },
    );
    let steps: [(&str, &str, &'static str); 10] = [
        ("setoption name Threads value 1", "", s::OPTIONS),
        ("newgame seed 1", "", s::NEWGAME),
        ("status", "phase draw turn 1 tomove 1 due 3", s::STATUS),
        ("position", "variant=classic players=2 ", s::POSITION),
        ("geometry", "columns 15 rows 15 centre h8", s::GEOMETRY),
        ("variants", "variant classic ", s::VARIANTS),
        ("history", "startpos", s::HISTORY),
        ("score", "player 1 ", s::SCORE),
        ("perft 0", "1", s::PERFT),
        ("show", "", s::SHOW),
    ];
    for (command, prefix, section) in steps {
        let lines = e.ok(command, section)?;
        let result = if prefix.is_empty() && command != "show" {
            if lines.is_empty() {
                Ok(())
            } else {
                Err(Failure::new(section, format!("{command} has no payload, not '{}'", clip(&lines[0]))))
            }
        } else {
            starts(&lines, prefix, section, command)
        };
        report.check(format!("commands: {command} answers '{prefix}...'"), result);
    }
    let geometry = e.ok("geometry", s::GEOMETRY)?;
    let shaped =
        geometry.len() == 3 && geometry[1].starts_with("cells ") && geometry[2].starts_with("extra ");
    report.check(
        "commands: geometry has its columns, cells and extra lines",
        if shaped { Ok(()) } else { Err(Failure::new(s::GEOMETRY, clip(&geometry.join(" | ")))) },
    );
    let variants = e.ok("variants", s::VARIANTS)?;
    let named = ["classic", "dice", "kids"]
        .iter()
        .all(|v| variants.iter().any(|l| l.starts_with(&format!("variant {v} "))));
    // Version 3 adds a `preset` line per preset of a variant.
    let lines_fit = variants.iter().all(|l| {
        l.starts_with("variant ") || l.starts_with("rule ") || (e.version >= 3 && l.starts_with("preset "))
    });
    report.check(
        "commands: variants has a block for classic, dice and kids",
        if named && lines_fit { Ok(()) } else { Err(Failure::new(s::VARIANTS, clip(&variants.join(" | ")))) },
    );
    let scores = e.ok("score", s::SCORE)?;
    let two = scores.len() == 2 && scores[1].starts_with("player 2 ");
    report.check(
        "commands: score has a line per player",
        if two { Ok(()) } else { Err(Failure::new(s::SCORE, clip(&scores.join(" | ")))) },
    );
    let drawn = e.ok("draw 1 2 3", s::DRAW)?;
    report.check("commands: draw 1 2 3 answers the hand 1 2 3", hand_is(&drawn, "123"));
    let status = e.ok("status", s::STATUS)?;
    report.check(
        "commands: status after the draw",
        starts(&status, "phase place turn 1 tomove 1 due 0", s::STATUS, "status"),
    );
    let count = e.ok("legal count", s::LEGAL)?;
    let listed = e.ok("legal", s::LEGAL)?;
    let n: Option<usize> = count.first().and_then(|c| c.parse().ok());
    let listing = match n {
        Some(n) if n > 0 && n == listed.len() && count.len() == 1 => Ok(()),
        _ => Err(Failure::new(
            s::LEGAL,
            format!("legal count '{}' against {} moves listed", clip(&count.join(" ")), listed.len()),
        )),
    };
    report.check("commands: legal lists as many moves as legal count counts", listing);
    let next = e.ok("next", s::NEXT)?;
    let next_shape = next.len() == 2 && next[0] == "complete no" && next[1].starts_with("next ");
    report.check(
        "commands: next answers complete and next",
        if next_shape { Ok(()) } else { Err(Failure::new(s::NEXT, clip(&next.join(" | ")))) },
    );
    let scored = e.ok("score 1@h8,2@h9,3@h10", s::SCORE)?;
    report.check("commands: score <move> answers points and crosses", points_and_crosses(&scored, s::SCORE));
    let before = e.ok("position", s::POSITION)?;
    let placed = e.ok("place 1@h8,2@h9,3@h10", s::PLACE)?;
    report.check("commands: place answers points and crosses", points_and_crosses(&placed, s::PLACE));
    e.ok("undo", s::UNDO)?;
    let after = e.ok("position", s::POSITION)?;
    report.check(
        "commands: undo takes the move back",
        if before == after {
            Ok(())
        } else {
            Err(Failure::new(s::UNDO, "the position differs after place, undo"))
        },
    );
    e.ok("place 1@h8,2@h9,3@h10", s::PLACE)?;
    let line = e.ok("position", s::POSITION)?.join(" ");
    e.ok(&format!("position {line}"), s::POSITION)?;
    let again = e.ok("position", s::POSITION)?.join(" ");
    report.check(
        "commands: a printed position line reads back as itself",
        if again == line {
            Ok(())
        } else {
            Err(Failure::new(s::POSITION_LINE, format!("'{}' read back as '{}'", clip(&line), clip(&again))))
        },
    );
    e.ok("position startpos seed 3 moves +566 5@h8,6@h9,6@i9", s::POSITION)?;
    let replayed = e.ok("position", s::POSITION)?.join(" ");
    report.check(
        "commands: position startpos replays its moves",
        if replayed.contains(" board=5@h8,6@h9,6@i9 ") {
            Ok(())
        } else {
            Err(Failure::new(s::POSITION, clip(&replayed)))
        },
    );
    e.ok("undo", s::UNDO)?;
    e.ok("undo", s::UNDO)?;
    let r = e.ask("undo", s::UNDO)?;
    report.check(
        "commands: undo takes back the replayed tokens, then no more",
        refused(&r, e.version, "cannot_undo", "nothing_to_undo", s::UNDO, "undo"),
    );
    Ok(())
}

/// The hand of a `draw` answer by its values, whatever the separators.
fn hand_is(lines: &[String], values: &str) -> Checked {
    let digits: String = lines.join(" ").chars().filter(|c| !c.is_whitespace()).collect();
    if lines.len() == 1 && digits == values {
        Ok(())
    } else {
        Err(Failure::new(s::DRAW, format!("draw answered '{}'", clip(&lines.join(" | ")))))
    }
}

/// A `place` or `score <move>` answer: `points <n> crosses <k>` first (version 3 may add fields).
fn points_and_crosses(lines: &[String], section: &'static str) -> Checked {
    let words: Vec<&str> = lines.first().map(|l| l.split_whitespace().collect()).unwrap_or_default();
    let fits = words.len() >= 4
        && words[0] == "points"
        && words[1].parse::<u32>().is_ok()
        && words[2] == "crosses"
        && words[3].parse::<u32>().is_ok();
    if fits {
        Ok(())
    } else {
        Err(Failure::new(section, format!("'{}', not 'points <n> crosses <k>'", clip(&lines.join(" | ")))))
    }
}

fn refusals(e: &mut Session, _: &Config, report: &mut Report) -> Checked {
    let v = e.version;
    e.ok("newgame seed 1", s::NEWGAME)?;
    let extra: &[Refusal] = if v >= 3 { WHILE_DRAW_DUE_V3 } else { WHILE_DRAW_DUE_V2 };
    refuse_all(e, report, WHILE_DRAW_DUE.iter().chain(extra))?;
    e.ok("draw 1 2 3", s::DRAW)?;
    refuse_all(e, report, WITH_HAND_123.iter())
}

/// Sends each refused line, checks its code (and key) and that it changed nothing.
fn refuse_all<'a>(e: &mut Session, report: &mut Report, cases: impl Iterator<Item = &'a Refusal>) -> Checked {
    for case in cases {
        let before = e.ok("position", s::POSITION)?;
        let r = e.ask(case.line, case.section)?;
        let mut result = refused(&r, e.version, case.code, case.reason, case.section, case.line);
        if result.is_ok() {
            let after = e.ok("position", s::POSITION)?;
            if after != before {
                result =
                    Err(Failure::new(ERRORS, format!("the refused '{}' changed the position", case.line)));
            }
        }
        report.check(format!("refusals: {} is {}", case.line, case.code), result);
    }
    Ok(())
}

/// The classic position after `draw 1 2 3` at the start, as the rules core has it.
fn start_with_123() -> Result<Position, Failure> {
    let rules = Rules::new(Variant::Classic, 2).map_err(|e| Failure::new(s::NEWGAME, e.to_string()))?;
    let mut position = Position::new(rules);
    position.draw(&[1, 2, 3]).map_err(|e| Failure::new(s::DRAW, e.to_string()))?;
    Ok(position)
}

/// A `bestmove <move> score <s> nodes <n>` answer whose move is legal in `position`: the nodes.
fn bestmove(r: &Response, position: &Position) -> Result<(Move, u64), Failure> {
    let words: Vec<&str> = r.lines.first().map(|l| l.split_whitespace().collect()).unwrap_or_default();
    let shaped = r.ok
        && r.lines.len() == 1
        && words.len() >= 6
        && words[0] == "bestmove"
        && words[2] == "score"
        && words[3].parse::<f64>().is_ok()
        && words[4] == "nodes";
    let nodes = words.get(5).and_then(|n| n.parse::<u64>().ok());
    let (true, Some(nodes)) = (shaped, nodes) else {
        return Err(Failure::new(s::GO, format!("{}, not 'bestmove <move> score <s> nodes <n>'", r.shown())));
    };
    let mv = Move::parse(position.board().geometry(), words[1])
        .map_err(|e| Failure::new(s::GO, format!("bestmove '{}' does not parse: {e}", clip(words[1]))))?;
    position
        .check(&mv)
        .map_err(|e| Failure::new(s::GO, format!("bestmove '{}' is illegal: {e}", clip(words[1]))))?;
    Ok((mv, nodes))
}

/// Each `info` line of a `go` with id `id`: `depth`, `nodes` and `pv` fields, and in version 3
/// `info id <id>` first.
fn info_lines(r: &Response, version: u8, id: &str) -> Checked {
    for line in &r.info {
        let words: Vec<&str> = line.split_whitespace().collect();
        let has = |k: &str| words.contains(&k);
        let named = version < 3 || (words.get(1) == Some(&"id") && words.get(2) == Some(&id));
        if !(has("depth") && has("nodes") && has("pv") && named) {
            let section = if named { s::GO } else { s::VERSION_3 };
            return Err(Failure::new(section, format!("info line '{}'", clip(line))));
        }
    }
    Ok(())
}

fn go(e: &mut Session, config: &Config, report: &mut Report) -> Checked {
    let position = start_with_123()?;
    e.ok("newgame seed 1", s::NEWGAME)?;
    e.ok("draw 1 2 3", s::DRAW)?;
    let movetime = Duration::from_millis(300);
    let id = e.fresh_id();
    e.send(&format!("{id} go movetime {}", movetime.as_millis()))?;
    let asked = Instant::now();
    let r = e.response_within(movetime + config.tolerance, Some(&id), true, s::GO)?;
    let waited = asked.elapsed();
    report.check("go: go movetime answers a legal bestmove", bestmove(&r, &position).map(|_| ()));
    report.check("go: info lines carry depth, nodes and pv", info_lines(&r, e.version, &id));
    report.check(
        format!("go: movetime 300 is answered within {} ms", (movetime + config.tolerance).as_millis()),
        if waited <= movetime + config.tolerance {
            Ok(())
        } else {
            Err(Failure::new(s::GO, format!("answered after {} ms", waited.as_millis())))
        },
    );
    let limit = 2000;
    let id = e.fresh_id();
    e.send(&format!("{id} go nodes {limit}"))?;
    let r = e.response(Some(&id), true, s::GO)?;
    let result = bestmove(&r, &position).and_then(|(_, nodes)| {
        if nodes <= limit + NODE_SLACK {
            Ok(())
        } else {
            Err(Failure::new(s::GO, format!("go nodes {limit} counted {nodes} nodes")))
        }
    });
    report.check(format!("go: go nodes {limit} stays within {} nodes", limit + NODE_SLACK), result);
    let id = e.fresh_id();
    e.send(&format!("{id} go depth 1"))?;
    let r = e.response(Some(&id), true, s::GO)?;
    report.check("go: go depth 1 answers a legal bestmove", bestmove(&r, &position).map(|_| ()));
    for (job, section) in [("bench", s::BENCH), ("perft 6", s::PERFT)] {
        let result = stopped_job(e, job, section);
        report.check(format!("stop: a {job} stopped answers what it has"), result);
    }
    e.send("go depth 1")?;
    let r = e.response(None, true, s::GO)?;
    let plain = r.info.iter().all(|l| l.split_whitespace().nth(1) != Some("id"));
    report.check(
        "go: a go without an id answers without one, its info lines without an id field",
        bestmove(&r, &position).and_then(|_| {
            if plain {
                Ok(())
            } else {
                Err(Failure::new(s::GO, format!("info line '{}'", clip(&r.info.join(" | ")))))
            }
        }),
    );
    let after = e.ok("position", s::POSITION)?.join(" ");
    report.check(
        "go: go never changes the game",
        if after.contains(" phase=place ") && after.contains(" board=- ") {
            Ok(())
        } else {
            Err(Failure::new(s::GO, format!("position after go: '{}'", clip(&after))))
        },
    );
    Ok(())
}

fn reads_while_go_runs(e: &mut Session, config: &Config, report: &mut Report) -> Checked {
    let position = start_with_123()?;
    let v = e.version;
    e.ok("newgame seed 1", s::NEWGAME)?;
    e.ok("draw 1 2 3", s::DRAW)?;
    let go_id = e.fresh_id();
    e.send(&format!("{go_id} go infinite"))?;
    // Everything read while the go runs may have info lines before it.
    fn read(e: &mut Session, command: &str, section: &'static str) -> Result<Response, Failure> {
        let id = e.fresh_id();
        e.send(&format!("{id} {command}"))?;
        e.response(Some(&id), true, section)
    }
    let r = read(e, "isready", FRAMING)?;
    report.check("while go runs: isready answers at once", payload_is(&r, "readyok", FRAMING));
    let r = read(e, "position", FRAMING)?;
    report.check(
        "while go runs: position is answered",
        if r.ok && r.text().starts_with("variant=") { Ok(()) } else { Err(Failure::new(FRAMING, r.shown())) },
    );
    let r = read(e, "legal count", FRAMING)?;
    report.check(
        "while go runs: legal count is answered",
        if r.ok && r.text().parse::<u64>().is_ok() { Ok(()) } else { Err(Failure::new(FRAMING, r.shown())) },
    );
    for line in [
        "place 1@h8,2@h9,3@h10",
        "newgame",
        "go nodes 10",
        "setoption name Threads value 1",
        "perft 1",
        "bench",
    ] {
        let r = read(e, line, FRAMING)?;
        report.check(format!("while go runs: {line} is busy"), refused(&r, v, "busy", "busy", FRAMING, line));
    }
    // An infinite go waits for stop: nothing but info lines meanwhile.
    let until = Instant::now() + Duration::from_millis(300);
    let mut waited = Ok(());
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        match e.line_within(left, "nothing", s::GO) {
            Ok(line) if line.starts_with("info ") => {}
            Ok(line) => {
                waited = Err(Failure::new(s::GO, format!("'{}' before stop", clip(&line))));
                break;
            }
            Err(_) => break,
        }
    }
    report.check("while go runs: go infinite waits for stop", waited);
    let stop = e.fresh_id();
    e.send(&format!("{stop} stop"))?;
    let mut answered = Vec::new();
    for _ in 0..2 {
        let r = e.response_of(config.timeout, &[&stop, &go_id], true, s::STOP);
        match r {
            Ok(r) => answered.push(r),
            Err(f) => {
                let what = if answered.is_empty() { "stop" } else { "the go that stop ends" };
                report.check(format!("stop: {what} is answered"), Err(Failure::new(s::STOP, f.what)));
                return Ok(());
            }
        }
    }
    let stopped = answered.iter().find(|r| r.id == stop);
    let best = answered.iter().find(|r| r.id == go_id);
    report.check(
        "stop: answered with no payload",
        match stopped {
            Some(r) if r.ok && r.lines.is_empty() => Ok(()),
            Some(r) => Err(Failure::new(s::STOP, r.shown())),
            None => Err(Failure::new(s::STOP, "stop got no answer of its own")),
        },
    );
    report.check(
        "stop: the stopped go answers a legal bestmove",
        match best {
            Some(r) => bestmove(r, &position).map(|_| ()),
            None => Err(Failure::new(s::STOP, "the go got no answer")),
        },
    );
    let r = e.ask("isready", FRAMING)?;
    report.check("stop: the engine is in step afterwards", payload_is(&r, "readyok", FRAMING));
    let r = e.ask("stop", s::STOP)?;
    report.check(
        "stop: accepted when nothing runs",
        if r.ok && r.lines.is_empty() { Ok(()) } else { Err(Failure::new(s::STOP, r.shown())) },
    );
    Ok(())
}

fn quit(e: &mut Session, config: &Config, report: &mut Report) -> Checked {
    e.ok("isready", FRAMING)?;
    e.send_raw(b"9 quit\n10 isready\n11 name\n")?;
    let r = e.response(Some("9"), false, FRAMING)?;
    report.check(
        "quit: answered with no payload",
        if r.ok && r.lines.is_empty() { Ok(()) } else { Err(Failure::new(FRAMING, r.shown())) },
    );
    report.check(
        "quit: the lines after it get no answer",
        e.silent_for(Duration::from_millis(500))
            .map_err(|line| Failure::new(FRAMING, format!("'{}' after quit", clip(&line)))),
    );
    report.check("quit: the engine exits with status 0", exits(e, config));
    // quit while a go runs: the go's answer first, then quit's.
    let mut e = Session::start(&config.engine, e.version, config.timeout)
        .map_err(|f| Failure::new(FRAMING, f.to_string()))?;
    let position = start_with_123()?;
    e.ok("newgame seed 1", s::NEWGAME)?;
    e.ok("draw 1 2 3", s::DRAW)?;
    e.send("20 go infinite\n21 quit")?;
    let r = e.response(Some("20"), true, FRAMING)?;
    report.check("quit: a running go is stopped and answered first", bestmove(&r, &position).map(|_| ()));
    let r = e.response(Some("21"), true, FRAMING)?;
    report.check(
        "quit: then quit is answered",
        if r.ok && r.lines.is_empty() { Ok(()) } else { Err(Failure::new(FRAMING, r.shown())) },
    );
    report.check("quit: and the engine exits with status 0", exits(&mut e, config));
    Ok(())
}

/// `job` then `stop` at once: both answered (in either order), the job with its figures, ending
/// in `stopped` when the stop came before its end (`bench`: `nodes <n> nps <n>`; `perft`: a
/// count).
fn stopped_job(e: &mut Session, job: &str, section: &'static str) -> Checked {
    let (job_id, stop_id) = (e.fresh_id(), e.fresh_id());
    e.send(&format!("{job_id} {job}\n{stop_id} stop"))?;
    let timeout = e.timeout;
    let mut answer = None;
    for _ in 0..2 {
        let r = e.response_of(timeout, &[&job_id, &stop_id], false, section)?;
        if r.id == job_id {
            answer = Some(r);
        }
    }
    let r = answer.ok_or_else(|| Failure::new(section, format!("{job} got no answer")))?;
    let words: Vec<&str> = r.lines.first().map(|l| l.split_whitespace().collect()).unwrap_or_default();
    let figures = match words.last() {
        Some(&"stopped") => &words[..words.len() - 1],
        _ => &words[..],
    };
    let number = |w: &&str| w.parse::<u64>().is_ok();
    let fits = r.ok
        && r.lines.len() == 1
        && match job {
            "bench" => {
                figures.len() == 4
                    && figures[0] == "nodes"
                    && figures[2] == "nps"
                    && figures.iter().skip(1).step_by(2).all(number)
            }
            _ => figures.len() == 1 && figures.iter().all(number),
        };
    if fits {
        Ok(())
    } else {
        Err(Failure::new(section, format!("{job} stopped answered {}", r.shown())))
    }
}

/// The engine exits with status 0 within the read timeout.
fn exits(e: &mut Session, config: &Config) -> Checked {
    match e.wait_exit(config.timeout) {
        Some(0) => Ok(()),
        Some(code) => Err(Failure::new(FRAMING, format!("exited with status {code}"))),
        None => Err(Failure::new(FRAMING, format!("still runs {} ms after", config.timeout.as_millis()))),
    }
}

fn end_of_input(e: &mut Session, config: &Config, report: &mut Report) -> Checked {
    e.send_raw(b"1 isready\n2 known_command name")?;
    e.close_stdin();
    let r = e.response(Some("1"), false, FRAMING)?;
    report.check("end of input: the lines read are answered", payload_is(&r, "readyok", FRAMING));
    let r = e.response(Some("2"), false, FRAMING)?;
    report.check("end of input: a last line without \\n is a command", payload_is(&r, "true", FRAMING));
    report.check("end of input: the engine exits with status 0", exits(e, config));
    Ok(())
}

/// A game of two of each variant to its end, the kit dealing the draws and judging every
/// `bestmove` with the rules core; the engine is told the game with `position startpos ... moves
/// ...` each turn.
fn game(e: &mut Session, config: &Config, report: &mut Report) -> Checked {
    for variant in [Variant::Classic, Variant::Dice, Variant::Kids] {
        game_of(e, config, report, variant)?;
    }
    Ok(())
}

/// A game of two of `variant` to its end (see [`game`]).
fn game_of(e: &mut Session, config: &Config, report: &mut Report, variant: Variant) -> Checked {
    let rules = Rules::new(variant, 2).map_err(|err| Failure::new(s::NEWGAME, err.to_string()))?;
    let args = format!("variant {variant} players 2 seed {}", config.seed);
    let mut failure = None;
    let played = deal_and_play(&rules, config.seed, &args, Instant::now(), |_, position, _, tokens| {
        let asked = (|| {
            e.ok(&replay_command(&args, tokens), s::POSITION)?;
            let id = e.fresh_id();
            e.send(&format!("{id} go nodes 300"))?;
            let r = e.response(Some(&id), true, s::GO)?;
            bestmove(&r, position)
        })();
        asked.map(|(mv, _)| (mv, Duration::ZERO)).map_err(|f| {
            let what = f.what.clone();
            failure = Some(f);
            Fault::Error(what)
        })
    });
    let result = match (&played.end, failure) {
        (_, Some(f)) => Err(f),
        (End::Normal, None) => Ok(()),
        (End::Fault { fault, .. }, None) => Err(Failure::new(s::GO, fault.to_string())),
        (End::Aborted(why), None) => Err(Failure::new(s::GO, format!("the kit's own draw failed: {why}"))),
    };
    if !report.check(
        format!("game: a {variant} game plays to its end with legal moves ({} moves)", played.moves),
        result,
    ) {
        return Ok(());
    }
    e.ok(&played.replay, s::POSITION)?;
    let status = e.ok("status", s::STATUS)?;
    let over = status.first().is_some_and(|l| l.starts_with("phase over "))
        && status.get(1).is_some_and(|l| l.starts_with("end "));
    report.check(
        format!("game: {variant}: status says the game is over and why"),
        if over { Ok(()) } else { Err(Failure::new(s::STATUS, clip(&status.join(" | ")))) },
    );
    let scores = e.ok("score", s::SCORE)?;
    let totals: Vec<Option<i64>> = scores
        .iter()
        .filter(|l| l.starts_with("player "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.iter().position(|w| *w == "total").and_then(|i| words.get(i + 1)?.parse().ok())
        })
        .collect();
    let want: Vec<Option<i64>> = played.scores.iter().map(|&t| Some(t)).collect();
    let scored = totals == want && scores.last().is_some_and(|l| l == "gameover");
    report.check(
        format!("game: {variant}: score has the rules' totals and gameover"),
        if scored {
            Ok(())
        } else {
            Err(Failure::new(
                s::SCORE,
                format!("'{}', totals by the rules {:?}", clip(&scores.join(" | ")), played.scores),
            ))
        },
    );
    for (line, section) in [("draw", s::DRAW), ("go nodes 10", s::GO), ("place pass", s::PLACE)] {
        let r = e.ask(line, section)?;
        report.check(
            format!("game: {variant}: {line} after the end is game_over"),
            refused(&r, e.version, "game_over", "game_over", section, line),
        );
    }
    Ok(())
}
