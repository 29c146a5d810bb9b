//! What a solve answers, for either game, and the step both searches end with: how the search
//! ended, turned into that answer.

use std::time::Instant;

use super::budget::{End, Stop};

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

/// What a solve found (`M`: the game's kind of move).
#[derive(Clone, Debug)]
pub struct Outcome<M> {
    pub status: Status,
    /// From the deal to the win, every move made (empty unless solved).
    pub moves: Vec<M>,
    /// Positions expanded.
    pub states: u64,
    pub seconds: f64,
    /// Why an unknown stopped.
    pub limit: Option<Stop>,
    /// The states expanded when each step of the solve ended (castle: its passes; Spider: the
    /// portfolio's steps, then the complete search), for studying the search.
    pub ends: Vec<u64>,
}

impl<M> Outcome<M> {
    /// The answer of a solve that began at `started`, expanded `states` positions in all and
    /// ended with `end` (a win as it is to be returned).
    pub fn from_end(
        end: End<M>,
        replays_to_win: impl FnOnce(&[M]) -> bool,
        states: u64,
        started: Instant,
        ends: Vec<u64>,
    ) -> Outcome<M> {
        let (status, moves, limit) = match end {
            End::Won(moves) => {
                // Never a wrong answer: a win that does not replay is a bug, and the binding
                // turns this panic into an exception instead of a claim.
                assert!(replays_to_win(&moves), "a found win does not replay");
                (Status::Solved, moves, None)
            }
            End::Exhausted => (Status::Unsolvable, Vec::new(), None),
            End::Limit(why) => (Status::Unknown, Vec::new(), Some(why)),
        };
        Outcome {
            status,
            moves,
            states,
            seconds: started.elapsed().as_secs_f64(),
            limit,
            ends,
        }
    }
}
