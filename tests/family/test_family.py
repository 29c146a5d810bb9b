"""The game families (castle.family): each variant, deal and game class belongs to exactly one
family, and what a family answers agrees with the game it stands for."""

from __future__ import annotations

import castle
import pytest
from castle.errors import VariantError
from castle.family import (
    CASTLE,
    FAMILIES,
    SPIDER,
    all_variants,
    family_named,
    family_of,
    family_of_deal,
)
from castle.game.played import Played


def test_every_variant_has_one_family() -> None:
    assert all_variants() == (*castle.VARIANTS, *castle.SPIDER_VARIANTS)
    for variant in all_variants():
        assert [f for f in FAMILIES if variant in f.variants] == [family_of(variant)]
    assert family_of("citadel") is CASTLE
    assert family_of("spider-2") is SPIDER


def test_an_unknown_variant_is_refused_naming_them_all() -> None:
    with pytest.raises(VariantError, match=r"unknown variant .freecell.*spider-1"):
        family_of("freecell")
    with pytest.raises(ValueError, match="no game family"):
        family_named("freecell")


def test_a_deal_is_of_its_family_and_the_family_deals_it() -> None:
    for family in FAMILIES:
        assert family_named(family.name) is family
        for variant in family.variants:
            deal = family.deal(variant, 7)
            assert family_of_deal(deal) is family
            assert deal == family.read_board(deal.to_text(), variant)
    assert family_of_deal("not a deal") is None


def test_each_family_names_its_game_class() -> None:
    games = (castle.Game, castle.SpiderGame)  # defined: entered in Played.KINDS
    for family in FAMILIES:
        game = Played.KINDS[family.save_format]
        assert family.name == game.KIND
        assert family.variants == game.VARIANTS
    assert (Played.KINDS[CASTLE.save_format], Played.KINDS[SPIDER.save_format]) == games


def test_the_family_solves_and_writes_its_moves() -> None:
    deal = SPIDER.deal("spider-1", 1)
    solution = castle.solve(deal, max_states=200_000)
    assert solution.status == "solved"
    texts = [SPIDER.move_text(move, "->") for move in solution.moves]
    assert "deal from the stock" in texts
    assert any(text.startswith("off: KS-AS from column ") for text in texts)
    castle_deal = CASTLE.deal("beleaguered-castle", 2)
    won = castle.solve(castle_deal)
    assert won.status == "solved"
    first = won.moves[0]
    assert CASTLE.move_text(first, "->").startswith(f"{first.card}  column {first.src + 1} -> ")
    assert CASTLE.solution_json(castle_deal, won) == won.to_json(castle_deal)
