"""The hosted games' APIs (/realms/api/…, /regions/api/…) hold r1's rules: CSRF for a session, none for a token
script; profile-page tokens recognised; runs throttled as r1's (API and page); the round-robin computed on the
workers, once per (games, seed), and throttled; and the judge sandbox linked where a newcomer looks."""
from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.test import Client

from roc_site.accounts.services import api_token_create
from simulator.models import SimulationRun

from .conftest import client_for

pytestmark = pytest.mark.django_db

REGIONS_RUN = {"mode": "versus", "strategy": "big-money", "opponent_strategy": "region-control", "games": 10}


@pytest.fixture
def queue(monkeypatch):
    """Runs and round-robins handed to the workers are recorded, not played (the web process's side only)."""
    from simulator import tasks

    sent = []
    monkeypatch.setattr(tasks.start_run, "apply_async", lambda args, **kw: sent.append(("run", *args)))
    if hasattr(tasks, "regions_round_robin"):  # (absent before the round-robin moved to the workers)
        monkeypatch.setattr(tasks.regions_round_robin, "apply_async", lambda args, **kw: sent.append(("rr", *args)))
    return sent


@pytest.fixture
def strict(alice) -> Client:
    c = Client(enforce_csrf_checks=True)
    c.force_login(alice)
    c.get("/regions/simulate/")  # the csrftoken cookie a signed-in browser holds
    assert "csrftoken" in c.cookies
    return c


# ---- CSRF --------------------------------------------------------------------------------------------------
def test_a_cross_site_text_plain_post_riding_the_session_is_refused(strict, queue):
    # what a form on another site can send without a preflight: text/plain, the victim's cookies
    for game, body in (("regions", REGIONS_RUN), ("realms", {"mode": "goldfish", "text": "3x Anything"})):
        r = strict.post(f"/{game}/api/simulations/", json.dumps(body), content_type="text/plain")
        assert r.status_code == 403 and "CSRF" in r.json()["detail"], (game, r.content)
        r = strict.post(f"/{game}/api/simulations/", json.dumps(body), content_type="application/json",
                        HTTP_ORIGIN="https://evil.example")
        assert r.status_code == 403 and "CSRF" in r.json()["detail"], (game, r.content)
    assert SimulationRun.objects.count() == 0 and queue == []


def test_the_session_with_its_csrf_token_and_a_token_script_without_one_are_accepted(strict, alice, queue):
    r = strict.post("/regions/api/simulations/", json.dumps(REGIONS_RUN), content_type="application/json",
                    HTTP_X_CSRFTOKEN=strict.cookies["csrftoken"].value)
    assert r.status_code == 202, r.content
    SimulationRun.objects.all().delete()  # one run in flight at a time
    key = api_token_create(user=alice).key
    script = Client(enforce_csrf_checks=True)
    r = script.post("/regions/api/simulations/", json.dumps(REGIONS_RUN), content_type="application/json",
                    HTTP_AUTHORIZATION=f"Token {key}")
    assert r.status_code == 202, r.content
    assert SimulationRun.objects.get().user == alice  # the token's user owns the run


def test_a_revoked_token_is_refused_as_on_r1s_api(alice):
    r = Client().get("/realms/api/decks/", HTTP_AUTHORIZATION="Token not-a-real-token")
    assert r.status_code == 401 and r["WWW-Authenticate"] == "Token"
    assert Client().get("/api/decks/", HTTP_AUTHORIZATION="Token not-a-real-token").status_code == 401


# ---- token auth --------------------------------------------------------------------------------------------
def test_a_token_authenticated_client_lists_its_realms_decks_and_runs(alice, bob, capsys, queue):
    from cards.games import registry
    from cards.games.realms import SET_FILE, STARTERS_DIR
    from cards.selectors import game_cards
    from decks.game_services import game_deck_save

    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()
    spec = registry.get("realms")
    counts, _ = spec.hook("parse_decklist")((STARTERS_DIR / "sunward.txt").read_text(), game_cards("realms"))
    game_deck_save(game=spec, owner=alice, name="Dawn", counts=counts, is_private=True)
    key = api_token_create(user=alice).key
    listed = Client().get("/realms/api/decks/", HTTP_AUTHORIZATION=f"Token {key}")
    assert listed.status_code == 200, listed.content
    assert [d["name"] for d in listed.json()["results"]] == ["Dawn"]
    bob_key = api_token_create(user=bob).key
    assert Client().get("/realms/api/decks/", HTTP_AUTHORIZATION=f"Token {bob_key}").json()["count"] == 0
    assert Client().get("/realms/api/decks/").status_code == 403  # anonymous: as before
    r = Client().post("/regions/api/simulations/", json.dumps(REGIONS_RUN), content_type="application/json",
                      HTTP_AUTHORIZATION=f"Token {key}")
    assert r.status_code == 202
    mine = Client().get("/regions/api/simulations/", HTTP_AUTHORIZATION=f"Token {key}").json()
    assert [x["id"] for x in mine["results"]] == [r.json()["id"]]
    assert Client().get("/regions/api/simulations/").json()["count"] == 0  # not an anonymous visitor's


def test_the_stateless_checks_need_no_login_and_no_csrf_token(strict):
    # validate and hands store nothing and read no user, like r1's /api/decks/validate/
    r = strict.post("/realms/api/decks/validate/", json.dumps({"text": "3x Nobody"}), content_type="application/json")
    assert r.status_code == 200 and r.json()["legal"] is False


# ---- throttling --------------------------------------------------------------------------------------------
@pytest.fixture
def site_rates(settings):
    """The site's own default rates (roc_site/settings/base.py), not the test settings' high ones."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "simulations_user": "30/minute", "simulations_anon": "10/minute"}}


def test_the_eleventh_anonymous_run_in_the_window_is_refused(site_rates, queue):
    c = Client(REMOTE_ADDR="10.9.9.9")
    codes = []
    for i in range(11):
        body = {**REGIONS_RUN, "seed": i + 1}
        codes.append(c.post("/regions/api/simulations/", json.dumps(body), content_type="application/json"))
        SimulationRun.objects.all().delete()  # the in-flight limit is not what is tested here
    assert [r.status_code for r in codes[:10]] == [202] * 10
    last = codes[10]
    assert last.status_code == 429 and "throttled" in last.json()["detail"].lower()
    assert int(last["Retry-After"]) > 0
    assert c.get("/regions/api/simulations/").status_code == 200  # reading is never throttled
    # realms counts on the same allowance, and so does r1's API: one visitor, one limit
    junk = json.dumps({"mode": "goldfish", "text": "junk"})
    assert c.post("/realms/api/simulations/", junk, content_type="application/json").status_code == 429
    assert c.post("/api/simulations/", junk, content_type="application/json").status_code == 429
    assert Client(REMOTE_ADDR="10.9.9.10").post("/realms/api/simulations/", junk,
                                                content_type="application/json").status_code == 400


def test_the_simulate_pages_share_the_limit(site_rates, queue):
    c = Client(REMOTE_ADDR="10.8.8.8")
    for _ in range(10):
        assert c.post("/realms/simulate/", {"mode": "goldfish", "text": "junk"}).status_code == 400
    for game in ("realms", "regions"):
        r = c.post(f"/{game}/simulate/", {"mode": "versus", "text": "junk", "opponent": "junk"})
        assert r.status_code == 429 and "Too many simulation requests" in r.content.decode()
    assert c.get("/regions/simulate/").status_code == 200
    assert SimulationRun.objects.count() == 0


# ---- the round-robin ---------------------------------------------------------------------------------------
@pytest.fixture
def engine_calls(monkeypatch):
    from simulator.engines.regions import sim

    calls = []
    real = sim.round_robin

    def counted(*args, **kwargs):
        calls.append(kwargs.get("seed"))
        return real(*args, **kwargs)

    monkeypatch.setattr(sim, "round_robin", counted)
    return calls


def test_the_round_robin_is_computed_on_the_workers_once(queue, engine_calls):
    from simulator import tasks

    c = Client()
    r = c.get("/regions/api/round-robin/?games=10&seed=7")
    assert r.status_code == 202 and "being computed" in r.json()["detail"] and int(r["Retry-After"]) > 0
    assert engine_calls == [] and queue == [("rr", 10, 7)]  # the web process played nothing
    assert c.get("/regions/api/round-robin/?games=10&seed=7").status_code == 202
    assert queue == [("rr", 10, 7)]  # handed out once while it is being computed
    tasks.regions_round_robin(10, 7)  # the worker
    assert engine_calls == [7]
    for _ in range(3):
        rr = c.get("/regions/api/round-robin/?games=10&seed=7")
        assert rr.status_code == 200 and len(rr.json()["matrix"]) == 5
    page = c.get("/regions/round-robin/?games=10&seed=7")
    assert page.status_code == 200 and b"<svg" in page.content
    assert engine_calls == [7] and len(queue) == 1  # the repeats cost no engine work


def test_the_round_robin_page_says_it_is_being_computed(queue, engine_calls):
    page = Client().get("/regions/round-robin/?games=20&seed=3")
    assert page.status_code == 202 and engine_calls == []
    text = page.content.decode()
    assert "being computed" in text and 'http-equiv="refresh"' in text


def test_new_round_robins_are_throttled_and_bounded(settings, queue, engine_calls):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "simulations_user": "3/minute", "simulations_anon": "2/minute"}}
    c = Client(REMOTE_ADDR="10.7.7.7")
    assert [c.get(f"/regions/api/round-robin/?games=400&seed={s}").status_code for s in (1, 2)] == [202, 202]
    r = c.get("/regions/api/round-robin/?games=400&seed=3")
    assert r.status_code == 429 and "Too many simulation requests" in r.json()["detail"]
    assert c.get("/regions/api/round-robin/?games=400&seed=1").status_code == 202  # asking again is free
    assert len(queue) == 2 and engine_calls == []
    for query, word in (("games=401", "games"), ("games=0", "games"), (f"seed={2**63}", "seed"),
                        ("seed=-1", "seed"), ("seed=" + "9" * 5000, "seed"), ("games=x", "games")):
        r = Client().get(f"/regions/api/round-robin/?{query}")
        assert r.status_code == 400 and r.json()["detail"].startswith(word), (query, r.content)


# ---- the judge sandbox is findable -------------------------------------------------------------------------
@pytest.mark.parametrize("url", ["/", "/play/"])
def test_the_judge_sandbox_is_linked_in_plain_words(url):
    text = client_for(None).get(url).content.decode()
    assert 'href="/play/sandbox/"' in text and "judge sandbox" in text.lower() and "rule" in text
