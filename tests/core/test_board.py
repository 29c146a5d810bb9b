"""Board text (docs/rules.md §2): format, parse, the spellings other tools write, and bad input.

Canonical text is what pysol_cards prints: an optional ``Foundations:`` line (suits in the
order H C D S, empty foundations left out), then one line per column, bottom card first. An
empty column is written as a line holding only ``:`` (a blank line is skipped when reading).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import castle
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

BC, SA, CITADEL = "beleaguered-castle", "streets-and-alleys", "citadel"
FOUNDATION_ORDER = "HCDS"  # the order pysol_cards prints the foundations in


# --- an independent model of the text format -------------------------------------------------

Position = tuple[str, dict[str, int], list[list[str]]]  # variant, foundation tops, columns


def canonical_text(tops: dict[str, int], columns: list[list[str]]) -> str:
    """The text castle must print for a position (written here without the core's help)."""
    lines = []
    shown = [f"{s}-{castle.RANKS[tops[s] - 1]}" for s in FOUNDATION_ORDER if tops[s]]
    if shown:
        lines.append("Foundations: " + " ".join(shown))
    lines += [" ".join(column) if column else ":" for column in columns]
    return "".join(line + "\n" for line in lines)


def as_model(deal: castle.Deal) -> tuple[dict[str, int], list[list[str]]]:
    return deal.foundations, [[str(card) for card in column] for column in deal.columns]


def guessed_variant(columns: list[list[str]]) -> str:
    # RULES/README: an ace in the tableau can only be Streets and Alleys.
    return SA if any(card[0] == "A" for column in columns for card in column) else BC


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any split of the 52 cards into foundations and 8 columns (some possibly empty).

    Beleaguered Castle and Citadel need every ace on its foundation; Streets and Alleys
    takes anything.
    """
    variant = draw(st.sampled_from(castle.VARIANTS))
    lowest = 0 if variant == SA else 1
    tops = {suit: draw(st.integers(lowest, 13)) for suit in castle.SUITS}
    rest = [
        f"{castle.RANKS[rank - 1]}{suit}"
        for suit in castle.SUITS
        for rank in range(tops[suit] + 1, 14)
    ]
    rest = draw(st.permutations(rest))
    cuts = sorted(draw(st.lists(st.integers(0, len(rest)), min_size=7, max_size=7)))
    bounds = [0, *cuts, len(rest)]
    columns = [list(rest[a:b]) for a, b in zip(bounds, bounds[1:])]
    return variant, tops, columns


@st.composite
def other_spelling(draw: st.DrawFn, tops: dict[str, int], columns: list[list[str]]) -> str:
    """The same position as another tool (or a person) might write it; all must be accepted."""
    lower = draw(st.booleans())
    ten = draw(st.sampled_from(["T", "10"]))
    colon = draw(st.sampled_from(["", ":", ": "]))
    sep = draw(st.sampled_from([" ", "  ", "\t"]))
    end = draw(st.sampled_from(["\n", "\r\n"]))

    def card(text: str) -> str:
        text = text.replace("T", ten)
        return text.lower() if lower else text

    lines = []
    suits = draw(st.permutations(FOUNDATION_ORDER))  # any order; H-0 or leaving a suit out
    shown = [f"{s}-{card(castle.RANKS[tops[s] - 1])}" if tops[s] else f"{s}-0" for s in suits]
    shown = [f for f in shown if not f.endswith("-0") or draw(st.booleans())]
    write_empty_line: bool = draw(st.booleans())
    if shown or write_empty_line:
        lines.append(("foundations:" if lower else "Foundations:") + " " + " ".join(shown))
    if draw(st.booleans()):
        lines.append(draw(st.sampled_from(["Freecells:", "Freecells: - - - -", "freecells: -"])))
    for column in columns:
        body = sep.join(card(c) for c in column)
        lines.append((colon + body) if column and colon else (body or ":"))
    # Blank lines anywhere and trailing (or leading) whitespace on any line.
    noisy = []
    for line in lines:
        noisy += [""] * draw(st.integers(0, 2))
        noisy.append(
            draw(st.sampled_from(["", " ", "\t"])) + line + draw(st.sampled_from(["", " ", " \t "]))
        )
    text = end.join(noisy)
    return text + end if draw(st.booleans()) else text


# --- round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 617, 31999, 32000, 2**31 - 1, 2**62])
@pytest.mark.parametrize("variant", castle.VARIANTS)
def test_numbered_deal_round_trips(variant: str, number: int) -> None:
    deal = castle.Deal.from_number(variant, number)
    back = castle.Deal.from_text(deal.to_text(), variant)
    assert back == deal
    assert back.to_text() == deal.to_text()
    assert back.variant == variant
    assert back.number is None  # text carries no deal number


@settings(max_examples=300, deadline=None)
@given(positions())
def test_generated_position_round_trips(position: Position) -> None:
    variant, tops, columns = position
    text = canonical_text(tops, columns)
    deal = castle.Deal.from_text(text, variant)
    assert as_model(deal) == (tops, columns)
    assert deal.to_text() == text
    assert castle.Deal.from_text(deal.to_text(), variant) == deal
    # Without a variant the text is read the same, under the guessed variant.
    guessed = castle.Deal.from_text(text)
    assert guessed.variant == guessed_variant(columns)
    assert as_model(guessed) == (tops, columns)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.data())
def test_generated_position_in_other_spellings(data: st.DataObject) -> None:
    variant, tops, columns = data.draw(positions())
    text = data.draw(other_spelling(tops, columns))
    deal = castle.Deal.from_text(text, variant)
    assert as_model(deal) == (tops, columns)
    assert deal.to_text() == canonical_text(tops, columns)


# --- accepted spellings, one by one -----------------------------------------------------------

BC_1 = castle.Deal.from_number(BC, 1).to_text()
SA_1 = castle.Deal.from_number(SA, 1).to_text()
CITADEL_1 = castle.Deal.from_number(CITADEL, 1).to_text()
# BC_1: line 1 is "Foundations: H-A C-A D-A S-A", lines 2-9 the columns
# ("JD KD KS QH 8H 6C", "2D KC 9D 4H 2C 3D", "9H 9S QD 4D JH 8C", ...).
# SA_1: lines 1-8 the columns; the first ace is AD on line 5 ("5D AD JS 4H 8H 6C").
# CITADEL_1: "Foundations: H-2 C-2 D-3 S-4", then columns of 6, 3, 6, 6, 5, 6, 4 and 5 cards.


def _each_line(text: str, change: Callable[[str], str]) -> str:
    return "".join(change(line) + "\n" for line in text.splitlines())


SPELLINGS: dict[str, Callable[[str], str]] = {
    "10 for T": lambda t: re.sub(r"\bT([CDHS])\b", r"10\1", t),
    "lower case": str.lower,
    "': ' before columns": lambda t: _each_line(
        t, lambda line: line if line.startswith("Foundations") else ": " + line
    ),
    "':' before columns": lambda t: _each_line(
        t, lambda line: line if line.startswith("Foundations") else ":" + line
    ),
    "empty Freecells line": lambda t: "Freecells:\n" + t,
    "Freecells of dashes": lambda t: "Freecells: - - - -\n" + t,
    "blank lines": lambda t: "\n\n" + t.replace("\n", "\n\n") + "\n  \n",
    "trailing whitespace": lambda t: _each_line(t, lambda line: line + " \t "),
    "leading whitespace": lambda t: _each_line(t, lambda line: "  " + line),
    "tabs between cards": lambda t: t.replace(" ", "\t"),
    "CRLF": lambda t: t.replace("\n", "\r\n"),
    "no final newline": lambda t: t.rstrip("\n"),
    "suits in another order": lambda t: t.replace(
        "Foundations: H-A C-A D-A S-A", "Foundations: S-A D-A C-A H-A"
    ).replace("Foundations: H-2 C-2 D-3 S-4", "Foundations: S-4 D-3 C-2 H-2"),
}


@pytest.mark.parametrize("spelling", SPELLINGS)
@pytest.mark.parametrize(("variant", "text"), [(BC, BC_1), (SA, SA_1), (CITADEL, CITADEL_1)])
def test_accepted_spellings(variant: str, text: str, spelling: str) -> None:
    other = SPELLINGS[spelling](text)
    # Each spelling must change the text (S&A deals have no foundations line to reorder).
    assert other != text or (spelling == "suits in another order" and variant == SA)
    deal = castle.Deal.from_text(other, variant)
    assert deal == castle.Deal.from_number(variant, 1)
    assert deal.to_text() == text


@pytest.mark.parametrize(
    "foundations",
    ["Foundations: H-0 C-0 D-0 S-0", "Foundations:", "Foundations: H-0", "foundations: s-0 h-0"],
)
def test_empty_foundations_spelled_out(foundations: str) -> None:
    # H-0, or a suit left out, is an empty foundation.
    deal = castle.Deal.from_text(foundations + "\n" + SA_1, SA)
    assert deal == castle.Deal.from_number(SA, 1)
    assert deal.to_text() == SA_1


def test_missing_suit_is_an_empty_foundation() -> None:
    # Streets and Alleys with only the heart ace up; clubs, diamonds and spades not named.
    text = "Foundations: H-A\n" + SA_1.replace("7C KH AH 4D", "7C KH 4D")
    deal = castle.Deal.from_text(text, SA)
    assert deal.foundations == {"C": 0, "D": 0, "H": 1, "S": 0}
    assert deal.to_text() == text
    assert castle.Deal.from_text(text.replace("H-A", "H-A C-0 D-0 S-0"), SA) == deal


def test_empty_columns_are_colon_lines() -> None:
    # Everything on the foundations: 8 empty columns, each written as ':'.
    text = "Foundations: H-K C-K D-K S-K\n" + ":\n" * 8
    for variant in castle.VARIANTS:
        deal = castle.Deal.from_text(text, variant)
        assert deal.columns == [[]] * 8
        assert deal.to_text() == text


def test_foundation_rank_ten() -> None:
    text = "Foundations: H-T C-K D-K S-K\nJH QH\nKH\n" + ":\n" * 6
    deal = castle.Deal.from_text(text.replace("H-T", "h-10"), BC)
    assert deal.foundations["H"] == 10
    assert deal.to_text() == text


# --- bad input --------------------------------------------------------------------------------


def _on_line(text: str, lineno: int, old: str, new: str) -> str:
    """``text`` with ``old`` replaced by ``new`` on line ``lineno`` (1-based)."""
    lines = text.split("\n")
    assert old in lines[lineno - 1], (old, lines[lineno - 1])
    lines[lineno - 1] = lines[lineno - 1].replace(old, new, 1)
    return "\n".join(lines)


# (text, variant, line, token, what the message says)
BAD_PLACED = {
    "unknown card": (_on_line(BC_1, 4, "QD", "ZZ"), BC, 4, "ZZ", "not a card"),
    "duplicate card": (_on_line(BC_1, 6, "QC", "JD"), BC, 6, "JD", "duplicate"),
    "card on its foundation and in a column": (
        _on_line(BC_1, 1, "H-A", "H-2"),
        BC,
        8,
        "2H",
        "also on its foundation",
    ),
    "ace in the tableau (beleaguered-castle)": (SA_1, BC, 5, "AD", "aces start on the foundations"),
    "ace in the tableau (citadel)": (SA_1, CITADEL, 5, "AD", "aces start on the foundations"),
    "one ace not up (beleaguered-castle)": (
        _on_line(_on_line(BC_1, 1, " S-A", ""), 9, "6H", "6H AS"),
        BC,
        9,
        "AS",
        "aces start on the foundations",
    ),
    "free cell with a card": (
        _on_line(BC_1, 1, "S-A", "S-A\nFreecells: - 5H"),
        BC,
        2,
        "5H",
        "no free cells",
    ),
    "suit named twice": (_on_line(BC_1, 1, "S-A", "S-A H-2"), BC, 1, "H-2", "named twice"),
    "second foundations line": (
        BC_1 + "Foundations: H-A\n",
        BC,
        10,
        "Foundations: H-A",
        "second foundations line",
    ),
    "line numbers count blank lines and CRLF": (
        "\r\n\r\n" + _on_line(SA_1, 3, "9D", "9X").replace("\n", "\r\n"),
        SA,
        5,
        "9X",
        "not a card",
    ),
}


@pytest.mark.parametrize("case", BAD_PLACED)
def test_bad_input_names_line_and_token(case: str) -> None:
    text, variant, line, token, message = BAD_PLACED[case]
    with pytest.raises(castle.BoardError) as info:
        castle.Deal.from_text(text, variant)
    error = info.value
    assert isinstance(error, ValueError)
    assert (error.line, error.token) == (line, token)
    assert f"line {line}" in str(error)
    assert token in str(error)
    assert message in str(error)


@pytest.mark.parametrize(
    "token", ["1H", "11H", "KX", "TT", "AHH", "0H", "H", "K", "10", "J♦", "JD,", "-", "<JD>"]
)
def test_bad_card_tokens(token: str) -> None:
    with pytest.raises(castle.BoardError) as info:
        castle.Deal.from_text(_on_line(BC_1, 3, "KC", token), BC)
    assert (info.value.line, info.value.token) == (3, token)
    assert "line 3" in str(info.value)
    assert token in str(info.value)


@pytest.mark.parametrize(
    "token", ["HA", "H-", "-A", "X-A", "H-Z", "HH-A", "H-A-2", "H-1", "H-11", "H-AH", "AH", "-"]
)
def test_malformed_foundation_tokens(token: str) -> None:
    with pytest.raises(castle.BoardError) as info:
        castle.Deal.from_text(_on_line(BC_1, 1, "H-A", token), BC)
    assert (info.value.line, info.value.token) == (1, token)
    assert "line 1" in str(info.value)
    assert token in str(info.value)
    assert "not a foundation" in str(info.value)


# Errors about the whole text have no line: (text, variant, words the message must hold)
BAD_WHOLE = {
    "missing card": (_on_line(BC_1, 2, "JD ", ""), BC, ["missing", "JD"]),
    "missing column contents": (
        _on_line(BC_1, 3, "2D KC 9D 4H 2C 3D", ":"),
        BC,
        ["missing", "2D", "KC", "9D", "4H", "2C", "3D"],
    ),
    "7 columns": (BC_1.replace("5H 2S TS TH QS 6H\n", ""), BC, ["8 columns", "has 7"]),
    "9 columns": (SA_1 + ":\n", SA, ["8 columns", "has 9"]),
    "nothing": ("", CITADEL, ["8 columns", "has 0"]),
    "only blank lines": ("\n \n\r\n", BC, ["8 columns", "has 0"]),
    "only foundations": ("Foundations: H-K C-K D-K S-K\n", BC, ["8 columns", "has 0"]),
}


@pytest.mark.parametrize("case", BAD_WHOLE)
def test_bad_whole_text(case: str) -> None:
    text, variant, words = BAD_WHOLE[case]
    with pytest.raises(castle.BoardError) as info:
        castle.Deal.from_text(text, variant)
    assert isinstance(info.value, ValueError)
    assert (info.value.line, info.value.token) == (None, None)
    for word in words:
        assert word in str(info.value)


def test_unknown_variant_for_text() -> None:
    with pytest.raises(castle.VariantError):
        castle.Deal.from_text(BC_1, "spider")
    # Checked before the text: a bad text with a bad variant reports the variant.
    with pytest.raises(castle.VariantError):
        castle.Deal.from_text("nonsense", "spider")


# --- which variant a text is ------------------------------------------------------------------


def test_guess_ace_in_tableau_is_streets_and_alleys() -> None:
    deal = castle.Deal.from_text(SA_1)
    assert deal.variant == SA
    assert deal == castle.Deal.from_number(SA, 1)


def test_guess_one_ace_in_tableau_is_streets_and_alleys() -> None:
    # Three aces up, the fourth still in a column: only Streets and Alleys allows that.
    text = _on_line(_on_line(BC_1, 1, " S-A", ""), 9, "6H", "6H AS")
    assert castle.Deal.from_text(text).variant == SA


@pytest.mark.parametrize("text", [BC_1, CITADEL_1], ids=["beleaguered-castle", "citadel"])
def test_guess_no_ace_in_tableau_is_beleaguered_castle(text: str) -> None:
    # Citadel plays by the same rules, so its text reads as Beleaguered Castle.
    deal = castle.Deal.from_text(text)
    assert deal.variant == BC
    assert deal.to_text() == text


def test_streets_and_alleys_accepts_aces_up() -> None:
    # Asked for explicitly, Streets and Alleys takes a layout with the aces already up.
    assert castle.Deal.from_text(BC_1, SA).variant == SA


@pytest.mark.parametrize(
    ("text", "line", "token"),
    [
        ("AH \udcff", 1, "\\udcff"),
        ("# a comment\nKS Q\udcffH 4C\n", 2, "Q\\udcffH"),
        (BC_1.replace("KC", "KC\ud800", 1), BC_1[: BC_1.index("KC")].count("\n") + 1, "KC\\ud800"),
    ],
)
def test_a_lone_surrogate_is_a_board_error(text: str, line: int, token: str) -> None:
    # What Python makes of a byte that is not UTF-8: a UnicodeEncodeError from the core before.
    with pytest.raises(castle.BoardError, match="not text") as info:
        castle.Deal.from_text(text)
    assert (info.value.line, info.value.token) == (line, token)
    str(info.value).encode("utf-8")  # printable: the surrogate escaped


@pytest.mark.parametrize("index", [-1, -52, 52, 2**64, True, 1.0, "1", None])
def test_card_from_index_refuses_what_is_no_card(index: object) -> None:
    with pytest.raises(castle.BoardError, match="not a card index"):
        castle.Card.from_index(index)  # type: ignore[arg-type]


def test_a_card_reads_as_a_player_reads_it_and_writes_as_the_board_text() -> None:
    ten = castle.Card.parse("10d")
    assert (ten.face, str(ten)) == ("10♦", "TD")
    assert [c.face for c in castle.CARDS[39:]] == [
        "A♠",
        "2♠",
        "3♠",
        "4♠",
        "5♠",
        "6♠",
        "7♠",
        "8♠",
        "9♠",
        "10♠",
        "J♠",
        "Q♠",
        "K♠",
    ]


def test_card_from_index_takes_every_card() -> None:
    assert [castle.Card.from_index(i) for i in range(52)] == list(castle.CARDS)
    assert castle.Card.from_index(51) == castle.Card(13, "S")


@pytest.mark.parametrize(
    ("rank", "suit"),
    [
        (0, "S"),
        (14, "S"),
        (-1, "S"),
        (True, "S"),
        (1.0, "S"),
        (1, "X"),
        (1, ""),
        (1, "CD"),
        (1, "s"),
    ],
)
def test_a_card_is_one_of_the_52(rank: object, suit: object) -> None:
    with pytest.raises(castle.BoardError, match="not a card"):
        castle.Card(rank, suit)  # type: ignore[arg-type]


@pytest.mark.parametrize("token", ["\udcff", "A\udcff", "", "AS\x00"])
def test_card_parse_refuses_with_a_board_error(token: str) -> None:
    with pytest.raises(castle.BoardError, match="not a card"):
        castle.Card.parse(token)
