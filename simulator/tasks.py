"""Celery tasks (STYLE §9): they take ids, re-fetch, and call services; games are split into chunks with a chord.

start_run(run_id) ──► chord([run_chunk(run_id, 0), run_chunk(run_id, 1), ...]) ──► finish_run(run_id)

Every chunk is stored under (run, index), so a redelivered chunk (acks_late, a killed worker) finds its row and
changes nothing; finish_run merges the stored chunks in index order, so the numbers do not depend on which
worker ran what, or when. No task ever waits on another task's result.
"""
from __future__ import annotations

import logging

from celery import chord, shared_task

from . import runner, services
from .models import SimulationChunk

log = logging.getLogger(__name__)


@shared_task(name="simulator.start_run", acks_late=True)
def start_run(run_id: int) -> None:
    run = services.run_mark_started(run_id)
    if run is None:
        return
    plan = runner.chunk_plan(run.mode, run.games)
    stored = set(SimulationChunk.objects.filter(run_id=run_id).values_list("index", flat=True))
    missing = [index for index, _, _ in plan if index not in stored]
    if not missing:
        finish_run.delay(run_id)
        return
    chord([run_chunk.si(run_id, index) for index in missing])(finish_run.si(run_id))


@shared_task(name="simulator.run_chunk", acks_late=True)
def run_chunk(run_id: int, index: int) -> None:
    try:
        services.chunk_store(run_id, index)
    except Exception as exc:
        log.exception("chunk %s of run %s failed", index, run_id)
        services.run_fail(run_id, f"Chunk {index} failed: {exc.__class__.__name__}: {exc}")
        raise


@shared_task(name="simulator.finish_run", acks_late=True)
def finish_run(run_id: int) -> None:
    try:
        services.run_finish(run_id)
    except Exception as exc:
        log.exception("merging run %s failed", run_id)
        services.run_fail(run_id, f"Merging the results failed: {exc.__class__.__name__}: {exc}")
        raise
