"""A finished game is freed as soon as nothing refers to it: nothing in it refers back to it.

Each game's views refer to the game, and the game keeps them; a finished game held only by such a loop would wait for
the cycle collector, whose passes over every game's objects cost about 3% of a goldfish game (docs/performance.md,
"A finished game is freed at once"). The game forgets its views when it ends.
"""
from simulator.engines.r1 import Game, play_game
from tests.cycles import left_in_cycles

from .helpers import starter_decks

ENGINE_KINDS = {"Game", "PlayerView", "GreedyPolicy", "GreedyV1Policy", "RandomPolicy", "Decision", "Struggle"}


def test_a_game_played_by_play_game_leaves_no_cycle_of_the_engine():
    decks = starter_decks()
    for policies in (("greedy", "greedy"), ("greedy-v1", "greedy-v1"), ("random", "greedy")):
        left = left_in_cycles(lambda: play_game(decks["camelot"], decks["winter"], seed=3, policies=policies))
        assert not left & ENGINE_KINDS, (policies, left)
    assert not left_in_cycles(lambda: play_game(decks["lefay"], None, seed=4)) & ENGINE_KINDS


def test_a_game_driven_by_actions_to_its_end_leaves_no_cycle_of_the_engine():
    decks = starter_decks()

    def drive():
        g = Game(decks["summer"], decks["keepers"], seed=5)
        g.view(0), g.view(1)   # views made, as the playtest table and the judge make them
        while not g.is_terminal():
            g.apply_action(g.legal_actions()[0])

    assert not left_in_cycles(drive) & ENGINE_KINDS
