//! The depth-first search. Complete: every position reachable from the deal is expanded at most
//! once (the table remembers it), so a search that runs out of moves has proved there is no win.

use std::time::{Duration, Instant};

use super::order::order_moves;
use super::table::{Insert, Table};
use crate::deal::Deal;
use crate::moves::{apply, generate, play_automatic, undo, Move};
use crate::state::State;

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

/// A position on the search stack: its moves are `moves[start..end]`, `next` is the one to try
/// next, and `path_len` is the length of the move path that reached it.
struct Frame {
    start: usize,
    end: usize,
    next: usize,
    path_len: usize,
}

/// How often (in expansions) the clock and the interrupt flag are read.
const POLL_EVERY: u64 = 1024;
const INTERRUPT_POLL: Duration = Duration::from_millis(50);

/// Searches `deal` for a win. `interrupted` is asked now and then whether to give up.
pub fn solve(deal: &Deal, limits: &Limits, interrupted: &mut dyn FnMut() -> bool) -> Outcome {
    let started = Instant::now();
    let mut last_poll = started;
    let mut state = State::from_deal(deal);
    let mut table = Table::new(limits.max_memory);
    let mut path: Vec<Move> = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut expanded: u64 = 0;
    let finish = |status, path: Vec<Move>, expanded, limit| Outcome {
        status,
        moves: path,
        states: expanded,
        seconds: started.elapsed().as_secs_f64(),
        limit,
    };

    play_automatic(&mut state, &mut path);
    if state.is_won() {
        return finish(Status::Solved, path, 0, None);
    }
    if table.insert(state.key()) == Insert::Full {
        return finish(Status::Unknown, Vec::new(), expanded, Some("memory"));
    }
    loop {
        // `state` is a new position, just entered in the table (and not won): expand it.
        if limits.max_states.is_some_and(|max| expanded >= max) {
            return finish(Status::Unknown, Vec::new(), expanded, Some("states"));
        }
        expanded += 1;
        if expanded.is_multiple_of(POLL_EVERY) {
            let now = Instant::now();
            if limits
                .max_seconds
                .is_some_and(|max| (now - started).as_secs_f64() >= max)
            {
                return finish(Status::Unknown, Vec::new(), expanded, Some("seconds"));
            }
            if now - last_poll >= INTERRUPT_POLL {
                last_poll = now;
                if interrupted() {
                    return finish(Status::Unknown, Vec::new(), expanded, Some("interrupted"));
                }
            }
        }
        let start = moves.len();
        generate(&state, &mut moves);
        order_moves(&state, &mut moves[start..]);
        frames.push(Frame {
            start,
            end: moves.len(),
            next: start,
            path_len: path.len(),
        });

        // Find the next new position: try the next move of the deepest frame, backtracking
        // from frames whose moves are all tried.
        loop {
            let Some(frame) = frames.last_mut() else {
                return finish(Status::Unsolvable, Vec::new(), expanded, None);
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
            let path_len = frame.path_len;
            apply(&mut state, m);
            path.push(m);
            play_automatic(&mut state, &mut path);
            if state.is_won() {
                return finish(Status::Solved, path, expanded, None);
            }
            match table.insert(state.key()) {
                Insert::New => break,
                Insert::Seen => unwind(&mut state, &mut path, path_len),
                Insert::Full => {
                    return finish(Status::Unknown, Vec::new(), expanded, Some("memory"))
                }
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
