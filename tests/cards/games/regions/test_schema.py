"""The regions card schema (cards/games/regions/schema.py) and the shipped set (data/regions.json)."""
from __future__ import annotations

import json

import pytest

from cards.games.regions import DATA_FILE, load_default_set
from cards.games.regions.schema import (
    CardFileError, normalise_card, parse_card_file, set_errors,
)


def test_the_shipped_set_is_valid_and_complete():
    parsed = parse_card_file(DATA_FILE.read_text(encoding="utf-8"))
    assert parsed.errors == [] and parsed.game == "regions" and parsed.set_code == "hr"
    cards = parsed.cards
    by_type = {}
    for c in cards:
        by_type.setdefault(c["type"], []).append(c)
    heroes = by_type["hero"]
    assert len(heroes) >= 4
    for h in heroes:
        assert [s["level"] for s in h["skills"]] == [0, 1, 2, 3, 4, 5]
        assert sum(c["quantity"] for c in cards if c["hero"] == h["code"]) == 8      # 003 §1.1
    standing = [(c["name"], c["cost"]) for c in cards if c["pile"] == "standing"]
    assert sorted(standing, key=lambda x: x[1]) == [("Goods", 0), ("Aim", 1), ("Silver", 2), ("Worker", 3),
                                                    ("Shop", 4), ("Recognition", 5)]
    market = sum(c["quantity"] for c in cards if c["pile"] == "market")
    assert 36 <= market <= 44                                                          # "roughly 40"
    regions = sorted(by_type["region"], key=lambda c: c["order"])
    assert [r["short_name"] for r in regions] == ["Gig Harbour", "Atos", "Mangan's Landing", "Ios", "Pinehurst"]
    assert all(r["quest"]["text"] and r["quest"]["need"] for r in regions)
    # every type of 003 §6.2 is in the Market Deck, and the marks of §6.4 are used somewhere
    assert {c["type"] for c in cards if c["pile"] == "market"} == {"supplies", "citizen", "structure", "tactic"}
    whens = {a["when"] for c in cards for a in c["abilities"]}
    assert {"reveal", "finish", "static", "purchase", "contest", "hero"} <= whens
    assert any(a["white"] for c in cards for a in c["abilities"])
    assert any(a["may"] for c in cards for a in c["abilities"])
    assert any(a["requires"] for c in cards for a in c["abilities"])
    assert any(a["cost"] == "trash" for c in cards for a in c["abilities"])
    assert any(c["goods_only"] for c in cards)


@pytest.mark.parametrize("card, field, message", [
    ({"code": "X", "name": "A", "type": "citizen", "cost": 1, "health": 1, "pile": "market"}, "code", "a-z, 0-9"),
    ({"code": "x", "name": "", "type": "citizen", "cost": 1, "health": 1, "pile": "market"}, "name", "required"),
    ({"code": "x", "name": "A", "type": "unit", "cost": 1}, "type", "one of hero, region"),
    ({"code": "x", "name": "A", "type": "citizen", "pile": "market", "health": 1}, "cost", "needs its cost"),
    ({"code": "x", "name": "A", "type": "citizen", "cost": 1, "pile": "market"}, "health", "needs its Health"),
    ({"code": "x", "name": "A", "type": "supplies", "cost": 1, "pile": "market", "health": 2}, "health",
     "only Citizens, Structures and Tactics have a combat box"),
    ({"code": "x", "name": "A", "type": "citizen", "cost": 1, "health": 1, "goods": 2, "pile": "market"}, "goods",
     "only Supplies pay"),
    ({"code": "x", "name": "A", "type": "supplies", "cost": 1, "goods": 2, "goods_only": "gold",
      "pile": "market"}, "goods_only", "restricted Goods"),
    ({"code": "x", "name": "A", "type": "citizen", "cost": 1, "health": 1, "pile": "attic"}, "pile", "comes from"),
    ({"code": "x", "name": "A", "type": "citizen", "cost": 1, "health": 1, "pile": "starting"}, "hero",
     "names its Hero's code"),
    ({"code": "x", "name": "A", "type": "citizen", "cost": 1, "health": 1, "pile": "market", "colour": "red"},
     "colour", "unknown field"),
    ({"code": "x", "name": "A", "type": "citizen", "cost": 1, "health": 1, "pile": "market",
      "abilities": [{"when": "lunch", "effects": [{"draw": 1}]}]}, "abilities", "ability 1: 'when' must be one of"),
    ({"code": "x", "name": "A", "type": "tactic", "cost": 1, "health": 1, "pile": "market",
      "abilities": [{"when": "contest", "from": "hand", "effects": [{"draw": 1}]}]}, "abilities",
     "needs 'cost': 'discard'"),
    ({"code": "x", "name": "A", "type": "supplies", "cost": 1, "goods": 1, "pile": "market",
      "abilities": [{"when": "purchase", "effects": [{"goods": 1}]}]}, "abilities", "never sits in a Stack"),
    ({"code": "x", "name": "A", "type": "citizen", "cost": 1, "health": 1, "pile": "market",
      "abilities": [{"when": "reveal", "effects": [{"draw": 1, "goods": 1}]}]}, "abilities", "exactly one of"),
    ({"code": "x", "name": "A", "type": "citizen", "cost": 1, "health": 1, "pile": "market",
      "abilities": [{"when": "purchase", "effects": [{"pocket": 1}]}]}, "abilities", "pocket (capacity) is a static"),
    ({"code": "x", "name": "A", "type": "citizen", "cost": 1, "health": 1, "pile": "market",
      "abilities": [{"when": "finish"}]}, "abilities", "needs 'points'"),
    ({"code": "x", "name": "A", "type": "citizen", "cost": 1, "health": 1, "pile": "market",
      "abilities": [{"when": "hero", "requires": {"what": "friends", "at_least": 2}, "effects": [{"draw": 1}]}]},
     "abilities", "'requires' is"),
    ({"code": "x", "name": "H", "type": "hero", "skills": []}, "skills", "six steps"),
    ({"code": "x", "name": "R", "type": "region", "order": 1, "quest": {"phase": "lunch", "need": {}}}, "quest",
     "the Quest's phase"),
    ({"code": "x", "name": "R", "type": "region", "order": 1,
      "quest": {"phase": "hero", "need": {"spent": 3}}}, "quest", "Purchase Quest"),
    ({"code": "x", "name": "R", "type": "region", "quest": {"phase": "hero", "need": {"level": 3}}}, "order",
     "a Region needs its place in the row"),
])
def test_each_bad_field_is_named(card, field, message):
    _, errors = normalise_card(card)
    assert errors, card
    assert any(e.field == field and message in e.message for e in errors), [str(e) for e in errors]
    assert all(str(e).startswith(f"card {e.code!r}, field ") for e in errors)


def test_a_valid_card_gets_every_field():
    card, errors = normalise_card({"code": "x-1", "name": "Tower", "type": "structure", "cost": 3, "health": 4,
                                   "pile": "market",
                                   "abilities": [{"when": "static", "white": True, "effects": [{"pocket": 1}]}]})
    assert errors == []
    assert card["damage"] == 0 and card["quantity"] == 1 and card["goods"] is None and card["hero"] is None
    assert card["abilities"][0] == {"when": "static", "from": "stack", "white": True, "may": False, "cost": None,
                                    "requires": None, "effects": [{"pocket": 1}], "points": None}


def test_level_0_always_draws_4():
    hero = {"code": "h", "name": "H", "type": "hero",
            "skills": [{"level": lv, "abilities": []} for lv in range(6)]}
    _, errors = normalise_card(hero)
    assert any("Level 0 always draws 4" in e.message for e in errors)


def test_set_rules_name_the_card():
    cards = load_default_set()
    broken = [c for c in cards if c["name"] != "Shop"]                      # a standing pile missing
    broken = [dict(c, quantity=3) if c["code"] == "hr-011" else c for c in broken]   # a starting deck of 7 + 3
    msgs = [str(e) for e in set_errors(broken)]
    assert any("the standing pile Shop (cost 4)" in m for m in msgs)
    assert any("card 'hr-010', field 'hero': the starting deck of Corin Vale has 7 cards" in m for m in msgs)


def test_file_level_errors():
    with pytest.raises(CardFileError, match="line 1, column 2"):
        parse_card_file("{oops")
    with pytest.raises(CardFileError, match="not \"regions\""):
        parse_card_file(json.dumps({"set": {"code": "core", "name": "Core"}, "cards": []}))
    doc = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    doc["cards"].append(dict(doc["cards"][0]))
    parsed = parse_card_file(json.dumps(doc))
    assert [(e.code, e.field) for e in parsed.errors] == [("hr-001", "code")]
