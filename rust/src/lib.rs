//! castle: cards, variants, deals, rules of play and a complete solver for the castle patience
//! games. Data flows one way: deal -> state -> moves -> search -> solution. The Python binding
//! (`python.rs`, the `castle._core` module) is a thin layer over these.

pub mod cards;
pub mod castle;
pub mod random;
pub mod solver;
pub mod spider;

#[cfg(feature = "python")]
mod python;
