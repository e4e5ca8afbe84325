"""Realms opening hands (002 §8, §9): the exact figures against brute force over every deck order.

The brute force plays the procedure itself on each distinct order of a small deck — set 3 aside, draw 7, take
the Gift of Fate by the policy (those 7 to the discard pile, 7 new), then draw `plays_per_turn` a turn — and
counts; nothing of the formulas is reused. Orders of a multiset are all equally likely, so weighting each
distinct order by its multiplicity gives the exact chance.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from cards.games.realms.hands import (
    SET_ASIDE, DrawDeck, Group, MulliganPolicy, group_of, hands_report, mulligan_rate, p_at_least,
    row_probabilities, seen_by_turn,
)


def _card(code, ctype="warrior", cost=0, name=None):
    return {"code": code, "name": name or code.title(), "type": ctype, "cost": cost}


def _orders(kinds: dict[str, int]):
    """Every distinct order of a deck with these copies per kind (as position -> kind), each once."""
    n = sum(kinds.values())
    *named, last = list(kinds)
    order = [last] * n

    def place(i, free):
        if i == len(named):
            yield order
            return
        for chosen in combinations(free, kinds[named[i]]):
            for p in chosen:
                order[p] = named[i]
            yield from place(i + 1, [p for p in free if p not in chosen])
            for p in chosen:
                order[p] = last

    yield from place(0, list(range(n)))


def _brute(kinds, target_kinds, k, policy_kinds, threshold, seen):
    """Exact chances by enumeration: (p_opening, p_with_mulligan, [seen plain], [seen after mulligan], rate)."""
    total = 0
    opening = kept = mull = 0
    seen_plain = [0] * len(seen)
    seen_mull = [0] * len(seen)
    for order in _orders(kinds):
        total += 1
        rest = order[SET_ASIDE:]                       # 002 §8 step 3: three set aside, unseen
        hand = rest[:7]
        hits = sum(1 for c in hand if c in target_kinds)
        opening += hits >= k
        for i, m in enumerate(seen):
            seen_plain[i] += sum(1 for c in rest[:m] if c in target_kinds) >= k
        if sum(1 for c in hand if c in policy_kinds) < threshold:   # the Gift of Fate
            mull += 1
            after = rest[7:]                           # the first 7 went to the discard pile
            kept += sum(1 for c in after[:7] if c in target_kinds) >= k
            for i, m in enumerate(seen):
                seen_mull[i] += sum(1 for c in after[:m] if c in target_kinds) >= k
        else:
            kept += hits >= k
            for i, m in enumerate(seen):
                seen_mull[i] += sum(1 for c in rest[:m] if c in target_kinds) >= k
    f = lambda x: Fraction(x, total)  # noqa: E731
    return f(opening), f(kept), [f(x) for x in seen_plain], [f(x) for x in seen_mull], f(mull)


def _deck(kinds: dict[str, str | int]):
    """kinds: name -> copies; names starting with 'p' are Places."""
    entries = [(_card(name, "place" if name.startswith("p") else "warrior"), n) for name, n in kinds.items()]
    return entries, DrawDeck.build(entries)


@pytest.mark.parametrize("kinds,target,k,threshold", [
    # a target that is not a Place, a Place target, k = 2, a policy that needs 2 Places
    ({"wt": 2, "p": 3, "wx": 12}, {"wt"}, 1, 1),
    ({"pt": 2, "p": 2, "wx": 13}, {"pt"}, 1, 1),
    ({"wt": 2, "p": 3, "wx": 12}, {"wt"}, 2, 2),
    ({"pt": 1, "wt": 1, "p": 2, "wx": 13}, {"pt", "wt"}, 1, 1),   # a group of two cards, one of them a Place
])
def test_hands_opening_and_gift_of_fate_match_brute_force(kinds, target, k, threshold):
    entries, deck = _deck(kinds)
    policy = MulliganPolicy("min_places", threshold)
    seen = [7]
    p_open, p_kept, _, _, rate = _brute(kinds, target, k, {n for n in kinds if n.startswith("p")}, threshold, seen)
    row = row_probabilities(deck, frozenset(target), k, policy, seen)
    assert row["p_opening"] == pytest.approx(float(p_open), abs=1e-12)
    assert row["p_with_mulligan"] == pytest.approx(float(p_kept), abs=1e-12)
    assert float(mulligan_rate(deck, policy)) == pytest.approx(float(rate), abs=1e-12)


def test_hands_by_turn_match_brute_force_with_and_without_the_gift_of_fate():
    kinds = {"wt": 2, "p": 3, "wx": 15}  # 20 cards: 3 set aside, 7 drawn, 10 left (3 after a Gift of Fate)
    entries, deck = _deck(kinds)
    seen = seen_by_turn(4, 2)  # 7, 9, 11, 13
    policy = MulliganPolicy("min_places", 1)
    p_open, p_kept, plain, after, _ = _brute(kinds, {"wt"}, 1, {"p"}, 1, seen)
    row = row_probabilities(deck, frozenset({"wt"}), 1, policy, seen)
    assert row["p_seen_by_turn"][0] == pytest.approx(float(p_open))
    for got, want, m in zip(row["p_seen_by_turn"], plain, seen):
        assert got == pytest.approx(float(want), abs=1e-12), m
    # After a Gift of Fate only 20 - 17 = 3 cards are left: turn 2 (9 seen) is exact, turns 3-4 are not given.
    assert row["p_seen_by_turn_with_mulligan"][:2] == [pytest.approx(float(a), abs=1e-12) for a in after[:2]]
    assert row["p_seen_by_turn_with_mulligan"][2:] == [None, None]


def test_hands_three_cards_set_aside_change_nothing_002_s8():
    # The opening 7 chance is the plain hypergeometric over the whole draw deck, as if nothing were set aside.
    entries, deck = _deck({"wt": 3, "wx": 54})
    row = row_probabilities(deck, frozenset({"wt"}), 1, MulliganPolicy("none", 0), [7])
    assert row["p_opening"] == pytest.approx(1 - comb(54, 7) / comb(57, 7))
    assert row["p_opening"] == float(p_at_least(1, 57, 3, 7))


def test_hands_leaders_are_not_shuffled_into_the_draw_deck_002_s8():
    leader = {"code": "l1", "name": "Queen Ysolde", "type": "leader"}
    entries = [(leader, 3), (_card("wt"), 3), (_card("wx"), 54)]
    report = hands_report(entries, policy=MulliganPolicy("none", 0))
    assert report["deck_size"] == 57
    assert report["leaders"] == ["Queen Ysolde"]
    assert all(row["name"] != "Queen Ysolde" for row in report["cards"])
    wt = next(row for row in report["cards"] if row["name"] == "Wt")
    assert wt["p_opening"] == pytest.approx(1 - comb(54, 7) / comb(57, 7))


def test_hands_report_shape_groups_and_policy_description():
    farm = _card("p1", "place", 1, "Farmstead")
    keep = _card("p2", "place", 7, "Old Keep")  # a Starting Cost the 5 starting Gold cannot pay (002 §8)
    entries = [(farm, 10), (keep, 2), (_card("w1"), 30), (_card("i1", "intrigue"), 15)]
    places = group_of(entries, "t:place", lambda c: c["type"] == "place", k=2)
    report = hands_report(entries, groups=[places], turns=3, plays_per_turn=2)
    assert report["mode"] == "hands" and report["game"] == "realms"
    assert set(report) >= {"cards", "mulligan", "opening", "definitions", "seen_cards_by_turn"}
    row = report["cards"][-1]
    assert row["name"] == "t:place" and row["kind"] == "group" and row["copies"] == 12 and row["k"] == 2
    assert row["p_opening"] == pytest.approx(float(p_at_least(2, 57, 12, 7)))
    assert report["seen_cards_by_turn"] == [7, 9, 11]
    assert report["mulligan"]["policy"] == "take the Gift of Fate when the opening 7 holds no Place"
    assert report["mulligan"]["rate"] == pytest.approx(comb(45, 7) / comb(57, 7))
    opening = report["opening"]
    assert opening["by_type"]["place"]["copies"] == 12
    assert opening["by_type"]["place"]["mean"] == pytest.approx(7 * 12 / 57)
    assert sum(opening["by_type"]["warrior"]["distribution"].values()) == pytest.approx(1)
    assert sum(opening["by_type"]["place"]["distribution_kept"].values()) == pytest.approx(1)
    # The policy fires on no Place, so a kept hand has no Place only when the second 7 has none either.
    p0 = comb(45, 7) / comb(57, 7)
    assert opening["by_type"]["place"]["distribution_kept"]["0"] == pytest.approx(p0 * comb(38, 7) / comb(50, 7))
    assert opening["p_affordable_place"] == pytest.approx(1 - comb(47, 7) / comb(57, 7))


def test_hands_min_cards_policy_uses_the_given_group():
    entries, deck = _deck({"wt": 2, "wy": 3, "wx": 12})
    policy = MulliganPolicy.from_setting({"kind": "min_cards", "value": 1, "codes": ["wy"], "label": "Wy"})
    p_open, p_kept, _, _, rate = _brute({"wt": 2, "wy": 3, "wx": 12}, {"wt"}, 1, {"wy"}, 1, [7])
    row = row_probabilities(deck, frozenset({"wt"}), 1, policy, [7])
    assert row["p_with_mulligan"] == pytest.approx(float(p_kept), abs=1e-12)
    assert float(mulligan_rate(deck, policy)) == pytest.approx(float(rate), abs=1e-12)
    assert policy.describe() == "take the Gift of Fate when the opening 7 holds none of Wy"


@pytest.mark.parametrize("setting,message", [
    ("keep", "must be an object"),
    ({"kind": "sometimes"}, "mulligan.kind must be one of"),
    ({"kind": "min_places", "value": 9}, "from 0 to 7"),
    ({"kind": "min_cards", "codes": "abc"}, "list of card codes"),
])
def test_hands_bad_mulligan_settings_are_refused_with_a_message(setting, message):
    with pytest.raises(ValueError, match=message):
        MulliganPolicy.from_setting(setting)


def test_hands_bad_arguments_are_refused():
    entries, _ = _deck({"wx": 60})
    with pytest.raises(ValueError, match="turns"):
        hands_report(entries, turns=0)
    with pytest.raises(ValueError, match="plays_per_turn"):
        hands_report(entries, plays_per_turn=8)
    with pytest.raises(ValueError, match="k must be"):
        hands_report(entries, groups=[Group("g", frozenset({"wx"}), 0)])
    with pytest.raises(ValueError, match="at least 10"):
        hands_report(_deck({"wx": 9})[0])
