//! The Spider solver: a portfolio of beam searches, then a complete depth-first search, like
//! the castle one. It sees the face-down cards and the stock's order (a "thoughtful" solver, as
//! Solvitaire and other published Spider solvers are): the depth-first search expands every
//! position reachable from the deal at most once, so when it runs out of moves it has proved
//! there is no win.
//!
//! Its only automatic move is the one the rules make: a face-down card left on top turns up.
//! No run goes off by itself, since taking one off can lose a won game: a kept run can be split
//! to fill empty columns so that the stock may be dealt (`tests/test_spider.py` has such a
//! position, where keeping wins and taking off is proved lost). A run off is a move like others.

use super::beam::{beam_search, BEAM_WIDTHS};
use super::deal::{SpiderDeal, Suits};
use super::estimate::{Weights, WEIGHTS};
use super::moves::{apply, generate, replays_to_win, undo, Applied, SpiderMove, MOST_MOVES};
use super::order::order_moves;
use super::shorten::shorten_within;
use super::state::{SpiderKey, SpiderState};
use crate::solver::budget::{Budget, Deadline, End, Start, Watch};
use crate::solver::heap::{self, Memory};
use crate::solver::table::{Insert, Table};
use crate::solver::{Limits, Outcome, Stop};

/// The widest beam a caller may ask for in place of the portfolio (a layer of a million
/// positions is about 1 GB).
pub const MAX_BEAM_WIDTH: usize = 1_000_000;

/// The states the portfolio's shares are taken of. A caller's lower state limit cuts the
/// portfolio short (the first beam may have all of it); the complete search has what is left.
pub const PORTFOLIO_STATES: u64 = 10_000_000;

/// A position on the search stack: its moves not yet tried are `moves[start..]` while it is
/// the deepest frame, last to be tried first (popped as they are).
struct Frame {
    start: usize,
}

/// One step of the portfolio that runs before the complete search. A beam ends, at the
/// latest, when the states expanded since the start reach `share` of [`PORTFOLIO_STATES`]; a
/// slice, when it has expanded its own `states`; either at the caller's limits.
#[derive(Copy, Clone, Debug)]
pub enum Step {
    /// A beam search of `width` ranked by `weights`. Running dry proves nothing.
    Beam {
        width: usize,
        weights: Weights,
        share: f64,
    },
    /// A slice of the depth-first search, its moves ordered by the estimate, of at most
    /// `states` positions (its own count, not a share: it rarely wins, so it may cost little).
    /// If it runs out of moves, that is a proof.
    Slice { states: u64 },
}

impl Step {
    /// One beam of `width` ranked by [`WEIGHTS`], ending with the whole portfolio's states:
    /// what a caller may run in place of the portfolio. `None` unless `width` is 1 to
    /// [`MAX_BEAM_WIDTH`].
    pub fn one_beam(width: usize) -> Option<Step> {
        (1..=MAX_BEAM_WIDTH)
            .contains(&width)
            .then_some(beam(width, WEIGHTS, 1.0))
    }
}

/// The solver's portfolio. Which deals a beam wins depends on its width and its weights, so
/// several take turns, cheapest first; docs/spider.md has the measures behind this order.
pub const PORTFOLIO: [Step; 10] = [
    beam(BEAM_WIDTHS[0], WEIGHTS, 0.1),
    beam(BEAM_WIDTHS[0], EMPTY_5, 0.2),
    beam(BEAM_WIDTHS[1], WEIGHTS, 0.35),
    beam(BEAM_WIDTHS[1], EMPTY_5, 0.5),
    SLICE,
    beam(BEAM_WIDTHS[2], EMPTY_5, 0.65),
    beam(BEAM_WIDTHS[1], Weights { down: 7, ..EMPTY_5 }, 0.7),
    beam(
        BEAM_WIDTHS[1],
        Weights {
            down: 8,
            suit_break: 3,
            ..EMPTY_5
        },
        0.75,
    ),
    beam(BEAM_WIDTHS[1], Weights { down: 7, ..WEIGHTS }, 0.8),
    beam(BEAM_WIDTHS[2], WEIGHTS, 1.0),
];

/// The portfolio for two suits: after the two narrow beams, beams that charge a change of
/// suit less (with two suits a run of alternating suits still moves card by card); measured in
/// docs/spider.md.
pub const TWO_SUIT_PORTFOLIO: [Step; 8] = [
    PORTFOLIO[0],
    PORTFOLIO[1],
    beam(BEAM_WIDTHS[1], SUIT_BREAK_1, 0.3),
    beam(
        BEAM_WIDTHS[1],
        Weights {
            empty: 2,
            suit_break: 2,
            ..WEIGHTS
        },
        0.4,
    ),
    SLICE,
    beam(BEAM_WIDTHS[2], SUIT_BREAK_1, 0.6),
    beam(BEAM_WIDTHS[2], EMPTY_5, 0.8),
    beam(BEAM_WIDTHS[2], WEIGHTS, 1.0),
];

/// The portfolio for `suits`' deck.
pub fn portfolio(suits: Suits) -> &'static [Step] {
    match suits {
        Suits::Two => &TWO_SUIT_PORTFOLIO,
        Suits::One | Suits::Four => &PORTFOLIO,
    }
}

const fn beam(width: usize, weights: Weights, share: f64) -> Step {
    Step::Beam {
        width,
        weights,
        share,
    }
}

/// The portfolios' depth-first slice: 50,000 positions.
const SLICE: Step = Step::Slice { states: 50_000 };

/// [`WEIGHTS`] with an empty column worth 5.
const EMPTY_5: Weights = Weights {
    empty: 5,
    ..WEIGHTS
};

/// [`WEIGHTS`] with a change of suit charged 1.
const SUIT_BREAK_1: Weights = Weights {
    suit_break: 1,
    ..WEIGHTS
};

/// Decides `deal` with its deck's [`portfolio`]. `interrupted` is asked now and then whether
/// to give up.
pub fn solve(
    deal: &SpiderDeal,
    limits: &Limits,
    interrupted: &mut dyn FnMut() -> bool,
) -> Outcome<SpiderMove> {
    solve_with(deal, limits, portfolio(deal.suits), interrupted)
}

/// Decides `deal`: the `steps` in turn until one wins or proves, then the complete depth-first
/// search with the whole budget, whose "no" is a proof.
pub fn solve_with(
    deal: &SpiderDeal,
    limits: &Limits,
    steps: &[Step],
    interrupted: &mut dyn FnMut() -> bool,
) -> Outcome<SpiderMove> {
    let start = Start::now();
    let started = start.wall;
    let mut watch = Watch::new(started, interrupted);
    let budget = Budget {
        max_states: limits.max_states,
        deadline: Deadline::after(limits, &start, 1.0),
        memory: Memory::from_now(limits.max_memory),
    };
    let mut expanded = 0;
    // A step ends when the solve has expanded `states` (or at the caller's limits). A beam's
    // end is its share of the portfolio's states, of the states only, so which step runs when
    // does not depend on how busy the machine is.
    let until = |states: u64| Budget {
        max_states: Some(states.min(limits.max_states.unwrap_or(u64::MAX))),
        deadline: budget.deadline,
        memory: budget.memory,
    };
    // On to the next step when a step's share ran out, a beam ran dry, or a beam's table
    // filled the memory; not after a win, a proof, the deadline (which ends every step alike)
    // or an interrupt.
    let next = |end: &End<SpiderMove>| matches!(end, End::Limit(Stop::States | Stop::Memory));
    let mut end = End::Limit(Stop::States);
    let mut ends = Vec::new();
    for step in steps {
        if !next(&end) {
            break;
        }
        end = match *step {
            Step::Beam {
                width,
                weights,
                share: fraction,
            } => match beam_search(
                deal,
                width,
                &weights,
                &until((PORTFOLIO_STATES as f64 * fraction) as u64),
                &mut expanded,
                &mut watch,
            ) {
                End::Exhausted => End::Limit(Stop::States),
                other => other,
            },
            Step::Slice { states } => search(
                deal,
                &until(expanded.saturating_add(states)),
                &mut expanded,
                &mut watch,
            ),
        };
        ends.push(expanded);
        heap::release();
    }
    if next(&end) {
        end = search(deal, &budget, &mut expanded, &mut watch);
        ends.push(expanded);
        heap::release();
    }
    if let End::Won(moves) = end {
        end = End::Won(shorten_within(deal, moves, &budget.memory));
    }
    Outcome::from_end(
        end,
        |moves| replays_to_win(deal, moves),
        expanded,
        started,
        ends,
    )
}

fn search(
    deal: &SpiderDeal,
    budget: &Budget,
    expanded: &mut u64,
    watch: &mut Watch,
) -> End<SpiderMove> {
    let mut state = SpiderState::from_deal(deal);
    let mut table: Table<SpiderKey> = Table::new(budget.memory);
    let mut path: Vec<(SpiderMove, Applied)> = Vec::new();
    let mut moves: Vec<SpiderMove> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    if state.is_won() {
        return End::Won(Vec::new());
    }
    if table.insert(state.key()) == Insert::Full {
        return End::Limit(Stop::Memory);
    }
    loop {
        // `state` is a new position, just entered in the table (and not won): expand it.
        if let Some(why) = budget.spend(expanded, watch) {
            return End::Limit(why);
        }
        // The stack grows by a frame, the position's moves, and the move to the next one.
        let memory = &budget.memory;
        if !(memory.reserve(&mut frames, 1)
            && memory.reserve(&mut moves, MOST_MOVES)
            && memory.reserve(&mut path, 1))
        {
            return End::Limit(Stop::Memory);
        }
        let start = moves.len();
        generate(&state, true, &mut moves);
        order_moves(&mut state, &mut moves[start..]);
        moves[start..].reverse();
        frames.push(Frame { start });
        // Find the next new position: the next move of the deepest frame, backtracking from
        // frames whose moves are all tried.
        loop {
            let Some(frame) = frames.last() else {
                return End::Exhausted;
            };
            if moves.len() == frame.start {
                frames.pop();
                if let Some((m, applied)) = path.pop() {
                    undo(&mut state, m, applied);
                }
                continue;
            }
            let m = moves.pop().unwrap();
            // The deepest frame's position is the one the path reaches.
            debug_assert_eq!(frames.len(), path.len() + 1);
            let applied = apply(&mut state, m);
            path.push((m, applied));
            if state.is_won() {
                return End::Won(path.into_iter().map(|(m, _)| m).collect());
            }
            match table.insert(state.key()) {
                Insert::New => break,
                Insert::Seen => {
                    let (m, applied) = path.pop().unwrap();
                    undo(&mut state, m, applied);
                }
                Insert::Full => return End::Limit(Stop::Memory),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::deal::Suits;
    use super::super::shorten::{cut_loops, cut_loops_bytes, shortest_through_bytes};
    use super::*;
    use crate::solver::heap::{peak_since, reset_peak};
    use crate::solver::Status;
    use std::time::Instant;

    fn limits(states: u64) -> Limits {
        Limits::states(Some(states))
    }

    /// Four-suit deal 65 is undecided within 4 GiB: a small bound ends it, and the solve never
    /// holds more than the bound, every beam of the portfolio (their layers, nodes, tables)
    /// and the depth-first search included.
    #[test]
    fn a_solve_holds_no_more_than_its_memory_bound() {
        let deal = SpiderDeal::from_number(Suits::Four, 65).unwrap();
        for max_memory in [1 << 20, 4 << 20] {
            let limits = Limits {
                max_memory,
                ..Limits::states(None)
            };
            let memory = Memory::from_now(max_memory);
            reset_peak();
            let o = solve(&deal, &limits, &mut || false);
            assert_eq!((o.status, o.limit), (Status::Unknown, Some(Stop::Memory)));
            assert_eq!(o.ends.len(), PORTFOLIO.len() + 1, "every step ran");
            let peak = peak_since(&memory);
            assert!(peak <= max_memory, "{peak} bytes held under {max_memory}");
            assert!(
                peak > max_memory / 2,
                "{peak} bytes held under {max_memory}"
            );
        }
        // One beam as wide as 10,000 stops at the bound (a layer is about 20 MB).
        let wide = [Step::Beam {
            width: 10_000,
            weights: WEIGHTS,
            share: 1.0,
        }];
        let limits = Limits {
            max_memory: 8 << 20,
            ..Limits::states(Some(2_000_000))
        };
        let memory = Memory::from_now(8 << 20);
        reset_peak();
        let o = solve_with(&deal, &limits, &wide, &mut || false);
        assert_eq!(o.limit, Some(Stop::Memory));
        assert!(peak_since(&memory) <= 8 << 20, "{}", peak_since(&memory));
    }

    /// A depth-first win is shortened in two stages, each sized up front (one-suit deal 946,
    /// won by the depth-first search in 4,324 moves).
    #[test]
    fn a_shortening_allocates_no_more_than_its_estimates() {
        let deal = SpiderDeal::from_number(Suits::One, 946).unwrap();
        let mut interrupted = || false;
        let mut watch = Watch::new(Instant::now(), &mut interrupted);
        let budget = Budget {
            max_states: None,
            deadline: Deadline::NONE,
            memory: Memory::from_now(1 << 30),
        };
        let End::Won(path) = search(&deal, &budget, &mut 0, &mut watch) else {
            panic!("one-suit deal 946 is won");
        };
        let memory = Memory::from_now(0);
        reset_peak();
        let line = cut_loops(&deal, &path);
        let (peak, estimate) = (peak_since(&memory), cut_loops_bytes(path.len()));
        assert!(
            peak <= estimate && estimate < 2 * peak,
            "{peak} > {estimate}"
        );
        let memory = Memory::from_now(0);
        reset_peak();
        let short = shorten_within(&deal, line.clone(), &Memory::from_now(1 << 30));
        let (peak, estimate) = (peak_since(&memory), shortest_through_bytes(line.len()));
        assert!(peak <= estimate, "{peak} > {estimate}");
        assert!(replays_to_win(&deal, &short) && short.len() < line.len());
        // Without room for it, the win stays as found.
        let tight = Memory::from_now(cut_loops_bytes(path.len()) - 1);
        assert_eq!(shorten_within(&deal, path.clone(), &tight), path);
    }

    #[test]
    fn one_suit_deals_are_won_and_the_wins_replay() {
        for n in 1..=2 {
            let deal = SpiderDeal::from_number(Suits::One, n).unwrap();
            let o = solve(&deal, &limits(2_000_000), &mut || false);
            assert_eq!(o.status, Status::Solved, "deal {n}: {o:?}");
            assert!(replays_to_win(&deal, &o.moves));
        }
    }

    /// A slice is the complete search cut short: one that wins is the complete search's win;
    /// one cut at half of it costs that half, then the complete search starts over. (The
    /// reference's test counts the same 4,335 positions.)
    #[test]
    fn a_slice_is_the_complete_search_cut_short() {
        let deal = SpiderDeal::from_number(Suits::One, 946).unwrap();
        let whole = solve_with(&deal, &limits(1_000_000), &[], &mut || false);
        assert_eq!(whole.status, Status::Solved);
        let n = whole.states;
        assert_eq!(n, 4_335);
        let sliced = solve_with(
            &deal,
            &limits(1_000_000),
            &[Step::Slice { states: n }],
            &mut || false,
        );
        assert_eq!((&sliced.moves, &sliced.ends), (&whole.moves, &vec![n]));
        let half = Step::Slice { states: n / 2 };
        let cut = solve_with(&deal, &limits(1_000_000), &[half], &mut || false);
        assert_eq!(
            (&cut.moves, &cut.ends),
            (&whole.moves, &vec![n / 2, n / 2 + n])
        );
    }
}
