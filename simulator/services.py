"""Writes for simulation runs (STYLE §7): creating a run under the limits, dispatching it, storing results.

Views, the API and the `simulate` command go through `run_request` (r1's decklists) or
simulator/games/services.py (any game), both ending in `create_run`; Celery tasks go through `chunk_store`,
`run_finish` and `run_fail`. Every game's run takes the same path: its run module (simulator/games) says what
differs.
"""
from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass

from django.conf import settings as django_settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from . import runner
from .access import can_own
from .games import engine_for  # a run's game module (simulator/games): one path for every game
from .deckinput import build_spec
from .models import IN_FLIGHT, RunStatus, SimulationChunk, SimulationRun

log = logging.getLogger(__name__)

# Limits (settings may override any of them: SIMULATOR_LIMITS = {"user": {...}, "anonymous": {...}}).
DEFAULT_LIMITS = {
    "user": {"hands": 1_000_000, "goldfish": 100_000, "versus": 100_000, "in_flight": 3},
    "anonymous": {"hands": 100_000, "goldfish": 10_000, "versus": 10_000, "in_flight": 1},
}


class LimitExceeded(ValueError):
    """Over a per-run or per-user limit (-> 400 naming the limit)."""


class BrokerUnavailable(RuntimeError):
    """The queue cannot be reached (-> 503). The run is saved as pending and nothing is lost."""

    def __init__(self, message: str, run: SimulationRun):
        super().__init__(message)
        self.run = run


@dataclass(frozen=True)
class Limits:
    max_games: dict
    in_flight: int
    who: str


def limits_for(user) -> Limits:
    configured = getattr(django_settings, "SIMULATOR_LIMITS", {}) or {}
    who = "user" if user is not None and getattr(user, "is_authenticated", False) else "anonymous"
    merged = {**DEFAULT_LIMITS[who], **configured.get(who, {})}
    return Limits(max_games={m: merged[m] for m in runner.MODES}, in_flight=merged["in_flight"], who=who)


def _owner_filter(user, session_key: str) -> dict | None:
    if user is not None and getattr(user, "is_authenticated", False):
        return {"user": user}
    if session_key:
        return {"user__isnull": True, "session_key": session_key}
    return None


def run_request(*, mode, text, opponent_text=None, games=None, seed=None, settings=None, user=None,
                session_key: str = "", deck_version=None, opponent_version=None, deck_name=None,
                opponent_name=None, dispatch: bool = True) -> tuple[SimulationRun, bool]:
    """Validate, deduplicate and queue a simulation. Returns (run, created).

    Raises SpecError / LimitExceeded (-> 400), EngineUnavailable (-> 400), BrokerUnavailable (-> 503).
    An identical request (same decks' card data, settings, seed and engine version) gets the stored run.
    """
    limits = limits_for(user)
    if mode in runner.MODES and isinstance(games, int) and not isinstance(games, bool):
        cap = limits.max_games[mode]
        if games > cap:
            what = "hands per run" if mode == "hands" else "games per run"
            raise LimitExceeded(f"Limit: at most {cap:,} {what} for {mode} "
                                f"({'signed-in users' if limits.who == 'user' else 'anonymous users; sign in for more'})"
                                f", you asked for {games:,}.")
    spec = build_spec(mode=mode, text=text, opponent_text=opponent_text, games=games, seed=seed, settings=settings,
                      max_games=limits.max_games.get(mode), deck_name=deck_name, opponent_name=opponent_name)
    return create_run(spec, user=user, session_key=session_key, limits=limits, dispatch=dispatch,
                      deck_version=deck_version, opponent_version=opponent_version)


def create_run(spec: dict, *, user=None, session_key: str = "", limits: Limits | None = None,
               dispatch: bool = True, **columns) -> tuple[SimulationRun, bool]:
    """A built spec of any game as a run: the stored run of an identical request (the same request key, see
    `_identical`), or a new one under the in-flight limit, dispatched to the workers. Returns (run, created).
    `columns`: more SimulationRun columns (r1's saved deck versions)."""
    engine = engine_for(spec)
    limits = limits or limits_for(user)
    key = engine.request_key(spec)
    existing = _identical(SimulationRun, key, user, session_key)
    if existing is not None:
        if existing.status == RunStatus.PENDING and dispatch:
            run_dispatch(existing)  # the queue was down last time: try again now
        return existing, False
    owner = _owner_filter(user, session_key)
    if owner is not None:
        flying = SimulationRun.objects.filter(status__in=IN_FLIGHT, **owner).count()
        if flying >= limits.in_flight:
            raise LimitExceeded(f"Limit: at most {limits.in_flight} simulation(s) in progress at once for "
                                f"{'a signed-in user' if limits.who == 'user' else 'an anonymous visitor'}; "
                                f"wait for the running one to finish.")
    run = _new_run(spec, key, user=user if user is not None and getattr(user, "is_authenticated", False) else None,
                   session_key=session_key or "", **columns)
    if dispatch:
        run_dispatch(run)
    return run, True


MAX_NAME = 200   # SimulationRun.deck_name / opponent_name


def _new_run(spec: dict, key: str | None = None, **columns) -> SimulationRun:
    """The SimulationRun row of a spec: its game's columns (run module `run_fields`), a name the spec carries from
    the text itself (a strategy's or decklist's own name) clipped to its column (the spec keeps it whole)."""
    engine = engine_for(spec)
    fields = {k: (v[:MAX_NAME] if k in ("deck_name", "opponent_name") and isinstance(v, str) else v)
              for k, v in engine.run_fields(spec).items()}
    return SimulationRun.objects.create(
        mode=spec["mode"], games=spec["games"], seed=spec["seed"], settings=spec["settings"],
        engine_version=spec["engine_version"], request_key=key or engine.request_key(spec), spec=spec,
        chunks_total=len(engine.chunk_plan(spec["mode"], spec["games"], spec["settings"])), **fields, **columns)


def _identical(model, key: str, user, session_key: str):
    """The stored run that answers an identical request: the requester's own (a user's, or an anonymous session's),
    or, for a requester who can own nothing (an API client without a session), one that nobody owns. Another
    owner's run is private to them (simulator/access.py): its report, deck names included, is not handed to
    someone else, who gets a run of their own."""
    runs = model.objects.filter(request_key=key).exclude(status__in=(RunStatus.FAILED, "cancelled")) \
        .order_by("-created_at")
    if can_own(user, session_key):
        return runs.filter(**_owner_filter(user, session_key)).first()
    return runs.filter(user__isnull=True).exclude(session_key__startswith="o:") \
        .exclude(session_key__startswith="s:").first()


def run_from_spec(spec: dict) -> SimulationRun:
    """A new run of a built spec of any game, not deduplicated and under no per-user limit (the `simulate --queue`
    command and the benchmarks; players go through `run_request`). Not dispatched yet."""
    return _new_run(spec)


def run_dispatch(run: SimulationRun) -> None:
    """Hand the run to the workers. If the broker is down the run stays pending, with the reason noted."""
    from .tasks import start_run

    try:
        start_run.apply_async(args=[run.pk], retry=True,
                              retry_policy={"max_retries": 2, "interval_start": 0, "interval_step": 0.5,
                                            "interval_max": 1})
    except Exception as exc:  # kombu raises OperationalError and friends, depending on the transport
        log.warning("broker unavailable for run %s: %s", run.pk, exc)
        SimulationRun.objects.filter(pk=run.pk).update(
            error=f"The simulation queue could not be reached ({exc.__class__.__name__}); the run is saved and "
                  "starts when the same request is sent again, or 'Try the queue again' is pressed on its page, "
                  "once the queue is back.")
        raise BrokerUnavailable("The simulation queue is unavailable right now; your run is saved "
                                f"(id {run.pk}) and nothing is lost. Try again in a minute.", run) from exc
    SimulationRun.objects.filter(pk=run.pk, status=RunStatus.PENDING).update(
        status=RunStatus.QUEUED, queued_at=timezone.now(), error="")


# ---- used by the tasks -----------------------------------------------------------------------------------
def run_mark_started(run_id: int) -> SimulationRun | None:
    run = SimulationRun.objects.filter(pk=run_id).first()
    if run is None or run.is_finished:
        return None
    SimulationRun.objects.filter(pk=run_id, status__in=(RunStatus.PENDING, RunStatus.QUEUED)).update(
        status=RunStatus.RUNNING, started_at=timezone.now())
    return run


def chunk_store(run_id: int, index: int) -> bool:
    """Compute and store one chunk unless it is already stored (a redelivery). Returns True if it computed."""
    if SimulationChunk.objects.filter(run_id=run_id, index=index).exists():
        return False
    run = SimulationRun.objects.filter(pk=run_id).first()
    if run is None or run.status == RunStatus.FAILED:
        return False
    # (tests/simulator/test_broker.py reads this line to kill the process mid-chunk)
    log.info("computing chunk %s of run %s in process %s", index, run_id, os.getpid())
    started = time.perf_counter()
    part = engine_for(run.spec).run_chunk(run.spec, index)
    total = max(run.chunks_total, 1)
    try:
        # One transaction (one commit) for the chunk and the progress: a commit is most of a chunk's database
        # cost on SQLite. It starts with the write, so concurrent chunks queue for SQLite's lock instead of
        # failing a read-then-write upgrade.
        with transaction.atomic():
            SimulationChunk.objects.create(run_id=run_id, index=index, result=part,
                                           elapsed_s=time.perf_counter() - started)
            done = SimulationChunk.objects.filter(run_id=run_id).count()
            # Progress only moves forward, whatever order concurrent chunk updates land in.
            SimulationRun.objects.filter(pk=run_id, chunks_done__lt=done).update(
                chunks_done=done, progress=min(done / total, 1.0) * 0.999)
    except IntegrityError:
        return False  # another delivery of the same chunk got there first; its numbers are the same
    return True


def run_ready_to_finish(run_id: int) -> bool:
    """Every chunk stored and the run not finished yet (several chunks may say so at once; finishing is
    idempotent)."""
    run = SimulationRun.objects.filter(pk=run_id).only("status", "chunks_total").first()
    if run is None or run.status in (RunStatus.DONE, RunStatus.FAILED):
        return False
    return SimulationChunk.objects.filter(run_id=run_id).count() >= run.chunks_total


def run_finish(run_id: int) -> SimulationRun | None:
    """Merge every chunk exactly (in index order) and store the report. Idempotent."""
    run = SimulationRun.objects.filter(pk=run_id).first()
    if run is None or run.status in (RunStatus.DONE, RunStatus.FAILED):
        return run
    parts = list(SimulationChunk.objects.filter(run_id=run_id).order_by("index").values_list("result", flat=True))
    engine = engine_for(run.spec)
    expected = len(engine.chunk_plan(run.mode, run.games, run.settings))
    if len(parts) != expected:
        return run_fail(run_id, f"Only {len(parts)} of {expected} chunks finished.")
    result = engine.finalize(run.spec, engine.merge(run.mode, parts))
    now = timezone.now()
    started = run.started_at or run.queued_at or run.created_at
    elapsed = round((now - started).total_seconds(), 3)
    result["elapsed_s"] = elapsed
    SimulationRun.objects.filter(pk=run_id).exclude(status__in=(RunStatus.DONE, RunStatus.FAILED)).update(
        status=RunStatus.DONE, result=result, progress=1.0, chunks_done=expected, finished_at=now,
        elapsed_s=elapsed, error="")
    run.refresh_from_db()
    return run


def run_fail(run_id: int, reason: str) -> SimulationRun | None:
    SimulationRun.objects.filter(pk=run_id).exclude(status=RunStatus.DONE).update(
        status=RunStatus.FAILED, error=reason[:2000], finished_at=timezone.now())
    return SimulationRun.objects.filter(pk=run_id).first()


def run_execute_here(run: SimulationRun) -> SimulationRun:
    """Run every chunk of a stored run in this process, through the same store/merge path as the workers."""
    run_mark_started(run.pk)
    for index, _, _ in engine_for(run.spec).chunk_plan(run.mode, run.games, run.settings):
        chunk_store(run.pk, index)
    return run_finish(run.pk)
