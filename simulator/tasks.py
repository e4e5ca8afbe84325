"""Celery tasks (STYLE §9): they take ids, re-fetch, and call services; games are split into chunks with a group.

start_run(run_id) ──► group(run_chunk(run_id, 0), run_chunk(run_id, 1), ...)
                       each stores its partial under (run, index); the chunk that finds every partial stored
                       sends ──► finish_run(run_id), which merges them in index order.

A redelivered chunk (acks_late, a killed worker) finds its row and changes nothing, and still checks whether
the run is complete, so a worker lost between storing and announcing cannot strand a run. Completion is
decided from the stored rows rather than by a chord counter in the result backend, which keeps the tasks
result-free (ignore_result) and safe on SQLite, where concurrent read-then-write transactions fail at once.
No task ever waits on another task's result.
"""
from __future__ import annotations

import logging

from celery import group, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import reset_queries

from . import runner, services
from .games import engine_for
from .models import SimulationChunk

log = logging.getLogger(__name__)

# What one chunk may take: a chunk is a few hundred games and takes about a second, so its time limit
# is set from its size instead of one limit for every task. Measured worst over the starter decks, per game
# (scripts/bench: compiled engine / plain Python): hands 0.07 / 0.10 ms, goldfish 0.97 / 2.6 ms, versus
# 3.1 / 6.8 ms. The allowance is about 15 times the plain-Python figure, plus a fixed start-up allowance, so a
# slow or busy machine never cuts a healthy chunk short; a chunk of the site's largest runs (250 versus games)
# gets 40 s. On Redis a worker re-stamps the chunks it holds (roc_site/celery.py, RedisUnackedHeartbeat), so
# a chunk is never handed out twice while it is being computed, however long its limit, and one held by a
# worker that died comes back after the 20 s visibility timeout.
CHUNK_BASE_S = 15.0
CHUNK_PER_GAME_S = {"hands": 0.002, "goldfish": 0.04, "versus": 0.1}
# The search player (`expert`, runner.SLOW_POLICIES) takes about 1 CPU-s per game against greedy compiled, 3 in
# plain Python, and twice that against itself (docs/performance.md, "Policy ladder"): its chunks are
# runner.SLOW_CHUNK games (one) with this allowance each (a 1-game chunk: 53 s soft, 58 s hard), about 13 times the plain-Python figure like the other modes' allowances. Smaller ones
# (8 s, then 18 s per game) cut healthy chunks short on this project's 2 shared cores at load 15-18, where a
# process gets about 10% of a core.
CHUNK_PER_SLOW_GAME_S = 38.0
HARD_LIMIT_MARGIN_S = 5.0  # the soft limit fails the run with a message; the hard one kills a chunk stuck in C


def chunk_time_limits(mode: str, games: int, settings: dict | None = None, *,
                      per_game: dict | None = None) -> tuple[float, float]:
    """(soft, hard) seconds for a chunk of `games` games (hands sampled, for mode hands); `per_game`: another
    game's allowances (simulator/games), `settings`: the run's (the search player gets a longer allowance).

    >>> chunk_time_limits("versus", 200)
    (35.0, 40.0)
    >>> chunk_time_limits("versus", 1, {"policy": "expert"})
    (53.0, 58.0)
    """
    if per_game is not None and not runner.slow_run(mode, settings):  # another game's (simulator/games)
        each = per_game[mode]
    else:
        each = CHUNK_PER_SLOW_GAME_S if runner.slow_run(mode, settings) else CHUNK_PER_GAME_S[mode]
    soft = CHUNK_BASE_S + games * each
    return soft, soft + HARD_LIMIT_MARGIN_S


def _fresh() -> None:
    # With DEBUG on (development), Django logs every query of the process; a worker running thousands of
    # chunks would hold the last 9,000 queries, big JSON parameters included. Start each task clean.
    reset_queries()


@shared_task(name="simulator.start_run", acks_late=True, ignore_result=True)
def start_run(run_id: int) -> None:
    _fresh()
    run = services.run_mark_started(run_id)
    if run is None:
        return
    engine = engine_for(run.spec)  # r1, realms or regions
    plan = engine.chunk_plan(run.mode, run.games, run.settings)
    per_game = getattr(engine, "CHUNK_PER_GAME_S", None)
    if hasattr(engine, "chunk_allowance"):  # an allowance that depends on the run's settings (regions' search)
        per_game = engine.chunk_allowance(run.settings)
    stored = set(SimulationChunk.objects.filter(run_id=run_id).values_list("index", flat=True))
    missing = [index for index, _, _ in plan if index not in stored]
    if not missing:
        finish_run.delay(run_id)
        return
    sizes = {index: size for index, _, size in plan}
    chunks = []
    for index in missing:
        soft, hard = chunk_time_limits(run.mode, sizes[index], run.settings, per_game=per_game)
        chunks.append(run_chunk.si(run_id, index).set(soft_time_limit=soft, time_limit=hard))
    longest = max(chunk_time_limits(run.mode, sizes[index], run.settings, per_game=per_game)[1] for index in missing)
    visibility = (getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}).get("visibility_timeout")
    stamped = float(getattr(settings, "ROC_UNACKED_HEARTBEAT_S", 0) or 0) > 0
    if visibility and longest >= visibility and not stamped:
        log.warning("run %s: a chunk may take up to %.0f s, longer than the broker's visibility timeout (%s s); "
                    "it may be computed twice (harmless, only slower). Raise CELERY_VISIBILITY_TIMEOUT, or turn "
                    "CELERY_UNACKED_HEARTBEAT_S back on.", run_id, longest, visibility)
    group(chunks).apply_async()


@shared_task(name="simulator.run_chunk", acks_late=True, ignore_result=True)
def run_chunk(run_id: int, index: int) -> None:
    _fresh()
    try:
        services.chunk_store(run_id, index)
    except SoftTimeLimitExceeded:
        limit = run_chunk.request.timelimit[1] if run_chunk.request.timelimit else None
        log.error("chunk %s of run %s ran past its time limit (%s s)", index, run_id, limit)
        services.run_fail(run_id, f"Chunk {index} took longer than its time limit"
                                  f"{f' ({limit:g} s)' if limit else ''}; the workers may be overloaded. "
                                  "Try again, or with fewer games.")
        raise
    except Exception as exc:
        log.exception("chunk %s of run %s failed", index, run_id)
        services.run_fail(run_id, f"Chunk {index} failed: {exc.__class__.__name__}: {exc}")
        raise
    if services.run_ready_to_finish(run_id):
        finish_run.delay(run_id)


@shared_task(name="simulator.finish_run", acks_late=True, ignore_result=True)
def finish_run(run_id: int) -> None:
    _fresh()
    try:
        services.run_finish(run_id)
    except Exception as exc:
        log.exception("merging run %s failed", run_id)
        services.run_fail(run_id, f"Merging the results failed: {exc.__class__.__name__}: {exc}")
        raise


@shared_task(name="simulator.requeue_pending", ignore_result=True)
def requeue_pending(limit: int = 200) -> int:
    """Runs saved while the queue was down (pending, with the reason noted): hand them to the workers now.

    Sent by Celery beat every CELERY_REQUEUE_INTERVAL_S seconds (settings.CELERY_BEAT_SCHEDULE), so it only
    runs once the broker answers again; a run that is still being created (no error noted yet) is left alone.
    Returns how many runs were sent. (So that queued runs finish after the broker returns from a fault.)
    """
    from .models import RunStatus, SimulationRun

    sent = 0
    for run in SimulationRun.objects.filter(status=RunStatus.PENDING).exclude(error="").order_by("created_at")[:limit]:
        try:
            services.run_dispatch(run)
        except services.BrokerUnavailable:
            break
        sent += 1
    if sent:
        log.info("requeued %d run(s) saved while the queue was down", sent)
    return sent


# 400 games a pair is about 3 CPU-s in plain Python (docs/reliability.md) and took 13 s on a busy worker; the
# default task limit (45 s) would cut it short on 2 shared cores at high load, where a process gets a tenth of one.
# Past the Redis visibility timeout it may be computed twice, which is harmless (the same result is kept).
@shared_task(name="simulator.regions_round_robin", acks_late=True, ignore_result=True, soft_time_limit=300,
             time_limit=310)
def regions_round_robin(games: int, seed: int, mine: str | None = None) -> None:
    """The regions round-robin for the web (simulator/games/round_robin.py), with the visitor's own strategy when
    `mine` is its text: computed here, kept in the cache, so the web process never plays its games."""
    _fresh()
    from .games import round_robin

    round_robin.compute(games, seed, mine)
