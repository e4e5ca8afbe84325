"""`simulate --game realms --mode goldfish|versus` and `simulate --game regions --mode versus`:
the JSON of CONTRACTS §3 with each game's extras; in-process and through the queue's store/merge path give the same
JSON except `elapsed_s`; bad input exits 2 naming what to change and stores nothing."""
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cards.games.realms import SET_FILE, STARTERS_DIR
from simulator import services
from simulator.engines.regions import STRATEGY_DIR
from simulator.games import engine_for, run_in_process
from simulator.games import services as game_services
from simulator.models import RunStatus, SimulationChunk, SimulationRun

pytestmark = pytest.mark.django_db
SUNWARD = STARTERS_DIR / "sunward.txt"
DEEPWOOD = STARTERS_DIR / "deepwood.txt"


@pytest.fixture
def realms(capsys):
    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()


@pytest.fixture
def inline_queue(monkeypatch):
    """The queue runs each run at once in this process, through the workers' store/merge path (tasks → services)."""
    from simulator import tasks

    def apply_async(args, **kwargs):
        services.run_execute_here(SimulationRun.objects.get(pk=args[0]))

    monkeypatch.setattr(tasks.start_run, "apply_async", apply_async)


def simulate(capsys, *args):
    call_command("simulate", *map(str, args), "--json")
    return json.loads(capsys.readouterr().out)


def no_elapsed(result):
    return {k: v for k, v in result.items() if k != "elapsed_s"}


def test_realms_goldfish_json_and_its_extras(realms, capsys):
    out = simulate(capsys, SUNWARD, "--game", "realms", "--mode", "goldfish", "--games", "30", "--seed", "3")
    assert out["mode"] == "goldfish" and out["game"] == "realms" and out["games"] == 30 and out["seed"] == 3
    assert out["target_vp"] == 50 and 0 <= out["win_rate"] <= 1
    assert out["win_round"] == out["win_turn"] and out["eliminated_rate"] == 0.0  # CONTRACTS §3's names
    hist = out["win_turn"]["histogram"]
    assert sum(hist.values()) == round(out["win_rate"] * 30)
    if hist:  # turns to 50 VP
        assert out["win_turn"]["min"] == min(map(int, hist)) and out["win_turn"]["max"] == max(map(int, hist))
    # VP never falls (finished games keep their final VP) and Gold is never negative (002 §12)
    vp = out["vp_by_turn"]
    assert vp and all(b >= a - 1e-9 for a, b in zip(vp, vp[1:]))
    assert all(g is None or g >= 0 for g in out["gold_by_turn"])
    assert 0 <= out["unpaid"]["rate"] <= 1 and len(out["unpaid"]["by_turn"]) == len(out["per_turn"])
    assert all(0 < s["rate"] <= 1 and s["copies"] >= s["games"] for s in out["stuck_in_hand"])
    again = simulate(capsys, SUNWARD, "--game", "realms", "--mode", "goldfish", "--games", "30", "--seed", "3")
    assert no_elapsed(again) == no_elapsed(out)
    other = simulate(capsys, SUNWARD, "--game", "realms", "--mode", "goldfish", "--games", "30", "--seed", "4")
    assert no_elapsed(other) != no_elapsed(out)


def test_realms_versus_json_with_policies(realms, capsys):
    out = simulate(capsys, SUNWARD, "--game", "realms", "--mode", "versus", "--opponent", DEEPWOOD, "--games", "12",
                   "--seed", "5", "--opponent-policy", "random")
    for key in ("wins", "losses", "draws", "win_rate", "ci95", "mean_rounds", "first_player_win_rate", "policies",
                "elapsed_s"):
        assert key in out
    assert out["wins"] + out["losses"] + out["draws"] == 12 and out["policies"] == ["greedy", "random"]
    assert out["ci95"][0] <= out["win_rate"] <= out["ci95"][1]
    assert out["deck"]["name"] == "sunward.txt" and out["opponent"]["name"] == "deepwood.txt"


def test_realms_queue_gives_the_in_process_json(realms, capsys, inline_queue):
    args = (SUNWARD, "--game", "realms", "--mode", "goldfish", "--games", "450", "--seed", "9")
    here = simulate(capsys, *args)
    queued = simulate(capsys, *args, "--queue")
    assert no_elapsed(queued) == no_elapsed(here)
    run = SimulationRun.objects.get()
    assert run.status == RunStatus.DONE and run.spec["game"] == "realms"
    assert SimulationChunk.objects.filter(run=run).count() == 3  # 200 + 200 + 50: chunked like r1


def test_a_chunk_redelivered_changes_nothing(realms):
    spec = game_services.build_game_spec("realms", mode="versus", text=SUNWARD.read_text(),
                                         opponent_text=DEEPWOOD.read_text(), games=6, seed=2)
    run = game_services.run_from_game_spec(spec)
    assert services.chunk_store(run.pk, 0) is True and services.chunk_store(run.pk, 0) is False
    done = services.run_finish(run.pk)
    assert no_elapsed(done.result) == no_elapsed(run_in_process(spec))


@pytest.mark.parametrize("args, message", [
    (("--mode", "versus"), "--opponent FILE is needed"),
    (("--mode", "goldfish", "--policy", "psychic"), "unknown policy 'psychic'"),
    (("--mode", "goldfish", "--games", "0"), "--games must be at least 1"),
    (("--mode", "goldfish", "--opponent-policy", "random"), "--opponent-policy goes with --mode versus"),
])
def test_realms_bad_arguments_exit_2(realms, args, message):
    with pytest.raises(CommandError, match=message) as info:
        call_command("simulate", str(SUNWARD), "--game", "realms", *args)
    assert info.value.returncode == 2
    assert not SimulationRun.objects.exists()


def test_realms_unreadable_deck_names_the_line(realms, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("3x Nobody Of Nowhere\n")
    with pytest.raises(CommandError, match="Nobody Of Nowhere") as info:
        call_command("simulate", str(bad), "--game", "realms", "--mode", "goldfish")
    assert info.value.returncode == 2


def test_regions_versus_json_and_extras(capsys):
    out = simulate(capsys, "big-money", "--game", "regions", "--mode", "versus", "--opponent",
                   STRATEGY_DIR / "region-control.txt", "--games", "20", "--seed", "1")
    assert out["mode"] == "versus" and out["game"] == "regions"
    assert out["wins"] + out["losses"] + out["draws"] == 20
    assert out["policies"][0].startswith("strategy:") and out["ci95"][0] <= out["win_rate"] <= out["ci95"][1]
    assert out["rounds"]["min"] <= out["mean_rounds"] <= out["rounds"]["max"]  # game length
    turn = out["by_turn"][0]
    assert turn["turn"] == 1 and len(turn["recognition_cards"]) == 2  # Recognition by turn, each side
    for side in ("deck", "opponent"):
        assert out[side]["regions_held"]["control"] is not None
        bought = out[side]["cards_bought"]
        assert bought["per_game"] == pytest.approx(sum(c["bought"] for c in bought["by_card"]) / 20)


def test_regions_queue_gives_the_in_process_json(capsys, inline_queue):
    args = ("recognition-rush", "--game", "regions", "--mode", "versus", "--opponent", "wide-board",
            "--games", "30", "--seed", "4")
    assert no_elapsed(simulate(capsys, *args, "--queue")) == no_elapsed(simulate(capsys, *args))


def test_regions_bad_strategy_names_line_and_column(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("hero: Corin Vale\nbuy Nothing if goods >= \n")
    with pytest.raises(CommandError, match=r"line 2") as info:
        call_command("simulate", str(bad), "--game", "regions", "--mode", "versus", "--opponent", "big-money")
    assert info.value.returncode == 2
    with pytest.raises(CommandError, match="regions runs are versus"):
        call_command("simulate", "big-money", "--game", "regions", "--mode", "goldfish")


def test_engine_for_dispatches_by_the_specs_game():
    from simulator.games import r1, realms, regions

    assert engine_for({"mode": "hands"}) is r1
    assert engine_for({"game": "realms"}) is realms and engine_for({"game": "regions"}) is regions


def test_chunk_time_limits_use_the_games_own_allowance(monkeypatch, realms):
    """A realms chunk of 200 head-to-head games gets its engine's allowance (53 s), not r1's (35 s), and stays under
    the broker's 60 s visibility timeout."""
    from simulator import tasks
    from simulator.games import realms as realms_runs

    spec = game_services.build_game_spec("realms", mode="versus", text=SUNWARD.read_text(),
                                         opponent_text=DEEPWOOD.read_text(), games=250, seed=2)
    run = game_services.run_from_game_spec(spec)
    sent = []
    monkeypatch.setattr("simulator.tasks.group", lambda sigs: type("G", (), {"apply_async": lambda self: sent.extend(sigs)})())
    tasks.start_run(run.pk)
    limits = sorted((s.options["soft_time_limit"], s.options["time_limit"]) for s in sent)
    assert limits == [tasks.chunk_time_limits("versus", 50, per_game=realms_runs.CHUNK_PER_GAME_S),
                      tasks.chunk_time_limits("versus", 200, per_game=realms_runs.CHUNK_PER_GAME_S)]
    assert limits[1] == (53.0, 58.0) and tasks.chunk_time_limits("versus", 200) == (35.0, 40.0)
