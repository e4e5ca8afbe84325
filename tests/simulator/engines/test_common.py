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


@pytest.mark.parametrize("name", ["simulator.engines.common.shuffle", "simulator.engines.common.search"])
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
