//! The order the search takes positions in: by how far from a win each looks (after the safe
//! moves the solver makes by itself), an estimate with weights.

use super::column::Mark;
use super::state::CellsState;
use crate::cards::Card;

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
        out: 3,
        above_next: 1,
        unordered: 2,
        free_cell: 7,
        empty_column: 8,
        over_lower: 0,
        over_lower_rank: 1,
    },
    Weights {
        out: 1,
        above_next: 1,
        unordered: 2,
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

/// How far from a win `state` looks: lower is nearer. The cards up and the free cells, each
/// column's part ([`part`]), and the cards over those next on their foundations.
pub fn estimate(state: &CellsState, w: &Weights) -> i32 {
    let columns: i32 = state.cols.iter().map(|col| part(col.top_mark(), w)).sum();
    let above: i32 = next_cards(state)
        .map(|(c, at)| (state.cols[c].len() - 1 - at) as i32)
        .sum();
    base_part(state, w) + columns + w.above_next * above
}

/// The part of the estimate no column holds: the cards not up, the free cells.
#[inline]
pub(super) fn base_part(state: &CellsState, w: &Weights) -> i32 {
    let up: i32 = state.foundations.iter().map(|&r| r as i32).sum();
    w.out * (52 - up) - w.free_cell * state.free_cells() as i32
}

/// A column's part of the estimate, read at its top card's mark (`None`: empty), apart from
/// the cards over the next cards up (they depend on the foundations).
#[inline]
pub(super) fn part(top: Option<&Mark>, w: &Weights) -> i32 {
    match top {
        None => -w.empty_column,
        Some(m) => {
            w.unordered * m.unordered as i32
                + w.over_lower * m.over_lower as i32
                + w.over_lower_rank * m.over_lower_rank as i32
        }
    }
}

/// The column and height of each card next on its foundation that lies in a column.
pub(super) fn next_cards(state: &CellsState) -> impl Iterator<Item = (usize, usize)> + '_ {
    (0..4u8).filter_map(|suit| {
        let top = state.foundations[suit as usize];
        let card = Card::new(top.checked_add(1).filter(|&r| r <= 13)?, suit);
        state
            .cols
            .iter()
            .enumerate()
            .find_map(|(c, col)| Some((c, col.height_of(card)?)))
    })
}
