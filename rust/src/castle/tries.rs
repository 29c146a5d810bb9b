//! The complete pass's tries. As its table grows (at [`ORBITS_AFTER`] positions, then at each
//! fourfold growth) the walk stops to try two other searches from the deal: the orbit pass
//! (`orbits.rs`), whose "no" is a proof long before the walk could give one, then a beam
//! (`beam.rs`), whose order, guided by how near a win each position looks, meets some wins
//! hundreds of times sooner than the walk's depth-first order. Each try may spend a share of
//! what the table holds, so that a late proof pays little for the beams and a late win little
//! for the orbits; the beams grow wider from try to try, as a wider beam finds wins a narrower
//! one runs dry before (docs/proofs.md). The walk then goes on where it stopped: the answer
//! stays the complete pass's, a win or a proof, whichever comes first.

use super::beam::beam_search;
use super::deal::Deal;
use super::moves::Move;
use super::orbits::{orbit_pass, Orbital};
use crate::solver::budget::{Budget, End, Watch};
use crate::solver::Stop;

#[cfg(doc)]
use super::orbits::ORBITS_AFTER;

/// The orbit pass may expand a position for every this many in the table: with its next try
/// at four times the table, all its tries take at most a third of the table's count of
/// expansions (an orbit expansion costs several depth-first ones).
const ORBIT_SHARE: u64 = 4;

/// The beam may expand a position for every this many in the table (a beam's expansion costs
/// about eight depth-first ones: all its children made, keyed and ranked).
const BEAM_SHARE: u64 = 8;

/// The first try's beam width, and how many times wider each next try's is: the widths
/// that won the late wins measured, 1,000, 10,000 or 100,000, each in its own try.
const FIRST_WIDTH: usize = 1_000;
const WIDER: usize = 10;

/// A beam runs dry or wins within about a hundred expansions per unit of width (its depths):
/// its width is at most its share over this, so that it can end within it.
const DEPTHS: u64 = 40;

/// The tries due now: the table holds `positions`, and `before` tries were made before.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Due {
    pub(super) positions: u64,
    pub(super) before: u32,
}

impl Due {
    /// The expansions this try's beam may make.
    fn beam_share(self) -> u64 {
        self.positions / BEAM_SHARE
    }

    /// This try's beam width: the next of the widths, as far as its share allows.
    fn width(self) -> usize {
        let most = usize::try_from(self.beam_share() / DEPTHS).unwrap_or(usize::MAX);
        FIRST_WIDTH
            .saturating_mul(WIDER.saturating_pow(self.before))
            .min(most)
            .max(1)
    }
}

/// Makes the tries `due`: the end of the pass if one decided the deal (a proof, a win) or a
/// limit of the whole solve stopped it, else None, and the walk goes on. A try that runs out
/// of its share, or of memory (its own tables, given back when it ends), decides nothing.
pub(super) fn make(
    deal: &Deal,
    budget: &Budget,
    due: Due,
    expanded: &mut u64,
    watch: &mut Watch,
) -> Option<End<Move>> {
    match orbit_pass(deal, budget, due.positions / ORBIT_SHARE, expanded, watch) {
        Orbital::Exhausted => return Some(End::Exhausted),
        Orbital::Limit(why) => return Some(End::Limit(why)),
        Orbital::Undecided => {}
    }
    let until = expanded.saturating_add(due.beam_share());
    let share = Budget {
        max_states: Some(budget.max_states.map_or(until, |most| most.min(until))),
        deadline: budget.deadline,
        memory: budget.memory,
    };
    match beam_search(deal, due.width(), usize::MAX, &share, expanded, watch) {
        End::Won(path) => Some(End::Won(path)),
        End::Exhausted | End::Limit(Stop::Memory) => None,
        End::Limit(Stop::States) if budget.max_states.is_none_or(|most| *expanded < most) => None,
        End::Limit(why) => Some(End::Limit(why)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::layers::Overflow;
    use super::super::moves::replays_to_win;
    use super::super::search::complete_pass;
    use super::super::variant::Variant;
    use super::*;

    /// The complete pass of `deal` with its tries from `after` positions on: how it ended,
    /// and its expansions.
    fn complete(deal: &Deal, after: u64) -> (End<Move>, u64) {
        let overflow = Overflow {
            orbits_after: Some(after),
            ..Overflow::default()
        };
        complete_pass(deal, Some(1_000_000), 1 << 30, &overflow, &mut || false)
    }

    /// Beleaguered Castle 405: the walk alone wins after 35,275 positions; a try's beam, with
    /// the tries from 100 positions on, wins far sooner, and its win replays.
    #[test]
    fn a_tries_beam_wins_what_the_walk_wins_late() {
        let deal = Deal::from_number(Variant::BeleagueredCastle, 405).unwrap();
        let (alone, walked) = complete(&deal, u64::MAX);
        let (tried, states) = complete(&deal, 100);
        assert!(matches!(alone, End::Won(_)));
        let End::Won(moves) = tried else {
            panic!("{tried:?}");
        };
        assert!(replays_to_win(&deal, &moves));
        assert!(states * 4 < walked, "{states} against {walked}");
    }

    /// The widths: ten times wider each try, as far as the share allows, never none.
    #[test]
    fn each_try_is_wider_within_its_share() {
        let due = |positions, before| Due { positions, before };
        assert_eq!(due(1 << 21, 0).width(), 1_000);
        assert_eq!(due(1 << 23, 1).width(), 10_000);
        assert_eq!(due(1 << 25, 2).width(), 100_000);
        assert_eq!(due(1 << 27, 3).width(), (1 << 27) / 8 / 40);
        assert_eq!(due(300, 0).width(), 1);
    }
}
