//! The solver: dives (`dive.rs`) that share one table, each a turn at a time, as fc-solve's
//! soft threads. A position one dive has entered no other enters, so each keeps to ground the
//! others have not walked, and a dive lost below a bad step costs only its turns. When every
//! dive has run out, each position entered has had all its steps taken by the dive that
//! entered it: the table is closed under the steps and holds every position reachable from
//! the deal (as the safe moves leave it), so there is no win.

use super::deal::CellsDeal;
use super::dive::{Dive, Noise};
use super::moves::CellsMove;
use super::order::Weights;
use super::state::CellsKey;
use crate::solver::budget::{Budget, End, Watch};
use crate::solver::table::Table;
use crate::solver::Stop;

/// Positions a dive expands in one turn.
pub const TURN: u64 = 500;
/// The noise added to the estimates of every dive but the first (up to 7).
pub const NOISE: u64 = 8;

/// Dives ranked by `weights`, in turn, [`TURN`] positions each, round and round until one
/// wins, all have run out (the deal is lost), or `budget` stops them.
pub fn pack(
    deal: &CellsDeal,
    weights: &[Weights],
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<CellsMove> {
    let mut table: Table<CellsKey> = Table::new(budget.memory);
    let mut dives: Vec<Dive> = weights
        .iter()
        .enumerate()
        .map(|(i, &w)| Dive::new(deal, w, noise(i)))
        .collect();
    while !dives.is_empty() {
        let mut i = 0;
        while i < dives.len() {
            let until = Budget {
                max_states: Some(
                    expanded
                        .saturating_add(TURN)
                        .min(budget.max_states.unwrap_or(u64::MAX)),
                ),
                deadline: budget.deadline,
                memory: budget.memory,
            };
            match dives[i].go(&mut table, &until, expanded, watch) {
                End::Limit(Stop::States) => {
                    if budget.max_states.is_some_and(|max| *expanded >= max) {
                        return End::Limit(Stop::States);
                    }
                    i += 1;
                }
                // The order of the others is kept: the same turns as the reference's.
                End::Exhausted => {
                    dives.remove(i);
                }
                end => return end,
            }
        }
    }
    End::Exhausted
}

/// The noise of the pack's dive `i`: none for the first.
fn noise(i: usize) -> Option<Noise> {
    (i > 0).then(|| Noise::new(NOISE, 0x9e37_79b9 * (i as u64 + 7)))
}
