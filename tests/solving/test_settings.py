"""One solve's limits and options as one object: checked when made, handed to each family."""

from __future__ import annotations

import pickle

import castle
import pytest
from castle.cli.engine import Job
from castle.family import family_of_deal
from castle.solving.settings import SolveSettings


@pytest.mark.parametrize(
    "bad",
    [
        {"max_states": 0},
        {"max_seconds": -1.0},
        {"max_cpu_seconds": float("nan")},
        {"max_memory": 5},
    ],
)
def test_nonsense_limits_are_refused_when_the_settings_are_made(bad: dict[str, object]) -> None:
    name = next(iter(bad))
    with pytest.raises(castle.LimitError, match=name):
        SolveSettings(**bad)  # type: ignore[arg-type]


def test_each_family_solves_under_the_same_settings_object() -> None:
    settings = SolveSettings(max_states=1_000)
    deals: list[castle.Deal | castle.SpiderDeal | castle.CellsDeal] = [
        castle.Deal.from_number("beleaguered-castle", 1),
        castle.SpiderDeal.from_number("spider-1", 1),
        castle.CellsDeal.from_number("freecell", 11982),
    ]
    for deal in deals:
        family = family_of_deal(deal)
        assert family is not None
        answer = family.solve(deal, settings)
        assert answer.states <= 1_000
        # The same answer as castle.solve with the same limits as keywords.
        again = castle.solve(deal, max_states=1_000)
        assert (again.status, again.states, again.moves) == (
            answer.status,
            answer.states,
            answer.moves,
        )


def test_a_batch_job_travels_to_a_worker_with_its_settings() -> None:
    job = Job("citadel", SolveSettings(max_states=50_000, max_cpu_seconds=2.0))
    again = pickle.loads(pickle.dumps(job))
    assert again == job
    assert again.describe_limits() == "50,000 states, 2 s of CPU, 4 GiB of memory"
