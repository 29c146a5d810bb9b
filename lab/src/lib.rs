//! The castle lab: what measures and checks the product crate from outside it.
//!
//! - `src/bin/`: the lab programs (`cargo run --release -p castle-lab --bin NAME`), each a
//!   measurement of one part of the solver (docs/guide/development.md lists them);
//! - `python.rs` (feature `python`): `castle_lab._native`, the module only the tests and the
//!   second method build, with the switches the product's `castle._core` does not offer.

#[cfg(feature = "python")]
mod python;
