//! perft: the number of leaves of the game tree a given number of moves deep, expanding every
//! distinct draw along the way (see protocol/PROTOCOL.md, "perft").

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use super::position::{Phase, Position};

/// Counts the leaves `depth` moves deep. Draws do not use up depth; a finished game has no
/// leaves below it.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_until(pos, depth, &AtomicBool::new(false))
}

/// [`perft`] that ends as soon as `stop` is raised, returning the leaves counted so far.
pub fn perft_until(pos: &Position, depth: u32, stop: &AtomicBool) -> u64 {
    if depth == 0 {
        return 1;
    }
    match pos.phase() {
        Phase::Over => 0,
        // The last draw of the count: each hand drawn is counted on the same board by one move
        // generator, without a copy of the position (or of the board) per draw.
        Phase::Draw if depth == 1 => {
            let hand = *pos.hand_to_move();
            let mut movegen = pos.movegen().with_stop(stop);
            pos.possible_draws()
                .into_iter()
                .take_while(|_| !stop.load(Ordering::Relaxed))
                .map(|(draw, _)| {
                    let mut drawn = hand;
                    drawn.add_all(&draw);
                    movegen.set_hand(drawn);
                    movegen.legal_count()
                })
                .sum()
        }
        Phase::Draw => pos
            .possible_draws()
            .into_iter()
            .take_while(|_| !stop.load(Ordering::Relaxed))
            .map(|(draw, _)| {
                let mut next = pos.clone();
                let values: Vec<u8> = draw.values().collect();
                match next.draw(&values) {
                    Ok(_) => perft_until(&next, depth, stop),
                    Err(e) => unreachable!("possible_draws gave an impossible draw: {e}"),
                }
            })
            .sum(),
        Phase::Place if depth == 1 => pos.movegen().with_stop(stop).legal_count(),
        Phase::Place => {
            let mut total = 0;
            let _ = pos.movegen().with_stop(stop).for_each_legal(&mut |placements| {
                let mut next = pos.clone();
                next.play_unchecked(placements);
                total += perft_until(&next, depth - 1, stop);
                ControlFlow::Continue(())
            });
            total
        }
    }
}
