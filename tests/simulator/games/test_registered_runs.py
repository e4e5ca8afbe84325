"""The simulation machinery finds a game's runs and engine through its registration alone
(cards/games/registry.py `runs` and `engine`): no second list of games beside the registry."""
from __future__ import annotations

import dataclasses
import sys
import types

from cards.games import registry
from scripts import build_native
from simulator import games
from simulator.games import command
from tests.cards.games.toy.game import TOY


def test_runs_and_engines_come_from_the_registry():
    import simulator.games.realms
    import simulator.games.regions
    from simulator.api import RunCreateSerializer

    assert games.engine_for({"game": "realms"}) is simulator.games.realms
    assert games.engine_for({"game": "regions"}) is simulator.games.regions
    assert games.engine_for({}).__name__ == "simulator.games.r1"
    assert games.GAMES == ("realms", "regions")
    assert list(RunCreateSerializer().fields["game"].choices) == ["r1", "realms", "regions"]
    assert command.engine_modes("realms") == ("goldfish", "versus") and command.engine_modes("regions") == ("versus",)
    assert command.engine_modes("r1") == ()
    assert {k: e.package for k, e in build_native.ENGINES.items()} == {
        "common": "simulator.engines.common", "r1": "simulator.engines.r1", "realms": "simulator.engines.realms",
        "regions": "simulator.engines.regions"}


def test_a_new_game_runs_through_its_registration_line(monkeypatch):
    runs = types.ModuleType("toy_runs")
    runs.MODES = ("versus",)
    monkeypatch.setitem(sys.modules, "toy_runs", runs)
    registry.register(dataclasses.replace(TOY, runs="toy_runs"), replace=True)
    try:
        assert games.engine_for({"game": "toy"}) is runs
    finally:
        registry.unregister("toy")
