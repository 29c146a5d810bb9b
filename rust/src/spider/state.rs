//! The Spider position the solver and the game move through, and its table key.

use super::deal::{Column, SpiderDeal, Suits, COLUMNS};
use crate::cards::Card;

/// One column: its cards bottom first, the first `down` of them face down.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Col {
    pub cards: Vec<Card>,
    pub down: usize,
}

impl Col {
    pub fn top(&self) -> Option<Card> {
        self.cards.last().copied()
    }

    pub fn face_up(&self) -> &[Card] {
        &self.cards[self.down..]
    }

    /// How many top cards form a run that may move as one: face up, each one rank below the
    /// card under it, all of one suit.
    pub fn run_len(&self) -> usize {
        let up = self.face_up();
        let mut n = usize::from(!up.is_empty());
        while n < up.len() {
            let (lower, upper) = (up[up.len() - n - 1], up[up.len() - n]);
            if lower.suit() != upper.suit() || lower.rank() != upper.rank() + 1 {
                break;
            }
            n += 1;
        }
        n
    }
}

/// A column as the key writes it: face-down card ids, the mark, face-up card ids.
fn symbols(c: &Col) -> impl Iterator<Item = u8> + '_ {
    let (down, up) = c.cards.split_at(c.down);
    down.iter()
        .map(|x| x.id())
        .chain(std::iter::once(MARK))
        .chain(up.iter().map(|x| x.id()))
}

/// The transposition-table key: every column as its cards (face-down ones, a marker, face-up
/// ones, a separator), then how many deals are done. Six bits a symbol: card ids are 1..=52,
/// 0 separates columns, 63 marks where the face-up cards start. At most 104 cards + 20 marks
/// + 1 = 125 symbols, 750 bits in twelve words.
///
/// While cards remain in the stock the columns keep their places, since a deal puts the k-th
/// card on the k-th column; once it is empty, only what the columns hold matters, and they are
/// sorted: positions that differ only in the order of their columns share one key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpiderKey(pub [u64; 12]);

const MARK: u8 = 63;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpiderState {
    pub suits: Suits,
    pub cols: Vec<Col>,
    /// The whole stock as dealt out, in dealing order; `stock[dealt..]` is still in it.
    pub stock: Vec<Card>,
    pub dealt: usize,
    /// Suits of the runs taken off, in order.
    pub off: Vec<u8>,
}

impl SpiderState {
    pub fn from_deal(deal: &SpiderDeal) -> SpiderState {
        SpiderState {
            suits: deal.suits,
            cols: deal
                .columns
                .iter()
                .map(|c| Col {
                    cards: c.down.iter().chain(&c.up).copied().collect(),
                    down: c.down.len(),
                })
                .collect(),
            stock: deal.stock.clone(),
            dealt: 0,
            off: deal.off.clone(),
        }
    }

    /// The position as a deal (no number): for board text and for the game.
    pub fn to_deal(&self) -> SpiderDeal {
        SpiderDeal {
            suits: self.suits,
            number: None,
            columns: self
                .cols
                .iter()
                .map(|c| Column {
                    down: c.cards[..c.down].to_vec(),
                    up: c.cards[c.down..].to_vec(),
                })
                .collect(),
            stock: self.stock[self.dealt..].to_vec(),
            off: self.off.clone(),
        }
    }

    /// Becomes a copy of `other`, in the storage it already has.
    pub fn copy_from(&mut self, other: &SpiderState) {
        self.suits = other.suits;
        self.cols.resize_with(other.cols.len(), Col::default);
        for (mine, theirs) in self.cols.iter_mut().zip(&other.cols) {
            mine.cards.clone_from(&theirs.cards);
            mine.down = theirs.down;
        }
        self.stock.clone_from(&other.stock);
        self.dealt = other.dealt;
        self.off.clone_from(&other.off);
    }

    pub fn stock_left(&self) -> &[Card] {
        &self.stock[self.dealt..]
    }

    /// Won: all eight runs are off.
    pub fn is_won(&self) -> bool {
        self.off.len() == super::deal::RUNS
    }

    pub fn key(&self) -> SpiderKey {
        self.pack(self.stock_left().is_empty())
    }

    /// The key with every column in its place (moves name columns by place).
    pub fn placed_key(&self) -> SpiderKey {
        self.pack(false)
    }

    fn pack(&self, sort: bool) -> SpiderKey {
        let mut order: [usize; COLUMNS] = std::array::from_fn(|i| i);
        if sort {
            // By the symbols the key writes: face-down cards, the mark, face-up cards.
            order.sort_unstable_by(|&a, &b| symbols(&self.cols[a]).cmp(symbols(&self.cols[b])));
        }
        let mut key = [0u64; 12];
        let mut at = 0usize;
        let mut put = |symbol: u8| {
            let (word, shift) = (at / 64, at % 64);
            key[word] |= (symbol as u64) << shift;
            if shift > 58 {
                key[word + 1] |= (symbol as u64) >> (64 - shift);
            }
            at += 6;
        };
        for &c in &order {
            let col = &self.cols[c];
            for &card in &col.cards[..col.down] {
                put(card.id());
            }
            put(MARK);
            for &card in &col.cards[col.down..] {
                put(card.id());
            }
            put(0);
        }
        put(1 + (self.dealt / COLUMNS) as u8);
        SpiderKey(key)
    }

    /// The position a placed key of a position of `deal`'s game stands for.
    pub fn from_placed_key(deal: &SpiderDeal, key: &SpiderKey) -> SpiderState {
        let symbol = |i: usize| {
            let (word, shift) = (6 * i / 64, 6 * i % 64);
            let mut v = key.0[word] >> shift;
            if shift > 58 {
                v |= key.0[word + 1] << (64 - shift);
            }
            (v & 63) as u8
        };
        let mut state = SpiderState::from_deal(deal);
        let mut at = 0;
        // Aces in sight or in the stock, by suit: each ace missing is a run off.
        let mut aces = [0usize; 4];
        for col in state.cols.iter_mut() {
            col.cards.clear();
            col.down = 0;
            loop {
                let s = symbol(at);
                at += 1;
                match s {
                    0 => break,
                    MARK => col.down = col.cards.len(),
                    id => {
                        let card = Card::from_id(id).unwrap();
                        aces[card.suit() as usize] += usize::from(card.rank() == 1);
                        col.cards.push(card);
                    }
                }
            }
        }
        state.dealt = (symbol(at) as usize - 1) * COLUMNS;
        for card in state.stock_left() {
            aces[card.suit() as usize] += usize::from(card.rank() == 1);
        }
        state.off.clear();
        for suit in 0..4u8 {
            let copies = if deal.suits.suits().contains(&suit) {
                deal.suits.copies()
            } else {
                0
            };
            for _ in aces[suit as usize]..copies {
                state.off.push(suit);
            }
        }
        state
    }
}

#[cfg(test)]
mod tests {
    use super::super::deal::{SpiderDeal, Suits};
    use super::super::moves::{apply, generate, SpiderMove};
    use super::*;

    /// The key as its layout says, symbol by symbol: symbol i in bits 6i to 6i+5 of the
    /// words read as one little-endian number.
    fn key_by_symbols(state: &SpiderState, sort: bool) -> SpiderKey {
        let mut order: Vec<usize> = (0..COLUMNS).collect();
        if sort {
            order.sort_by(|&a, &b| symbols(&state.cols[a]).cmp(symbols(&state.cols[b])));
        }
        let mut out: Vec<u8> = order
            .iter()
            .flat_map(|&c| symbols(&state.cols[c]).chain(std::iter::once(0)))
            .collect();
        out.push(1 + (state.dealt / COLUMNS) as u8);
        let mut key = [0u64; 12];
        for (i, &symbol) in out.iter().enumerate() {
            for bit in 0..6 {
                let at = 6 * i + bit;
                key[at / 64] |= u64::from(symbol >> bit & 1) << (at % 64);
            }
        }
        SpiderKey(key)
    }

    /// The key, word for word, is the layout's, whichever way it is made, along some play
    /// of each deck (deals made, so the stock empties and the columns are put in order).
    #[test]
    fn the_key_is_its_layout_word_for_word() {
        for (suits, number) in [(Suits::One, 3), (Suits::Two, 7), (Suits::Four, 12)] {
            let deal = SpiderDeal::from_number(suits, number).unwrap();
            let mut state = SpiderState::from_deal(&deal);
            let mut moves = Vec::new();
            for step in 0..400 {
                assert_eq!(state.placed_key(), key_by_symbols(&state, false));
                let sorted = state.stock_left().is_empty();
                assert_eq!(state.key(), key_by_symbols(&state, sorted));
                assert_eq!(
                    SpiderState::from_placed_key(&deal, &state.placed_key()),
                    state
                );
                moves.clear();
                generate(&state, true, &mut moves);
                let deal = moves.iter().copied().find(|&m| m == SpiderMove::Deal);
                let Some(m) = deal
                    .filter(|_| step % 15 == 14)
                    .or_else(|| moves.get(step * 7 % moves.len().max(1)).copied())
                else {
                    break;
                };
                apply(&mut state, m);
            }
            assert!(
                state.stock_left().is_empty(),
                "the play reached an empty stock"
            );
        }
    }
}
