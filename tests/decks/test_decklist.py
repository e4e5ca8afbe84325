"""Decklist text (CONTRACTS §2): the forms players paste, the canonical export, and bad input."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks.decklist import content_hash, export_decklist, parse_decklist
from decks.pool import CardPool


def parse(text, pool):
    return parse_decklist(text, pool)


@pytest.mark.parametrize("line", [
    "3x Knight 1", "3 Knight 1", "3 x Knight 1", "3X knight 1", "Knight 1 x3", "knight 1 X 3", "3x u01",
    "3x Knight 1 (CORE)", "3x Knight 1 (CORE) 12", "Knight 1 x3 (tst) 4", "  3x   KNIGHT   1  ", "3x \u2022 Knight 1",
])
def test_contracts_2_accepted_line_forms(pool, line):
    result = parse(line, pool)
    assert result.problems == []
    assert result.counts == {"u01": 3}


def test_contracts_2_apostrophes_and_case_are_ignored(pool):
    for text in ("2x Morgana's Spy", "2x MORGANA\u2019S SPY", "2x morgana\u2018s spy", "Morgana`s Spy x2"):
        assert parse(text, pool).counts == {"spy": 2}


def test_contracts_2_name_and_subtitle(pool):
    assert parse("1x Gawain, the Green Knight\n1x gawain, son of lot", pool).counts == {
        "gawain-green": 1, "gawain-lot": 1}


def test_contracts_2_same_card_on_several_lines_adds_up(pool):
    result = parse("1x Knight 1\nKnight 1 x1\n1 u01", pool)
    assert result.counts == {"u01": 3} and result.ok


def test_contracts_2_comments_headers_and_blank_lines_are_ignored(pool):
    text = "# my deck\n// note\n\nUnits:\nDeck: Camelot aggro\nAuthor: someone\n3x Knight 1\n\ufeff"
    result = parse(text, pool)
    assert result.counts == {"u01": 3} and result.ok


def test_contracts_2_name_without_subtitle_matching_several_cards_is_ambiguous(pool):
    result = parse("\n2x Gawain", pool)
    assert result.counts == {}
    (problem,) = result.problems
    assert problem.code == "ambiguous_card" and problem.line == 2
    assert set(problem.suggestions) == {"Gawain, the Green Knight", "Gawain, Son of Lot"}
    assert "Add the subtitle" in problem.message


def test_contracts_2_unknown_card_suggests_close_titles(pool):
    (problem,) = parse("3x Morgana's Spi", pool).problems
    assert problem.code == "unknown_card"
    assert problem.suggestions[0] == "Morgana's Spy"
    assert "Did you mean Morgana's Spy" in problem.message
    (problem,) = parse("3x Zzzzqqq", pool).problems
    assert problem.code == "unknown_card" and problem.suggestions == ()


@pytest.mark.parametrize("line,why", [
    ("0 Knight 1", "count of 0"),
    ("-2 Knight 1", "cannot be negative"),
    ("Knight 1 x-2", "cannot be negative"),
    ("1000000 Knight 1", "not a real count"),
    ("100x Knight 1", "not a real count"),
    ("9" * 200 + " Knight 1", "not a real count"),
    ("Knight", "cannot read"),
    ("3x", "cannot read"),
    ("x" * 400, "characters long"),
])
def test_contracts_2_bad_lines_say_why(pool, line, why):
    result = parse("1x Camelot\n" + line, pool)
    assert result.counts == {"fac-camelot": 1}
    (problem,) = result.problems
    assert problem.code == "bad_line" and problem.line == 2
    assert why in problem.message


def test_empty_text_and_binary_garbage_give_problems_not_crashes(pool):
    assert parse("", pool).counts == {} and parse("", pool).problems == []
    garbage = bytes(range(256)).decode("latin-1") * 20
    result = parse(garbage, pool)
    assert result.counts == {}
    assert all(p.code in ("bad_line", "unknown_card") for p in result.problems)


def test_many_bad_lines_are_capped_with_a_summary(pool):
    result = parse("\n".join(f"junk line {i}" for i in range(150)), pool)
    assert len(result.problems) == 101
    assert "50 more lines" in result.problems[-1].message


def test_contracts_2_export_is_canonical_and_grouped(pool, legal):
    deck = dict(legal, spy=2, loc1=1, att1=1, deed1=3, **{"gawain-lot": 1})
    text = export_decklist(deck, pool, name="Test")
    blocks = text.split("\n\n")
    assert [b.splitlines()[0] for b in blocks] == ["# Test", "Faction:", "Destiny:", "Quests:", "Units:",
                                                   "Locations:", "Attachments:", "Deeds:"]
    assert "1x Gawain, Son of Lot" in text and "3x Sudden Charge" in blocks[-1]
    assert parse(text, pool).counts == deck


def test_export_keeps_cards_missing_from_the_catalogue(pool):
    text = export_decklist({"u01": 3, "deleted-card": 2}, pool)
    assert "Unknown cards:\n2x deleted-card" in text


def test_export_of_reprints_names_the_printing():
    cards = [{"code": "a1", "name": "Excalibur", "type": "attachment", "faction": "camelot", "set": "core",
              "number": 1},
             {"code": "b7", "name": "Excalibur", "type": "attachment", "faction": "camelot", "set": "ext",
              "number": 7}]
    pool = CardPool.from_cards(cards)
    assert parse("2x Excalibur", pool).counts == {"a1": 2}  # the first printing
    assert parse("2x Excalibur (EXT) 7", pool).counts == {"b7": 2}
    text = export_decklist({"b7": 2}, pool)
    assert "2x Excalibur (EXT) 7" in text
    assert parse(text, pool).counts == {"b7": 2}


def test_content_hash_ignores_order_and_zero_counts():
    assert content_hash({"a": 1, "b": 2}) == content_hash({"b": 2, "a": 1, "c": 0})
    assert content_hash({"a": 1, "b": 2}) != content_hash({"a": 2, "b": 1})
    assert len(content_hash({})) == 64


# ---- property: export then import gives the same deck ------------------------------------------------------
_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz'\u2019 -", min_size=1, max_size=12).map(str.strip).filter(
    lambda w: w and w[0].isalpha())
_types = st.sampled_from(["faction", "destiny", "quest", "unit", "location", "attachment", "deed"])


@st.composite
def pools_and_decks(draw):
    n = draw(st.integers(1, 25))
    names = draw(st.lists(_words, min_size=1, max_size=8))
    cards = []
    for i in range(n):
        name = draw(st.sampled_from(names)).title()
        subtitle = draw(st.one_of(st.none(), _words))
        card = {"code": f"c{i}", "name": name, "subtitle": subtitle, "type": draw(_types), "faction": "camelot"}
        if draw(st.booleans()):
            card.update({"set": draw(st.sampled_from(["core", "ext"])), "number": draw(st.integers(1, 5))})
        cards.append(card)
    chosen = draw(st.lists(st.sampled_from([c["code"] for c in cards]), unique=True, min_size=1))
    deck = {code: draw(st.integers(1, 99)) for code in chosen}
    return cards, deck


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pools_and_decks())
def test_contracts_2_property_import_of_export_gives_the_same_deck(case):
    cards, deck = case
    pool = CardPool.from_cards(cards)
    result = parse_decklist(export_decklist(deck, pool), pool)
    assert result.problems == []
    assert result.counts == deck
