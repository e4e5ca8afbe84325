"""The simulation machinery finds a game's runs and engine through its registration alone
(cards/games/registry.py `runs` and `engine`): no second list of games beside the registry."""
from __future__ import annotations

import dataclasses
import sys
import types

import pytest

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
    assert command.engine_modes("r1") == ("hands", "goldfish", "versus")
    assert command.all_modes() == ("hands", "goldfish", "versus")
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


def test_a_new_games_run_module_carries_its_spec_report_and_charts(monkeypatch):
    """The shared command, services and charts ask the game's run module (simulator/games/<game>.py hooks), so a
    fourth game needs no `elif` there."""
    from simulator.games import charts, services

    runs = types.ModuleType("toy_runs")
    runs.MODES = ("versus",)
    runs.REPORT_ROUNDS = "moves"
    runs.build_spec = lambda **kwargs: {"game": "toy", "text": kwargs["text"]}
    runs.report_sides = lambda r: [f"  toy sides of {r['deck']['name']}"]
    runs.charts = lambda result: [("Toy chart", "<svg/>")]
    monkeypatch.setitem(sys.modules, "toy_runs", runs)
    monkeypatch.setattr(games, "GAMES", games.GAMES + ("toy",))
    registry.register(dataclasses.replace(TOY, runs="toy_runs"), replace=True)
    try:
        assert services.build_game_spec("toy", text="a strategy") == {"game": "toy", "text": "a strategy"}
        report = command.report_text({
            "game": "toy", "mode": "versus", "deck": {"name": "A"}, "opponent": {"name": "B"}, "games": 2,
            "seed": 1, "policies": ["p", "q"], "wins": 1, "losses": 1, "draws": 0, "win_rate": 0.5, "ci95": None,
            "mean_rounds": 3.0, "first_player_win_rate": 0.5, "engine_version": 1, "elapsed_s": 0.1})
        assert "mean length 3.00 moves" in report and "  toy sides of A" in report.splitlines()
        assert charts.charts_for({"mode": "versus"}, "toy") == [("Toy chart", "<svg/>")]
        assert games.run_hook("toy", "PLAYERS", {}) == {} and games.run_hook("nogame", "charts") is None
    finally:
        registry.unregister("toy")
    with pytest.raises(services.GameSpecError, match="'nogame' has no simulations here"):
        services.build_game_spec("nogame", text="x")


def test_shared_code_names_no_game():
    """At most 3 comparisons with a game's slug outside the games' own packages (cards/games/<game>/,
    simulator/engines/<game>/): what differs per game is in its registration and its run module's hooks."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    slug = r"[\"'](r1|realms|regions)[\"']"
    compare = re.compile(rf"(==|!=)\s*{slug}|{slug}\s*(==|!=)")
    own = re.compile(r"^(cards/games/(r1|realms|regions)/|simulator/engines/(r1|realms|regions)/|.*/migrations/)")
    found = [f"{path}:{n}" for top in ("cards", "decks", "simulator", "roc_site")
             for path in sorted((root / top).rglob("*.py")) if not own.match(str(path.relative_to(root)))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if compare.search(line)]
    assert len(found) <= 3, found
