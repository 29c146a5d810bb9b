//! The castle games (docs/rules.md §1): Beleaguered Castle, Streets and Alleys and Citadel, one
//! deck, eight columns, every card face up, one card moves at a time. The flow: deal -> state
//! -> moves -> search -> solution, as in `spider/`; past it the castle games have more ways to
//! prove a deal lost (the compact key, the layers, the orbits), which Spider has not.

pub mod beam;
pub mod board;
mod canon;
pub mod compact;
pub mod deal;
mod hand_off;
mod keys;
pub mod layers;
pub mod moves;
pub mod orbits;
pub mod order;
pub mod recent;
pub mod runs;
pub mod search;
pub mod shorten;
pub mod state;
mod tries;
pub mod variant;
mod walk;
