//! The free-cell solver: depth-first searches (`dive.rs`) over steps (a single card, a run
//! moved as a unit, or a card dug out from under others), each followed by the safe moves to
//! the foundations (`moves::auto_moves`), over tables of positions keyed up to the order of
//! the cells and of the columns, each a turn at a time (`pack.rs`). Eight dig dives find most
//! wins; one complete dive takes every single-card move: when it has run out, every position
//! reachable from the deal (as the safe moves leave it) has been expanded once, and there is
//! no win, since a safe move never loses one (no card could go onto the card it puts up), and
//! a run's step is only a shortcut beside the single moves it stands for.

use super::deal::CellsDeal;
use super::moves::{replays_to_win, CellsMove};
use super::order::{Weights, DIVE_WEIGHTS};
use super::pack::pack;
use super::shorten::shorten_within;
use crate::solver::budget::{Budget, Deadline, End, Start, Watch};
use crate::solver::heap::Memory;
use crate::solver::{Limits, Outcome};

/// Decides `deal` within `limits` with the dives of [`DIVE_WEIGHTS`]; with `short`, a win is
/// made shorter (`shorten.rs`) before it is returned. `interrupted` is asked now and then
/// whether to give up.
pub fn solve(
    deal: &CellsDeal,
    limits: &Limits,
    short: bool,
    interrupted: &mut dyn FnMut() -> bool,
) -> Outcome<CellsMove> {
    solve_with(deal, limits, &DIVE_WEIGHTS, short, interrupted)
}

/// [`solve`] with dives ranked by `weights` (the lab measures others).
pub fn solve_with(
    deal: &CellsDeal,
    limits: &Limits,
    weights: &[Weights],
    short: bool,
    interrupted: &mut dyn FnMut() -> bool,
) -> Outcome<CellsMove> {
    let start = Start::now();
    let started = start.wall;
    let mut watch = Watch::new(started, interrupted);
    let budget = Budget {
        max_states: limits.max_states,
        deadline: Deadline::after(limits, &start, 1.0),
        memory: Memory::from_now(limits.max_memory),
    };
    let mut expanded = 0u64;
    let mut end = pack(deal, weights, &budget, &mut expanded, &mut watch);
    if let (End::Won(moves), true) = (&end, short) {
        end = End::Won(shorten_within(deal, moves.clone(), &budget.memory));
    }
    Outcome::from_end(
        end,
        |moves| replays_to_win(deal, moves),
        expanded,
        started,
        vec![expanded],
    )
}

#[cfg(test)]
mod tests {
    use super::super::dive::{Dive, Steps};
    use super::super::variant::Variant;
    use super::*;
    use crate::solver::heap::{peak_since, reset_peak};
    use crate::solver::{Status, Stop};

    fn limits(states: u64) -> Limits {
        Limits::states(Some(states))
    }

    /// Deals of every variant are decided, and every win replays from its deal (the shortened
    /// ones too, and they are no longer).
    #[test]
    fn deals_are_decided_and_the_wins_replay() {
        for v in Variant::ALL {
            for n in 1..=3 {
                let deal = CellsDeal::from_number(v, n).unwrap();
                let o = solve(&deal, &limits(2_000_000), false, &mut || false);
                assert_ne!(o.status, Status::Unknown, "{v:?} {n}");
                if o.status == Status::Solved {
                    assert!(replays_to_win(&deal, &o.moves), "{v:?} {n}");
                    let short = solve(&deal, &limits(2_000_000), true, &mut || false);
                    assert!(replays_to_win(&deal, &short.moves));
                    assert!(short.moves.len() <= o.moves.len());
                }
            }
        }
        for n in 1..=30 {
            let deal = CellsDeal::from_number(Variant::FreeCell, n).unwrap();
            let o = solve(&deal, &limits(2_000_000), false, &mut || false);
            assert_eq!(o.status, Status::Solved, "{n}");
            assert!(replays_to_win(&deal, &o.moves), "{n}");
        }
    }

    /// FreeCell deal 11982, the one of 1-32000 that no play wins, is proved lost: the complete
    /// dive runs out having entered every position reachable once (fc-solve's complete scan
    /// counts 35,265 of its own), the dig dives' positions beside them.
    #[test]
    fn deal_11982_is_proved_unsolvable() {
        let deal = CellsDeal::from_number(Variant::FreeCell, 11982).unwrap();
        let o = solve(&deal, &limits(10_000_000), false, &mut || false);
        assert_eq!(o.status, Status::Unsolvable);
        let budget = Budget {
            max_states: None,
            deadline: Deadline::after(&limits(10_000_000), &Start::now(), 1.0),
            memory: Memory::from_now(limits(10_000_000).max_memory),
        };
        let mut table: crate::solver::table::Table<super::super::state::CellsKey> =
            crate::solver::table::Table::new(budget.memory);
        let mut alone = 0;
        let mut never = || false;
        let mut watch = Watch::new(Start::now().wall, &mut never);
        let mut complete = Dive::new(&deal, DIVE_WEIGHTS[0], None, Steps::All);
        let end = complete.go(&mut table, &budget, &mut alone, &mut watch);
        assert_eq!(end, End::Exhausted);
        assert!(o.states > alone, "{} {alone}", o.states);
    }

    /// Dives taking turns keep going where short tries one after another gave up: FreeCell
    /// deal 237495 took the solver of short dives, then best-first tries, then a best-first
    /// complete search 3.2 million positions; the pack wins it within 2,000 (fc-solve `-l lg`:
    /// 1,311 iterations).
    #[test]
    fn dives_taking_turns_win_where_short_tries_gave_up() {
        let deal = CellsDeal::from_number(Variant::FreeCell, 237495).unwrap();
        let o = solve(&deal, &limits(2_000), false, &mut || false);
        assert_eq!(o.status, Status::Solved);
        assert!(replays_to_win(&deal, &o.moves));
    }

    #[test]
    fn limits_end_a_solve_with_an_unknown() {
        let deal = CellsDeal::from_number(Variant::FreeCell, 11982).unwrap();
        let o = solve(&deal, &limits(5_000), false, &mut || false);
        assert_eq!(
            (o.status, o.limit, o.states),
            (Status::Unknown, Some(Stop::States), 5_000)
        );
        let mut asked = 0;
        let o = solve(&deal, &Limits::states(None), false, &mut || {
            asked += 1;
            true
        });
        assert_eq!(
            (o.status, o.limit),
            (Status::Unknown, Some(Stop::Interrupted))
        );
        assert!(asked > 0);
        for max_memory in [1 << 20, 4 << 20] {
            let bounded = Limits {
                max_memory,
                ..Limits::states(None)
            };
            let memory = Memory::from_now(max_memory);
            reset_peak();
            let o = solve(&deal, &bounded, false, &mut || false);
            assert_eq!((o.status, o.limit), (Status::Unknown, Some(Stop::Memory)));
            let peak = peak_since(&memory);
            assert!(peak <= max_memory, "{peak} bytes held under {max_memory}");
        }
    }
}
