"""The speed paths of play_game give the same games as the plain one-decision-at-a-time protocol.

play_game hands the greedy policy shortcuts (wants_window, ability_filter, declare): each must only skip work,
never change a choice. These tests replay games with a shortcut switched off and compare whole GameResults.
"""
import pytest

from simulator.engine import Game, play_game
from simulator.engine import _policy_seed, result_of
from simulator.engine.game import IllegalAction
from simulator.engine.policies import make_policy

from .helpers import field, make_deck, new_game, set_quest, starter_decks


def _play(deck_a, deck_b, seed, policies=("greedy", "greedy"), declare=True, log=True):
    pols = [make_policy(policies[0], _policy_seed(seed, 0)), make_policy(policies[1], _policy_seed(seed, 1))]
    game = Game(deck_a, deck_b, seed=seed, log=log, autostart=False)
    game.fast_pass = [getattr(p, "wants_window", None) for p in pols]
    game.ability_filter = [getattr(p, "ability_filter", None) for p in pols]
    if declare:
        game.declare_hook = [getattr(p, "declare", None) for p in pols]
    gen = game._gen
    try:
        dec = next(gen)
        while True:
            game._pcache = {}
            a = pols[dec.player].choose(game, dec)
            game._pcache = None
            dec = gen.send(a)
    except StopIteration:
        pass
    return result_of(game)


@pytest.mark.parametrize("seed", range(6))
def test_declare_hook_gives_the_same_games_as_one_decision_per_unit(seed):
    """§6.2 S.3 / S.6 declarations made in one call equal the per-unit attacker/defender decisions."""
    decks = starter_decks()
    names = sorted(decks)
    a, b = names[seed % len(names)], names[(seed * 3 + 1) % len(names)]
    with_hook = _play(decks[a], decks[b], seed)
    without = _play(decks[a], decks[b], seed, declare=False)
    assert with_hook == without
    assert with_hook == play_game(decks[a], decks[b], seed=seed, log=True)
    gold = _play(decks[a], None, seed)
    assert gold == _play(decks[a], None, seed, declare=False)
    assert sum(w[0] for w in gold.struggles_won_by_round) > 0   # struggles were fought


def test_declare_hook_rejects_an_illegal_declaration():
    """§6.2 S.1: a declaration must name distinct eligible units, at least one attacker; nothing changes."""
    deck = make_deck()
    g = new_game(deck, make_deck())
    set_quest(g, 0)
    set_quest(g, 1)
    u = field(g, 0, "filler")
    with pytest.raises(IllegalAction, match="attackers"):
        g._declared(lambda *a: [], "attackers", 0, [u], 0, True)
    with pytest.raises(IllegalAction, match="defenders"):
        g._declared(lambda *a: [u, u], "defenders", 1, [u], 0, False)
    with pytest.raises(IllegalAction):
        g._declared(lambda *a: [u + 1000], "defenders", 1, [u], 0, False)
    assert g._declared(lambda *a: [], "defenders", 1, [u], 0, False) == []
    assert g._pcache is None
