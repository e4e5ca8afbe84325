"""End to end through a real broker and a real `celery -A roc_site worker` process ("Celery").

Each test gets its own SQLite file and var/ folder (the worker is another process, so it cannot see the test
database), loads the simulator's test cards there, starts a worker on the broker under test, runs
`manage.py simulate --queue`, and checks the JSON equals the in-process run's, except `elapsed_s`
(CONTRACTS §3). The filesystem transport always runs; Redis and RabbitMQ run when ROC_TEST_REDIS_URL /
ROC_TEST_AMQP_URL are set (CI sets both).
"""
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .cards import CAMELOT_LIST, CARD_FILE, WINTER_LIST

pytestmark = [pytest.mark.broker, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable

BROKERS = [pytest.param("filesystem://", id="filesystem")]
for _name, _var in (("redis", "ROC_TEST_REDIS_URL"), ("rabbitmq", "ROC_TEST_AMQP_URL")):
    BROKERS.append(pytest.param(os.environ.get(_var), id=_name, marks=pytest.mark.skipif(
        not os.environ.get(_var), reason=f"{_var} is not set")))


def _env(tmp: Path, broker: str | None = None, kill_mid_chunk: bool = False) -> dict:
    """The environment of a worker or command. `kill_mid_chunk`: the pure-Python engine, so that chunk 0 (200 games)
    takes about a second, time enough to kill it mid-chunk (the compiled engine can finish it before the kill
    lands on a busy machine; the numbers are the same)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DJANGO_", "DATABASE_URL"))}
    env.update({"DJANGO_SETTINGS_MODULE": "roc_site.settings.dev", "ROC_VAR_DIR": str(tmp / "var"),
                "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}", "PYTHONUNBUFFERED": "1"})
    if broker:
        env["CELERY_BROKER_URL"] = broker
        # a queue of this test process's own: a shared Redis or RabbitMQ may have other workers on "celery"
        env["CELERY_TASK_DEFAULT_QUEUE"] = f"roc-test-{os.getpid()}"
    if kill_mid_chunk:
        env["ROC_ENGINE_PURE"] = "1"
    return env


def _manage(env: dict, *args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def e2e_db(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sim-e2e")
    env = _env(tmp)
    for args in (("migrate", "--noinput", "-v0"), ("loadcards", str(CARD_FILE))):
        done = _manage(env, *args)
        assert done.returncode == 0, done.stderr
    return tmp


@pytest.fixture(scope="module")
def in_process(e2e_db):
    """The reference results, computed in-process (no broker)."""
    env = _env(e2e_db)
    out = {}
    for mode, args in RUNS.items():
        done = _manage(env, "simulate", *args, "--json")
        assert done.returncode == 0, done.stderr
        out[mode] = json.loads(done.stdout)
    return out


RUNS = {
    "goldfish": (str(CAMELOT_LIST), "--mode", "goldfish", "--games", "450", "--seed", "21"),
    "hands": (str(CAMELOT_LIST), "--mode", "hands", "--games", "5000", "--seed", "21"),
    "versus": (str(CAMELOT_LIST), "--mode", "versus", "--opponent", str(WINTER_LIST), "--games", "250",
               "--seed", "21"),
}


class Worker:
    def __init__(self, env: dict, concurrency: int = 2):
        self.log = open(Path(env["ROC_VAR_DIR"]) / f"worker-{time.time_ns()}.log", "w+")
        self.proc = subprocess.Popen(
            [PY, "-m", "celery", "-A", "roc_site", "worker", f"--concurrency={concurrency}", "--loglevel=INFO",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"e2e-{os.getpid()}@%h"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, timeout: float = 120) -> float:
        """Wait for the worker's "ready." line; returns time.monotonic() when it was seen."""
        deadline = time.monotonic() + timeout
        while " ready." not in self.output(tail=None):
            assert self.proc.poll() is None and time.monotonic() < deadline, self.output()
            time.sleep(0.05)
        return time.monotonic()

    def children(self) -> list[int]:
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True).stdout
        return [int(p) for p in out.split()]

    def stop(self) -> None:
        self.stopped_by_sigkill = False
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.stopped_by_sigkill = True
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.log.close()

    def output(self, tail: int | None = 3000) -> str:
        self.log.flush()
        self.log.seek(0)
        text = self.log.read()
        return text[-tail:] if tail else text


def strip(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "elapsed_s"}


@pytest.mark.processes
@pytest.mark.parametrize("broker", BROKERS)
def test_queued_runs_equal_in_process_runs(e2e_db, in_process, broker):
    env = _env(e2e_db, broker)
    worker = Worker(env)
    try:
        for mode, args in RUNS.items():
            done = _manage(env, "simulate", *args, "--json", "--queue", "--timeout", "400", timeout=450)
            assert done.returncode == 0, f"{done.stderr}\n--- worker ---\n{worker.output()}"
            queued = json.loads(done.stdout)
            assert strip(queued) == strip(in_process[mode]), mode
            assert queued["elapsed_s"] > 0
    finally:
        worker.stop()


def _computing(worker: Worker) -> list[tuple[int, int, int]]:
    """(chunk, run, pid) of every 'computing chunk' line the worker has logged so far (simulator/services.py)."""
    return [(int(m[0]), int(m[1]), int(m[2]))
            for m in re.findall(r"computing chunk (\d+) of run (\d+) in process (\d+)", worker.output(tail=None))]


def _wait_for_children(worker: Worker, count: int, timeout: float = 30) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        kids = worker.children()
        if len(kids) == count:
            return kids
        time.sleep(0.05)
    raise AssertionError(f"the worker has {worker.children()} pool processes, not {count}\n{worker.output()}")


@pytest.mark.processes
@pytest.mark.parametrize("broker", BROKERS)
def test_pool_processes_killed_mid_run_lose_nothing(e2e_db, in_process, broker):
    """SIGKILL to single pool processes (not the whole worker) while a run is going: the process computing
    chunk 0, and an idle one. The run finishes with the numbers of the in-process run, soon.

    The idle kill is the one that used to strand the run on the filesystem broker: billiard's blocking pool
    (used with transports that are not asynchronous) hands tasks to its children through one shared pipe
    whose lock an idle child holds while it waits, so killing that child left the lock held forever and no
    process read the next message (roc_site/celery.py). The killed chunk comes back (acks_late +
    reject_on_worker_lost) and is computed again, which the test checks from the worker's log.
    """
    env = _env(e2e_db, broker, kill_mid_chunk=True)
    worker = Worker(env, concurrency=3)
    proc = None
    try:
        before = set(_wait_for_children(worker, 3))
        started = time.monotonic()
        proc = subprocess.Popen([PY, "manage.py", "simulate", *RUNS["versus"], "--json", "--queue", "--timeout", "200"],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        busy = None
        deadline = time.monotonic() + 90
        while busy is None and time.monotonic() < deadline and proc.poll() is None:
            busy = next((pid for chunk, _, pid in _computing(worker) if chunk == 0), None)
            time.sleep(0.01)
        assert busy is not None, f"chunk 0 never started\n{worker.output()}"
        os.kill(busy, signal.SIGKILL)
        computing = {pid for _, _, pid in _computing(worker)}
        idle = [pid for pid in worker.children() if pid in before and pid not in computing]
        for pid in idle:
            os.kill(pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=120)
        took = time.monotonic() - started
        assert proc.returncode == 0, f"{err}\n--- worker ---\n{worker.output()}"
        assert strip(json.loads(out)) == strip(in_process["versus"])
        assert [c for c, _, _ in _computing(worker)].count(0) == 2, \
            f"chunk 0 was not killed mid-chunk and computed again\n{worker.output()}"
        assert idle, "no idle pool process to kill"
        assert took < 60, f"the run took {took:.0f} s after the kills"
        # the pool logs each child's death when it reaps it, which can come after the run has finished
        deadline = time.monotonic() + 20
        while worker.output(tail=None).count("exited with 'signal 9 (SIGKILL)'") < 1 + len(idle) \
                and time.monotonic() < deadline:
            time.sleep(0.1)
        assert worker.output(tail=None).count("exited with 'signal 9 (SIGKILL)'") == 1 + len(idle)
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
        worker.stop()
    assert not worker.stopped_by_sigkill, "the worker did not shut down on SIGTERM within 20 s"


@pytest.mark.processes
def test_a_broker_that_is_down_is_reported_and_the_run_is_kept(e2e_db):
    env = _env(e2e_db, "redis://127.0.0.1:1/0")  # nothing listens on port 1
    started = time.monotonic()
    done = _manage(env, "simulate", *RUNS["hands"], "--json", "--queue", timeout=120)
    assert done.returncode == 3, done.stderr
    assert "queue is unavailable" in done.stderr and "nothing is lost" in done.stderr
    assert time.monotonic() - started < 60
    shown = _manage(_env(e2e_db), "shell", "-c", "from simulator.models import SimulationRun as R; "
                    "r = R.objects.order_by('-id').first(); print(r.status, '|', r.error)")
    assert "pending |" in shown.stdout and "could not be reached" in shown.stdout
