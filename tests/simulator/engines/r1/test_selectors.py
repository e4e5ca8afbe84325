"""Compiled selectors (selectors.py (op, value) pairs answered by Characteristics._ops_match) give the answers the
selector format defines (docs/engine-abilities.md, "Selectors")."""
from __future__ import annotations

import pytest

from simulator.engines.r1.game import FIELD
from simulator.engines.r1.selectors import _compile_selector_uncached, matches_printed
from simulator.engines.r1.state import Struggle

from .helpers import core_cards, field, make_deck, new_game, set_quest, starter_decks

_SELECTOR_KEYS = ("target", "affects", "controls", "opponent_controls", "count", "exhaust", "sacrifice", "each")


def _selectors(x, out: list) -> list:
    """Every selector dict in the core set's abilities (targets, static `affects`, conditions, costs, counts)."""
    if isinstance(x, dict):
        for k, v in x.items():
            if k in _SELECTOR_KEYS and isinstance(v, dict):
                out.append(v)
            _selectors(v, out)
    elif isinstance(x, list):
        for v in x:
            _selectors(v, out)
    return out


def test_every_core_selector_on_cards_out_of_play_answers_what_their_printed_card_says():
    """Out of play a card is ready, unmarked, in no struggle, with its printed keywords and Power: the compiled
    checks must agree with `matches_printed` for every selector of the core set and every starter card."""
    sels = _selectors([c.get("abilities") or [] for c in core_cards()], [])
    assert len(sels) > 50
    decks = starter_decks()
    names = sorted(decks)
    g = new_game(decks[names[0]], decks[names[1]])
    deck_cards = [i for p in (0, 1) for i in g.deck[p]]
    agree = disagree = matched = 0
    for sel in sels:
        for j in deck_cards:
            src = -1
            want = matches_printed(sel, g.cdef[j], j, src)
            got = g._match_props(sel, j, 0, src)
            if want == got:
                agree += 1
                matched += want
            else:
                disagree += 1
    assert disagree == 0
    assert matched > 100 and agree > matched   # both answers occur


def test_state_checks_read_exhaustion_emblems_counters_and_the_struggle():
    """`ready`/`exhausted`, `blanked`, `has_influence`, `participating`/`attacking`/`defending`, `not_self`
    and effective Power, checked against a board built for it."""
    g = new_game(make_deck(), make_deck())
    set_quest(g, 0)
    set_quest(g, 1)
    a = field(g, 0, "filler")
    b = field(g, 0, "filler", exhausted=True)
    d = field(g, 1, "filler")
    assert g.zone[a] == FIELD
    g.emb[b] = 1
    g.cnt[a] = 2
    m = g._match_props
    assert m({"ready": True}, a, 0, -1) and not m({"ready": True}, b, 0, -1)
    assert m({"exhausted": True}, b, 0, -1) and not m({"exhausted": True}, a, 0, -1)
    assert m({"blanked": True}, b, 0, -1) and m({"has_emblem": False}, a, 0, -1)
    assert m({"has_influence": True}, a, 0, -1) and not m({"has_influence": True}, b, 0, -1)
    assert m({"not_self": True}, a, 0, b) and not m({"not_self": True}, a, 0, a)
    assert m({"power_gte": 1, "power_lt": 2}, a, 0, -1) and not m({"power_gt": 1}, a, 0, -1)
    assert not m({"participating": True}, a, 0, -1) and m({"participating": False}, a, 0, -1)
    s = Struggle(0, 0)
    s.attackers.append(a)
    s.defenders.append(d)
    g.struggle = s
    assert m({"participating": True}, a, 0, -1) and m({"participating": True}, d, 1, -1)
    assert m({"attacking": True}, a, 0, -1) and not m({"attacking": True}, d, 1, -1)
    assert m({"participating": "defending"}, d, 1, -1) and not m({"participating": "defending"}, a, 0, -1)
    assert m({"defending": False}, a, 0, -1) and m({"participating": False}, b, 0, -1)
    assert g._select({"type": "unit", "participating": True, "controller": "any"}, 0, -1) == [a, d]


@pytest.mark.parametrize("sel, ops", [
    ({"type": "unit", "zone": "field", "controller": "you"}, 1),
    ({"attribute": ["Knight", "Lord"], "not_self": False}, 1),
    ({"keyword": "Haste", "icon": "combat", "cost_lte": 2}, 3),
])
def test_zone_controller_and_false_not_self_add_no_check(sel, ops):
    assert len(_compile_selector_uncached(sel)) == ops
