"""What every front end draws (castle.table.view): the view as plain JSON, the clock as the bar
shows it, and never a face-down card."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest
from castle import FOUNDATION, Card, Deal, Game, SpiderDeal, SpiderGame, Table
from castle.actions import Pick
from castle.table.view import ColumnView, Lift, View

#: The foundations at 6, the 7s and 8s apart.
SEVENS = Deal.from_text(
    "Foundations: C-6 D-6 H-6 S-6\n: 8C 7C\n: 8D 7D\n: 8H 7H\n: 8S 7S\n"
    ": 9C TC JC QC KC\n: 9D TD JD QD KD\n: 9H TH JH QH KH\n: 9S TS JS QS KS\n",
    "beleaguered-castle",
)


def test_view_is_plain_json() -> None:
    table = Table(Game(SEVENS))
    table.act(Pick(0))
    data = json.loads(json.dumps(table.view().to_json()))
    assert data["columns"][0]["cards"] == ["8C", "7C"]
    assert data["selection"]["cards"] == ["7C"] and data["selection"]["refusal"] is None
    assert data["foundations"] == {"C": 6, "D": 6, "H": 6, "S": 6}


def test_the_json_has_every_field_and_the_clock() -> None:
    # A front end reads the JSON alone: a field the view has and the JSON lacks is lost to it.
    now = [0.0]
    table = Table(Game(SEVENS, clock=lambda: now[0]))
    table.act(Pick(0))
    view = table.view()
    assert set(view.to_json()) == {f.name for f in fields(View)} | {"clock"}
    column = view.columns[0]
    assert set(column.to_json()) == {f.name for f in fields(ColumnView)}
    assert view.selection is not None
    assert set(view.selection.to_json()) == {f.name for f in fields(Lift)}


@pytest.mark.parametrize(
    ("seconds", "clock"), [(0.0, "0:00"), (59.9, "0:59"), (65.0, "1:05"), (3607.0, "60:07")]
)
def test_the_clock_is_minutes_and_seconds(seconds: float, clock: str) -> None:
    now = [0.0]
    table = Table(Game(SEVENS, clock=lambda: now[0]))
    now[0] = seconds
    view = table.view()
    assert view.seconds == seconds
    assert view.clock == clock and view.to_json()["clock"] == clock


def test_a_lift_says_its_cards_and_where_they_may_go() -> None:
    lift = Lift(2, 2, (Card.parse("8C"), Card.parse("7D")), (FOUNDATION, 4), None)
    assert lift.to_json() == {
        "src": 2,
        "count": 2,
        "cards": ["8C", "7D"],
        "targets": ["foundation", 4],
        "refusal": None,
    }
    refused = Lift(0, 3, (), (), "not a run").to_json()
    assert refused["targets"] == [] and refused["refusal"] == "not a run"


def test_a_spider_view_holds_no_face_down_card() -> None:
    game = SpiderGame(SpiderDeal.from_number("spider", 1))
    data = json.loads(json.dumps(Table(game).view().to_json()))
    assert data["game"] == "spider" and data["foundations"] is None
    assert data["stock"] == 50 and data["off"] == []
    for shown, column in zip(data["columns"], game.position.columns):
        assert shown["down"] == len(column.down)
        assert shown["cards"] == [str(card) for card in column.up]
    assert any(c["down"] for c in data["columns"])
    seen = sum(len(c["cards"]) + c["down"] for c in data["columns"])
    assert seen + data["stock"] == 104
