//! `castle_lab._native`: the castle search with the switches the tests and the second method
//! set, which the product's `castle._core` leaves out: the complete pass alone, its layers
//! from a given table size, its tries at a given one. A position comes in as a
//! `castle._core.Deal` (its variant and text: the search reads nothing else of it) and moves
//! go out as `castle._core` gives them.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use castle::castle::beam::beam_search;
use castle::castle::board;
use castle::castle::deal::Deal;
use castle::castle::layers::Overflow;
use castle::castle::moves::{Move, FOUNDATION};
use castle::castle::search;
use castle::castle::variant::Variant;
use castle::solver::budget::{Budget, Deadline, End, Watch};
use castle::solver::disk::Spill;
use castle::solver::heap::Memory;
use castle::solver::{Limits, Stop};

/// (card index, from column, to column or -1 for the foundation), as `castle._core`'s.
type MoveTuple = (u8, u8, i16);

/// A solve's answer, as `castle._core.solve`'s: (status, moves, states, seconds, limit).
type Answer = (&'static str, Vec<MoveTuple>, u64, f64, Option<&'static str>);

/// The complete pass's answer: (status, moves, states, limit).
type PassAnswer = (&'static str, Vec<MoveTuple>, u64, Option<&'static str>);

fn move_tuple(m: Move) -> MoveTuple {
    let to = if m.to == FOUNDATION { -1 } else { m.to as i16 };
    (m.card.index() as u8, m.from, to)
}

/// The core's deal for a `castle._core.Deal` (or anything with its `variant` and `to_text`).
fn deal_of(deal: &Bound<'_, PyAny>) -> PyResult<Deal> {
    let id: String = deal.getattr("variant")?.extract()?;
    let variant = Variant::from_id(&id)
        .ok_or_else(|| PyValueError::new_err(format!("unknown variant {id:?}")))?;
    let text: String = deal.call_method0("to_text")?.extract()?;
    board::parse(&text, Some(variant)).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Runs `search` on a thread of its own with the GIL released, asking Python's signal handlers
/// every 20 ms whether to stop: Ctrl+C stops a long pass (the second method's) and is raised.
fn detached<T: Send>(
    py: Python<'_>,
    search: impl Send + FnOnce(&mut dyn FnMut() -> bool) -> T,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let mut signal: Option<PyErr> = None;
    let found = py.detach(|| {
        std::thread::scope(|scope| {
            let running = scope.spawn(|| search(&mut || stop.load(Ordering::Relaxed)));
            while !running.is_finished() {
                if signal.is_none() {
                    signal = Python::attach(|py| py.check_signals()).err();
                    stop.store(signal.is_some(), Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            running.join()
        })
    });
    let found = found.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    signal.map_or(Ok(found), Err)
}

fn overflow(
    layers_after: Option<u64>,
    orbits_after: Option<u64>,
    spill_dir: Option<PathBuf>,
) -> Overflow {
    Overflow {
        layers_after,
        orbits_after,
        spill: spill_dir.map(|dir| Spill {
            dir,
            max_bytes: u64::MAX,
        }),
    }
}

/// The whole solve, as `castle._core.solve`'s, its complete pass going on in layers once its
/// table holds `layers_after` positions and first making its tries at `orbits_after`:
/// (status, moves, states, seconds, limit).
#[pyfunction]
#[pyo3(signature = (deal, max_states, max_memory, *, layers_after=None, orbits_after=None))]
fn solve(
    py: Python<'_>,
    deal: &Bound<'_, PyAny>,
    max_states: Option<u64>,
    max_memory: usize,
    layers_after: Option<u64>,
    orbits_after: Option<u64>,
) -> PyResult<Answer> {
    let deal = deal_of(deal)?;
    let limits = Limits {
        max_states,
        max_seconds: None,
        max_cpu_seconds: None,
        max_memory,
    };
    let overflow = overflow(layers_after, orbits_after, None);
    let o = detached(py, |stop| {
        search::solve(&deal, &limits, false, &overflow, stop)
    })?;
    Ok((
        o.status.as_str(),
        o.moves.into_iter().map(move_tuple).collect(),
        o.states,
        o.seconds,
        o.limit.map(Stop::as_str),
    ))
}

/// The complete pass alone, from the deal, going on in layers once its table holds
/// `layers_after` positions or `max_memory` bytes (spilling to `spill_dir` if given), its
/// tries first made at `orbits_after` positions: (status, moves, states, limit).
#[pyfunction]
#[pyo3(signature = (
    deal, max_states, layers_after, max_memory=None, spill_dir=None, orbits_after=None
))]
fn complete_pass(
    py: Python<'_>,
    deal: &Bound<'_, PyAny>,
    max_states: Option<u64>,
    layers_after: Option<u64>,
    max_memory: Option<usize>,
    spill_dir: Option<PathBuf>,
    orbits_after: Option<u64>,
) -> PyResult<PassAnswer> {
    let deal = deal_of(deal)?;
    let overflow = overflow(layers_after, orbits_after, spill_dir);
    let max_memory = max_memory.unwrap_or(usize::MAX);
    let (end, states) = detached(py, |stop| {
        search::complete_pass(&deal, max_states, max_memory, &overflow, stop)
    })?;
    Ok(pass_answer(end, states, ("unsolvable", None)))
}

/// One beam search of `width` positions a depth from the deal (as the tries make them, with no
/// bound on the win's length), within `max_states` expansions and `max_memory` bytes: a win
/// found cheaply where the solve's tries reach that width only late. (status, moves, states,
/// limit): "solved", or "unknown" with the limit or "dry" when the beam ran out of positions.
#[pyfunction]
fn beam(
    py: Python<'_>,
    deal: &Bound<'_, PyAny>,
    width: usize,
    max_states: u64,
    max_memory: usize,
) -> PyResult<PassAnswer> {
    let deal = deal_of(deal)?;
    let budget = Budget {
        max_states: Some(max_states),
        deadline: Deadline::NONE,
        memory: Memory::from_now(max_memory),
    };
    let (end, states) = detached(py, |stop| {
        let mut watch = Watch::new(std::time::Instant::now(), stop);
        let mut states = 0;
        let end = beam_search(&deal, width, usize::MAX, &budget, &mut states, &mut watch);
        (end, states)
    })?;
    // A beam that runs out of positions proves nothing.
    Ok(pass_answer(end, states, ("unknown", Some("dry"))))
}

/// A search's end as a pass's answer: a win's moves, `exhausted` (the status and limit of a
/// search that ran out of positions), or the limit that stopped it.
fn pass_answer(
    end: End<Move>,
    states: u64,
    exhausted: (&'static str, Option<&'static str>),
) -> PassAnswer {
    match end {
        End::Won(moves) => (
            "solved",
            moves.into_iter().map(move_tuple).collect(),
            states,
            None,
        ),
        End::Exhausted => (exhausted.0, Vec::new(), states, exhausted.1),
        End::Limit(why) => ("unknown", Vec::new(), states, Some(why.as_str())),
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(complete_pass, m)?)?;
    m.add_function(wrap_pyfunction!(beam, m)?)?;
    Ok(())
}
