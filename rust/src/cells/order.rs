//! The order the search takes positions in: by how far from a win each looks (after the safe
//! moves the solver makes by itself), an estimate with weights.

use super::moves::fits;
use super::state::CellsState;

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
    /// Each step from the deal to the position (a ranking with it is less greedy).
    pub depth: i32,
}

/// The weights the solver ranks positions with first (measured with `cellslab` over FreeCell
/// deals 1-1000: the solver's research notes).
pub const WEIGHTS: Weights = Weights {
    out: 4,
    above_next: 2,
    unordered: 0,
    free_cell: 3,
    empty_column: 6,
    over_lower: 2,
    over_lower_rank: 3,
    depth: 0,
};

/// The complete search's weights: [`WEIGHTS`] and a step from the deal costing 1, so that it
/// does not follow one line too far (alone over FreeCell deals 1-2000: 0.26 of the time of
/// [`WEIGHTS`], whose slowest deal took over 5 s; the solver's research notes).
pub const COMPLETE_WEIGHTS: Weights = Weights {
    depth: 1,
    ..WEIGHTS
};

/// Other weights, for the portfolio's later tries: which deals a ranking loses its way in
/// depends on its weights.
pub const OTHER_WEIGHTS: [Weights; 4] = [
    Weights {
        over_lower: 8,
        over_lower_rank: 0,
        ..WEIGHTS
    },
    Weights {
        out: 2,
        unordered: 1,
        empty_column: 10,
        over_lower: 6,
        over_lower_rank: 0,
        ..WEIGHTS
    },
    Weights {
        above_next: 4,
        free_cell: 1,
        over_lower: 4,
        over_lower_rank: 0,
        ..WEIGHTS
    },
    Weights {
        out: 6,
        above_next: 1,
        unordered: 2,
        free_cell: 4,
        empty_column: 8,
        over_lower: 0,
        over_lower_rank: 4,
        depth: 0,
    },
];

/// How far from a win `state` looks: lower is nearer.
pub fn estimate(state: &CellsState, w: &Weights) -> i32 {
    let up: i32 = state.foundations.iter().map(|&r| r as i32).sum();
    let mut above_next = 0;
    let mut unordered = 0;
    let count_unordered = w.unordered != 0;
    let mut empty = 0;
    let mut over_lower = 0;
    let mut over_lower_rank = 0;
    for col in &state.cols {
        if col.is_empty() {
            empty += 1;
            continue;
        }
        // The lowest rank of each suit seen so far, bottom up, and of all.
        let mut lowest = [14u8; 4];
        let mut lowest_rank = 14u8;
        for (i, &card) in col.iter().enumerate() {
            if lowest_rank < card.rank() {
                over_lower_rank += 1;
            } else {
                lowest_rank = card.rank();
            }
            let low = &mut lowest[card.suit() as usize];
            if *low < card.rank() {
                over_lower += 1;
            } else {
                *low = card.rank();
            }
            if state.foundations[card.suit() as usize] + 1 == card.rank() {
                above_next += (col.len() - 1 - i) as i32;
            }
            if count_unordered && i > 0 && !fits(state, card, col[i - 1]) {
                unordered += 1;
            }
        }
    }
    let free = state.free_cells() as i32;
    w.out * (52 - up) + w.above_next * above_next + w.unordered * unordered
        - w.free_cell * free
        - w.empty_column * empty
        + w.over_lower * over_lower
        + w.over_lower_rank * over_lower_rank
}
