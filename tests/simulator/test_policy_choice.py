"""Choosing the players of a run (CONTRACTS §3): `simulate --policy/--opponent-policy`, the versus
JSON's `policies` and `struggles`, the same through the queue, the API and the simulate page."""
import json

import pytest
from django.core.management import CommandError, call_command

from simulator import runner, tasks
from simulator.models import SimulationRun

from .cards import CAMELOT_LIST, WINTER_LIST
from .test_runs import inline_queue, strip_elapsed  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db
TYPES = ("combat", "guile", "sorcery", "faith")


def simulate(capsys, *args):
    call_command("simulate", *args)
    return json.loads(capsys.readouterr().out)


def test_help_lists_the_policies(capsys):
    with pytest.raises(SystemExit):
        call_command("simulate", "--help")
    out = capsys.readouterr().out
    assert "--policy" in out and "--opponent-policy" in out
    for name in ("random", "greedy", "expert"):
        assert name in out


def test_versus_json_names_the_policies_and_counts_struggles(sim_db, capsys):
    args = [str(CAMELOT_LIST), "--mode", "versus", "--opponent", str(WINTER_LIST), "--games", "6", "--seed", "5",
            "--json"]
    out = simulate(capsys, *args, "--policy", "random", "--opponent-policy", "greedy")
    assert out["policies"] == ["random", "greedy"]
    assert set(out["struggles"]) == {"deck", "opponent"}
    for side in ("deck", "opponent"):
        assert set(out["struggles"][side]) == set(TYPES)
        for t in TYPES:
            row = out["struggles"][side][t]
            assert set(row) == {"initiated", "won", "unopposed", "defended"}
            assert row["won"] <= row["initiated"] and row["unopposed"] <= row["won"]
            assert row["defended"] <= row["initiated"]
    assert sum(out["struggles"]["opponent"][t]["initiated"] for t in TYPES) > 0
    # greedy beats random: the policies really are the ones named
    assert out["losses"] > out["wins"]
    default = simulate(capsys, *args)
    assert default["policies"] == ["greedy", "greedy"]
    assert strip_elapsed(default) != strip_elapsed(out)


def test_expert_same_seed_same_json_in_process_and_through_the_queue(sim_db, capsys, inline_queue):
    args = [str(CAMELOT_LIST), "--mode", "versus", "--opponent", str(WINTER_LIST), "--games", "2", "--seed", "3",
            "--json", "--policy", "expert:4", "--opponent-policy", "greedy"]
    here = simulate(capsys, *args)
    queued = simulate(capsys, *args, "--queue")
    assert here["policies"] == ["expert:4", "greedy"]
    assert strip_elapsed(here) == strip_elapsed(queued)
    again = simulate(capsys, *args)
    assert strip_elapsed(again) == strip_elapsed(here)


def test_goldfish_takes_a_policy(sim_db, capsys):
    out = simulate(capsys, str(CAMELOT_LIST), "--mode", "goldfish", "--games", "6", "--seed", "2", "--json",
                   "--policy", "random")
    greedy = simulate(capsys, str(CAMELOT_LIST), "--mode", "goldfish", "--games", "6", "--seed", "2", "--json")
    assert out["policy"] == "random" and greedy["policy"] == "greedy"
    assert out["win_round"] != greedy["win_round"] or out["win_rate"] != greedy["win_rate"]


@pytest.mark.parametrize("args, message", [
    (["--mode", "versus", "--policy", "nobody"], "policy must be one of"),
    (["--mode", "versus", "--policy", "expert:lots"], "the budget, a whole number"),
    (["--mode", "goldfish", "--opponent-policy", "greedy"], "--opponent-policy goes with --mode versus"),
    (["--mode", "hands", "--policy", "greedy"], "go with --mode goldfish or versus"),
])
def test_bad_policies_exit_2_naming_the_problem(sim_db, args, message):
    extra = ["--opponent", str(WINTER_LIST)] if "versus" in args else []
    with pytest.raises(CommandError, match=message) as info:
        call_command("simulate", str(CAMELOT_LIST), *args, *extra, "--games", "2")
    assert info.value.returncode == 2


def test_the_search_player_gets_small_chunks_and_a_longer_time_allowance():
    fast = runner.chunk_plan("versus", 1000, {"policy": "greedy", "opponent_policy": "greedy"})
    slow = runner.chunk_plan("versus", 1000, {"policy": "greedy", "opponent_policy": "expert"})
    assert len(fast) == 5 and len(slow) == 334 and sum(n for _, _, n in slow) == 1000   # 3 games a chunk
    assert len(runner.chunk_plan("versus", 40, {"policy": "expert"})) == 40
    assert tasks.chunk_time_limits("versus", 1, {"policy": "expert:50"})[0] > \
        tasks.chunk_time_limits("versus", 1, {"policy": "greedy"})[0]
    assert runner.chunk_plan("versus", 1000) == fast


def post(client, body):
    return client.post("/api/simulations/", data=json.dumps(body), content_type="application/json")


def test_api_accepts_the_policies(client, sim_db, camelot_text, winter_text, inline_queue):
    body = post(client, {"mode": "versus", "text": camelot_text, "opponent": winter_text, "games": 4, "seed": 2,
                         "policy": "random", "opponent_policy": "greedy"})
    assert body.status_code == 202, body.content
    got = client.get(body.json()["url"]).json()   # an anonymous client without a session: the shared link
    assert got["policies"] == ["random", "greedy"]
    assert got["result"]["policies"] == ["random", "greedy"] and "struggles" in got["result"]
    via_settings = post(client, {"mode": "versus", "text": camelot_text, "opponent": winter_text, "games": 4,
                                 "seed": 2, "settings": {"policy": "random", "opponent_policy": "greedy"}}).json()
    assert via_settings["cached"] is True and via_settings["id"] == body.json()["id"]


@pytest.mark.parametrize("extra, message", [
    ({"policy": "chess-engine"}, "policy must be one of"),
    ({"opponent_policy": "expert:1"}, "from 2 to 10000"),
    ({"policy": "random", "settings": {"policy": "greedy"}}, "given twice"),
])
def test_api_bad_policies_are_400(client, sim_db, camelot_text, winter_text, extra, message):
    response = post(client, {"mode": "versus", "text": camelot_text, "opponent": winter_text, "games": 4, **extra})
    assert response.status_code == 400 and message in response.json()["detail"]
    assert not SimulationRun.objects.exists()


def test_simulate_page_offers_fast_and_strong_with_the_expected_time(client, sim_db, camelot_text, winter_text,
                                                                     inline_queue):
    page = client.get("/simulate/").content.decode()
    assert 'name="player" value="fast"' in page and 'name="player" value="strong"' in page
    assert "1,000 games take about" in page
    fast = runner.expected_seconds("versus", 1000, "fast")
    strong = runner.expected_seconds("versus", 1000, "strong")
    assert strong > 100 * fast
    response = client.post("/simulate/", {"mode": "versus", "text": camelot_text, "opponent": winter_text,
                                          "games": "2", "seed": "1", "player": "strong"})
    assert response.status_code == 302
    run = SimulationRun.objects.get()
    assert run.settings["policy"] == "expert" and run.settings["opponent_policy"] == "expert"
    assert run.chunks_total == 2   # one game a chunk
