"""The pure simulation entry points (goldfish, versus), decks from decklist text, the package's boundaries, and the
greedy player's strength measured against the random one (with an interval, never asserted on a single game)."""
from __future__ import annotations

import doctest
import importlib
import json
import subprocess
import sys

import pytest

from cards.games.realms import starter_files
from simulator.engines.realms import DeckError, deck_from_decklist, sim

NAMES = ("sunward", "deepwood", "ashen", "tideholm")


@pytest.fixture(scope="module")
def entries(decks):
    return {name: sim.entries_of(d) for name, d in decks.items()}


# ---- goldfish ----------------------------------------------------------------------------------------------
def test_goldfish_report(entries):
    r = sim.goldfish(entries["deepwood"], games=120, seed=4)
    assert r["mode"] == "goldfish" and r["game"] == "realms" and r["games"] == 120 and r["seed"] == 4
    assert 0.9 <= r["win_rate"] <= 1 and r["win_rate_ci95"][0] <= r["win_rate"] <= r["win_rate_ci95"][1]
    wt = r["win_turn"]
    assert 8 <= wt["min"] <= wt["median"] <= wt["max"] and sum(wt["histogram"].values()) == round(120 * r["win_rate"])
    vp = r["vp_by_turn"]
    assert vp[0] == 0 and all(a <= b for a, b in zip(vp, vp[1:]))   # VP only grows; finished games carry theirs
    assert len(r["gold_by_turn"]) == len(r["per_turn"]) and r["per_turn"][0]["games"] == 120
    assert set(r["unpaid"]) == {"games", "rate", "turns_per_game", "by_turn"}
    assert all(set(x) == {"name", "games", "rate", "copies"} for x in r["stuck_in_hand"])
    assert r["unsupported_cards"] == [] and r["deck"]["leaders"] and "elapsed_s" in r


def test_the_same_run_gives_the_same_json_whatever_the_chunking(entries):
    spec = sim.make_spec("goldfish", entries["ashen"], games=450, seed=9)
    plan = sim.chunk_plan("goldfish", 450)
    assert [size for _, _, size in plan] == [200, 200, 50]
    parts = [sim.run_chunk(spec, i) for i, _, _ in plan]
    whole = sim.finalize(spec, sim.merge("goldfish", parts))
    regrouped = sim.finalize(spec, sim.merge("goldfish", [sim.merge("goldfish", parts[2:]),
                                                         sim.merge("goldfish", parts[:2])]))
    assert whole == regrouped
    again = sim.run_in_process(json.loads(json.dumps(spec)))   # a worker gets the spec as JSON
    again.pop("elapsed_s")
    assert again == whole


def test_chunk_seeds_are_derived_from_the_run_seed_as_r1_does():
    import hashlib
    assert sim.chunk_seed(7, 3) == int.from_bytes(hashlib.sha256(b"roc-sim:7:3").digest()[:8], "big")
    assert sim.chunk_plan("versus", 1_000_000)[0][2] == 2500   # at most 400 chunks


# ---- versus ------------------------------------------------------------------------------------------------
def test_versus_report_has_the_contract_fields_and_this_games_figures(entries):
    r = sim.versus(entries["sunward"], entries["tideholm"], games=40, seed=2, policies=("greedy", "random"))
    for key in ("wins", "losses", "draws", "win_rate", "ci95", "mean_rounds", "first_player_win_rate", "policies"):
        assert key in r
    assert r["wins"] + r["losses"] + r["draws"] == 40 and r["policies"] == ["greedy", "random"]
    fig = r["figures"]["deck"]
    for key in ("attacks", "attacks_won", "raids", "places_destroyed", "leader_raids", "reward_vp", "vp",
                "unpaid_discards", "warriors_killed"):
        assert key in fig
    assert r["sample_log"]["lines"] and r["sample_log"]["first_player"] == 0
    assert r["win_rate_going_first"] is not None and r["win_rate_going_second"] is not None


@pytest.mark.parametrize("bad,message", [
    (dict(mode="hands"), "unknown mode"),
    (dict(games=0), "games must be"),
    (dict(policy="psychic"), "unknown policy"),
    (dict(policy="expert:lots"), "expert:lots"),
    (dict(fmt="modern"), "format must be"),
    (dict(mode="versus"), "needs an opponent"),
])
def test_a_bad_run_request_is_refused_with_what_to_change(entries, bad, message):
    args = dict(mode="goldfish", games=10)
    args.update(bad)
    mode = args.pop("mode")
    with pytest.raises(sim.SpecError, match=message):
        sim.make_spec(mode, entries["ashen"], **args)


def test_greedy_clearly_beats_random(entries):
    """Measured, with a 95% interval: greedy against random over every starter pairing, each side first in half."""
    wins = games = 0
    for a in NAMES:
        for b in NAMES:
            r = sim.versus(entries[a], entries[b], games=10, seed=11, policies=("greedy", "random"))
            wins += r["wins"]
            games += r["games"]
    lo, hi = sim.wilson_interval(wins, games)
    print(f"greedy vs random: {wins}/{games} = {wins / games:.3f}, 95% CI [{lo:.3f}, {hi:.3f}]")
    assert lo > 0.8


# ---- decks from decklist text ------------------------------------------------------------------------------
def test_every_starter_builds_from_its_decklist():
    for path in starter_files():
        deck = deck_from_decklist(path.read_text(encoding="utf-8"))
        assert len(deck.leaders) == 3 and len(deck.cards) == 59 and deck.legality["legal"]


@pytest.mark.parametrize("text,message", [
    ("3x Farmsted\n1x Queen Ysolde", "Line 1: unknown card 'Farmsted'. Did you mean Farmstead?"),
    ("1x Queen Ysolde\nthree Farmsteads", "Line 2: cannot read 'three Farmsteads'"),
    ("59x Farmstead", "the deck has no Leader"),
    ("1x Queen Ysolde", "no regular cards"),
    ("# nothing here\n", "names no card"),
])
def test_a_decklist_that_cannot_be_played_says_why(text, message):
    with pytest.raises(DeckError) as exc:
        deck_from_decklist(text)
    assert message in str(exc.value)


def test_an_illegal_but_playable_deck_builds_with_its_verdict():
    deck = deck_from_decklist("1x Queen Ysolde\n1x Mother Orla\n20x Farmstead")
    assert not deck.legality["legal"]
    assert {e["code"] for e in deck.legality["errors"]} == {"deck_size", "leader_affiliation"}


# ---- boundaries --------------------------------------------------------------------------------------------
@pytest.mark.processes
def test_the_engine_imports_no_django():
    code = ("import sys; import simulator.engines.realms, simulator.engines.realms.sim; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework', 'celery')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("module", ["cards", "decks", "state", "game", "sim", "positions", "policies", "view"])
def test_the_docstring_examples_hold(module):
    mod = importlib.import_module(f"simulator.engines.realms.{module}")
    if not hasattr(mod, "__file__") or not mod.__file__.endswith(".py"):
        pytest.skip("compiled module: its docstrings are checked on the pure build")
    result = doctest.testmod(mod)
    assert result.failed == 0
