"""A finished realms game is freed as soon as nothing refers to it (its cached views, which refer back to it, are
forgotten when it ends), instead of waiting for the cycle collector."""
from __future__ import annotations

from simulator.engines.realms import play_game
from tests.cycles import left_in_cycles


def test_goldfish_and_versus_games_leave_no_game_for_the_collector(decks):
    names = sorted(decks)
    for opponent in (None, decks[names[1]]):
        left = left_in_cycles(lambda: play_game(decks[names[0]], opponent, seed=5))
        assert not left & {"Game", "PlayerView"}, left
