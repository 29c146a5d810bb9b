"""The game families (castle.family): each variant, deal and game class belongs to exactly one
family, and what a family answers agrees with the game it stands for."""

from __future__ import annotations

import castle
import pytest
from castle.errors import VariantError
from castle.family import (
    CASTLE,
    CELLS,
    FAMILIES,
    SPIDER,
    all_variants,
    autoplayed_variants,
    family_named,
    family_of,
    family_of_deal,
    played_variants,
    surveyed_variants,
)
from castle.game.played import Played


def test_every_variant_has_one_family() -> None:
    assert all_variants() == (*castle.VARIANTS, *castle.SPIDER_VARIANTS, *castle.CELLS_VARIANTS)
    for variant in all_variants():
        assert [f for f in FAMILIES if variant in f.variants] == [family_of(variant)]
    assert family_of("citadel") is CASTLE
    assert family_of("spider-2") is SPIDER
    assert family_of("freecell") is CELLS


def test_the_free_cell_games_are_solved_surveyed_and_played_not_autoplayed() -> None:
    assert played_variants() == (*castle.VARIANTS, *castle.SPIDER_VARIANTS, *castle.CELLS_VARIANTS)
    assert autoplayed_variants() == (*castle.VARIANTS, *castle.SPIDER_VARIANTS)
    assert surveyed_variants() == (*castle.VARIANTS, *castle.CELLS_VARIANTS)
    leveled = {level.variant for level in castle.LEVELS.values()}
    assert leveled >= set(castle.CELLS_VARIANTS)
    assert CELLS.last_deal("freecell") == 2**33 - 1
    assert CASTLE.last_deal("citadel") == castle.MAX_DEAL_NUMBER


def test_an_unknown_variant_is_refused_naming_them_all() -> None:
    with pytest.raises(VariantError, match=r"unknown variant .nonesuch.*spider-1.*freecell"):
        family_of("nonesuch")
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
    games = (castle.Game, castle.SpiderGame, castle.CellsGame)  # defined: in Played.KINDS
    for family in FAMILIES:
        if not family.plays:
            assert family.save_format not in Played.KINDS
            continue
        game = Played.KINDS[family.save_format]
        assert family.name == game.KIND
        assert family.variants == game.VARIANTS
    assert tuple(Played.KINDS[f.save_format] for f in (CASTLE, SPIDER, CELLS)) == games


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
    cells_deal = CELLS.deal("freecell", 617)
    solved = castle.solve(cells_deal)
    assert solved.status == "solved"
    texts = [CELLS.move_text(move, "->") for move in solved.moves]
    assert any(text.endswith(" -> foundation") for text in texts)
    assert any(" -> cell " in text for text in texts)
    assert texts[0] == f"{solved.moves[0].card}  {solved.moves[0].src} -> {solved.moves[0].dst}"
    assert CELLS.solution_json(cells_deal, solved) == solved.to_json(cells_deal)
