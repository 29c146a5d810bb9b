//! A free-cell deal: the layout of a variant, and deal N of it (docs/rules.md §6).
//!
//! Deal N: the 52 cards shuffled as PySolFC shuffles deal N (FreeCell: as Microsoft's deal N,
//! for every N), dealt in dealing order one at a time across the columns, left to right, row
//! after row (Siegecraft's aces go to the foundations first, as in Beleaguered Castle); the
//! cards left after the columns' rows go to the cells PySolFC puts them in.

use super::variant::Variant;
use crate::cards::Card;
use crate::random::{microsoft_shuffle, pysolfc_shuffle, MAX_NUMBER, MS_MAX_NUMBER};

/// A position as dealt or written: the columns (bottom card first), the cells (`None`: empty)
/// and each suit's foundation top rank (0 = empty), suits as [`crate::cards::SUITS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellsDeal {
    pub variant: Variant,
    pub number: Option<u64>,
    pub columns: Vec<Vec<Card>>,
    pub cells: Vec<Option<Card>>,
    pub foundations: [u8; 4],
}

/// The largest deal number of `variant`.
pub fn max_number(variant: Variant) -> u64 {
    if variant.microsoft_deals() {
        MS_MAX_NUMBER
    } else {
        MAX_NUMBER
    }
}

impl CellsDeal {
    /// Deal `number` of `variant`; `None` when the number is out of range.
    pub fn from_number(variant: Variant, number: u64) -> Option<CellsDeal> {
        if !(1..=max_number(variant)).contains(&number) {
            return None;
        }
        let cards = if variant.microsoft_deals() {
            microsoft_shuffle(number)
        } else {
            pysolfc_shuffle(number)
        };
        Some(lay_out(variant, Some(number), cards))
    }

    /// Why this is not a position of its variant, if it is not: its columns and cells as many
    /// as the variant has, and every card exactly once (those at or below their foundation's
    /// top as the foundation).
    pub fn check(&self) -> Result<(), String> {
        let v = self.variant;
        if self.columns.len() != v.columns() {
            return Err(format!(
                "{} has {} columns, not {}",
                v.name(),
                v.columns(),
                self.columns.len()
            ));
        }
        if self.cells.len() != v.cells() {
            return Err(format!(
                "{} has {} cells, not {}",
                v.name(),
                v.cells(),
                self.cells.len()
            ));
        }
        if let Some(&rank) = self.foundations.iter().find(|&&r| r > 13) {
            return Err(format!("a foundation cannot hold {rank} cards"));
        }
        let mut counts = [0usize; 52];
        for card in self
            .columns
            .iter()
            .flatten()
            .chain(self.cells.iter().flatten())
        {
            counts[card.index()] += 1;
        }
        for card in Card::deck() {
            let up = usize::from(card.rank() <= self.foundations[card.suit() as usize]);
            let have = counts[card.index()] + up;
            if have != 1 {
                return Err(format!(
                    "{card} is in the position {have} times (once is right)"
                ));
            }
        }
        Ok(())
    }
}

/// Deals `cards` (dealing order) the way PySolFC lays out `variant`.
pub fn lay_out(variant: Variant, number: Option<u64>, cards: Vec<Card>) -> CellsDeal {
    let mut foundations = [0u8; 4];
    let cards: Vec<Card> = if variant.aces_start_on_foundations() {
        for ace in cards.iter().filter(|c| c.rank() == 1) {
            foundations[ace.suit() as usize] = 1;
        }
        cards.into_iter().filter(|c| c.rank() != 1).collect()
    } else {
        cards
    };
    let to_cells = variant.dealt_cells();
    let (to_columns, rest) = cards.split_at(cards.len() - to_cells.len());
    let ncols = variant.columns();
    let mut columns = vec![Vec::new(); ncols];
    for (i, &card) in to_columns.iter().enumerate() {
        columns[i % ncols].push(card);
    }
    let mut cells = vec![None; variant.cells()];
    for (&cell, &card) in to_cells.iter().zip(rest) {
        cells[cell] = Some(card);
    }
    CellsDeal {
        variant,
        number,
        columns,
        cells,
        foundations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_deal_is_a_position_of_its_variant() {
        for v in Variant::ALL {
            for n in [1, 2, 11982, 31999, 32000, 1 << 31, (1 << 33) - 1] {
                let d = CellsDeal::from_number(v, n).unwrap();
                d.check().unwrap();
                let filled = d.cells.iter().flatten().count();
                assert_eq!(filled, v.dealt_cells().len());
            }
            assert!(CellsDeal::from_number(v, 0).is_none());
        }
        assert!(CellsDeal::from_number(Variant::FreeCell, 1 << 33).is_none());
        assert!(CellsDeal::from_number(Variant::BakersGame, 1 << 40).is_some());
    }

    /// Microsoft's deal 1, as `make-microsoft-freecell-board 1` prints it (a line a column).
    #[test]
    fn freecell_deal_1_is_microsofts() {
        let d = CellsDeal::from_number(Variant::FreeCell, 1).unwrap();
        let lens: Vec<usize> = d.columns.iter().map(Vec::len).collect();
        assert_eq!(lens, vec![7, 7, 7, 7, 6, 6, 6, 6]);
        let row0: Vec<String> = d.columns.iter().map(|c| c[0].to_string()).collect();
        assert_eq!(row0.join(" "), "JD 2D 9H JC 5D 7H 7C 5H");
        let first: Vec<String> = d.columns[0].iter().map(Card::to_string).collect();
        assert_eq!(first.join(" "), "JD KD 2S 4C 3S 6D 6S");
    }

    #[test]
    fn layouts_have_their_shapes() {
        let lens = |v: Variant| {
            let d = CellsDeal::from_number(v, 7).unwrap();
            d.columns.iter().map(Vec::len).collect::<Vec<_>>()
        };
        assert_eq!(lens(Variant::EightOff), vec![6; 8]);
        assert_eq!(lens(Variant::SeahavenTowers), vec![5; 10]);
        assert_eq!(lens(Variant::Siegecraft), vec![6; 8]);
        assert_eq!(lens(Variant::Stronghold), vec![7, 7, 7, 7, 6, 6, 6, 6]);
        let s = CellsDeal::from_number(Variant::SeahavenTowers, 7).unwrap();
        assert!(s.cells[0].is_none() && s.cells[1].is_some() && s.cells[3].is_none());
        let sc = CellsDeal::from_number(Variant::Siegecraft, 7).unwrap();
        assert_eq!(sc.foundations, [1; 4]);
    }
}
