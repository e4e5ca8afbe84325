"""Simulation runs of every game, one path: a run's spec names its game (`spec["game"]`; none means the default
game, r1), `engine_for(spec)` gives that game's *run module* (its registration's `runs`, cards/games/registry.py),
and everything else — the command, the API, the services, the Celery tasks, `run_in_process` below — is the same
for every game.

A run module says only what differs per game:

- `MODES`: the modes it runs; `chunk_plan(mode, games, settings)` (simulator/engines/common/runs.py `chunk_plan`
  with the game's chunk size); `run_chunk(spec, index)` one chunk's partial (integer counts, seeded with
  `runs.chunk_seed`); `merge(mode, parts)` and `finalize(spec, merged)` the report; `request_key(spec)`.
- `build_spec(mode=, text=, opponent_text=, games=, seed=, policy=, opponent_policy=, fmt=, deck_name=,
  opponent_name=)` a spec from the request's fields (GameSpecError naming the field otherwise), and
  `run_fields(spec)` the SimulationRun columns of a spec.
- optional hooks, asked through `run_hook`: `report_text` (the command's words), `CHUNK_PER_GAME_S` and
  `chunk_allowance` (a chunk's time limit, simulator/tasks.py), `command_problem` (the command's own option
  checks), `CARDS_IN_DATABASE`, `SAVED_DECKS` (the API's saved-deck ids and settings dict), and the pages' hooks
  (charts, replay board, players…).

So a game's run is chunked, seeded, stored and merged the same way wherever it runs: the same spec, games and seed
give the same JSON (except `elapsed_s`) in-process and on the workers.
"""
from __future__ import annotations

from types import ModuleType

from cards.games import registry
from simulator.engines.common.runs import Progress, run_chunks

def simulated() -> tuple[str, ...]:
    """Every registered game whose simulations run here (its registration names `runs`), in registration order."""
    return tuple(g.slug for g in registry.games() if g.has("runs"))


def hosted() -> tuple[str, ...]:
    """The simulated games served under their own prefix (/<game>/simulate/, /<game>/api/simulations/); the game
    at the site's root keeps its original pages there."""
    return tuple(g.slug for g in registry.games() if g.has("runs") and g.prefix)


def strategy_games() -> tuple[str, ...]:
    """The games played by written strategies, whose run module ships some (`shipped_strategies`): the strategy
    editor and the round robin."""
    return tuple(g for g in simulated() if run_hook(g, "shipped_strategies") is not None)


def __getattr__(name: str):
    # asked at the moment they are read, so a game registered later (the tests' toy game) is in them
    if name == "GAMES":
        return hosted()
    if name == "STRATEGY_GAMES":
        return strategy_games()
    raise AttributeError(name)


def game_of(spec: dict | None) -> str:
    return (spec or {}).get("game") or registry.DEFAULT


def run_hook(game: str | None, name: str, default=None):
    """An optional hook of a game's run module (simulator/games/<game>.py: its report lines, charts, replay board,
    page choices…), or `default` when the game has no simulations here or its module has no such hook: the shared
    pages and command ask this instead of naming a game."""
    if game not in simulated():
        return default
    return getattr(registry.get(game).hook("runs"), name, default)


def engine_for(spec: dict | None) -> ModuleType:
    """The module running the spec's game (its registration's `runs`); UnknownGame for a game not registered."""
    return registry.get(game_of(spec)).hook("runs")


def run_in_process(spec: dict, progress: Progress | None = None) -> dict:
    """Every chunk here, in order, merged as the workers do (the `simulate` command without --queue)."""
    engine = engine_for(spec)
    return run_chunks(spec, engine.chunk_plan(spec["mode"], spec["games"], spec.get("settings")), engine.run_chunk,
                      lambda parts: engine.merge(spec["mode"], parts), engine.finalize, progress)
