"""A regions tuning run through a broker and a real worker process (the harness of test_broker.py): `compare
--game regions --queue` gives the in-process JSON, except `elapsed_s`, with the game's own time allowance."""
import json

import pytest

from simulator.engines.regions import STRATEGY_DIR
from tests.simulator.test_broker import Worker, _env, _manage, strip

pytestmark = [pytest.mark.broker, pytest.mark.slow]

ARGS = ("compare", str(STRATEGY_DIR / "big-money.txt"), str(STRATEGY_DIR / "wide-board.txt"), "--game", "regions",
        "--gauntlet", str(STRATEGY_DIR / "region-control.txt"), str(STRATEGY_DIR / "worker-engine.txt"),
        "--games", "150", "--seed", "3")


def test_queued_regions_comparison_equals_the_in_process_one(tmp_path):
    env = _env(tmp_path)
    done = _manage(env, "migrate", "--noinput", "-v0")
    assert done.returncode == 0, done.stderr
    here = _manage(env, *ARGS, "--json")
    assert here.returncode == 0, here.stderr
    env = _env(tmp_path, "filesystem://")
    worker = Worker(env)
    try:
        queued = _manage(env, *ARGS, "--json", "--queue", "--timeout", "400", timeout=450)
        assert queued.returncode == 0, f"{queued.stderr}\n--- worker ---\n{worker.output()}"
    finally:
        worker.stop()
    result = json.loads(queued.stdout)
    assert result["game"] == "regions" and result["opponents"][1]["games"] == 150
    assert strip(result) == strip(json.loads(here.stdout))
