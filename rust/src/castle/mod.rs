//! The castle games (docs/rules.md §1): Beleaguered Castle, Streets and Alleys and Citadel, one
//! deck, eight columns, every card face up, one card moves at a time. The flow: deal -> state
//! -> moves -> search -> solution; the files mirror `spider/`.

pub mod beam;
pub mod board;
pub mod compact;
pub mod deal;
pub mod layers;
pub mod moves;
pub mod orbits;
pub mod order;
pub mod runs;
pub mod search;
pub mod shorten;
pub mod state;
pub mod variant;
