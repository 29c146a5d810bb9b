//! The fair Spider player across the boundary: `spider_fair_advice`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::run::detached;
use super::spider::{move_tuple, MoveTuple, PySpiderDeal};
use crate::spider::beam::Weights;
use crate::spider::fair::advise::{advise, Advice, Effort};
use crate::spider::fair::view::View;

/// The fair player's advice for `position`, from what a player sees of it; `visited` are the
/// positions played since a card last turned up (the advice never leads back into one).
/// Returns (moves, exact, worlds won, worlds, proved): the moves of the plan (empty: no move
/// helps; `proved` when the solver proved it with nothing hidden). Effort left as None is the
/// deck's default. The GIL is released while it thinks.
#[pyfunction]
#[pyo3(signature = (
    position, visited, seed, worlds=None, width=None, states=None, quiet=None, layer=None, exact=None,
    threads=None, weights=None, rollout=None, plies=None, candidates=None, vote=None,
    reveal=None, reveal_quiet=None, reveal_layer=None, reveal_deep=None, reveal_options=None, mobility=None,
    rescue=None
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
) -> PyResult<(Vec<MoveTuple>, bool, usize, usize, bool)> {
    let base = Effort::for_deck(position.state().suits);
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
        weights: weights.map_or(
            base.weights,
            |(down, rank_break, suit_break, empty, stock)| Weights {
                down,
                rank_break,
                suit_break,
                empty,
                stock,
            },
        ),
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
    let visited: Vec<_> = visited.iter().map(|p| View::of(p.state()).key()).collect();
    let advice = detached(py, None, |_| advise(&view, &visited, seed, &effort))?;
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
