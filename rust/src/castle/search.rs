//! The castle solve: its passes in order (quick, orbits if the quick pass ran dry, beam,
//! complete, the last with its tries), each within its share of the budget, and the win
//! shortened. The complete pass is complete: every position reachable from
//! the deal is expanded at most once (its walk, `walk.rs`, keyed by `keys.rs`, going on in
//! layers past its table, `hand_off.rs`), so a search that runs out of moves has proved there
//! is no win.

use std::time::Instant;

use super::beam::{beam_pass, shortest_beam};
use super::compact::CompactKey;
use super::deal::Deal;
use super::hand_off::{hand_off, rebuild};
use super::keys::{Exact, Shapes};
use super::layers::{Layered, Layers, Overflow, Ready};
use super::moves::{replays_to_win, Move};
use super::orbits::{orbit_pass, Orbital, ORBITS_AFTER};
use super::shorten::{shorten, shorten_bytes};
use super::tries::{walk_with_tries, Tries};
/// The plain walk, one of the complete pass's tries (for the labs: `walklab plain`).
pub use super::walk::plain_walk;
use super::walk::Walk;
use crate::solver::budget::{Budget, Deadline, End, Limits, Start, Watch};
use crate::solver::heap::Memory;
use crate::solver::table::Table;
use crate::solver::{Outcome, Stop};

/// The search runs in three passes over the same deal, the first two looking for a win only,
/// and the orbit pass between the first two when the quick one runs dry.
///
/// The quick pass gives up completeness for speed: its table treats positions that differ only
/// in suits as one, so it never looks at a second position of the same shape. Most deals that
/// a plain search wanders in for millions of positions it wins in thousands. A win it finds is
/// a real win (its moves are legal moves from the deal); running out of moves there proves
/// nothing. It may expand [`QUICK_STATES`] positions. If it runs dry the orbit pass
/// (`orbits.rs`) may expand [`ORBITS_PER_QUICK`] orbits for each of them: its "no" is a proof,
/// and ends the solve. The beam pass (`beam.rs`) may then
/// expand [`BEAM_STATES`] more: beam searches, guided by how near a win each position looks,
/// win some deals that depth-first order wanders in for good. The complete pass then searches
/// with exact keys, going on in layers (`layers.rs`) if its table fills the memory bound; its
/// "no" is a proof.
///
/// Each pass ends at a fixed count of expansions of the whole solve, or at the caller's
/// `max_states`, whichever comes first; so a solve under `max_states` is the unlimited solve
/// cut off after that many expansions, and any budget at least the states an unlimited solve
/// reports gives the same answer (the same states, the same moves).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Pass {
    Quick,
    Complete,
}

/// Expansions the quick pass may use (fewer if the caller's `max_states` ends the solve first).
pub const QUICK_STATES: u64 = 1_000_000;
/// Expansions the beam pass may use after the quick pass (the same proviso).
pub const BEAM_STATES: u64 = QUICK_STATES / 10;
/// When the quick pass runs dry, the orbit pass (`orbits.rs`) may expand this many orbits for
/// each position the quick pass expanded. Both search nearly the same suit-blind space: the
/// lost deals of Beleaguered Castle 1-2000, Streets and Alleys 1-600 and Citadel 1-1000 whose
/// quick pass ran dry took at most 2.3 times its expansions to prove but one (7.3 times).
pub const ORBITS_PER_QUICK: u64 = 4;

/// Decides `deal`: the quick pass, the orbit pass if it ran dry, the beam pass, then (unless
/// one decided the deal) the complete pass; with
/// `short`, then beam searches for a shorter win while the limits allow. `interrupted` is asked
/// now and then whether to give up.
pub fn solve(
    deal: &Deal,
    limits: &Limits,
    short: bool,
    overflow: &Overflow,
    interrupted: &mut dyn FnMut() -> bool,
) -> Outcome<Move> {
    let start = Start::now();
    let started = start.wall;
    let memory = Memory::from_now(limits.max_memory);
    let mut watch = Watch::new(started, interrupted);
    let deadline = |fraction: f64| Deadline::after(limits, &start, fraction);
    let mut expanded = 0;
    // A pass ends when the solve has expanded `states`, or at the caller's state limit: the
    // same rule whatever the limit, so a limit only ever cuts the unlimited solve short.
    let until = |states: u64| states.min(limits.max_states.unwrap_or(u64::MAX));
    let budget = Budget {
        max_states: Some(until(QUICK_STATES)),
        deadline: deadline(0.1),
        memory,
    };
    let no_overflow = Overflow::default();
    let mut end = search(
        deal,
        Pass::Quick,
        &budget,
        &no_overflow,
        &mut expanded,
        &mut watch,
    );
    let mut ends = vec![expanded];
    // A quick pass run dry hints that the deal is lost: the orbit pass then proves nearly every
    // such deal within its share, before the passes that can only find a win. Its time runs to
    // half the limit, so that a proof of a few seconds is not cut off on a loaded host.
    let mut proved = false;
    if end == End::Exhausted {
        let budget = Budget {
            max_states: limits.max_states,
            deadline: deadline(0.5),
            memory,
        };
        let share = expanded.saturating_mul(ORBITS_PER_QUICK);
        end = match orbit_pass(deal, &budget, share, &mut expanded, &mut watch) {
            Orbital::Exhausted => {
                proved = true;
                End::Exhausted
            }
            Orbital::Undecided => End::Exhausted,
            Orbital::Limit(why) => End::Limit(why),
        };
        ends.push(expanded);
    }
    let goes_on =
        |end: &End<Move>| !proved && !matches!(end, End::Won(_) | End::Limit(Stop::Interrupted));
    // The beam pass (its time up to 55% of the limit, past the orbit pass's). Enough for the
    // deals it wins; on the deals it cannot win, small beside the proof (a quarter of the quick
    // pass's states doubled the 99th percentile of Beleaguered Castle 1-2000).
    if goes_on(&end) {
        let budget = Budget {
            max_states: Some(until(expanded + BEAM_STATES)),
            deadline: deadline(0.55),
            memory,
        };
        end = beam_pass(deal, &budget, &mut expanded, &mut watch);
        ends.push(expanded);
    }
    // The whole budget: the complete pass's, and the short mode's after it.
    let budget = Budget {
        max_states: limits.max_states,
        deadline: deadline(1.0),
        memory,
    };
    if goes_on(&end) {
        end = search(
            deal,
            Pass::Complete,
            &budget,
            overflow,
            &mut expanded,
            &mut watch,
        );
        ends.push(expanded);
    }
    if let End::Won(path) = end {
        // Shortened if that fits in the bound too, else the win as found.
        let mut moves = if memory.allows(shorten_bytes(path.len())) {
            shorten(deal, &path)
        } else {
            path
        };
        if short {
            moves = shortest_beam(deal, moves, &budget, &mut expanded, &mut watch);
        }
        end = End::Won(moves);
    }
    Outcome::from_end(
        end,
        |moves| replays_to_win(deal, moves),
        expanded,
        started,
        ends,
    )
}

/// The complete pass alone, from the deal, its table full at `overflow.layers_after` positions
/// or `max_memory` bytes (the tests compare it with the reference's, and with itself on disk):
/// how it ended, and its expansions.
pub fn complete_pass(
    deal: &Deal,
    max_states: Option<u64>,
    max_memory: usize,
    overflow: &Overflow,
    interrupted: &mut dyn FnMut() -> bool,
) -> (End<Move>, u64) {
    let mut watch = Watch::new(Instant::now(), interrupted);
    let budget = Budget {
        max_states,
        deadline: Deadline::NONE,
        memory: Memory::from_now(max_memory),
    };
    let mut expanded = 0;
    let end = search(
        deal,
        Pass::Complete,
        &budget,
        overflow,
        &mut expanded,
        &mut watch,
    );
    (end, expanded)
}

/// One depth-first pass. Every new position reached is entered in the table and expanded
/// once; `expanded` counts expansions over all passes.
///
/// As its table grows, the complete pass makes its tries (`tries.rs`): the orbit pass, whose
/// "no" ends the pass, then a beam, whose win does. It goes on in layers (`layers.rs`) when
/// its table is full: at the memory bound, or at `overflow.layers_after` positions (the
/// tests'). The layered pass goes on from where the walk stopped ([`hand_off`]) when there is
/// room to keep the table's positions (a spill directory, or a quarter of the bound); else it
/// starts again from the deal, its table given back, and costs at most what the depth-first
/// pass had spent. Between the two, the table's room given back, the last tries' beams
/// (`Tries::make_last`). A win the layers find is a position next to a win; the line to it
/// is [`rebuild`]'s.
fn search(
    deal: &Deal,
    pass: Pass,
    budget: &Budget,
    overflow: &Overflow,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<Move> {
    match pass {
        Pass::Quick => {
            let shapes = Shapes(Table::new(budget.memory));
            Walk::new(deal, shapes, &budget.memory).run_out(budget, expanded, watch)
        }
        Pass::Complete => complete(deal, budget, overflow, expanded, watch),
    }
}

/// The complete pass: the walk with its tries, then, if its table filled, the layers.
fn complete(
    deal: &Deal,
    budget: &Budget,
    overflow: &Overflow,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<Move> {
    let Some(mut exact) = Exact::new(deal, budget.memory) else {
        return End::Limit(Stop::Memory);
    };
    exact.most = overflow.layers_after.map_or(usize::MAX, |n| n as usize);
    let mut tries = Tries::from(overflow.orbits_after.unwrap_or(ORBITS_AFTER));
    let mut walk = Walk::new(deal, exact, &budget.memory);
    let end = walk_with_tries(deal, &mut walk, &mut tries, budget, expanded, watch);
    if end != End::Limit(Stop::Memory) {
        return end;
    }
    // (The walk's children and held keys are given back here: the layers need their room.)
    let (exact, stopped) = walk.into_stopped();
    let positions = exact.len() as u64;
    let spill = overflow.spill.as_ref();
    // Its positions are kept (as the layers' V) where there is room: on disk, or in a
    // quarter of the bound. Else the layers start again from the deal.
    let keep = spill.is_some() || exact.len() * CompactKey::BYTES <= budget.memory.max / 4;
    // (The stack not kept is given back here too: the layers need its room.)
    let ready = match stopped.filter(|_| keep) {
        Some(stopped) => hand_off(deal, exact, stopped, budget, spill, watch),
        None => {
            drop(exact);
            Layers::from_deal(deal, budget, spill, watch)
        }
    };
    // The table's room given back, the last tries' beams, before the layers.
    if let Ok(Ready::Search(_)) = ready {
        if let Some(end) = tries.make_last(positions, deal, budget, expanded, watch) {
            return end;
        }
    }
    let found = ready.map_or_else(Layered::Limit, |ready| ready.search(expanded, watch));
    match found {
        Layered::Won(next_to_win) => rebuild(deal, next_to_win, budget, expanded, watch),
        Layered::Exhausted => End::Exhausted,
        Layered::Limit(why) => End::Limit(why),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::variant::Variant;
    use super::*;
    use crate::solver::heap::{peak_since, reset_peak};
    use crate::solver::Status;

    pub(in crate::castle) fn limits(max_states: Option<u64>) -> Limits {
        Limits::states(max_states)
    }

    /// Beleaguered Castle 26984 is won only past 290 million states: a small bound ends it,
    /// and the solve never holds more than the bound (tables, stacks, the orbits, the beams'
    /// depths), the last doubling of a table included.
    #[test]
    fn a_solve_holds_no_more_than_its_memory_bound() {
        let deal = Deal::from_number(Variant::BeleagueredCastle, 26984).unwrap();
        for max_memory in [1 << 20, 4 << 20, 16 << 20] {
            let limits = Limits {
                max_memory,
                ..limits(None)
            };
            let memory = Memory::from_now(max_memory);
            reset_peak();
            let o = solve(&deal, &limits, false, &Overflow::default(), &mut || false);
            assert_eq!((o.status, o.limit), (Status::Unknown, Some(Stop::Memory)));
            let peak = peak_since(&memory);
            assert!(peak <= max_memory, "{peak} bytes held under {max_memory}");
            // Most of it is used: the table, not the stack, reached the bound.
            assert!(
                peak > max_memory / 2,
                "{peak} bytes held under {max_memory}"
            );
        }
    }

    /// A win's shortening is sized up front: `shorten_bytes` bounds it (deal 67's complete
    /// pass alone, without its tries, wins in 26,186 moves).
    #[test]
    fn a_shortening_allocates_no_more_than_its_estimate() {
        let deal = Deal::from_number(Variant::BeleagueredCastle, 67).unwrap();
        let mut interrupted = || false;
        let mut watch = Watch::new(Instant::now(), &mut interrupted);
        let budget = Budget {
            max_states: None,
            deadline: Deadline::NONE,
            memory: Memory::from_now(1 << 30),
        };
        let alone = Overflow {
            orbits_after: Some(u64::MAX),
            ..Overflow::default()
        };
        let End::Won(path) = search(&deal, Pass::Complete, &budget, &alone, &mut 0, &mut watch)
        else {
            panic!("deal 67 is won");
        };
        assert!(path.len() > 20_000, "{}", path.len());
        let memory = Memory::from_now(0);
        reset_peak();
        let line = shorten(&deal, &path);
        let (peak, estimate) = (peak_since(&memory), shorten_bytes(path.len()));
        assert!(
            peak <= estimate && estimate < 2 * peak,
            "{peak} > {estimate}"
        );
        assert!(replays_to_win(&deal, &line) && line.len() < 1000);
    }

    /// Beleaguered Castle 981 is lost: its quick pass runs dry at 2,659 positions, and the
    /// orbit pass then proves it within its share, before the beam pass and the complete pass
    /// (which took the solve to 238,443 expansions).
    #[test]
    fn the_orbit_pass_proves_a_deal_whose_quick_pass_ran_dry() {
        let deal = Deal::from_number(Variant::BeleagueredCastle, 981).unwrap();
        let o = solve(
            &deal,
            &limits(None),
            false,
            &Overflow::default(),
            &mut || false,
        );
        assert_eq!(o.status, Status::Unsolvable);
        let [quick, proved] = o.ends[..] else {
            panic!("{:?}", o.ends);
        };
        assert!(quick < QUICK_STATES && proved == o.states, "{:?}", o.ends);
        assert!(proved - quick <= ORBITS_PER_QUICK * quick, "{:?}", o.ends);
    }

    #[test]
    fn a_state_limit_cuts_the_unlimited_solve_short() {
        // Deal 67 is won by the beam pass after the quick pass ran dry and the orbit pass
        // spent its share; any budget of at least the states the unlimited solve reports
        // gives the same win.
        let deal = Deal::from_number(Variant::BeleagueredCastle, 67).unwrap();
        let free = solve(
            &deal,
            &limits(None),
            false,
            &Overflow::default(),
            &mut || false,
        );
        assert_eq!(free.status, Status::Solved);
        // Three passes ran: the quick one, dry before its million states, the orbit pass, all
        // its share undecided, then the beam pass.
        let quick = free.ends[0];
        assert!(quick < QUICK_STATES, "{:?}", free.ends);
        assert_eq!(
            free.ends,
            [quick, quick + ORBITS_PER_QUICK * quick, free.states]
        );
        for budget in [free.states, 100_000] {
            let cut = solve(
                &deal,
                &limits(Some(budget)),
                false,
                &Overflow::default(),
                &mut || false,
            );
            assert_eq!((cut.status, cut.states), (free.status, free.states));
            assert_eq!(cut.moves, free.moves);
        }
        let short = solve(
            &deal,
            &limits(Some(free.states - 1)),
            false,
            &Overflow::default(),
            &mut || false,
        );
        assert_eq!(
            (short.status, short.states, short.limit),
            (Status::Unknown, free.states - 1, Some(Stop::States))
        );
    }
}
