//! Spider beam searches: layer by layer, keep only the `width` positions that look nearest a
//! win. Incomplete (a "no" proves nothing), but they win deals the depth-first order wanders
//! in for good; the complete search runs after them.

use super::deal::{SpiderDeal, CARDS, COLUMNS, RUN, RUNS};
use super::moves::{apply, generate, SpiderMove, MOST_MOVES};
use super::state::{Col, SpiderState};
use crate::cards::Card;
use crate::solver::budget::{Budget, End, Watch};
use crate::solver::heap::map_bytes;
use crate::solver::sort::sort_by_estimate;
use crate::solver::table::{Insert, Table};
use crate::solver::Stop;
use rustc_hash::FxHashSet;

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

/// The beam's widths tried in turn, while the budget lasts.
pub const BEAM_WIDTHS: [usize; 3] = [1_000, 3_000, 10_000];

/// splitmix64's finalizer: spreads a hash over all 64 bits.
const fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
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

/// The beam's table key: a 64-bit hash of what [`SpiderState::key`] holds, the sum of the
/// columns' terms; once the stock is empty the sum does not depend on the columns' order, as
/// the exact key is sorted. (A collision only drops a position from an incomplete search; the
/// complete search keeps exact keys.)
fn beam_key(state: &SpiderState) -> u64 {
    let placed = !state.stock_left().is_empty();
    let columns = (0..COLUMNS).fold(0u64, |sum, i| {
        sum.wrapping_add(key_term(column_hash(&state.cols[i]), i, placed))
    });
    columns ^ dealt_term(state.dealt)
}

/// A position's columns as the beam reads them once per expansion: each column's hash, the
/// cost of its face-up pairs, its cost and key term, and their sums. A child's estimate and
/// key are worked out from these and the cards its move moves, without making the move.
struct Parent {
    hashes: [u64; COLUMNS],
    pairs: [i32; COLUMNS],
    costs: [i32; COLUMNS],
    terms: [u64; COLUMNS],
    total: i32,
    sum: u64,
    placed: bool,
}

/// What the beam needs of a child position: its estimate, its key, and whether it is won.
struct Child {
    near: i32,
    key: u64,
    won: bool,
}

impl Parent {
    fn new(state: &SpiderState, weights: &Weights) -> Parent {
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

    /// `state`, this position, after the legal move `m`, as the beam ranks it.
    fn child(&self, state: &SpiderState, m: SpiderMove, weights: &Weights) -> Child {
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

/// A beam whose best position has not improved for this many layers gives up: a beam that
/// wins improves often, one that fails wanders on a plateau for as long as it is let
/// (docs/spider.md).
pub const STALL_LAYERS: usize = 50;

/// More than a position's columns, stock and runs off take on the heap (104 cards, 10
/// columns, a stock of 50).
pub const STATE_BYTES: usize = 2048;

/// One node of a beam: its parent's index in the node list and the move from it.
struct Node {
    parent: usize,
    mv: SpiderMove,
}

/// A beam search of `width` from `deal`, ranked by `weights`; `expanded` counts positions
/// expanded. A child's estimate and key are worked out from its parent's columns, only the
/// columns its move touched being looked at again.
pub fn beam_search(
    deal: &SpiderDeal,
    width: usize,
    weights: &Weights,
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<SpiderMove> {
    let root = SpiderState::from_deal(deal);
    let mut reached = 0;
    beam_from(root, width, weights, budget, expanded, watch, &mut reached)
}

/// [`beam_search`] from `root`, saying in `reached` the lowest estimate of a position it
/// ranked (how near a win it came; what the fair player weighs a world by).
pub fn beam_from(
    root: SpiderState,
    width: usize,
    weights: &Weights,
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
    reached: &mut i32,
) -> End<SpiderMove> {
    *reached = weights.estimate(&root);
    if root.is_won() {
        return End::Won(Vec::new());
    }
    let memory = &budget.memory;
    let mut seen: Table<u64> = Table::new(*memory);
    if seen.insert(beam_key(&root)) == Insert::Full {
        return End::Limit(Stop::Memory);
    }
    // Every node ever kept (index 0: the root), and the current layer as (node, state).
    let mut nodes = vec![Node {
        parent: usize::MAX,
        mv: SpiderMove::Deal,
    }];
    let mut layer: Vec<(usize, SpiderState)> = vec![(0, root)];
    let mut moves = Vec::new();
    let mut in_layer: FxHashSet<u64> = FxHashSet::default();
    let mut spare: Vec<SpiderState> = Vec::new();
    // Each layer's moves ranked, and the next layer: their storage is kept from layer to
    // layer, not allocated afresh.
    let mut candidates: Vec<(i32, u64, usize, SpiderMove)> = Vec::new();
    let (mut scratch, mut counts) = (Vec::new(), Vec::new());
    let mut next: Vec<(usize, SpiderState)> = Vec::new();
    let (mut best, mut stalled) = (i32::MAX, 0usize);
    while !layer.is_empty() {
        candidates.clear();
        for (i, (_, state)) in layer.iter().enumerate() {
            if let Some(why) = budget.spend(expanded, watch) {
                return End::Limit(why);
            }
            if !memory.reserve(&mut candidates, MOST_MOVES) {
                return End::Limit(Stop::Memory);
            }
            let parent = Parent::new(state, weights);
            moves.clear();
            generate(state, true, &mut moves);
            for &m in &moves {
                let child = parent.child(state, m, weights);
                if child.won {
                    let mut path = vec![m];
                    let mut at = layer[i].0;
                    while at != 0 {
                        path.push(nodes[at].mv);
                        at = nodes[at].parent;
                    }
                    path.reverse();
                    return End::Won(path);
                }
                if !seen.contains(&child.key) {
                    candidates.push((child.near, child.key, i, m));
                }
            }
        }
        // Ranked, ties in the order they were met.
        if !memory.reserve(&mut scratch, candidates.len()) {
            return End::Limit(Stop::Memory);
        }
        sort_by_estimate(
            &mut candidates,
            &mut scratch,
            &mut counts,
            |&(score, ..)| i64::from(score),
        );
        if let Some(&(score, ..)) = candidates.first() {
            *reached = (*reached).min(score);
            if score < best {
                (best, stalled) = (score, 0);
            } else {
                stalled += 1;
                if stalled > STALL_LAYERS {
                    return End::Exhausted; // wandering on a plateau: as good as dry
                }
            }
        }
        // The best `width` distinct positions, entered in the table as they are kept: only
        // kept positions are, so the table stays small (one entry per position kept).
        // Each kept position costs a state (one from the old layer once they run out), a
        // node, and its entries in the tables: the bound is checked for each.
        in_layer.clear();
        let kept = width.min(candidates.len());
        if !(memory.reserve(&mut next, kept)
            && (in_layer.capacity() >= kept || memory.allows(map_bytes::<u64>(kept))))
        {
            return End::Limit(Stop::Memory);
        }
        in_layer.reserve(kept);
        for &(_, key, i, m) in &candidates {
            if next.len() == width {
                break;
            }
            if !in_layer.insert(key) {
                continue;
            }
            if !(memory.allows(STATE_BYTES) && memory.reserve(&mut nodes, 1))
                || seen.insert(key) == Insert::Full
            {
                return End::Limit(Stop::Memory);
            }
            let mut state = match spare.pop() {
                Some(mut old) => {
                    old.copy_from(&layer[i].1);
                    old
                }
                None => layer[i].1.clone(),
            };
            apply(&mut state, m);
            nodes.push(Node {
                parent: layer[i].0,
                mv: m,
            });
            next.push((nodes.len() - 1, state));
        }
        // The old layer's states are reused for the next one's: no allocation per position.
        spare.extend(layer.drain(..).map(|(_, state)| state));
        std::mem::swap(&mut layer, &mut next);
    }
    End::Exhausted
}

#[cfg(test)]
mod tests {
    use super::super::deal::Suits;
    use super::*;
    use crate::solver::budget::Deadline;

    /// Every child of `state` as the beam ranks it, against the whole count of the position
    /// the move makes.
    fn check_children(state: &SpiderState, weights: &Weights) {
        let parent = Parent::new(state, weights);
        let mut moves = Vec::new();
        generate(state, true, &mut moves);
        for &m in &moves {
            let child = parent.child(state, m, weights);
            let mut after = state.clone();
            apply(&mut after, m);
            let whole = (weights.estimate(&after), beam_key(&after), after.is_won());
            assert_eq!((child.near, child.key, child.won), whole, "{m:?}");
        }
    }

    /// A child's estimate and key, worked out from its parent's columns and the cards moved,
    /// agree with the whole count: along a random walk, and along a win (runs taken off, cards
    /// turned up, columns emptied, the last deal, the winning move).
    #[test]
    fn a_childs_estimate_and_key_from_its_parents_columns_match_the_whole_count() {
        let weights = Weights {
            empty: 5,
            ..WEIGHTS
        };
        let deal = SpiderDeal::from_number(Suits::Four, 3).unwrap();
        let mut state = SpiderState::from_deal(&deal);
        let mut moves = Vec::new();
        for step in 0..200 {
            check_children(&state, &weights);
            moves.clear();
            generate(&state, true, &mut moves);
            let Some(&pick) = moves.get(step * 7 % moves.len().max(1)) else {
                break;
            };
            apply(&mut state, pick);
        }
        let deal = SpiderDeal::from_number(Suits::One, 1).unwrap();
        let budget = Budget {
            max_states: Some(1_000_000),
            deadline: Deadline::NONE,
            memory: crate::solver::heap::Memory::from_now(1 << 30),
        };
        let mut interrupted = || false;
        let mut watch = Watch::new(std::time::Instant::now(), &mut interrupted);
        let End::Won(win) = beam_search(&deal, 1_000, &WEIGHTS, &budget, &mut 0, &mut watch) else {
            panic!("one-suit deal 1 is won by a beam of 1,000");
        };
        let mut state = SpiderState::from_deal(&deal);
        for m in win {
            check_children(&state, &weights);
            apply(&mut state, m);
        }
        assert!(state.is_won());
    }
}
