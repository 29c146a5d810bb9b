//! The fair Spider player across the boundary: `spider_fair_advice`, and the exits it
//! chooses among, `spider_fair_exits`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::run::{detached, progress_every, watched};
use super::spider::{move_tuple, MoveTuple, PySpiderDeal};
use crate::spider::estimate::Weights;
use crate::spider::fair::advise::{advise_unless, exits, Advice, Effort};
use crate::spider::fair::view::View;

/// The fair player's advice for `position`, from what a player sees of it; `visited` are the
/// positions played since a card last turned up (the advice never leads back into one).
/// Returns (moves, exact, worlds won, worlds, proved): the moves of the plan (empty: no move
/// helps; `proved` when the solver proved it with nothing hidden). Effort left as None is the
/// deck's default. The GIL is released while it thinks; `progress`, if given, is called every
/// `progress_seconds` as a solve's is, and an exception it raises stops the advice and is
/// raised (as Ctrl+C does).
#[pyfunction]
#[pyo3(signature = (
    position, visited, seed, worlds=None, width=None, states=None, quiet=None, layer=None, exact=None,
    threads=None, weights=None, rollout=None, plies=None, candidates=None, vote=None,
    reveal=None, reveal_quiet=None, reveal_layer=None, reveal_deep=None, reveal_options=None, mobility=None,
    rescue=None, progress=None, progress_seconds=1.0
))]
#[allow(clippy::too_many_arguments)]
pub fn spider_fair_advice(
    py: Python<'_>,
    position: &PySpiderDeal,
    visited: Vec<PyRef<'_, PySpiderDeal>>,
    seed: u64,
    worlds: Option<usize>,
    width: Option<usize>,
    states: Option<u64>,
    quiet: Option<usize>,
    layer: Option<usize>,
    exact: Option<u64>,
    threads: Option<usize>,
    weights: Option<(i32, i32, i32, i32, i32)>,
    rollout: Option<usize>,
    plies: Option<usize>,
    candidates: Option<usize>,
    vote: Option<bool>,
    reveal: Option<usize>,
    reveal_quiet: Option<usize>,
    reveal_layer: Option<usize>,
    reveal_deep: Option<usize>,
    reveal_options: Option<i32>,
    mobility: Option<i32>,
    rescue: Option<usize>,
    progress: Option<Py<PyAny>>,
    progress_seconds: f64,
) -> PyResult<(Vec<MoveTuple>, bool, usize, usize, bool)> {
    let progress = progress_every(progress, progress_seconds)?;
    let base = Effort::for_deck(position.state().suits);
    let weights = weights.map_or(base.weights, weights_of);
    let effort = Effort {
        worlds: worlds.unwrap_or(base.worlds),
        width: width.unwrap_or(base.width),
        states: states.unwrap_or(base.states),
        quiet: quiet.unwrap_or(base.quiet),
        layer: layer.unwrap_or(base.layer),
        exact: exact.unwrap_or(base.exact),
        threads: threads.unwrap_or(base.threads),
        rollout: rollout.unwrap_or(base.rollout),
        plies: plies.unwrap_or(base.plies),
        candidates: candidates.unwrap_or(base.candidates),
        vote: vote.unwrap_or(base.vote),
        reveal: reveal.unwrap_or(base.reveal),
        reveal_quiet: reveal_quiet.unwrap_or(base.reveal_quiet),
        reveal_layer: reveal_layer.unwrap_or(base.reveal_layer),
        reveal_deep: reveal_deep.unwrap_or(base.reveal_deep),
        reveal_options: reveal_options.unwrap_or(base.reveal_options),
        mobility: mobility.unwrap_or(base.mobility),
        rescue: rescue.unwrap_or(base.rescue),
        weights,
    };
    if effort.width == 0
        || effort.states == 0
        || effort.quiet == 0
        || effort.candidates == 0
        || effort.reveal_quiet == 0
    {
        return Err(PyValueError::new_err(
            "width, states, quiet, candidates and reveal_quiet must be at least 1",
        ));
    }
    if !(0..1_000).contains(&effort.mobility) {
        return Err(PyValueError::new_err("mobility must be from 0 to 999"));
    }
    if !(0..1_000).contains(&effort.reveal_options) {
        return Err(PyValueError::new_err(
            "reveal_options must be from 0 to 999",
        ));
    }
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

/// The estimate's weights as they cross: (face down, rank break, suit break, empty column,
/// stock card).
fn weights_of((down, rank_break, suit_break, empty, stock): (i32, i32, i32, i32, i32)) -> Weights {
    Weights {
        down,
        rank_break,
        suit_break,
        empty,
        stock,
    }
}

/// The exits the fair player chooses among from what a player sees of `position` (never
/// leading into a position of `visited`), best-looking first, at most `most`: each the moves
/// of its plan, quiet moves and the one that shows a card or deals. Empty when no way on is
/// left or the quiet moves alone win. Only the quiet search's effort bears on them.
#[pyfunction]
#[pyo3(signature = (position, visited, most, quiet=None, layer=None, weights=None, mobility=None))]
#[allow(clippy::too_many_arguments)]
pub fn spider_fair_exits(
    py: Python<'_>,
    position: &PySpiderDeal,
    visited: Vec<PyRef<'_, PySpiderDeal>>,
    most: usize,
    quiet: Option<usize>,
    layer: Option<usize>,
    weights: Option<(i32, i32, i32, i32, i32)>,
    mobility: Option<i32>,
) -> PyResult<Vec<Vec<MoveTuple>>> {
    let base = Effort::for_deck(position.state().suits);
    let effort = Effort {
        quiet: quiet.unwrap_or(base.quiet),
        layer: layer.unwrap_or(base.layer),
        weights: weights.map_or(base.weights, weights_of),
        mobility: mobility.unwrap_or(base.mobility),
        ..base
    };
    if effort.quiet == 0 || most == 0 {
        return Err(PyValueError::new_err("quiet and most must be at least 1"));
    }
    if !(0..1_000).contains(&effort.mobility) {
        return Err(PyValueError::new_err("mobility must be from 0 to 999"));
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
