//! Spider beam searches: layer by layer, keep only the `width` positions that look nearest a
//! win. Incomplete (a "no" proves nothing), but they win deals the depth-first order wanders
//! in for good; the complete search runs after them.

use super::deal::SpiderDeal;
use super::estimate::{position_hash, Parent, Weights};
use super::moves::{apply, generate, SpiderMove, MOST_MOVES};
use super::state::SpiderState;
use crate::solver::budget::{Budget, End, Watch};
use crate::solver::heap::{map_bytes, Memory};
use crate::solver::sort::sort_by_estimate;
use crate::solver::table::{Insert, Table};
use crate::solver::Stop;
use rustc_hash::FxHashSet;

/// The beam's widths tried in turn, while the budget lasts.
pub const BEAM_WIDTHS: [usize; 3] = [1_000, 3_000, 10_000];

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
    if seen.insert(position_hash(&root)) == Insert::Full {
        return End::Limit(Stop::Memory);
    }
    let mut beam = Beam::new(root, seen);
    let (mut best, mut stalled) = (i32::MAX, 0usize);
    while !beam.layer.is_empty() {
        if let Some(end) = beam.rank(weights, budget, expanded, watch) {
            return end;
        }
        if let Some(&(score, ..)) = beam.candidates.first() {
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
        if let Some(end) = beam.keep_the_best(width, memory) {
            return end;
        }
    }
    End::Exhausted
}

/// A move out of a position of the layer, ranked: its estimate, its child's key, the index of
/// its position in the layer, and the move.
type Candidate = (i32, u64, usize, SpiderMove);

/// What a beam search keeps: the positions kept (in the table), every node ever kept (index
/// 0: the root), and the current layer as (node, state); and each layer's moves ranked, and
/// the next layer, their storage kept from layer to layer, not allocated afresh.
struct Beam {
    seen: Table<u64>,
    nodes: Vec<Node>,
    layer: Vec<(usize, SpiderState)>,
    moves: Vec<SpiderMove>,
    in_layer: FxHashSet<u64>,
    spare: Vec<SpiderState>,
    candidates: Vec<Candidate>,
    scratch: Vec<Candidate>,
    counts: Vec<usize>,
    next: Vec<(usize, SpiderState)>,
}

impl Beam {
    /// The beam at `root`, whose key `seen` holds.
    fn new(root: SpiderState, seen: Table<u64>) -> Beam {
        Beam {
            seen,
            nodes: vec![Node {
                parent: usize::MAX,
                mv: SpiderMove::Deal,
            }],
            layer: vec![(0, root)],
            moves: Vec::new(),
            in_layer: FxHashSet::default(),
            spare: Vec::new(),
            candidates: Vec::new(),
            scratch: Vec::new(),
            counts: Vec::new(),
            next: Vec::new(),
        }
    }

    /// The layer's moves to positions not kept yet, ranked by `weights`, ties in the order
    /// they were met; the search's end if one wins or a limit is reached.
    fn rank(
        &mut self,
        weights: &Weights,
        budget: &Budget,
        expanded: &mut u64,
        watch: &mut Watch,
    ) -> Option<End<SpiderMove>> {
        self.candidates.clear();
        for (i, (_, state)) in self.layer.iter().enumerate() {
            if let Some(why) = budget.spend(expanded, watch) {
                return Some(End::Limit(why));
            }
            if !budget.memory.reserve(&mut self.candidates, MOST_MOVES) {
                return Some(End::Limit(Stop::Memory));
            }
            let parent = Parent::new(state, weights);
            self.moves.clear();
            generate(state, true, &mut self.moves);
            for &m in &self.moves {
                let child = parent.child(state, m, weights);
                if child.won {
                    return Some(End::Won(self.line_to(self.layer[i].0, m)));
                }
                if !self.seen.contains(&child.key) {
                    self.candidates.push((child.near, child.key, i, m));
                }
            }
        }
        if !budget
            .memory
            .reserve(&mut self.scratch, self.candidates.len())
        {
            return Some(End::Limit(Stop::Memory));
        }
        sort_by_estimate(
            &mut self.candidates,
            &mut self.scratch,
            &mut self.counts,
            |&(score, ..)| i64::from(score),
        );
        None
    }

    /// The moves from the root to the node `at`, then `m`.
    fn line_to(&self, mut at: usize, m: SpiderMove) -> Vec<SpiderMove> {
        let mut path = vec![m];
        while at != 0 {
            path.push(self.nodes[at].mv);
            at = self.nodes[at].parent;
        }
        path.reverse();
        path
    }

    /// The next layer: the best `width` distinct positions the ranked moves reach, entered in
    /// the table as they are kept (only kept positions are, so the table stays small: one
    /// entry per position kept). Each kept position costs a state (one from the old layer
    /// once they run out), a node, and its entries in the tables: the bound is checked for
    /// each. The search's end if there is no room.
    fn keep_the_best(&mut self, width: usize, memory: &Memory) -> Option<End<SpiderMove>> {
        self.in_layer.clear();
        let kept = width.min(self.candidates.len());
        if !(memory.reserve(&mut self.next, kept)
            && (self.in_layer.capacity() >= kept || memory.allows(map_bytes::<u64>(kept))))
        {
            return Some(End::Limit(Stop::Memory));
        }
        self.in_layer.reserve(kept);
        for &(_, key, i, m) in &self.candidates {
            if self.next.len() == width {
                break;
            }
            if !self.in_layer.insert(key) {
                continue;
            }
            if !(memory.allows(STATE_BYTES) && memory.reserve(&mut self.nodes, 1))
                || self.seen.insert(key) == Insert::Full
            {
                return Some(End::Limit(Stop::Memory));
            }
            let mut state = match self.spare.pop() {
                Some(mut old) => {
                    old.copy_from(&self.layer[i].1);
                    old
                }
                None => self.layer[i].1.clone(),
            };
            apply(&mut state, m);
            self.nodes.push(Node {
                parent: self.layer[i].0,
                mv: m,
            });
            self.next.push((self.nodes.len() - 1, state));
        }
        // The old layer's states are reused for the next one's: no allocation per position.
        self.spare
            .extend(self.layer.drain(..).map(|(_, state)| state));
        std::mem::swap(&mut self.layer, &mut self.next);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::deal::Suits;
    use super::super::estimate::WEIGHTS;
    use super::*;
    use crate::solver::budget::Deadline;

    /// `state` and every child of it as a search ranks them from its columns, against the
    /// whole count of each position.
    fn check_children(state: &SpiderState, weights: &Weights) {
        let parent = Parent::new(state, weights);
        assert_eq!(parent.near(state, weights), weights.estimate(state));
        let mut moves = Vec::new();
        generate(state, true, &mut moves);
        for &m in &moves {
            let child = parent.child(state, m, weights);
            let mut after = state.clone();
            apply(&mut after, m);
            let whole = (
                weights.estimate(&after),
                position_hash(&after),
                after.is_won(),
            );
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
