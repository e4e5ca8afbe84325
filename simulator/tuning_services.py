"""Writes for tuning runs (STYLE §7): creating a run under the limits, dispatching its stages, storing units.

The API, the pages and the commands' --queue go through `tuning_request` / `tuning_from_spec`; the Celery tasks
(tuning_tasks.py) through `unit_store`, `stage_advance` and `tuning_fail`. A stage's units are stored under
(run, stage, index); the unit that completes a stage sends `advance`, which plans the next stage from every
stored partial (tuning.plan_stage: a pure function of them) or merges the report.
"""
from __future__ import annotations

import logging
import time

from django.db import IntegrityError, transaction
from django.utils import timezone

from . import runner, tuning
from .models import IN_FLIGHT, RunStatus, SimulationRun, TuningRun, TuningUnit
from .services import BrokerUnavailable, LimitExceeded, _identical, limits_for
from .tuning_input import build_tuning_spec

log = logging.getLogger(__name__)
CANCELLED = TuningRun.CANCELLED


def request_key(spec: dict) -> str:
    body = {k: spec[k] for k in ("kind", "games", "seed", "policy", "opponent_policy", "max_rounds", "target",
                                 "engine_version", "room", "max_candidates")}
    body["decks"] = [d["data_hash"] for d in spec["decks"]]
    body["gauntlet"] = [d["data_hash"] for d in spec["gauntlet"]]
    if spec.get("game"):   # only a hosted game's runs carry it, so the default game, r1's keys stay as they were
        body["game"] = spec["game"]
    import hashlib

    return hashlib.sha256(runner.canonical_json(body).encode()).hexdigest()


def _title(spec: dict) -> str:
    names = [d["name"] for d in spec["decks"]]
    if spec["kind"] == "compare":
        return f"{names[0]} against {names[1]}"
    if spec["kind"] == "tune":
        game = tuning.hosted(spec)
        swaps = game.SWAPS if game is not None else "Card swaps"
        target = "goldfish speed" if spec["target"] == "goldfish" else "win rate"
        return f"{swaps} for {names[0]} ({target})"
    game = tuning.hosted(spec)
    return f"Meta matrix of {len(names)} {game.SIDES if game is not None else 'decks'}"


def games_limit(user) -> int:
    """The most games one tuning run may play: the simulator's versus limit for this visitor (CONTRACTS §4)."""
    return limits_for(user).max_games["versus"]


def tuning_request(*, kind, decks, gauntlet=None, games=None, seed=None, policy=None, opponent_policy=None,
                   target=None, owned=None, user=None, session_key: str = "", private: bool = False,
                   dispatch: bool = True, game: str | None = None) -> tuple[TuningRun, bool]:
    """Validate, deduplicate and queue a tuning run. Returns (run, created). A repeat of a finished request is
    answered from the stored result. Raises TuningError / LimitExceeded (-> 400), BrokerUnavailable (-> 503)."""
    limits = limits_for(user)
    cap = limits.max_games["versus"]
    spec = build_tuning_spec(kind=kind, decks=decks, gauntlet=gauntlet, games=games, seed=seed, policy=policy,
                             opponent_policy=opponent_policy, target=target, owned=owned, budget=cap, game=game)
    planned = tuning.planned_games(spec) if kind != "tune" else _tune_bound(spec)
    if planned > cap:
        raise LimitExceeded(f"Limit: this run would play about {planned:,} games; at most {cap:,} per run for "
                            f"{'signed-in users' if limits.who == 'user' else 'anonymous users; sign in for more'}."
                            " Ask for fewer games, or fewer decks.")
    key = request_key(spec)
    signed_in = user is not None and getattr(user, "is_authenticated", False)
    existing = _identical(TuningRun, key, user, session_key)   # simulator/services.py explains
    if existing is not None:
        if existing.status == RunStatus.PENDING and dispatch:
            tuning_dispatch(existing)
        return existing, False
    owner = {"user": user} if signed_in else ({"user__isnull": True, "session_key": session_key}
                                              if session_key else None)
    if owner is not None:
        flying = (TuningRun.objects.filter(status__in=IN_FLIGHT, **owner).count()
                  + SimulationRun.objects.filter(status__in=IN_FLIGHT, **owner).count())
        if flying >= limits.in_flight:
            raise LimitExceeded(f"Limit: at most {limits.in_flight} simulation(s) in progress at once for "
                                f"{'a signed-in user' if limits.who == 'user' else 'an anonymous visitor'} "
                                "(tuning runs count too); wait for the running one to finish.")
    run = tuning_from_spec(spec, user=user if signed_in else None, session_key="" if signed_in else session_key,
                           private=private)
    if dispatch:
        tuning_dispatch(run)
    return run, True


def _tune_bound(spec: dict) -> int:
    return tuning.tune_bound(spec, spec["max_candidates"]) if spec["pool"] else tuning.profile_games(spec)


def tuning_from_spec(spec: dict, *, user=None, session_key: str = "", private: bool = False,
                     nightly: bool = False) -> TuningRun:
    """A new run of a built spec, not deduplicated and under no limit (the commands' --queue, the nightly job)."""
    return TuningRun.objects.create(
        kind=spec["kind"], game=spec.get("game") or "", games=spec["games"], seed=spec["seed"], policy=spec["policy"],
        opponent_policy=spec["opponent_policy"], target=spec["target"] or "", engine_version=spec["engine_version"],
        request_key=request_key(spec), title=_title(spec)[:300], spec=spec,
        games_planned=tuning.planned_games(spec), user=user, session_key=session_key or "", private=private,
        nightly=nightly)


def tuning_dispatch(run: TuningRun) -> None:
    from .tuning_tasks import tuning_start

    try:
        tuning_start.apply_async(args=[run.pk], retry=True,
                                 retry_policy={"max_retries": 2, "interval_start": 0, "interval_step": 0.5,
                                               "interval_max": 1})
    except Exception as exc:
        log.warning("broker unavailable for tuning run %s: %s", run.pk, exc)
        TuningRun.objects.filter(pk=run.pk).update(error=f"The queue could not be reached ({exc.__class__.__name__});"
                                                         " send the same request again once it is back.")
        raise BrokerUnavailable("The simulation queue is unavailable right now; your run is saved "
                                f"(id {run.pk}) and nothing is lost. Try again in a minute.", run) from exc
    TuningRun.objects.filter(pk=run.pk, status=RunStatus.PENDING).update(status=RunStatus.QUEUED, error="")


def tuning_cancel(run: TuningRun) -> TuningRun:
    """Stop a run: units not yet computed are skipped, and nothing more is planned."""
    TuningRun.objects.filter(pk=run.pk, status__in=IN_FLIGHT).update(status=CANCELLED, finished_at=timezone.now())
    run.refresh_from_db()
    return run


# ---- used by the tasks -----------------------------------------------------------------------------------
def _done_stages(run_id: int, upto: int) -> list[list[dict]]:
    rows = TuningUnit.objects.filter(run_id=run_id, stage__lt=upto).order_by("stage", "index")
    done: list[list[dict]] = [[] for _ in range(upto)]
    for stage, result in rows.values_list("stage", "result"):
        done[stage].append(result)
    return done


def stage_start(run_id: int) -> tuple[int, list[dict]] | None:
    """Mark the run running and plan stage 0 (if not planned yet). Returns (stage, units) to dispatch."""
    run = TuningRun.objects.filter(pk=run_id).first()
    if run is None or run.is_finished:
        return None
    TuningRun.objects.filter(pk=run_id, status__in=(RunStatus.PENDING, RunStatus.QUEUED)).update(
        status=RunStatus.RUNNING, started_at=timezone.now())
    if not run.stage_units:
        units = tuning.plan_stage(run.spec, [])
        TuningRun.objects.filter(pk=run_id, stage=0).update(stage_units=units)
        run.refresh_from_db()
    return run.stage, run.stage_units


def unit_store(run_id: int, stage: int, index: int) -> bool:
    """Compute and store one unit unless it is stored already or the run is over. True if it computed."""
    if TuningUnit.objects.filter(run_id=run_id, stage=stage, index=index).exists():
        return False
    run = TuningRun.objects.filter(pk=run_id).defer("spec", "result").first()
    if run is None or run.is_finished or run.stage != stage:
        return False
    unit = run.stage_units[index]
    started = time.perf_counter()
    part = tuning.run_unit(_spec(run), unit)
    try:
        with transaction.atomic():
            TuningUnit.objects.create(run_id=run_id, stage=stage, index=index, result=part, games=unit["size"],
                                      elapsed_s=time.perf_counter() - started)
            done = _games_done(run_id)
            TuningRun.objects.filter(pk=run_id, games_done__lt=done).update(
                games_done=done, progress=min(done / max(run.games_planned, done, 1), 1.0) * 0.999)
    except IntegrityError:
        return False
    return True


_SPECS: dict[tuple, dict] = {}  # a run's spec never changes: a worker reads it (card data and all) once


def _spec(run: TuningRun) -> dict:
    key = (run.pk, run.created_at)  # an id alone could come back after a database reset (tests)
    spec = _SPECS.get(key)
    if spec is None:
        if len(_SPECS) >= 16:
            _SPECS.clear()
        spec = _SPECS[key] = TuningRun.objects.values_list("spec", flat=True).get(pk=run.pk)
    return spec


def _games_done(run_id: int) -> int:
    from django.db.models import Sum

    return TuningUnit.objects.filter(run_id=run_id).aggregate(n=Sum("games"))["n"] or 0


def stage_complete(run_id: int, stage: int) -> bool:
    run = TuningRun.objects.filter(pk=run_id).only("status", "stage", "stage_units", "kind").first()
    if run is None or run.is_finished or run.stage != stage:
        return False
    return TuningUnit.objects.filter(run_id=run_id, stage=stage).count() >= len(run.stage_units)


def stage_advance(run_id: int, stage: int) -> tuple[int, list[dict]] | None:
    """Stage `stage` is complete: plan the next one (returned, to dispatch) or store the report (None).
    Idempotent: a second call for the same stage finds the run moved on and does nothing."""
    run = TuningRun.objects.filter(pk=run_id).first()
    if run is None or run.is_finished or run.stage != stage:
        return None
    done = _done_stages(run_id, stage + 1)
    units = tuning.plan_stage(run.spec, done)
    if units is None:
        result = tuning.finalize(run.spec, done)
        now = timezone.now()
        elapsed = round((now - (run.started_at or run.created_at)).total_seconds(), 3)
        result["elapsed_s"] = elapsed
        TuningRun.objects.filter(pk=run_id, stage=stage).exclude(status__in=(RunStatus.DONE, CANCELLED)).update(
            status=RunStatus.DONE, result=result, progress=1.0, finished_at=now, elapsed_s=elapsed, error="")
        return None
    planned = tuning.tune_planned_games(run.spec, done) if run.kind == "tune" else run.games_planned
    moved = TuningRun.objects.filter(pk=run_id, stage=stage).update(stage=stage + 1, stage_units=units,
                                                                    games_planned=planned)
    return (stage + 1, units) if moved else None


def tuning_fail(run_id: int, reason: str) -> None:
    TuningRun.objects.filter(pk=run_id).exclude(status__in=(RunStatus.DONE, CANCELLED)).update(
        status=RunStatus.FAILED, error=reason[:2000], finished_at=timezone.now())


def tuning_execute_here(run: TuningRun) -> TuningRun:
    """Every stage of a stored run in this process, through the same store/plan path as the workers."""
    planned = stage_start(run.pk)
    while planned is not None:
        stage, units = planned
        for index in range(len(units)):
            unit_store(run.pk, stage, index)
        planned = stage_advance(run.pk, stage)
    run.refresh_from_db()
    return run


def most_liked_decklists(limit: int) -> list[tuple[str, str]]:
    """(name, text) of the most-liked published decklists, ties by newest."""
    from django.db.models import Count

    from decks.decklist import export_decklist
    from decks.models import Decklist
    from decks.pool import CardPool

    pool = CardPool.from_db()
    rows = (Decklist.objects.annotate(n_likes=Count("likes")).order_by("-n_likes", "-pk")[:limit])
    out = []
    for dl in rows:
        counts = {r.card_code: r.count for r in dl.card_rows.all()}
        out.append((dl.title, export_decklist(counts, pool)))
    return out


def nightly_matrix_run(*, decklists: int = 8, games: int = 100) -> TuningRun | None:
    """Build and queue the nightly meta matrix (or run it here when the queue is down); None with < 2 lists."""
    lists = most_liked_decklists(decklists)
    if len(lists) < 2:
        return None
    spec = build_tuning_spec(kind="matrix", decks=lists, games=games, seed=int(timezone.now().strftime("%Y%m%d")))
    run = tuning_from_spec(spec, nightly=True)
    from .access import set_shared

    set_shared(run, True)   # the site's own run, shown to everyone on /tune/meta/ (by its token, as any shared run)
    try:
        tuning_dispatch(run)
    except BrokerUnavailable:
        tuning_execute_here(run)
    return run


def latest_nightly() -> TuningRun | None:
    return TuningRun.objects.filter(nightly=True, status=RunStatus.DONE).order_by("-created_at").first()


def cell_scores(run: TuningRun, deck_ref: str, cell: str) -> list[int]:
    """The stored per-game scores of `deck_ref` in `cell` of a run, game 0 first (tuning.run_unit's scores)."""
    return tuning.scores_of(_done_stages(run.pk, run.stage + 1)).get((deck_ref, cell), [])
