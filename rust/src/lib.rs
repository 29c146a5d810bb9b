//! castle: cards, variants, deals, rules of play and a complete solver for the castle patience
//! games. Data flows one way: deal -> state -> moves -> search -> solution. The Python binding
//! (`python.rs`, the `castle._core` module) is a thin layer over these.

pub mod board;
pub mod cards;
pub mod deal;
pub mod moves;
pub mod random;
pub mod solver;
pub mod spider;
pub mod state;
pub mod variant;

#[cfg(feature = "python")]
mod python;
