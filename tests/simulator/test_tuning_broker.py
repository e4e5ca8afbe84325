"""Tuning runs end to end through a real broker and a real worker process: `compare`, `tune` and
`matrix --queue` give the in-process JSON, except `elapsed_s` (the same harness as test_broker.py)."""
import json
from pathlib import Path

import pytest

from .test_broker import BROKERS, Worker, _env, _manage, strip

pytestmark = [pytest.mark.broker, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
STARTERS = ROOT / "cards" / "data" / "starters"
CORE = ROOT / "cards" / "data" / "core.json"
RUNS = {
    "compare": ("compare", str(STARTERS / "camelot.txt"), str(STARTERS / "summer.txt"), "--gauntlet",
                str(STARTERS / "winter.txt"), "--games", "120", "--seed", "5"),
    "tune": ("tune", str(STARTERS / "winter.txt"), "--games", "80", "--max-games", "20000", "--seed", "5"),
    "matrix": ("matrix", str(STARTERS / "camelot.txt"), str(STARTERS / "winter.txt"), str(STARTERS / "eleven.txt"),
               "--games", "60", "--seed", "5"),
}


@pytest.fixture(scope="module")
def tune_db(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tune-e2e")
    env = _env(tmp)
    for args in (("migrate", "--noinput", "-v0"), ("loadcards", str(CORE))):
        done = _manage(env, *args)
        assert done.returncode == 0, done.stderr
    return tmp


@pytest.mark.parametrize("broker", BROKERS)
def test_queued_tuning_runs_equal_in_process_runs(tune_db, broker):
    here = {}
    for kind, args in RUNS.items():
        done = _manage(_env(tune_db), *args, "--json")
        assert done.returncode == 0, done.stderr
        here[kind] = json.loads(done.stdout)
    env = _env(tune_db, broker)
    worker = Worker(env)
    try:
        for kind, args in RUNS.items():
            done = _manage(env, *args, "--json", "--queue", "--timeout", "400", timeout=450)
            assert done.returncode == 0, f"{done.stderr}\n--- worker ---\n{worker.output()}"
            assert strip(json.loads(done.stdout)) == strip(here[kind]), kind
    finally:
        worker.stop()
