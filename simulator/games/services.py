"""Writes for any game's runs: build a spec from decklist text or strategy text through the game's run module
(simulator/games/__init__.py), and hand it to simulator/services.py `create_run` (deduplicated, under the same
per-user limits for every game, dispatched to the same Celery tasks). The run's game lives in its spec
(`spec["game"]`; none is the default game), which simulator/games.engine_for reads.
"""
from __future__ import annotations

from simulator.models import SimulationRun
from simulator.services import MAX_NAME, LimitExceeded, create_run, limits_for, run_from_spec

from . import engine_for

MAX_TEXT = 20_000


class GameSpecError(ValueError):
    """A request that cannot be run (-> 400 / exit 2); the message names the field, line or card."""


def build_game_spec(game: str, **kwargs) -> dict:
    """The spec of the game's run module (simulator/games/<game>.py `build_spec`) from the common fields."""
    from cards.games import registry

    from . import run_hook, simulated

    build = run_hook(game, "build_spec")
    if build is None:
        raise GameSpecError(f"game: {game!r} has no simulations here ({', '.join(simulated())}; "
                            f"{registry.DEFAULT} is the default)")
    return build(**kwargs)


def run_fields(spec: dict) -> dict:
    return engine_for(spec).run_fields(spec)


def run_from_game_spec(spec: dict) -> SimulationRun:
    """A new run of a built spec (the `simulate --queue` command), not deduplicated; not dispatched yet."""
    return run_from_spec(spec)


MAX_SEED = 2**63 - 1   # the seed column is a signed 64-bit integer (as r1's runs: simulator/deckinput.py)


def _check_bounds(kwargs: dict) -> None:
    """What the run's columns can hold, checked before anything is built: the seed and the names given."""
    seed = kwargs.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool) and not 0 <= seed <= MAX_SEED:
        raise GameSpecError(f"seed: from 0 to {MAX_SEED:,} (2^63 - 1), not {str(seed)[:30]}"
                            f"{'…' if len(str(seed)) > 30 else ''}")
    for key, label in (("deck_name", "name"), ("opponent_name", "opponent_name")):
        value = kwargs.get(key)
        if isinstance(value, str) and len(value) > MAX_NAME:
            raise GameSpecError(f"{label}: at most {MAX_NAME} characters, not {len(value):,}")


def game_run_request(game: str, *, mode: str, user=None, session_key: str = "", dispatch: bool = True,
                     **kwargs) -> tuple[SimulationRun, bool]:
    """Validate, deduplicate and queue a game's run, under the same limits as every run (simulator/services.py)."""
    limits = limits_for(user)
    games = kwargs.get("games")
    cap = limits.max_games.get(mode)
    if cap is not None and isinstance(games, int) and not isinstance(games, bool) and games > cap:
        raise LimitExceeded(f"Limit: at most {cap:,} games per run for {mode} "
                            f"({'signed-in users' if limits.who == 'user' else 'anonymous users; sign in for more'})"
                            f", you asked for {games:,}.")
    _check_bounds(kwargs)
    spec = build_game_spec(game, mode=mode, **kwargs)
    return create_run(spec, user=user, session_key=session_key, limits=limits, dispatch=dispatch)
