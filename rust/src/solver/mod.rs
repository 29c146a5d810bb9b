//! The solver: a complete depth-first search over positions, with a transposition table.
//! `castle.reference` (Python) is the same search step for step; the names match.

mod beam;
pub(crate) mod budget;
mod order;
mod search;
mod shorten;
pub(crate) mod table;

pub use beam::{estimate, BEAM_WIDTHS};
pub use order::{priority, ColumnFacts};
pub use search::{solve, Limits, Outcome, Status};
pub use shorten::shorten;
