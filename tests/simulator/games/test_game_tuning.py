"""Version against version, card (or Hero) swaps and the meta matrix of the hosted games: the specs and runs
(simulator/tuning.py through simulator/games/<game>_tune.py), the pages at /<game>/tune/ and the API, with small
game counts. Bad input is a 400 that stores nothing."""
import json
import re

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
    assert "(0.05 = 5 percentage points)" in result["delta_means"] and "0-1" not in result["delta_means"]


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


@pytest.fixture
def inline_queue(monkeypatch):
    from simulator import tuning_services, tuning_tasks

    monkeypatch.setattr(tuning_tasks.tuning_start, "apply_async", lambda args, **kw: tuning_services.tuning_execute_here(
        TuningRun.objects.get(pk=args[0])))


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_realms_tune_page_starts_a_comparison_and_reads_as_r1s(realms, inline_queue):
    c = Client()
    page = c.get("/realms/tune/?kind=compare")
    assert page.status_code == 200
    html = page.content.decode()
    assert "The Realm duel: tune a deck" in html and 'href="/realms/tune/"' in html   # the game's menu has Tune
    assert "Starter decks" in html and "<strong>Fast</strong>" in html and "<strong>Strong</strong>" in html
    assert "greedy-v1" not in html and "expert /" not in html
    loaded = c.post("/realms/tune/", {"kind": "compare", "pick_a": "starter:The Sunward Throne — Knights of the Dawn",
                                      "load": "1", "player": "fast", "seed": "1"})
    assert loaded.status_code == 200 and "Knights of the Dawn" in loaded.content.decode()
    assert not TuningRun.objects.exists()   # loading runs nothing
    r = c.post("/realms/tune/", {"kind": "compare", "a": SUNWARD, "b": DEEPWOOD, "gauntlet": ASHEN, "games": "2",
                                 "seed": "1", "player": "fast"})
    assert r.status_code == 302, r.content.decode()[:2000]
    run = TuningRun.objects.get()
    assert run.game == "realms" and r["Location"] == f"/realms/tune/runs/{run.pk}/"
    report = c.get(r["Location"]).content.decode()
    assert "The Sunward Throne" in report and "fb-" not in report
    assert re.search(r"\d+\.\d% \(\d+\.\d–\d+\.\d%\)|pts", report)
    assert "Goldfish: rounds to victory" in report
    assert c.get(f"/tune/runs/{run.pk}/").status_code == 404          # a realms run is not at r1's address
    assert c.get(f"/regions/tune/runs/{run.pk}/").status_code == 404
    cell = c.get(f"/realms/tune/runs/{run.pk}/cells/g0/")
    assert cell.status_code == 200 and f"/realms/tune/runs/{run.pk}/cells/g0/games/0/?deck=0" in cell.content.decode()
    replay = c.get(f"/realms/tune/runs/{run.pk}/cells/g0/games/1/?deck=1&step=3")
    assert replay.status_code == 200
    text = replay.content.decode()
    assert "The Deepwood Kin" in text and "seed" in text and "rb-title" in text   # the realms board, deck names
    assert c.get(f"/realms/tune/runs/{run.pk}/cells/g0/games/9/").status_code == 404   # it played 2 games
    assert c.get(f"/realms/tune/runs/{run.pk}/cells/g7/").status_code == 404
    assert c.get(f"/realms/tune/runs/{run.pk}/cells/gf/games/0/?deck=x").status_code == 404


def test_regions_tune_page_hero_swaps_and_matrix(inline_queue):
    c = Client()
    html = c.get("/regions/tune/?kind=tune").content.decode()
    assert "Hero swaps" in html and "Shipped strategies" in html and 'name="hero_deck"' in html
    assert 'value="goldfish"' not in html
    r = c.post("/regions/tune/", {"kind": "tune", "deck": BIG_MONEY, "gauntlet": REGION_CONTROL, "games": "8",
                                  "seed": "1", "player": "fast", "target": "winrate"})
    assert r.status_code == 302, r.content.decode()[:2000]
    report = c.get(r["Location"]).content.decode()
    assert "→" in report and "Dead weight" not in report and "hr-0" not in report
    m = c.post("/regions/tune/", {"kind": "matrix", "decks": f"{BIG_MONEY}\n---\n{REGION_CONTROL}", "games": "2",
                                  "seed": "1", "player": "fast"})
    assert m.status_code == 302
    run = TuningRun.objects.get(kind="matrix")
    body = c.get(m["Location"]).content.decode()
    assert f"/regions/tune/runs/{run.pk}/cells/m0-1/" in body and "scroll-hint" in body
    cell = c.get(f"/regions/tune/runs/{run.pk}/cells/m0-1/")
    assert cell.status_code == 200 and "games/1/" in cell.content.decode()
    replay = c.get(f"/regions/tune/runs/{run.pk}/cells/m0-1/games/1/?step=5")
    assert replay.status_code == 200 and "five Regions" in replay.content.decode()
    assert "Big Money" in replay.content.decode() or "big" in replay.content.decode().lower()
    assert c.get(f"/regions/tune/runs/{run.pk}/cells/m1-0/").status_code == 404


@pytest.mark.parametrize("form, message", [
    ({"kind": "compare", "pick_a": "starter:Nope", "load": "1"}, "Strategy A: There is no starter"),
    ({"kind": "compare", "a": BIG_MONEY, "b": BIG_MONEY, "hero_a": "Nobody"}, "no Hero called"),
    ({"kind": "compare", "a": BIG_MONEY, "b": BIG_MONEY, "player": "godlike"}, "Players: choose Fast or Strong"),
    ({"kind": "tune", "deck": BIG_MONEY, "target": "goldfish"}, "Improve: choose win rate"),
    ({"kind": "compare", "a": "hero: nobody", "b": BIG_MONEY}, "strategy 1"),
    ({"kind": "matrix", "decks": BIG_MONEY}, "matrix takes from 2 to 12"),
])
def test_regions_tune_page_bad_input_is_400_and_starts_nothing(form, message, inline_queue):
    r = Client().post("/regions/tune/", {"player": "fast", "seed": "1", "games": "2", **form})
    assert r.status_code == 400 and message in r.content.decode()
    assert not TuningRun.objects.exists()


def test_tuning_api_for_hosted_games(realms, inline_queue, django_user_model):
    c = Client()
    c.force_login(django_user_model.objects.create_user("tuner"))
    r = post(c, "/regions/api/tuning/", {"kind": "compare", "decks": [BIG_MONEY, REGION_CONTROL],
                                         "gauntlet": [REGION_CONTROL], "games": 4, "seed": 1})
    assert r.status_code == 202, r.content
    body = r.json()
    assert body["game"] == "regions" and body["page_url"].endswith(f"/regions/tune/runs/{body['id']}/")
    got = c.get(f"/api/tuning/{body['id']}/").json()
    assert got["status"] == "done" and got["result"]["game"] == "regions" and got["result"]["goldfish"] is None
    same = post(c, "/api/tuning/", {"game": "regions", "kind": "compare", "decks": [BIG_MONEY, REGION_CONTROL],
                                    "gauntlet": [REGION_CONTROL], "games": 4, "seed": 1}).json()
    assert same["id"] == body["id"] and same["cached"] is True
    realms_run = post(c, "/api/tuning/", {"game": "realms", "kind": "matrix", "decks": [SUNWARD, DEEPWOOD],
                                          "games": 2})
    assert realms_run.status_code == 202 and realms_run.json()["game"] == "realms"
    assert [x["id"] for x in c.get("/regions/api/tuning/").json()["results"]] == [body["id"]]
    assert {x["game"] for x in c.get("/api/tuning/").json()["results"]} == {"regions", "realms"}
    assert c.get("/api/tuning/?game=r1").json()["count"] == 0


@pytest.mark.parametrize("url, body, message", [
    ("/regions/api/tuning/", {"kind": "tune", "decks": [BIG_MONEY], "target": "goldfish"}, "no goldfish"),
    ("/regions/api/tuning/", {"kind": "compare", "decks": [BIG_MONEY, "hero: x"]}, "strategy 2"),
    ("/regions/api/tuning/", {"kind": "compare", "decks": [BIG_MONEY, BIG_MONEY], "game": "realms"}, "this address"),
    ("/api/tuning/", {"game": "chess", "kind": "matrix", "decks": [BIG_MONEY, BIG_MONEY]}, "game"),
    ("/regions/api/tuning/", {"kind": "matrix", "decks": [BIG_MONEY, BIG_MONEY], "games": 10**9}, "games"),
    ("/realms/api/tuning/", {"kind": "compare", "decks": [SUNWARD, {"deck": 999999}]}, "decks[1]"),
    ("/realms/api/tuning/", {"kind": "tune", "decks": [SUNWARD], "owned": True}, "owned"),
])
def test_tuning_api_bad_input_is_400(realms, url, body, message, django_user_model):
    c = Client()
    c.force_login(django_user_model.objects.create_user("bad"))
    r = post(c, url, body)
    assert r.status_code == 400, r.content
    assert message in json.dumps(r.json())
    assert not TuningRun.objects.exists()


def test_units_of_a_hosted_game_get_its_time_allowance():
    """A unit's time limit on the workers follows the game's pace and players, not r1's."""
    from simulator import tuning_services, tuning_tasks
    from simulator.tasks import chunk_time_limits

    fast = build_tuning_spec(game="regions", kind="matrix", decks=[("a", BIG_MONEY), ("b", REGION_CONTROL)],
                             games=4, seed=1)
    strong = build_tuning_spec(game="regions", kind="matrix", decks=[("a", BIG_MONEY), ("b", REGION_CONTROL)],
                               games=4, seed=1, policy="search", opponent_policy="search")
    runs = [tuning_services.tuning_from_spec(s) for s in (fast, strong)]
    allowances = [tuning_tasks._allowance(r.pk)["versus"] for r in runs]
    assert allowances[0] < 1 < allowances[1]
    assert chunk_time_limits("versus", 100, per_game={"versus": allowances[1]})[0] > 100 * allowances[1]
    r1_run = TuningRun.objects.create(kind="matrix", games=1, seed=1, engine_version="x", request_key="k", spec={})
    assert tuning_tasks._allowance(r1_run.pk) is None


def test_realms_my_deck_fills_a_box_and_the_api_reads_it(realms, inline_queue, django_user_model):
    from tests.simulator.games.test_game_web import _realms_deck

    owner = django_user_model.objects.create_user("arthur")
    deck = _realms_deck(owner, "Dawn riders", SUNWARD)
    c = Client()
    c.force_login(owner)
    page = c.get("/realms/tune/?kind=tune").content.decode()
    assert f'value="deck:{deck.pk}"' in page and "Dawn riders" in page
    assert "only cards in my collection" not in page    # realms keeps no collection
    loaded = c.post("/realms/tune/", {"kind": "tune", "pick_deck": f"deck:{deck.pk}", "load": "1", "player": "fast"})
    assert loaded.status_code == 200 and "Queen Ysolde" in loaded.content.decode()
    r = post(c, "/realms/api/tuning/", {"kind": "matrix", "decks": [{"deck": deck.pk}, DEEPWOOD], "games": 2})
    assert r.status_code == 202, r.content
    assert c.get(f"/api/tuning/{r.json()['id']}/").json()["result"]["decks"][0]["name"] == "Dawn riders"
    other = Client()
    other.force_login(django_user_model.objects.create_user("mordred"))
    stolen = post(other, "/realms/api/tuning/", {"kind": "matrix", "decks": [{"deck": deck.pk}, DEEPWOOD]})
    assert stolen.status_code == 400 and "someone else's private deck" in stolen.json()["detail"]
    assert other.get(f"/realms/tune/runs/{r.json()['id']}/").status_code == 404   # a run on a saved deck is private


def test_the_commands_take_a_game(tmp_path, capsys):
    from django.core.management.base import CommandError

    a, b = tmp_path / "big-money.txt", tmp_path / "region-control.txt"
    a.write_text(BIG_MONEY)
    b.write_text(REGION_CONTROL)
    call_command("compare", str(a), str(b), "--game", "regions", "--gauntlet", str(b), "--games", "4", "--json")
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "regions" and result["goldfish"] is None and result["opponents"][0]["games"] == 4
    call_command("tune", str(a), "--game", "regions", "--gauntlet", str(b), "--games", "4")
    text = capsys.readouterr().out
    assert "percentage points of win rate" in text and " pts" in text and "→" in text
    with pytest.raises(CommandError, match="no goldfish"):
        call_command("tune", str(a), "--game", "regions", "--target", "goldfish")
    with pytest.raises(CommandError, match="has no tuning here"):
        call_command("matrix", str(a), str(b), "--game", "chess")


def test_links_fill_the_boxes():
    c = Client()
    page = c.get("/regions/tune/?kind=compare&a=strategy:big-money&b=strategy:wide-board").content.decode()
    assert "name: Big Money" in page and "name: Wide Board" in page
    matrix = c.get("/regions/tune/?kind=matrix&all_starters=1").content.decode()
    assert matrix.count("name: ") >= 5 and "Fill in every shipped strategy" in matrix
    assert c.get("/regions/tune/?kind=compare&a=strategy:nope").status_code == 404
    assert c.get("/regions/tune/?kind=bogus").status_code == 200          # an unknown kind is the first tab
    assert c.get("/chess/tune/").status_code == 404


def test_a_hand_edited_replay_step_is_told(inline_queue):
    c = Client()
    m = c.post("/regions/tune/", {"kind": "matrix", "decks": f"{BIG_MONEY}\n---\n{REGION_CONTROL}", "games": "2",
                                  "seed": "1", "player": "fast"})
    url = m["Location"] + "cells/m0-1/games/0/"
    assert c.get(url + "?step=abc").status_code == 400
    assert c.get(url + "?step=999999").status_code == 404
    page = c.get(url + "?step=2").content.decode()
    assert "games/1/?deck=0&amp;step=0" in page and "The games of this cell" in page
