"""What a player does, as plain data (castle.actions): each action as JSON and back, and
anything else refused in one line."""

from __future__ import annotations

import json

import pytest
from castle import FOUNDATION, ActionError, TableAction
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
        ({"action": "pick", "column": True}, "whole number 0 to 9"),
        ({"action": "pick", "column": 10}, "whole number 0 to 9"),
        ({"action": "pick", "column": "1"}, "whole number 0 to 9"),
        ({"action": "pick", "column": None}, "whole number 0 to 9"),
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
