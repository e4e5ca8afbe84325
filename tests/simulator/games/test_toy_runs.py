"""A fourth game's runs go through the one run path with nothing but its package and its registration line: the
toy game (tests/cards/games/toy/, registered here only) runs goldfish and head-to-head through the `simulate`
command (in-process and `--queue`), the simulations API (`game` field and /toy/api/simulations/) and a real Celery
worker, and gives the same JSON wherever it ran, except `elapsed_s`."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cards.games import registry
from simulator import services
from simulator.games import engine_for, run_in_process
from simulator.models import RunStatus, SimulationChunk, SimulationRun
from tests.cards.games.toy import runs as toy_runs
from tests.cards.games.toy.game import TOY

ROOT = Path(__file__).resolve().parents[3]
RED = "".join(f"1x Token {i}\n" for i in range(1, 7)) + "2x Token 1\n2x Token 2\n"
BLUE = "".join(f"1x Token {i}\n" for i in range(7, 11))
# the toy's registration line, in a process of its own (a worker, a command)
pytestmark = pytest.mark.django_db
REGISTER = ("from cards.games import registry; from tests.cards.games.toy.game import TOY; "
            "registry.register(TOY, replace=True); ")


@pytest.fixture
def toy():
    registry.register(TOY, replace=True)
    yield TOY
    registry.unregister("toy")


@pytest.fixture
def decks(tmp_path):
    red, blue = tmp_path / "red.txt", tmp_path / "blue.txt"
    red.write_text(RED, encoding="utf-8")
    blue.write_text(BLUE, encoding="utf-8")
    return red, blue


@pytest.fixture
def inline_queue(monkeypatch):
    """The queue runs each run at once in this process, through the workers' store/merge path (tasks → services)."""
    from simulator import tasks

    monkeypatch.setattr(tasks.start_run, "apply_async",
                        lambda args, **kwargs: services.run_execute_here(SimulationRun.objects.get(pk=args[0])))


def simulate(capsys, *args) -> dict:
    call_command("simulate", *map(str, args), "--game", "toy", "--json")
    return json.loads(capsys.readouterr().out)


def no_elapsed(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "elapsed_s"}


def test_the_toy_game_runs_through_its_registration_alone(toy):
    from django.urls import resolve

    from simulator.api import SimulationViewSet

    assert engine_for({"game": "toy"}) is toy_runs
    # the game's own address is the one simulations view
    assert resolve("/toy/api/simulations/").func.cls is resolve("/api/simulations/").func.cls is SimulationViewSet
    from simulator.api import RunCreateSerializer
    from simulator.games import command

    assert "toy" in RunCreateSerializer().fields["game"].choices
    assert command.engine_modes("toy") == ("goldfish", "versus")


def test_goldfish_and_versus_through_the_command(toy, decks, capsys):
    red, blue = decks
    goldfish = simulate(capsys, red, "--mode", "goldfish", "--games", "130", "--seed", "5")
    assert goldfish["mode"] == "goldfish" and goldfish["games"] == 130 and goldfish["seed"] == 5
    # the greedy player plays every token (§3) against a goldfish that never does: every game is won
    assert goldfish["wins"] == 130 and goldfish["mean_score"] == [55.0, 0.0]
    assert len(toy_runs.chunk_plan("goldfish", 130)) == 4
    versus = simulate(capsys, red, "--mode", "versus", "--opponent", blue, "--games", "90", "--seed", "5",
                      "--opponent-policy", "random")
    assert versus["wins"] + versus["losses"] + versus["draws"] == 90
    # greedy plays all ten tokens (55, the most a row can hold); random draws when it plays them all too in its
    # 15 turns, and loses when it passed too often
    assert versus["policies"] == ["greedy", "random"] and versus["losses"] == 0 and 0 < versus["wins"] < 90
    assert versus["ci95"][0] <= versus["win_rate"] <= versus["ci95"][1]
    # the same seed gives the same games however it is asked
    assert no_elapsed(versus) == no_elapsed(run_in_process(json.loads(json.dumps(toy_runs.build_spec(
        mode="versus", text=RED, opponent_text=BLUE, games=90, seed=5, opponent_policy="random",
        deck_name="red.txt", opponent_name="blue.txt")))))
    call_command("simulate", str(red), "--game", "toy", "--mode", "goldfish", "--games", "3")
    assert capsys.readouterr().out.startswith("toy goldfish: 3 games, seed 1: wins 3")


@pytest.mark.parametrize("args, message", [
    (("--mode", "hands"), "toy runs are goldfish or versus"),
    (("--mode", "versus"), "needs an opponent decklist"),
    (("--mode", "goldfish", "--policy", "psychic"), "policy: greedy or random"),
])
def test_bad_toy_requests_exit_2_and_store_nothing(toy, decks, args, message):
    with pytest.raises(CommandError, match=message) as info:
        call_command("simulate", str(decks[0]), "--game", "toy", *args)
    assert info.value.returncode == 2 and not SimulationRun.objects.exists()


def test_queued_toy_runs_equal_in_process_runs(toy, decks, capsys, inline_queue):
    red, blue = decks
    for args in (("--mode", "goldfish", "--games", "100", "--seed", "11"),
                 ("--mode", "versus", "--opponent", blue, "--games", "85", "--seed", "11",
                  "--opponent-policy", "random")):
        assert no_elapsed(simulate(capsys, red, *args, "--queue")) == no_elapsed(simulate(capsys, red, *args))
    run = SimulationRun.objects.get(mode="versus")
    assert run.spec["game"] == "toy" and run.status == RunStatus.DONE
    assert SimulationChunk.objects.filter(run=run).count() == run.chunks_total == 3


def test_toy_runs_through_the_one_simulations_api(toy, client, inline_queue, django_user_model):
    client.force_login(django_user_model.objects.create_user("toy-player", password="x"))   # so runs are listed
    body = {"mode": "versus", "text": RED, "opponent": BLUE, "games": 50, "seed": 3, "opponent_policy": "random"}
    by_field = client.post("/api/simulations/", {**body, "game": "toy"}, content_type="application/json")
    assert by_field.status_code == 202, by_field.content
    made = by_field.json()
    assert made["game"] == "toy"
    made = {**client.get(made["url"]).json(), "game": "toy"}
    assert made["status"] == "done" and made["result"]["games"] == 50
    expected = no_elapsed(run_in_process(toy_runs.build_spec(mode="versus", text=RED, opponent_text=BLUE, games=50,
                                                             seed=3, opponent_policy="random")))
    assert no_elapsed(made["result"]) == expected
    # the game's own address is the same view: the identical request finds the same run
    alias = client.post("/toy/api/simulations/", body, content_type="application/json")
    assert alias.status_code == 202 and alias.json()["cached"] and alias.json()["id"] == made["id"]
    goldfish = client.post("/toy/api/simulations/", {"mode": "goldfish", "text": RED, "games": 20},
                           content_type="application/json").json()
    assert goldfish["game"] == "toy" and client.get(goldfish["url"]).json()["result"]["wins"] == 20
    listed = client.get("/toy/api/simulations/").json()
    assert {r["id"] for r in listed["results"]} == {made["id"], goldfish["id"]}
    assert all(r["game"] == "toy" for r in listed["results"])
    bad = client.post("/toy/api/simulations/", {"mode": "versus", "text": RED}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["detail"] == "opponent: give the deck as decklist text"
    assert client.post("/api/simulations/", {"game": "toy", "mode": "goldfish", "text": "3x Nothing"},
                       content_type="application/json").status_code == 400
    assert SimulationRun.objects.count() == 2


def test_an_unregistered_game_has_no_simulations(client):
    assert client.post("/toy/api/simulations/", {"mode": "goldfish", "text": RED},
                       content_type="application/json").status_code == 404
    refused = client.post("/api/simulations/", {"game": "toy", "mode": "goldfish", "text": RED},
                          content_type="application/json")
    assert refused.status_code == 400 and "has no simulations" in refused.json()["detail"]


# ---- a real worker -------------------------------------------------------------------------------------------
def _env(tmp: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DJANGO_", "DATABASE_URL"))}
    env.update({"DJANGO_SETTINGS_MODULE": "roc_site.settings.dev", "ROC_VAR_DIR": str(tmp / "var"),
                "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}", "PYTHONUNBUFFERED": "1",
                "CELERY_TASK_DEFAULT_QUEUE": f"roc-toy-{os.getpid()}"})
    return env


def _manage(env: dict, *args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    code = REGISTER + "from django.core.management import execute_from_command_line; " \
                      "import sys; execute_from_command_line(['manage.py', *sys.argv[1:]])"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.broker
@pytest.mark.processes
@pytest.mark.slow
def test_a_celery_worker_runs_the_toy_game(tmp_path, decks):
    """`simulate --queue` on a `celery -A roc_site worker` process that registers the toy game (its registration
    line, nothing else): the JSON equals the in-process run's, except `elapsed_s`."""
    env = _env(tmp_path)
    done = _manage(env, "migrate", "--noinput", "-v0")
    assert done.returncode == 0, done.stderr
    red, blue = decks
    runs = {"goldfish": (str(red), "--mode", "goldfish", "--games", "120", "--seed", "8"),
            "versus": (str(red), "--mode", "versus", "--opponent", str(blue), "--games", "100", "--seed", "8",
                       "--opponent-policy", "random")}
    here = {}
    for mode, args in runs.items():
        done = _manage(env, "simulate", *args, "--game", "toy", "--json")
        assert done.returncode == 0, done.stderr
        here[mode] = json.loads(done.stdout)
    log = open(tmp_path / "worker.log", "w+")
    worker = subprocess.Popen(
        [sys.executable, "-c", REGISTER + "import sys; from celery.__main__ import main; sys.argv[0] = 'celery'; "
                                          "main()",
         "-A", "roc_site", "worker", "--concurrency=2", "--loglevel=INFO", "--without-gossip", "--without-mingle",
         "--without-heartbeat", "-n", f"toy-{os.getpid()}@%h"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def output() -> str:
        log.flush()
        log.seek(0)
        return log.read()[-3000:]

    try:
        deadline = time.monotonic() + 120
        while " ready." not in output():
            assert worker.poll() is None and time.monotonic() < deadline, output()
            time.sleep(0.05)
        for mode, args in runs.items():
            done = _manage(env, "simulate", *args, "--game", "toy", "--json", "--queue", "--timeout", "180")
            assert done.returncode == 0, f"{done.stderr}\n--- worker ---\n{output()}"
            queued = json.loads(done.stdout)
            assert no_elapsed(queued) == no_elapsed(here[mode]), mode
        assert "computing chunk 2 of run 2" in output()   # the versus run's third chunk, on the worker
    finally:
        os.killpg(worker.pid, 15)
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, 9)
            worker.wait(timeout=10)
        log.close()
