//! Spider (docs/rules.md §4): two decks, ten columns, 44 cards face down, a stock of fifty dealt
//! ten at a time, runs of one suit. The same flow as the castle games, and the same files as
//! `castle/` where both have one: deal -> state -> moves -> search -> solution.

pub mod beam;
pub mod board;
pub mod deal;
pub mod estimate;
pub mod fair;
pub mod moves;
pub mod order;
pub mod search;
pub mod shorten;
pub mod state;
