"""Celery tasks of tuning runs (STYLE §9): they take ids, re-fetch, and call tuning_services.

tuning_start(run) ──► group(tuning_unit(run, 0, i) ...)   the unit that completes stage s sends
tuning_advance(run, s) ──► group(tuning_unit(run, s+1, i) ...)   or stores the report when nothing is left.

Like simulator/tasks.py: units are stored under (run, stage, index), so a redelivered unit changes nothing; no
task waits on another's result. A card-swap search has one stage per round of successive halving.
"""
from __future__ import annotations

import logging

from celery import group, shared_task
from django.db import reset_queries

from . import tuning_services as services
from .tasks import chunk_time_limits

log = logging.getLogger(__name__)


def _allowance(run_id: int) -> dict | None:
    """A hosted game's seconds per game of a unit (its tuning module's, for the run's players), None for r1's."""
    from .models import TuningRun
    from .games import run_hook

    row = TuningRun.objects.filter(pk=run_id).values("game", "policy", "opponent_policy").first()
    if not row or not row["game"]:
        return None
    hook = run_hook(row["game"], "tuning")
    return {"versus": hook().seconds_per_game((row["policy"], row["opponent_policy"]))} if hook else None


def _dispatch(run_id: int, planned) -> None:
    if planned is None:
        return
    stage, units = planned
    sigs = []
    per_game = _allowance(run_id)
    for index, unit in enumerate(units):
        soft, hard = chunk_time_limits("versus", unit["size"], per_game=per_game)
        sigs.append(tuning_unit.si(run_id, stage, index).set(soft_time_limit=soft, time_limit=hard))
    if sigs:
        group(sigs).apply_async()
    else:
        tuning_advance.delay(run_id, stage)


@shared_task(name="simulator.tuning_start", acks_late=True, ignore_result=True)
def tuning_start(run_id: int) -> None:
    reset_queries()
    _dispatch(run_id, services.stage_start(run_id))


@shared_task(name="simulator.tuning_unit", acks_late=True, ignore_result=True)
def tuning_unit(run_id: int, stage: int, index: int) -> None:
    reset_queries()
    try:
        services.unit_store(run_id, stage, index)
    except Exception as exc:
        log.exception("unit %s of stage %s of tuning run %s failed", index, stage, run_id)
        services.tuning_fail(run_id, f"Unit {index} of stage {stage} failed: {exc.__class__.__name__}: {exc}")
        raise
    if services.stage_complete(run_id, stage):
        tuning_advance.delay(run_id, stage)


@shared_task(name="simulator.tuning_advance", acks_late=True, ignore_result=True)
def tuning_advance(run_id: int, stage: int) -> None:
    reset_queries()
    try:
        planned = services.stage_advance(run_id, stage)
    except Exception as exc:
        log.exception("planning after stage %s of tuning run %s failed", stage, run_id)
        services.tuning_fail(run_id, f"Planning the next stage failed: {exc.__class__.__name__}: {exc}")
        raise
    _dispatch(run_id, planned)


@shared_task(name="simulator.nightly_matrix", ignore_result=True)
def nightly_matrix(decklists: int = 8, games: int = 100) -> int | None:
    """The meta matrix of the most-liked published decklists (Celery beat, once a night). Returns the run id."""
    from .tuning_services import nightly_matrix_run

    run = nightly_matrix_run(decklists=decklists, games=games)
    return run.pk if run is not None else None
