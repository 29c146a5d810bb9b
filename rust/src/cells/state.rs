//! The free-cell position the solver and the game move through, and its table keys.

use super::column::Column;
use super::deal::CellsDeal;
use super::variant::Variant;
use crate::cards::Card;
use crate::solver::mix::mix;

/// Words of a key: six bits a symbol, at most 8 cells + 52 cards + 10 column ends = 70
/// symbols, 420 bits.
pub const KEY_WORDS: usize = 14;

/// A table key: the symbols of a position packed six bits each, symbol i in bits 6i to 6i+5
/// of the words read as one little-endian number. Never all zero for a position not won.
pub type CellsKey = [u32; KEY_WORDS];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellsState {
    pub variant: Variant,
    /// Each column bottom card first.
    pub cols: Vec<Column>,
    pub cells: Vec<Option<Card>>,
    /// Each suit's top rank (0 = empty), suits as [`crate::cards::SUITS`].
    pub foundations: [u8; 4],
}

/// Packs symbols (0..64) six bits each: bits gather in `bits` until a word is full.
struct Packer {
    key: CellsKey,
    word: usize,
    bits: u64,
    held: u32,
}

impl Packer {
    fn new() -> Packer {
        Packer {
            key: [0; KEY_WORDS],
            word: 0,
            bits: 0,
            held: 0,
        }
    }

    #[inline]
    fn put(&mut self, symbol: u8) {
        self.bits |= (symbol as u64) << self.held;
        self.held += 6;
        if self.held >= 32 {
            self.key[self.word] = self.bits as u32;
            self.word += 1;
            self.bits >>= 32;
            self.held -= 32;
        }
    }

    #[inline]
    fn done(mut self) -> CellsKey {
        if self.held > 0 {
            self.key[self.word] = self.bits as u32;
        }
        self.key
    }
}

/// The bits set in `mask`, lowest first (card ids of a mask of ids, columns of a mask of
/// columns).
#[inline]
pub fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            bit
        })
    })
}

impl CellsState {
    pub fn from_deal(deal: &CellsDeal) -> CellsState {
        CellsState {
            variant: deal.variant,
            cols: deal
                .columns
                .iter()
                .map(|cards| Column::new(deal.variant.build(), cards))
                .collect(),
            cells: deal.cells.clone(),
            foundations: deal.foundations,
        }
    }

    /// The position as a deal (no number): for board text and for the game.
    pub fn to_deal(&self) -> CellsDeal {
        CellsDeal {
            variant: self.variant,
            number: None,
            columns: self.cols.iter().map(|col| col.to_vec()).collect(),
            cells: self.cells.clone(),
            foundations: self.foundations,
        }
    }

    /// Won: every card on its foundation.
    pub fn is_won(&self) -> bool {
        self.foundations == [13; 4]
    }

    pub fn free_cells(&self) -> usize {
        self.cells.iter().filter(|c| c.is_none()).count()
    }

    pub fn empty_columns(&self) -> usize {
        self.cols.iter().filter(|c| c.is_empty()).count()
    }

    /// The key the search's table holds: positions that differ only in the order of their
    /// cells or of their columns share it (no rule tells cells, or columns, apart). The cells'
    /// cards in order of id (0 for each empty cell), then each column that holds cards, in
    /// order of its bottom card (each card is in one column, so the order is total), its cards
    /// and a 0. The foundations are the cards not named.
    pub fn key(&self) -> CellsKey {
        let mut p = Packer::new();
        // Sorted by id through masks of ids, lowest first: the cells' cards, the columns'
        // bottom cards (each names its column in `column_of`).
        let mut cards = 0u64;
        for cell in &self.cells {
            match cell {
                Some(card) => cards |= 1 << card.id(),
                None => p.put(0),
            }
        }
        for id in bits(cards) {
            p.put(id as u8);
        }
        let (mut bottoms, mut column_of) = (0u64, [0u8; 64]);
        for (i, col) in self.cols.iter().enumerate() {
            if let Some(bottom) = col.first() {
                bottoms |= 1 << bottom.id();
                column_of[bottom.id() as usize] = i as u8;
            }
        }
        for id in bits(bottoms) {
            for card in &self.cols[column_of[id] as usize] {
                p.put(card.id());
            }
            p.put(0);
        }
        p.done()
    }

    /// A 64-bit digest of the key: the same for positions of the same key, and for others
    /// only by chance (about one pair in 2^64). Each column's cards as a number (its top
    /// card's mark, kept as cards come and go), mixed, and each cell's card mixed, summed:
    /// the order of the cells and of the columns does not count. For the dig dives' table,
    /// which proves nothing, so may lose a position to a chance match.
    pub fn digest(&self) -> u64 {
        let mut sum = 0u64;
        for col in &self.cols {
            if let Some(mark) = col.top_mark() {
                sum = sum.wrapping_add(mix(mark.digits));
            }
        }
        for card in self.cells.iter().flatten() {
            // Cells apart from columns: a card alone in a column is not in a cell.
            sum = sum.wrapping_add(mix(card.id() as u64 | 1 << 32));
        }
        sum
    }

    /// The key with every cell and column in its place (moves name them by place): each cell
    /// (0 when empty), then each column's cards and a 0.
    pub fn placed_key(&self) -> CellsKey {
        let mut p = Packer::new();
        for cell in &self.cells {
            p.put(cell.map_or(0, Card::id));
        }
        for col in &self.cols {
            for card in col {
                p.put(card.id());
            }
            p.put(0);
        }
        p.done()
    }

    /// The position a placed key of a position of `variant` stands for.
    pub fn from_placed_key(variant: Variant, key: &CellsKey) -> CellsState {
        let mut state = CellsState {
            variant,
            cols: vec![Column::new(variant.build(), &[]); variant.columns()],
            cells: vec![None; variant.cells()],
            foundations: [0; 4],
        };
        state.set_placed_key(key);
        state
    }

    /// Becomes the position the placed key `key` of a position of its variant stands for, in
    /// the storage it has (the search decodes a position at every step).
    pub fn set_placed_key(&mut self, key: &CellsKey) {
        // Bits are read from `bits`, refilled a word at a time.
        let (mut word, mut bits, mut held) = (0usize, 0u64, 0u32);
        let mut next = || {
            if held < 6 {
                bits |= (key[word] as u64) << held;
                word += 1;
                held += 32;
            }
            let symbol = (bits & 63) as u8;
            bits >>= 6;
            held -= 6;
            symbol
        };
        for cell in self.cells.iter_mut() {
            *cell = Card::from_id(next());
        }
        for col in self.cols.iter_mut() {
            col.clear();
            while let Some(card) = Card::from_id(next()) {
                col.push(card);
            }
        }
        let mut foundations = [13u8; 4];
        for card in self
            .cols
            .iter()
            .flatten()
            .chain(self.cells.iter().flatten())
        {
            let top = &mut foundations[card.suit() as usize];
            *top = (*top).min(card.rank() - 1);
        }
        self.foundations = foundations;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_forget_the_order_of_cells_and_columns_and_placed_keys_decode() {
        for v in Variant::ALL {
            let deal = CellsDeal::from_number(v, 3).unwrap();
            let mut state = CellsState::from_deal(&deal);
            state.cells[0] = state.cols[1].pop();
            let back = CellsState::from_placed_key(v, &state.placed_key());
            assert_eq!(back, state);
            let mut turned = state.clone();
            turned.cols.reverse();
            turned.cells.reverse();
            assert_eq!(turned.key(), state.key());
            assert_ne!(turned.placed_key(), state.placed_key());
            turned.cols[0].clear();
            assert_ne!(turned.key(), state.key());
        }
    }
}
