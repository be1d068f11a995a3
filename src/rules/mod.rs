//! The pure game: geometry, tiles, moves, scoring, sheets and turn flow. No I/O, no global RNG.
