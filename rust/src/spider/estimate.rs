//! How near a win a Spider position looks, and the key searches tell positions apart by: for a
//! whole position, and for a child worked out from its parent's columns and the cards its move
//! moves, without making the move (the beams' and the fair player's quiet search's hot path).

use super::deal::{CARDS, COLUMNS, RUN, RUNS};
use super::moves::SpiderMove;
use super::state::{Col, SpiderState};
use crate::cards::Card;
use crate::solver::mix::mix;

/// What the estimate charges for each thing between a position and a win.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Each face-down card.
    pub down: i32,
    /// Each place where a face-up card is not one rank below the card under it.
    pub rank_break: i32,
    /// Each place where it is one rank below, but of another suit: the two cannot move as one
    /// run, and with four suits such a build blocks nearly as much as a rank break.
    pub suit_break: i32,
    /// Taken off for each empty column.
    pub empty: i32,
    /// Each card still in the stock (about what it costs once dealt onto a column).
    pub stock: i32,
}

/// The weights the solver starts with (its portfolio varies them): a change of suit costs
/// nearly as much as a break of rank, an empty column nothing more than its cards gone
/// (measured in docs/spider.md).
pub const WEIGHTS: Weights = Weights {
    down: 6,
    rank_break: 3,
    suit_break: 4,
    empty: 0,
    stock: 3,
};

impl Weights {
    /// What a face-up `upper` card on a face-up `lower` one costs: a break of rank, a change
    /// of suit, or nothing (the two move as one run).
    fn pair(&self, lower: Card, upper: Card) -> i32 {
        if lower.rank() != upper.rank() + 1 {
            self.rank_break
        } else if lower.suit() != upper.suit() {
            self.suit_break
        } else {
            0
        }
    }

    /// What the face-up cards of `col` cost, pair by pair.
    fn pairs(&self, col: &Col) -> i32 {
        col.face_up()
            .windows(2)
            .map(|pair| self.pair(pair[0], pair[1]))
            .sum()
    }

    /// What a column of `len` cards, `down` of them face down, whose face-up pairs cost
    /// `pairs`, adds to the estimate. Each card still on the table costs half a point, so that
    /// a run taken off is progress.
    fn cost(&self, down: usize, len: usize, pairs: i32) -> i32 {
        if len == 0 {
            return -self.empty;
        }
        self.down * down as i32 + len as i32 / 2 + pairs
    }

    /// What `col` adds to [`Weights::estimate`].
    pub fn column(&self, col: &Col) -> i32 {
        self.cost(col.down, col.cards.len(), self.pairs(col))
    }

    /// How far `state` looks from a win (lower is nearer): the columns' costs, and the cards
    /// still to come from the stock.
    pub fn estimate(&self, state: &SpiderState) -> i32 {
        let columns: i32 = state.cols.iter().map(|c| self.column(c)).sum();
        columns + self.stock * state.stock_left().len() as i32
    }
}

/// [`WEIGHTS`]' estimate of `state`.
pub fn estimate(state: &SpiderState) -> i32 {
    WEIGHTS.estimate(state)
}

/// A random term for each card id at each height in a column. A column's hash is the sum of
/// its cards' terms, so a move changes it by the terms of the cards it moves, not by a walk
/// over the whole column.
static CARD_AT: [[u64; CARDS]; 53] = card_terms();

const fn card_terms() -> [[u64; CARDS]; 53] {
    let mut terms = [[0; CARDS]; 53];
    let mut id = 0;
    while id < 53 {
        let mut height = 0;
        while height < CARDS {
            terms[id][height] =
                mix(((id * CARDS + height) as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            height += 1;
        }
        id += 1;
    }
    terms
}

/// What `down` face-down cards add to a column's hash.
fn down_term(down: usize) -> u64 {
    mix(down as u64 ^ 0x5bd1_e995)
}

/// What `cards`, lying from `height` up in a column, add to its hash.
fn cards_term(cards: &[Card], height: usize) -> u64 {
    cards.iter().enumerate().fold(0u64, |sum, (i, card)| {
        sum.wrapping_add(CARD_AT[card.id() as usize][height + i])
    })
}

/// A column's cards, face-down count included, as one 64-bit hash.
fn column_hash(col: &Col) -> u64 {
    down_term(col.down).wrapping_add(cards_term(&col.cards, 0))
}

/// What column `i`, of hash `h`, adds to the beam's key: with its place while cards remain in
/// the stock (`placed`), without once it is empty.
fn key_term(h: u64, i: usize, placed: bool) -> u64 {
    let place = if placed { (i as u64 + 1) << 56 } else { 0 };
    mix(h ^ place)
}

/// What the key adds for the deals done.
fn dealt_term(dealt: usize) -> u64 {
    mix(dealt as u64 + 0x9e37)
}

/// A 64-bit hash of what [`SpiderState::key`] holds and the deals done, the sum of the
/// columns' terms; once the stock is empty the sum does not depend on the columns' order, as
/// the exact key is sorted. The incomplete searches (the beams, the fair player's quiet
/// search) tell positions apart by it: a collision only drops a position from a search that
/// proves nothing. The complete search keeps exact keys.
pub fn position_hash(state: &SpiderState) -> u64 {
    let placed = !state.stock_left().is_empty();
    let columns = (0..COLUMNS).fold(0u64, |sum, i| {
        sum.wrapping_add(key_term(column_hash(&state.cols[i]), i, placed))
    });
    columns ^ dealt_term(state.dealt)
}

/// A position's columns as a search reads them once per expansion: each column's hash, the
/// cost of its face-up pairs, its cost and key term, and their sums. A child's estimate and
/// key are worked out from these and the cards its move moves, without making the move.
pub struct Parent {
    hashes: [u64; COLUMNS],
    pairs: [i32; COLUMNS],
    costs: [i32; COLUMNS],
    terms: [u64; COLUMNS],
    total: i32,
    sum: u64,
    placed: bool,
}

/// What a search needs of a child position: its estimate ([`Weights::estimate`]), its key
/// ([`position_hash`]), and whether it is won.
pub struct Child {
    pub near: i32,
    pub key: u64,
    pub won: bool,
}

impl Parent {
    pub fn new(state: &SpiderState, weights: &Weights) -> Parent {
        let placed = !state.stock_left().is_empty();
        let hashes: [u64; COLUMNS] = std::array::from_fn(|c| column_hash(&state.cols[c]));
        let pairs: [i32; COLUMNS] = std::array::from_fn(|c| weights.pairs(&state.cols[c]));
        let costs: [i32; COLUMNS] = std::array::from_fn(|c| {
            let col = &state.cols[c];
            weights.cost(col.down, col.cards.len(), pairs[c])
        });
        let terms: [u64; COLUMNS] = std::array::from_fn(|c| key_term(hashes[c], c, placed));
        Parent {
            hashes,
            pairs,
            costs,
            terms,
            total: costs.iter().sum(),
            sum: terms.iter().fold(0, |a, &t| a.wrapping_add(t)),
            placed,
        }
    }

    /// This position's own estimate, `state` being the position it was made from.
    pub fn near(&self, state: &SpiderState, weights: &Weights) -> i32 {
        self.total + weights.stock * state.stock_left().len() as i32
    }

    /// Column `c` less its top `count` cards (a run moved away, or taken off), and the
    /// face-down card that then turns up: its cost and its hash.
    fn less(&self, state: &SpiderState, c: usize, count: usize, weights: &Weights) -> (i32, u64) {
        let col = &state.cols[c];
        let at = col.cards.len() - count;
        // The run's own pairs cost nothing (it is one suit, in order): only the pair under it.
        let mut pairs = self.pairs[c];
        let mut hash = self.hashes[c].wrapping_sub(cards_term(&col.cards[at..], at));
        let mut down = col.down;
        if at > col.down {
            pairs -= weights.pair(col.cards[at - 1], col.cards[at]);
        } else if down > 0 {
            down -= 1; // the card under the run turns up
            hash = hash
                .wrapping_sub(down_term(col.down))
                .wrapping_add(down_term(down));
        }
        (weights.cost(down, at, pairs), hash)
    }

    /// Column `c` with `cards` put on it: its cost and its hash.
    // Inlined: called for every child (once for a run, ten times for a deal), it was left out
    // of line when the search around it grew.
    #[inline(always)]
    fn plus(&self, state: &SpiderState, c: usize, cards: &[Card], weights: &Weights) -> (i32, u64) {
        let col = &state.cols[c];
        let len = col.cards.len();
        let mut pairs = self.pairs[c];
        if let (Some(top), Some(&bottom)) = (col.top(), cards.first()) {
            pairs += weights.pair(top, bottom);
        }
        let hash = self.hashes[c].wrapping_add(cards_term(cards, len));
        (weights.cost(col.down, len + cards.len(), pairs), hash)
    }

    /// `state`, this position, after the legal move `m`.
    pub fn child(&self, state: &SpiderState, m: SpiderMove, weights: &Weights) -> Child {
        let stock_left = state.stock_left().len();
        let mut near = self.total;
        let mut sum = self.sum;
        let mut swap = |c: usize, (cost, hash): (i32, u64), near: &mut i32| {
            *near += cost - self.costs[c];
            sum = sum
                .wrapping_sub(self.terms[c])
                .wrapping_add(key_term(hash, c, self.placed));
        };
        match m {
            SpiderMove::Run { from, to, count } => {
                let (from, to, count) = (from as usize, to as usize, count as usize);
                let source = &state.cols[from].cards;
                let run = &source[source.len() - count..];
                swap(from, self.less(state, from, count, weights), &mut near);
                swap(to, self.plus(state, to, run, weights), &mut near);
                Child {
                    near: near + weights.stock * stock_left as i32,
                    key: sum ^ dealt_term(state.dealt),
                    won: false,
                }
            }
            SpiderMove::Off { column } => {
                let column = column as usize;
                swap(column, self.less(state, column, RUN, weights), &mut near);
                Child {
                    near: near + weights.stock * stock_left as i32,
                    key: sum ^ dealt_term(state.dealt),
                    won: state.off.len() + 1 == RUNS,
                }
            }
            SpiderMove::Deal => {
                // Every column takes a card; the deal that empties the stock also unplaces
                // every column's term.
                let placed = stock_left > COLUMNS;
                let (mut near, mut sum) = (0, 0u64);
                for c in 0..COLUMNS {
                    let card = state.stock[state.dealt + c];
                    let (cost, hash) = self.plus(state, c, &[card], weights);
                    near += cost;
                    sum = sum.wrapping_add(key_term(hash, c, placed));
                }
                Child {
                    near: near + weights.stock * (stock_left - COLUMNS) as i32,
                    key: sum ^ dealt_term(state.dealt + COLUMNS),
                    won: false,
                }
            }
        }
    }
}
