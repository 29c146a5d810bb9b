//! The solver: dives (`dive.rs`) that take turns, as fc-solve's soft threads. Eight dig dives
//! ([`Steps::Digs`], each ranked by its own weights, all but the first with a little noise)
//! share one table: a position one has entered, no other enters, so each keeps to ground the
//! others have not walked, and a dive lost below a bad step costs only its turns. Their steps
//! leave some positions out, so beside them one complete dive ([`Steps::All`]) walks a table
//! of its own: when it has run out, each position it entered has had all its steps taken, so
//! the table holds every position reachable from the deal (as the safe moves leave it), and
//! there is no win.

use super::deal::CellsDeal;
use super::dive::{Dive, Noise, Steps};
use super::moves::CellsMove;
use super::order::Weights;
use super::state::CellsKey;
use crate::solver::budget::{Budget, End, Watch};
use crate::solver::table::Table;
use crate::solver::Stop;

/// Positions a dig dive expands in one turn.
pub const TURN: u64 = 300;
/// Positions the complete dive expands in one turn: most deals are won by a dig dive, and
/// the complete dive's turns are spent on them for nothing.
pub const COMPLETE_TURN: u64 = 100;
/// The noise added to the estimates of every dig dive but the first (up to 7).
pub const NOISE: u64 = 8;

/// Dig dives ranked by each of `weights`, and the complete dive by the first, in turn (the
/// first dig dive, the complete dive, then the other dig dives), round and round until one
/// wins, the complete dive has run out (the deal is lost), or `budget` stops them.
pub fn pack(
    deal: &CellsDeal,
    weights: &[Weights],
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<CellsMove> {
    // The dig dives' table holds digests of the keys (`Keyed`): they prove nothing, so a
    // position lost to a digest shared by chance costs them a position, no more.
    let mut dug: Table<u64> = Table::new(budget.memory);
    let mut walked: Table<CellsKey> = Table::new(budget.memory);
    // The dives in their order, each made when its first turn comes: most deals are won
    // within the first dive's first turn.
    let mut order = weights
        .iter()
        .enumerate()
        .map(|(i, &w)| (w, noise(i), Steps::Digs));
    let first = order.next();
    let mut order = first
        .into_iter()
        .chain(std::iter::once((weights[0], None, Steps::All)))
        .chain(order);
    let mut dives: Vec<Dive> = Vec::with_capacity(weights.len() + 1);
    loop {
        let mut i = 0;
        loop {
            if i == dives.len() {
                match order.next() {
                    Some((w, noise, steps)) => dives.push(Dive::new(deal, w, noise, steps)),
                    None => break,
                }
            }
            let turn = match dives[i].steps() {
                Steps::Digs => TURN,
                Steps::All => COMPLETE_TURN,
            };
            let until = Budget {
                max_states: Some(
                    expanded
                        .saturating_add(turn)
                        .min(budget.max_states.unwrap_or(u64::MAX)),
                ),
                deadline: budget.deadline,
                memory: budget.memory,
            };
            let end = match dives[i].steps() {
                Steps::Digs => dives[i].go(&mut dug, &until, expanded, watch),
                Steps::All => dives[i].go(&mut walked, &until, expanded, watch),
            };
            match end {
                End::Limit(Stop::States) => {
                    if budget.max_states.is_some_and(|max| *expanded >= max) {
                        return End::Limit(Stop::States);
                    }
                    i += 1;
                }
                End::Exhausted if dives[i].steps() == Steps::All => return End::Exhausted,
                // The order of the others is kept: the same turns as the reference's.
                End::Exhausted => {
                    dives.remove(i);
                }
                end => return end,
            }
        }
    }
}

/// The noise of the pack's dig dive `i`: none for the first.
fn noise(i: usize) -> Option<Noise> {
    (i > 0).then(|| Noise::new(NOISE, 0x9e37_79b9 * (i as u64 + 7)))
}
