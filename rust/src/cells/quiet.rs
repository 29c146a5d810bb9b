//! A quiet step ([`is_quiet`]: no card goes up, no safe move follows) reckoned from the
//! position it is made from, without making it: the foundations stay, so only the columns it
//! touches and the cells change, and the estimate of the position after it follows from
//! those.

use super::moves::{CellsMove, Place};
use super::order::{base_part, next_cards, part, Weights};
use super::state::CellsState;
use super::steps::Step;
use crate::cards::Card;

#[cfg(doc)]
use super::steps::is_quiet;

/// What a quiet step changes: cards taken off column `from` (`taken` of them, the top `moved`
/// going onto `to` as they lay), the cards put on `to`, and the cells taken (less than 0:
/// given back).
pub struct Shape<'a> {
    from: Option<u8>,
    taken: usize,
    moved: usize,
    to: Option<u8>,
    put: &'a [Card],
    cells: i32,
}

impl<'a> Shape<'a> {
    pub fn of(state: &'a CellsState, step: Step) -> Shape<'a> {
        match step {
            Step::One(m) => {
                let from = match m.from {
                    Place::Column(c) => Some(c),
                    _ => None,
                };
                let (to, cells) = match m.to {
                    Place::Column(c) => (Some(c), -i32::from(from.is_none())),
                    _ => (None, 1),
                };
                let put = if to.is_some() {
                    std::slice::from_ref(card_ref(state, m))
                } else {
                    &[]
                };
                let taken = usize::from(from.is_some());
                Shape {
                    from,
                    taken,
                    moved: 0,
                    to,
                    put,
                    cells,
                }
            }
            Step::Run { from, count, to } => {
                let col = &state.cols[from as usize];
                let count = count as usize;
                let put = &col[col.len() - count..];
                let (from, to) = (Some(from), Some(to));
                Shape {
                    from,
                    taken: count,
                    moved: count,
                    to,
                    put,
                    cells: 0,
                }
            }
            Step::Dig {
                from,
                cells,
                spaces,
                to,
                ..
            } => {
                let Place::Column(to) = to else {
                    unreachable!("a quiet dig puts its card on a column")
                };
                let col = &state.cols[from as usize];
                let parked = (cells.count_ones() + spaces.count_ones()) as usize;
                let put = &col[col.len() - parked - 1..col.len() - parked];
                let (from, to) = (Some(from), Some(to));
                let cells = cells.count_ones() as i32;
                Shape {
                    from,
                    taken: parked + 1,
                    moved: 0,
                    to,
                    put,
                    cells,
                }
            }
        }
    }
}

/// The card a single move moves, as it lies.
#[inline]
fn card_ref(state: &CellsState, m: CellsMove) -> &Card {
    match m.from {
        Place::Column(c) => state.cols[c as usize].last(),
        Place::Cell(c) => state.cells[c as usize].as_ref(),
        Place::Foundation => None,
    }
    .expect("the card a move moves")
}

/// A position read once to rank its steps: its estimate but for the cards over the next cards
/// up (the columns' parts summed, the cards up and the cells), and where those next cards
/// lie.
#[derive(Debug, Default)]
pub struct Room {
    base: i32,
    columns: i32,
    next: Vec<(usize, usize)>,
    /// The safe moves after a step that is not quiet.
    pub made: Vec<CellsMove>,
}

impl Room {
    pub fn read(&mut self, state: &CellsState, w: &Weights) {
        self.base = base_part(state, w);
        self.columns = state.cols.iter().map(|col| part(col.top_mark(), w)).sum();
        self.next.clear();
        self.next.extend(next_cards(state));
    }

    /// The estimate after the quiet `step` of `shape` from the position read.
    pub fn near(&self, state: &CellsState, step: Step, shape: &Shape, w: &Weights) -> i32 {
        let Shape {
            from,
            taken,
            moved,
            to,
            put,
            cells,
        } = *shape;
        let mut columns = self.columns;
        if let Some(f) = from {
            let col = &state.cols[f as usize];
            let below = (col.len() - taken).checked_sub(1).map(|at| col.mark(at));
            columns += part(below, w) - part(col.top_mark(), w);
        }
        if let Some(t) = to {
            let col = &state.cols[t as usize];
            columns += part(col.top_mark_with(put).as_ref(), w) - part(col.top_mark(), w);
        }
        if let Step::Dig { spaces, .. } = step {
            // Each empty column given a card of its own: a part of 0 for -empty_column.
            columns += spaces.count_ones() as i32 * w.empty_column;
        }
        let mut above = 0;
        for &(c, at) in &self.next {
            let len = state.cols[c].len();
            above += if Some(c as u8) == from && at >= len - taken {
                // Moved with the cards over it, or parked or dug out (nothing over it).
                if at >= len - moved {
                    len - 1 - at
                } else {
                    0
                }
            } else if Some(c as u8) == from {
                len - taken - 1 - at
            } else if Some(c as u8) == to {
                len + put.len() - 1 - at
            } else {
                len - 1 - at
            } as i32;
        }
        self.base + w.free_cell * cells + columns + w.above_next * above
    }
}
