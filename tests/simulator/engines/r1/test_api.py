"""The engine's public interface (interface 1 of the brief): build_deck, play_game, GameResult, Game."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.engines.r1 import ENGINE_VERSION, DeckError, Game, GameResult, build_deck, play_game
from simulator.engines.r1.policies import RandomPolicy

from .helpers import FACTION, QUEST, card, make_deck, starter_decks

ENGINE_DIR = Path(__file__).resolve().parents[4] / "simulator" / "engines" / "r1"


def test_game_result_fields_have_one_entry_per_round():
    decks = starter_decks()
    r = play_game(decks["camelot"], decks["winter"], seed=4)
    assert isinstance(r, GameResult)
    assert r.winner in (0, 1, None) and r.reason in ("influence", "elimination", "round_limit")
    assert r.first_player in (0, 1)
    for series in (r.influence_by_round, r.wealth_spent_by_round, r.cards_played_by_round,
                   r.struggles_won_by_round):
        assert len(series) == r.rounds and all(len(pair) == 2 for pair in series)
    assert set(r.stuck_in_hand.values()) <= {1}
    assert all(n >= 1 for n in r.cards_played.values())
    assert sum(pair[0] for pair in r.cards_played_by_round) == sum(r.cards_played.values())
    assert r.log is None
    assert r.engine_version == ENGINE_VERSION


def test_goldfish_result_matches_contracts_3():
    decks = starter_decks()
    r = play_game(decks["summer"], None, seed=9, log=True)
    assert r.winner == 0 and r.reason == "influence"
    assert r.influence_by_round[-1][0] >= 15
    assert all(pair[1] == 0 for pair in r.influence_by_round)
    assert any("S.8" in line for line in r.log)


def test_round_limit_ends_the_game_without_a_winner():
    wall = card("wall", power=0, icons=[])   # nothing can ever win a struggle or Authority
    d = build_deck([(FACTION, 1), (QUEST, 7), (wall, 120)])
    r = play_game(d, d, seed=1, max_rounds=5)
    assert (r.winner, r.reason, r.rounds) == (None, "round_limit", 5)


def test_first_player_argument_sets_the_setup_first_player():
    decks = starter_decks()
    r = play_game(decks["camelot"], decks["eleven"], seed=3, first_player=1, log=True)
    assert r.log[0].endswith("player 1 is the first player")


def test_bad_arguments_are_rejected_with_a_clear_error():
    decks = starter_decks()
    with pytest.raises(ValueError, match="unknown policy"):
        play_game(decks["camelot"], None, seed=1, policies=("clever", "greedy"))
    with pytest.raises(TypeError, match="seed"):
        play_game(decks["camelot"], None, seed="1")
    with pytest.raises(TypeError, match="build_deck"):
        play_game({"cards": []}, None, seed=1)
    with pytest.raises(ValueError, match="first_player"):
        Game(decks["camelot"], None, seed=1, first_player=2)


def test_build_deck_rejects_bad_entries():
    with pytest.raises(DeckError, match="count"):
        build_deck([(FACTION, 1), (QUEST, 7), (card("u", power=1), -2)])
    with pytest.raises(DeckError, match="pair"):
        build_deck([FACTION])
    with pytest.raises(DeckError, match="no type|no name|no faction"):
        build_deck([(FACTION, 1), (QUEST, 7), ({"code": "x", "name": "X", "faction": "camelot"}, 3)])
    with pytest.raises(DeckError, match="second"):
        build_deck([(FACTION, 1), (card("f2", "faction", name="Other"), 1), (QUEST, 7), (card("u"), 3)])


def test_a_policy_object_can_drive_play_game():
    decks = starter_decks()
    r1 = play_game(decks["lefay"], decks["keepers"], seed=5, policies=(RandomPolicy(1), RandomPolicy(2)))
    r2 = play_game(decks["lefay"], decks["keepers"], seed=5, policies=(RandomPolicy(1), RandomPolicy(2)))
    assert r1 == r2


def test_engine_imports_nothing_from_django_or_the_apps():
    for path in ENGINE_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for n in names:
                if n in PURE_SHARED:
                    continue
                assert not n.split(".")[0] in ("django", "cards", "decks", "rest_framework", "celery"), \
                    f"{path.name} imports {n}"
                assert not (n.startswith("simulator") and not n.startswith(("simulator.engines.r1",
                                                                            "simulator.engines.common"))), \
                    f"{path.name} imports {n}"


# plain-Python modules without Django that the engine shares: r1's facts and the compiled-or-plain import choice
PURE_SHARED = ("cards.games.r1", "cards.games.r1.facts", "simulator.nativebuild")


@pytest.mark.processes
def test_engine_runs_without_django_settings():
    code = ("import os, sys; os.environ.pop('DJANGO_SETTINGS_MODULE', None); sys.path.insert(0, '.');"
            "import simulator.engines.r1 as e; assert 'django' not in sys.modules; print(e.ENGINE_VERSION)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ENGINE_DIR.parents[2], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ENGINE_VERSION


def test_make_deck_helper_card_counts():
    d = make_deck(card("u"), filler=10)
    assert len(d.draw) == 13 and len(d.quests) == 7


def test_support_report_names_what_the_engine_cannot_run():
    from simulator.engines.r1 import support_report

    from .helpers import core_cards
    rows = support_report([
        card("ok", text="Glory.", keywords=["Glory"]),
        card("odd", text="Action: Teleport.", abilities=[{"timing": "action", "effects": [{"teleport": 1}]}]),
        card("bare", text="Action: Something."),
    ])
    assert [(r["code"], r["supported"]) for r in rows] == [("ok", True), ("odd", False), ("bare", False)]
    assert "teleport" in rows[1]["reason"] and rows[2]["reason"] == "no abilities for its text"
    assert all(r["supported"] for r in support_report(list(core_cards()))), "a core card is not executed"
