//! A search run from Python, for both games: its limits checked, run with the GIL released,
//! Python's signal handlers asked now and then whether to stop, a panic caught; and its answer
//! as the tuple `_core` returns.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::InternalError;
use crate::solver::budget::expanded_so_far;
use crate::solver::disk::spilled_now;
use crate::solver::heap::held_now;
use crate::solver::{Limits, Outcome, Stop};

/// The limits, or ValueError for ones that make no sense (Python checks them first too).
pub fn check_limits(
    max_states: Option<u64>,
    max_seconds: Option<f64>,
    max_cpu_seconds: Option<f64>,
    max_memory: usize,
) -> PyResult<Limits> {
    if max_states == Some(0) {
        return Err(PyValueError::new_err("max_states must be at least 1"));
    }
    for (name, seconds) in [
        ("max_seconds", max_seconds),
        ("max_cpu_seconds", max_cpu_seconds),
    ] {
        if seconds.is_some_and(|s| !(s > 0.0 && s.is_finite())) {
            return Err(PyValueError::new_err(format!(
                "{name} must be a positive number"
            )));
        }
    }
    Ok(Limits {
        max_states,
        max_seconds,
        max_cpu_seconds,
        max_memory,
    })
}

/// Runs `search` with the GIL released, handing it the question "give up now?", which Python's
/// signal handlers answer: Ctrl+C raises KeyboardInterrupt within about 50 ms. With `progress`,
/// it is called every `every` seconds with (states expanded, seconds, bytes held, bytes of spill
/// files); an exception it raises stops the search and is raised. A panic becomes
/// `InternalError`.
pub fn detached<T: Send>(
    py: Python<'_>,
    progress: Option<(Py<PyAny>, f64)>,
    search: impl Send + FnOnce(&mut dyn FnMut() -> bool) -> T,
) -> PyResult<T> {
    let mut signal: Option<PyErr> = None;
    let started = Instant::now();
    let mut reported = started;
    let found = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| {
            search(&mut || {
                Python::attach(|py| {
                    let mut asked = py.check_signals();
                    if let Some((report, every)) = &progress {
                        let now = Instant::now();
                        if asked.is_ok() && (now - reported).as_secs_f64() >= *every {
                            reported = now;
                            let at = (
                                expanded_so_far(),
                                (now - started).as_secs_f64(),
                                held_now(),
                                spilled_now(),
                            );
                            asked = report.call1(py, at).map(|_| ());
                        }
                    }
                    match asked {
                        Ok(()) => false,
                        Err(e) => {
                            signal = Some(e);
                            true
                        }
                    }
                })
            })
        }))
    });
    if let Some(e) = signal {
        return Err(e);
    }
    found.map_err(|_| InternalError::new_err("castle core bug: the solver panicked"))
}

/// `work` on a thread of its own, handed a flag that [`detached`]'s question ("give up
/// now?"), asked every 20 ms meanwhile, sets: for a search whose threads read a flag rather
/// than ask (the fair Spider player's). Its answer once it ends.
pub fn watched<T: Send>(
    interrupted: &mut dyn FnMut() -> bool,
    work: impl Send + FnOnce(&AtomicBool) -> T,
) -> T {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let running = scope.spawn(|| work(&stop));
        while !running.is_finished() {
            if !stop.load(Ordering::Relaxed) && interrupted() {
                stop.store(true, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        match running.join() {
            Ok(answer) => answer,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// `progress` and its interval as `detached` takes them, or ValueError for an interval that
/// makes no sense.
pub fn progress_every(
    progress: Option<Py<PyAny>>,
    every: f64,
) -> PyResult<Option<(Py<PyAny>, f64)>> {
    if !(every > 0.0 && every.is_finite()) {
        return Err(PyValueError::new_err(
            "progress_seconds must be a positive number",
        ));
    }
    Ok(progress.map(|p| (p, every)))
}

/// A solve's answer across the boundary: (status, moves, states, seconds, the limit that
/// stopped an unknown).
pub type Answer<T> = (&'static str, Vec<T>, u64, f64, Option<&'static str>);

/// `outcome` as an [`Answer`], its moves turned into `moves`.
pub fn answer<M, T>(outcome: Outcome<M>, moves: impl FnOnce(Vec<M>) -> Vec<T>) -> Answer<T> {
    (
        outcome.status.as_str(),
        moves(outcome.moves),
        outcome.states,
        outcome.seconds,
        outcome.limit.map(Stop::as_str),
    )
}
