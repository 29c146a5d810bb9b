//! The free-cell solver: best-first searches over steps (a single card, or a run moved as a
//! unit), each followed by the safe moves to the foundations (`moves::auto_moves`), positions
//! taken nearest a win first by an estimate (`order.rs`), every position entered once in a
//! table keyed up to the order of the cells and of the columns. A portfolio of short tries
//! comes first (depth-first ones, `dive.rs`, then best-first ones); the last search has no
//! limit of its own and expands every position reachable from the deal (as the safe moves
//! leave it) at most once, so when it runs out of positions it has proved there is no win: a safe move never loses one, since no card could go onto the
//! card it puts up, and a run's step is only a shortcut beside the single moves it stands for.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::deal::CellsDeal;
use super::dive::Dive;

use super::moves::{
    apply_step, auto_moves, auto_moves_after, generate, generate_runs, line_of, replays_to_win,
    undo, undo_step, CellsMove, Place, Step,
};
use super::order::{rank_steps, Weights, COMPLETE_WEIGHTS, OTHER_WEIGHTS, WEIGHTS};
use super::shorten::shorten_within;
use super::state::{CellsKey, CellsState};
use crate::cards::Card;
use crate::solver::budget::{Budget, Deadline, End, Start, Watch};
use crate::solver::heap::Memory;
use crate::solver::table::{Insert, Table};
use crate::solver::{Limits, Outcome, Stop};

/// A step of the solver's portfolio: a search ranked by `weights` that gives up after `states`
/// expansions of its own (the last step has no such limit: it is complete).
#[derive(Copy, Clone, Debug)]
pub struct Try {
    pub weights: Weights,
    pub states: u64,
    /// Depth first ([`super::dive`]: each position's steps in the order of their estimates,
    /// the first followed until it ends), not best first.
    pub dive: bool,
}

/// The solver's portfolio. First depth-first tries ([`Dive`]) ranked by three weights in
/// turn, 300 positions each, twice round (the second round goes on where the first stopped):
/// a position costs less there than best first, and most deals are won in the first. Then
/// best-first tries ranked in turn by other weights (a deal one ranking loses its way in,
/// another often wins at once), from the third on each twice as long as the one before, the
/// first weights again last; then the complete search ranked by [`COMPLETE_WEIGHTS`]. Over
/// FreeCell deals 1-8000 the dives first took 0.82 of the time of the best-first tries alone
/// (other rounds of dives: 0.87 to 0.89); those took 0.96 of the time of three tries of 3,000,
/// 3,000 and 6,000 states (deals 1-2000) and half the 99th percentile, and their last won
/// deal 2172, which the complete search leaves undecided at 10 s (the solver's research
/// notes).
pub const PORTFOLIO: [Try; 12] = [
    Try {
        weights: WEIGHTS,
        states: 300,
        dive: true,
    },
    Try {
        weights: OTHER_WEIGHTS[3],
        states: 300,
        dive: true,
    },
    Try {
        weights: OTHER_WEIGHTS[2],
        states: 300,
        dive: true,
    },
    Try {
        weights: WEIGHTS,
        states: 300,
        dive: true,
    },
    Try {
        weights: OTHER_WEIGHTS[3],
        states: 300,
        dive: true,
    },
    Try {
        weights: OTHER_WEIGHTS[2],
        states: 300,
        dive: true,
    },
    Try {
        weights: WEIGHTS,
        states: 500,
        dive: false,
    },
    Try {
        weights: OTHER_WEIGHTS[0],
        states: 500,
        dive: false,
    },
    Try {
        weights: OTHER_WEIGHTS[1],
        states: 1_000,
        dive: false,
    },
    Try {
        weights: OTHER_WEIGHTS[2],
        states: 2_000,
        dive: false,
    },
    Try {
        weights: OTHER_WEIGHTS[3],
        states: 4_000,
        dive: false,
    },
    Try {
        weights: WEIGHTS,
        states: 8_000,
        dive: false,
    },
];

/// Decides `deal` within `limits` with the [`PORTFOLIO`], then the complete search ranked by
/// [`COMPLETE_WEIGHTS`]; with
/// `short`, a win is made shorter (`shorten.rs`) before it is returned. `interrupted` is asked
/// now and then whether to give up.
pub fn solve(
    deal: &CellsDeal,
    limits: &Limits,
    short: bool,
    interrupted: &mut dyn FnMut() -> bool,
) -> Outcome<CellsMove> {
    solve_with(
        deal,
        limits,
        &PORTFOLIO,
        &COMPLETE_WEIGHTS,
        short,
        interrupted,
    )
}

/// [`solve`] with the portfolio `tries`, then the complete search ranked by `weights`.
pub fn solve_with(
    deal: &CellsDeal,
    limits: &Limits,
    tries: &[Try],
    weights: &Weights,
    short: bool,
    interrupted: &mut dyn FnMut() -> bool,
) -> Outcome<CellsMove> {
    let start = Start::now();
    let started = start.wall;
    let mut watch = Watch::new(started, interrupted);
    let budget = Budget {
        max_states: limits.max_states,
        deadline: Deadline::after(limits, &start, 1.0),
        memory: Memory::from_now(limits.max_memory),
    };
    let mut expanded = 0u64;
    let mut ends = Vec::new();
    let mut end = End::Limit(Stop::States);
    // The dives begun, one for each weights: a dive with weights met before goes on.
    let mut dives: Vec<Dive> = Vec::new();
    for t in tries {
        // A try ends at its own states, or at the caller's limits.
        let until = Budget {
            max_states: Some(
                expanded
                    .saturating_add(t.states)
                    .min(limits.max_states.unwrap_or(u64::MAX)),
            ),
            deadline: budget.deadline,
            memory: budget.memory,
        };
        end = if t.dive {
            let at = match dives.iter().position(|d| *d.weights() == t.weights) {
                Some(at) => at,
                None => {
                    dives.push(Dive::new(deal, t.weights, budget.memory));
                    dives.len() - 1
                }
            };
            dives[at].go(&until, &mut expanded, &mut watch)
        } else {
            search(deal, &until, &t.weights, &mut expanded, &mut watch)
        };
        ends.push(expanded);
        if !matches!(end, End::Limit(Stop::States | Stop::Memory)) {
            break;
        }
    }
    // The complete search has all the memory.
    drop(dives);
    if matches!(end, End::Limit(Stop::States | Stop::Memory)) {
        end = search(deal, &budget, weights, &mut expanded, &mut watch);
        ends.push(expanded);
    }
    if let (End::Won(moves), true) = (&end, short) {
        end = End::Won(shorten_within(deal, moves.clone(), &budget.memory));
    }
    Outcome::from_end(
        end,
        |moves| replays_to_win(deal, moves),
        expanded,
        started,
        ends,
    )
}

/// A position expanded: its key with the cells and columns in place, the position expanded
/// before it that it was reached from (its index; the deal's is its own), and the move made
/// there (the safe moves after it are made again when a line is read back).
struct Node {
    placed: CellsKey,
    parent: u32,
    step: Step,
    /// Steps from the deal.
    depth: u32,
}

/// A move waiting in the queue: how near a win the position after it looks, the order it was
/// met in (of those as near, the last met comes first, so that a line of equal estimates is
/// followed as in a depth-first search), the node it is made from, the move.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Waiting {
    rank: Reverse<(i32, Reverse<u32>)>,
    parent: u32,
    step: Step,
}

/// The line from the deal to node `at`, then `last`.
fn line_to(deal: &CellsDeal, nodes: &[Node], at: usize, last: Option<Step>) -> Vec<CellsMove> {
    let mut steps: Vec<Step> = last.into_iter().collect();
    let mut i = at;
    while i != 0 {
        steps.push(nodes[i].step);
        i = nodes[i].parent as usize;
    }
    steps.reverse();
    line_of(deal, &steps)
}

/// A best-first search: the queue holds moves not yet made, each ranked by the position it
/// leads to, and a position is entered in the table when its move is taken from the queue
/// (most moves queued are never taken: their keys are never made).
fn search(
    deal: &CellsDeal,
    budget: &Budget,
    weights: &Weights,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<CellsMove> {
    let mut state = CellsState::from_deal(deal);
    let mut table: Table<CellsKey> = Table::new(budget.memory);
    let mut nodes: Vec<Node> = Vec::new();
    let mut open: BinaryHeap<Waiting> = BinaryHeap::new();
    let mut moves: Vec<CellsMove> = Vec::new();
    let mut steps: Vec<Step> = Vec::new();
    let mut made: Vec<CellsMove> = Vec::new();
    let memory = &budget.memory;
    auto_moves(&mut state, &mut made);
    if state.is_won() {
        return End::Won(made);
    }
    // The deal's node; its step is never read.
    let mut next: Option<(u32, Step)> = Some((
        0,
        Step::One(CellsMove {
            card: Card::from_index(0),
            from: Place::Foundation,
            to: Place::Foundation,
        }),
    ));
    let mut met = 0u32;
    // The node whose position `state` holds, if one does: most moves taken from the queue
    // are made from the node expanded last, which then needs no decoding.
    let mut current: Option<u32> = None;
    while let Some((parent, step)) = next
        .take()
        .or_else(|| open.pop().map(|w| (w.parent, w.step)))
    {
        // The position after `step` from node `parent` (the deal itself, the first time).
        made.clear();
        if !nodes.is_empty() {
            if current != Some(parent) {
                state.set_placed_key(&nodes[parent as usize].placed);
                current = Some(parent);
            }
            apply_step(&mut state, step);
            auto_moves_after(&mut state, step, &mut made);
        }
        match table.insert(state.key()) {
            Insert::New => {}
            Insert::Seen => {
                while let Some(a) = made.pop() {
                    undo(&mut state, a);
                }
                if !nodes.is_empty() {
                    undo_step(&mut state, step);
                }
                continue;
            }
            Insert::Full => return End::Limit(Stop::Memory),
        }
        if let Some(why) = budget.spend(expanded, watch) {
            return End::Limit(why);
        }
        let at = nodes.len() as u32;
        moves.clear();
        generate(&state, &mut moves);
        steps.clear();
        steps.extend(moves.iter().map(|&m| Step::One(m)));
        generate_runs(&state, &mut steps);
        if !(memory.reserve(&mut nodes, 1) && reserve_heap(memory, &mut open, steps.len())) {
            return End::Limit(Stop::Memory);
        }
        let depth = if nodes.is_empty() {
            0
        } else {
            nodes[parent as usize].depth + 1
        };
        nodes.push(Node {
            placed: state.placed_key(),
            parent,
            step,
            depth,
        });
        let children = Children {
            parent: at,
            depth: depth + 1,
            weights,
        };
        if let Some(won) = children.queue(&mut state, &steps, &mut met, &mut open, &mut made) {
            return End::Won(line_to(deal, &nodes, at as usize, Some(won)));
        }
        current = Some(at);
    }
    End::Exhausted
}

/// The steps from one node, queued.
struct Children<'a> {
    parent: u32,
    /// Theirs: steps from the deal.
    depth: u32,
    weights: &'a Weights,
}

impl Children<'_> {
    /// Each of `steps` made from `state` (the parent's, as it is left), with its safe moves,
    /// ranked and queued; the first that wins, if one does. `met` counts the steps queued.
    fn queue(
        &self,
        state: &mut CellsState,
        steps: &[Step],
        met: &mut u32,
        open: &mut BinaryHeap<Waiting>,
        made: &mut Vec<CellsMove>,
    ) -> Option<Step> {
        let w = self.weights;
        rank_steps(state, steps, w, made, |near, child| {
            *met += 1;
            open.push(Waiting {
                rank: Reverse((near + w.depth * self.depth as i32, Reverse(*met))),
                parent: self.parent,
                step: child,
            });
        })
    }
}

/// Room in `heap` for `extra` more entries, if `memory` allows it to grow.
fn reserve_heap<T: Ord>(memory: &Memory, heap: &mut BinaryHeap<T>, extra: usize) -> bool {
    if heap.capacity() - heap.len() >= extra {
        return true;
    }
    let wanted = (heap.capacity() * 2).max(heap.len() + extra);
    if !memory.allows(wanted * std::mem::size_of::<T>()) {
        return false;
    }
    heap.reserve(wanted - heap.len());
    true
}

#[cfg(test)]
mod tests {
    use super::super::variant::Variant;
    use super::*;
    use crate::solver::heap::{peak_since, reset_peak};
    use crate::solver::Status;

    fn limits(states: u64) -> Limits {
        Limits::states(Some(states))
    }

    /// Deals of every variant are decided, and every win replays from its deal (the shortened
    /// ones too, and they are no longer).
    #[test]
    fn deals_are_decided_and_the_wins_replay() {
        for v in Variant::ALL {
            for n in 1..=3 {
                let deal = CellsDeal::from_number(v, n).unwrap();
                let o = solve(&deal, &limits(2_000_000), false, &mut || false);
                assert_ne!(o.status, Status::Unknown, "{v:?} {n}");
                if o.status == Status::Solved {
                    assert!(replays_to_win(&deal, &o.moves), "{v:?} {n}");
                    let short = solve(&deal, &limits(2_000_000), true, &mut || false);
                    assert!(replays_to_win(&deal, &short.moves));
                    assert!(short.moves.len() <= o.moves.len());
                }
            }
        }
        for n in 1..=30 {
            let deal = CellsDeal::from_number(Variant::FreeCell, n).unwrap();
            let o = solve(&deal, &limits(2_000_000), false, &mut || false);
            assert_eq!(o.status, Status::Solved, "{n}");
            assert!(replays_to_win(&deal, &o.moves), "{n}");
        }
    }

    /// FreeCell deal 11982, the one of 1-32000 that no play wins, is proved lost: every
    /// position reachable is expanded (fc-solve's complete scan counts 35,265 of its own).
    #[test]
    fn deal_11982_is_proved_unsolvable() {
        let deal = CellsDeal::from_number(Variant::FreeCell, 11982).unwrap();
        let o = solve(&deal, &limits(10_000_000), false, &mut || false);
        assert_eq!(o.status, Status::Unsolvable);
        // The portfolio's tries, then the complete search, all to their end.
        assert_eq!(o.ends.len(), PORTFOLIO.len() + 1);
        let alone = solve_with(
            &deal,
            &limits(10_000_000),
            &[],
            &COMPLETE_WEIGHTS,
            false,
            &mut || false,
        );
        assert_eq!(alone.status, Status::Unsolvable);
        assert_eq!(o.states - o.ends[PORTFOLIO.len() - 1], alone.states);
    }

    #[test]
    fn limits_end_a_solve_with_an_unknown() {
        let deal = CellsDeal::from_number(Variant::FreeCell, 11982).unwrap();
        let o = solve(&deal, &limits(5_000), false, &mut || false);
        assert_eq!(
            (o.status, o.limit, o.states),
            (Status::Unknown, Some(Stop::States), 5_000)
        );
        let mut asked = 0;
        let o = solve(&deal, &Limits::states(None), false, &mut || {
            asked += 1;
            true
        });
        assert_eq!(
            (o.status, o.limit),
            (Status::Unknown, Some(Stop::Interrupted))
        );
        assert!(asked > 0);
        for max_memory in [1 << 20, 4 << 20] {
            let bounded = Limits {
                max_memory,
                ..Limits::states(None)
            };
            let memory = Memory::from_now(max_memory);
            reset_peak();
            let o = solve(&deal, &bounded, false, &mut || false);
            assert_eq!((o.status, o.limit), (Status::Unknown, Some(Stop::Memory)));
            let peak = peak_since(&memory);
            assert!(peak <= max_memory, "{peak} bytes held under {max_memory}");
        }
    }
}
