"""The realms board in the replay viewer and the strong player on the realms pages:
/realms/simulate/runs/ID/games/N/?step=S draws the board of a realms run's game (r1's address sends it there); a
game or step the run does not have is a 404; the page's fast/strong choice and the API accept the search player."""
import re

import pytest

from tests.simulator.conftest import own
from django.core.management import call_command
from django.test import Client

from cards.games.realms import SET_FILE, STARTERS_DIR
from simulator import services
from simulator.games import services as game_services
from simulator.models import SimulationRun

pytestmark = pytest.mark.django_db
ASHEN = (STARTERS_DIR / "ashen.txt").read_text()
SUNWARD = (STARTERS_DIR / "sunward.txt").read_text()


@pytest.fixture
def realms(capsys):
    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()


def test_board_replay_of_a_versus_run(realms):
    run, _ = game_services.game_run_request("realms", mode="versus", text=ASHEN, opponent_text=SUNWARD, games=2,
                                            seed=1, dispatch=False)
    services.run_execute_here(run)
    c = Client()
    own(c, run)
    moved = c.get(f"/simulate/runs/{run.pk}/games/1/?step=40")   # r1's replay address sends it to realms'
    assert moved.status_code == 302 and moved["Location"] == f"/realms/simulate/runs/{run.pk}/games/1/?step=40"
    page = c.get(moved["Location"])
    html = page.content.decode()
    assert page.status_code == 200 and "step 41 /" in html
    assert html.count('class="rb-side') == 2 and "Settlement" in html and "Strike Force" in html
    assert 'data-key="ArrowRight"' in html and f"/realms/simulate/runs/{run.pk}/games/1/?step=41" in html
    assert "rb-marker" in html
    total = int(re.search(r"step 41 / (\d+)", html).group(1))
    last = c.get(f"/realms/simulate/runs/{run.pk}/games/1/?step={total - 1}").content.decode()
    assert "game over" in last
    assert c.get(f"/realms/simulate/runs/{run.pk}/games/1/?step={total}").status_code == 404
    assert c.get(f"/realms/simulate/runs/{run.pk}/games/7/").status_code == 404     # the run played 2 games
    report = c.get(run.get_absolute_url()).content.decode()
    assert f"/realms/simulate/runs/{run.pk}/games/0/" in report
    from simulator.access import set_shared
    assert Client().get(f"/realms/simulate/runs/{run.pk}/games/1/?step=40").status_code == 404
    set_shared(run, True)
    shared = Client().get(f"/realms/simulate/runs/{run.share_token}/games/1/?step=40").content.decode()
    assert "step 41 /" in shared and f"/runs/{run.pk}/" not in shared


def test_goldfish_board_replay(realms):
    run, _ = game_services.game_run_request("realms", mode="goldfish", text=SUNWARD, games=3, seed=4, dispatch=False)
    services.run_execute_here(run)
    c = Client()
    own(c, run)
    html = c.get(f"/realms/simulate/runs/{run.pk}/games/2/").content.decode()
    assert "the goldfish" in html and "never acts" in html


def test_strong_player_on_the_page_and_the_api(realms, monkeypatch):
    from simulator import tasks
    monkeypatch.setattr(tasks.start_run, "apply_async", lambda *a, **k: None)
    c = Client()
    page = c.get("/realms/simulate/").content.decode()
    assert 'name="player" value="strong"' in page and 'name="policy"' not in page
    r = c.post("/realms/simulate/", {"mode": "versus", "text": ASHEN, "opponent": SUNWARD, "games": "4", "seed": "1",
                                     "player": "strong"})
    assert r.status_code == 302
    run = SimulationRun.objects.get()
    assert run.settings["policy"] == "expert" and run.settings["opponent_policy"] == "expert"
    assert run.chunks_total == 4    # the search player: a game per chunk
    bad = c.post("/realms/api/simulations/", {"mode": "goldfish", "text": SUNWARD, "policy": "expert:lots"},
                 content_type="application/json")
    assert bad.status_code == 400 and "expert:lots" in bad.json()["detail"]
    SimulationRun.objects.all().delete()   # one run in flight at a time for a visitor
    ok = c.post("/realms/api/simulations/", {"mode": "goldfish", "text": SUNWARD, "policy": "expert:8", "games": 2},
                content_type="application/json")
    assert ok.status_code == 202, ok.content
