"""The First Banners set (`cards/games/realms/data/realms.json`): it loads clean and holds what the game needs.

What the set must hold: at least 120 original cards; at least four affiliations with at least two
Leaders each; Places; Warriors of several types; Intrigues of each kind; General cards; some UNLIMITED; rules text
the engine can run (docs/games/realms.md §14): every line of text that is not structural is one ability's text.
"""
from __future__ import annotations

import json
from collections import Counter

import pytest

from cards.games.realms import SET_FILE, bundled_cards
from cards.games.realms.abilities import INTRIGUE_KEYWORDS, WARRIOR_TYPES
from cards.games.realms.images import is_structural_line
from cards.games.realms.schema import AFFILIATIONS, intrigue_keyword, parse_card_file, set_to_json


@pytest.fixture(scope="module")
def parsed():
    return parse_card_file(SET_FILE.read_text(encoding="utf-8"), source=str(SET_FILE))


@pytest.fixture(scope="module")
def cards(parsed):
    return parsed.cards


def test_set_loads_clean_with_its_game(parsed):
    assert parsed.errors == []
    raw = json.loads(SET_FILE.read_text(encoding="utf-8"))
    assert raw["set"] == {"code": "fb", "name": "First Banners", "game": "realms"}  # CONTRACTS §7
    assert len(parsed.cards) >= 120
    assert len({c["code"] for c in parsed.cards}) == len(parsed.cards)
    assert len({c["name"] for c in parsed.cards}) == len(parsed.cards)  # one card per name: no accidental reprints


def test_set_export_then_load_is_a_no_op(parsed):
    exported = set_to_json(parsed.set_code, parsed.set_name, parsed.cards)
    assert json.loads(SET_FILE.read_text(encoding="utf-8")) == exported
    assert parse_card_file(json.dumps(exported)).cards == parsed.cards


def test_set_four_affiliations_each_with_leaders_places_warriors_and_intrigues(cards):
    by = Counter((c["affiliation"], c["type"]) for c in cards)
    for slug in AFFILIATIONS:
        assert by[(slug, "leader")] >= 2, slug
        assert by[(slug, "place")] >= 3 and by[(slug, "warrior")] >= 6 and by[(slug, "intrigue")] >= 5, slug
    assert len(AFFILIATIONS) >= 4
    general = [c for c in cards if c["affiliation"] is None]
    assert {c["type"] for c in general} == {"place", "warrior", "intrigue"}  # no General Leader (002 §7.1)


def test_set_has_every_warrior_type_and_intrigue_kind(cards):
    types = Counter(c["warrior_type"] for c in cards if c["type"] == "warrior")
    assert set(types) == set(WARRIOR_TYPES)
    kinds = Counter(intrigue_keyword(c) for c in cards if c["type"] == "intrigue")
    assert set(kinds) == {None, *INTRIGUE_KEYWORDS}
    slots = Counter(k for c in cards for k in c["keywords"] if k in ("Weapon", "Armor"))
    assert slots["Weapon"] >= 2 and slots["Armor"] >= 2
    assert any(not set(c["keywords"]) & {"Weapon", "Armor"} for c in cards if intrigue_keyword(c) == "EQUIPMENT")
    assert any("Loner" in c["keywords"] for c in cards) and any("Worthy" in c["keywords"] for c in cards)
    assert {u for c in cards for u in c["unlocks"]} == {"CAVALRY", "VEHICLE"}


def test_set_unique_and_unlimited_cards(cards):
    unlimited = [c for c in cards if c["unlimited"]]
    assert len(unlimited) >= 2
    assert all("UNLIMITED COPIES IN DECK." in c["text"] for c in unlimited)  # 002 §18: the card says it
    assert all("UNLIMITED" not in c["text"] for c in cards if not c["unlimited"])
    assert all(c["unique"] for c in cards if c["type"] == "leader")
    assert sum(c["unique"] for c in cards if c["type"] == "warrior") >= 5


def test_set_every_text_line_is_an_ability_or_a_field(cards):
    for c in cards:
        lines = [line for line in c["text"].split("\n") if line.strip() and not is_structural_line(line)]
        assert c["abilities"] is not None, c["name"]
        assert lines == [a["text"] for a in c["abilities"]], c["name"]


def test_set_action_line_and_keyword_lines_match_the_fields(cards):
    for c in cards:
        first = c["text"].split("\n")[0] if c["text"] else ""
        if c["type"] == "warrior":
            assert first.split(".")[0] == c["warrior_type"], c["name"]  # 002 §7.3
            assert ("Loner." in first) == ("Loner" in c["keywords"]), c["name"]
        kind = intrigue_keyword(c)
        if kind:
            assert first.startswith(kind), c["name"]
        for unlock in c["unlocks"]:
            assert f"Unlocks {unlock}." in c["text"]


def test_set_numbers_fit_the_rules(cards):
    for c in cards:
        if c["type"] == "leader":
            assert c["neighbor_count"] == 4 and not any(c["consumes"].values())  # 002 §7.1
            assert sum(c["provides"].values()) == 5 and 6 <= c["cv"] <= 9
        if c["type"] in ("place", "warrior"):
            assert c["cost"] is not None and c["cost"] <= 4
        if c["type"] == "warrior":
            assert 1 <= c["cv"] <= 6 and sum(c["consumes"].values()) >= 1, c["name"]  # every warrior has upkeep


def test_bundled_cards_carry_their_set_code():
    cards = bundled_cards()
    assert all(c["set"] == "fb" for c in cards)


@pytest.mark.processes
def test_the_realms_package_imports_no_django():
    """The seam and the engine plug these modules in from anywhere: they must not need Django settings."""
    import subprocess
    import sys

    code = ("import sys; import cards.games.realms.schema, cards.games.realms.legality, cards.games.realms.hands, "
            "cards.games.realms.images, cards.games.realms.decklist; print('django' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(SET_FILE.parents[4])})
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("module", ["abilities", "schema", "decklist", "legality", "hands", "images"])
def test_the_docstring_examples_hold(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"cards.games.realms.{module}"))
    assert result.failed == 0
