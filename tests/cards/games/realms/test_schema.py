"""Realms card fields (CONTRACTS §7, docs/games/realms.md §13): each field's normalisation and its errors.

Every error names the card's code and the field, like r1's loader (`cards/cardfile.py`); a file with any error
loads nothing (the loader's job), so `parse_card_file` reports them all.
"""
from __future__ import annotations

import json

import pytest

from cards.cardfile import CardError, CardFileError
from cards.games.realms.abilities import check_abilities
from cards.games.realms.schema import card_to_json, normalise_card, parse_card_file, set_to_json

LEADER = {"code": "l-1", "name": "Queen Ysolde", "subtitle": "the Sunward Crown", "type": "leader",
          "affiliation": "sunward", "cv": 8, "tactics": ["front", "right"], "provides": {"gold": 2, "food": 2}}
PLACE = {"code": "p-1", "name": "Farmstead", "type": "place", "cost": 1, "cv": 3, "tactics": ["front"],
         "neighbor_count": 3, "provides": {"food": 2}}
WARRIOR = {"code": "w-1", "name": "Outriders", "type": "warrior", "cost": 2, "cv": 3,
           "tactics": ["left", "front", "right"], "consumes": {"food": 1}, "text": "CAVALRY."}
INTRIGUE = {"code": "i-1", "name": "Iron Sword", "type": "intrigue", "cost": 1, "keywords": ["EQUIPMENT", "Weapon"],
            "consumes": {"iron": 1}, "text": "EQUIPMENT \u2014 Weapon.\nThe equipped warrior gets +2 CV.",
            "abilities": [{"timing": "static", "affects": "host", "modify": {"cv": 2},
                           "text": "The equipped warrior gets +2 CV."}]}


def errors_of(card: dict) -> dict[str, str]:
    _, errors = normalise_card(card)
    for e in errors:
        assert isinstance(e, CardError) and e.code == (card.get("code") or "?")
    return {e.field: e.message for e in errors}


@pytest.mark.parametrize("base", [LEADER, PLACE, WARRIOR, INTRIGUE], ids=["leader", "place", "warrior", "intrigue"])
def test_schema_good_cards_have_no_errors_and_every_field(base):
    card, errors = normalise_card(base)
    assert errors == []
    assert set(card) == set(card_to_json(card))
    assert card_to_json(normalise_card(card_to_json(card))[0]) == card_to_json(card)  # export then load: no-op


def test_schema_normalises_to_canonical_forms():
    card, errors = normalise_card({**WARRIOR, "tactics": ["Right", "left"], "consumes": ["food", "Gold", "food"],
                                   "keywords": ["loner"], "affiliation": "General", "type": "Warrior",
                                   "text": "CAVALRY. Loner.\r\n"})
    assert errors == []
    assert card["tactics"] == ["left", "right"]                      # 002 §6: stored in the order left, front, right
    assert card["consumes"] == {"gold": 1, "food": 2, "timber": 0, "iron": 0}
    assert card["provides"] == {"gold": 0, "food": 0, "timber": 0, "iron": 0}
    assert card["keywords"] == ["Loner"] and card["affiliation"] is None and card["type"] == "warrior"
    assert card["warrior_type"] == "CAVALRY"                         # 002 §7.3: read from the action line
    assert card["text"] == "CAVALRY. Loner."
    leader, _ = normalise_card(LEADER)
    assert leader["neighbor_count"] == 4                             # 002 §7.1
    assert leader["unique"] is False and leader["unlimited"] is False and leader["abilities"] is None


@pytest.mark.parametrize("base,change,field,fragment", [
    (PLACE, {"code": "Bad Code"}, "code", "1-32 characters"),
    (PLACE, {"code": None}, "code", "required"),
    (PLACE, {"name": "  "}, "name", "required"),
    (PLACE, {"name": "x" * 101}, "name", "at most 100"),
    (PLACE, {"subtitle": 7}, "subtitle", "string"),
    (PLACE, {"type": "unit"}, "type", "one of leader, place, warrior, intrigue"),
    (PLACE, {"affiliation": "Sea Folk!"}, "affiliation", "a slug (lowercase letters and digits"),
    (PLACE, {"affiliation": 7}, "affiliation", "or null for a General card; not 7"),
    (PLACE, {"affiliation": "x" * 33}, "affiliation", "at most 32 characters"),
    (LEADER, {"affiliation": None}, "affiliation", "a Leader always has an affiliation (002 §7.1)"),
    (PLACE, {"unique": "yes"}, "unique", "true or false"),
    (PLACE, {"unlimited": 1}, "unlimited", "true or false"),
    (PLACE, {"cost": -1}, "cost", "the Starting Cost must be between 0 and 20"),
    (PLACE, {"cost": "X"}, "cost", "whole number"),
    (LEADER, {"cost": 2}, "cost", "no Starting Cost (002 §7.1, §8)"),
    (PLACE, {"cv": None}, "cv", "required for a place"),
    (PLACE, {"cv": 31}, "cv", "between 0 and 30"),
    (INTRIGUE, {"cv": 2}, "cv", "Intrigues have no Combat Value (002 §7.4)"),
    (PLACE, {"tactics": []}, "tactics", "one, two or three Tactic icons (002 §6)"),
    (PLACE, {"tactics": ["north"]}, "tactics", "the three directions are left, front, right"),
    (PLACE, {"tactics": ["left", "left"]}, "tactics", "listed twice"),
    (INTRIGUE, {"tactics": ["left"]}, "tactics", "Intrigues have no Tactic icons"),
    (PLACE, {"provides": {"wood": 1}}, "provides", "unknown resource 'wood'"),
    (PLACE, {"provides": {"food": 6}}, "provides", "at most 5 icons"),
    (PLACE, {"consumes": {"food": -1}}, "consumes", "at least 0"),
    (PLACE, {"consumes": "food"}, "consumes", "an object like"),
    (LEADER, {"consumes": {"food": 1}}, "consumes", "always blue (002 §7.1)"),
    (LEADER, {"provides": {}}, "provides", "always has blue resource icons"),
    (PLACE, {"neighbor_count": None}, "neighbor_count", "required for a Place"),
    (PLACE, {"neighbor_count": 5}, "neighbor_count", "between 1 and 4"),
    (LEADER, {"neighbor_count": 3}, "neighbor_count", "a Leader's Neighbor Count is 4 (002 §7.1)"),
    (WARRIOR, {"neighbor_count": 2}, "neighbor_count", "only Leaders and Places"),
    (WARRIOR, {"text": "", "warrior_type": None}, "warrior_type", "required for a Warrior"),
    (WARRIOR, {"warrior_type": "ARCHER"}, "warrior_type", "one of INFANTRY"),
    (WARRIOR, {"warrior_type": "INFANTRY"}, "warrior_type", "the action line starts with CAVALRY"),
    (PLACE, {"warrior_type": "INFANTRY"}, "warrior_type", "only Warriors"),
    (INTRIGUE, {"keywords": ["EQUIPMENT", "Shield"]}, "keywords", "unknown keyword 'Shield'"),
    (INTRIGUE, {"keywords": ["EQUIPMENT", "RITUAL"]}, "keywords", "at most one of"),
    (INTRIGUE, {"keywords": ["RITUAL", "Weapon"]}, "keywords", "only goes with EQUIPMENT"),
    (INTRIGUE, {"keywords": ["EQUIPMENT", "Weapon", "Armor"]}, "keywords", "not both"),
    (PLACE, {"keywords": ["PROPHECY"]}, "keywords", "is an Intrigue keyword"),
    (PLACE, {"keywords": ["Loner"]}, "keywords", "only Warriors are Loners"),
    (INTRIGUE, {"keywords": ["EQUIPMENT", "Worthy"]}, "keywords", "goes on Leaders, Places and Warriors"),
    (INTRIGUE, {"keywords": [], "consumes": {"iron": 1}}, "consumes", "never meets Resource Balancing"),
    (INTRIGUE, {"keywords": ["ART SPELL"], "provides": {"gold": 1}, "consumes": {}}, "provides", "ART SPELL"),
    (INTRIGUE, {"keywords": ["PROPHECY"]}, "consumes", "for the rest of the game"),
    (PLACE, {"unlocks": ["INFANTRY"]}, "unlocks", "CAVALRY or VEHICLE"),
    (WARRIOR, {"unlocks": ["CAVALRY"]}, "unlocks", "only Places unlock cards"),
    (INTRIGUE, {"abilities": {"timing": "static"}}, "abilities", "must be a list"),
    (INTRIGUE, {"abilities": [{"timing": "sometimes", "effects": []}]}, "abilities", "abilities[0].timing"),
    (PLACE, {"flavor": 3}, "flavor", "string"),
    (PLACE, {"number": -2}, "number", "between 0 and 100000"),
    (PLACE, {"colour": "red"}, "colour", "unknown field"),
])
def test_schema_each_field_error(base, change, field, fragment):
    errors = errors_of({**base, **change})
    assert field in errors, errors
    assert fragment in errors[field]


def test_schema_errors_name_the_card_and_keep_going():
    card, errors = normalise_card({"code": "x-9", "name": "", "type": "place", "cv": "high", "tactics": ["up"]})
    fields = {e.field for e in errors}
    assert {"name", "cv", "tactics", "neighbor_count"} <= fields
    assert all(str(e).startswith("card 'x-9', field ") for e in errors)
    assert normalise_card("not a card")[1][0].field == "card"


@pytest.mark.parametrize("ability,fragment", [
    ({"timing": "static"}, "needs modify, grant or rule"),
    ({"timing": "static", "modify": {"power": 1}}, "unknown modifier 'power'"),
    ({"timing": "static", "affects": "friend", "modify": {"cv": 1}}, "unknown reference 'friend'"),
    ({"timing": "static", "modify": {"cv": {"op": "modulo", "value": 2}}}, "unknown op 'modulo'"),
    ({"timing": "static", "modify": {"cv": {"op": "divide", "value": 0}}}, "at least 1"),
    ({"timing": "static", "rule": {"be_raided": "rarely"}}, "unknown mode 'rarely'"),
    ({"timing": "static", "rule": {"fly": "can"}}, "unknown rule 'fly'"),
    ({"timing": "play", "effects": []}, "non-empty list of effects"),
    ({"timing": "play", "effects": [{"gain_influence": 1}]}, "unknown effect 'gain_influence'"),
    ({"timing": "play", "effects": [{"draw": 1, "until": "turn"}]}, "draw takes no 'until'"),
    ({"timing": "play", "effects": [{"kill": "target"}]}, 'no target selector'),
    ({"timing": "play", "target": {"colour": "red"}, "effects": [{"kill": "target"}]}, "unknown selector key"),
    ({"timing": "play", "effects": [{"modify_cv": 1, "until": "forever"}]}, "unknown duration 'forever'"),
    ({"timing": "trigger", "effects": [{"draw": 1}]}, "a trigger needs when"),
    ({"timing": "trigger", "when": {"event": "dies", "as": "attacker"}, "effects": [{"draw": 1}]},
     "dies takes no filter 'as'"),
    ({"timing": "action", "when": {"event": "dies"}, "effects": [{"draw": 1}]}, "only trigger abilities"),
    ({"timing": "action", "cost": [{"pay_wealth": 1}], "effects": [{"draw": 1}]}, "unknown cost 'pay_wealth'"),
    ({"timing": "action", "condition": {"influence_gte": 3}, "effects": [{"draw": 1}]}, "unknown condition"),
    ({"timing": "action", "condition": {"min": 2}, "effects": [{"draw": 1}]}, "min and max go with controls"),
    ({"timing": "action", "limit": 0, "effects": [{"draw": 1}]}, "uses per turn"),
])
def test_schema_abilities_outside_the_format_are_refused(ability, fragment):
    problems = check_abilities([ability])
    assert problems and any(fragment in p for p in problems), problems
    errors = errors_of({**INTRIGUE, "abilities": [ability]})  # the loader refuses the card, naming the field
    assert errors["abilities"] == problems[0]


def _file(cards, game="realms"):
    return json.dumps({"set": {"code": "t", "name": "Test", "game": game}, "cards": cards})


def test_schema_card_file_collects_every_error_and_duplicate_codes():
    parsed = parse_card_file(_file([PLACE, {**PLACE, "name": "Farmstead Two"}, {**WARRIOR, "cv": None}]))
    assert [(e.code, e.field) for e in parsed.errors] == [("p-1", "code"), ("w-1", "cv")]
    assert parsed.set_code == "t" and len(parsed.cards) == 3


@pytest.mark.parametrize("text,fragment", [
    ("{", "not valid JSON"),
    ('{"cards": []}', '"set" must be an object'),
    (_file([], game=None), 'this is not a realms card file'),
    (_file([], game="r1"), "'r1'"),
    ("[1]", "expected an object"),
])
def test_schema_unreadable_files_are_refused_whole(text, fragment):
    with pytest.raises(CardFileError, match=fragment):
        parse_card_file(text, source="x.json")


def test_schema_set_to_json_round_trips():
    parsed = parse_card_file(_file([LEADER, PLACE, WARRIOR, INTRIGUE]))
    again = parse_card_file(json.dumps(set_to_json("t", "Test", parsed.cards)))
    assert again.errors == [] and again.cards == parsed.cards
