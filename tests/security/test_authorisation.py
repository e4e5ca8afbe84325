"""Authorisation: another user's private deck does not exist for you (404, pages and API alike), nobody but the
owner changes a deck, anonymous visitors write nothing, and collections and simulation lists are per user."""
from __future__ import annotations

import json

import pytest

from decks.models import Deck, DeckVersion

from .conftest import client_for

pytestmark = pytest.mark.django_db

PAGE_READS = ["/decks/{pk}/", "/decks/{pk}/edit/", "/decks/{pk}/compare/", "/simulate/?deck={pk}"]
PAGE_WRITES = ["/decks/{pk}/edit/", "/decks/{pk}/publish/", "/decks/{pk}/delete/", "/decks/{pk}/undelete/",
               "/decks/{pk}/copy/", "/decks/{pk}/versions/1/restore/"]
API_READS = ["/api/decks/{pk}/", "/api/decks/{pk}/versions/", "/api/decks/{pk}/stats/", "/api/decks/{pk}/export/",
             "/api/decks/{pk}/buildable/"]
API_WRITES = [("put", "/api/decks/{pk}/"), ("patch", "/api/decks/{pk}/"), ("delete", "/api/decks/{pk}/"),
              ("post", "/api/decks/{pk}/copy/"), ("post", "/api/decks/{pk}/publish/"),
              ("post", "/api/decks/{pk}/undelete/"), ("post", "/api/decks/{pk}/versions/1/restore/")]


def _snapshot(deck: Deck) -> tuple:
    deck.refresh_from_db()
    return (deck.name, deck.is_private, deck.deleted_at, DeckVersion.objects.filter(deck=deck).count(),
            Deck.objects.count())


@pytest.mark.parametrize("url", PAGE_READS)
def test_another_users_private_deck_page_is_404(url, bob, private_deck):
    assert client_for(bob).get(url.format(pk=private_deck.pk)).status_code == 404


@pytest.mark.parametrize("url", PAGE_READS)
def test_the_owner_reads_their_private_deck_pages(url, alice, private_deck):
    assert client_for(alice).get(url.format(pk=private_deck.pk)).status_code == 200


@pytest.mark.parametrize("url", PAGE_WRITES)
def test_another_user_cannot_change_a_private_deck_through_a_page(url, bob, private_deck):
    before = _snapshot(private_deck)
    r = client_for(bob).post(url.format(pk=private_deck.pk), {"text": "1x Anything", "name": "stolen",
                                                              "title": "stolen"})
    assert r.status_code == 404
    assert _snapshot(private_deck) == before


@pytest.mark.parametrize("url", ["/decks/{pk}/edit/", "/decks/{pk}/publish/", "/decks/{pk}/delete/",
                                 "/decks/{pk}/versions/1/restore/"])
def test_another_user_cannot_change_a_public_deck_through_a_page(url, bob, public_deck):
    before = _snapshot(public_deck)
    r = client_for(bob).post(url.format(pk=public_deck.pk), {"text": "1x Anything", "name": "stolen",
                                                             "title": "stolen"})
    assert r.status_code in (403, 404)
    assert _snapshot(public_deck) == before


@pytest.mark.parametrize("url", PAGE_WRITES + ["/decks/new/", "/decks/import/"])
def test_anonymous_page_writes_go_to_the_login_page(url, private_deck):
    before = _snapshot(private_deck)
    r = client_for(None).post(url.format(pk=private_deck.pk), {"text": "1x Anything", "name": "anon"})
    assert r.status_code == 302 and r["Location"].startswith("/accounts/login/")
    assert _snapshot(private_deck) == before


@pytest.mark.parametrize("url", API_READS)
def test_another_users_private_deck_is_404_in_the_api(url, bob, private_deck):
    r = client_for(bob).get(url.format(pk=private_deck.pk))
    assert r.status_code == 404
    if r["Content-Type"].startswith("application/json"):  # export answers in its negotiated text format
        assert "detail" in r.json()


@pytest.mark.parametrize("url", API_READS)
def test_the_owner_reads_their_deck_in_the_api(url, alice, private_deck):
    assert client_for(alice).get(url.format(pk=private_deck.pk)).status_code == 200


@pytest.mark.parametrize("method,url", API_WRITES)
def test_another_user_cannot_change_a_private_deck_through_the_api(method, url, bob, private_deck):
    before = _snapshot(private_deck)
    r = getattr(client_for(bob), method)(url.format(pk=private_deck.pk), data=json.dumps({"name": "stolen"}),
                                         content_type="application/json")
    assert r.status_code == 404, r.content
    assert _snapshot(private_deck) == before


@pytest.mark.parametrize("method,url", [w for w in API_WRITES if not w[1].endswith("/copy/")])
def test_another_user_cannot_change_a_public_deck_through_the_api(method, url, bob, public_deck):
    before = _snapshot(public_deck)
    r = getattr(client_for(bob), method)(url.format(pk=public_deck.pk), data=json.dumps({"name": "stolen"}),
                                         content_type="application/json")
    assert r.status_code in (403, 404), r.content
    assert "detail" in r.json()
    assert _snapshot(public_deck) == before


@pytest.mark.parametrize("method,url", API_WRITES + [("post", "/api/decks/"), ("put", "/api/collection/replace/"),
                                                     ("post", "/api/collection/cards/"),
                                                     ("post", "/api/collection/sets/")])
def test_anonymous_api_writes_are_refused(method, url, private_deck):
    before = _snapshot(private_deck)
    r = getattr(client_for(None), method)(url.format(pk=private_deck.pk),
                                          data=json.dumps({"name": "anon", "text": "1x Anything", "cards": {}}),
                                          content_type="application/json")
    assert r.status_code in (401, 403), r.content
    assert "detail" in r.json()
    assert _snapshot(private_deck) == before


def test_deck_lists_show_only_your_own_decks(alice, bob, private_deck):
    assert client_for(bob).get("/api/decks/").json()["count"] == 0
    assert client_for(alice).get("/api/decks/").json()["count"] == 1
    assert "Alice secret plan" not in client_for(bob).get("/decks/").content.decode()


def test_collections_are_per_user(alice, bob, some_units):
    from decks.services import collection_set

    collection_set(user=alice, counts={some_units[0]: 3})
    mine = client_for(alice).get("/api/collection/").json()
    theirs = client_for(bob).get("/api/collection/").json()
    assert json.dumps(mine).count(some_units[0]) >= 1
    assert some_units[0] not in json.dumps(theirs)
    assert some_units[0] not in client_for(bob).get("/collection/export.csv").content.decode()
    assert client_for(None).get("/api/collection/").status_code in (401, 403)
    assert client_for(None).get("/collection/").status_code == 302


def test_simulating_another_users_private_deck_is_refused(bob, private_deck):
    r = client_for(bob).post("/api/simulations/", data=json.dumps({"mode": "hands", "deck": private_deck.pk}),
                             content_type="application/json")
    assert r.status_code == 400
    assert f"id {private_deck.pk} that you may read" in r.json()["detail"]


def test_simulation_lists_show_only_your_own_runs(alice, bob):
    from simulator.models import SimulationRun

    SimulationRun.objects.create(mode="hands", games=10, seed=1, user=alice, deck_name="Alice's run",
                                 request_key="k-alice", spec={})
    assert client_for(alice).get("/api/simulations/").json()["count"] == 1
    assert client_for(bob).get("/api/simulations/").json()["count"] == 0
    assert client_for(None).get("/api/simulations/").json()["count"] == 0
    assert "Alice&#x27;s run" not in client_for(bob).get("/simulate/").content.decode()


def _run_of_private_deck(alice, private_deck):
    from simulator.models import SimulationRun

    version = private_deck.versions.order_by("-number").first()
    return SimulationRun.objects.create(mode="hands", games=10, seed=1, user=alice, deck_name=private_deck.name,
                                        deck_version=version, request_key="k-private", spec={}, status="queued")


def test_a_run_of_a_private_deck_is_404_for_other_users(alice, bob, private_deck):
    run = _run_of_private_deck(alice, private_deck)
    for who in (bob, None):
        c = client_for(who)
        assert c.get(f"/simulate/runs/{run.pk}/").status_code == 404
        assert c.get(f"/api/simulations/{run.pk}/").status_code == 404
        assert c.post(f"/simulate/runs/{run.pk}/retry/").status_code == 404
    assert client_for(alice).get(f"/simulate/runs/{run.pk}/").status_code == 200
    assert client_for(alice).get(f"/api/simulations/{run.pk}/").json()["deck"]["name"] == "Alice secret plan"


def test_a_run_of_pasted_lists_is_private_to_its_owner_too(alice, bob):
    """One rule for every run (simulator/access.py; tests/security/test_run_sharing.py): pasted lists or not, a
    run is its owner's until shared."""
    from simulator.models import SimulationRun

    run = SimulationRun.objects.create(mode="hands", games=10, seed=1, user=alice, request_key="k-pasted",
                                       spec={}, status="queued")
    assert client_for(bob).get(f"/api/simulations/{run.pk}/").status_code == 404
    assert client_for(alice).get(f"/api/simulations/{run.pk}/").status_code == 200


def test_the_same_request_as_a_private_run_gets_a_run_of_its_own(alice, bob, private_deck, monkeypatch):
    from simulator import selectors, services, tasks

    from pathlib import Path

    from decks.decklist import parse_decklist
    from decks.pool import CardPool
    from decks.services import deck_create

    monkeypatch.setattr(tasks.start_run, "apply_async", lambda *a, **k: None)
    starter = (Path(__file__).resolve().parents[2] / "cards/data/starters/camelot.txt").read_text(encoding="utf-8")
    deck = deck_create(owner=alice, name="Alice private Camelot", is_private=True,
                       counts=parse_decklist(starter, CardPool.from_db()).counts).deck
    version, text = selectors.deck_version_for(user=alice, deck_id=deck.pk)
    theirs, created = services.run_request(mode="hands", text=text, games=100, seed=3, user=alice,
                                           deck_version=version, deck_name=deck.name)
    assert created
    from simulator.models import SimulationRun

    SimulationRun.objects.filter(pk=theirs.pk).update(status="done")   # finished or not, hers stays hers
    mine, created = services.run_request(mode="hands", text=text, games=100, seed=3, user=bob)
    assert created and mine.pk != theirs.pk  # not Alice's run (it names her private deck)
    assert mine.deck_version_id is None   # nothing of hers: the list he pasted, as his own run
    again, created = services.run_request(mode="hands", text=text, games=100, seed=3, user=alice,
                                          deck_version=version)
    assert not created and again.pk in (theirs.pk, mine.pk)


def test_the_account_archive_holds_only_your_own_data(alice, bob, private_deck):
    assert client_for(None).get("/decks/archive.json").status_code == 302  # log-in first
    theirs = client_for(bob).get("/decks/archive.json")
    assert theirs.status_code == 200
    assert "Alice secret plan" not in theirs.content.decode()
    assert "Alice secret plan" in client_for(alice).get("/decks/archive.json").content.decode()


def test_the_account_import_needs_login_and_csrf(alice):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    before = Deck.objects.count()
    upload = SimpleUploadedFile("a.json", b"{}", content_type="application/json")
    r = client_for(None).post("/decks/archive/import/", {"file": upload})
    assert r.status_code == 302 and r["Location"].startswith("/accounts/login/")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post("/decks/archive/import/", {"file": upload}).status_code == 403
    assert Deck.objects.count() == before
