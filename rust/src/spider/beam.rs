//! Spider beam searches: layer by layer, keep only the `width` positions that look nearest a
//! win. Incomplete (a "no" proves nothing), but they win deals the depth-first order wanders
//! in for good; the complete search runs after them.

use super::deal::SpiderDeal;
use super::moves::{apply, generate, undo, SpiderMove};
use super::state::{SpiderKey, SpiderState};
use crate::solver::budget::{Budget, End, Watch};
use crate::solver::table::{Insert, Table};

/// The widths tried in turn, while the budget lasts.
pub const BEAM_WIDTHS: [usize; 3] = [100, 1_000, 10_000];

/// How far `state` looks from a win (lower is nearer): face-down cards weigh most, then each
/// place in a column where the face-up cards do not continue a run (a rank break costs more
/// than a change of suit), then the cards still to come from the stock; empty columns help.
pub fn estimate(state: &SpiderState) -> u32 {
    let mut cost = 0u32;
    for col in &state.cols {
        cost += 6 * col.down as u32;
        let up = col.face_up();
        for pair in up.windows(2) {
            let (lower, upper) = (pair[0], pair[1]);
            cost += if lower.rank() != upper.rank() + 1 {
                3
            } else if lower.suit() != upper.suit() {
                1
            } else {
                0
            };
        }
        if col.cards.is_empty() {
            cost = cost.saturating_sub(2);
        }
        // Cards not yet off: a small cost each, so that a run taken off is progress.
        cost += col.cards.len() as u32 / 2;
    }
    // A card still in the stock costs about what it will cost once dealt onto a column.
    cost + 3 * state.stock_left().len() as u32
}

/// One node of a beam: its parent's index in the node list and the move from it.
struct Node {
    parent: usize,
    mv: SpiderMove,
}

/// A beam search of `width` from `deal`; `expanded` counts positions expanded.
pub fn beam_search(
    deal: &SpiderDeal,
    width: usize,
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<SpiderMove> {
    let root = SpiderState::from_deal(deal);
    if root.is_won() {
        return End::Won(Vec::new());
    }
    let mut seen: Table<SpiderKey> = Table::new(budget.max_memory);
    seen.insert(root.key());
    // Every node ever kept (index 0: the root), and the current layer as (node, state).
    let mut nodes = vec![Node {
        parent: usize::MAX,
        mv: SpiderMove::Deal,
    }];
    let mut layer: Vec<(usize, SpiderState)> = vec![(0, root)];
    let mut moves = Vec::new();
    while !layer.is_empty() {
        let mut candidates: Vec<(u32, usize, SpiderMove)> = Vec::new();
        for (i, (_, state)) in layer.iter_mut().enumerate() {
            if let Some(why) = budget.spend(expanded, watch) {
                return End::Limit(why);
            }
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
                match seen.insert(state.key()) {
                    Insert::New => candidates.push((estimate(state), i, m)),
                    Insert::Seen => {}
                    Insert::Full => return End::Limit("memory"),
                }
                undo(state, m, applied);
            }
        }
        candidates.sort_by_key(|&(score, _, _)| score);
        candidates.truncate(width);
        let mut next = Vec::with_capacity(candidates.len());
        for (_, i, m) in candidates {
            let mut state = layer[i].1.clone();
            apply(&mut state, m);
            nodes.push(Node {
                parent: layer[i].0,
                mv: m,
            });
            next.push((nodes.len() - 1, state));
        }
        layer = next;
    }
    End::Exhausted
}
