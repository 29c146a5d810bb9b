//! The position the solver and the game move through, and its transposition-table key.

use crate::cards::Card;
use crate::deal::Deal;

/// Columns of a castle game (all three deal 8).
pub const MAX_COLUMNS: usize = 8;
/// A column can never hold more than the whole deck.
const COLUMN_CAPACITY: usize = 52;

/// Columns are unordered in the key: the same columns in another order are the same position.
pub type Key = [u64; 6];

#[derive(Clone, Debug)]
pub struct State {
    ncols: usize,
    lens: [u8; MAX_COLUMNS],
    cards: [[Card; COLUMN_CAPACITY]; MAX_COLUMNS],
    /// Top rank on each suit's foundation (0 = empty).
    pub foundations: [u8; 4],
    /// Cards still in the tableau; 0 means the game is won.
    in_tableau: u8,
}

impl State {
    pub fn from_deal(deal: &Deal) -> State {
        assert!(deal.columns.len() <= MAX_COLUMNS);
        let mut s = State {
            ncols: deal.columns.len(),
            lens: [0; MAX_COLUMNS],
            cards: [[Card::PLACEHOLDER; COLUMN_CAPACITY]; MAX_COLUMNS],
            foundations: deal.foundations,
            in_tableau: 0,
        };
        for (i, column) in deal.columns.iter().enumerate() {
            for &card in column {
                s.push(i, card);
            }
        }
        s
    }

    #[inline]
    pub fn ncols(&self) -> usize {
        self.ncols
    }

    #[inline]
    pub fn len(&self, col: usize) -> usize {
        self.lens[col] as usize
    }

    #[inline]
    pub fn column(&self, col: usize) -> &[Card] {
        &self.cards[col][..self.lens[col] as usize]
    }

    /// The card that can move from `col`, if the column is not empty.
    #[inline]
    pub fn top(&self, col: usize) -> Option<Card> {
        self.column(col).last().copied()
    }

    #[inline]
    pub fn is_won(&self) -> bool {
        self.in_tableau == 0
    }

    #[inline]
    pub(crate) fn push(&mut self, col: usize, card: Card) {
        self.cards[col][self.lens[col] as usize] = card;
        self.lens[col] += 1;
        self.in_tableau += 1;
    }

    #[inline]
    pub(crate) fn pop(&mut self, col: usize) -> Card {
        self.lens[col] -= 1;
        self.in_tableau -= 1;
        self.cards[col][self.lens[col] as usize]
    }

    /// The columns back as plain data.
    pub fn columns(&self) -> Vec<Vec<Card>> {
        (0..self.ncols).map(|c| self.column(c).to_vec()).collect()
    }

    /// The key of the position up to the order of the columns: the non-empty columns sorted by
    /// their bottom card (unique, so the order is total), each followed by a 0 separator, six
    /// bits a symbol. The foundations need no place in it: they hold exactly the cards that are
    /// not in the tableau.
    pub fn key(&self) -> Key {
        let mut order = [0usize; MAX_COLUMNS];
        let mut n = 0;
        for col in 0..self.ncols {
            if self.lens[col] > 0 {
                // Insertion sort: at most 8 columns.
                let bottom = self.cards[col][0];
                let mut i = n;
                while i > 0 && self.cards[order[i - 1]][0] > bottom {
                    order[i] = order[i - 1];
                    i -= 1;
                }
                order[i] = col;
                n += 1;
            }
        }
        let mut key = [0u64; 6];
        let mut symbol = 0usize;
        for &col in &order[..n] {
            for &card in self.column(col) {
                key[symbol / 10] |= (card.id() as u64) << (6 * (symbol % 10));
                symbol += 1;
            }
            symbol += 1; // the separator is a zero symbol
        }
        key
    }
}

/// Equal when the columns (in place) and the foundations are; slots past a column's end are
/// leftovers and do not count.
impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.foundations == other.foundations
            && self.ncols == other.ncols
            && (0..self.ncols).all(|c| self.column(c) == other.column(c))
    }
}

impl Eq for State {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn key_ignores_column_order_only() {
        let deal = Deal::from_number(Variant::StreetsAndAlleys, 7).unwrap();
        let mut swapped = deal.clone();
        swapped.columns.swap(0, 5);
        swapped.columns.swap(2, 7);
        let a = State::from_deal(&deal);
        assert_eq!(a.key(), State::from_deal(&swapped).key());
        let mut moved = deal.clone();
        let card = moved.columns[0].pop().unwrap();
        moved.columns[1].push(card);
        assert_ne!(a.key(), State::from_deal(&moved).key());
    }
}
