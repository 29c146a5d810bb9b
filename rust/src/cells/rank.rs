//! A position's steps ranked: each step's child estimated (`order.rs`), a quiet step's
//! reckoned from its parent without being made (`quiet.rs`), any other made and taken back.

use super::moves::undo;
use super::order::{estimate, Weights};
pub use super::quiet::Room;
use super::quiet::Shape;
use super::state::CellsState;
use super::steps::{apply_step, is_quiet, make_step, undo_step, Step};

/// Each of `steps` made from `state` (left as it was found), with its safe moves, and `each`
/// told its estimate; the first that wins, if one does, ends it. A quiet step ([`is_quiet`])
/// is reckoned from the position read once ([`Room`]), without being made.
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
            let near = room.near(state, child, &Shape::of(state, child), w);
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
    use super::super::moves::auto_moves;
    use super::super::order::WEIGHTS;
    use super::super::steps::{apply_step, every_step};
    use super::super::variant::Variant;
    use super::*;

    /// The estimate counted card by card, as the weights say it: the check on the marks.
    fn counted(state: &CellsState, w: &Weights) -> i32 {
        let up: i32 = state.foundations.iter().map(|&r| r as i32).sum();
        let mut sum = w.out * (52 - up) - w.free_cell * state.free_cells() as i32;
        for col in &state.cols {
            if col.is_empty() {
                sum -= w.empty_column;
            }
            for (i, &card) in col.iter().enumerate() {
                let below = &col[..i];
                let lower = |same_suit: bool| {
                    below
                        .iter()
                        .any(|b| b.rank() < card.rank() && (!same_suit || b.suit() == card.suit()))
                };
                sum += w.over_lower * i32::from(lower(true));
                sum += w.over_lower_rank * i32::from(lower(false));
                if i > 0 && !super::super::moves::fits(state, card, col[i - 1]) {
                    sum += w.unordered;
                }
                if state.foundations[card.suit() as usize] + 1 == card.rank() {
                    sum += w.above_next * (col.len() - 1 - i) as i32;
                }
            }
        }
        sum
    }

    /// Along plays of every variant, each step's estimate as `rank_steps` tells it is the
    /// estimate of the position after the step and its safe moves counted card by card, with
    /// every weight set, and the parent is left as it was.
    #[test]
    fn a_steps_estimate_is_the_estimate_counted_card_by_card() {
        let all = Weights {
            out: 5,
            above_next: 3,
            unordered: 2,
            free_cell: 7,
            empty_column: 11,
            over_lower: 13,
            over_lower_rank: 17,
        };
        let mut told_in_all = 0;
        for v in Variant::ALL {
            for (n, w) in (20..26).flat_map(|n| [(n, WEIGHTS), (n, all)]) {
                let deal = CellsDeal::from_number(v, n).unwrap();
                let mut state = CellsState::from_deal(&deal);
                auto_moves(&mut state, &mut Vec::new());
                for turn in 0..120 {
                    let steps = every_step(&state);
                    let before = state.clone();
                    let mut told = Vec::new();
                    let mut room = Room::default();
                    let won = rank_steps(&mut state, &steps, &w, &mut room, |near, s| {
                        told.push((near, s));
                    });
                    assert_eq!(state, before);
                    for &(near, step) in &told {
                        let mut child = state.clone();
                        apply_step(&mut child, step);
                        auto_moves(&mut child, &mut Vec::new());
                        assert_eq!(near, counted(&child, &w), "{v:?} turn {turn} {step:?}");
                    }
                    told_in_all += told.len();
                    if won.is_some() || told.is_empty() {
                        break;
                    }
                    let step = told[turn * 5 % told.len()].1;
                    apply_step(&mut state, step);
                    auto_moves(&mut state, &mut Vec::new());
                }
            }
        }
        assert!(told_in_all > 5_000, "{told_in_all} estimates checked");
    }
}
