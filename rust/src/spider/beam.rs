//! Spider beam searches: layer by layer, keep only the `width` positions that look nearest a
//! win. Incomplete (a "no" proves nothing), but they win deals the depth-first order wanders
//! in for good; the complete search runs after them.

use super::deal::{SpiderDeal, COLUMNS};
use super::moves::{apply, generate, undo, SpiderMove};
use super::state::{Col, SpiderState};
use crate::solver::budget::{Budget, End, Watch};
use crate::solver::table::{Insert, Table};
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

/// The weights the solver starts with (its portfolio varies them). Measured with a beam of
/// width 1,000 alone on four-suit deals 1-20: a suit break charged 1, as a mere change of suit,
/// won 4; charged 4, 17. An empty column is worth nothing more than a column's cards gone: with
/// a bonus of 5, one- and two-suit deals 1-50 lost 7 and 6 wins of 48.
pub const WEIGHTS: Weights = Weights {
    down: 6,
    rank_break: 3,
    suit_break: 4,
    empty: 0,
    stock: 3,
};

impl Weights {
    /// What `col` adds to [`Weights::estimate`]. Each card still on the table also costs half
    /// a point, so that a run taken off is progress.
    pub fn column(&self, col: &Col) -> i32 {
        if col.cards.is_empty() {
            return -self.empty;
        }
        let mut cost = self.down * col.down as i32 + col.cards.len() as i32 / 2;
        for pair in col.face_up().windows(2) {
            let (lower, upper) = (pair[0], pair[1]);
            cost += if lower.rank() != upper.rank() + 1 {
                self.rank_break
            } else if lower.suit() != upper.suit() {
                self.suit_break
            } else {
                0
            };
        }
        cost
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

/// A column's cards, face-down count included, as one 64-bit hash.
fn column_hash(col: &Col) -> u64 {
    let mut h = col.down as u64;
    for card in &col.cards {
        h = (h.rotate_left(6) ^ card.id() as u64).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    h
}

/// splitmix64's finalizer: spreads a hash over all 64 bits.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// What column `i`, of hash `h`, adds to the beam's key: with its place while cards remain in
/// the stock (`placed`), without once it is empty.
fn key_term(h: u64, i: usize, placed: bool) -> u64 {
    let place = if placed { (i as u64 + 1) << 56 } else { 0 };
    mix(h ^ place)
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
    columns ^ mix(state.dealt as u64 + 0x9e37)
}

/// A position's columns as the beam reads them once per expansion: each column's cost and key
/// term, and their sums, so that a child's estimate and key only look at the columns its move
/// touched again.
struct Parent {
    costs: [i32; COLUMNS],
    terms: [u64; COLUMNS],
    total: i32,
    sum: u64,
    placed: bool,
}

impl Parent {
    fn new(state: &SpiderState, weights: &Weights) -> Parent {
        let placed = !state.stock_left().is_empty();
        let costs: [i32; COLUMNS] = std::array::from_fn(|c| weights.column(&state.cols[c]));
        let terms: [u64; COLUMNS] =
            std::array::from_fn(|c| key_term(column_hash(&state.cols[c]), c, placed));
        Parent {
            costs,
            terms,
            total: costs.iter().sum(),
            sum: terms.iter().fold(0, |a, &t| a.wrapping_add(t)),
            placed,
        }
    }

    /// The estimate and the key of `child`, this position after `m`.
    fn child(&self, child: &SpiderState, m: SpiderMove, weights: &Weights) -> (i32, u64) {
        let mut pair = [0; 2];
        let mut near = self.total + weights.stock * child.stock_left().len() as i32;
        let mut sum = self.sum;
        let placed = !child.stock_left().is_empty();
        for &c in touched(m, &mut pair) {
            near += weights.column(&child.cols[c]) - self.costs[c];
            sum = sum.wrapping_sub(self.terms[c]);
            if placed == self.placed {
                sum = sum.wrapping_add(key_term(column_hash(&child.cols[c]), c, placed));
            }
        }
        if placed != self.placed {
            // The deal that empties the stock: every column's term changes.
            return (near, beam_key(child));
        }
        (near, sum ^ mix(child.dealt as u64 + 0x9e37))
    }
}

const ALL_COLUMNS: [usize; COLUMNS] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/// The columns `m` changes (all of them for a deal); `pair` holds them for the other moves.
fn touched(m: SpiderMove, pair: &mut [usize; 2]) -> &[usize] {
    match m {
        SpiderMove::Run { from, to, .. } => {
            *pair = [from as usize, to as usize];
            &pair[..]
        }
        SpiderMove::Off { column } => {
            pair[0] = column as usize;
            &pair[..1]
        }
        SpiderMove::Deal => &ALL_COLUMNS,
    }
}

/// A beam whose best position has not improved for this many layers gives up. A beam of
/// width 1,000 that wins goes from deal to win in 150-250 layers, improving at least every 40
/// (with 20, four-suit deals 1-40 lost 5 of 33 wins); one that fails wanders on a plateau for
/// as long as it is let.
pub const STALL_LAYERS: usize = 50;

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
    if root.is_won() {
        return End::Won(Vec::new());
    }
    let mut seen: Table<u64> = Table::new(budget.max_memory);
    seen.insert(beam_key(&root));
    // Every node ever kept (index 0: the root), and the current layer as (node, state).
    let mut nodes = vec![Node {
        parent: usize::MAX,
        mv: SpiderMove::Deal,
    }];
    let mut layer: Vec<(usize, SpiderState)> = vec![(0, root)];
    let mut moves = Vec::new();
    let mut in_layer: FxHashSet<u64> = FxHashSet::default();
    let mut spare: Vec<SpiderState> = Vec::new();
    let (mut best, mut stalled) = (i32::MAX, 0usize);
    while !layer.is_empty() {
        let mut candidates: Vec<(i32, u64, usize, SpiderMove)> = Vec::new();
        for (i, (_, state)) in layer.iter_mut().enumerate() {
            if let Some(why) = budget.spend(expanded, watch) {
                return End::Limit(why);
            }
            let parent = Parent::new(state, weights);
            moves.clear();
            generate(state, true, &mut moves);
            for &m in &moves {
                let applied = apply(state, m);
                if state.is_won() {
                    undo(state, m, applied);
                    let mut path = vec![m];
                    let mut at = layer[i].0;
                    while at != 0 {
                        path.push(nodes[at].mv);
                        at = nodes[at].parent;
                    }
                    path.reverse();
                    return End::Won(path);
                }
                let (near, key) = parent.child(state, m, weights);
                if !seen.contains(&key) {
                    candidates.push((near, key, i, m));
                }
                undo(state, m, applied);
            }
        }
        candidates.sort_by_key(|&(score, ..)| score);
        if let Some(&(score, ..)) = candidates.first() {
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
        in_layer.clear();
        let mut next = Vec::with_capacity(width.min(candidates.len()));
        for (_, key, i, m) in candidates {
            if next.len() == width {
                break;
            }
            if !in_layer.insert(key) {
                continue;
            }
            if seen.insert(key) == Insert::Full {
                return End::Limit("memory");
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
        layer = next;
    }
    End::Exhausted
}

#[cfg(test)]
mod tests {
    use super::super::deal::Suits;
    use super::*;

    /// The incremental estimate and key agree with the whole-position ones.
    #[test]
    fn a_childs_estimate_and_key_from_its_parents_columns_match_the_whole_count() {
        let deal = SpiderDeal::from_number(Suits::Four, 3).unwrap();
        let mut state = SpiderState::from_deal(&deal);
        let mut moves = Vec::new();
        for step in 0..200 {
            let parent = Parent::new(&state, &WEIGHTS);
            moves.clear();
            generate(&state, true, &mut moves);
            let Some(&pick) = moves.get(step * 7 % moves.len().max(1)) else {
                break;
            };
            for &m in &moves {
                let applied = apply(&mut state, m);
                assert_eq!(
                    parent.child(&state, m, &WEIGHTS),
                    (estimate(&state), beam_key(&state))
                );
                undo(&mut state, m, applied);
            }
            apply(&mut state, pick);
        }
    }
}
