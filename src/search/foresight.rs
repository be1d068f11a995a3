//! Foresight: the draws to come, known exactly, for a clairvoyant search that measures the ceiling
//! of `search` (`zatre-ceiling` in `tools/`). An engine at a real table never knows the future, so
//! the protocol offers no way to give it: only [`super::run_foreseeing`] takes it.
//!
//! A clairvoyant search is the same search with its one uncertainty gone: where `search` takes
//! the expectation over every distinct draw of a simulated turn (stage 2 and the next two turns)
//! or samples a draw (the playouts), it takes the one draw that will come, with probability 1.
//! The draw due in a position simulated from the root is found by counting from the root:
//!
//! - **Classic**, [`Foresight::Bag`]: the tiles that will come out of the bag from the root on,
//!   in order. A simulated position whose bag holds `k` tiles fewer than the root's draws the
//!   next `draw_count()` tiles of the order from index `k` (the referee's dealer deals the same
//!   way: each draw takes the next tiles of one shuffled order, however many a hand calls for).
//! - **Dice and kids**, [`Foresight::Rolls`]: the coming rolls in order, the first the draw of
//!   the turn after the root's move: the `k`-th turn simulated after the root's move rolls roll
//!   `k - 1` (from 0).
//!
//! A draw the foresight does not reach whole (an order shorter than the bag, fewer rolls than
//! the turns simulated) is taken in expectation, as without foresight.

use std::fmt::Write as _;

use thiserror::Error;

use crate::rules::{Position, Tiles, Variant};

/// What a clairvoyant search knows of the draws after the root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Foresight {
    /// Classic: the tiles the bag gives from the root on, in the order they come out (all of
    /// them, or the first of them).
    Bag(Vec<u8>),
    /// Dice and kids: the rolls of the turns after the root's move, in order, two values each.
    Rolls(Vec<Vec<u8>>),
}

/// Why a foresight does not fit the root position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ForesightError {
    /// A bag order for dice or kids, or rolls for classic.
    #[error("{variant} draws {wanted}: this foresight has {given}")]
    Kind { variant: Variant, wanted: &'static str, given: &'static str },
    /// The order holds more tiles of a value than the bag does.
    #[error("the order draws {foreseen} tiles of value {value}, the bag holds {available}")]
    NotInBag { value: u8, foreseen: usize, available: u8 },
    /// A roll that is not two values of the variant's dice.
    #[error("roll {index} ({values}) is not two values from {min} to {max}")]
    Roll { index: usize, values: String, min: u8, max: u8 },
}

impl Foresight {
    /// Checks that the foresight can follow `root`: the kind of the variant, the order's tiles
    /// in the bag, every roll two values of the dice.
    ///
    /// # Errors
    /// The first thing that does not fit.
    pub fn check(&self, root: &Position) -> Result<(), ForesightError> {
        let rules = root.rules();
        let classic = rules.variant == Variant::Classic;
        match self {
            Foresight::Bag(_) if !classic => {
                Err(ForesightError::Kind { variant: rules.variant, wanted: "rolls", given: "a bag order" })
            }
            Foresight::Rolls(_) if classic => {
                Err(ForesightError::Kind { variant: rules.variant, wanted: "from the bag", given: "rolls" })
            }
            Foresight::Bag(order) => {
                let bag = root.bag();
                // A value the game has no tile for is in the bag 0 times.
                let available = |v: u8| Tiles::from_values(&[v]).map_or(0, |_| bag.count(v));
                let foreseen = |v: u8| order.iter().filter(|&&w| w == v).count();
                match order.iter().copied().find(|&v| foreseen(v) > usize::from(available(v))) {
                    Some(value) => Err(ForesightError::NotInBag {
                        value,
                        foreseen: foreseen(value),
                        available: available(value),
                    }),
                    None => Ok(()),
                }
            }
            Foresight::Rolls(rolls) => {
                let (min, max) = (rules.min_value(), rules.max_value());
                let bad = |roll: &Vec<u8>| roll.len() != 2 || roll.iter().any(|&v| v < min || v > max);
                match rolls.iter().position(bad) {
                    Some(index) => {
                        let mut values = String::new();
                        for v in &rolls[index] {
                            let _ = write!(values, "{}{v}", if values.is_empty() { "" } else { " " });
                        }
                        Err(ForesightError::Roll { index, values, min, max })
                    }
                    None => Ok(()),
                }
            }
        }
    }

    /// The draw due in `pos`, a position reached from `root` by play and this foresight's draws
    /// (a draw due in it), when the foresight reaches it whole.
    pub fn draw_due(&self, root: &Position, pos: &Position) -> Option<Vec<u8>> {
        Sight::mark(root, self.clone()).draw_due(pos)
    }
}

/// A foresight anchored at the root of a search: what the simulated turns consult.
#[derive(Debug)]
pub(super) struct Sight {
    foresight: Foresight,
    /// The root's bag size and turn.
    bag: usize,
    turn: u32,
}

impl Sight {
    /// The foresight of a search from `root`, checked ([`Foresight::check`]).
    ///
    /// # Errors
    /// As [`Foresight::check`].
    pub(super) fn new(root: &Position, foresight: Foresight) -> Result<Sight, ForesightError> {
        foresight.check(root)?;
        Ok(Sight::mark(root, foresight))
    }

    fn mark(root: &Position, foresight: Foresight) -> Sight {
        Sight { foresight, bag: root.bag().len(), turn: root.turn() }
    }

    /// The rolls to come after the root, the next player's first (dice and kids).
    pub(super) fn rolls(&self) -> Option<&[Vec<u8>]> {
        match &self.foresight {
            Foresight::Rolls(rolls) => Some(rolls),
            Foresight::Bag(_) => None,
        }
    }

    /// The draw due in `pos`, a position simulated from the root (a draw due in it), when the
    /// foresight reaches it whole: classic, the next `draw_count()` tiles of the order from the
    /// number of tiles drawn since the root; dice and kids, the roll of the turn.
    pub(super) fn draw_due(&self, pos: &Position) -> Option<Vec<u8>> {
        match &self.foresight {
            Foresight::Bag(order) => {
                let from = self.bag.checked_sub(pos.bag().len())?;
                let drawn = order.get(from..from + pos.draw_count())?;
                // The order fits the root's bag ([`Foresight::check`]) and every draw since took
                // its tiles from the order, so they are in the bag; a position reached otherwise
                // gets no foreseen draw.
                let tiles = Tiles::from_values(drawn)?;
                pos.bag().contains(&tiles).then(|| drawn.to_vec())
            }
            Foresight::Rolls(rolls) => {
                let k = pos.turn().checked_sub(self.turn + 1)?;
                rolls.get(usize::try_from(k).ok()?).filter(|r| r.len() == pos.draw_count()).cloned()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::rules::Rules;
    use crate::search::{bench_positions, run, run_foreseeing, Limits, SearchOptions};

    fn started(variant: Variant) -> Position {
        let mut pos = Position::new(Rules::new(variant, 2).unwrap());
        let values: &[u8] = if variant == Variant::Classic { &[5, 6, 6] } else { &[3, 4] };
        pos.draw(values).unwrap();
        pos
    }

    #[test]
    fn a_foresight_of_the_wrong_kind_is_refused() {
        let classic = started(Variant::Classic);
        let dice = started(Variant::Dice);
        let rolls = Foresight::Rolls(vec![vec![1, 2]]);
        let order = Foresight::Bag(vec![1, 2]);
        assert_eq!(
            rolls.check(&classic).unwrap_err().to_string(),
            "classic draws from the bag: this foresight has rolls"
        );
        assert_eq!(
            order.check(&dice).unwrap_err().to_string(),
            "dice draws rolls: this foresight has a bag order"
        );
        assert_eq!(order.check(&classic), Ok(()));
        assert_eq!(rolls.check(&dice), Ok(()));
    }

    #[test]
    fn an_order_must_come_out_of_the_bag() {
        let pos = started(Variant::Classic);
        // After 5 6 6 the bag holds 18 sixes.
        let sixes = Foresight::Bag(vec![6; 19]);
        assert_eq!(
            sixes.check(&pos),
            Err(ForesightError::NotInBag { value: 6, foreseen: 19, available: 18 })
        );
        assert!(Foresight::Bag(vec![6; 18]).check(&pos).is_ok());
        // A value the game has no tile for: an error, not a panic.
        let err = Foresight::Bag(vec![1, 7]).check(&pos).unwrap_err();
        assert_eq!(err, ForesightError::NotInBag { value: 7, foreseen: 1, available: 0 });
        let zero = Foresight::Bag(vec![0]).check(&pos).unwrap_err();
        assert_eq!(zero.to_string(), "the order draws 1 tiles of value 0, the bag holds 0");
    }

    #[test]
    fn a_roll_is_two_values_of_the_dice() {
        let dice = started(Variant::Dice);
        let kids = started(Variant::Kids);
        let three = Foresight::Rolls(vec![vec![1, 2], vec![1, 2, 3]]);
        assert_eq!(
            three.check(&dice).unwrap_err().to_string(),
            "roll 1 (1 2 3) is not two values from 1 to 6"
        );
        let zero = Foresight::Rolls(vec![vec![0, 5]]);
        assert_eq!(zero.check(&dice).unwrap_err().to_string(), "roll 0 (0 5) is not two values from 1 to 6");
        assert_eq!(zero.check(&kids), Ok(()));
        let six = Foresight::Rolls(vec![vec![6, 5]]);
        assert_eq!(six.check(&kids).unwrap_err().to_string(), "roll 0 (6 5) is not two values from 0 to 5");
    }

    /// A foresight that does not fit is an error and nothing is searched; one that fits gives a
    /// legal move.
    #[test]
    fn run_foreseeing_checks_before_it_searches() {
        let pos = bench_positions().into_iter().next().unwrap();
        let limits = Limits { nodes: Some(20_000), ..Limits::default() };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut infos = 0;
        let refused = run_foreseeing(
            &pos,
            &limits,
            &SearchOptions::default(),
            Foresight::Rolls(vec![]),
            &stop,
            &mut |_| infos += 1,
        );
        assert!(matches!(refused, Err(ForesightError::Kind { .. })));
        assert_eq!(infos, 0);
        let order: Vec<u8> = pos.bag().values().collect();
        let found = run_foreseeing(
            &pos,
            &limits,
            &SearchOptions::default(),
            Foresight::Bag(order),
            &stop,
            &mut |_| {},
        )
        .unwrap()
        .unwrap();
        assert!(pos.check(&found.best).is_ok());
        assert!(run(&pos, &limits, &SearchOptions::default(), &stop, &mut |_| {}).is_some());
    }

    /// The public [`Foresight::draw_due`] counts from the root: right after the root's move the
    /// order's first tiles (or the first roll) are due.
    #[test]
    fn the_first_draw_due_is_the_first_of_the_future() {
        for pos in bench_positions() {
            let mut next = pos.clone();
            next.play_unchecked(crate::search::greedy_choice(&pos).unwrap().placements());
            let foresight = if pos.rules().variant == Variant::Classic {
                let mut order: Vec<u8> = pos.bag().values().collect();
                order.shuffle(&mut ChaCha8Rng::seed_from_u64(5));
                Foresight::Bag(order)
            } else {
                Foresight::Rolls(vec![vec![2, 3], vec![4, 5]])
            };
            let expected = match &foresight {
                Foresight::Bag(order) => order[..next.draw_count()].to_vec(),
                Foresight::Rolls(rolls) => rolls[0].clone(),
            };
            assert_eq!(foresight.draw_due(&pos, &next), Some(expected));
        }
    }
}
