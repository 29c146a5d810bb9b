//! The order the search takes positions in: by how far from a win each looks (after the safe
//! moves the solver makes by itself), an estimate with weights.

use super::moves::{fits, undo, CellsMove, Place};
use super::state::CellsState;
use super::steps::{apply_step, auto_moves_after, undo_step, Step};

/// What the estimate weighs (the lab's `cellslab` sets them to measure others).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Each card not yet up.
    pub out: i32,
    /// Each card lying above a card that is next on its foundation.
    pub above_next: i32,
    /// Each card in a column not on the card it would be built on.
    pub unordered: i32,
    /// Each empty cell (taken off).
    pub free_cell: i32,
    /// Each empty column (taken off).
    pub empty_column: i32,
    /// Each card lying above a lower card of its own suit (it must move before that one goes
    /// up).
    pub over_lower: i32,
    /// Each card lying above a lower card of any suit.
    pub over_lower_rank: i32,
}

/// The weights of the solver's dives (`pack.rs`), in the order they take their turns; the
/// complete dive takes the first. Tuned with `cellslab` by a coordinate descent on the sum of
/// the logarithms of the positions over FreeCell deals 1-8000, each deal counting alike, and
/// checked on deals it did not see (the solver's research notes).
pub const DIVE_WEIGHTS: [Weights; 8] = [
    Weights {
        out: 4,
        above_next: 1,
        unordered: 0,
        free_cell: 5,
        empty_column: 7,
        over_lower: 1,
        over_lower_rank: 2,
    },
    Weights {
        out: 3,
        above_next: 1,
        unordered: 1,
        free_cell: 6,
        empty_column: 8,
        over_lower: 0,
        over_lower_rank: 2,
    },
    Weights {
        out: 5,
        above_next: 4,
        unordered: 0,
        free_cell: 1,
        empty_column: 6,
        over_lower: 4,
        over_lower_rank: 0,
    },
    Weights {
        out: 4,
        above_next: 2,
        unordered: 0,
        free_cell: 4,
        empty_column: 6,
        over_lower: 8,
        over_lower_rank: 0,
    },
    Weights {
        out: 2,
        above_next: 2,
        unordered: 1,
        free_cell: 3,
        empty_column: 10,
        over_lower: 6,
        over_lower_rank: 0,
    },
    Weights {
        out: 2,
        above_next: 0,
        unordered: 0,
        free_cell: 6,
        empty_column: 12,
        over_lower: 2,
        over_lower_rank: 3,
    },
    Weights {
        out: 10,
        above_next: 2,
        unordered: 2,
        free_cell: 3,
        empty_column: 6,
        over_lower: 2,
        over_lower_rank: 3,
    },
    Weights {
        out: 4,
        above_next: 2,
        unordered: 0,
        free_cell: 3,
        empty_column: 6,
        over_lower: 2,
        over_lower_rank: 3,
    },
];

/// The first dive's weights.
pub const WEIGHTS: Weights = DIVE_WEIGHTS[0];

/// How far from a win `state` looks: lower is nearer. The cards up and the free cells, then
/// each column's part ([`column_part`]).
pub fn estimate(state: &CellsState, w: &Weights) -> i32 {
    let columns: i32 = (0..state.cols.len())
        .map(|c| column_part(state, c, w))
        .sum();
    base_part(state, w) + columns
}

/// The part of the estimate no column holds: the cards not up, the free cells.
#[inline]
pub fn base_part(state: &CellsState, w: &Weights) -> i32 {
    let up: i32 = state.foundations.iter().map(|&r| r as i32).sum();
    w.out * (52 - up) - w.free_cell * state.free_cells() as i32
}

/// Column `c`'s part of the estimate: it depends on that column and the foundations alone, so
/// a move that puts nothing up changes the parts of the columns it touches and no other.
#[inline]
pub fn column_part(state: &CellsState, c: usize, w: &Weights) -> i32 {
    let col = &state.cols[c];
    if col.is_empty() {
        return -w.empty_column;
    }
    let mut above_next = 0;
    let mut unordered = 0;
    let mut over_lower = 0;
    let mut over_lower_rank = 0;
    // The lowest rank of each suit seen so far, bottom up, and of all.
    let mut lowest = [14u8; 4];
    let mut lowest_rank = 14u8;
    for (i, &card) in col.iter().enumerate() {
        let (rank, suit) = (card.rank(), card.suit() as usize);
        if lowest_rank < rank {
            over_lower_rank += 1;
        } else {
            lowest_rank = rank;
        }
        let low = &mut lowest[suit];
        if *low < rank {
            over_lower += 1;
        } else {
            *low = rank;
        }
        if state.foundations[suit] + 1 == rank {
            above_next += (col.len() - 1 - i) as i32;
        }
        if w.unordered != 0 && i > 0 && !fits(state, card, col[i - 1]) {
            unordered += 1;
        }
    }
    w.above_next * above_next
        + w.unordered * unordered
        + w.over_lower * over_lower
        + w.over_lower_rank * over_lower_rank
}

/// Each of `steps` made from `state` (left as it was found), with its safe moves, and `each`
/// told its estimate; the first that wins, if one does, ends it. `made` is
/// room for the safe moves.
pub fn rank_steps(
    state: &mut CellsState,
    steps: &[Step],
    w: &Weights,
    made: &mut Vec<CellsMove>,
    mut each: impl FnMut(i32, Step),
) -> Option<Step> {
    // The parent's columns' parts of the estimate: a child that puts nothing up differs in
    // the columns its step touches alone.
    let mut parts = [0i32; 10];
    for (c, part) in parts.iter_mut().enumerate().take(state.cols.len()) {
        *part = column_part(state, c, w);
    }
    let columns: i32 = parts.iter().sum();
    for &child in steps {
        made.clear();
        apply_step(state, child);
        auto_moves_after(state, child, made);
        if state.is_won() {
            return Some(child);
        }
        // A card up changes every column's part; a dig into empty columns, theirs too.
        let whole = match child {
            Step::One(m) => m.to == Place::Foundation,
            Step::Run { .. } => false,
            Step::Dig { spaces, to, .. } => to == Place::Foundation || spaces != 0,
        };
        let near = if made.is_empty() && !whole {
            let mut sum = columns;
            for c in touched(child).into_iter().flatten() {
                sum += column_part(state, c, w) - parts[c];
            }
            base_part(state, w) + sum
        } else {
            estimate(state, w)
        };
        debug_assert_eq!(near, estimate(state, w));
        each(near, child);
        while let Some(a) = made.pop() {
            undo(state, a);
        }
        undo_step(state, child);
    }
    None
}

/// The columns `step` takes from or puts on.
#[inline]
fn touched(step: Step) -> [Option<usize>; 2] {
    let column = |p: Place| match p {
        Place::Column(c) => Some(c as usize),
        _ => None,
    };
    match step {
        Step::One(m) => [column(m.from), column(m.to)],
        Step::Run { from, to, .. } => [Some(from as usize), Some(to as usize)],
        Step::Dig { from, to, .. } => [Some(from as usize), column(to)],
    }
}

#[cfg(test)]
mod tests {
    use super::super::deal::CellsDeal;
    use super::super::moves::auto_moves;
    use super::super::steps::{apply_step, generate, generate_runs};
    use super::super::variant::Variant;
    use super::*;

    /// Along plays of every variant, each step's estimate as `rank_steps` tells it (from the
    /// parent's columns) is the estimate of the position after the step and its safe moves,
    /// with every weight set, and the parent is left as it was.
    #[test]
    fn a_childs_estimate_from_its_parents_columns_is_its_estimate() {
        let all = Weights {
            out: 5,
            above_next: 3,
            unordered: 2,
            free_cell: 7,
            empty_column: 11,
            over_lower: 13,
            over_lower_rank: 17,
        };
        for v in Variant::ALL {
            for w in [WEIGHTS, all] {
                let deal = CellsDeal::from_number(v, 23).unwrap();
                let mut state = CellsState::from_deal(&deal);
                auto_moves(&mut state, &mut Vec::new());
                for turn in 0..120 {
                    let mut moves = Vec::new();
                    generate(&state, &mut moves);
                    let mut steps: Vec<Step> = moves.iter().map(|&m| Step::One(m)).collect();
                    generate_runs(&state, &mut steps);
                    let before = state.clone();
                    let mut told = Vec::new();
                    let won = rank_steps(&mut state, &steps, &w, &mut Vec::new(), |near, s| {
                        told.push((near, s));
                    });
                    assert_eq!(state, before);
                    for &(near, step) in &told {
                        let mut child = state.clone();
                        apply_step(&mut child, step);
                        auto_moves(&mut child, &mut Vec::new());
                        assert_eq!(near, estimate(&child, &w), "{v:?} turn {turn} {step:?}");
                    }
                    if won.is_some() || told.is_empty() {
                        break;
                    }
                    let step = told[turn * 5 % told.len()].1;
                    apply_step(&mut state, step);
                    auto_moves(&mut state, &mut Vec::new());
                }
            }
        }
    }
}
