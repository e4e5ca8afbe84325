"""Property tests over many random-policy games between the starter decks (and on the engine's own cards).

Checked at every decision: no exception, every card in exactly one zone, Influence never negative, no exhausted
unit offered as an attacker or defender. Checked right after each Toll phase's return-and-discard step: no
wealth left in any pool, every hand at or below its Levy. A few hundred games here; many more under `-m slow`.
"""
import itertools
from collections import Counter

import pytest

from simulator.engines.r1 import Game, play_game
from simulator.engines.r1.game import (
    DUP, FACTION, DESTINY, GONE, QUEST,
)
from simulator.engines.r1.policies import GreedyPolicy, RandomPolicy

from .helpers import starter_decks

LIST_ZONES = ("deck", "hand", "field", "discard", "dead", "secret", "qdeck", "qused", "out")


def check_zones(g: Game) -> None:
    seen = Counter()
    for name in LIST_ZONES:
        for p in (0, 1):
            for i in getattr(g, name)[p]:
                seen[i] += 1
                z = ("deck", "hand", "field", "discard", "dead", "secret", "qdeck", "qused", "out").index(name)
                assert g.zone[i] == z, f"{g.cdef[i].name} listed in {name} but zone {g.zone[i]}"
                holder = g.ctrl[i] if name == "field" else g.owner[i]
                assert holder == p, f"{g.cdef[i].name} in player {p}'s {name} but belongs to {holder}"
    for lst in g.dups.values():
        for i in lst:
            seen[i] += 1
            assert g.zone[i] == DUP
    for i in g.limbo:
        seen[i] += 1
    for p in (0, 1):
        for i in g.aside[p]:
            seen[i] += 1
    for i, z in enumerate(g.zone):
        if z in (FACTION, DESTINY):
            assert i in (g.faction_iid + g.destiny_iid)
            continue
        if z == QUEST:
            assert i in g.quest
            continue
        if z == GONE:
            assert seen[i] == 0
            continue
        assert seen[i] == 1, f"{g.cdef[i].name} (zone {z}) is in {seen[i]} zones"


def toll_observer(g: Game, what: str, phase: int) -> None:
    if what == "toll_done":
        assert g.pool == [0, 0], "wealth carried past Toll (§5.7)"
        for p in g.players():
            assert len(g.hand[p]) <= g.quest_stat(p, "levy"), "hand above Levy after Toll (§5.7)"


def run_checked_game(deck_a, deck_b, seed, policies=("random", "random")):
    pols = []
    for k, name in enumerate(policies):
        pols.append(RandomPolicy(seed * 2 + k) if name == "random" else GreedyPolicy())
    g = Game(deck_a, deck_b, seed=seed, observer=toll_observer, max_rounds=30)
    steps = 0
    while not g.is_terminal():
        dec = g.pending
        check_zones(g)
        assert g.infl[0] >= 0 and g.infl[1] >= 0 and g.influence(0) >= 0
        if dec.kind in ("attackers", "defenders"):
            t = dec.info
            for o in dec.options:
                if o[0] in ("attacker", "defender"):
                    assert not g.exh[o[1]], "an exhausted unit was offered for declaration (§6.5)"
                    assert g.cdef[o[1]].icons & (1 << t), "a unit without the icon was offered (§6.5)"
        g.apply_action(pols[dec.player].choose(g.view(dec.player), dec))
        steps += 1
        assert steps < 20000, "game does not end"
    check_zones(g)
    return g


PAIRS = list(itertools.product(["camelot", "eleven", "keepers", "lefay", "saracen", "summer", "winter"], repeat=2))


@pytest.mark.parametrize("a,b", PAIRS)
def test_random_games_between_starter_decks_keep_every_invariant(a, b):
    decks = starter_decks()
    for seed in range(4):
        g = run_checked_game(decks[a], decks[b], seed)
        assert g.reason in ("influence", "elimination", "round_limit")


@pytest.mark.parametrize("name", ["camelot", "eleven", "keepers", "lefay", "saracen", "summer", "winter"])
def test_greedy_against_random_and_goldfish_keep_every_invariant(name):
    decks = starter_decks()
    for seed in range(3):
        run_checked_game(decks[name], decks["winter"], seed, ("greedy", "random"))
        run_checked_game(decks[name], None, seed, ("greedy", "greedy"))


@pytest.mark.slow
@pytest.mark.parametrize("a,b", PAIRS)
def test_many_random_games_slow(a, b):
    decks = starter_decks()
    for seed in range(100, 125):
        run_checked_game(decks[a], decks[b], seed)


def test_same_seed_same_result_and_different_seeds_differ():
    decks = starter_decks()
    r1 = play_game(decks["camelot"], decks["winter"], seed=11, log=True)
    r2 = play_game(decks["camelot"], decks["winter"], seed=11, log=True)
    assert r1 == r2
    results = {tuple(map(tuple, play_game(decks["camelot"], decks["winter"], seed=s).influence_by_round))
               for s in range(8)}
    assert len(results) > 1


def test_clone_replays_to_the_same_state():
    decks = starter_decks()
    g = Game(decks["summer"], decks["lefay"], seed=3)
    pol = RandomPolicy(1)
    for _ in range(150):
        if g.is_terminal():
            break
        g.apply_action(pol.choose(g.view(g.pending.player), g.pending))
    c = g.clone()
    assert c.state_text() == g.state_text()
    assert c.legal_actions() == g.legal_actions()
    assert not g.is_terminal()
    a = g.legal_actions()[0]
    before, history = g.state_text(), list(g.history)
    c.apply_action(a)
    assert g.state_text() == before and g.history == history   # the copy shares nothing
    g.apply_action(a)
    assert c.state_text() == g.state_text() and c.legal_actions() == g.legal_actions()
    assert c.history == g.history


def _drive(g, pol):
    while not g.is_terminal():
        g.apply_action(pol.choose(g.view(g.pending.player), g.pending))


@pytest.mark.parametrize("seed", range(4))
def test_a_clone_of_a_play_game_driven_game_plays_on_identically(seed):
    """clone() replays every choice play_game's loop made, its shortcuts' answers included (wants_window,
    the ability filter, whole declarations): a copy taken in round 3 plays on like the original."""
    from simulator.engines.r1 import _policy_seed, result_of
    decks = starter_decks()
    names = sorted(decks)
    a, b = decks[names[seed % len(names)]], decks[names[(seed + 2) % len(names)]]
    pols = lambda: (GreedyPolicy(_policy_seed(seed, 0)), GreedyPolicy(_policy_seed(seed, 1)))  # noqa: E731
    g = Game(a, b, seed=seed, log=True, autostart=False, policies=pols())
    g.play(stop=lambda game, dec: game.round_no >= 3)
    assert not g.is_terminal() and g.round_no == 3
    assert any(type(e) is int for e in g.history) and any(type(e) is list for e in g.history)
    c = g.clone(policies=pols())
    assert c.state_text() == g.state_text() and c.legal_actions() == g.legal_actions()
    assert c.logs == g.logs
    g.play()
    c.play()
    assert c.state_text() == g.state_text()
    assert result_of(c) == result_of(g)
    # and driven the same way through apply_action, a clone of the clone too
    g2 = Game(a, b, seed=seed, autostart=False, policies=pols())
    g2.play(stop=lambda game, dec: game.round_no >= 2)
    c1, c2 = g2.clone(), g2.clone().clone()
    _drive(c1, RandomPolicy(seed))
    _drive(c2, RandomPolicy(seed))
    assert c1.state_text() == c2.state_text() and c1.returns() == c2.returns()


def test_apply_action_rejects_an_illegal_action_and_changes_nothing():
    from simulator.engines.r1 import IllegalAction
    decks = starter_decks()
    g = Game(decks["camelot"], decks["eleven"], seed=1)
    before = g.state_text()
    with pytest.raises(IllegalAction):
        g.apply_action(("teleport", 3))
    assert g.state_text() == before and g.history == []


def test_returns_and_terminal():
    decks = starter_decks()
    g = Game(decks["camelot"], None, seed=2)
    pol = GreedyPolicy()
    while not g.is_terminal():
        g.apply_action(pol.choose(g.view(g.pending.player), g.pending))
    assert g.legal_actions() == []
    assert g.returns() == [1.0, -1.0]


def _random_core_deck(rng):
    from simulator.engines.r1 import build_deck

    from .helpers import core_cards
    cards = core_cards()
    pick = lambda t: [c for c in cards if c["type"] == t]
    draw = [c for c in cards if c["type"] in ("unit", "location", "attachment", "deed")]
    return build_deck([(rng.choice(pick("faction")), 1), (rng.choice(pick("destiny")), 1)]
                      + [(q, 1) for q in rng.sample(pick("quest"), 7)]
                      + [(c, 3) for c in rng.sample(draw, 20)])


@pytest.mark.parametrize("seed", range(30))
def test_random_decks_from_the_whole_core_set_keep_every_invariant(seed):
    import random
    rng = random.Random(seed)
    policies = [("random", "random"), ("greedy", "random"), ("greedy", "greedy")][seed % 3]
    run_checked_game(_random_core_deck(rng), _random_core_deck(rng) if seed % 5 else None, seed, policies)


@pytest.mark.slow
def test_many_random_core_decks_slow():
    import random
    for seed in range(1000, 1600):
        rng = random.Random(seed)
        policies = [("random", "random"), ("greedy", "random"), ("greedy", "greedy")][seed % 3]
        run_checked_game(_random_core_deck(rng), _random_core_deck(rng) if seed % 5 else None, seed, policies)
