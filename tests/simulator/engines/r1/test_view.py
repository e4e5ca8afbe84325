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


def _expected_table(g, p):
    """What player p's view may show of each card id: its definition, or None where p may not see the card."""
    q = 1 - p
    hidden = set(g.deck[p]) | {i for z in (g.hand[q], g.deck[q], g.secret[q], g.aside[q]) for i in z if not g.seen[i]}
    d = g.pending
    if d is not None and d.player == p:
        hidden -= {x for o in d.options if type(o) is tuple for x in o if type(x) is int}
    return [None if i in hidden else c for i, c in enumerate(g.cdef)]


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_the_view_card_table_hides_exactly_the_cards_its_player_may_not_see(seed):
    """The view's cdef, as the game hands the same view out at each decision (game.view, play()), shows a card's
    definition where its player may see it and HIDDEN where not: its own deck, the opponent's unseen hand, deck, secret area and opening
    board; the cards its own decision names are shown (a Scout's look, a search)."""
    from simulator.engines.r1.view import HIDDEN

    decks = starter_decks()
    names = sorted(decks)
    g = Game(decks[names[seed % len(names)]], decks[names[(seed + 3) % len(names)]], seed=seed)
    views = (g.view(0), g.view(1))
    rng = random.Random(seed)
    while not g.is_terminal():
        for p in (0, 1):
            assert g.view(p) is views[p]
            seen = [None if c is HIDDEN else c for c in views[p].cdef]
            assert seen == _expected_table(g, p)
        g.apply_action(rng.choice(g.legal_actions()))
    assert HIDDEN.code == "hidden" and HIDDEN not in g.cdef


def test_a_scout_look_shows_the_card_only_while_its_player_decides():
    """§9.3 Scout: the card looked at is shown in the deciding player's view during that decision, hidden again
    once it stays in the deck."""
    from simulator.engines.r1.view import HIDDEN

    decks = starter_decks()
    for seed in range(40):
        g = Game(decks["camelot"], decks["lefay"], seed=seed)
        rng = random.Random(seed)
        while not g.is_terminal() and g.pending.kind != "scout":
            g.apply_action(rng.choice(g.legal_actions()))
        if g.is_terminal():
            continue
        d = g.pending
        i = d.info
        assert i in g.deck[d.player]
        v, other = g.view(d.player), g.view(1 - d.player)
        assert v.cdef[i] is g.cdef[i] and other.cdef[i] is HIDDEN
        g.apply_action(("top", i) if ("top", i) in d.options else d.options[0])
        v = g.view(d.player)
        if i in g.deck[d.player] and not (g.pending is not None and g.pending.player == d.player
                                            and any(i in o for o in g.pending.options if type(o) is tuple)):
            assert v.cdef[i] is HIDDEN
        return
    pytest.skip("no Scout decision in these games")
