"""/api/simulations/ (CONTRACTS §4) and the /simulate/ pages."""
import json

import pytest

from simulator.models import RunStatus, SimulationRun

from .test_runs import broker_down, inline_queue  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def post(client, body):
    return client.post("/api/simulations/", data=json.dumps(body), content_type="application/json")


def test_api_post_202_then_get_status_progress_and_result(client, sim_db, camelot_text, inline_queue,
                                                          django_user_model):
    client.force_login(django_user_model.objects.create_user("owner"))   # CONTRACTS §4, as its owner sees it
    response = post(client, {"mode": "hands", "text": camelot_text, "games": 400, "seed": 3})
    assert response.status_code == 202
    body = response.json()
    assert body["id"] and body["url"].endswith(f"/api/simulations/{body['id']}/")
    got = client.get(f"/api/simulations/{body['id']}/").json()
    assert got["status"] == "done" and got["progress"] == 1.0
    result = got["result"]
    assert result["mode"] == "hands" and result["setup"]["samples"] == 400
    assert {"name", "copies", "p_opening"} <= set(result["cards"][0])
    assert {"policy", "rate"} <= set(result["mulligan"]) and "elapsed_s" in result
    again = post(client, {"mode": "hands", "text": camelot_text, "games": 400, "seed": 3}).json()
    assert again["id"] == body["id"] and again["cached"] is True
    listing = client.get("/api/simulations/").json()
    assert [r["id"] for r in listing["results"]] == [body["id"]]


def test_api_unfinished_run_has_no_result(client, sim_db, camelot_text, monkeypatch):
    from simulator import tasks

    monkeypatch.setattr(tasks.start_run, "apply_async", lambda args, **kw: None)
    body = post(client, {"mode": "hands", "text": camelot_text, "games": 100}).json()
    got = client.get(body["url"]).json()   # an anonymous client's way back: the run's shared link
    assert got["status"] == "queued" and got["progress"] == 0 and got["result"] is None


@pytest.mark.parametrize("body, message", [
    ({"mode": "hands"}, "text"),
    ({"mode": "chess", "text": "1x A"}, "mode"),
    ({"mode": "hands", "text": "3x Nobody"}, "unknown card 'Nobody'"),
    ({"mode": "hands", "text": "1x Court of Camelot\n3x Squire\n"}, "no quests"),
    ({"mode": "hands", "text": "X", "games": 0}, "games"),
    ({"mode": "goldfish", "text": "X", "games": 10**9}, "Limit: at most 10,000 games per run"),
    ({"mode": "hands", "text": "X", "settings": "mull"}, "settings"),
])
def test_api_bad_requests_are_400_with_detail(client, sim_db, body, message):
    if body.get("text") == "X":
        from .cards import CAMELOT_LIST

        body = {**body, "text": CAMELOT_LIST.read_text()}
    response = post(client, body)
    assert response.status_code == 400, response.content
    assert message in response.json()["detail"]
    assert SimulationRun.objects.count() == 0


def test_api_bad_json_is_400(client, sim_db):
    response = client.post("/api/simulations/", data="{not json", content_type="application/json")
    assert response.status_code == 400 and "detail" in response.json()
    response = client.post("/api/simulations/", data="[1, 2]", content_type="application/json")
    assert response.status_code == 400


def test_api_broker_down_is_503_and_the_run_is_kept(client, sim_db, camelot_text, broker_down):
    response = post(client, {"mode": "hands", "text": camelot_text, "games": 100})
    assert response.status_code == 503
    body = response.json()
    assert "unavailable" in body["detail"] and body["id"]
    assert SimulationRun.objects.get(pk=body["id"]).status == RunStatus.PENDING


def test_api_unknown_run_is_404(client, db):
    assert client.get("/api/simulations/999999/").status_code == 404


def test_simulate_page_posts_and_redirects_to_the_run(client, sim_db, camelot_text, inline_queue):
    page = client.get("/simulate/")
    assert page.status_code == 200 and b'name="text"' in page.content
    response = client.post("/simulate/", {"mode": "hands", "text": camelot_text, "games": "500", "seed": "2",
                                          "mulligan_kind": "min_units", "mulligan_value": "3",
                                          "query": "t:unit c<=2", "query_k": "2"})
    assert response.status_code == 302
    run = SimulationRun.objects.get()
    assert response["Location"] == f"/simulate/runs/{run.pk}/"
    report = client.get(response["Location"])
    html = report.content.decode()
    assert report.status_code == 200
    assert "<svg" in html and "Exact probabilities" in html and "t:unit c&lt;=2" in html
    assert "mulligan if the best setup places fewer than 3 units" in html
    assert "500 sampled opening hands" in html  # the plain statement of sample size


def test_run_page_shows_progress_and_htmx_gets_the_fragment(client, sim_db, camelot_text, monkeypatch):
    from simulator import tasks

    monkeypatch.setattr(tasks.start_run, "apply_async", lambda args, **kw: None)
    client.post("/simulate/", {"mode": "hands", "text": camelot_text, "games": "100"})
    run = SimulationRun.objects.get()
    SimulationRun.objects.filter(pk=run.pk).update(progress=0.4, status=RunStatus.RUNNING)
    page = client.get(f"/simulate/runs/{run.pk}/").content.decode()
    assert '<progress class="sim-progress" max="1" value="0.400"' in page and 'hx-trigger="every 1s"' in page
    fragment = client.get(f"/simulate/runs/{run.pk}/", HTTP_HX_REQUEST="true")
    assert fragment.content.decode().startswith('<div id="run-body"') and "<html" not in fragment.content.decode()
    assert "HX-Request" in fragment["Vary"]


def test_goldfish_and_versus_pages(client, sim_db, camelot_text, winter_text, inline_queue, fake_engine):
    client.post("/simulate/", {"mode": "goldfish", "text": camelot_text, "games": "300"})
    run = SimulationRun.objects.get(mode="goldfish")
    html = client.get(run.get_absolute_url()).content.decode()
    assert "Round of reaching 15 Influence" in html and "Ambush" in html and "Based on 300 games" in html
    client.post("/simulate/", {"mode": "versus", "text": camelot_text, "opponent": winter_text, "games": "200"})
    run = SimulationRun.objects.get(mode="versus")
    html = client.get(run.get_absolute_url()).content.decode()
    assert "Wilson interval" in html and "Sample game log" in html


def test_simulate_page_bad_input_is_400_and_keeps_the_text(client, sim_db):
    response = client.post("/simulate/", {"mode": "hands", "text": "3x Nobody at all"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "unknown card" in html and "3x Nobody at all" in html


def _saved_deck(owner, text, private=True):
    from decks.decklist import parse_decklist
    from decks.pool import CardPool
    from decks.services import deck_create

    pool = CardPool.from_db()
    return deck_create(owner=owner, name="My Camelot", counts=parse_decklist(text, pool).counts, is_private=private,
                       pool=pool).deck


def test_simulating_a_saved_deck_records_its_version(client, sim_db, camelot_text, inline_queue, django_user_model):
    owner = django_user_model.objects.create_user("owner", password="pw")
    other = django_user_model.objects.create_user("other", password="pw")
    deck = _saved_deck(owner, camelot_text)
    client.force_login(owner)
    response = post(client, {"mode": "hands", "deck": deck.pk, "games": 200})
    assert response.status_code == 202, response.content
    run = SimulationRun.objects.get(pk=response.json()["id"])
    assert run.deck_version == deck.versions.get(number=1) and run.status == RunStatus.DONE
    page = client.get(f"/simulate/?deck={deck.pk}")
    assert "Court of Camelot" in page.content.decode()
    client.force_login(other)  # a private deck does not exist for anyone else
    assert post(client, {"mode": "hands", "deck": deck.pk}).status_code == 400
    assert client.get(f"/simulate/?deck={deck.pk}").status_code == 404


def test_openapi_schema_describes_the_simulations_api(client):
    body = client.get("/api/schema/").content.decode()
    assert "/api/simulations/:" in body and "/api/simulations/{id}/:" in body and "'503':" in body


def test_a_run_saved_while_the_queue_was_down_can_be_retried_from_its_page(client, sim_db, camelot_text,
                                                                            broker_down, monkeypatch):
    response = client.post("/simulate/", {"mode": "hands", "text": camelot_text, "games": "100"})
    assert response.status_code == 503 and "nothing is lost" in response.content.decode()
    run = SimulationRun.objects.get()
    page = client.get(run.get_absolute_url()).content.decode()
    assert "Try the queue again" in page
    assert client.post(f"/simulate/runs/{run.pk}/retry/").status_code == 503  # still down
    from simulator import services, tasks

    monkeypatch.setattr(tasks.start_run, "apply_async",
                        lambda args, **kw: services.run_execute_here(SimulationRun.objects.get(pk=args[0])))
    assert client.post(f"/simulate/runs/{run.pk}/retry/").status_code == 302
    run.refresh_from_db()
    assert run.status == RunStatus.DONE


def test_charts_carry_no_inline_style_or_script_and_their_css_is_served(client, sim_db, camelot_text,
                                                                        inline_queue):
    client.post("/simulate/", {"mode": "hands", "text": camelot_text, "games": "300"})
    url = SimulationRun.objects.get().get_absolute_url()
    html = client.get(url).content.decode()
    body = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert body.count("<svg") >= 3 and "<style" not in body and "<script" not in body
    assert 'href="/simulate/charts.css"' in html
    css = client.get("/simulate/charts.css")
    assert css.status_code == 200 and css["Content-Type"].startswith("text/css")
    assert ".sim-chart svg .axis text" in css.content.decode() and ".plot > .background" in css.content.decode()
