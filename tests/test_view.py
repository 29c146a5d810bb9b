"""What every front end draws (castle.view): the view as plain JSON."""

from __future__ import annotations

import json

from castle import Deal, Game, Table
from castle.actions import Pick

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
