"""Realms deck legality (CONTRACTS §7; 002 §2, §5, §17, §18) and decklist text (CONTRACTS §2).

Each error code is planted in a deck of its own; every starter deck is legal; the simplified format ignores
affiliation (002 §17); every problem is reported at once, each with its rule.
"""
from __future__ import annotations

import pytest

from cards.games.realms import bundled_pool, starter_files
from cards.games.realms.decklist import RealmsPool, export_decklist, parse_decklist
from cards.games.realms.legality import check_counts, check_deck, check_decklist_text

SUNWARD_LEADERS = "1x Queen Ysolde, the Sunward Crown\n1x Aldric Varrow, High Patriarch\n"
GENERAL_59 = "12x Farmstead\n12x Woodcutters' Camp\n20x Village Militia\n5x Iron Pit\n5x Pikemen\n5x Ambush\n"


@pytest.fixture(scope="module")
def pool():
    return bundled_pool()


def verdict(text, pool, fmt="standard"):
    return check_decklist_text(text, pool, fmt)


def codes(v):
    return [e.code for e in v.errors]


@pytest.mark.parametrize("path", starter_files(), ids=lambda p: p.stem)
def test_every_starter_is_legal_in_standard_and_simplified(path, pool):
    text = path.read_text(encoding="utf-8")
    v = verdict(text, pool)
    assert v.legal, [e.message for e in v.errors]
    assert v.warnings == []  # nothing in a starter is unplayable
    assert v.affiliation == path.stem and 1 <= v.counts["leaders"] <= 3
    assert 57 <= v.counts["cards"] - v.counts["leaders"] <= 59  # 002 §2: 57–59 regular cards plus the Leaders
    assert verdict(text, pool, "simplified").legal


@pytest.mark.parametrize("path", starter_files(), ids=lambda p: p.stem)
def test_starter_export_then_import_gives_the_same_deck(path, pool):
    counts = parse_decklist(path.read_text(encoding="utf-8"), pool).counts
    text = export_decklist(counts, pool, name=path.stem)
    assert text.startswith(f"# {path.stem}\n\nLeaders:\n")
    assert parse_decklist(text, pool).counts == counts


def test_a_small_legal_deck_and_the_verdict_json(pool):
    v = verdict(SUNWARD_LEADERS + GENERAL_59, pool)
    assert v.legal
    assert v.to_json() == {"legal": True, "errors": [], "warnings": [], "counts": {"cards": 61, "leaders": 2},
                           "affiliation": "sunward", "leaders": ["Queen Ysolde", "Aldric Varrow"],
                           "format": "standard"}


def test_bad_line(pool):
    v = verdict(SUNWARD_LEADERS + GENERAL_59 + "three Farmstead\n0x Farmstead\n-2 Farmstead\n", pool)
    bad = [e for e in v.errors if e.code == "bad_line"]
    assert [e.line for e in bad] == [9, 10, 11] and all(e.rule == "002 §18" for e in bad)
    assert "Write a count and a card" in bad[0].message and "count of 0" in bad[1].message
    assert "cannot be negative" in bad[2].message
    assert not v.legal


def test_unknown_card_suggests_the_closest_names(pool):
    v = verdict(SUNWARD_LEADERS + GENERAL_59 + "2x Farmsted\n", pool)
    (e,) = v.errors
    assert e.code == "unknown_card" and e.line == 9 and "Did you mean Farmstead" in e.message
    assert e.to_json()["line"] == 9


def test_ambiguous_card_needs_the_subtitle():
    cards = [{"code": "a1", "name": "Ser Caldwen", "subtitle": "Marshal of the Dawn", "type": "leader",
              "affiliation": "sunward"},
             {"code": "a2", "name": "Ser Caldwen", "subtitle": "the Old Lion", "type": "leader",
              "affiliation": "sunward"},
             {"code": "m1", "name": "Village Militia", "type": "warrior", "affiliation": None, "unlimited": True}]
    pool = RealmsPool(cards)
    v = verdict("1x Ser Caldwen\n59x Village Militia\n", pool)
    # The unread line leaves the deck without a Leader: that is reported too, after the line's problem.
    assert codes(v) == ["ambiguous_card", "deck_size", "leader_count"]
    e = v.errors[0]
    assert e.code == "ambiguous_card" and e.cards == ("Ser Caldwen, Marshal of the Dawn", "Ser Caldwen, the Old Lion")
    assert verdict("1x Ser Caldwen, the Old Lion\n59x Village Militia\n", pool).legal
    # The same name twice counts once toward the copy limit (002 §18 counts by name).
    v = check_counts({"a1": 3, "a2": 3, "m1": 54}, pool)
    assert codes(v) == ["leader_count", "copy_limit"]
    assert "(Ser Caldwen, Marshal of the Dawn and Ser Caldwen, the Old Lion share one name)" in v.errors[1].message


def test_deck_size_counts_the_leaders(pool):
    v = verdict(SUNWARD_LEADERS + GENERAL_59.replace("5x Ambush", "3x Ambush"), pool)
    (e,) = v.errors
    assert (e.code, e.rule) == ("deck_size", "002 §18, §2")
    assert e.message == "A deck needs at least 60 cards, counting its Leaders; this one has 59 (add 1)."
    assert verdict(SUNWARD_LEADERS + GENERAL_59.replace("5x Ambush", "4x Ambush"), pool).legal  # 2 + 58 = 60


@pytest.mark.parametrize("leaders,expected", [
    ("", "this one has 0 (none): add one"),
    (SUNWARD_LEADERS + "1x Ser Caldwen, Marshal of the Dawn\n1x Queen Ysolde\n", "this one has 4"),
])
def test_leader_count(pool, leaders, expected):
    v = verdict(leaders + GENERAL_59 + "2x Ambush\n", pool)
    assert "leader_count" in codes(v)
    e = next(e for e in v.errors if e.code == "leader_count")
    assert e.rule == "002 §2, §18" and expected in e.message


def test_leader_affiliation_and_simplified_format(pool):
    text = "1x Queen Ysolde\n1x Mother Orla\n" + GENERAL_59
    v = verdict(text, pool)
    assert codes(v) == ["leader_affiliation"]
    assert v.errors[0].rule == "002 §5" and v.affiliation is None
    assert ("Queen Ysolde, the Sunward Crown (The Sunward Throne), Mother Orla, Voice of the Old Trees (The Deepwood "
            "Kin)") in v.errors[0].message
    simple = verdict(text, pool, "simplified")
    assert simple.legal and simple.format == "simplified"  # 002 §17: affiliation is ignored


def test_copy_limit_and_unlimited(pool):
    v = verdict(SUNWARD_LEADERS + GENERAL_59.replace("5x Iron Pit", "6x Iron Pit").replace("5x Ambush", "4x Ambush"),
                pool)
    (e,) = v.errors
    assert (e.code, e.rule, e.cards) == ("copy_limit", "002 §18", ("Iron Pit",))
    assert "6 copies of Iron Pit (at most 5" in e.message
    # Farmstead, Woodcutters' Camp and Village Militia say UNLIMITED COPIES IN DECK: 12 and 20 copies are fine.
    assert verdict(SUNWARD_LEADERS + GENERAL_59, pool).legal
    # The limit holds in the simplified format too.
    assert "copy_limit" in codes(verdict(SUNWARD_LEADERS + GENERAL_59 + "6x Ember Bolt\n", pool, "simplified"))


def test_affiliation_each_off_affiliation_card(pool):
    text = SUNWARD_LEADERS + GENERAL_59 + "2x Lone Wolf\n1x Ember Bolt\n2x Oathsworn Knight\n"
    v = verdict(text, pool)
    assert codes(v) == ["affiliation", "affiliation"]
    assert {e.cards for e in v.errors} == {("Lone Wolf",), ("Ember Bolt",)}
    assert all(e.rule == "002 §5" for e in v.errors)
    lone = next(e for e in v.errors if e.cards == ("Lone Wolf",))
    assert lone.message.startswith("Lone Wolf (2 copies) belongs to The Deepwood Kin: this deck's Leaders are "
                                   "The Sunward Throne")
    assert verdict(text, pool, "simplified").legal


def test_every_problem_is_reported_at_once(pool):
    text = ("1x Queen Ysolde\n1x Mother Orla\n6x Iron Pit\n3x Lone Wolf\n2x Ember Bolt\n1x Nonesuch\nhello\n")
    v = verdict(text, pool)
    assert codes(v) == ["unknown_card", "bad_line", "deck_size", "leader_affiliation", "copy_limit",
                        "affiliation"]
    assert not v.legal and v.counts == {"cards": 13, "leaders": 2}
    assert all(e.to_json()["rule"].startswith("002 §") for e in v.errors)


def test_playability_warnings(pool):
    text = SUNWARD_LEADERS + GENERAL_59 + "1x Oathsworn Knight\n1x Rite of Dawn\n1x Harmony of Ash\n"
    v = verdict(text.replace("1x Harmony of Ash\n", ""), pool)
    assert v.legal
    assert [w.cards for w in v.warnings] == [("Oathsworn Knight",), ("Rite of Dawn",)]
    assert "needs a PATRIARCH" in v.warnings[1].message and "unlocks CAVALRY" in v.warnings[0].message
    simple = verdict(text, pool, "simplified")
    assert [w.cards for w in simple.warnings] == [("Rite of Dawn",), ("Harmony of Ash",)]  # no Worthy card


def test_check_deck_takes_card_dicts_and_refuses_bad_counts_and_formats(pool):
    militia = pool.get(pool.codes_for_name("Village Militia")[0])
    ysolde = pool.get(pool.codes_for_name("Queen Ysolde")[0])
    v = check_deck([(ysolde, 1), (militia, 59)])
    assert v.legal and v.counts == {"cards": 60, "leaders": 1}
    bad = check_deck([(ysolde, 1), (militia, 0)])
    assert codes(bad)[0] == "bad_line"
    assert codes(check_counts({"zz-1": 2}, pool))[0] == "unknown_card"
    with pytest.raises(ValueError, match="unknown format"):
        check_deck([], "modern")


def test_decklist_lines_in_every_accepted_form(pool):
    text = ("Deck: my list\n# a comment\n// another\nLeaders:\n1 Queen Ysolde\n"
            "Places:\n3 x Farmstead\nFarmstead x2\n1x \u2022 woodcutters\u2019 camp\n1x Iron Pit (FB)\n1x fb-004\n")
    parsed = parse_decklist(text, pool)
    assert parsed.ok
    by_name = {pool.get(c)["name"]: n for c, n in parsed.counts.items()}
    assert by_name == {"Queen Ysolde": 1, "Farmstead": 5, "Woodcutters' Camp": 1, "Iron Pit": 1, "Market Square": 1}
