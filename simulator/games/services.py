"""Writes for the hosted games' runs: build a spec from decklist text or strategy text, create a
SimulationRun for it (deduplicated, under the same per-user limits as r1) and dispatch it to the same Celery tasks.
The run's game lives in its spec (`spec["game"]`), which simulator/games.engine_for reads.
"""
from __future__ import annotations

from simulator.models import IN_FLIGHT, RunStatus, SimulationRun
from simulator.services import LimitExceeded, _identical, _owner_filter, limits_for, run_dispatch

from . import engine_for

MAX_TEXT = 20_000


class GameSpecError(ValueError):
    """A request that cannot be run (-> 400 / exit 2); the message names the field, line or card."""


def build_game_spec(game: str, **kwargs) -> dict:
    """The spec of the game's run module (simulator/games/<game>.py `build_spec`) from the common fields."""
    from . import GAMES, run_hook

    build = run_hook(game, "build_spec")
    if build is None:
        raise GameSpecError(f"game: {game!r} has no simulations here ({', '.join(GAMES)}; r1 is the default)")
    return build(**kwargs)


def run_fields(spec: dict) -> dict:
    return engine_for(spec).run_fields(spec)


def run_from_game_spec(spec: dict) -> SimulationRun:
    """A new run of a built spec (the `simulate --queue` command), not deduplicated; not dispatched yet."""
    engine = engine_for(spec)
    return SimulationRun.objects.create(
        mode=spec["mode"], games=spec["games"], seed=spec["seed"], settings=spec["settings"],
        engine_version=spec["engine_version"], request_key=engine.request_key(spec), spec=spec,
        chunks_total=len(engine.chunk_plan(spec["mode"], spec["games"], spec["settings"])),
        **_clipped(run_fields(spec)))


MAX_SEED = 2**63 - 1   # the seed column is a signed 64-bit integer (as r1's runs: simulator/deckinput.py)
MAX_NAME = 200         # SimulationRun.deck_name / opponent_name


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


def _clipped(fields: dict) -> dict:
    """A name the spec carries from the text itself (a strategy's or decklist's own name) clipped to its column;
    the spec keeps it whole."""
    return {k: (v[:MAX_NAME] if k in ("deck_name", "opponent_name") and isinstance(v, str) else v)
            for k, v in fields.items()}


def game_run_request(game: str, *, mode: str, user=None, session_key: str = "", dispatch: bool = True,
                     **kwargs) -> tuple[SimulationRun, bool]:
    """Validate, deduplicate and queue a hosted game's run, under the r1 limits (simulator/services.py)."""
    limits = limits_for(user)
    games = kwargs.get("games")
    cap = limits.max_games.get(mode)
    if cap is not None and isinstance(games, int) and not isinstance(games, bool) and games > cap:
        raise LimitExceeded(f"Limit: at most {cap:,} games per run for {mode} "
                            f"({'signed-in users' if limits.who == 'user' else 'anonymous users; sign in for more'})"
                            f", you asked for {games:,}.")
    _check_bounds(kwargs)
    spec = build_game_spec(game, mode=mode, **kwargs)
    engine = engine_for(spec)
    key = engine.request_key(spec)
    existing = _identical(SimulationRun, key, user, session_key)   # simulator/services.py explains
    if existing is not None:
        if existing.status == RunStatus.PENDING and dispatch:
            run_dispatch(existing)
        return existing, False
    owner = _owner_filter(user, session_key)
    if owner is not None:
        flying = SimulationRun.objects.filter(status__in=IN_FLIGHT, **owner).count()
        if flying >= limits.in_flight:
            raise LimitExceeded(f"Limit: at most {limits.in_flight} simulation(s) in progress at once; "
                                "wait for the running one to finish.")
    run = SimulationRun.objects.create(
        mode=spec["mode"], games=spec["games"], seed=spec["seed"], settings=spec["settings"],
        engine_version=spec["engine_version"], request_key=key, spec=spec,
        chunks_total=len(engine.chunk_plan(spec["mode"], spec["games"], spec["settings"])),
        user=user if user is not None and getattr(user, "is_authenticated", False) else None,
        session_key=session_key or "", **_clipped(run_fields(spec)))
    if dispatch:
        run_dispatch(run)
    return run, True
