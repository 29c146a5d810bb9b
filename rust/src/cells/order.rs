//! The order the search takes positions in: by how far from a win each looks (after the safe
//! moves the solver makes by itself), an estimate with weights.

use super::moves::{fits, undo, CellsMove, Place};
use super::state::CellsState;
use super::steps::{apply_step, is_quiet, make_step, undo_step, Step};
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
/// a step that puts nothing up changes the parts of the columns it touches and no other.
#[inline]
pub fn column_part(state: &CellsState, c: usize, w: &Weights) -> i32 {
    let mut tally = Tally::EMPTY;
    for &card in &state.cols[c] {
        tally.push(state, card, w);
    }
    tally.part(w)
}

/// What a column's part is made of, counted bottom up, so that a card put on the column adds
/// to it and the count for its lower cards is the count for any height.
#[derive(Copy, Clone, Debug)]
struct Tally {
    len: i32,
    top: Option<Card>,
    /// The lowest rank of each suit so far, and of all.
    lowest: [u8; 4],
    lowest_rank: u8,
    over_lower: i32,
    over_lower_rank: i32,
    unordered: i32,
    /// The cards next on their foundations: how many, and the sum of their heights (a card
    /// at height i has len - 1 - i cards above it).
    next: i32,
    next_heights: i32,
}

impl Tally {
    const EMPTY: Tally = Tally {
        len: 0,
        top: None,
        lowest: [14; 4],
        lowest_rank: 14,
        over_lower: 0,
        over_lower_rank: 0,
        unordered: 0,
        next: 0,
        next_heights: 0,
    };

    #[inline]
    fn push(&mut self, state: &CellsState, card: Card, w: &Weights) {
        let (rank, suit) = (card.rank(), card.suit() as usize);
        if self.lowest_rank < rank {
            self.over_lower_rank += 1;
        } else {
            self.lowest_rank = rank;
        }
        let low = &mut self.lowest[suit];
        if *low < rank {
            self.over_lower += 1;
        } else {
            *low = rank;
        }
        if state.foundations[suit] + 1 == rank {
            self.next += 1;
            self.next_heights += self.len;
        }
        if w.unordered != 0 && self.top.is_some_and(|below| !fits(state, card, below)) {
            self.unordered += 1;
        }
        self.top = Some(card);
        self.len += 1;
    }

    #[inline]
    fn part(&self, w: &Weights) -> i32 {
        if self.len == 0 {
            return -w.empty_column;
        }
        let above_next = self.next * (self.len - 1) - self.next_heights;
        w.above_next * above_next
            + w.unordered * self.unordered
            + w.over_lower * self.over_lower
            + w.over_lower_rank * self.over_lower_rank
    }
}

/// A position's columns read once for ranking its steps: each column's tally at its top (to
/// put cards on it) and the parts summed.
#[derive(Debug)]
pub struct Room {
    tops: [Tally; 10],
    /// The columns' parts, summed.
    columns: i32,
    /// The safe moves after a step that is not quiet.
    made: Vec<CellsMove>,
}

impl Default for Room {
    fn default() -> Room {
        Room {
            tops: [Tally::EMPTY; 10],
            columns: 0,
            made: Vec::new(),
        }
    }
}

impl Room {
    fn read(&mut self, state: &CellsState, w: &Weights) {
        self.columns = 0;
        for (c, col) in state.cols.iter().enumerate() {
            let mut tally = Tally::EMPTY;
            for &card in col {
                tally.push(state, card, w);
            }
            self.tops[c] = tally;
            self.columns += tally.part(w);
        }
    }

    /// Column `c`'s part with its top `taken` cards gone, less its part now.
    #[inline]
    fn take(&self, state: &CellsState, c: u8, taken: usize, w: &Weights) -> i32 {
        let col = &state.cols[c as usize];
        let mut tally = Tally::EMPTY;
        for &card in &col[..col.len() - taken] {
            tally.push(state, card, w);
        }
        tally.part(w) - self.tops[c as usize].part(w)
    }

    /// Column `c`'s part with `cards` put on it, less its part now.
    #[inline]
    fn put(&self, state: &CellsState, c: u8, cards: &[Card], w: &Weights) -> i32 {
        let mut tally = self.tops[c as usize];
        for &card in cards {
            tally.push(state, card, w);
        }
        tally.part(w) - self.tops[c as usize].part(w)
    }

    /// The estimate after a quiet `step` ([`is_quiet`]), from the columns read: the parts of
    /// the columns it touches and the free cells change, nothing else.
    fn near(&self, state: &CellsState, step: Step, w: &Weights) -> i32 {
        let mut free = state.free_cells() as i32;
        let mut columns = self.columns;
        match step {
            Step::One(m) => {
                match m.from {
                    Place::Column(c) => columns += self.take(state, c, 1, w),
                    _ => free += 1,
                }
                match m.to {
                    Place::Column(c) => columns += self.put(state, c, &[m.card], w),
                    _ => free -= 1,
                }
            }
            Step::Run { from, count, to } => {
                let col = &state.cols[from as usize];
                let run = &col[col.len() - count as usize..];
                columns += self.take(state, from, count as usize, w) + self.put(state, to, run, w);
            }
            Step::Dig {
                from,
                cells,
                spaces,
                card,
                to,
            } => {
                let Place::Column(to) = to else {
                    unreachable!("a quiet dig puts its card on a column")
                };
                let parked = (cells.count_ones() + spaces.count_ones()) as usize;
                columns += self.take(state, from, parked + 1, w) + self.put(state, to, &[card], w);
                // A column of one card has a part of 0.
                columns += spaces.count_ones() as i32 * w.empty_column;
                free -= cells.count_ones() as i32;
            }
        }
        let up: i32 = state.foundations.iter().map(|&r| r as i32).sum();
        w.out * (52 - up) - w.free_cell * free + columns
    }
}

/// Each of `steps` from `state` (left as it was found), with its safe moves, and `each` told
/// its estimate; the first that wins, if one does, ends it. A quiet step ([`is_quiet`]) is
/// ranked from the columns read once, without being made.
pub fn rank_steps(
    state: &mut CellsState,
    steps: &[Step],
    w: &Weights,
    room: &mut Room,
    mut each: impl FnMut(i32, Step),
) -> Option<Step> {
    room.read(state, w);
    for &child in steps {
        if is_quiet(state, child) {
            let near = room.near(state, child, w);
            debug_assert_eq!(near, {
                let mut after = state.clone();
                apply_step(&mut after, child);
                estimate(&after, w)
            });
            each(near, child);
            continue;
        }
        room.made.clear();
        make_step(state, child, &mut room.made);
        if state.is_won() {
            return Some(child);
        }
        each(estimate(state, w), child);
        while let Some(a) = room.made.pop() {
            undo(state, a);
        }
        undo_step(state, child);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::deal::CellsDeal;
    use super::super::moves::{auto_moves, Fits};
    use super::super::steps::{apply_step, generate, generate_digs, generate_runs};
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
                    generate(&state, &Fits::of(&state), &mut moves);
                    let mut steps: Vec<Step> = moves.iter().map(|&m| Step::One(m)).collect();
                    generate_runs(&state, &mut steps);
                    generate_digs(&state, &Fits::of(&state), &mut steps);
                    let before = state.clone();
                    let mut told = Vec::new();
                    let won =
                        rank_steps(&mut state, &steps, &w, &mut Room::default(), |near, s| {
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
