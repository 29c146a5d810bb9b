//! The compact exact key: 3 bits a card, 20 bytes a position.
//!
//! In the castle games one card moves at a time, onto a card one rank higher (any suit), into an
//! empty column, or onto its foundation. So at any time a card lies on the card (or the column's
//! bottom, or the foundation) it was dealt on, on one of the four cards one rank higher, on a
//! column's bottom, or on its foundation, and nothing else. Relative to the deal the search
//! started from, three bits a card say which ([`DEALT`], [`ON_SUIT`] + suit, [`BOTTOM`],
//! [`ON_FOUNDATION`]). Like [`Key`], this says what lies under every card and nothing more: the
//! columns are unordered in it, and it tells exactly the positions apart that [`Key`] does (the
//! two are functions of each other, given the deal). [`Compact::decode`] reads a position back,
//! its columns in a canonical order.
//!
//! The complete pass keys its table by it (`keys.rs`, `solver::packed`); the solver's research notes have
//! the measurements.

use super::deal::Deal;
use super::moves::{is_safe_to_foundation, under_moved, Move};
use super::state::{Key, State, Tops, MAX_COLUMNS, NOT_IN_TABLEAU};
use crate::cards::{Card, KING};

/// The card lies on what it was dealt on: the same card, a column's bottom, or its foundation.
pub const DEALT: u32 = 0;
/// `ON_SUIT + s`: on the card one rank higher of suit `s` (which it was not dealt on).
pub const ON_SUIT: u32 = 1;
/// At a column's bottom (it was not dealt there).
pub const BOTTOM: u32 = 5;
/// On its foundation (it was not dealt there).
pub const ON_FOUNDATION: u32 = 6;

/// Cards `0..LOW_CARDS` (by index) in `low`, three bits each from bit 0; the rest in `high`.
const LOW_CARDS: usize = 42;
/// Set in every key, so that the all-zero bit pattern is never a key: a table can take it as
/// its empty slot.
const PRESENT: u32 = 1 << 31;

/// A position in 20 bytes (aligned to 4, so that an array of them has no padding): `low` holds
/// cards 0..42 (126 bits), `high` cards 42..52 (30 bits) and [`PRESENT`].
#[repr(C, packed(4))]
#[derive(Copy, Clone)]
pub struct CompactKey {
    low: u128,
    high: u32,
}

impl CompactKey {
    /// The bytes of a key ([`CompactKey::to_bytes`]): a record of the layers' files.
    pub const BYTES: usize = std::mem::size_of::<CompactKey>();
}

impl PartialEq for CompactKey {
    #[inline]
    fn eq(&self, other: &CompactKey) -> bool {
        let (a, b) = (*self, *other);
        ((a.low ^ b.low) | (a.high ^ b.high) as u128) == 0
    }
}

impl Eq for CompactKey {}

/// As one 160-bit number (`high`, then `low`), as the reference's int keys compare: the layered
/// pass expands a level in this order.
impl Ord for CompactKey {
    #[inline]
    fn cmp(&self, other: &CompactKey) -> std::cmp::Ordering {
        let (a, b) = (*self, *other);
        (a.high, a.low).cmp(&(b.high, b.low))
    }
}

impl PartialOrd for CompactKey {
    #[inline]
    fn partial_cmp(&self, other: &CompactKey) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// As bytes, all at once (as `Key`'s words are hashed): a multiplicative hasher such as Fx fed
/// word by word carries a difference in a word's high bits only into the hash's high bits, and
/// a table's index is taken from its low bits. Fed so, the complete pass of Beleaguered Castle
/// 954 spent 99% of its time probing a table of 2^26 slots.
impl std::hash::Hash for CompactKey {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write(&self.to_bytes());
    }
}

impl std::fmt::Debug for CompactKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (low, high) = (self.low, self.high);
        write!(f, "CompactKey({high:08x}{low:032x})")
    }
}

impl CompactKey {
    /// The all-zero bit pattern, never a key (it lacks [`PRESENT`]): an empty slot.
    pub const NONE: CompactKey = CompactKey { low: 0, high: 0 };

    /// The key as five words, as a table holds it (never all zero): its own 20 bytes as they
    /// lie (`low`, then `high`). Cut into words by shifts, it was stored a word at a time, and
    /// the table's hash, reading it back two words at once, waited on every lookup for the
    /// stores to land (the solver's research notes).
    #[inline]
    pub fn words(&self) -> [u32; 5] {
        // SAFETY: both are 20 bytes of plain integers (`CompactKey` is packed, no padding),
        // every bit pattern a value of either.
        unsafe { std::mem::transmute::<CompactKey, [u32; 5]>(*self) }
    }

    /// The key as bytes (`low`, then `high`, little-endian), as the layers' files hold it.
    #[inline]
    pub fn to_bytes(&self) -> [u8; CompactKey::BYTES] {
        let (low, high) = (self.low, self.high);
        let mut bytes = [0u8; 20];
        bytes[..16].copy_from_slice(&low.to_le_bytes());
        bytes[16..].copy_from_slice(&high.to_le_bytes());
        bytes
    }

    /// `to_bytes`'s inverse.
    #[inline]
    pub fn from_bytes(bytes: &[u8; CompactKey::BYTES]) -> CompactKey {
        let mut low = [0u8; 16];
        low.copy_from_slice(&bytes[..16]);
        let mut high = [0u8; 4];
        high.copy_from_slice(&bytes[16..]);
        CompactKey {
            low: u128::from_le_bytes(low),
            high: u32::from_le_bytes(high),
        }
    }

    /// The key of five words (`words`'s inverse), as a table gives its keys back.
    #[inline]
    pub fn from_words(w: [u32; 5]) -> CompactKey {
        // SAFETY: as in `words`.
        unsafe { std::mem::transmute::<[u32; 5], CompactKey>(w) }
    }

    /// The three bits of `card`.
    #[inline]
    pub fn code(&self, card: Card) -> u32 {
        let i = card.index();
        if i < LOW_CARDS {
            let low = self.low;
            (low >> (3 * i)) as u32 & 7
        } else {
            (self.high >> (3 * (i - LOW_CARDS))) & 7
        }
    }

    /// The key whose card of index `i` has the code `codes[i]` (`Compact::codes_of`'s
    /// inverse): eight codes at a time, read as one word and packed by three shifts and masks
    /// ([`pack8`]), not each card's field flipped at a shift by 3i.
    #[inline]
    pub fn from_codes(codes: &[u8; 52]) -> CompactKey {
        let word = |i: usize| pack8(u64::from_le_bytes(codes[i..i + 8].try_into().unwrap()));
        let mut low = (codes[40] as u128 | (codes[41] as u128) << 3) << 120;
        for i in 0..5 {
            low |= (word(8 * i) as u128) << (24 * i);
        }
        let high = word(LOW_CARDS) as u32 | (codes[50] as u32 | (codes[51] as u32) << 3) << 24;
        CompactKey {
            low,
            high: high | PRESENT,
        }
    }

    /// Flips the bits `flip` of `card`'s field.
    #[inline]
    fn flip(&mut self, card: Card, flip: u32) {
        let i = card.index();
        if i < LOW_CARDS {
            let low = self.low ^ ((flip as u128) << (3 * i));
            self.low = low;
        } else {
            let high = self.high ^ (flip << (3 * (i - LOW_CARDS)));
            self.high = high;
        }
    }
}

/// The lowest bit of each card's field in a key's low part (cards 0..42) and high part.
const LOW_FIELDS: u128 = {
    let mut m = 0u128;
    let mut i = 0;
    while i < LOW_CARDS {
        m |= 1 << (3 * i);
        i += 1;
    }
    m
};
const HIGH_FIELDS: u32 = {
    let mut m = 0u32;
    let mut i = 0;
    while i < 52 - LOW_CARDS {
        m |= 1 << (3 * i);
        i += 1;
    }
    m
};

/// Eight codes, one in the low three bits of each byte of `x`, as 24 bits (byte i at bit 3i):
/// each step joins neighbouring groups and drops what the shift moved out of its lane.
#[inline]
fn pack8(x: u64) -> u64 {
    let x = (x | x >> 5) & 0x003f_003f_003f_003f;
    let x = (x | x >> 10) & 0x0000_0fff_0000_0fff;
    (x | x >> 20) & 0xff_ffff
}

/// [`pack8`]'s inverse: 24 bits as eight codes, one a byte.
#[inline]
fn spread8(x: u64) -> u64 {
    let x = (x | x << 20) & 0x0000_0fff_0000_0fff;
    let x = (x | x << 10) & 0x003f_003f_003f_003f;
    (x | x << 5) & 0x0707_0707_0707_0707
}

/// The deal a search started from, which the compact keys of its positions are relative to.
#[derive(Clone, Debug)]
pub struct Compact {
    /// The deal's columns (a decoded position has as many).
    ncols: usize,
    /// For each card (by index), the [`Key`] field it was dealt with: 0 (a column's bottom), the
    /// id of the card it was dealt on, or [`NOT_IN_TABLEAU`].
    dealt: [u8; 52],
    /// Cards dealt on a card not one rank higher (once they leave it they never lie on it
    /// again), as a key: the lowest bit of each such card's field set (`layer`'s mask).
    one_way: CompactKey,
    /// The codes of the key with every card on its foundation (a position never reached, but
    /// the start from which [`Compact::encode`] places the tableau's cards).
    up_codes: [u8; 52],
    /// For each card (by index) and code: what the code says lies under it ([`Compact::under`];
    /// [`NO_CARD`] for an ON_SUIT code of a king), and what the code counts in the layer
    /// ([`Compact::marks`]). Looked up, not worked out: decoding a key reads 52 of them.
    codes: [[(u8, u8); 8]; 52],
    /// For each card (by index) and code: what the card adds to a position's sum in
    /// [`Compact::tops`]: the bit of the card it lies on (bits 0..52), its own bit (64 + its
    /// index) if it is in the tableau, and 1 at bit [`BOTTOMS`] if it lies at a column's
    /// bottom. No two cards lie on one card, so no field carries into another: the sum of a
    /// position's 52 entries holds all three at once, with no branch on a card.
    sums: [[u128; 8]; 52],
    /// For each card (by index) and what it may lie on (a [`Key`] field): its code there
    /// ([`Compact::code`], looked up: a child's key is two of them).
    on: [[u8; 64]; 52],
    /// For each card (by index) dealt on a card not one rank higher, that card's id; else
    /// [`NO_CARD`] ([`Compact::on_one_way`], looked up).
    one_way_on: [u8; 52],
}

/// Where [`Compact::sums`] count the cards at a column's bottom.
const BOTTOMS: u32 = 120;
/// The 52 cards' bits.
const DECK_BITS: u64 = (1 << 52) - 1;

/// [`Compact::codes`]' entry for a code no card can have.
const NO_CARD: u8 = u8::MAX;

impl Compact {
    pub fn new(deal: &Deal) -> Compact {
        let mut dealt = [NOT_IN_TABLEAU as u8; 52];
        for column in &deal.columns {
            let mut under = 0;
            for card in column {
                dealt[card.index()] = under;
                under = card.id();
            }
        }
        let mut all_up = CompactKey {
            low: 0,
            high: PRESENT,
        };
        for card in Card::deck() {
            if dealt[card.index()] != NOT_IN_TABLEAU as u8 {
                all_up.flip(card, ON_FOUNDATION);
            }
        }
        let mut one_way = CompactKey { low: 0, high: 0 };
        for card in Card::deck() {
            let under = Card::from_id(dealt[card.index()]);
            if under.is_some_and(|c| c.rank() != card.rank() + 1) {
                one_way.flip(card, 1);
            }
        }
        let mut compact = Compact {
            ncols: deal.columns.len(),
            dealt,
            one_way,
            up_codes: Compact::codes_of(&all_up),
            codes: [[(NO_CARD, 0); 8]; 52],
            sums: [[0; 8]; 52],
            on: [[0; 64]; 52],
            one_way_on: std::array::from_fn(|i| match one_way.code(Card::from_index(i)) {
                1 => dealt[i],
                _ => NO_CARD,
            }),
        };
        for card in Card::deck() {
            for code in [DEALT, BOTTOM, ON_FOUNDATION].into_iter().chain(
                (card.rank() < KING)
                    .then_some(ON_SUIT..BOTTOM)
                    .into_iter()
                    .flatten(),
            ) {
                let under = match code {
                    DEALT => dealt[card.index()],
                    BOTTOM => 0,
                    ON_FOUNDATION => NOT_IN_TABLEAU as u8,
                    _ => Card::new(card.rank() + 1, (code - ON_SUIT) as u8).id(),
                };
                let (up, left) = compact.marks(card, code);
                compact.codes[card.index()][code as usize] = (under, up as u8 + left as u8);
                // (Where the card was dealt, it is DEALT, whatever else the place is.)
                if code == DEALT || under != dealt[card.index()] {
                    compact.on[card.index()][under as usize] = code as u8;
                }
                compact.sums[card.index()][code as usize] = match under {
                    0 => 1 << BOTTOMS | 1 << (64 + card.index()),
                    u if u == NOT_IN_TABLEAU as u8 => 0,
                    u => 1 << (u - 1) | 1 << (64 + card.index()),
                };
            }
        }
        compact
    }

    /// The deal's own key: every card where it was dealt.
    #[inline]
    pub fn dealt(&self) -> CompactKey {
        CompactKey {
            low: 0,
            high: PRESENT,
        }
    }

    /// The code of `card` lying on `under` (a [`Key`] field: 0 for a column's bottom, a card
    /// id, or [`NOT_IN_TABLEAU`]).
    #[inline]
    pub fn code(&self, card: Card, under: u8) -> u32 {
        debug_assert!(
            under == self.dealt[card.index()]
                || under == 0
                || under == NOT_IN_TABLEAU as u8
                || Card::from_id(under).map(Card::rank) == Some(card.rank() + 1)
        );
        self.on[card.index()][under as usize & 63] as u32
    }

    /// What a code says lies under `card`, as a [`Key`] field.
    #[inline]
    pub fn under(&self, card: Card, code: u32) -> u8 {
        let under = self.codes[card.index()][code as usize].0;
        debug_assert_ne!(under, NO_CARD, "{card:?} {code}");
        under
    }

    /// The compact key of `state` (a position reached from this deal), from its columns.
    pub fn encode(&self, state: &State) -> CompactKey {
        let mut codes = self.up_codes;
        for col in 0..state.ncols() {
            let mut under = 0;
            for &card in state.column(col) {
                codes[card.index()] = self.code(card, under) as u8;
                under = card.id();
            }
        }
        CompactKey::from_codes(&codes)
    }

    /// Every card's code with every card up: the codes from which a key is built card by card
    /// ([`Compact::code`], [`CompactKey::from_codes`]).
    #[inline]
    pub fn up_codes(&self) -> [u8; 52] {
        self.up_codes
    }

    /// The same, from the position's [`Key`].
    pub fn encode_key(&self, exact: &Key) -> CompactKey {
        let mut key = self.dealt();
        for card in Card::deck() {
            key.flip(card, self.code(card, exact.under(card) as u8));
        }
        key
    }

    /// Updates `key` for `card` now lying on `under` (a [`Key`] field): what a search that
    /// keeps the key beside its position does at each move. Returns what that adds to the
    /// position's layer.
    #[inline]
    pub fn place(&self, key: &mut CompactKey, card: Card, under: u8) -> i32 {
        self.replace(key, card, key.code(card), under)
    }

    /// [`Compact::place`] for a card whose code in `key` is `old`.
    #[inline]
    fn replace(&self, key: &mut CompactKey, card: Card, old: u32, under: u8) -> i32 {
        let new = self.code(card, under);
        key.flip(card, old ^ new);
        let weights = &self.codes[card.index()];
        weights[new as usize & 7].1 as i32 - weights[old as usize & 7].1 as i32
    }

    /// The key of `state`, reached by `moves` (a move and its automatic moves, or moves taken
    /// back) from the position keyed `parent`: each card moved lies on what `state` says
    /// ([`under_moved`]; a card moved twice, as a move and then up, is placed twice, the last
    /// time right). With what the moves added to the layer.
    #[inline]
    pub fn child_key(
        &self,
        parent: &CompactKey,
        state: &State,
        moves: &[Move],
    ) -> (CompactKey, i32) {
        let (mut key, mut layer) = (*parent, 0);
        for m in moves {
            layer += self.place(&mut key, m.card, under_moved(state, *m));
        }
        (key, layer)
    }

    /// The key of the position `m` leads to from `state` (keyed `parent`), and what it adds to
    /// the layer, without making the move, when no automatic move follows it: `m` goes onto a
    /// card or into an empty column, and the card it uncovers (if any) is not safe to send up.
    /// `state` has no automatic move left (as every position a search keys), so then the
    /// position after `m` has none either: the foundations are as they were, and every top
    /// card but the uncovered one was a top card before. Else None: the move must be made.
    // Inlined always: the depth-first pass, calling it for every child, drops the layer.
    #[inline(always)]
    pub fn quiet_child(
        &self,
        parent: &CompactKey,
        state: &State,
        m: Move,
    ) -> Option<(CompactKey, i32)> {
        if m.to_foundation() {
            return None;
        }
        let column = state.column(m.from as usize);
        debug_assert_eq!(column.last(), Some(&m.card));
        let below = column.len().checked_sub(2).map(|i| column[i]);
        if below.is_some_and(|b| is_safe_to_foundation(state, b)) {
            return None;
        }
        let under = state.top(m.to as usize).map_or(0, Card::id);
        let mut key = *parent;
        // The card's code now, from what it lies on (looked up, not cut from the key).
        let old = self.code(m.card, below.map_or(0, Card::id));
        debug_assert_eq!(old, parent.code(m.card));
        let layer = self.replace(&mut key, m.card, old, under);
        Some((key, layer))
    }

    /// Whether `card`, lying on `under` (a [`Key`] field), lies on a card it was dealt on that
    /// is not one rank higher: once it leaves, it never lies there again.
    #[inline]
    pub fn on_one_way(&self, card: Card, under: u8) -> bool {
        self.one_way_on[card.index()] == under
    }

    /// Whether `card` with code `code` is on its foundation (not dealt there), and whether it
    /// has left a card it was dealt on that is not one rank higher: the two things no move
    /// undoes.
    #[inline]
    fn marks(&self, card: Card, code: u32) -> (bool, bool) {
        (
            code == ON_FOUNDATION,
            code != DEALT && self.one_way.code(card) == 1,
        )
    }

    /// What can never be undone in the position: bit `i` for card `i` (by index) on its
    /// foundation (not dealt there), bit `64 + i` for card `i` off a card it was dealt on that
    /// is not one rank higher. No move clears a bit, so a position leads to `key` only if its
    /// facts are a subset of `key`'s.
    #[inline]
    pub fn facts(&self, key: &CompactKey) -> u128 {
        let mut facts = 0;
        for card in Card::deck() {
            let (up, left) = self.marks(card, key.code(card));
            facts |= (up as u128) << card.index() | (left as u128) << (64 + card.index());
        }
        facts
    }

    /// The position's layer of irreversibility: its facts counted, the cards
    /// on their foundations (less those dealt there) and the cards that have left a card they
    /// were dealt on that is not one rank higher. No move makes it smaller.
    ///
    /// The count of [`Compact::facts`], taken a field at a time in parallel: the lowest bit of
    /// each 3-bit field says whether the field is 6 (`ON_FOUNDATION`), or not 0 (`DEALT`) for a
    /// one-way card. (Counted card by card, it was most of the time it took to sort a full
    /// table's keys by layer.)
    #[inline]
    pub fn layer(&self, key: &CompactKey) -> u32 {
        const _: () = assert!(ON_FOUNDATION == 0b110 && DEALT == 0);
        let (low, high) = (key.low, key.high);
        let (one_low, one_high) = (self.one_way.low, self.one_way.high);
        let up = ((low >> 2) & (low >> 1) & !low & LOW_FIELDS).count_ones()
            + ((high >> 2) & (high >> 1) & !high & HIGH_FIELDS).count_ones();
        let moved = ((low | low >> 1 | low >> 2) & one_low).count_ones()
            + ((high | high >> 1 | high >> 2) & one_high).count_ones();
        up + moved
    }

    /// The codes of `key`, in card order: eight at a time, spread to a byte each by three
    /// shifts and masks ([`spread8`]).
    #[inline]
    fn codes_of(key: &CompactKey) -> [u8; 52] {
        let mut codes = [0u8; 52];
        let (low, high) = (key.low, key.high);
        let mut put = |i: usize, fields: u64| {
            codes[i..i + 8].copy_from_slice(&spread8(fields & 0xff_ffff).to_le_bytes());
        };
        for i in 0..5 {
            put(8 * i, (low >> (24 * i)) as u64);
        }
        put(LOW_CARDS, high as u64);
        codes[40] = (low >> 120) as u8 & 7;
        codes[41] = (low >> 123) as u8 & 7;
        codes[50] = (high >> 24) as u8 & 7;
        codes[51] = (high >> 27) as u8 & 7;
        codes
    }

    /// The position `key` stands for, seen from its tops ([`Tops`]): one pass over the codes
    /// that sums their entries in [`Compact::sums`], the columns not laid out (the layered
    /// pass's quiet moves need no more).
    #[inline]
    pub fn tops(&self, key: &CompactKey) -> Tops {
        let (mut low, mut high) = (key.low, key.high);
        let mut sum = 0u128;
        for sums in &self.sums[..LOW_CARDS] {
            sum += sums[low as usize & 7];
            low >>= 3;
        }
        for sums in &self.sums[LOW_CARDS..] {
            sum += sums[high as usize & 7];
            high >>= 3;
        }
        let covered = sum as u64 & DECK_BITS;
        let tableau = (sum >> 64) as u64 & DECK_BITS;
        let mut view = Tops {
            tops: tableau & !covered,
            under: [0; 52],
            // The cards of a suit not in the tableau are up: its foundation's height.
            foundations: std::array::from_fn(|s| {
                (!tableau >> (13 * s) & 0x1fff).count_ones() as u8
            }),
            empty: ((sum >> BOTTOMS) as usize) < self.ncols,
        };
        let mut tops = view.tops;
        while tops != 0 {
            let i = tops.trailing_zeros() as usize;
            tops &= tops - 1;
            let card = Card::from_index(i);
            view.under[i] = self.under(card, key.code(card));
        }
        view
    }

    /// The position `key` stands for, its columns in a canonical order: by bottom card (by
    /// id), the empty ones last.
    pub fn decode(&self, key: &CompactKey) -> State {
        // What lies under each card, turned round to what lies on each card.
        let mut on = [0u8; 53];
        let mut bottoms = [Card::PLACEHOLDER; MAX_COLUMNS];
        let mut count = 0;
        let mut foundations = [0u8; 4];
        let codes = Compact::codes_of(key);
        for (i, card) in Card::deck().enumerate() {
            match self.under(card, codes[i] as u32) {
                0 => {
                    bottoms[count] = card;
                    count += 1;
                }
                under if under == NOT_IN_TABLEAU as u8 => {
                    let f = &mut foundations[card.suit() as usize];
                    *f = (*f).max(card.rank());
                }
                under => on[under as usize] = card.id(),
            }
        }
        let mut state = State::empty(self.ncols, foundations);
        for (col, &bottom) in bottoms[..count].iter().enumerate() {
            let mut card = Some(bottom);
            while let Some(c) = card {
                state.push(col, c);
                card = Card::from_id(on[c.id() as usize]);
            }
        }
        state
    }
}

#[cfg(test)]
mod tests {
    use super::super::deal::lay_out;
    use super::super::moves::{
        all_legal, apply, generate, play, play_automatic, quiet_moves, undo, unwind, Move,
    };
    use super::super::variant::Variant;
    use super::*;
    use rustc_hash::FxHashMap;

    #[test]
    fn a_key_is_twenty_bytes_and_packs_without_padding() {
        assert_eq!(std::mem::size_of::<CompactKey>(), 20);
        assert_eq!(std::mem::align_of::<CompactKey>(), 4);
        assert_eq!(std::mem::size_of::<[CompactKey; 10]>(), 200);
        assert_eq!(std::mem::size_of::<Key>(), 40);
    }

    /// A key made from its codes holds each code in its card's field, and gives them back.
    #[test]
    fn a_key_from_codes_holds_each_code_in_its_field() {
        let mut rng = Lcg(5);
        for _ in 0..2000 {
            let codes: [u8; 52] = std::array::from_fn(|_| rng.below(8) as u8);
            let key = CompactKey::from_codes(&codes);
            for card in Card::deck() {
                assert_eq!(key.code(card), codes[card.index()] as u32);
            }
            assert_eq!(key.high & PRESENT, PRESENT);
            assert_eq!(Compact::codes_of(&key), codes);
        }
    }

    /// A fixed-seed generator for the tests.
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    /// Deals of every variant: PySolFC's deals, and the 52 cards laid out at random, some of them
    /// with part of each suit on its foundation from the start.
    fn deals(rng: &mut Lcg) -> Vec<Deal> {
        let mut deals = Vec::new();
        for variant in Variant::ALL {
            for _ in 0..4 {
                deals.push(Deal::from_number(variant, 1 + rng.below(1_000_000)).unwrap());
            }
            let mut cards: Vec<Card> = Card::deck().collect();
            for i in (1..cards.len()).rev() {
                cards.swap(i, rng.below(i as u64 + 1) as usize);
            }
            deals.push(lay_out(variant, None, cards.clone()));
            // A midgame board: the lowest few ranks of each suit already up.
            let mut foundations = [0u8; 4];
            for f in foundations.iter_mut() {
                *f = rng.below(6) as u8;
            }
            let mut columns = vec![Vec::new(); 8];
            for card in cards {
                if card.rank() > foundations[card.suit() as usize] {
                    columns[rng.below(8) as usize].push(card);
                }
            }
            deals.push(Deal {
                variant,
                number: None,
                columns,
                foundations,
            });
        }
        deals
    }

    /// Random play from each deal (every legal move, into any empty column too; now and then a
    /// move taken back), checking every position: the round trip, the key kept move by move, and
    /// that the compact key and the exact key tell the same positions apart.
    #[test]
    fn the_compact_key_identifies_exactly_the_positions_the_key_does() {
        let mut rng = Lcg(18);
        let (mut positions, mut distinct) = (0, 0);
        for deal in deals(&mut rng) {
            let compact = Compact::new(&deal);
            let mut by_key: FxHashMap<Key, CompactKey> = FxHashMap::default();
            let mut by_compact: FxHashMap<CompactKey, Key> = FxHashMap::default();
            for _walk in 0..30 {
                let mut state = State::from_deal(&deal);
                let mut kept = compact.encode(&state);
                let mut line: Vec<Move> = Vec::new();
                let mut legal = Vec::new();
                for _step in 0..400 {
                    let key = compact.encode(&state);
                    assert_eq!(key, kept);
                    assert_eq!(key, compact.encode_key(&state.key()));
                    let back = compact.decode(&key);
                    assert_eq!(back.key(), state.key());
                    // As a table holds it: never all zero, and read back whole.
                    assert_ne!(key.words(), [0; 5]);
                    assert_eq!(CompactKey::from_words(key.words()), key);
                    assert_eq!(compact.encode(&back), key);
                    assert_eq!(*by_key.entry(state.key()).or_insert(key), key);
                    assert_eq!(*by_compact.entry(key).or_insert(state.key()), state.key());
                    positions += 1;

                    legal.clear();
                    all_legal(&state, &mut legal);
                    let m = if legal.is_empty() || (!line.is_empty() && rng.below(8) == 0) {
                        let Some(m) = line.pop() else { break };
                        undo(&mut state, m);
                        kept_after(&compact, &mut kept, &state, m, true);
                        continue;
                    } else {
                        legal[rng.below(legal.len() as u64) as usize]
                    };
                    apply(&mut state, m);
                    kept_after(&compact, &mut kept, &state, m, false);
                    line.push(m);
                }
            }
            assert_eq!(by_key.len(), by_compact.len());
            distinct += by_key.len();
        }
        assert!(
            positions > 200_000 && distinct > 15_000,
            "{positions} {distinct}"
        );
    }

    /// Every position within reach of each deal, breadth first (up to a bound), by every legal
    /// move: no two of them with different keys share a compact key, and each reads back.
    #[test]
    fn no_two_positions_near_a_deal_share_a_compact_key() {
        let mut rng = Lcg(2026);
        let mut total = 0;
        for deal in deals(&mut rng) {
            let compact = Compact::new(&deal);
            let start = State::from_deal(&deal);
            let mut seen: FxHashMap<CompactKey, Key> = FxHashMap::default();
            seen.insert(compact.encode(&start), start.key());
            let mut layer = vec![start];
            let mut legal = Vec::new();
            while !layer.is_empty() && seen.len() < 20_000 {
                let mut next = Vec::new();
                for state in &layer {
                    legal.clear();
                    all_legal(state, &mut legal);
                    for &m in &legal {
                        let mut child = state.clone();
                        apply(&mut child, m);
                        let key = compact.encode(&child);
                        match seen.get(&key) {
                            Some(exact) => assert_eq!(*exact, child.key()),
                            None => {
                                assert_eq!(compact.decode(&key).key(), child.key());
                                seen.insert(key, child.key());
                                next.push(child);
                            }
                        }
                    }
                }
                layer = next;
            }
            // And the same key never got two compact keys (moves into every empty column
            // reach the same position with its columns in other places).
            let keys: rustc_hash::FxHashSet<Key> = seen.values().copied().collect();
            assert_eq!(keys.len(), seen.len());
            total += seen.len();
        }
        assert!(total > 300_000, "{total}");
    }

    /// The kept key after `m` was made (or taken back): one card moved.
    fn kept_after(compact: &Compact, kept: &mut CompactKey, state: &State, m: Move, undone: bool) {
        let to = if undone { m.from } else { m.to };
        let under = if !undone && m.to_foundation() {
            NOT_IN_TABLEAU as u8
        } else {
            let column = state.column(to as usize);
            column.len().checked_sub(2).map_or(0, |i| column[i].id())
        };
        compact.place(kept, m.card, under);
    }

    /// Random play as the searches play (each move followed by its automatic moves): at every
    /// position, each move's quiet child, when there is one, is the key and layer step of the
    /// move made, no automatic move follows it, and it is not a win; and most moves have one.
    /// The tops alone (`Compact::tops`, `quiet_moves`) give the same quiet children, and say
    /// whether there are others.
    #[test]
    fn a_quiet_child_is_the_child_the_move_makes() {
        let mut rng = Lcg(9);
        let (mut quiet, mut made) = (0u32, 0u32);
        for deal in deals(&mut rng) {
            let compact = Compact::new(&deal);
            let mut fresh = Vec::new();
            let mut line = Vec::new();
            for _walk in 0..10 {
                let mut state = State::from_deal(&deal);
                play_automatic(&mut state, &mut line);
                let mut key = compact.encode(&state);
                for _step in 0..200 {
                    fresh.clear();
                    generate(&state, &mut fresh);
                    if fresh.is_empty() || state.is_won() {
                        break;
                    }
                    // The quiet children seen from the tops alone, for the same position.
                    let mut from_tops = Vec::new();
                    let loud = quiet_moves(&compact.tops(&key), |card, onto| {
                        let mut child = key;
                        let up = compact.place(&mut child, card, onto);
                        from_tops.push((child.to_bytes(), up));
                    });
                    let (mut quiet_here, mut loud_here) = (Vec::new(), false);
                    for &m in &fresh {
                        line.clear();
                        let before = state.clone();
                        play(&mut state, m, &mut line);
                        let played = compact.child_key(&key, &state, &line);
                        assert_eq!(played.0, compact.encode(&state));
                        match compact.quiet_child(&key, &before, m) {
                            Some(child) => {
                                assert_eq!(child, played);
                                assert_eq!(line.len(), 1);
                                assert!(!state.is_won());
                                quiet_here.push((child.0.to_bytes(), child.1));
                                quiet += 1;
                            }
                            None => {
                                loud_here = true;
                                made += 1;
                            }
                        }
                        unwind(&mut state, &mut line, 0);
                        assert_eq!(state, before);
                    }
                    from_tops.sort();
                    quiet_here.sort();
                    assert_eq!(from_tops, quiet_here);
                    assert_eq!(loud, loud_here);
                    line.clear();
                    let m = fresh[rng.below(fresh.len() as u64) as usize];
                    play(&mut state, m, &mut line);
                    key = compact.child_key(&key, &state, &line).0;
                }
            }
        }
        assert!(quiet > 10 * made && made > 500, "{quiet} {made}");
    }

    /// Forward random play (no move taken back): the layer never goes down, and one move
    /// raises it by at most two (a card leaving a one-way card for its foundation).
    #[test]
    fn no_move_lowers_the_layer() {
        let mut rng = Lcg(3);
        let mut rises = 0;
        for deal in deals(&mut rng) {
            let compact = Compact::new(&deal);
            let mut legal = Vec::new();
            for _walk in 0..20 {
                let mut state = State::from_deal(&deal);
                let mut layer = compact.layer(&compact.encode(&state));
                assert_eq!(layer, 0);
                for _step in 0..200 {
                    legal.clear();
                    all_legal(&state, &mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    apply(&mut state, legal[rng.below(legal.len() as u64) as usize]);
                    let key = compact.encode(&state);
                    let next = compact.layer(&key);
                    // Counted in parallel, as the facts count it card by card.
                    assert_eq!(next, compact.facts(&key).count_ones());
                    assert!((layer..=layer + 2).contains(&next), "{layer} -> {next}");
                    rises += (next > layer) as u32;
                    layer = next;
                }
            }
        }
        assert!(rises > 1000, "{rises}");
    }

    /// Keys that differ in two cards' fields spread over a table's buckets as random ones
    /// would (the index is the hash's low bits): none of the card fields is left out of them.
    #[test]
    fn the_hash_spreads_keys_over_the_buckets() {
        use std::hash::BuildHasher;
        let hasher = rustc_hash::FxBuildHasher;
        let base = CompactKey {
            low: 0,
            high: PRESENT,
        };
        for bits in [16, 20, 26, 28] {
            let mask = (1u64 << bits) - 1;
            let mut buckets = rustc_hash::FxHashSet::default();
            let mut n = 0;
            for a in Card::deck() {
                for b in Card::deck().filter(|&b| b > a) {
                    for (ca, cb) in [(1, 2), (5, 6), (6, 3)] {
                        let mut key = base;
                        key.flip(a, ca);
                        key.flip(b, cb);
                        buckets.insert(hasher.hash_one(key) & mask);
                        n += 1;
                    }
                }
            }
            // Random hashes: m(1 - exp(-n/m)) distinct, n = 3,978; 98% of that at the least.
            let m = (1u64 << bits) as f64;
            let expected = m * (1.0 - (-(n as f64) / m).exp());
            assert!(
                buckets.len() as f64 > 0.98 * expected,
                "{} buckets of {n} keys at {bits} bits, {expected:.0} expected",
                buckets.len()
            );
        }
    }

    #[test]
    fn the_deal_itself_is_all_dealt_codes() {
        let deal = Deal::from_number(Variant::Citadel, 5).unwrap();
        let compact = Compact::new(&deal);
        let key = compact.encode(&State::from_deal(&deal));
        assert!(Card::deck().all(|c| key.code(c) == DEALT));
        // Moving a card elsewhere changes its code and nothing else's.
        let mut state = State::from_deal(&deal);
        let card = state.pop(0);
        let moved = compact.encode(&state);
        for c in Card::deck() {
            let want = if c == card { ON_FOUNDATION } else { DEALT };
            assert_eq!(moved.code(c), want);
        }
        let zero = CompactKey::NONE;
        assert!(key != zero && moved != zero);
    }
}
