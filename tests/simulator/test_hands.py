"""simulator/hands.py: exact hypergeometric tables, the §4 mulligan, and the Monte Carlo over best setups."""
import itertools
import math
import random
from fractions import Fraction

import pytest

from simulator.hands import (HandsDeck, MulliganPolicy, card_targets, exact_rows, hands_chunk, merge_hands,
                             p_at_least, p_at_least_exact, p_at_least_with_mulligan, seen_sizes)

from .cards import CAMELOT_LIST, draw_entries


def test_p_at_least_is_the_exact_hypergeometric_tail():
    assert p_at_least_exact(1, 60, 3, 7) == 1 - Fraction(math.comb(57, 7), math.comb(60, 7))
    assert p_at_least_exact(2, 60, 3, 7) == Fraction(math.comb(3, 2) * math.comb(57, 5) + math.comb(57, 4),
                                                     math.comb(60, 7))
    assert p_at_least(0, 60, 3, 7) == 1.0
    assert p_at_least(4, 60, 3, 7) == 0.0
    assert p_at_least(1, 60, 60, 7) == 1.0
    assert p_at_least(1, 10, 1, 50) == 1.0  # drawing more than the deck holds sees the whole deck


def test_s4_mulligan_effect_matches_enumeration_of_every_deal():
    # A 10-card deck with 2 special cards and 3-card hands: enumerate every opening hand and every redraw
    # from the other 7 cards (§4: the old hand is set aside while the new one is drawn).
    deck = ["x", "x"] + ["o"] * 8
    good = Fraction(0)
    hands = list(itertools.combinations(range(10), 3))
    for hand in hands:
        p_hand = Fraction(1, len(hands))
        if any(deck[i] == "x" for i in hand):
            good += p_hand
            continue
        rest = [i for i in range(10) if i not in hand]
        redraws = list(itertools.combinations(rest, 3))
        good += p_hand * Fraction(sum(any(deck[i] == "x" for i in r) for r in redraws), len(redraws))
    assert p_at_least_with_mulligan(1, 10, 2, hand=3) == float(good)


def test_seen_by_round_counts_opening_refill_and_two_per_draw_phase():
    # 7 opening + 3 drawn back after setup + 2 per Draw phase (§4, §5.2)
    assert seen_sizes(3, 3) == [12, 14, 16]
    row = exact_rows(card_targets([({"name": "A", "code": "a", "type": "unit"}, 3),
                                   ({"name": "B", "code": "b", "type": "unit"}, 57)]), 60, rounds=2,
                     setup_refill=0)[1]
    assert row["name"] == "A"
    assert row["p_seen_by_round"] == [p_at_least(1, 60, 3, 9), p_at_least(1, 60, 3, 11)]


def test_exact_tables_for_a_whole_deck_are_fast_enough_to_be_exact_not_sampled():
    draw = draw_entries(CAMELOT_LIST)
    rows = exact_rows(card_targets(draw), 60, rounds=10)
    assert len(rows) == 20 and all(0 < r["p_opening"] < r["p_with_mulligan"] <= 1 for r in rows)


@pytest.fixture(scope="module")
def camelot_deck():
    return HandsDeck.build(draw_entries(CAMELOT_LIST), "camelot")


def test_monte_carlo_agrees_with_the_exact_opening_probabilities(camelot_deck):
    part = hands_chunk(camelot_deck, 6000, random.Random(11), MulliganPolicy())
    exact = p_at_least(1, 60, 3, 7)
    se = math.sqrt(exact * (1 - exact) / 6000)
    for i in range(len(camelot_deck.cards)):
        seen = part["card_in_opening"].get(str(i), 0) / 6000
        assert abs(seen - exact) < 4.5 * se, camelot_deck.title(i)


def test_hands_chunk_counts_are_consistent(camelot_deck):
    part = hands_chunk(camelot_deck, 500, random.Random(3), MulliganPolicy("min_units", 3))
    assert part["samples"] == 500
    for key in ("budget", "units", "power", "icons", "placed", "final_units"):
        assert sum(part[key].values()) == 500
    assert part["sum_units"] == sum(int(k) * v for k, v in part["units"].items())
    assert all(int(k) <= 8 for k in part["budget"])  # §4: the budget is a cap
    # The policy mulligans exactly the hands whose best setup places fewer than 3 units.
    assert part["mulligans"] == sum(v for k, v in part["units"].items() if int(k) < 3)
    assert len(part["best"]) == 3 and part["best"][0]["score"] >= part["best"][-1]["score"]
    assert part["worst"][0]["score"] <= part["worst"][-1]["score"]


def test_never_mulligan_policy(camelot_deck):
    part = hands_chunk(camelot_deck, 200, random.Random(3), MulliganPolicy("none", 0))
    assert part["mulligans"] == 0 and part["final_units"] == part["units"]


def test_merge_is_exact_and_order_independent(camelot_deck):
    a = hands_chunk(camelot_deck, 300, random.Random(1), MulliganPolicy(), chunk=0)
    b = hands_chunk(camelot_deck, 200, random.Random(2), MulliganPolicy(), chunk=1)
    ab, ba = merge_hands([a, b]), merge_hands([b, a])
    assert ab == ba
    assert merge_hands([merge_hands([a]), b]) == ab
    assert ab["samples"] == 500 and ab["sum_power"] == a["sum_power"] + b["sum_power"]
    assert ab["units"] == {k: a["units"].get(k, 0) + b["units"].get(k, 0) for k in set(a["units"]) | set(b["units"])}


def test_same_seed_same_hands(camelot_deck):
    one = hands_chunk(camelot_deck, 300, random.Random(99), MulliganPolicy())
    two = hands_chunk(camelot_deck, 300, random.Random(99), MulliganPolicy())
    assert one == two
    assert hands_chunk(camelot_deck, 300, random.Random(98), MulliganPolicy()) != one


@pytest.mark.parametrize("setting, message", [
    ({"kind": "sometimes"}, "mulligan.kind"),
    ({"kind": "min_units", "value": -1}, "mulligan.value"),
    ("always", "mulligan must be an object"),
])
def test_bad_mulligan_policy_is_refused(setting, message):
    with pytest.raises(ValueError, match=message):
        MulliganPolicy.from_setting(setting)


def test_policy_is_stated_in_words():
    assert MulliganPolicy().describe() == "mulligan if the best setup places fewer than 2 units"


def test_s4_setup_budget_counts_the_destinys_bonus():
    from simulator.hands import setup_budget

    destiny = {"code": "d", "name": "D", "type": "destiny", "faction": "neutral",
               "abilities": [{"timing": "static", "affects": "you", "modify": {"setup_budget": 2}}]}
    conditional = {"code": "e", "name": "E", "type": "destiny", "faction": "neutral",
                   "abilities": [{"timing": "static", "affects": "you", "modify": {"setup_budget": 5},
                                  "condition": {"influence_lte": 3}}]}
    assert setup_budget([(destiny, 1)]) == 10
    assert setup_budget([(conditional, 1)]) == 8  # only unconditional bonuses are certain at setup
    units = [({"code": "u", "name": "U", "type": "unit", "faction": "camelot", "cost": 5, "power": 5}, 2)]
    assert HandsDeck.build(units, "camelot", budget=setup_budget([(destiny, 1)])).solver.best([0, 0]).power == 10
    assert HandsDeck.build(units, "camelot").solver.best([0, 0]).power == 5  # 5 + 5 > 8
