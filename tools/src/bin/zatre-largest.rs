//! zatre-largest: the largest move size of the hand to move, for position lines read from stdin
//! (`phase=place`), by the engine's rules core or (`--naive`) by the naive reference of
//! `tools/src/naive`. Lines may carry leading words before `variant=` (as `zatre-huge-hands`
//! prints them); `#` comments and blank lines are skipped. Prints `<size> <milliseconds> <line>`.

use std::io::BufRead;
use std::time::Instant;

use clap::Parser;
use zatre::rules::Position;
use zatre_tools::naive;

#[derive(Parser, Debug)]
#[command(about = "The largest move size of position lines")]
struct Args {
    /// Use the naive reference instead of the rules core.
    #[arg(long)]
    naive: bool,
}

fn main() {
    let args = Args::parse();
    let stdin = std::io::stdin();
    let fail = |number: usize, message: String| -> ! {
        eprintln!("zatre-largest: line {number}: {message}");
        std::process::exit(2)
    };
    for (k, line) in stdin.lock().lines().enumerate() {
        let number = k + 1;
        let line = match line {
            Ok(line) => line,
            Err(e) => fail(number, e.to_string()),
        };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some(at) = line.find("variant=") else { fail(number, format!("no position line in '{line}'")) };
        let position = &line[at..];
        let started = Instant::now();
        let size = if args.naive {
            match naive::position::Position::parse(position) {
                Ok(pos) => naive::largest::largest_size(&pos, pos.hand_to_move()),
                Err(e) => fail(number, e.to_string()),
            }
        } else {
            match Position::from_line(position) {
                Ok(pos) => pos.movegen().largest_size(),
                Err(e) => fail(number, e.to_string()),
            }
        };
        println!("{size} {:.3} {position}", started.elapsed().as_secs_f64() * 1000.0);
    }
}
