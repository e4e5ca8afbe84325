"""Simulations (simulator/engines/regions/sim.py): the versus JSON of CONTRACTS §3 plus this game's figures, the
same numbers however the chunks are run, the round-robin matrix, and the shipped bots' stable ranking."""
from __future__ import annotations

import json

import pytest

from simulator.engines.regions import StrategyError, sim

TEXTS = sim.shipped_texts()


def test_versus_json_has_the_contract_keys_and_this_games_figures():
    r = sim.versus(TEXTS["big-money"], TEXTS["region-control"], games=30, seed=3)
    for key in ("mode", "games", "seed", "wins", "losses", "draws", "win_rate", "ci95", "mean_rounds",
                "first_player_win_rate", "elapsed_s", "policies"):
        assert key in r, key
    assert r["mode"] == "versus" and r["game"] == "regions" and r["games"] == 30 and r["seed"] == 3
    assert r["wins"] + r["losses"] + r["draws"] == 30
    assert r["win_rate"] == r["wins"] / 30 and 0 <= r["ci95"][0] <= r["win_rate"] <= r["ci95"][1] <= 1
    assert r["policies"] == ["strategy:Big Money", "strategy:Region Control"]
    assert r["deck"]["hero"] == "hr-010" and r["opponent"]["hero"] == "hr-020"
    # this game's figures: game length, Recognition by turn, Regions held, cards bought
    assert r["rounds"]["mean"] == r["mean_rounds"] and sum(r["rounds"]["histogram"].values()) == 30
    first = r["by_turn"][0]
    assert first["turn"] == 1 and first["games"] == 30 and len(first["score"]) == 2
    assert set(r["deck"]["regions_held"]) == {"presence", "control"}
    assert r["deck"]["cards_bought"]["per_game"] > 0 and r["deck"]["cards_bought"]["by_card"][0]["bought"] > 0
    assert set(r["deck"]["mean_score_parts"]) == {"cards", "presence", "control", "finish"}
    assert abs(sum(r["deck"]["mean_score_parts"].values()) - r["deck"]["mean_score"]) < 1e-9
    assert r["sample_log"]["game"] == 0 and any("003 §" in line for line in r["sample_log"]["lines"])
    json.dumps(r)


def test_same_request_same_json_except_elapsed():
    a = sim.versus(TEXTS["wide-board"], TEXTS["worker-engine"], games=40, seed=9)
    b = sim.versus(TEXTS["wide-board"], TEXTS["worker-engine"], games=40, seed=9)
    a.pop("elapsed_s"), b.pop("elapsed_s")
    assert a == b
    c = sim.versus(TEXTS["wide-board"], TEXTS["worker-engine"], games=40, seed=10)
    c.pop("elapsed_s")
    assert c != a


def test_chunks_merge_to_the_same_report_in_any_grouping(monkeypatch):
    monkeypatch.setattr(sim, "BASE_CHUNK", 7)
    spec = sim.versus_spec(TEXTS["big-money"], TEXTS["wide-board"], games=30, seed=5)
    plan = sim.chunk_plan(30)
    assert [size for _, _, size in plan] == [7, 7, 7, 7, 2]
    parts = [sim.run_chunk(spec, i) for i, _, _ in plan]
    whole = sim.finalize(spec, sim.merge(parts))
    # chunks merged in another grouping and order (as a chord of workers would deliver them)
    regrouped = sim.merge([sim.merge([parts[4], parts[1]]), sim.merge([parts[0]]), sim.merge(parts[2:4])])
    assert sim.finalize(spec, regrouped) == whole
    # and a chunk recomputed on its own (another worker) is the same partial
    assert sim.run_chunk(spec, 3) == parts[3]


def test_chunk_seeds_are_derived_like_the_r1_runner():
    from simulator import runner

    for seed in (0, 1, 2**40):
        for i in range(5):
            assert sim.chunk_seed(seed, i) == runner.chunk_seed(seed, i)
    assert sim.chunk_plan(100_000)[0][2] == 250          # big runs get bigger chunks, at most 400 of them
    assert len(sim.chunk_plan(1_000_000)) == 400


def test_a_bad_strategy_or_request_fails_before_anything_runs():
    with pytest.raises(StrategyError) as exc:
        sim.versus_spec("hero: Corin Vale\nbuy:\n  Silvr\n", TEXTS["big-money"], games=10)
    assert "line 3, column 3" in str(exc.value)
    for kwargs in ({"games": 0}, {"games": 10**9}, {"seed": "x"}, {"max_turns": 0}, {"policy": "expert"}):
        with pytest.raises(sim.SpecError):
            sim.versus_spec(TEXTS["big-money"], TEXTS["big-money"], **kwargs)


def test_a_random_side_plays_its_strategys_hero_at_random():
    r = sim.versus(TEXTS["region-control"], TEXTS["region-control"], games=40, seed=1, opponent_policy="random")
    assert r["policies"] == ["strategy:Region Control", "random"]
    assert r["opponent"]["hero"] == "hr-020"
    assert r["ci95"][0] > 0.75                                 # the strategy clearly beats random play


def test_mirror_match_is_allowed_and_first_player_alternates():
    r = sim.versus(TEXTS["region-control"], TEXTS["region-control"], games=40, seed=2)
    assert r["games"] == 40 and r["win_rate_going_first"] is not None and r["win_rate_going_second"] is not None


def test_round_robin_matrix_is_consistent():
    texts = {k: TEXTS[k] for k in ("big-money", "region-control", "wide-board")}
    rr = sim.round_robin(texts, games=20, seed=4)
    m = rr["matrix"]
    assert rr["strategies"] == list(texts) and m[0][0] is None
    for i in range(3):
        for j in range(3):
            if i != j:
                assert m[i][j]["score"] + m[j][i]["score"] == pytest.approx(1.0)
                assert m[i][j]["games"] == 20
    assert [s["name"] for s in rr["standings"]][0] == "region-control"


def test_shipped_bots_rank_in_a_stable_order_with_intervals():
    """The baselines' order, measured twice with different seeds: the same order both times, and each strategy's
    95% interval above the next one's (docs/games/regions.md, "Baselines")."""
    expected = ["region-control", "wide-board", "worker-engine", "big-money", "recognition-rush"]
    for seed in (1, 2):
        rr = sim.round_robin(TEXTS, games=120, seed=seed)
        order = [s["name"] for s in rr["standings"]]
        assert order == expected, rr["standings"]
        for upper, lower in zip(rr["standings"], rr["standings"][1:]):
            assert upper["ci95"][0] > lower["ci95"][1], (upper, lower)


def test_command_line(capsys, tmp_path):
    assert sim.main(["big-money", "wide-board", "--games", "12", "--seed", "4"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 12 and out["policies"] == ["strategy:Big Money", "strategy:Wide Board"]
    bad = tmp_path / "bad.txt"
    bad.write_text("hero: Corin Vale\nbuy:\n  Silvr\n", encoding="utf-8")
    assert sim.main([str(bad), "big-money", "--games", "5"]) == 2
    assert "line 3, column 3" in capsys.readouterr().err
    assert sim.main(["no-such-strategy", "big-money"]) == 2
    assert sim.main(["--round-robin", "big-money", "wide-board", "--games", "6"]) == 0
    assert json.loads(capsys.readouterr().out)["mode"] == "round_robin"


def test_hero_against_hero_with_the_same_strategy():
    r = sim.versus(TEXTS["big-money"], TEXTS["big-money"], games=20, seed=3, hero="Asha Thorne",
                   opponent_hero="hr-030")
    assert r["deck"]["hero"] == "hr-020" and r["opponent"]["hero"] == "hr-030"
    assert r["sample_log"]["lines"][0].startswith("T0 Hero 003 §2: p0 Asha Thorne, p1 Ilse Marrow")
    with pytest.raises(sim.SpecError, match="no Hero 'Nobody'"):
        sim.versus_spec(TEXTS["big-money"], TEXTS["big-money"], hero="Nobody")
