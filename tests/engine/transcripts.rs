//! Runs every `tests/transcripts/*.txt` in-process through the engine state machine.
//!
//! A transcript is a list of input lines `> command` and, after each, the output lines it must
//! give, `< text` (`<` alone is an empty line; every response ends with one). Lines starting with
//! `;` and blank lines are notes. In `>` lines `\r`, `\t`, `\\` and `\xHH` are escapes and
//! `{N*c}` is the character `c` N times. In `<` lines `{...}` matches any text, and a line
//! `<* pattern` matches any number (also none) of lines. The lines go through the protocol's own
//! session, with jobs run inline: a job that is not `go infinite` runs to its end at once; a
//! `go infinite` waits for `stop`, `quit` or the end of the transcript, as in the real loop, so
//! commands sent meanwhile see the engine busy.

use crate::common;

use std::fs;
use std::path::Path;

use zatre::protocol::{Engine, Event};

/// One input line and the output it must give.
struct Step {
    line_no: usize,
    input: String,
    expected: Vec<String>,
}

fn parse_transcript(text: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for (k, line) in text.lines().enumerate() {
        if let Some(input) = line.strip_prefix('>') {
            let input = input.strip_prefix(' ').unwrap_or(input);
            steps.push(Step { line_no: k + 1, input: input.to_owned(), expected: Vec::new() });
        } else if let Some(out) = line.strip_prefix('<') {
            let step = steps.last_mut().unwrap_or_else(|| panic!("line {}: output before input", k + 1));
            step.expected.push(out.to_owned());
        } else if !(line.trim().is_empty() || line.starts_with(';')) {
            panic!("line {}: not >, < or a note: {line:?}", k + 1);
        }
    }
    steps
}

/// The bytes of a `>` line, escapes expanded.
fn input_bytes(input: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = input;
    while let Some(c) = rest.chars().next() {
        if let Some(r) = rest.strip_prefix("\\r") {
            out.push(b'\r');
            rest = r;
        } else if let Some(r) = rest.strip_prefix("\\t") {
            out.push(b'\t');
            rest = r;
        } else if let Some(r) = rest.strip_prefix("\\\\") {
            out.push(b'\\');
            rest = r;
        } else if let Some(r) = rest.strip_prefix("\\x") {
            let byte = u8::from_str_radix(&r[..2], 16).expect("\\xHH");
            out.push(byte);
            rest = &r[2..];
        } else if let Some(r) = rest.strip_prefix('{').filter(|r| r.contains('}') && r.contains('*')) {
            let (spec, after) = r.split_once('}').expect("{N*c}");
            let (n, c) = spec.split_once('*').expect("{N*c}");
            let n: usize = n.parse().expect("{N*c}");
            out.extend(c.repeat(n).bytes());
            rest = after;
        } else {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Whether `actual` matches `pattern`, where `{...}` matches any text.
fn matches(pattern: &str, actual: &str) -> bool {
    let parts: Vec<&str> = pattern.split("{...}").collect();
    if parts.len() == 1 {
        return pattern == actual;
    }
    let Some(mut rest) = actual.strip_prefix(parts[0]) else {
        return false;
    };
    for (k, part) in parts.iter().enumerate().skip(1) {
        if k == parts.len() - 1 {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether the actual lines match the expected block.
fn block_matches(expected: &[String], actual: &[String]) -> bool {
    fn go(expected: &[String], actual: &[String]) -> bool {
        match expected.split_first() {
            None => actual.is_empty(),
            Some((first, rest)) => {
                if let Some(pattern) = first.strip_prefix('*') {
                    let pattern = pattern.strip_prefix(' ').unwrap_or(pattern);
                    // Any number of matching lines, then the rest.
                    let mut k = 0;
                    loop {
                        if go(rest, &actual[k..]) {
                            return true;
                        }
                        if k < actual.len() && matches(pattern, &actual[k]) {
                            k += 1;
                        } else {
                            return false;
                        }
                    }
                }
                let first = first.strip_prefix(' ').unwrap_or(first);
                match actual.split_first() {
                    Some((a, arest)) => matches(first, a) && go(rest, arest),
                    None => false,
                }
            }
        }
    }
    go(expected, actual)
}

/// Runs one transcript; returns the failures as printable blocks. With `BLESS_TRANSCRIPTS=1` in
/// the environment, a failing file is rewritten with the actual output instead (review the diff).
fn run(path: &Path) -> Vec<String> {
    let text = fs::read_to_string(path).expect("readable transcript");
    let mut session = common::InlineSession::new(Engine::with_seed(0));
    let mut failures = Vec::new();
    let mut blessed: Vec<(usize, Vec<String>)> = Vec::new();
    let steps = parse_transcript(&text);
    let count = steps.len();
    for (k, step) in steps.into_iter().enumerate() {
        // After `quit` the engine reads nothing more: later lines get no output.
        let mut written = String::new();
        if !session.exited {
            written = session.line(&input_bytes(&step.input));
            // The end of input comes after the last line.
            if k + 1 == count && !session.exited {
                written.push_str(&session.feed(Event::EndOfInput));
            }
        }
        let actual: Vec<String> = written.lines().map(str::to_owned).collect();
        let ok = block_matches(&step.expected, &actual);
        blessed.push((step.line_no, if ok { Vec::new() } else { actual.clone() }));
        if !ok {
            let show = |lines: &[String], mark: &str| -> String {
                lines.iter().map(|l| format!("{mark}{}{l}\n", if l.is_empty() { "" } else { " " })).collect()
            };
            let actual_trimmed: Vec<String> = actual.clone();
            failures.push(format!(
                "{}:{}: > {}\n--- expected\n{}--- actual\n{}",
                path.display(),
                step.line_no,
                step.input,
                show(
                    &step
                        .expected
                        .iter()
                        .map(|l| l.strip_prefix(' ').unwrap_or(l).to_owned())
                        .collect::<Vec<_>>(),
                    "<"
                ),
                show(&actual_trimmed, "<"),
            ));
        }
    }
    if !failures.is_empty() && std::env::var_os("BLESS_TRANSCRIPTS").is_some() {
        bless(path, &text, &blessed);
        return Vec::new();
    }
    failures
}

/// Rewrites the expected blocks of the failing steps with the actual output.
fn bless(path: &Path, text: &str, actual: &[(usize, Vec<String>)]) {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut replacing = false;
    for (k, line) in lines.iter().enumerate() {
        if line.starts_with('>') {
            replacing = false;
            out.push_str(line);
            out.push('\n');
            if let Some((_, new)) = actual.iter().find(|(n, new)| *n == k + 1 && !new.is_empty()) {
                for l in new {
                    out.push('<');
                    if !l.is_empty() {
                        out.push(' ');
                        out.push_str(l);
                    }
                    out.push('\n');
                }
                replacing = true;
            }
            continue;
        }
        if replacing && line.starts_with('<') {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    fs::write(path, out).expect("writable transcript");
}

#[test]
fn transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut paths: Vec<_> = fs::read_dir(&dir)
        .expect("tests/transcripts exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no transcripts in {}", dir.display());
    let mut failures = Vec::new();
    for path in &paths {
        failures.extend(run(path));
    }
    assert!(failures.is_empty(), "{} failing step(s):\n\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_matcher_handles_wildcards_and_repeats() {
    assert!(matches("info depth {...} pv {...}", "info depth 3 pv 5@h8"));
    assert!(!matches("info depth {...} pv x", "info depth 3 pv 5@h8"));
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(block_matches(&e(&["* info {...}", " = ok", ""]), &e(&["info a", "info b", "= ok", ""])));
    assert!(block_matches(&e(&["* info {...}", " = ok", ""]), &e(&["= ok", ""])));
    assert!(!block_matches(&e(&[" = ok", ""]), &e(&["= ok"])));
}

/// Every example in protocol/PROTOCOL.md and docs/gui-guide.md (a fenced block of `>` and `<`
/// lines) is a step of some transcript: the same input line, and output the transcript's
/// expectation matches.
#[test]
fn spec_examples_come_from_transcripts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut known: Vec<Step> = Vec::new();
    for entry in fs::read_dir(root.join("tests/transcripts")).expect("transcripts") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|x| x == "txt") {
            known.extend(parse_transcript(&fs::read_to_string(&path).expect("readable")));
        }
    }
    for (doc, least) in [("protocol/PROTOCOL.md", 20), ("docs/gui-guide.md", 15)] {
        let text = fs::read_to_string(root.join(doc)).unwrap_or_else(|e| panic!("{doc}: {e}"));
        doc_examples_come_from(doc, &text, &known, least);
    }
}

/// The examples of one document, each a step of the `known` transcripts; at least `least` of them.
fn doc_examples_come_from(doc: &str, spec: &str, known: &[Step], least: usize) {
    let mut in_block = false;
    let mut block = String::new();
    let mut checked = 0;
    let mut missing = Vec::new();
    for line in spec.lines() {
        if line.starts_with("```") {
            if in_block && block.lines().next().is_some_and(|l| l.starts_with('>')) {
                for step in parse_transcript(&block) {
                    let actual: Vec<String> =
                        step.expected.iter().map(|l| l.strip_prefix(' ').unwrap_or(l).to_owned()).collect();
                    let found =
                        known.iter().any(|k| k.input == step.input && block_matches(&k.expected, &actual));
                    if !found {
                        missing.push(format!("> {}", step.input));
                    }
                    checked += 1;
                }
            }
            in_block = !in_block;
            block.clear();
        } else if in_block {
            block.push_str(line);
            block.push('\n');
        }
    }
    assert!(checked > least, "only {checked} examples found in {doc}");
    assert!(missing.is_empty(), "examples of {doc} not in any transcript:\n{}", missing.join("\n"));
}

/// The transcripts cover every command word, every error code but `internal` (a bug) and every
/// reason key of version 3 but three.
#[test]
fn transcripts_cover_every_command_and_error_code() {
    use zatre::protocol::ErrorCode;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut steps = Vec::new();
    for entry in fs::read_dir(dir).expect("transcripts") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|x| x == "txt") {
            steps.extend(parse_transcript(&fs::read_to_string(&path).expect("readable")));
        }
    }
    for word in zatre::protocol::registry::words() {
        let sent = steps.iter().any(|s| {
            let mut tokens = s.input.split_whitespace();
            let first = tokens.next();
            let command = if first.is_some_and(|t| t.bytes().all(|b| b.is_ascii_digit())) {
                tokens.next()
            } else {
                first
            };
            command == Some(word) && s.expected.iter().any(|l| l.starts_with(" ="))
        });
        assert!(sent, "no transcript runs {word} successfully");
    }
    for code in ErrorCode::ALL.into_iter().filter(|c| *c != ErrorCode::Internal) {
        let seen = steps
            .iter()
            .any(|s| s.expected.iter().any(|l| l.starts_with(" ?") && l.contains(&format!(" {code} "))));
        assert!(seen, "no transcript shows {code}");
    }
    // Every reason key of version 3 but those no short transcript can reach (tests/transcripts/v3.txt
    // says why each is left out).
    let unreached = ["internal", "undo_too_old", "no_completion"];
    for reason in zatre::protocol::Reason::ALL.iter().filter(|r| !unreached.contains(&r.as_str())) {
        let shown = format!(" {} {reason} ", reason.code());
        let seen = steps.iter().any(|s| s.expected.iter().any(|l| l.starts_with(" ?") && l.contains(&shown)));
        assert!(seen, "no transcript shows the reason {reason}");
    }
}
