//! An orbit's canonical form (`orbits.rs`): which cards of a position are free, and the
//! position's key up to swapping free cards of one rank, with the relabeling that takes it there.

use super::compact::{Compact, CompactKey};
use super::state::{State, MAX_COLUMNS};
use crate::cards::Card;

/// The free cards of `state` (a bit each by index): in the tableau, above the next card of
/// their suit's foundation, neither on nor under a card they were dealt on that is not one rank
/// higher.
pub(super) fn free_cards(compact: &Compact, state: &State) -> u64 {
    // The cards of each suit up to the one after its foundation's top (bit 13s + rank - 1).
    let low = (0..4).fold(0u64, |low, s| {
        let n = (state.foundations[s] as u32 + 1).min(13);
        low | ((1 << n) - 1) << (13 * s)
    });
    let (mut tableau, mut linked) = (0u64, 0u64);
    for col in 0..state.ncols() {
        // What lies under the card (a `Key` field) and its bit.
        let (mut under, mut under_bit) = (0u8, 0u64);
        for &card in state.column(col) {
            let bit = 1 << card.index();
            tableau |= bit;
            if compact.on_one_way(card, under) {
                linked |= bit | under_bit;
            }
            (under, under_bit) = (card.id(), bit);
        }
    }
    tableau & !(low | linked)
}

/// No card: an entry of a relabeling for a card that is not free.
pub(super) const NONE: u8 = u8::MAX;

/// The key of `state`'s orbit, and the relabeling that takes `state` to it (by index: the card
/// each free card becomes; [`NONE`] for the others), given its free cards ([`free_cards`]).
/// The canonical member: each column read bottom up as pinned cards and ranks of free cards,
/// the columns in that order, then the free cards of each rank dealt out in it, lowest index
/// first.
pub(super) fn canon(compact: &Compact, state: &State, free: u64) -> (CompactKey, [u8; 52]) {
    canon_by(compact, state, free, &heads(state, free))
}

/// The first tokens of a column [`canon`] compares: `HEAD` of them as one number.
pub(super) type Heads = [u128; MAX_COLUMNS];

/// How many of a column's tokens its head holds.
const HEAD: usize = 16;

/// A card's token in [`canon`]'s columns: its index if pinned, above every index (so that a
/// pinned card sorts first) and by its rank alone if free.
#[inline]
fn token(card: Card, free: u64) -> u8 {
    match free >> card.index() & 1 == 1 {
        true => 64 + card.rank(),
        false => card.index() as u8,
    }
}

/// The head of `column`: its first `HEAD` tokens, the first in the highest byte, each plus one
/// so that a column's end (a zero) sorts before any card. Columns compare as their tokens do,
/// the rest read only if the heads are equal.
#[inline]
pub(super) fn head(column: &[Card], free: u64) -> u128 {
    let first = &column[..column.len().min(HEAD)];
    let packed = first
        .iter()
        .fold(0u128, |a, &card| a << 8 | (token(card, free) + 1) as u128);
    packed
        .checked_shl(8 * (HEAD - first.len()) as u32)
        .unwrap_or(0)
}

/// The heads of `state`'s columns.
pub(super) fn heads(state: &State, free: u64) -> Heads {
    let mut heads = [0; MAX_COLUMNS];
    for (col, h) in heads.iter_mut().enumerate().take(state.ncols()) {
        *h = head(state.column(col), free);
    }
    heads
}

/// [`canon`], given the heads of `state`'s columns (a child's are its parent's but in the two
/// columns its move changed).
pub(super) fn canon_by(
    compact: &Compact,
    state: &State,
    free: u64,
    heads: &Heads,
) -> (CompactKey, [u8; 52]) {
    let n = state.ncols();
    let is_free = |card: Card| free >> card.index() & 1 == 1;
    let before = |a: usize, b: usize| match heads[a].cmp(&heads[b]) {
        std::cmp::Ordering::Equal => {
            let rest = |col: usize| state.column(col).iter().skip(HEAD).map(|&c| token(c, free));
            rest(a).cmp(rest(b)).then(a.cmp(&b)).is_lt()
        }
        order => order.is_lt(),
    };
    let mut order = [0usize; MAX_COLUMNS];
    for col in 0..n {
        let mut i = col;
        while i > 0 && before(col, order[i - 1]) {
            order[i] = order[i - 1];
            i -= 1;
        }
        order[i] = col;
    }
    // Bit 13s of `left >> (rank - 1)`: the card of that rank of suit s not yet dealt out.
    const EACH_SUIT: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;
    let (mut left, mut map) = (free, [NONE; 52]);
    let mut codes = compact.up_codes();
    for &col in &order[..n] {
        let mut under = 0;
        for &card in state.column(col) {
            let put = if is_free(card) {
                let rank = card.rank() as usize - 1;
                let put = rank + (left >> rank & EACH_SUIT).trailing_zeros() as usize;
                left &= !(1 << put);
                map[card.index()] = put as u8;
                Card::from_index(put)
            } else {
                card
            };
            codes[put.index()] = compact.code(put, under) as u8;
            under = put.id();
        }
    }
    (CompactKey::from_codes(&codes), map)
}

#[cfg(test)]
mod tests {
    use super::super::deal::{endgame, Deal};
    use super::super::moves::{generate, play, play_automatic, unwind};
    use super::super::variant::Variant;
    use super::*;

    /// [`free_cards`] as the rule says it, from the deal itself: a card is pinned if it is at
    /// or below the next card of its suit's foundation, or if it or the card on it lies where
    /// it was dealt on a card not one rank higher.
    fn plain_free_cards(deal: &Deal, state: &State) -> u64 {
        let dealt_on = |card: Card| {
            deal.columns
                .iter()
                .find_map(|column| {
                    let j = column.iter().position(|&c| c == card)?;
                    Some(j.checked_sub(1).map(|j| column[j]))
                })
                .flatten()
        };
        let one_way = |card: Card, under: Card| {
            dealt_on(card) == Some(under) && under.rank() != card.rank() + 1
        };
        let mut free = 0u64;
        for col in 0..state.ncols() {
            let column = state.column(col);
            for (j, &card) in column.iter().enumerate() {
                let low = card.rank() <= state.foundations[card.suit() as usize] + 1;
                let on = j > 0 && one_way(card, column[j - 1]);
                let under = column.get(j + 1).is_some_and(|&c| one_way(c, card));
                if !(low || on || under) {
                    free |= 1 << card.index();
                }
            }
        }
        free
    }

    /// Positions along random lines of play from deals of each variant and from endgames on
    /// few columns (long columns): each with the deal it came from.
    fn random_positions(mut seed: u64) -> Vec<(Deal, State)> {
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut deals = Vec::new();
        for variant in Variant::ALL {
            for _ in 0..3 {
                deals.push(Deal::from_number(variant, 1 + next(100_000)).unwrap());
            }
            for ncols in [3, 4] {
                let foundations = std::array::from_fn(|_| next(5) as u8);
                deals.push(endgame(variant, foundations, ncols, &mut next));
            }
        }
        let mut positions = Vec::new();
        let mut moves = Vec::new();
        for deal in deals {
            for _ in 0..20 {
                let mut state = State::from_deal(&deal);
                play_automatic(&mut state, &mut Vec::new());
                for _ in 0..60 {
                    positions.push((deal.clone(), state.clone()));
                    moves.clear();
                    generate(&state, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[next(moves.len() as u64) as usize];
                    play(&mut state, m, &mut Vec::new());
                }
            }
        }
        positions
    }

    /// [`canon`] as its comment says it: the columns' tokens sorted as slices, the suits of
    /// each rank dealt out lowest first, the key encoded from the cards placed.
    fn plain_canon(compact: &Compact, state: &State, free: u64) -> (CompactKey, [u8; 52]) {
        let is_free = |card: Card| free >> card.index() & 1 == 1;
        let read = |col: usize| -> Vec<u8> {
            let token = |&card: &Card| match is_free(card) {
                true => 64 + card.rank(),
                false => card.index() as u8,
            };
            state.column(col).iter().map(token).collect()
        };
        let mut order: Vec<usize> = (0..state.ncols()).collect();
        order.sort_by_key(|&col| (read(col), col));
        let (mut left, mut map) = (free, [NONE; 52]);
        let mut placed = Vec::new();
        for col in order {
            let mut under = 0;
            for &card in state.column(col) {
                let put = if is_free(card) {
                    let suit = (0..4)
                        .find(|s| left >> (13 * s + card.rank() as usize - 1) & 1 == 1)
                        .unwrap();
                    let put = Card::new(card.rank(), suit as u8);
                    left &= !(1 << put.index());
                    map[card.index()] = put.index() as u8;
                    put
                } else {
                    card
                };
                placed.push((put, under));
                under = put.id();
            }
        }
        let mut canonical = State::empty(state.ncols(), state.foundations);
        let mut column = 0;
        for (card, under) in placed {
            if under == 0 && canonical.len(column) > 0 {
                column += 1;
            }
            canonical.push(column, card);
        }
        (compact.encode(&canonical), map)
    }

    /// The canonical key and relabeling as made fast agree with their plain form, on every
    /// position and every child in its layer (whose free cards are its parent's).
    #[test]
    fn canon_is_the_plain_canon() {
        let mut moves = Vec::new();
        for (deal, mut state) in random_positions(11) {
            let compact = Compact::new(&deal);
            let free = free_cards(&compact, &state);
            assert_eq!(
                canon(&compact, &state, free),
                plain_canon(&compact, &state, free)
            );
            moves.clear();
            generate(&state, &mut moves);
            for &m in &moves {
                let mut line = Vec::new();
                play(&mut state, m, &mut line);
                assert_eq!(
                    canon(&compact, &state, free),
                    plain_canon(&compact, &state, free)
                );
                unwind(&mut state, &mut line, 0);
            }
        }
    }

    /// The free cards as kept fast agree with the rule's plain form.
    #[test]
    fn free_cards_are_the_rules_free_cards() {
        for (deal, state) in random_positions(7) {
            let compact = Compact::new(&deal);
            assert_eq!(
                free_cards(&compact, &state),
                plain_free_cards(&deal, &state),
                "{}",
                super::super::board::format(&deal)
            );
        }
    }
}
