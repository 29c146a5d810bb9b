//! castle: cards, deals, rules of play and complete solvers for the castle patience games
//! (Beleaguered Castle, Streets and Alleys, Citadel), the free-cell games (FreeCell and its
//! kin) and Spider. In each game data flows one way: deal -> state -> moves -> search ->
//! solution.
//!
//! - [`castle`], [`cells`] and [`spider`]: one folder per game family, file for file where
//!   they have one (variant or deck, deal, board text, state, moves, order, search, beam,
//!   shorten). None imports another.
//! - [`solver`]: what the searches share (limits, budget, table, the count of what a solve
//!   holds, the beams' sort, the walk that shortens a win, the outcome).
//! - [`cards`], [`board_text`] (its lines, cards and errors) and [`random`] (PySolFC's
//!   generators, its shuffle, the deal numbers' range): what the games' deals are made of.
//! - `python/` (the `castle._core` module): conversions only, over these.

pub mod board_text;
pub mod cards;
pub mod castle;
pub mod cells;
pub mod random;
pub mod solver;
pub mod spider;

#[cfg(feature = "python")]
mod python;
