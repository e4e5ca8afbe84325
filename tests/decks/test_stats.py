"""Deck statistics: curves with the Loyalty surcharge (§9.3), X and – apart (§2.5), quests (§2.4), setup (§4)."""
from __future__ import annotations

import pytest

from decks.stats import deck_stats, setup_placeable


def test_stats_counts_by_type_faction_attribute_and_keywords(pool, legal):
    stats = deck_stats(dict(legal, spy=2, hermit=1, hidden=1), pool)
    assert stats["by_type"] == {"faction": 1, "destiny": 1, "quest": 7, "unit": 64}
    assert stats["by_faction"] == {"camelot": 61, "lefay": 2, "neutral": 1}
    assert stats["by_attribute"]["Knight"] == 64
    assert stats["keywords"] == {"Bound": 1, "Secret": 1}
    assert stats["draw"] == 64 and stats["total"] == 73


def test_s9_3_cost_curve_includes_the_loyalty_surcharge_of_off_faction_cards(pool, legal):
    base = deck_stats(legal, pool)["cost_curve"]
    stats = deck_stats(dict(legal, spy=3, **{"deed-lefay": 1}), pool)
    # Morgana's Spy: printed 2, Loyalty 2 -> 4 in a Camelot deck; Hex: printed 1, Loyalty 1 -> 2.
    assert stats["cost_curve"]["4"] == base["4"] + 3
    assert stats["cost_curve"]["2"] == base["2"] + 1
    assert stats["printed_cost_curve"]["2"] == base["2"] + 3
    assert stats["loyalty_surcharges"] == {"Morgana's Spy": 2, "Hex": 1}


def test_s2_5_x_and_dash_costs_are_kept_apart(pool, legal):
    stats = deck_stats(dict(legal, xknight=2, hidden=3, **{"att-x": 1}), pool)
    assert stats["cost_x"] == 3 and stats["cost_dash"] == 3
    assert sum(stats["cost_curve"].values()) == 60
    assert stats["power_x"] == 2


def test_power_curve_and_icon_coverage(pool):
    stats = deck_stats({"u01": 3, "u02": 2, "gawain-lot": 1, "loc1": 3}, pool)
    # Knight 1: power 1, guile. Knight 2: power 2, sorcery. Gawain, Son of Lot: power 5, combat.
    assert stats["power_curve"] == {"1": 3, "2": 2, "5": 1}
    assert stats["icons"]["guile"] == {"units": 3, "power": 3}
    assert stats["icons"]["sorcery"] == {"units": 2, "power": 4}
    assert stats["icons"]["combat"] == {"units": 1, "power": 5}
    assert stats["icons"]["faith"] == {"units": 0, "power": 0}
    assert stats["unique"] == 1


def test_s2_4_quest_totals_and_averages(pool):
    stats = deck_stats({"q1": 1, "q2": 1, "q3": 2}, pool)
    # q1: wealth 3, momentum 1, spoils 2, levy 6; q2: 4, 2, 1, 7; q3: 2, 3, 2, 5.
    assert stats["quests"]["count"] == 4
    assert stats["quests"]["totals"] == {"wealth": 11, "momentum": 9, "spoils": 7, "levy": 23}
    assert stats["quests"]["averages"] == {"wealth": 2.75, "momentum": 2.25, "spoils": 1.75, "levy": 5.75}
    assert deck_stats({}, pool)["quests"]["averages"]["wealth"] is None


def test_s4_setup_placeable_excludes_deeds_x_and_dash(pool):
    stats = deck_stats({"u01": 3, "deed1": 3, "xknight": 2, "hidden": 1, "loc1": 1, "att1": 1}, pool)
    assert stats["setup_placeable"] == 5
    assert not setup_placeable(pool.get("deed1")) and setup_placeable(pool.get("loc1"))


def test_unknown_cards_are_listed_not_counted(pool):
    stats = deck_stats({"u01": 3, "gone": 2}, pool)
    assert stats["unknown_cards"] == ["gone"] and stats["total"] == 3


def test_s4_opening_hand_odds_are_exact_hypergeometric(pool, legal):
    from math import comb

    from decks.stats import p_in_opening_hand

    assert p_in_opening_hand(3, 60) == 1 - comb(57, 7) / comb(60, 7)
    assert round(p_in_opening_hand(3, 60), 4) == 0.3154
    assert p_in_opening_hand(1, 60) == pytest.approx(7 / 60)
    assert p_in_opening_hand(0, 60) == 0.0 and p_in_opening_hand(5, 5) == 1.0
    odds = {row["code"]: row for row in deck_stats(dict(legal, spy=1), pool)["opening_hand"]}
    assert odds["u01"]["p"] == round(1 - comb(58, 7) / comb(61, 7), 4)
    assert odds["spy"]["copies"] == 1 and "q1" not in odds
