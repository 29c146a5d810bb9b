//! What a solve answers, for either game.

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

/// Which limit ended a search before it decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// `max_states` positions were expanded.
    States,
    /// `max_seconds` passed.
    Seconds,
    /// Going on would hold more than `max_memory`.
    Memory,
    /// The caller asked it to stop (Ctrl+C).
    Interrupted,
}

impl Stop {
    /// The word the Python side, the CLI and the JSON answer give for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Stop::States => "states",
            Stop::Seconds => "seconds",
            Stop::Memory => "memory",
            Stop::Interrupted => "interrupted",
        }
    }
}
