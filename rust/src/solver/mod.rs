//! The solver: a complete depth-first search over positions, with a transposition table.
//! `castle.reference` (Python) is the same search step for step; the names match.

mod beam;
mod budget;
mod order;
mod search;
mod shorten;
mod table;

pub use beam::{estimate, BEAM_WIDTHS};
pub use order::{priority, ColumnFacts};
pub use search::{solve, Limits, Outcome, Status};
pub use shorten::shorten;
