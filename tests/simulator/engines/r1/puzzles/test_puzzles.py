"""Puzzles: positions (CONTRACTS §6) where one decision is right, and the search player `expert` must
find it. Each JSON file holds the position (with the actions that lead to the decision), the player to move,
the right answer(s) as action texts, and why; where the answer is a whole declaration (which struggle and with
which attackers), `expect_lines` lists the right declarations as their action texts.

The expert decides from its PlayerView only; its worlds are the position dealt again (search.load_position).
"""
import json
from pathlib import Path

import pytest

from simulator.engines.r1.actions import action_text
from simulator.engines.r1.policies import GreedyPolicy, GreedyV1Policy
from simulator.engines.r1.search import ExpertPolicy, forget, load_position

from ..helpers import CORE

HERE = Path(__file__).resolve().parent
PUZZLES = sorted(HERE.glob("*.json"))


@pytest.fixture(scope="module")
def catalogue():
    raw = json.loads(CORE.read_text(encoding="utf-8"))
    return {c["code"]: c for c in raw["cards"]}


def at_decision(puzzle, catalogue):
    g = load_position(puzzle["position"], catalogue)
    for text in puzzle["position"].get("actions", []):
        g.apply_action(text)
    # windows on the way (nobody acts in them) are passed through up to the puzzle's decision
    while g.pending is not None and (g.pending.player, g.pending.kind) != (puzzle["player"], puzzle["decision"]):
        assert ("pass",) in g.pending.options, f"unexpected decision on the way: {g.pending}"
        g.apply_action("pass")
    assert g.pending is not None
    return g


def declaration(g, policy, player):
    """The texts of the declaration `policy` makes from the pending decision: the struggle (or pass) and each
    attacker or defender, up to the end of the declaration."""
    out = []
    while g.pending is not None and g.pending.player == player:
        dec = g.pending
        a = policy.choose(g.view(player), dec)
        if a != ("done",):
            out.append(action_text(g, a, dec))
        g.apply_action(a)
        if a in (("done",), ("pass",)) or dec.kind not in ("window", "attackers", "defenders"):
            break
    return out


@pytest.mark.parametrize("path", PUZZLES, ids=[p.stem for p in PUZZLES])
def test_expert_solves_the_puzzle(path, catalogue):
    puzzle = json.loads(path.read_text(encoding="utf-8"))
    g = at_decision(puzzle, catalogue)
    dec = g.pending
    expert = ExpertPolicy(seed=7, iterations=40)
    choice = expert.choose(g.view(puzzle["player"]), dec)
    got = action_text(g, choice, dec)
    forget(g)
    assert got in puzzle["expect"], f"{path.stem}: expert chose {got!r}; right: {puzzle['expect']} ({puzzle['about']})"
    if "expect_lines" in puzzle:
        for seed in (7, 8):   # the whole declaration, at the default budget
            g = at_decision(puzzle, catalogue)
            line = declaration(g, ExpertPolicy(seed=seed), puzzle["player"])
            forget(g)
            assert line in puzzle["expect_lines"], f"{path.stem}: expert declared {line}; right: " \
                f"{puzzle['expect_lines']} ({puzzle['about']})"


def test_the_greedy_player_goes_all_in_where_a_defender_must_stay_back(catalogue):
    # a puzzle the greedy player gets wrong, so the declaration check does test a decision
    puzzle = json.loads((HERE / "keep_a_defender_back.json").read_text(encoding="utf-8"))
    g = at_decision(puzzle, catalogue)
    line = declaration(g, GreedyPolicy(1), puzzle["player"])
    forget(g)
    assert line == ["struggle combat", "attack wanderer", "attack guard"]
    assert line not in puzzle["expect_lines"]


def test_a_puzzle_can_fail():
    # the blanking puzzle is one the old greedy player gets wrong, so the puzzles do test a decision
    puzzle = json.loads((HERE / "blank_the_unit_whose_text_matters.json").read_text(encoding="utf-8"))
    raw = json.loads(CORE.read_text(encoding="utf-8"))
    g = at_decision(puzzle, {c["code"]: c for c in raw["cards"]})
    dec = g.pending
    got = action_text(g, GreedyV1Policy(1).choose(g.view(puzzle["player"]), dec), dec)
    forget(g)
    assert got not in puzzle["expect"]
