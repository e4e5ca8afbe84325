"""A finished realms game is freed as soon as nothing refers to it (its cached views, which refer back to it, are
forgotten when it ends), instead of waiting for the cycle collector."""
from __future__ import annotations

import gc

from simulator.engines.realms import play_game


def _engine_objects_left_in_cycles(play) -> set[str]:
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        play()
        gc.collect()
        return {type(o).__name__ for o in gc.garbage} & {"Game", "PlayerView"}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


def test_goldfish_and_versus_games_leave_no_game_for_the_collector(decks):
    names = sorted(decks)
    assert _engine_objects_left_in_cycles(lambda: play_game(decks[names[0]], None, seed=5)) == set()
    assert _engine_objects_left_in_cycles(lambda: play_game(decks[names[0]], decks[names[1]], seed=5)) == set()
