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
