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
from django.db import reset_queries

from . import runner, services
from .models import SimulationChunk

log = logging.getLogger(__name__)


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
    plan = runner.chunk_plan(run.mode, run.games)
    stored = set(SimulationChunk.objects.filter(run_id=run_id).values_list("index", flat=True))
    missing = [index for index, _, _ in plan if index not in stored]
    if not missing:
        finish_run.delay(run_id)
        return
    group(run_chunk.si(run_id, index) for index in missing).apply_async()


@shared_task(name="simulator.run_chunk", acks_late=True, ignore_result=True)
def run_chunk(run_id: int, index: int) -> None:
    _fresh()
    try:
        services.chunk_store(run_id, index)
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
    Returns how many runs were sent. (Added for issue 7, faults: queued runs finish after the broker returns.)
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
