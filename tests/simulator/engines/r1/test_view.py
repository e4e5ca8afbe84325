"""A player's view (what that player may know, CONTRACTS §3 "Policies") and determinize (a whole game consistent
with it, for a search player)."""
import random

import pytest

from simulator.engines.r1 import Game
from simulator.engines.r1.game import DECK, FIELD, HAND, PlayerView
from simulator.engines.r1.policies import GreedyPolicy

from .helpers import starter_decks


def _midgame(seed=4, rounds=3, p_to_move=0):
    decks = starter_decks()
    g = Game(decks["camelot"], decks["lefay"], seed=seed, autostart=False,
             policies=(GreedyPolicy(1), GreedyPolicy(2)))
    g.play(stop=lambda game, dec: game.round_no >= rounds and dec.player == p_to_move and dec.kind == "window")
    assert not g.is_terminal()
    return g


def test_the_view_shows_own_hidden_zones_and_only_counts_of_the_opponents():
    g = _midgame()
    v = g.view(0)
    assert isinstance(v, PlayerView) and v.player == 0
    assert v.my_hand == g.hand[0] and v.my_secret == g.secret[0]
    assert v.hand_count(1) == len(g.hand[1]) and v.deck_count(1) == len(g.deck[1])
    assert v.deck_count(0) == len(g.deck[0]) and v.secret_count(1) == len(g.secret[1])
    assert not hasattr(v, "hand") and not hasattr(v, "deck") and not hasattr(v, "zone")
    assert g.hand[1]
    for i in g.hand[1] + g.deck[1] + g.deck[0]:
        assert v.zone_of(i) == -1          # neither the opponent's hand nor any deck
    for i in g.hand[0]:
        assert v.zone_of(i) == HAND
    for i in g.field[1]:
        assert v.zone_of(i) == FIELD and v.power(i) == g.power(i)
    text = v.state_text()
    assert text.split("\n")[2].count("?") == len(g.hand[1]) and text.split("\n")[1] == g.state_text().split("\n")[1]
    assert v.round_no == g.round_no and v.struggle is g.struggle and v.pool == g.pool


def test_determinize_keeps_what_the_player_knows_and_deals_the_rest_again():
    g = _midgame()
    v = g.view(0)
    rng = random.Random(9)
    codes = lambda gg, ids: sorted(gg.cdef[i].code for i in ids)  # noqa: E731
    opp_hands = set()
    for _ in range(6):
        d = v.determinize(rng)
        assert d.policies == [None, None] and d.logs is None
        # public zones, own hand and secret area, counts: as in the real game
        for p in (0, 1):
            assert [d.cdef[i].code for i in d.field[p]] == [g.cdef[i].code for i in g.field[p]]
            assert codes(d, d.discard[p]) == codes(g, g.discard[p])
            assert d.influence(p) == g.influence(p) and d.pool[p] == g.pool[p]
            assert len(d.hand[p]) == len(g.hand[p]) and len(d.deck[p]) == len(g.deck[p])
        assert [d.cdef[i].code for i in d.hand[0]] == [g.cdef[i].code for i in g.hand[0]]
        assert d.round_no == g.round_no and d.phase == g.phase
        assert d.pending.player == 0 and d.legal_actions() == g.legal_actions()
        # the unknown cards come from the opponent's decklist
        assert codes(d, d.hand[1] + d.deck[1] + d.secret[1]) == codes(g, g.hand[1] + g.deck[1] + g.secret[1])
        opp_hands.add(tuple(codes(d, d.hand[1])))
        # it plays on to the end through the decision interface, and clones
        c = d.clone()
        assert c.state_text() == d.state_text()
        pol = GreedyPolicy(3)
        while not d.is_terminal():
            d.apply_action(pol.choose(d.view(d.pending.player), d.pending))
        assert d.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert len(opp_hands) > 1   # the opponent's hand really is dealt again
    assert g.view(0).determinize(random.Random(1)).state_text() == g.view(0).determinize(random.Random(1)).state_text()


def test_determinize_never_moves_a_card_the_player_has_seen():
    g = _midgame(seed=7, rounds=4)
    v = g.view(1)
    own, theirs = v.unseen_groups()
    assert set(own) == set(g.deck[1])
    assert all(not g.seen[i] and g.owner[i] == 0 for i in theirs)
    assert not set(theirs) & {i for p in (0, 1) for i in g.field[p] + g.discard[p]}


def test_struggle_counters_count_each_initiated_struggle():
    """§6.2: initiated, won, unopposed and defended (S.6: at least one defender declared) per player and type."""
    decks = starter_decks()
    g = Game(decks["summer"], decks["lefay"], seed=0, autostart=False, log=True,
             policies=(GreedyPolicy(1), GreedyPolicy(2)))
    seen = []
    g.observer = lambda game, what, s: seen.append(s) if what == "struggle_end" else None
    g.play()
    if g.struggle is not None:
        seen.append(g.struggle)   # the game ended inside it (§12)
    for p in (0, 1):
        for t in range(4):
            mine = [s for s in seen if s.attacker == p and s.type == t]
            c = g.struggle_counts[p][t]
            assert c["initiated"] == len(mine)
            assert c["won"] == sum(1 for s in mine if s.winner == p)
            assert c["unopposed"] == sum(1 for s in mine if s.unopposed)
            assert c["defended"] == sum(1 for s in mine if s.declared_defenders)
            assert c["won_defending"] == sum(1 for s in seen if s.defender == p and s.type == t and s.winner == p)
    assert sum(g.struggle_counts[p][t]["defended"] for p in (0, 1) for t in range(4)) > 0
    assert sum(g.struggle_counts[p][t]["initiated"] for p in (0, 1) for t in range(4)) > 5
