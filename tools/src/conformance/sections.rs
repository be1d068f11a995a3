//! The sections of protocol/PROTOCOL.md that a failure names: each is the text of a heading there,
//! without its `#`s (a test checks that every one is a heading of PROTOCOL.md).

pub const FRAMING: &str = "Framing";
pub const ERRORS: &str = "Errors";
pub const VERSION_3: &str = "Version 3";
pub const ABOUT: &str = "About the engine";
pub const OPTIONS: &str = "Engine options: `options`, `setoption name <Name> value <value>`";
pub const NEWGAME: &str =
    "`newgame [variant classic|dice|kids] [players <1..6>] [seed <u64>] [<rule>=<value>]...`";
pub const DRAW: &str = "`draw [<value> ...]`";
pub const PLACE: &str = "`place <move>`";
pub const UNDO: &str = "`undo`";
pub const LEGAL: &str = "`legal`, `legal count`";
pub const SCORE: &str = "`score`, `score <move>`";
pub const SHOW: &str = "`show`";
pub const POSITION: &str =
    "`position`, `position <line>`, `position startpos [newgame args] [moves <tokens>]`";
pub const GO: &str = "`go [movetime <ms>] [nodes <n>] [depth <d>] [infinite] [time <ms>] [inc <ms>] [movestogo <n>] [searchmoves <move> ...]`";
pub const STOP: &str = "`stop`";
pub const PERFT: &str = "`perft <depth>`";
pub const BENCH: &str = "`bench`";
pub const GEOMETRY: &str = "`geometry`";
pub const NEXT: &str = "`next [<placements>]`";
pub const STATUS: &str = "`status`";
pub const VARIANTS: &str = "`variants`";
pub const HISTORY: &str = "`history`";
pub const POSITION_LINE: &str = "The position line";

/// Every section a failure can name.
pub const ALL: [&str; 23] = [
    FRAMING,
    ERRORS,
    VERSION_3,
    ABOUT,
    OPTIONS,
    NEWGAME,
    DRAW,
    PLACE,
    UNDO,
    LEGAL,
    SCORE,
    SHOW,
    POSITION,
    GO,
    STOP,
    PERFT,
    BENCH,
    GEOMETRY,
    NEXT,
    STATUS,
    VARIANTS,
    HISTORY,
    POSITION_LINE,
];
