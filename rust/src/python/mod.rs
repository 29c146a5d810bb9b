//! `castle._core`: the Python binding. Conversions only: no rule of the game lives here, and
//! each constant is stated once, in the core. `python/castle/_core.pyi` documents this boundary.
//!
//! - `castle.rs`: `Deal` (a castle game's position), `solve`, `variants`, `parse_card`;
//! - `spider.rs`: `SpiderDeal`, `solve_spider`, `spider_variants`;
//! - `cells.rs`: `CellsDeal` (a free-cell game's position), `solve_cells`, `cells_variants`,
//!   `cells_rules`, `cells_replays`;
//! - `position.rs`: what both games' position classes share (`position_class!`);
//! - `fair.rs`: `spider_fair_advice`, the fair Spider player, `spider_fair_exits`, and
//!   `spider_fair_effort_check`;
//! - `run.rs`: a search run from Python (its limits checked, the GIL released, Ctrl+C heard, a
//!   panic caught) and its answer as a tuple.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::castle::state::MAX_COLUMNS;
use crate::random::MAX_NUMBER;
use crate::spider::deal::{COLUMNS as SPIDER_COLUMNS, RUN, RUNS};
use crate::spider::search::MAX_BEAM_WIDTH;

mod castle;
mod cells;
mod fair;
mod position;
mod run;
mod spider;

create_exception!(
    _core,
    BoardTextError,
    PyValueError,
    "Board text refused: args are (message, line, token)."
);
create_exception!(
    _core,
    InternalError,
    PyRuntimeError,
    "A bug in the castle core (a caught Rust panic)."
);

/// Runs core code, turning a panic into `InternalError` instead of letting it cross into Python.
fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        Err(InternalError::new_err(format!("castle core bug: {what}")))
    })
}

/// The error for a deal number the core has no deal for (its variant's go up to `max`).
fn out_of_range(number: u64, max: u64) -> PyErr {
    PyValueError::new_err(format!("deal number {number} is out of range (1 to {max})"))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<castle::PyDeal>()?;
    m.add_class::<spider::PySpiderDeal>()?;
    m.add_class::<cells::PyCellsDeal>()?;
    m.add_function(wrap_pyfunction!(cells::solve_cells, m)?)?;
    m.add_function(wrap_pyfunction!(cells::cells_variants, m)?)?;
    m.add_function(wrap_pyfunction!(cells::cells_rules, m)?)?;
    m.add_function(wrap_pyfunction!(cells::cells_replays, m)?)?;
    m.add_function(wrap_pyfunction!(spider::solve_spider, m)?)?;
    m.add_function(wrap_pyfunction!(spider::spider_variants, m)?)?;
    m.add_function(wrap_pyfunction!(fair::spider_fair_advice, m)?)?;
    m.add_function(wrap_pyfunction!(fair::spider_fair_exits, m)?)?;
    m.add_function(wrap_pyfunction!(fair::spider_fair_effort_check, m)?)?;
    m.add_function(wrap_pyfunction!(castle::parse_card, m)?)?;
    m.add_function(wrap_pyfunction!(castle::variants, m)?)?;
    m.add_function(wrap_pyfunction!(castle::solve, m)?)?;
    m.add("BoardTextError", m.py().get_type::<BoardTextError>())?;
    m.add("InternalError", m.py().get_type::<InternalError>())?;
    m.add("MAX_DEAL_NUMBER", MAX_NUMBER)?;
    m.add("MAX_BEAM_WIDTH", MAX_BEAM_WIDTH)?;
    m.add("CASTLE_COLUMNS", MAX_COLUMNS)?;
    m.add("SPIDER_COLUMNS", SPIDER_COLUMNS)?;
    m.add("SPIDER_RUN", RUN)?;
    m.add("SPIDER_RUNS", RUNS)?;
    Ok(())
}
