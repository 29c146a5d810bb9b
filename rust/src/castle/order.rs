//! Move ordering: which move the search tries first. It decides how fast a win is found, never
//! whether one is: every generated move is still tried.

use super::moves::{fits_foundation, fits_on, Move};
use super::state::{State, MAX_COLUMNS};
use crate::cards::Card;

/// Most moves one position can have: per column, the foundation and the 7 other columns.
const MAX_MOVES: usize = MAX_COLUMNS * MAX_COLUMNS;

/// How many ranks `card` is from going up: 1 = it fits its foundation now.
#[inline]
fn need(state: &State, card: Card) -> u32 {
    (card.rank() - state.foundations[card.suit() as usize]) as u32
}

/// The most needed card among `cards` (bottom first): its need and how many cards lie on it.
/// Ties go to the higher card (the one nearer the top).
fn most_needed(state: &State, cards: &[Card]) -> (u32, u32) {
    let mut best = (99, 0);
    for (i, &card) in cards.iter().enumerate() {
        let n = need(state, card);
        if n <= best.0 {
            best = (n, (cards.len() - 1 - i) as u32);
        }
    }
    best
}

/// What the ordering reads of each column, computed once per position.
pub struct ColumnFacts {
    /// The most needed card under the top card (need, cards between it and the top card);
    /// (0, 0) for a column of one card, which a move empties.
    under_top: [(u32, u32); MAX_COLUMNS],
    /// The need of the most needed card in the whole column (14 for an empty column).
    lowest_need: [u32; MAX_COLUMNS],
}

impl ColumnFacts {
    pub fn new(state: &State) -> ColumnFacts {
        let mut facts = ColumnFacts {
            under_top: [(0, 0); MAX_COLUMNS],
            lowest_need: [14; MAX_COLUMNS],
        };
        for col in 0..state.ncols() {
            let cards = state.column(col);
            let Some(&top) = cards.last() else {
                continue;
            };
            // One pass over the cards under the top; the whole column adds only the top.
            let mut lowest = need(state, top);
            if cards.len() > 1 {
                facts.under_top[col] = most_needed(state, &cards[..cards.len() - 1]);
                lowest = lowest.min(facts.under_top[col].0);
            }
            facts.lowest_need[col] = lowest;
        }
        facts
    }
}

/// Lower is tried first; ties keep generation order.
///
/// Classes, best first: 0 a foundation move; 1 a move that empties its column or uncovers a
/// card that can go up at once; 2 a move onto a card; 3 a move into an empty column (it spends
/// the one free place); 4 a card leaving a card one rank higher for another such card (it only
/// trades places). Within a class: first from the column whose most needed card is most needed
/// and nearest the top; then onto the column that buries the least needed cards; then onto a
/// card of the same suit (a run that can later go up whole).
pub fn priority(state: &State, facts: &ColumnFacts, m: Move) -> u32 {
    if m.to_foundation() {
        return 0;
    }
    let from = m.from as usize;
    let to = m.to as usize;
    let column = state.column(from);
    let below = column.len().checked_sub(2).map(|i| column[i]);
    let target = state.top(to);
    let class = match (below, target) {
        (None, _) => 1,
        (Some(b), _) if fits_foundation(state, b) => 1,
        (Some(b), Some(_)) if fits_on(m.card, b) => 4,
        (_, Some(_)) => 2,
        (_, None) => 3,
    };
    let (source_need, source_depth) = facts.under_top[from];
    let buried = 14 - facts.lowest_need[to];
    let other_suit = u32::from(target.is_none_or(|t| t.suit() != m.card.suit()));
    class * 4096 + (source_need * 8 + source_depth) * 16 + buried + other_suit
}

/// Sorts `moves` into search order (a stable insertion sort: the lists are short).
pub fn order_moves(state: &State, moves: &mut [Move]) {
    debug_assert!(moves.len() <= MAX_MOVES);
    let facts = ColumnFacts::new(state);
    let mut keys = [0u32; MAX_MOVES];
    for i in 0..moves.len() {
        let (key, m) = (priority(state, &facts, moves[i]), moves[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] > key {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        keys[j] = key;
        moves[j] = m;
    }
}
