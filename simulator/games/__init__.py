"""Simulation runs of the hosted games (realms, regions) on the same run machinery as r1.

A run's spec names its game (`spec["game"]`; none means r1). `engine_for(spec)` gives the module that runs it (the
game's registration names it: cards/games/registry.py `runs`),
with the interface simulator/runner.py has for r1: `chunk_plan(mode, games, settings)`, `run_chunk(spec, index)`,
`merge(mode, parts)`, `finalize(spec, merged)`, `request_key(spec)`. The services and the Celery tasks call
these through `engine_for`, so a realms or regions run is chunked, seeded, stored and merged exactly like an r1
run: the same spec, games and seed give the same JSON (except `elapsed_s`) in-process and on the workers.
"""
from __future__ import annotations

from types import ModuleType

from cards.games import registry

# the hosted games whose simulations run here (r1, the builtin game, keeps its own pages and API at the root)
GAMES = tuple(g.slug for g in registry.hosted() if g.has("runs"))
STRATEGY_GAMES = ("regions",)   # played by written strategies: the strategy editor and the round robin


def game_of(spec: dict | None) -> str:
    return (spec or {}).get("game") or registry.DEFAULT


def run_hook(game: str | None, name: str, default=None):
    """An optional hook of a hosted game's run module (simulator/games/<game>.py: its report lines, charts, replay
    board, page choices…), or `default` when the game has no simulations here or its module has no such hook: the
    shared pages and command ask this instead of naming a game."""
    if game not in GAMES:
        return default
    return getattr(registry.get(game).hook("runs"), name, default)


def engine_for(spec: dict | None) -> ModuleType:
    """The module running the spec's game (its registration's `runs`); UnknownGame for a game not registered."""
    return registry.get(game_of(spec)).hook("runs")


def run_in_process(spec: dict, progress=None) -> dict:
    """Every chunk here, in order, merged as the workers do (the `simulate` command without --queue)."""
    import time

    engine = engine_for(spec)
    started = time.perf_counter()
    plan = engine.chunk_plan(spec["mode"], spec["games"], spec.get("settings"))
    parts = []
    for index, _, _ in plan:
        parts.append(engine.run_chunk(spec, index))
        if progress:
            progress(index + 1, len(plan))
    result = engine.finalize(spec, engine.merge(spec["mode"], parts))
    result["elapsed_s"] = round(time.perf_counter() - started, 3)
    return result
