//! The depth-first search. Complete: every position reachable from the deal is expanded at most
//! once (the table remembers it), so a search that runs out of moves has proved there is no win.

use std::time::{Duration, Instant};

use super::beam::{beam_pass, shortest_beam};
use super::budget::{Budget, End, Watch};
use super::order::order_moves;
use super::shorten::shorten;
use super::table::{Insert, Table};
use crate::deal::Deal;
use crate::moves::{apply, generate, play_automatic, replays_to_win, undo, Move};
use crate::state::{Key, State};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Solved,
    Unsolvable,
    /// A limit ended the search first.
    Unknown,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Unknown => "unknown",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Limits {
    /// At most this many positions expanded.
    pub max_states: Option<u64>,
    pub max_seconds: Option<f64>,
    /// Bound on the transposition table's memory.
    pub max_memory: usize,
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub status: Status,
    /// From the deal to the win, automatic moves included (empty unless solved).
    pub moves: Vec<Move>,
    /// Positions expanded.
    pub states: u64,
    pub seconds: f64,
    /// Why an unknown stopped: "states", "seconds", "memory" or "interrupted".
    pub limit: Option<&'static str>,
}

/// The search runs in three passes over the same deal; the first two look for a win only.
///
/// The quick pass gives up completeness for speed: its table treats positions that differ only
/// in suits as one, so it never looks at a second position of the same shape. Most deals that
/// a plain search wanders in for millions of positions it wins in thousands. A win it finds is
/// a real win (its moves are legal moves from the deal); running out of moves there proves
/// nothing. It may expand [`QUICK_STATES`] positions. The beam pass (`beam.rs`) may then
/// expand [`BEAM_STATES`] more: beam searches, guided by how near a win each position looks,
/// win some deals that depth-first order wanders in for good. The complete pass then searches
/// with exact keys; its "no" is a proof.
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

/// A position on the search stack: its moves are `moves[start..end]`, `next` is the one to try
/// next, and `path_len` is the length of the move path that reached it.
struct Frame {
    start: usize,
    end: usize,
    next: usize,
    path_len: usize,
    /// The move back to the parent position, when one move (and no automatic move) led here.
    back: Option<Move>,
}

/// The move that takes back `m` (none for a move to a foundation).
fn reverse(m: Move) -> Option<Move> {
    (!m.to_foundation()).then_some(Move {
        card: m.card,
        from: m.to,
        to: m.from,
    })
}

/// Decides `deal`: the quick pass, the beam pass, then (unless one won) the complete pass; with
/// `short`, then beam searches for a shorter win while the limits allow. `interrupted` is asked
/// now and then whether to give up.
pub fn solve(
    deal: &Deal,
    limits: &Limits,
    short: bool,
    interrupted: &mut dyn FnMut() -> bool,
) -> Outcome {
    let started = Instant::now();
    let mut watch = Watch::new(started, interrupted);
    // A limit too far off to represent is no limit at all (never a panic).
    let deadline = |fraction: f64| {
        let seconds = limits.max_seconds? * fraction;
        started.checked_add(Duration::try_from_secs_f64(seconds).ok()?)
    };
    let mut expanded = 0;
    // A pass ends when the solve has expanded `states`, or at the caller's state limit: the
    // same rule whatever the limit, so a limit only ever cuts the unlimited solve short.
    let until = |states: u64| states.min(limits.max_states.unwrap_or(u64::MAX));
    let budget = Budget {
        max_states: Some(until(QUICK_STATES)),
        deadline: deadline(0.1),
        max_memory: limits.max_memory,
    };
    let mut end = search(deal, Pass::Quick, &budget, &mut expanded, &mut watch);
    // The beam pass (and its time up to a fifth of the limit). Enough for the deals it wins;
    // on the deals it cannot win, small beside the proof (a quarter of the quick pass's
    // states doubled the 99th percentile of Beleaguered Castle 1-2000).
    if !matches!(end, End::Won(_) | End::Limit("interrupted")) {
        let budget = Budget {
            max_states: Some(until(expanded + BEAM_STATES)),
            deadline: deadline(0.2),
            max_memory: limits.max_memory,
        };
        end = beam_pass(deal, &budget, &mut expanded, &mut watch);
    }
    // The whole budget: the complete pass's, and the short mode's after it.
    let budget = Budget {
        max_states: limits.max_states,
        deadline: deadline(1.0),
        max_memory: limits.max_memory,
    };
    if !matches!(end, End::Won(_) | End::Limit("interrupted")) {
        end = search(deal, Pass::Complete, &budget, &mut expanded, &mut watch);
    }
    let (status, moves, limit) = match end {
        End::Won(path) => {
            let mut moves = shorten(deal, &path);
            if short {
                moves = shortest_beam(deal, moves, &budget, &mut expanded, &mut watch);
            }
            // Never a wrong answer: a win that does not replay is a bug, and the binding turns
            // this panic into an exception instead of a claim.
            assert!(replays_to_win(deal, &moves), "a found win does not replay");
            (Status::Solved, moves, None)
        }
        End::Exhausted => (Status::Unsolvable, Vec::new(), None),
        End::Limit(why) => (Status::Unknown, Vec::new(), Some(why)),
    };
    Outcome {
        status,
        moves,
        states: expanded,
        seconds: started.elapsed().as_secs_f64(),
        limit,
    }
}

#[inline]
fn key(state: &State, pass: Pass) -> Key {
    match pass {
        Pass::Quick => state.rank_key(),
        Pass::Complete => state.key(),
    }
}

/// One depth-first pass. Every new position reached is entered in the table and expanded
/// once; `expanded` counts expansions over all passes.
fn search(deal: &Deal, pass: Pass, budget: &Budget, expanded: &mut u64, watch: &mut Watch) -> End {
    let mut state = State::from_deal(deal);
    let mut table = Table::new(budget.max_memory);
    let mut path: Vec<Move> = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();

    play_automatic(&mut state, &mut path);
    if state.is_won() {
        return End::Won(path);
    }
    if table.insert(key(&state, pass)) == Insert::Full {
        return End::Limit("memory");
    }
    loop {
        // `state` is a new position, just entered in the table (and not won): expand it.
        if let Some(why) = budget.spend(expanded, watch) {
            return End::Limit(why);
        }
        let start = moves.len();
        generate(&state, &mut moves);
        order_moves(&state, &mut moves[start..]);
        // Reached by one move and no automatic ones: that move's reverse leads back to the
        // parent, which is in the table, so it is known to be seen without a lookup.
        let by_one_move = frames.last().is_some_and(|p| p.path_len + 1 == path.len());
        frames.push(Frame {
            start,
            end: moves.len(),
            next: start,
            path_len: path.len(),
            back: if by_one_move {
                reverse(path[path.len() - 1])
            } else {
                None
            },
        });

        // Find the next new position: try the next move of the deepest frame, backtracking
        // from frames whose moves are all tried.
        loop {
            let Some(frame) = frames.last_mut() else {
                return End::Exhausted;
            };
            if frame.next == frame.end {
                moves.truncate(frame.start);
                frames.pop();
                if let Some(parent) = frames.last() {
                    unwind(&mut state, &mut path, parent.path_len);
                }
                continue;
            }
            let m = moves[frame.next];
            frame.next += 1;
            if frame.back == Some(m) {
                continue;
            }
            let path_len = frame.path_len;
            apply(&mut state, m);
            path.push(m);
            play_automatic(&mut state, &mut path);
            if state.is_won() {
                return End::Won(path);
            }
            match table.insert(key(&state, pass)) {
                Insert::New => break,
                Insert::Seen => unwind(&mut state, &mut path, path_len),
                Insert::Full => return End::Limit("memory"),
            }
        }
    }
}

/// Takes back moves until the path is `len` long.
fn unwind(state: &mut State, path: &mut Vec<Move>, len: usize) {
    while path.len() > len {
        let m = path.pop().unwrap();
        undo(state, m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    fn limits(max_states: Option<u64>) -> Limits {
        Limits {
            max_states,
            max_seconds: None,
            max_memory: 1 << 30,
        }
    }

    #[test]
    fn a_state_limit_cuts_the_unlimited_solve_short() {
        // Deal 67 is won by the beam pass after the quick pass ran dry; any budget of at
        // least the states the unlimited solve reports gives the same win.
        let deal = Deal::from_number(Variant::BeleagueredCastle, 67).unwrap();
        let free = solve(&deal, &limits(None), false, &mut || false);
        assert_eq!(free.status, Status::Solved);
        for budget in [free.states, 100_000] {
            let cut = solve(&deal, &limits(Some(budget)), false, &mut || false);
            assert_eq!((cut.status, cut.states), (free.status, free.states));
            assert_eq!(cut.moves, free.moves);
        }
        let short = solve(&deal, &limits(Some(free.states - 1)), false, &mut || false);
        assert_eq!(
            (short.status, short.states, short.limit),
            (Status::Unknown, free.states - 1, Some("states"))
        );
    }
}
