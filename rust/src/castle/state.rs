//! The position the solver and the game move through, and its transposition-table key.

use super::deal::Deal;
use crate::cards::Card;

/// Columns of a castle game (all three deal 8).
pub const MAX_COLUMNS: usize = 8;
/// A column can never hold more than the whole deck.
const COLUMN_CAPACITY: usize = 52;

/// The transposition-table key: for every card, what lies under it. Columns are unordered in
/// it, yet it is exact: the bottom cards start the columns and each card has at most one card
/// on it, so the columns can be read back from it (as a set), and nothing else is needed (the
/// foundations hold exactly the cards not in the tableau). Six bits a card, card after card,
/// 312 bits in five words (a field may straddle two): 0 for a column's bottom card, the id
/// (1..=52) of the card under it, or [`NOT_IN_TABLEAU`]. Forty bytes, not 48: the table's
/// memory bound holds twice the positions.
#[derive(Copy, Clone, Debug)]
pub struct Key(pub [u64; 5]);

impl std::hash::Hash for Key {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

/// Word by word: the derived comparison of a byte array calls `memcmp`, which showed up as
/// a quarter of the search time in profiles.
impl PartialEq for Key {
    #[inline]
    fn eq(&self, other: &Key) -> bool {
        let (a, b) = (&self.0, &other.0);
        ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) | (a[4] ^ b[4])) == 0
    }
}

impl Eq for Key {}

impl Key {
    /// What lies under `card`: 0 (it is a bottom card), a card id, or [`NOT_IN_TABLEAU`].
    pub fn under(&self, card: Card) -> u64 {
        let bit = 6 * card.index();
        let (word, shift) = (bit / 64, bit % 64);
        let mut value = self.0[word] >> shift;
        if shift > 58 {
            value |= self.0[word + 1] << (64 - shift);
        }
        value & 63
    }

    /// The key whose field for the card of index `i` is `fields[i]`, built in one pass (as a
    /// decoded position's is: setting the 52 fields one by one was a tenth of the layered pass).
    pub(crate) fn from_fields(fields: &[u8; 52]) -> Key {
        // Bits 0..126 (cards 0..21), 126..252 (21..42) and 252..312 (42..52), each gathered
        // last card first, a shift by a constant at a time, then cut into words.
        let gather = |cards: &[u8]| cards.iter().rev().fold(0u128, |a, &v| a << 6 | v as u128);
        let (a, b, c) = (
            gather(&fields[..21]),
            gather(&fields[21..42]),
            gather(&fields[42..]),
        );
        Key([
            a as u64,
            (a >> 64) as u64 | (b << 62) as u64,
            (b >> 2) as u64,
            (b >> 66) as u64 | (c << 60) as u64,
            (c >> 4) as u64,
        ])
    }
}

/// Key field of a card on a foundation.
pub const NOT_IN_TABLEAU: u64 = 63;

impl Key {
    /// The key with `card` lying on `under` (a field: 0, a card id, or [`NOT_IN_TABLEAU`]):
    /// what a search that keeps the key beside its position does at each move.
    #[inline]
    pub fn place(&mut self, card: Card, under: u64) {
        set_field(self, card, under);
    }
}

#[inline]
fn set_field(key: &mut Key, card: Card, value: u64) {
    let bit = 6 * card.index();
    let (word, shift) = (bit / 64, bit % 64);
    key.0[word] = (key.0[word] & !(63 << shift)) | (value << shift);
    if shift > 58 {
        // The field's high bits start the next word.
        let high = 64 - shift;
        key.0[word + 1] = (key.0[word + 1] & !(63 >> high)) | (value >> high);
    }
}

/// A position seen from its columns' top cards alone: which cards are at a top, what lies under
/// each, the foundations, and whether a column is empty. Enough for the moves that go onto a
/// card or into an empty column (`moves::quiet_moves`), without laying out the columns.
#[derive(Clone, Debug)]
pub struct Tops {
    /// The cards at a column's top, a bit each by index.
    pub tops: u64,
    /// What lies under each card at a top (by index), as a [`Key`] field: 0 for the column's
    /// bottom, else the card's id. (The other cards' entries say nothing.)
    pub under: [u8; 52],
    pub foundations: [u8; 4],
    /// Whether some column is empty.
    pub empty: bool,
}

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
        let mut s = State::empty(deal.columns.len(), deal.foundations);
        for (i, column) in deal.columns.iter().enumerate() {
            for &card in column {
                s.push(i, card);
            }
        }
        s
    }

    /// `ncols` empty columns and the foundations: the start of a position built by pushing its
    /// cards, column by column, bottom first.
    pub(crate) fn empty(ncols: usize, foundations: [u8; 4]) -> State {
        assert!(ncols <= MAX_COLUMNS);
        State {
            ncols,
            lens: [0; MAX_COLUMNS],
            cards: [[Card::PLACEHOLDER; COLUMN_CAPACITY]; MAX_COLUMNS],
            foundations,
            in_tableau: 0,
        }
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

    /// A coarser key that also forgets suits: the columns' rank sequences as a sorted list, and
    /// the foundations' ranks sorted. Positions that differ only by suits share it (the quick
    /// pass of the search uses it; it is not exact).
    pub fn rank_key(&self) -> Key {
        // Each column as 4-bit ranks, the first card lowest, 16 a word: columns of more than 16
        // cards are rare but possible, so a column takes as many words as it needs (up to 4).
        // No rank is 0, so a column ends where its words do.
        let mut columns = [[0u64; 4]; MAX_COLUMNS];
        for (col, packed) in columns.iter_mut().enumerate().take(self.ncols) {
            for (i, card) in self.column(col).iter().enumerate() {
                packed[i / 16] |= (card.rank() as u64) << (4 * (i % 16));
            }
        }
        // In one order, whatever order the columns are in.
        let columns = &mut columns[..self.ncols];
        columns.sort_unstable();
        // The columns one after another, a zero symbol after each, 4 bits a symbol, the first
        // lowest: at most 52 + 8 symbols, 240 bits in words 0..4. A column's words go in
        // whole, shifted to where it starts.
        let mut key = [0u64; 5];
        let mut symbol = 0usize;
        for col in columns.iter() {
            let mut len = 0;
            for (j, &word) in col.iter().enumerate() {
                if word == 0 {
                    break;
                }
                let at = symbol + 16 * j;
                let shift = 4 * (at % 16);
                key[at / 16] |= word << shift;
                if shift > 0 {
                    key[at / 16 + 1] |= word >> (64 - shift);
                }
                len = 16 * j + (67 - word.leading_zeros() as usize) / 4;
            }
            symbol += len + 1;
        }
        let mut foundations = self.foundations;
        foundations.sort_unstable();
        for (i, rank) in foundations.iter().enumerate() {
            key[4] |= (*rank as u64) << (8 * i);
        }
        Key(key)
    }

    /// The position's key, the same for the same columns in any order: read from the
    /// columns, card by card (the searches that key every position keep their own key beside
    /// it, move by move, and need not pay for this at every move).
    pub fn key(&self) -> Key {
        let mut fields = [NOT_IN_TABLEAU as u8; 52];
        for col in 0..self.ncols {
            let mut under = 0;
            for card in self.column(col) {
                fields[card.index()] = under;
                under = card.id();
            }
        }
        Key::from_fields(&fields)
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
    use super::super::variant::Variant;
    use super::*;
    /// The key of a position with no card in the tableau: every field [`NOT_IN_TABLEAU`], all
    /// six bits set.
    const NONE_IN_TABLEAU: Key = {
        let bits = 6 * 52;
        let mut words = [u64::MAX; 5];
        words[4] = (1 << (bits - 4 * 64)) - 1;
        Key(words)
    };

    #[test]
    fn every_field_reads_back_what_was_set() {
        // The straddling fields included: each card in turn gets values that touch every bit.
        let mut key = Key([0; 5]);
        for card in Card::deck() {
            set_field(&mut key, card, NOT_IN_TABLEAU);
        }
        assert_eq!(key.0, NONE_IN_TABLEAU.0);
        for card in Card::deck() {
            for value in [0, 1, 42, 21, NOT_IN_TABLEAU] {
                set_field(&mut key, card, value);
                assert_eq!(key.under(card), value);
                for other in Card::deck().filter(|&c| c != card) {
                    assert_eq!(key.under(other), NOT_IN_TABLEAU);
                }
            }
            set_field(&mut key, card, NOT_IN_TABLEAU);
        }
        assert_eq!(key.0[4] >> (312 - 256), 0); // nothing past the last field
    }

    #[test]
    fn a_key_built_from_its_fields_is_the_key_set_field_by_field() {
        let mut fields = [0u8; 52];
        for round in 0..64u8 {
            let mut key = NONE_IN_TABLEAU;
            for card in Card::deck() {
                // Values that touch every bit of every field over the rounds.
                let value = (round + 7 * card.index() as u8) % 64;
                fields[card.index()] = value;
                set_field(&mut key, card, value as u64);
            }
            assert_eq!(Key::from_fields(&fields).0, key.0);
        }
    }

    /// What the shape key stands for: the columns' ranks, in any order, and the foundations'
    /// ranks, in any order.
    fn shape(state: &State) -> (Vec<Vec<u8>>, [u8; 4]) {
        let mut columns: Vec<Vec<u8>> = (0..state.ncols())
            .map(|c| state.column(c).iter().map(|card| card.rank()).collect())
            .collect();
        columns.sort();
        let mut foundations = state.foundations;
        foundations.sort();
        (columns, foundations)
    }

    #[test]
    fn the_rank_key_is_equal_exactly_when_the_shapes_are() {
        // Positions along random lines of play, and deals of long columns (of more than 16
        // and 32 cards, split anew), their suits swapped: every pair compared.
        let mut states = Vec::new();
        let mut seed = 18u64;
        let mut next = move |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for number in 1..=10 {
            for variant in [Variant::BeleagueredCastle, Variant::StreetsAndAlleys] {
                let mut state = State::from_deal(&Deal::from_number(variant, number).unwrap());
                let mut legal = Vec::new();
                for _ in 0..40 {
                    legal.clear();
                    super::super::moves::generate(&state, &mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    let m = legal[next(legal.len())];
                    super::super::moves::play(&mut state, m, &mut Vec::new());
                    states.push(state.clone());
                }
            }
        }
        let deck: Vec<Card> = Card::deck().collect();
        for split in [[20, 30, 40, 44, 46, 48, 50], [17, 34, 35, 36, 37, 38, 39]] {
            for swap in [false, true] {
                let mut cards = deck.clone();
                if swap {
                    // Each card for the card of its rank in the next suit.
                    cards = cards.iter().map(|c| deck[(c.index() + 13) % 52]).collect();
                }
                let mut columns = Vec::new();
                let mut from = 0;
                for to in split.into_iter().chain([52]) {
                    columns.push(cards[from..to].to_vec());
                    from = to;
                }
                let deal = Deal {
                    variant: Variant::StreetsAndAlleys,
                    number: None,
                    columns,
                    foundations: [0; 4],
                };
                let base = State::from_deal(&deal);
                // Every two cards traded: whatever symbol of the key they touch, the key
                // changes with the shape.
                for i in 0..52 {
                    for j in 0..i {
                        let mut traded = cards.clone();
                        traded.swap(i, j);
                        let mut deal = deal.clone();
                        let mut at = traded.iter();
                        for column in deal.columns.iter_mut() {
                            for card in column.iter_mut() {
                                *card = *at.next().unwrap();
                            }
                        }
                        let state = State::from_deal(&deal);
                        let same = shape(&state) == shape(&base);
                        assert_eq!(state.rank_key() == base.rank_key(), same, "{i} {j}");
                    }
                }
                states.push(base);
            }
        }
        assert!(states.len() > 400, "{}", states.len());
        let shapes: Vec<_> = states.iter().map(shape).collect();
        let keys: Vec<_> = states.iter().map(State::rank_key).collect();
        let mut same = 0;
        for i in 0..states.len() {
            for j in 0..i {
                assert_eq!(keys[i] == keys[j], shapes[i] == shapes[j], "{i} {j}");
                same += (shapes[i] == shapes[j]) as usize;
            }
        }
        assert!(same >= 2, "{same}");
    }

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
