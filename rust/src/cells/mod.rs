//! The free-cell games (docs/rules.md §6): FreeCell, Baker's Game, Eight Off, Seahaven Towers,
//! and the castle games with cells (Siegecraft, Stronghold, Private Lane). One deck, every card
//! face up, cells that hold one card each. The same flow and the same files as `castle/` and
//! `spider/` where all have one: deal -> state -> moves -> search -> solution.

pub mod board;
pub mod column;
pub mod deal;
pub mod dive;
pub mod moves;
pub mod order;
pub mod pack;
pub mod quiet;
pub mod rank;
pub mod search;
pub mod shorten;
pub mod state;
pub mod steps;
pub mod variant;
