//! What the castle and Spider searches share: limits, the budget a pass spends, the tables (a
//! hash set's and the packed one), the count of what a solve holds (heap), the files a search
//! spills to past its memory bound (disk), the beams' sort, the walk that shortens a win, and
//! the answer (its status, the limit that stopped it) with the step that makes it.

pub mod budget;
pub mod disk;
pub mod heap;
pub mod mix;
pub mod outcome;
pub mod packed;
pub mod sort;
pub mod table;
pub mod walk;

pub use budget::{Limits, Stop};
pub use outcome::{Outcome, Status};
