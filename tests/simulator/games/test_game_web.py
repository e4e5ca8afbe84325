"""The hosted games' simulations on the web: the API (POST a run, its status and result, bad input
400 {"detail"} storing nothing), the pages (form, report with charts, replay, the regions strategy editor's live
parse with line and column, the round-robin, the regions card gallery)."""
import json
import re

import pytest
from django.core.management import call_command
from django.test import Client

from cards.games.realms import SET_FILE, STARTERS_DIR
from cards.games.regions import DATA_FILE
from simulator import services
from simulator.engines.regions import STRATEGY_DIR
from simulator.games import run_in_process
from simulator.games.services import build_game_spec
from simulator.models import SimulationRun

pytestmark = pytest.mark.django_db
SUNWARD = (STARTERS_DIR / "sunward.txt").read_text()
DEEPWOOD = (STARTERS_DIR / "deepwood.txt").read_text()
BIG_MONEY = (STRATEGY_DIR / "big-money.txt").read_text()


@pytest.fixture
def realms(capsys):
    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()


@pytest.fixture
def inline_queue(monkeypatch):
    from simulator import tasks

    monkeypatch.setattr(tasks.start_run, "apply_async",
                        lambda args, **kw: services.run_execute_here(SimulationRun.objects.get(pk=args[0])))


def no_elapsed(result):
    return {k: v for k, v in result.items() if k != "elapsed_s"}


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_api_realms_goldfish_run(realms, inline_queue, django_user_model):
    c = Client()
    c.force_login(django_user_model.objects.create_user("owner"))   # the contract as a run's owner sees it
    r = post(c, "/api/simulations/", {"game": "realms", "mode": "goldfish", "text": SUNWARD, "games": 40, "seed": 2})
    assert r.status_code == 202, r.content
    body = r.json()
    assert body["game"] == "realms" and body["page_url"].endswith(f"/realms/simulate/runs/{body['id']}/")
    got = c.get(f"/api/simulations/{body['id']}/").json()
    assert got["status"] == "done"
    spec = build_game_spec("realms", mode="goldfish", text=SUNWARD, games=40, seed=2)
    assert no_elapsed(got["result"]) == no_elapsed(run_in_process(spec))
    again = post(c, "/realms/api/simulations/", {"mode": "goldfish", "text": SUNWARD, "games": 40, "seed": 2}).json()
    assert again["id"] == body["id"] and again["cached"] is True  # the same request: the stored run
    listed = c.get("/realms/api/simulations/").json()
    assert [x["id"] for x in listed["results"]] == [body["id"]]
    assert c.get("/api/simulations/?game=regions").json()["count"] == 0


@pytest.mark.parametrize("body, message", [
    ({"game": "realms", "mode": "hands", "text": SUNWARD}, "goldfish or versus"),
    ({"game": "realms", "mode": "versus", "text": SUNWARD}, "opponent"),
    ({"game": "realms", "mode": "goldfish", "text": "2x Nobody\n"}, "Nobody"),
    ({"game": "realms", "mode": "goldfish", "text": SUNWARD, "games": "many"}, "games"),
    ({"game": "realms", "mode": "goldfish", "text": SUNWARD, "policy": "psychic"}, "unknown policy"),
    ({"game": "chess", "mode": "versus", "text": "x"}, "has no simulations"),
    ({"game": "regions", "mode": "versus", "text": "hero: Nobody\n", "opponent_strategy": "big-money"}, "line 1"),
])
def test_api_bad_input_is_400_and_stores_nothing(realms, inline_queue, body, message):
    r = post(Client(), "/api/simulations/", body)
    assert r.status_code == 400 and message in r.json()["detail"], r.content
    assert not SimulationRun.objects.exists()


def test_api_regions_run_by_shipped_names(inline_queue):
    c = Client()
    r = post(c, "/regions/api/simulations/", {"mode": "versus", "strategy": "big-money",
                                              "opponent_strategy": "recognition-rush", "games": 20, "seed": 3})
    assert r.status_code == 202, r.content
    result = c.get(r.json()["url"]).json()["result"]   # an anonymous API client's way back: the shared link
    assert result["game"] == "regions" and result["games"] == 20
    assert result["deck"]["name"] == "Big Money"
    assert c.post("/regions/api/simulations/", b"[1]", content_type="application/json").status_code == 400


def test_realms_pages_form_report_charts_replay(realms, inline_queue):
    c = Client()
    page = c.get("/realms/simulate/?starter=The Sunward Throne — Knights of the Dawn")
    assert page.status_code == 200 and b"Goldfish" in page.content
    r = c.post("/realms/simulate/", {"mode": "versus", "text": SUNWARD, "opponent": DEEPWOOD, "games": "8",
                                     "seed": "1"})
    assert r.status_code == 302
    report = c.get(r["Location"])
    html = report.content.decode()
    assert report.status_code == 200 and "won" in html and html.count("<svg") >= 1
    run = SimulationRun.objects.get()
    assert c.get(f"/simulate/runs/{run.pk}/")["Location"] == run.get_absolute_url()  # r1's page sends it on
    replay = c.get(run.get_absolute_url() + "replay/?step=1", follow=True)
    assert replay.status_code == 200 and b"step 2 /" in replay.content
    assert c.get(f"/regions/simulate/runs/{run.pk}/").status_code == 404  # not a regions run
    gold = c.post("/realms/simulate/", {"mode": "goldfish", "text": SUNWARD, "games": "20", "seed": "1"})
    body = c.get(gold["Location"]).content.decode()
    assert "Reached 50 VP" in body and "Stuck in hand" in body and body.count("<svg") >= 3
    bad = c.post("/realms/simulate/", {"mode": "goldfish", "text": "1x Nobody", "games": "20"})
    assert bad.status_code == 400 and b"Nobody" in bad.content


def test_regions_strategy_editor_live_parse():
    c = Client()
    page = c.get("/regions/strategies/?strategy=region-control")
    assert page.status_code == 200 and b"hx-post=\"/regions/strategies/parse/\"" in page.content
    ok = c.post("/regions/strategies/parse/", {"text": BIG_MONEY})
    assert b"Big Money" in ok.content and b"problem" not in ok.content
    bad_text = BIG_MONEY.replace("Silver", "Silverr")
    line = next(i for i, ln in enumerate(bad_text.splitlines(), 1) if "Silverr" in ln)
    bad = c.post("/regions/strategies/parse/", {"text": bad_text})
    assert re.search(rf"line {line}, column \d+", bad.content.decode()), bad.content
    as_json = c.post("/regions/strategies/parse/", {"text": bad_text}, HTTP_ACCEPT="application/json")
    assert as_json.status_code == 400 and as_json.json()["errors"][0]["line"] == line


def test_regions_simulate_page_and_report(inline_queue):
    c = Client()
    assert b"Big Money" in c.get("/regions/simulate/").content
    r = c.post("/regions/simulate/", {"mode": "versus", "text": BIG_MONEY, "opponent_pick": "worker-engine",
                                      "games": "12", "seed": "2"})
    assert r.status_code == 302, r.content
    html = c.get(r["Location"]).content.decode()
    assert "Regions controlled" in html and "Cards bought" in html and "(Corin Vale)" in html and html.count("<svg") >= 4
    assert c.get(r["Location"] + "replay/", follow=True).status_code == 200


def test_round_robin_page_and_api(monkeypatch):
    from simulator import tasks

    # the workers compute it (simulator/games/round_robin.py); here at once, as a queue that runs tasks eagerly
    monkeypatch.setattr(tasks.regions_round_robin, "apply_async", lambda args, **kw: tasks.regions_round_robin(*args))
    c = Client()
    rr = c.get("/regions/api/round-robin/?games=10&seed=1").json()
    names = rr["strategies"]
    assert len(names) == 5 and len(rr["matrix"]) == 5
    for i in range(5):  # a pair's two cells add up to one game's worth each
        for j in range(5):
            if i != j:
                assert rr["matrix"][i][j]["score"] + rr["matrix"][j][i]["score"] == pytest.approx(1)
    page = c.get("/regions/round-robin/?games=10&seed=1")
    assert page.status_code == 200 and b"<svg" in page.content
    assert c.get("/regions/api/round-robin/?games=0").status_code == 400


def test_regions_card_gallery_images(capsys):
    call_command("loadcards", str(DATA_FILE), verbosity=0)
    c = Client()
    grid = c.get("/regions/cards/?view=grid")
    assert grid.status_code == 200
    codes = re.findall(r'/regions/cards/([\w-]+)\.png', grid.content.decode())
    assert codes
    img = c.get(f"/regions/cards/{codes[0]}.png")
    assert img.status_code == 200 and img.content[:8] == b"\x89PNG\r\n\x1a\n"


def _realms_deck(owner, name, text, private=True):
    from cards.games import registry
    from cards.selectors import game_cards
    from decks.game_services import game_deck_save

    spec = registry.get("realms")
    counts, problems = spec.hook("parse_decklist")(text, game_cards("realms"))
    assert not [p for p in problems if p.get("severity") == "error"], problems
    return game_deck_save(game=spec, owner=owner, name=name, counts=counts, is_private=private)


def test_realms_simulate_this_deck_from_its_page_and_the_nav(realms, inline_queue):
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    ada, bo = users.create_user("ada", password="pw-ada-12345"), users.create_user("bo", password="pw-bo-12345")
    mine = _realms_deck(ada, "Dawn riders", SUNWARD)
    public = _realms_deck(bo, "Bo's wardens", DEEPWOOD, private=False)
    hidden = _realms_deck(bo, "Bo's secret", DEEPWOOD)
    c = Client()
    c.force_login(ada)
    # the navigation of a hosted game with simulations links its simulate page
    for game in ("realms", "regions"):
        assert f'href="/{game}/simulate/">Simulate</a>' in c.get(f"/{game}/cards/").content.decode()
    # a deck's page links "Simulate this deck", mine and someone else's public one
    for deck in (mine, public):
        assert f'href="/realms/simulate/?deck={deck.pk}"' in c.get(f"/realms/decks/{deck.pk}/").content.decode()
    # the link fills the form with the deck's list and name; an opponent's deck makes it head-to-head
    page = c.get(f"/realms/simulate/?deck={mine.pk}&opponent_deck={public.pk}").content.decode()
    assert "Dawn riders" in page and "Bo&#x27;s wardens" in page and 'value="versus" checked' in page
    assert "Queen Ysolde" in page   # a card of the Sunward list, in the decklist box
    # another player's private deck, a deleted or unknown one, or a malformed id: not found, nothing filled
    for bad in (str(hidden.pk), "99999", "abc", "1; drop"):
        assert c.get(f"/realms/simulate/?deck={bad}").status_code == 404
    # the name travels with the form into the run's report
    r = c.post("/realms/simulate/", {"mode": "goldfish", "text": SUNWARD, "games": "20", "seed": "3",
                                      "name": "Dawn riders", "player": "fast"})
    assert r.status_code == 302
    assert "Dawn riders" in c.get(r["Location"]).content.decode()
