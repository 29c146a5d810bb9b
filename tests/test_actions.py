"""What a player does, as plain data (castle.actions): each action as JSON and back, and
anything else refused in one line."""

from __future__ import annotations

import json
from typing import get_args

import pytest
from castle import FOUNDATION, MAX_DEAL_NUMBER, ActionError, TableAction
from castle.actions import (
    ACTIONS,
    Advise,
    Cancel,
    DealRow,
    DoubleTap,
    Drop,
    NewDeal,
    Pause,
    Pick,
    PlayHint,
    Put,
    Redo,
    Resume,
    TakeOff,
    Tap,
    Undo,
    action_from_json,
    action_to_json,
)

EVERY_ACTION: list[TableAction] = [
    Pick(3),
    Pick(2, 4),
    Put(5),
    Put(FOUNDATION),
    Drop(0, 1),
    Drop(0, FOUNDATION, 1),
    Tap(7),
    DoubleTap(0),
    DealRow(),
    TakeOff(),
    TakeOff(9),
    Undo(),
    Redo(),
    Cancel(),
    Advise(),
    Advise(peek=True),
    PlayHint(),
    NewDeal(),
    NewDeal(level="hard", confirmed=True),
    NewDeal(level="medium", deal=2),
    Pause(),
    Resume(),
]


def test_actions_round_trip_through_json() -> None:
    assert {type(a) for a in EVERY_ACTION} == set(ACTIONS.values())
    for action in EVERY_ACTION:
        assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ([], "JSON object"),
        ({}, "needs its name"),
        ({"action": "fly"}, "unknown action 'fly'"),
        ({"action": 3}, "unknown action 3"),
        ({"action": "drop", "src": 1}, "needs 'dst'"),
        ({"action": "drop", "src": 1, "dst": 2, "colour": "red"}, "takes no 'colour'"),
        ({"action": "pick", "column": True}, "whole number 0 to 15"),
        ({"action": "pick", "column": 16}, "whole number 0 to 15"),
        ({"action": "pick", "column": "1"}, "whole number 0 to 15"),
        ({"action": "pick", "column": None}, "whole number 0 to 15"),
        ({"action": "drop", "src": 0, "dst": "sky"}, "dst must be"),
        ({"action": "drop", "src": 0, "dst": 1, "count": 0}, "count must be"),
        ({"action": "drop", "src": 0, "dst": 1, "count": 10**30}, "count must be"),
        ({"action": "hint", "peek": "yes"}, "true or false"),
        ({"action": "new_deal", "level": 7}, "level must be"),
        ({"action": "new_deal", "deal": 0}, "deal must be"),
        ({"action": "new_deal", "deal": 2**64}, "deal must be"),
    ],
)
def test_bad_actions_are_refused_in_one_line(data: object, said: str) -> None:
    with pytest.raises(ActionError, match=said) as caught:
        action_from_json(data)
    assert "\n" not in str(caught.value)


def test_an_action_is_its_name_and_its_fields_in_json() -> None:
    # The format the browser's page sends, field for field (the module's own example first).
    assert action_to_json(Drop(0, 3)) == {"action": "drop", "src": 0, "dst": 3, "count": None}
    assert action_to_json(Drop(2, FOUNDATION, 1)) == {
        "action": "drop",
        "src": 2,
        "dst": "foundation",
        "count": 1,
    }
    assert action_to_json(Undo()) == {"action": "undo"}
    assert action_to_json(NewDeal(level="hard", deal=7)) == {
        "action": "new_deal",
        "level": "hard",
        "confirmed": False,
        "deal": 7,
    }


@pytest.mark.parametrize(
    ("data", "action"),
    [
        ({"action": "drop", "src": 0, "dst": 3}, Drop(0, 3, None)),
        ({"action": "pick", "column": 4}, Pick(4, None)),
        ({"action": "take_off"}, TakeOff(None)),
        ({"action": "take_off", "column": None}, TakeOff(None)),
        ({"action": "hint"}, Advise(peek=False)),
        ({"action": "new_deal"}, NewDeal(level=None, confirmed=False, deal=None)),
        ({"action": "put", "dst": "foundation"}, Put(FOUNDATION)),
    ],
)
def test_a_field_left_out_takes_its_default(data: object, action: TableAction) -> None:
    assert action_from_json(data) == action


@pytest.mark.parametrize(
    "data",
    [
        {"action": "pick", "column": 9},
        {"action": "drop", "src": 9, "dst": 0, "count": 104},
        {"action": "drop", "src": 0, "dst": 9, "count": 1},
        {"action": "new_deal", "deal": 1},
        {"action": "new_deal", "deal": MAX_DEAL_NUMBER},
    ],
)
def test_the_edges_of_each_range_are_taken(data: dict[str, object]) -> None:
    written = action_to_json(action_from_json(data))
    assert {name: written[name] for name in data} == data


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (
            {"action": "drop", "src": 0, "dst": 1, "count": 105},
            "count must be a whole number 1 to 104",
        ),
        ({"action": "drop", "src": 0, "dst": 16}, "dst must be a whole number 0 to 15"),
        ({"action": "drop", "src": -1, "dst": 1}, "src must be a whole number 0 to 15"),
        ({"action": "pick", "column": 1.0}, "column must be a whole number 0 to 15"),
        ({"action": "tap"}, "tap needs 'column'"),
        ({"action": "drop"}, "drop needs 'src', 'dst'"),
        ({"action": "undo", "b": 1, "a": 2}, "undo takes no 'a', 'b'"),
        ({"action": "new_deal", "confirmed": 1}, "confirmed must be true or false"),
    ],
)
def test_what_is_wrong_is_said(data: object, said: str) -> None:
    with pytest.raises(ActionError) as caught:
        action_from_json(data)
    assert said in str(caught.value)


def test_an_unknown_action_names_every_known_one() -> None:
    with pytest.raises(ActionError) as caught:
        action_from_json({"action": "fly"})
    for name in ACTIONS:
        assert name in str(caught.value)


def test_a_refused_action_is_a_value_error() -> None:
    # Bad input is a ValueError (castle.errors): a caller's `except ValueError` holds.
    with pytest.raises(ValueError):
        action_from_json({"action": "pick"})


def test_each_action_has_a_name_of_its_own() -> None:
    # Two actions of one name would leave one of them unreadable from JSON.
    assert len(ACTIONS) == len(get_args(TableAction))
