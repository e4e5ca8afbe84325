"""One sharing rule for every run (simulator/access.py): a run is private to its owner until shared; sharing
gives an unguessable link that works for anyone, read-only, until the owner stops sharing; ids find nothing;
anonymous owners are their session, never their address."""
from __future__ import annotations

import pytest
from django.test import Client

from simulator.models import SimulationRun, TuningRun

from .conftest import client_for

pytestmark = pytest.mark.django_db

# (kind, spec) of a SimulationRun of each game; its report page by id
GAMES = [("r1", {}), ("realms", {"game": "realms"}), ("regions", {"game": "regions"})]


def _sim(owner=None, session_key="", spec=None, **extra) -> SimulationRun:
    return SimulationRun.objects.create(mode="versus", games=10, seed=1, user=owner, session_key=session_key,
                                        request_key="k", spec=spec or {}, status="queued", **extra)


def _tuning(owner=None, session_key="") -> TuningRun:
    return TuningRun.objects.create(kind="matrix", games=10, seed=1, engine_version="x", request_key="k",
                                    spec={}, user=owner, session_key=session_key, status="queued")


def _page(run) -> str:
    return run.get_absolute_url()


@pytest.mark.parametrize("game, spec", GAMES)
def test_a_run_of_every_game_is_404_by_id_for_anyone_but_its_owner_and_missing_looks_the_same(alice, bob, game,
                                                                                                spec):
    run = _sim(alice, spec=spec)
    missing = run.pk + 1000
    for who in (bob, None):
        c = client_for(who)
        for path in (_page(run), f"/api/simulations/{run.pk}/", f"/simulate/runs/{run.pk}/games/0/",
                     f"/play/sandbox/?run={run.pk}&game=0&step=0"):
            got, absent = c.get(path), c.get(path.replace(str(run.pk), str(missing)))
            assert got.status_code == absent.status_code == 404, path
        assert c.get(f"/api/simulations/{run.pk}/").json() != {} and \
            c.get(f"/api/simulations/{run.pk}/").json()["detail"].replace(str(run.pk), "N") == \
            c.get(f"/api/simulations/{missing}/").json()["detail"].replace(str(missing), "N")
        assert c.post(f"/simulate/runs/{run.pk}/retry/").status_code == 404
        assert c.post(f"/simulate/runs/{run.pk}/share/", {"shared": "1"}).status_code == 404
    SimulationRun.objects.filter(pk=run.pk).update(share_token=None)
    assert client_for(alice).get(_page(run)).status_code == 200
    assert client_for(alice).get(f"/api/simulations/{run.pk}/").json()["id"] == run.pk


@pytest.mark.parametrize("game, spec", GAMES)
def test_sharing_gives_a_link_anyone_can_read_and_stopping_kills_it(alice, bob, game, spec):
    run = _sim(alice, spec=spec)
    owner = client_for(alice)
    page = owner.get(_page(run)).content.decode()
    assert 'id="share-toggle"' in page and "Only you can see this run" in page
    # htmx: the control comes back, with the link
    r = owner.post(f"/simulate/runs/{run.pk}/share/", {"shared": "1"}, HTTP_HX_REQUEST="true")
    run.refresh_from_db()
    token = run.share_token
    assert r.status_code == 200 and token and len(token) >= 20 and f"/runs/{token}/" in r.content.decode()
    assert "Stop sharing" in r.content.decode()
    for who in (bob, None):
        c = client_for(who)
        shared = c.get(_page(run).replace(f"/{run.pk}/", f"/{token}/"))
        assert shared.status_code == 200, who
        text = shared.content.decode()
        assert "share-toggle" not in text and f"/runs/{run.pk}/" not in text  # no control; links by the token
        api = c.get(f"/api/simulations/{token}/").json()
        assert api["id"] == run.pk and api["url"].endswith(f"/api/simulations/{token}/")
        # read-only: the link does not let them change the run or its sharing
        assert c.post(f"/simulate/runs/{token}/share/", {"shared": "0"}).status_code == 404
        assert c.post(f"/simulate/runs/{token}/retry/").status_code == 404
        assert c.post(f"/api/simulations/{token}/share/", {"shared": False},
                      content_type="application/json").status_code in (403, 404)
        assert c.get(f"/api/simulations/{run.pk}/").status_code == 404   # still not by id
    run.refresh_from_db()
    assert run.share_token == token
    # no JavaScript: a plain form post, back to the report
    r = owner.post(f"/simulate/runs/{run.pk}/share/", {"shared": "0"})
    assert r.status_code == 302 and r["Location"] == _page(run)
    run.refresh_from_db()
    assert run.share_token is None
    assert client_for(bob).get(f"/api/simulations/{token}/").status_code == 404
    assert Client().get(_page(run).replace(f"/{run.pk}/", f"/{token}/")).status_code == 404
    # sharing again makes a new link; the old one stays dead
    owner.post(f"/simulate/runs/{run.pk}/share/", {"shared": "1"})
    run.refresh_from_db()
    assert run.share_token and run.share_token != token
    assert Client().get(f"/api/simulations/{token}/").status_code == 404


def test_the_api_shares_and_unshares_for_the_owner(alice, bob):
    run = _sim(alice)
    c = client_for(alice)
    got = c.post(f"/api/simulations/{run.pk}/share/", {"shared": True}, content_type="application/json").json()
    assert got["share_url"].endswith(f"/api/simulations/{SimulationRun.objects.get().share_token}/")
    assert client_for(bob).get(got["share_url"]).json()["status"] == "queued"
    assert c.post(f"/api/simulations/{run.pk}/share/", {"shared": "yes"},
                  content_type="application/json").status_code == 400
    assert c.post(f"/api/simulations/{run.pk}/share/", {"shared": False},
                  content_type="application/json").json()["share_url"] is None
    assert client_for(bob).get(got["share_url"]).status_code == 404


def test_a_tuning_run_is_private_until_shared_and_its_link_cannot_cancel(alice, bob):
    run = _tuning(alice)
    for who in (bob, None):
        c = client_for(who)
        assert c.get(f"/tune/runs/{run.pk}/").status_code == 404
        assert c.get(f"/api/tuning/{run.pk}/").status_code == 404
        assert c.post(f"/api/tuning/{run.pk}/cancel/").status_code == 404
        assert c.post(f"/tune/runs/{run.pk}/cancel/").status_code == 404
    owner = client_for(alice)
    assert 'id="share-toggle"' in owner.get(f"/tune/runs/{run.pk}/").content.decode()
    owner.post(f"/tune/runs/{run.pk}/share/", {"shared": "1"})
    run.refresh_from_db()
    token = run.share_token
    c = client_for(bob)
    page = c.get(f"/tune/runs/{token}/")
    assert page.status_code == 200 and b">Cancel<" not in page.content and b"share-toggle" not in page.content
    assert c.get(f"/api/tuning/{token}/").json()["id"] == run.pk
    assert c.post(f"/api/tuning/{token}/cancel/").status_code == 403
    assert c.post(f"/tune/runs/{token}/cancel/").status_code == 404
    run.refresh_from_db()
    assert run.status == "queued"
    owner.post(f"/tune/runs/{run.pk}/share/", {"shared": "0"})
    assert c.get(f"/tune/runs/{token}/").status_code == 404


@pytest.mark.parametrize("game, spec", GAMES[1:])
def test_realms_and_regions_runs_are_not_found_by_counting_ids(game, spec):
    runs = [_sim(None, session_key=f"o:someone-{i}", spec=spec) for i in range(5)]
    c = Client()
    for pk in range(1, max(r.pk for r in runs) + 3):
        assert c.get(f"/{game}/simulate/runs/{pk}/").status_code == 404
        assert c.get(f"/{game}/simulate/runs/{pk}/replay/").status_code == 404
        assert c.get(f"/api/simulations/{pk}/").status_code == 404
    assert c.get(f"/{game}/api/simulations/").json()["count"] == 0


def test_anonymous_web_visitors_are_their_session_not_their_address(settings):
    """Two visitors behind one proxy (the same REMOTE_ADDR): the one who made the run sees it, the other does
    not, and neither finds it by listing."""
    a, b = Client(REMOTE_ADDR="10.0.0.7"), Client(REMOTE_ADDR="10.0.0.7")
    session = a.session
    session["run_owner"] = "visitor-a"
    session.save()
    run = _sim(None, session_key="o:visitor-a")
    tuning = _tuning(None, session_key="o:visitor-a")
    assert a.get(_page(run)).status_code == 200 and a.get(f"/tune/runs/{tuning.pk}/").status_code == 200
    assert [r["id"] for r in a.get("/api/simulations/").json()["results"]] == [run.pk]
    assert [r["id"] for r in a.get("/api/tuning/").json()["results"]] == [tuning.pk]
    assert b.get(_page(run)).status_code == 404 and b.get(f"/tune/runs/{tuning.pk}/").status_code == 404
    assert b.get("/api/simulations/").json()["count"] == 0 and b.get("/api/tuning/").json()["count"] == 0
    assert b.post(f"/api/tuning/{tuning.pk}/cancel/").status_code == 404
    # a run stored under an address (an anonymous API client's, for its limits) is nobody's
    by_address = _tuning(None, session_key="ip:10.0.0.7")
    assert b.get(f"/tune/runs/{by_address.pk}/").status_code == 404
    assert b.post(f"/api/tuning/{by_address.pk}/cancel/").status_code == 404


def test_an_anonymous_api_client_cannot_list_or_cancel_anothers_tuning_run(monkeypatch):
    """Two API clients without sessions behind one address: each run is reachable by the link it was answered
    with (its token), not by id, and neither lists nor cancels the other's."""
    from simulator import tuning_tasks

    monkeypatch.setattr(tuning_tasks.tuning_start, "apply_async", lambda *a, **k: None)
    from pathlib import Path

    camelot = (Path(__file__).resolve().parents[2] / "cards/data/starters/camelot.txt").read_text(encoding="utf-8")
    a = Client(REMOTE_ADDR="10.0.0.9", enforce_csrf_checks=True)
    made = a.post("/api/tuning/", {"kind": "matrix", "decks": [camelot, camelot], "games": 10},
                  content_type="application/json")
    assert made.status_code == 202, made.content
    body = made.json()
    token = TuningRun.objects.get(pk=body["id"]).share_token
    assert token and body["url"].endswith(f"/api/tuning/{token}/")
    b = Client(REMOTE_ADDR="10.0.0.9")
    assert b.get("/api/tuning/").json()["count"] == 0
    assert b.get(f"/api/tuning/{body['id']}/").status_code == 404
    assert b.post(f"/api/tuning/{body['id']}/cancel/").status_code == 404
    assert a.get("/api/tuning/").json()["count"] == 0   # nothing is listed by address, not even one's own
    assert a.get(body["url"]).json()["status"] == "queued"
    assert TuningRun.objects.get().status == "queued"


def test_runs_made_before_logging_in_stay_their_makers(alice, bob):
    c = Client()
    session = c.session
    session["run_owner"] = "before-login"
    session.save()
    run = _sim(None, session_key="o:before-login")
    c.force_login(alice)    # Django keeps the session's data when it rotates the key at log-in
    assert c.get(_page(run)).status_code == 200
    assert [r["id"] for r in c.get("/api/simulations/").json()["results"]] == [run.pk]
    assert client_for(bob).get(_page(run)).status_code == 404
