//! Multisets of tile values: the bag of the classic game, a player's hand, and the distinct draws a
//! bag or a pair of dice can give.

use std::fmt;

use rand::Rng;

/// Values run from 0 (the kids' die) to 6.
pub const VALUES: usize = 7;

/// A multiset of tile values, as counts per value.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tiles {
    counts: [u8; VALUES],
}

impl Tiles {
    /// No tiles.
    pub const fn empty() -> Tiles {
        Tiles { counts: [0; VALUES] }
    }

    /// The classic bag: 21 ones and 20 each of 2..6.
    pub const fn classic_bag() -> Tiles {
        Tiles { counts: [0, 21, 20, 20, 20, 20, 20] }
    }

    /// The multiset of some values; `None` when a value is over 6 or occurs more than 255 times.
    pub fn from_values(values: &[u8]) -> Option<Tiles> {
        let mut tiles = Tiles::empty();
        for &v in values {
            let count = tiles.counts.get_mut(usize::from(v))?;
            *count = count.checked_add(1)?;
        }
        Some(tiles)
    }

    /// How many tiles of a value.
    #[inline]
    pub fn count(&self, value: u8) -> u8 {
        self.counts[usize::from(value)]
    }

    /// How many tiles in all.
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&c| usize::from(c)).sum()
    }

    /// Whether there are no tiles.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }

    /// The total of the values.
    pub fn pips(&self) -> u32 {
        self.counts.iter().enumerate().map(|(v, &c)| v as u32 * u32::from(c)).sum()
    }

    /// Adds one tile.
    #[inline]
    pub fn add(&mut self, value: u8) {
        self.counts[usize::from(value)] += 1;
    }

    /// Removes one tile; false (and nothing changes) when there is none of that value.
    #[inline]
    pub fn remove(&mut self, value: u8) -> bool {
        let c = &mut self.counts[usize::from(value)];
        if *c == 0 {
            return false;
        }
        *c -= 1;
        true
    }

    /// Whether every tile of `other` is here too.
    pub fn contains(&self, other: &Tiles) -> bool {
        self.counts.iter().zip(&other.counts).all(|(a, b)| a >= b)
    }

    /// Adds all tiles of another multiset.
    pub fn add_all(&mut self, other: &Tiles) {
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }

    /// The tiles of both, or `None` when a value would occur more than 255 times (as in tiles read
    /// from a position line, which may claim any number).
    pub fn checked_sum(&self, other: &Tiles) -> Option<Tiles> {
        let mut sum = *self;
        for (a, b) in sum.counts.iter_mut().zip(&other.counts) {
            *a = a.checked_add(*b)?;
        }
        Some(sum)
    }

    /// Removes all tiles of another multiset, which must be contained here.
    pub fn remove_all(&mut self, other: &Tiles) {
        debug_assert!(self.contains(other));
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a -= b;
        }
    }

    /// The values, smallest first, each as often as it occurs.
    pub fn values(&self) -> impl Iterator<Item = u8> + '_ {
        self.counts.iter().enumerate().flat_map(|(v, &c)| std::iter::repeat_n(v as u8, usize::from(c)))
    }

    /// The distinct values present.
    pub fn distinct(&self) -> impl Iterator<Item = u8> + '_ {
        self.counts.iter().enumerate().filter(|(_, &c)| c > 0).map(|(v, _)| v as u8)
    }

    /// Takes one tile at random, each tile equally likely.
    pub fn take_random(&mut self, rng: &mut impl Rng) -> Option<u8> {
        let n = self.len();
        if n == 0 {
            return None;
        }
        let mut k = rng.random_range(0..n);
        for v in 0..VALUES as u8 {
            let c = usize::from(self.count(v));
            if k < c {
                self.remove(v);
                return Some(v);
            }
            k -= c;
        }
        unreachable!("k is below the number of tiles")
    }

    /// Every distinct multiset of `n` tiles taken from these, each once.
    pub fn sub_multisets(&self, n: usize) -> Vec<Tiles> {
        fn rec(from: &Tiles, v: usize, left: usize, cur: &mut Tiles, out: &mut Vec<Tiles>) {
            if left == 0 {
                out.push(*cur);
                return;
            }
            if v >= VALUES {
                return;
            }
            let most = usize::from(from.counts[v]).min(left);
            for k in (0..=most).rev() {
                cur.counts[v] = k as u8;
                rec(from, v + 1, left - k, cur, out);
            }
            cur.counts[v] = 0;
        }
        let mut out = Vec::new();
        rec(self, 0, n, &mut Tiles::empty(), &mut out);
        out
    }

    /// The number of ways to draw exactly this multiset, in order, from `from` (a falling product):
    /// divided by the ways to draw any `len()` tiles it gives the draw's probability.
    pub fn draw_weight(&self, from: &Tiles) -> f64 {
        let mut ways = 1.0;
        for v in 0..VALUES {
            for i in 0..self.counts[v] {
                ways *= f64::from(from.counts[v] - i) / f64::from(i + 1);
            }
        }
        ways
    }
}

impl fmt::Display for Tiles {
    /// The values smallest first without separators (`346`), `-` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for v in self.values() {
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classic_bag_has_121_tiles_and_421_pips() {
        let bag = Tiles::classic_bag();
        assert_eq!(bag.len(), 121);
        assert_eq!(bag.pips(), 421);
    }

    #[test]
    fn sub_multisets_are_distinct_and_counted_by_stars_and_bars() {
        let bag = Tiles::classic_bag();
        // Multisets of 2 from 6 values: C(7,2) = 21; of 3: C(8,3) = 56.
        assert_eq!(bag.sub_multisets(2).len(), 21);
        assert_eq!(bag.sub_multisets(3).len(), 56);
        assert_eq!(bag.sub_multisets(0), vec![Tiles::empty()]);
        let small = Tiles::from_values(&[2, 2, 5]).unwrap();
        let mut got: Vec<String> = small.sub_multisets(2).iter().map(|t| t.to_string()).collect();
        got.sort();
        assert_eq!(got, ["22", "25"]);
    }

    #[test]
    fn counts_past_255_are_refused_not_wrapped() {
        assert_eq!(Tiles::from_values(&[1; 255]).map(|t| t.count(1)), Some(255));
        assert_eq!(Tiles::from_values(&[1; 256]), None, "256 ones");
        assert_eq!(Tiles::from_values(&[7]), None, "no tile is worth 7");
        let many = Tiles::from_values(&[1; 200]).unwrap();
        assert_eq!(many.checked_sum(&Tiles::from_values(&[1; 55]).unwrap()).map(|t| t.count(1)), Some(255));
        assert_eq!(many.checked_sum(&Tiles::from_values(&[1; 56]).unwrap()), None);
        assert_eq!(many.checked_sum(&Tiles::classic_bag()).map(|t| t.len()), Some(321));
    }

    #[test]
    fn draw_weights_sum_to_the_number_of_unordered_draws() {
        let bag = Tiles::from_values(&[1, 1, 1, 2, 3, 3]).unwrap();
        let total: f64 = bag.sub_multisets(2).iter().map(|d| d.draw_weight(&bag)).sum();
        assert_eq!(total, 15.0, "C(6,2) pairs of tiles");
    }
}
