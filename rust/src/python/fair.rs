//! The fair Spider player across the boundary: `spider_fair_advice`, the exits it chooses
//! among, `spider_fair_exits`, and its settings, crossing as one mapping (`effort_of`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyTuple};

use super::run::{detached, progress_every, watched};
use super::spider::{move_tuple, MoveTuple, PySpiderDeal};
use crate::spider::deal::Suits;
use crate::spider::estimate::Weights;
use crate::spider::fair::advise::{advise_unless, exits, Advice, Effort};
use crate::spider::fair::view::View;

/// The fair player's advice for `position`, from what a player sees of it; `visited` are the
/// positions played since a card last turned up (the advice never leads back into one).
/// Returns (moves, exact, worlds won, worlds, proved): the moves of the plan (empty: no move
/// helps; `proved` when the solver proved it with nothing hidden). `effort` maps settings of
/// [`Effort`] to values ([`effort_of`]); a setting left out is the deck's. The GIL is released
/// while it thinks; `progress`, if given, is called every `progress_seconds` as a solve's is,
/// and an exception it raises stops the advice and is raised (as Ctrl+C does).
#[pyfunction]
#[pyo3(signature = (position, visited, seed, effort=None, progress=None, progress_seconds=1.0))]
pub fn spider_fair_advice(
    py: Python<'_>,
    position: &PySpiderDeal,
    visited: Vec<PyRef<'_, PySpiderDeal>>,
    seed: u64,
    effort: Option<&Bound<'_, PyDict>>,
    progress: Option<Py<PyAny>>,
    progress_seconds: f64,
) -> PyResult<(Vec<MoveTuple>, bool, usize, usize, bool)> {
    let progress = progress_every(progress, progress_seconds)?;
    let effort = effort_of(Effort::for_deck(position.state().suits), effort)?;
    // Only what a player sees crosses into the player.
    let view = View::of(position.state());
    let visited: Vec<_> = visited
        .iter()
        .map(|p| View::of(p.state()).hash64())
        .collect();
    let advice = detached(py, progress, |interrupted| {
        watched(interrupted, |stop| {
            advise_unless(&view, &visited, seed, &effort, stop)
        })
    })?;
    Ok(match advice {
        Advice::Plan {
            moves,
            exact,
            won,
            worlds,
        } => (
            moves.into_iter().map(move_tuple).collect(),
            exact,
            won,
            worlds,
            false,
        ),
        Advice::NoMove { proved } => (Vec::new(), false, 0, 0, proved),
    })
}

/// `base` with the settings `given` maps to values (a name of [`Effort`]'s fields, once each
/// here; a value of None is `base`'s), each checked as [`count`] says: the one object the
/// settings cross as, in the manner of a validated config mapping.
fn effort_of(base: Effort, given: Option<&Bound<'_, PyDict>>) -> PyResult<Effort> {
    let mut e = base;
    for (name, value) in given.into_iter().flat_map(|given| given.iter()) {
        let name: String = name.extract()?;
        if value.is_none() {
            continue;
        }
        let (n, v) = (name.as_str(), &value);
        match n {
            "worlds" => e.worlds = count(n, v, 0)?,
            "width" => e.width = count(n, v, 1)?,
            "states" => e.states = count(n, v, 1)?,
            "quiet" => e.quiet = count(n, v, 1)?,
            "layer" => e.layer = count(n, v, 0)?,
            "exact" => e.exact = count(n, v, 1)?,
            "threads" => e.threads = count(n, v, 1)?,
            "weights" => e.weights = weights_of(v)?,
            "vote" => {
                e.vote = v
                    .extract()
                    .map_err(|_| PyValueError::new_err("vote is True or False"))?
            }
            "reveal" => e.reveal = count(n, v, 0)?,
            "reveal_quiet" => e.reveal_quiet = count(n, v, 1)?,
            "reveal_layer" => e.reveal_layer = count(n, v, 0)?,
            "reveal_options" => e.reveal_options = below_1000(n, count(n, v, 0)?)?,
            "rescue" => e.rescue = count(n, v, 0)?,
            _ => return Err(PyValueError::new_err(format!("no fair effort {name:?}"))),
        }
    }
    Ok(e)
}

/// `value` as a whole number from `least` (below 2^63; not a bool, which Python counts as
/// one), else ValueError naming the setting.
fn count<T: TryFrom<u64>>(name: &str, value: &Bound<'_, PyAny>, least: u64) -> PyResult<T> {
    let whole = value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>();
    whole
        .then(|| value.extract::<u64>().ok())
        .flatten()
        .filter(|n| (least..1 << 63).contains(n))
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{name} must be a whole number from {least}, not {value}",
                value = value.repr().map_or_else(|_| "?".into(), |r| r.to_string())
            ))
        })
}

/// A count that is taken off an estimate, kept below 1,000 (an estimate's scale).
fn below_1000(name: &str, value: u64) -> PyResult<i32> {
    match i32::try_from(value) {
        Ok(n) if n < 1_000 => Ok(n),
        _ => Err(PyValueError::new_err(format!(
            "{name} must be below 1000, not {value}"
        ))),
    }
}

/// The estimate's weights as they cross: five whole numbers below 1,000 either way (face
/// down, rank break, suit break, empty column, stock card).
fn weights_of(value: &Bound<'_, PyAny>) -> PyResult<Weights> {
    let whole = |w: &Bound<'_, PyAny>| {
        (w.is_instance_of::<PyInt>() && !w.is_instance_of::<PyBool>())
            .then(|| w.extract::<i32>().ok())
            .flatten()
            .filter(|w| w.abs() < 1_000)
    };
    let five: Option<Vec<i32>> = value
        .cast::<PyTuple>()
        .ok()
        .filter(|t| t.len() == 5)
        .and_then(|t| t.iter().map(|w| whole(&w)).collect());
    match five.as_deref() {
        Some(&[down, rank_break, suit_break, empty, stock]) => Ok(Weights {
            down,
            rank_break,
            suit_break,
            empty,
            stock,
        }),
        _ => Err(PyValueError::new_err(format!(
            "weights are five whole numbers, not {}",
            value.repr().map_or_else(|_| "?".into(), |r| r.to_string())
        ))),
    }
}

/// The settings of `effort` checked, as the advice would check them (ValueError if one is
/// not a setting, or not a value it can take): a settings object is refused where it is
/// made, not where it is first used.
#[pyfunction]
pub fn spider_fair_effort_check(effort: &Bound<'_, PyDict>) -> PyResult<()> {
    effort_of(Effort::for_deck(Suits::Four), Some(effort)).map(drop)
}

/// The exits the fair player chooses among from what a player sees of `position` (never
/// leading into a position of `visited`), best-looking first, at most `most`: each the moves
/// of its plan, quiet moves and the one that shows a card or deals. Empty when no way on is
/// left or the quiet moves alone win. Only the quiet search's effort bears on them.
#[pyfunction]
#[pyo3(signature = (position, visited, most, effort=None))]
pub fn spider_fair_exits(
    py: Python<'_>,
    position: &PySpiderDeal,
    visited: Vec<PyRef<'_, PySpiderDeal>>,
    most: usize,
    effort: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<Vec<MoveTuple>>> {
    let effort = effort_of(Effort::for_deck(position.state().suits), effort)?;
    if most == 0 {
        return Err(PyValueError::new_err("most must be at least 1"));
    }
    let view = View::of(position.state());
    let visited: Vec<_> = visited
        .iter()
        .map(|p| View::of(p.state()).hash64())
        .collect();
    let found = detached(py, None, |_| exits(&view, &visited, &effort, most))?;
    Ok(found
        .into_iter()
        .map(|exit| exit.moves.into_iter().map(move_tuple).collect())
        .collect())
}
