"""simulator/engines/common/: what the three engines share is written once, has no game in it, and each engine
really offers the protocol (a game, its decision, its view and its result are instances of common's Protocols)."""
from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from simulator.engines import common
from simulator.engines.common.protocol import Decision, GameResult, GameState, PlayerView
from tests.doctests import run_examples

COMMON = Path(common.__file__).resolve().parent
GAMES = ("r1", "realms", "regions")


@pytest.mark.parametrize("name", ["simulator.engines.common.shuffle", "simulator.engines.common.search",
                                  "simulator.engines.common.runs"])
def test_docstring_examples_hold(name):
    # read from the source, so they run on the compiled shuffle too (mypyc keeps no docstrings to find)
    result = run_examples(name)
    assert result.attempted > 0 and result.failed == 0


def test_common_imports_no_game_and_no_django():
    for path in COMMON.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith(("django", "cards", "decks")), f"{path.name} imports {name}"
                assert not any(name.startswith(f"simulator.engines.{g}") for g in GAMES), f"{path.name} imports {name}"


def test_every_engine_shares_one_illegal_action_and_one_shuffle():
    from simulator.engines import r1, realms, regions
    from simulator.engines.r1 import state as r1_state
    from simulator.engines.regions import game as regions_game

    assert r1.IllegalAction is realms.IllegalAction is regions.IllegalAction is common.IllegalAction
    assert r1_state.fisher_yates is regions_game.fisher_yates is common.fisher_yates


def test_every_games_runs_share_one_seed_plan_interval_and_json():
    """The run plumbing is written once (common/runs.py): each game's run code uses it, so a seed's chunks are
    dealt alike in every game."""
    from simulator import reports, runner
    from simulator.engines.common import runs
    from simulator.engines.realms import sim as realms_sim
    from simulator.engines.regions import sim as regions_sim

    for module in (runner, realms_sim, regions_sim):
        assert module.chunk_seed is runs.chunk_seed and module.canonical_json is runs.canonical_json
    assert runner.deck_data_hash is realms_sim.deck_data_hash is runs.deck_data_hash
    assert reports.wilson_interval is realms_sim.wilson_interval is runs.wilson_interval
    # the derivation every stored run was seeded with: SHA-256 of "roc-sim:{seed}:{chunk}", its first 8 bytes
    assert runs.chunk_seed(21, 0) == 18294862562832165688 and runs.chunk_seed(21, 1) == 5389897878525521622
    assert runner.chunk_plan("goldfish", 450) == realms_sim.chunk_plan("goldfish", 450) == \
        regions_sim.chunk_plan(450) == runs.chunk_plan(450, 200)
    # regions' reports keep their intervals' ends rounded to 12 digits, the others' unrounded
    assert regions_sim.wilson_interval(1, 3) == [round(x, 12) for x in runs.wilson_interval(1, 3)]


def test_a_staged_run_reports_progress_and_its_time():
    from simulator.engines.common import runs

    seen = []
    result = runs.run_stages(lambda done: [3, 4] if len(done) < 2 else None, lambda unit: {"n": unit},
                             lambda done: {"total": sum(p["n"] for stage in done for p in stage)},
                             size=lambda unit: unit, total=lambda done: 10, progress=lambda *a: seen.append(a))
    assert result["total"] == 14 and result["elapsed_s"] >= 0
    assert seen == [(3, 10), (7, 10), (10, 10), (14, 14)]   # a stage that runs over raises the total


def test_head_to_head_counts_merge_exactly_in_any_grouping():
    from simulator.engines.common import runs

    games = [(0, 0, "influence", 9), (1, 1, "influence", 12), (None, 0, "round_limit", 50), (0, 1, "elimination", 7)]
    parts = []
    for winner, first, reason, length in games:
        part = runs.empty_versus_counts()
        runs.add_versus_result(part, winner, first, reason, length)
        parts.append(part)
    whole = runs.empty_versus_counts()
    for part in parts:
        runs.merge_versus_counts(whole, part)
    pairs = runs.empty_versus_counts()
    for a, b in ((parts[0], parts[3]), (parts[1], parts[2])):
        pair = runs.empty_versus_counts()
        runs.merge_versus_counts(pair, a)
        runs.merge_versus_counts(pair, b)
        runs.merge_versus_counts(pairs, pair)
    assert whole == pairs
    assert (whole["wins"], whole["losses"], whole["draws"], whole["first_player_wins"]) == (2, 1, 1, 2)
    assert (whole["a_first_games"], whole["a_first_wins"], whole["a_second_wins"]) == (2, 1, 1)
    assert whole["rounds_sum"] == 78 and whole["how"] == {"wins:influence": 1, "losses:influence": 1,
                                                          "draws:round_limit": 1, "wins:elimination": 1}


def test_fisher_yates_is_the_one_every_seed_was_dealt_with():
    # the exact permutation pins the algorithm: changing it would change every seed's game in every engine
    items = list(range(10))
    common.fisher_yates(random.Random(2024), items)
    assert items == [5, 9, 0, 1, 3, 7, 8, 2, 6, 4]


def _games():
    from scripts.bench_engine import starter_decks as r1_starters
    from simulator.engines import r1, realms, regions

    d1 = r1_starters()
    n1 = sorted(d1)
    yield "r1", r1.Game(d1[n1[0]], d1[n1[1]], seed=3), lambda: r1.play_game(d1[n1[0]], None, seed=3)
    dr = realms.starter_decks()
    nr = sorted(dr)
    yield "realms", realms.Game(dr[nr[0]], dr[nr[1]], seed=3), lambda: realms.play_game(dr[nr[0]], None, seed=3)
    ss = regions.shipped_strategies()
    a, b = ss["big-money"], ss["region-control"]
    yield ("regions", regions.Game(regions.CardSet.default(), [a.hero.code, b.hero.code], seed=3),
           lambda: regions.play_game([a, b], seed=3))


@pytest.mark.parametrize("slug,game,play", list(_games()), ids=lambda x: x if isinstance(x, str) else "")
def test_engine_offers_the_protocol(slug, game, play):
    assert isinstance(game, GameState)
    assert isinstance(game.pending, Decision)
    view = game.view(game.current_player())
    assert isinstance(view, PlayerView)
    assert isinstance(view.determinize(random.Random(1)), GameState)
    result = play()
    assert isinstance(result, GameResult) and result.seed == 3 and result.engine_version
