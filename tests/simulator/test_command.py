"""`python manage.py simulate` (CONTRACTS §3)."""
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from .cards import CAMELOT_LIST, WINTER_LIST

pytestmark = pytest.mark.django_db


def simulate(capsys, *args):
    call_command("simulate", *args)
    return capsys.readouterr().out


def test_hands_json_has_the_contract_fields(sim_db, capsys):
    out = json.loads(simulate(capsys, str(CAMELOT_LIST), "--mode", "hands", "--games", "300", "--seed", "4",
                              "--json"))
    assert out["mode"] == "hands"
    card = out["cards"][0]
    assert {"name", "copies", "p_opening"} <= set(card) and card["copies"] == 3
    assert {"samples", "mean_units", "mean_power", "mean_budget_used", "p_empty"} <= set(out["setup"])
    assert out["setup"]["samples"] == 300 and 0 <= out["setup"]["mean_budget_used"] <= 8
    assert {"policy", "rate"} <= set(out["mulligan"]) and isinstance(out["elapsed_s"], float)
    again = json.loads(simulate(capsys, str(CAMELOT_LIST), "--mode", "hands", "--games", "300", "--seed", "4",
                                "--json"))
    assert {k: v for k, v in again.items() if k != "elapsed_s"} == {k: v for k, v in out.items() if k != "elapsed_s"}


def test_goldfish_and_versus_json_through_the_real_engine(sim_db, capsys):
    gold = json.loads(simulate(capsys, str(CAMELOT_LIST), "--mode", "goldfish", "--games", "40", "--seed", "2",
                               "--json"))
    assert {"mode", "games", "seed", "win_rate", "eliminated_rate", "win_round", "influence_by_round",
            "unsupported_cards", "elapsed_s"} <= set(gold)
    assert gold["games"] == 40 and gold["seed"] == 2
    assert {"mean", "median", "min", "max", "histogram"} <= set(gold["win_round"])
    assert sum(gold["win_round"]["histogram"].values()) == round(gold["win_rate"] * 40)
    vs = json.loads(simulate(capsys, str(CAMELOT_LIST), "--mode", "versus", "--opponent", str(WINTER_LIST),
                             "--games", "20", "--seed", "2", "--json"))
    assert {"mode", "games", "seed", "wins", "losses", "draws", "win_rate", "ci95", "mean_rounds",
            "first_player_win_rate", "elapsed_s"} <= set(vs)
    assert vs["wins"] + vs["losses"] + vs["draws"] == 20
    assert vs["sample_log"]["lines"], "the sample game log is empty"


def test_text_output(sim_db, capsys):
    out = simulate(capsys, str(CAMELOT_LIST), "--mode", "hands", "--games", "100")
    assert "mulligan policy" in out and "Exact probabilities" in out


def test_unreadable_file_and_unplayable_deck_exit_2_with_the_reason(sim_db, tmp_path):
    with pytest.raises(CommandError, match="cannot read deck file") as info:
        call_command("simulate", str(tmp_path / "missing.txt"), "--mode", "hands")
    assert info.value.returncode == 2
    bad = tmp_path / "bad.txt"
    bad.write_text("1x Court of Camelot\n3x Squire\n")
    with pytest.raises(CommandError, match="no quests") as info:
        call_command("simulate", str(bad), "--mode", "hands")
    assert info.value.returncode == 2
    with pytest.raises(CommandError, match="needs an opponent"):
        call_command("simulate", str(CAMELOT_LIST), "--mode", "versus")
    with pytest.raises(CommandError, match="--games must be at least 1"):
        call_command("simulate", str(CAMELOT_LIST), "--mode", "hands", "--games", "0")


def test_an_engine_failure_is_a_failed_run_not_a_traceback(sim_db, monkeypatch):
    from simulator import runner

    def broken(spec, index):
        raise RuntimeError("§6.2 S.8 went wrong")

    monkeypatch.setattr(runner, "run_chunk", broken)
    with pytest.raises(CommandError, match="the simulation failed: RuntimeError: §6.2 S.8 went wrong") as info:
        call_command("simulate", str(CAMELOT_LIST), "--mode", "hands", "--games", "10")
    assert info.value.returncode == 1


@pytest.mark.processes
def test_before_migrate_it_names_the_command_to_run_and_exits_2(tmp_path):
    """Regression: simulate before `migrate` printed a database traceback."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}"}
    proc = subprocess.run([sys.executable, "manage.py", "simulate", str(CAMELOT_LIST), "--mode", "hands"],
                          cwd=root, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "python manage.py migrate" in proc.stderr
