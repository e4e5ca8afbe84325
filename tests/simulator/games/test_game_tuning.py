"""Version against version, card (or Hero) swaps and the meta matrix of the hosted games: the specs and runs
(simulator/tuning.py through simulator/games/<game>_tune.py), the pages at /<game>/tune/ and the API, with small
game counts. Bad input is a 400 that stores nothing."""
import json

import pytest
from django.core.management import call_command
from django.test import Client

from cards.games.realms import SET_FILE, STARTERS_DIR
from simulator import tuning
from simulator.engines.regions import STRATEGY_DIR
from simulator.models import TuningRun
from simulator.tuning_input import build_tuning_spec

pytestmark = pytest.mark.django_db
SUNWARD = (STARTERS_DIR / "sunward.txt").read_text()
DEEPWOOD = (STARTERS_DIR / "deepwood.txt").read_text()
ASHEN = (STARTERS_DIR / "ashen.txt").read_text()
BIG_MONEY = (STRATEGY_DIR / "big-money.txt").read_text()
REGION_CONTROL = (STRATEGY_DIR / "region-control.txt").read_text()


@pytest.fixture
def realms(capsys):
    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()


def no_elapsed(result):
    return {k: v for k, v in result.items() if k != "elapsed_s"}


def test_realms_compare_same_deck_is_zero_and_names_decks(realms):
    spec = build_tuning_spec(game="realms", kind="compare", decks=[("A", SUNWARD), ("B", SUNWARD)],
                             gauntlet=[("Deepwood", DEEPWOOD)], games=4, seed=3)
    assert spec["game"] == "realms" and spec["engine_version"].startswith("realms")
    result = tuning.run_in_process(spec)
    assert result["game"] == "realms"
    assert result["goldfish"]["delta_rounds"] == 0 and result["goldfish"]["ci95"] == [0, 0]
    assert result["overall"]["delta"] == 0 and result["opponents"][0]["games"] == 4
    assert result["a"]["leaders"] and result["games_spent"] == 2 * 4 * 2
    assert no_elapsed(tuning.run_in_process(spec)) == no_elapsed(result)


def test_realms_card_swaps_are_legal_realms_cards(realms):
    spec = build_tuning_spec(game="realms", kind="tune", decks=[("Sunward", SUNWARD)], games=8, seed=1,
                             budget=600)
    assert spec["pool"] and all(c["type"] != "leader" for c in spec["pool"])
    assert all(c.get("affiliation") in (None, spec["decks"][0]["affiliation"]) for c in spec["pool"])
    result = tuning.run_in_process(spec)
    assert result["kind"] == "tune" and result["candidates"] >= tuning.FINALISTS
    assert result["delta_means"] == "rounds sooner to victory"
    assert result["best"] is not None and result["best"]["finalist"]
    assert all(s["out"] and s["in"] for s in result["swaps"])


def test_realms_matrix(realms):
    spec = build_tuning_spec(game="realms", kind="matrix", decks=[("S", SUNWARD), ("D", DEEPWOOD), ("A", ASHEN)],
                             games=2, seed=1)
    result = tuning.run_in_process(spec)
    assert len(result["cells"]) == 6 and len(result["ratings"]) == 3
    first = next(c for c in result["cells"] if c["first_game"])
    assert first["first_game"]["lines"]


def test_regions_compare_has_no_goldfish_and_hero_swaps():
    spec = build_tuning_spec(game="regions", kind="compare", decks=[("a", BIG_MONEY), ("b", REGION_CONTROL)],
                             gauntlet=[("rc", REGION_CONTROL)], games=6, seed=1)
    assert spec["policy"] == "strategy"
    result = tuning.run_in_process(spec)
    assert result["goldfish"] is None and result["games_spent"] == 2 * 6
    assert result["a"]["hero"] and result["b"]["hero"]    # Heroes by name, not code
    assert not result["a"]["hero"].startswith("hr-")
    swaps = build_tuning_spec(game="regions", kind="tune", decks=[("a", BIG_MONEY)],
                              gauntlet=[("rc", REGION_CONTROL)], games=8, seed=1)
    assert swaps["target"] == "winrate" and all(c["type"] == "hero" for c in swaps["pool"])
    result = tuning.run_in_process(swaps)
    assert result["candidates"] == len(swaps["pool"])
    assert all("→" in s["label"] for s in result["swaps"]) and result["dead_weight"] == []
    assert result["best"]["why"].startswith("The same strategy played with")


def test_regions_matrix_strategies():
    spec = build_tuning_spec(game="regions", kind="matrix", decks=[("a", BIG_MONEY), ("b", REGION_CONTROL)],
                             games=4, seed=2)
    result = tuning.run_in_process(spec)
    assert [c["games"] for c in result["cells"]] == [4, 4]


@pytest.mark.parametrize("kwargs, message", [
    ({"kind": "tune", "decks": [("a", BIG_MONEY)], "target": "goldfish"}, "no goldfish"),
    ({"kind": "compare", "decks": [("a", BIG_MONEY)]}, "exactly 2 strategy"),
    ({"kind": "matrix", "decks": [("a", BIG_MONEY), ("b", "hero: nobody\n")]}, "strategy 2"),
    ({"kind": "compare", "decks": [("a", BIG_MONEY), ("b", BIG_MONEY)], "policy": "nonsense"}, "policy"),
    ({"kind": "nope", "decks": []}, "Unknown kind"),
])
def test_regions_bad_requests(kwargs, message):
    with pytest.raises(tuning.TuningError, match=message):
        build_tuning_spec(game="regions", **kwargs)
