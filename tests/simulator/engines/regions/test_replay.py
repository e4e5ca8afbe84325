"""Replays on a board of five Regions (simulator/engines/regions/replay.py): a run's game played again is the game
the run played (game 0 ends as its stored log; games 0..k add up to the run's wins), a board at every decision
with the setup first and the end last, and every card of each player accounted for on every board."""
from __future__ import annotations

import pytest

from simulator.engines.regions import sim
from simulator.engines.regions.replay import game_seed, replay_game, step_title


def _spec(games=5, seed=4, **kw):
    return sim.versus_spec(sim.shipped_text("wide-board"), sim.shipped_text("recognition-rush"), games=games,
                           seed=seed, **kw)


def test_game_zero_is_the_runs_sample_game():
    spec = _spec()
    part = sim.run_chunk(spec, 0)
    data = replay_game(spec, 0, part["sample_log"])
    assert data["matches"] is True and data["seed"] == part["sample_log"]["seed"]
    steps = data["steps"]
    assert steps[0].get("setup") and steps[0]["decision"] is None and step_title(steps[0]) == "Setup"
    assert steps[-1]["decision"] is None and steps[-1]["board"]["over"] and step_title(steps[-1]) == "Game over"
    assert all(s["decision"] and s["action"] for s in steps[1:-1])
    # the log is cut into the steps, in order, without losing a line
    assert [line for s in steps for line in s["lines"]][:len(part["sample_log"]["lines"])] == \
        part["sample_log"]["lines"]
    tampered = dict(part["sample_log"], winner=1 - (part["sample_log"]["winner"] or 0))
    assert replay_game(spec, 0, tampered)["matches"] is False


def test_every_game_played_again_adds_up_to_the_run():
    spec = _spec(games=6)
    r = sim.run_in_process(spec)
    wins = sum(replay_game(spec, k)["winner"] == 0 for k in range(6))
    assert wins == r["wins"]


def test_game_seeds_follow_the_chunks_of_a_search_run():
    spec = _spec(games=3, policy="search:2")
    assert game_seed(spec, 0)[0] != game_seed(spec, 2)[0] and game_seed(spec, 1)[1] == 1
    with pytest.raises(ValueError, match="games 0 to 2"):
        game_seed(spec, 3)


def test_boards_account_for_every_card():
    spec = _spec(games=1, seed=9)
    steps = replay_game(spec, 0)["steps"]
    for s in steps:
        b = s["board"]
        assert len(b["regions"]) == 5 and len(b["market"]) == 4 and len(b["standing"]) == 6
        assert [x["count"] for x in b["standing"]][:5] == [None] * 5
        assert b["standing"][5]["count"] == b["recognition_pile"]
        for p, pl in enumerate(b["players"]):
            in_stacks = sum(len(r["stacks"][p]) for r in b["regions"])
            assert pl["hand"] + pl["deck"] + pl["discard"] + pl["pocket"] + pl["played"] + in_stacks == pl["owned"]
            assert pl["controlled"] == sum(r["control"] == p for r in b["regions"])
    turns = [s["board"]["turn"] for s in steps]
    assert turns == sorted(turns)
