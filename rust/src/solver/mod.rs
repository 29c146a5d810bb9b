//! The solver: a complete depth-first search over positions, with a transposition table.
//! `castle.reference` (Python) is the same search step for step; the names match.

pub(crate) mod beam;
pub(crate) mod budget;
pub(crate) mod heap;
mod order;
mod search;
mod shorten;
pub(crate) mod table;

pub use beam::{estimate, BEAM_WIDTHS};
pub use order::{priority, ColumnFacts};
pub use search::{solve, Limits, Outcome, Status};
pub(crate) use shorten::map_bytes as shorten_map_bytes;
pub use shorten::shorten;
