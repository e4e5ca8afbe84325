"""The regions replay page on a board of five Regions: /regions/simulate/runs/ID/games/K/?step=N (the old /replay/?game=K address redirects there)
draws the Market and the five Regions with both Stacks, the Heroes' counts, the Recognition track and the phase;
steps and turns link with their keys, every step has its address, a bad step falls back to the first, a game out
of range is a 404; the report links its sample games; the search player is a policy of the form and the API."""
import json
import re

import pytest

from tests.simulator.conftest import own
from django.test import Client

from simulator import services
from simulator.games import services as game_services
from simulator.engines.regions.sim import shipped_text
from simulator.models import SimulationRun

pytestmark = pytest.mark.django_db


@pytest.fixture
def inline_queue(monkeypatch):
    from simulator import tasks

    monkeypatch.setattr(tasks.start_run, "apply_async",
                        lambda args, **kw: services.run_execute_here(SimulationRun.objects.get(pk=args[0])))


def _run(policy=None, games=8):
    run, _ = game_services.game_run_request("regions", mode="versus", text=shipped_text("big-money"),
                                            opponent_text=shipped_text("region-control"), games=games, seed=2,
                                            policy=policy, dispatch=False)
    services.run_execute_here(run)
    run.refresh_from_db()
    assert run.status == "done", run.error
    return run


def test_replay_draws_the_board_at_each_step():
    run = _run()
    c = Client()
    own(c, run)
    url = run.get_absolute_url() + "games/0/"
    old = c.get(run.get_absolute_url() + "replay/?game=3&step=2")   # the address the reports used to link
    assert old.status_code == 302 and old["Location"] == run.get_absolute_url() + "games/3/?step=2"
    first = c.get(url).content.decode()
    assert "step 1 / " in first and 'Setup (<a class="rule-ref" href="/regions/rules/#s2"' in first
    for name in ("Gig Harbour", "Atos", "Mangan", "Ios", "Pinehurst", "Market Deck", "Standing piles", "Recognition"):
        assert name in first, name
    assert len(re.findall(r'<div class="rr-region(?: held-p\d)?"', first)) == 5 and first.count('class="rr-pile"') == 10
    total = int(re.search(r"step 1 / (\d+)", first).group(1))
    mid = c.get(url + "?step=8").content.decode()
    assert "step 9 / " in mid and 'data-key="ArrowLeft"' in mid and 'data-key="ArrowRight"' in mid
    assert 'href="' + url + '?step=7"' in mid and 'href="' + url + '?step=9"' in mid
    assert 'id="step-decision"' in mid and "<code>" not in mid and 'class="rr-tile' in mid
    assert 'aria-current="step"' in mid
    last = c.get(url + f"?step={total - 1}").content.decode()
    assert "Game over" in last and 'data-key="ArrowRight"' not in last
    assert c.get(url + "?step=banana").status_code == 400
    assert c.get(url + "?step=99999").status_code == 404
    other = c.get(run.get_absolute_url() + "games/3/?step=2").content.decode()
    game3 = run.get_absolute_url() + "games/3/"
    assert "(game 4, seed" in other and f'href="{game3}?step=3"' in other
    assert c.get(run.get_absolute_url() + "games/6/").status_code == 404
    report = c.get(run.get_absolute_url()).content.decode()
    assert "Sample games" in report and f'href="{run.get_absolute_url()}games/2/">game 3<' in report
    # shared: someone else opens the same steps by the token, every link on the page by the token too
    from simulator.access import set_shared
    assert Client().get(url + "?step=8").status_code == 404
    set_shared(run, True)
    shared = Client().get(f"/regions/simulate/runs/{run.share_token}/games/0/?step=8").content.decode()
    assert "step 9 / " in shared and f"/runs/{run.pk}/" not in shared and f"/runs/{run.share_token}/" in shared


def test_search_player_through_the_form_and_the_api(inline_queue):
    c = Client()
    page = c.get("/regions/simulate/").content.decode()
    assert 'name="player" value="strong"' in page and "Strong" in page   # the search player
    r = c.post("/regions/api/simulations/", json.dumps({"mode": "versus", "strategy": "big-money",
                                                       "opponent_strategy": "region-control", "games": 2,
                                                       "seed": 1, "policy": "search:3"}),
               content_type="application/json")
    assert r.status_code == 202, r.content
    result = c.get(r.json()["url"]).json()["result"]
    assert result["policies"] == ["search:3:Big Money", "strategy:Region Control"]
    bad = c.post("/regions/api/simulations/", json.dumps({"mode": "versus", "strategy": "big-money",
                                                         "opponent_strategy": "region-control",
                                                         "policy": "search:zero"}), content_type="application/json")
    assert bad.status_code == 400 and "whole number" in bad.json()["detail"]
    assert c.get(r.json()["page_url"] + "games/0/?step=3").status_code == 200   # by the shared link


def test_search_runs_get_small_chunks_and_a_longer_allowance():
    from simulator.games import regions
    from simulator.tasks import chunk_time_limits

    spec = game_services.build_game_spec("regions", mode="versus", text=shipped_text("big-money"),
                                         opponent_text=shipped_text("big-money"), games=10, policy="search:48")
    assert len(regions.chunk_plan("versus", 10, spec["settings"])) == 5
    slow = chunk_time_limits("versus", 2, spec["settings"], per_game=regions.chunk_allowance(spec["settings"]))
    fast = chunk_time_limits("versus", 2, {}, per_game=regions.chunk_allowance({"max_turns": 60}))
    assert slow[0] > 40 > fast[0]
