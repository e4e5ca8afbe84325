"""The speed paths of play_game give the same games as the plain one-decision-at-a-time protocol.

play_game hands the greedy policy shortcuts (wants_window, ability_filter, declare): each must only skip work,
never change a choice. These tests replay games with a shortcut switched off and compare whole GameResults.
"""
import pytest

from simulator.engines.r1 import Game, play_game
from simulator.engines.r1 import _policy_seed, result_of
from simulator.engines.r1.game import IllegalAction
from simulator.engines.r1.policies import make_policy

from .helpers import field, make_deck, new_game, set_quest, starter_decks


def _play(deck_a, deck_b, seed, policies=("greedy", "greedy"), declare=True, log=True):
    pols = [make_policy(policies[0], _policy_seed(seed, 0)), make_policy(policies[1], _policy_seed(seed, 1))]
    game = Game(deck_a, deck_b, seed=seed, log=log, autostart=False, policies=pols)
    if not declare:
        game.declare_hook = [None, None]
    game.play()
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


def _declare_with(g, p, picks, kind, elig, t, need_one):
    g.declare_hook[p] = lambda *a: picks
    return g._declared(kind, p, elig, t, need_one)


def test_declare_hook_rejects_an_illegal_declaration():
    """§6.2 S.1: a declaration must name distinct eligible units, at least one attacker; nothing changes."""
    deck = make_deck()
    g = new_game(deck, make_deck())
    set_quest(g, 0)
    set_quest(g, 1)
    u = field(g, 0, "filler")
    with pytest.raises(IllegalAction, match="attackers"):
        _declare_with(g, 0, [], "attackers", [u], 0, True)
    with pytest.raises(IllegalAction, match="defenders"):
        _declare_with(g, 1, [u, u], "defenders", [u], 0, False)
    with pytest.raises(IllegalAction):
        _declare_with(g, 1, [u + 1000], "defenders", [u], 0, False)
    assert _declare_with(g, 1, [], "defenders", [u], 0, False) == []
    assert g._pcache is None
