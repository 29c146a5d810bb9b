//! A deal: the starting layout of a variant, and PySolFC's deal N of it.

use super::variant::Variant;
use crate::cards::Card;
pub use crate::random::pysolfc_shuffle;
use crate::random::MAX_NUMBER;

/// A layout: the tableau columns (each bottom card first) and each suit's foundation top rank
/// (0 = empty), indexed as [`crate::cards::SUITS`]. `number` is PySolFC's deal number, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    pub variant: Variant,
    pub number: Option<u64>,
    pub columns: Vec<Vec<Card>>,
    pub foundations: [u8; 4],
}

impl Deal {
    /// PySolFC's deal `number` of `variant`. `None` when the number is out of range.
    pub fn from_number(variant: Variant, number: u64) -> Option<Deal> {
        if !(1..=MAX_NUMBER).contains(&number) {
            return None;
        }
        let cards = pysolfc_shuffle(number);
        Some(lay_out(variant, Some(number), cards))
    }

    pub fn card_count(&self) -> usize {
        self.columns.iter().map(Vec::len).sum::<usize>()
            + self.foundations.iter().map(|&r| r as usize).sum::<usize>()
    }
}

/// Deals `cards` (dealing order) the way PySolFC lays out `variant` (docs/rules.md §1).
pub fn lay_out(variant: Variant, number: Option<u64>, cards: Vec<Card>) -> Deal {
    let ncols = variant.columns();
    let mut columns: Vec<Vec<Card>> = vec![Vec::new(); ncols];
    let mut foundations = [0u8; 4];
    let mut rest: Vec<Card> = if variant.aces_start_on_foundations() {
        for c in cards.iter().filter(|c| c.rank() == 1) {
            foundations[c.suit() as usize] = 1;
        }
        cards.into_iter().filter(|c| c.rank() != 1).collect()
    } else {
        cards
    };
    rest.reverse(); // pop from the end = deal from the front
                    // Rows of 8, six rows; a Citadel card that fits its foundation goes there instead.
    'rows: for _ in 0..6 {
        for column in columns.iter_mut() {
            let Some(card) = rest.pop() else {
                break 'rows;
            };
            if variant.deals_to_foundations()
                && foundations[card.suit() as usize] + 1 == card.rank()
            {
                foundations[card.suit() as usize] = card.rank();
            } else {
                column.push(card);
            }
        }
    }
    // Streets and Alleys: the 4 cards left go one each on the first four columns.
    for column in columns.iter_mut() {
        let Some(card) = rest.pop() else { break };
        column.push(card);
    }
    Deal {
        variant,
        number,
        columns,
        foundations,
    }
}

/// The cards above `foundations`, dealt one by one at random onto `ncols` columns: a random
/// endgame, for the tests and the labs that check a rule against a plain search. `below(n)`
/// picks one of `n`: first the card (among those left), then its column.
pub fn endgame(
    variant: Variant,
    foundations: [u8; 4],
    ncols: usize,
    below: &mut dyn FnMut(u64) -> u64,
) -> Deal {
    let mut cards: Vec<Card> = Card::deck()
        .filter(|c| c.rank() > foundations[c.suit() as usize])
        .collect();
    let mut columns = vec![Vec::new(); ncols];
    while !cards.is_empty() {
        let card = cards.swap_remove(below(cards.len() as u64) as usize);
        columns[below(ncols as u64) as usize].push(card);
    }
    Deal {
        variant,
        number: None,
        columns,
        foundations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_deal_holds_each_card_once() {
        for v in Variant::ALL {
            for n in [1, 2, 31999, 32000, 1 << 31, MAX_NUMBER] {
                let d = Deal::from_number(v, n).unwrap();
                let mut seen = [false; 52];
                for c in d.columns.iter().flatten() {
                    assert!(!seen[c.index()]);
                    seen[c.index()] = true;
                }
                assert_eq!(d.card_count(), 52);
            }
        }
    }

    #[test]
    fn layouts_have_the_right_shape() {
        let bc = Deal::from_number(Variant::BeleagueredCastle, 1).unwrap();
        assert!(bc.columns.iter().all(|c| c.len() == 6));
        assert_eq!(bc.foundations, [1; 4]);
        let sa = Deal::from_number(Variant::StreetsAndAlleys, 1).unwrap();
        let lens: Vec<usize> = sa.columns.iter().map(Vec::len).collect();
        assert_eq!(lens, vec![7, 7, 7, 7, 6, 6, 6, 6]);
        assert_eq!(sa.foundations, [0; 4]);
        assert!(Deal::from_number(Variant::Citadel, 0).is_none());
    }
}
