//! The piped sessions shown in the README (`$ printf '...' | target/release/zatre` and the
//! output below it, in a fenced block) are what the engine answers today: each is run through
//! the protocol session in-process and its output compared with the README's, byte for byte.

use crate::common;

use std::path::Path;

use common::InlineSession;
use zatre::protocol::Engine;

/// The command of a shown session: `$ printf '<lines>' | target/release/zatre`.
const PREFIX: &str = "$ printf '";
const SUFFIX: &str = "' | target/release/zatre";

/// One shown session: its line in the file, the input lines, and the output shown.
struct Shown {
    line: usize,
    input: Vec<String>,
    output: String,
}

/// Every shown session of a Markdown text.
fn shown_sessions(text: &str) -> Vec<Shown> {
    let lines: Vec<&str> = text.lines().collect();
    let mut sessions = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let Some(input) = line.strip_prefix(PREFIX).and_then(|rest| rest.strip_suffix(SUFFIX)) else {
            continue;
        };
        let input = input.split("\\n").filter(|l| !l.is_empty()).map(String::from).collect();
        let mut output = String::new();
        for out in lines[k + 1..].iter().take_while(|l| !l.starts_with("```")) {
            output.push_str(out);
            output.push('\n');
        }
        sessions.push(Shown { line: k + 1, input, output });
    }
    sessions
}

#[test]
fn the_readme_sessions_are_what_the_engine_answers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("the README");
    let sessions = shown_sessions(&readme);
    assert!(!sessions.is_empty(), "no `{PREFIX}...{SUFFIX}` session found in the README");
    for shown in sessions {
        let mut session = InlineSession::new(Engine::new());
        let actual: String = shown.input.iter().map(|line| session.line(line.as_bytes())).collect();
        assert_eq!(actual, shown.output, "README.md line {}: the session answers otherwise", shown.line);
    }
}

#[test]
fn a_shown_session_is_read_with_its_input_and_output() {
    let text =
        "x\n```\n$ printf '1 name\\n2 protocol_version\\n' | target/release/zatre\n=1 zatre\n\n=2 9\n\n```\n";
    let sessions = shown_sessions(text);
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0].line, 3);
    assert_eq!(sessions[0].input, ["1 name", "2 protocol_version"]);
    assert_eq!(sessions[0].output, "=1 zatre\n\n=2 9\n\n");
    // The engine's answer differs from this made-up output: the comparison would catch it.
    let mut session = InlineSession::new(Engine::new());
    let actual: String = sessions[0].input.iter().map(|line| session.line(line.as_bytes())).collect();
    assert_eq!(actual, "=1 zatre\n\n=2 2\n\n");
    assert_ne!(actual, sessions[0].output);
}
