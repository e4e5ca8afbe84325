"""simulator/engines/r1/setup.py: the exact best opening board of a hand under §4."""
import random

import pytest

from simulator.engines.r1.setup import SetupSolver, setup_charge

from .bruteforce import brute_force_best
from .cards import CAMELOT_LIST, WINTER_LIST, by_name, draw_entries


def unit(code, cost, power, icons=("combat",), faction="camelot", **extra):
    return {"code": code, "name": extra.pop("name", code.title()), "type": "unit", "faction": faction,
            "cost": cost, "power": power, "icons": list(icons), **extra}


def solve(cards, hand, faction="camelot", budget=8):
    return SetupSolver(cards, faction, budget).best(hand)


def score(choice):
    return (choice.power, choice.units, len(choice.icons), choice.budget_used, len(choice.placed))


def test_s4_budget_is_eight_and_a_cap():
    cards = [unit("a", 5, 5), unit("b", 4, 4), unit("c", 3, 2)]
    choice = solve(cards, [0, 1, 2])
    # 5+4 = 9 does not fit; 5+3 (Power 7) beats 4+3 (Power 6).
    assert choice.placed == (0, 2)
    assert (choice.budget_used, choice.units, choice.power) == (8, 2, 7)


def test_s4_loyalty_surcharge_counts_against_the_budget():
    off = unit("off", 3, 4, faction="winter", loyalty=2)  # 3 + Loyalty 2 = 5 (§9.3)
    assert setup_charge(off, "camelot") == 5
    assert setup_charge(off, "winter") == 3
    cards = [off, unit("a", 4, 3)]
    choice = solve(cards, [0, 1])
    # Without the surcharge 3 + 4 = 7 would fit both; with it 5 + 4 = 9 > 8, so only the stronger one goes in.
    assert choice.placed == (0,) and choice.power == 4 and choice.budget_used == 5
    assert solve(cards, [0, 1], faction="winter").units == 2
    neutral = unit("n", 3, 3, faction="neutral", loyalty=2)
    assert setup_charge(neutral, "camelot") == 3  # Neutral cards pay no surcharge


def test_s2_5_cost_x_and_dash_and_deeds_cannot_be_placed():
    cards = [unit("x", "X", 3), unit("dash", "-", 3), {"code": "d", "name": "D", "type": "deed",
                                                       "faction": "camelot", "cost": 0}]
    choice = solve(cards, [0, 1, 2])
    assert choice.is_empty and choice.budget_used == 0


def test_s9_3_only_one_restricted_card_at_setup():
    cards = [unit("r1", 2, 3, keywords=["Restricted"]), unit("r2", 2, 3, keywords=["Restricted"]), unit("a", 1, 1)]
    choice = solve(cards, [0, 1, 2])
    assert choice.units == 2 and choice.power == 4
    two_copies = solve(cards, [0, 0])
    assert len(two_copies.placed) == 1


def test_s3_7_duplicates_of_a_unique_are_free():
    g = unit("g", 6, 5, unique=True, name="Gawain")
    g2 = unit("g2", 5, 4, unique=True, name="Gawain", subtitle="the Green Knight's Foe")
    cards = [g, g2, unit("a", 2, 2)]
    choice = solve(cards, [0, 1, 0, 2])
    # The 6-cost copy is real, the other two copies go under it for 0 (§3.7), and the 2-cost unit fits.
    assert choice.budget_used == 8 and choice.power == 7 and choice.units == 2
    assert len(choice.duplicates) == 2 and set(choice.placed) == {0, 1, 2, 3}


def test_s10_3_attachment_needs_a_unit_that_can_take_it():
    sword = {"code": "s", "name": "Sword", "type": "attachment", "faction": "camelot", "cost": 1,
             "abilities": [{"timing": "static", "affects": "host", "modify": {"power": 2}}]}
    guard = unit("guard", 3, 3, keywords=["No Attachments"])
    assert solve([sword], [0]).is_empty  # no unit to go on
    assert solve([sword, guard], [0, 1]).placed == (1,)  # the only unit rejects attachments
    knight_only = {"code": "b", "name": "Banner", "type": "attachment", "faction": "camelot", "cost": 1,
                   "abilities": [{"timing": "attach", "target": {"type": "unit", "attribute": "Knight"}}]}
    squire = unit("sq", 1, 1, attributes=["Knight"])
    archer = unit("ar", 1, 1)
    assert solve([knight_only, archer], [0, 1]).placed == (1,)
    assert solve([knight_only, squire], [0, 1]).placed == (0, 1)
    with_host = solve([sword, unit("a", 2, 2)], [0, 1])
    assert with_host.power == 4 and with_host.units == 1


def test_s10_9_hiding_a_secret_card_costs_two_more_and_adds_nothing_to_the_field():
    blade = unit("blade", 3, 2, keywords=["Secret (2)"])
    choice = solve([blade, unit("a", 4, 1)], [0, 1])
    # 3 + 4 = 7 in the field (Power 3) beats hiding the blade (3 + 2 = 5) plus the 4-cost.
    assert choice.power == 3 and choice.hidden == ()
    only = solve([blade, unit("b", 6, 1)], [0, 1], budget=8)
    assert only.power == 2 and only.units == 1


def test_best_prefers_power_then_units_then_icons():
    cards = [unit("big", 4, 4, icons=()), unit("a", 2, 2, icons=("combat",)), unit("b", 2, 2, icons=("faith",))]
    choice = solve(cards, [0, 1, 2], budget=6)
    # 4+2 and 2+2+... : Power 6 with two units (big + one small) beats Power 4; of those, one icon each.
    assert choice.power == 6 and choice.units == 2
    choice = solve(cards, [1, 2, 0], budget=4)
    assert choice.units == 2 and choice.icons == frozenset({"combat", "faith"})


def test_placed_positions_point_into_the_hand():
    cards = [unit("a", 1, 1), unit("b", 9, 9)]
    choice = solve(cards, [1, 0, 1, 0])
    assert choice.placed == (1, 3)


@pytest.mark.parametrize("decklist", [CAMELOT_LIST, WINTER_LIST], ids=["camelot", "winter"])
def test_solver_matches_brute_force_on_random_hands(decklist):
    entries = draw_entries(decklist)
    cards = [c for c, _ in entries]
    faction = "camelot" if decklist == CAMELOT_LIST else "winter"
    pile = [i for i, (_, n) in enumerate(entries) for _ in range(n)]
    solver = SetupSolver(cards, faction)
    rng = random.Random(7)
    for _ in range(150):
        hand = rng.sample(pile, 7)
        assert score(solver.best(hand)) == brute_force_best(cards, faction, hand), [cards[i]["name"] for i in hand]


def test_gawain_guard_and_sword():
    # A regression: the attachment bonus must count in the search bound.
    names = ["Blessed Sword", "Castle Guard", "Sellsword", "Clay Golem", "Knight's Banner", "Gawain", "Castle Guard"]
    cards = [by_name(n) for n in dict.fromkeys(names)]
    hand = [cards.index(by_name(n)) for n in names]
    choice = SetupSolver(cards, "camelot").best(hand)
    assert (choice.power, choice.units, choice.budget_used) == (9, 2, 8)


def test_the_cache_of_solved_hands_is_bounded(monkeypatch):
    cards = [unit(f"u{i}", 1, 1) for i in range(12)]
    solver = SetupSolver(cards, "camelot")
    monkeypatch.setattr(SetupSolver, "MAX_CACHED_HANDS", 5)
    for i in range(12):
        assert solver.best([i]).power == 1
    assert solver.cache_size() <= 5
