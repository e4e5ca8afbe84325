"""Faults, end to end with real processes ("Faults"): the broker stops and comes back, a whole worker
is killed mid-run. Reuses the simulator's broker-test helpers (a scratch SQLite database with the simulator's
test cards, a real `celery worker` process) from tests/simulator/test_broker.py.

- Broker stopped: POST /api/simulations/ answers 503 with a message and the run's id; the run is kept
  (pending). A run queued just before the broker stopped stays in the broker (Redis with its append-only file,
  as deployed). When the broker is back, beat's `simulator.requeue_pending` hands the pending run to the
  workers, and both runs finish with exactly the numbers of an in-process run of the same request.
- Worker killed: SIGKILL to the whole worker (main process and pool) mid-run, then a fresh worker: the run
  finishes with the same numbers (acks_late + reject_on_worker_lost; the chunks already stored are kept).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.simulator.test_broker import (  # noqa: F401  (e2e_db and in_process are fixtures)
    BROKERS, PY, ROOT, RUNS, Worker, _env, _manage, e2e_db, in_process, strip,
)

from tests.simulator.cards import CAMELOT_LIST, WINTER_LIST

pytestmark = [pytest.mark.broker, pytest.mark.slow]

REDIS = shutil.which("redis-server")
HANDS = {"mode": "hands", "games": 5000, "seed": 21}
GOLDFISH = {"mode": "goldfish", "games": 450, "seed": 21}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Redis:
    """A private redis-server with an append-only file, as a production broker would run."""

    def __init__(self, tmp: Path):
        self.port = _free_port()
        self.dir = tmp / f"redis-{self.port}"
        self.dir.mkdir()
        self.proc = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir), "--appendonly", "yes",
             "--appendfsync", "always", "--save", "", "--daemonize", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: redis flushes its append-only file and exits
            self.proc.wait(timeout=20)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


def numbers(result: dict) -> dict:
    """A result without `elapsed_s` and without the deck's display fields (a run sent through the API is named
    after the list's first comment line; the command line names it after the file): the numbers."""
    out = strip(result)
    for side in ("deck", "opponent"):
        if isinstance(out.get(side), dict):
            out[side] = {k: v for k, v in out[side].items() if k in ("hash", "faction", "legal")}
    return out


def _api_post(env: dict, body: dict) -> tuple[int, dict]:
    code = ("import json, sys; from django.test import Client; from django.contrib.auth.models import User; "
            "c = Client(SERVER_NAME='localhost'); c.force_login(User.objects.get_or_create(username='faults')[0]); "
            "r = c.post('/api/simulations/', data=sys.stdin.read(), "
            "content_type='application/json'); print('RESULT', r.status_code, r.content.decode())")
    done = subprocess.run([PY, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, input=json.dumps(body), timeout=120)
    assert done.returncode == 0, done.stderr
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("RESULT "))
    _, status, payload = line.split(" ", 2)
    return int(status), json.loads(payload)


def _runs(env: dict, ids: list[int]) -> dict[int, dict]:
    code = ("import json; from simulator.models import SimulationRun as R; "
            f"print(json.dumps({{r.pk: {{'status': r.status, 'error': r.error, 'result': r.result}} "
            f"for r in R.objects.filter(pk__in={ids!r})}}))")
    # (the shell's own banner, if any, comes first; the JSON is the last line)
    done = subprocess.run([PY, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return {int(k): v for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def _wait_done(env: dict, ids: list[int], timeout: float, worker: Worker) -> dict[int, dict]:
    deadline = time.monotonic() + timeout
    while True:
        runs = _runs(env, ids)
        if all(r["status"] in ("done", "failed") for r in runs.values()):
            return runs
        if time.monotonic() > deadline:
            raise AssertionError(f"runs not finished: {runs}\n--- worker ---\n{worker.output()}")
        time.sleep(1)


class Beat:
    def __init__(self, env: dict, tmp: Path):
        self.log = open(tmp / f"beat-{time.time_ns()}.log", "w+")
        self.proc = subprocess.Popen([PY, "-m", "celery", "-A", "roc_site", "beat", "--loglevel=INFO",
                                      "-s", str(tmp / f"beat-schedule-{time.time_ns()}")],
                                     cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=20)
        self.log.close()


@pytest.mark.processes
@pytest.mark.skipif(REDIS is None, reason="redis-server is not installed")
def test_broker_stopped_answers_503_and_no_run_is_lost(e2e_db, in_process, tmp_path):
    redis = Redis(tmp_path)
    text = CAMELOT_LIST.read_text(encoding="utf-8")
    env = _env(e2e_db, redis.url)
    env["CELERY_REQUEUE_INTERVAL_S"] = "2"
    worker = beat = None
    try:
        redis.start()
        # A run queued while no worker is up: its message waits in the broker.
        status, queued = _api_post(env, {**GOLDFISH, "text": text})
        assert status == 202, queued
        # The broker stops.
        redis.stop()
        status, refused = _api_post(env, {**HANDS, "text": text})
        assert status == 503, refused
        assert "unavailable" in refused["detail"] and "nothing is lost" in refused["detail"]
        saved = _runs(env, [refused["id"], queued["id"]])
        assert saved[refused["id"]]["status"] == "pending"
        assert "could not be reached" in saved[refused["id"]]["error"]
        assert saved[queued["id"]]["status"] == "queued"
        # It comes back (same data directory); a worker and beat start.
        redis.start()
        worker = Worker(env, concurrency=2)
        beat = Beat(env, tmp_path)
        runs = _wait_done(env, [refused["id"], queued["id"]], timeout=240, worker=worker)
        assert runs[queued["id"]]["status"] == "done", runs[queued["id"]]["error"]
        assert runs[refused["id"]]["status"] == "done", runs[refused["id"]]["error"]
        assert numbers(runs[queued["id"]]["result"]) == numbers(in_process["goldfish"])
        assert numbers(runs[refused["id"]]["result"]) == numbers(in_process["hands"])
    finally:
        for proc in (beat, worker):
            if proc is not None:
                proc.stop()
        redis.stop()


# How many head-to-head games the killed run plays (ROC_FAULT_GAMES=8000 for the figures of docs/reliability.md).
FAULT_GAMES = int(os.environ.get("ROC_FAULT_GAMES", "250"))
# A killed worker's chunks are back, and its run finished, within this many seconds of a fresh worker being
# ready, on every broker (plus the time the chunks themselves take: ROC_FAULT_GAMES in plain Python).
REDELIVERY_BOUND_S = 30


@pytest.mark.processes
@pytest.mark.parametrize("broker", BROKERS)
def test_a_whole_worker_killed_mid_run_then_restarted_loses_nothing(e2e_db, in_process, broker):
    """SIGKILL to the worker's process group (main process and pool together) while chunk 0 is being
    computed, then a fresh worker. The killed worker's messages come back: on the filesystem broker from its
    in-flight folder as soon as another consumer sees it is dead (roc_site/celery.py); on RabbitMQ when its
    connection drops; on Redis once older than the visibility timeout (20 s: live workers re-stamp what they
    hold, roc_site/celery.py RedisUnackedHeartbeat; a sweep every 2 s). The settings are the defaults a deployment
    gets. Before, Redis took the 60 s timeout plus kombu's sweep every 100 s (docs/reliability.md, "Faults")."""
    env = _env(e2e_db, broker, kill_mid_chunk=True)
    # ROC_FAULT_SETTINGS="CELERY_VISIBILITY_TIMEOUT=60 ...": other broker settings, e.g. the old ones to compare
    env.update(dict(kv.split("=", 1) for kv in os.environ.get("ROC_FAULT_SETTINGS", "").split()))
    text = CAMELOT_LIST.read_text(encoding="utf-8")
    worker = Worker(env, concurrency=2)
    second = None
    # An identical request gets the stored run (this module's database is shared by the parameters): start clean.
    _manage(env, "shell", "-c", "from simulator.models import SimulationRun; SimulationRun.objects.all().delete()")
    try:
        status, body = _api_post(env, {"mode": "versus", "games": FAULT_GAMES, "seed": 21, "text": text,
                                       "opponent": WINTER_LIST.read_text(encoding="utf-8")})
        assert status == 202, body
        deadline = time.monotonic() + 90
        computing = f"computing chunk 0 of run {body['id']} "
        while computing not in worker.output(tail=None) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert computing in worker.output(tail=None), worker.output()
        os.killpg(worker.proc.pid, signal.SIGKILL)
        worker.proc.wait(timeout=20)
        killed = time.monotonic()
        at_kill = _runs(env, [body["id"]])[body["id"]]
        assert at_kill["status"] in ("queued", "running"), f"the run was {at_kill['status']} when the worker was killed"
        second = Worker(env, concurrency=2)
        ready = second.wait_ready()
        while computing not in second.output(tail=None) and time.monotonic() < ready + 240:
            time.sleep(0.05)
        redelivered = time.monotonic() - ready
        runs = _wait_done(env, [body["id"]], timeout=600, worker=second)
        assert runs[body["id"]]["status"] == "done", runs[body["id"]]["error"]
        waited = time.monotonic() - ready
        print(f"\n{broker.split(':')[0]}: {FAULT_GAMES} games; the new worker was ready {ready - killed:.1f} s after "
              f"the kill, took the killed chunk {redelivered:.1f} s after it was ready, and the run finished "
              f"{waited:.1f} s after it was ready")
        assert redelivered < REDELIVERY_BOUND_S, f"the killed chunk came back {redelivered:.0f} s after the restart"
        if FAULT_GAMES <= 250:  # a larger run's own chunks take longer than the bound in plain Python
            assert waited < REDELIVERY_BOUND_S, f"the run took {waited:.0f} s after the new worker was ready"
        assert f"computing chunk 0 of run {body['id']} " in second.output(tail=None), \
            "chunk 0 was not computed again by the fresh worker: it had been stored before the kill"
        if FAULT_GAMES == 250:
            assert numbers(runs[body["id"]]["result"]) == numbers(in_process["versus"])
    finally:
        worker.stop()
        if second is not None:
            second.stop()


@pytest.mark.processes
@pytest.mark.skipif(not os.environ.get("ROC_TEST_REDIS_URL"), reason="ROC_TEST_REDIS_URL is not set")
def test_redis_never_hands_out_a_chunk_still_being_computed(e2e_db):
    """With a visibility timeout shorter than every chunk (1 s; a chunk of 200 games takes longer in plain
    Python), a live worker's heartbeat keeps each chunk from being handed to its second pool process: every
    chunk is computed exactly once. Without the heartbeat each chunk came back after 1 s and was computed again."""
    env = _env(e2e_db, os.environ["ROC_TEST_REDIS_URL"], kill_mid_chunk=True)
    env.update({"CELERY_VISIBILITY_TIMEOUT": "1", "CELERY_UNACKED_HEARTBEAT_S": "0.2",
                "CELERY_RESTORE_INTERVAL_S": "0.2"})
    text = CAMELOT_LIST.read_text(encoding="utf-8")
    _manage(env, "shell", "-c", "from simulator.models import SimulationRun; SimulationRun.objects.all().delete()")
    worker = Worker(env, concurrency=2)
    try:
        worker.wait_ready()
        status, body = _api_post(env, {"mode": "versus", "games": 800, "seed": 5, "text": text,
                                       "opponent": WINTER_LIST.read_text(encoding="utf-8")})
        assert status == 202, body
        runs = _wait_done(env, [body["id"]], timeout=240, worker=worker)
        assert runs[body["id"]]["status"] == "done", runs[body["id"]]["error"]
        log = worker.output(tail=None)
        counts = [log.count(f"computing chunk {i} of run {body['id']} ") for i in range(4)]
        assert counts == [1, 1, 1, 1], f"chunks computed {counts} times\n{log[-3000:]}"
    finally:
        worker.stop()
