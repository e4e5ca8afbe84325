"""A run id of one game in another game's run, replay or sandbox address is a clean 404 (a regions run in r1's
replayer was a 500, KeyError 'data_hash'); the regions strategy editor's "Against" pick is the opponent played."""
import pytest
from django.core.management import call_command

from cards.games.realms import SET_FILE, STARTERS_DIR
from simulator import services
from simulator.engines.regions import STRATEGY_DIR
from simulator.games.services import game_run_request
from simulator.models import SimulationRun

pytestmark = pytest.mark.django_db


def _done(run):
    from simulator.access import set_shared

    services.run_execute_here(run)
    run.refresh_from_db()
    assert run.status == "done", run.error
    set_shared(run, True)   # runs are private to their owner: the tests visit them by their shared link
    return run


@pytest.fixture
def runs(sim_db, camelot_text, winter_text, capsys):
    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()
    r1, _ = services.run_request(mode="versus", text=camelot_text, opponent_text=winter_text, games=2, seed=5,
                                 dispatch=False)
    sunward = (STARTERS_DIR / "sunward.txt").read_text()
    deepwood = (STARTERS_DIR / "deepwood.txt").read_text()
    realms, _ = game_run_request("realms", mode="versus", text=sunward, opponent_text=deepwood, games=2, seed=5,
                                 dispatch=False)
    regions, _ = game_run_request("regions", mode="versus", text=(STRATEGY_DIR / "big-money.txt").read_text(),
                                  opponent_text=(STRATEGY_DIR / "wide-board.txt").read_text(), games=2, seed=5,
                                  dispatch=False)
    return {"r1": _done(r1), "realms": _done(realms), "regions": _done(regions)}


def _own_urls(game: str, pk: str) -> list[str]:
    if game == "r1":
        return [f"/simulate/runs/{pk}/games/0/", f"/simulate/runs/{pk}/games/0/?step=3",
                f"/play/sandbox/?run={pk}&game=0&step=3"]
    return [f"/{game}/simulate/runs/{pk}/", f"/{game}/simulate/runs/{pk}/games/0/",
            f"/{game}/simulate/runs/{pk}/games/0/?step=1", f"/{game}/simulate/runs/{pk}/replay/?step=1"]


def test_each_games_run_urls_open_for_its_own_runs(client, runs):
    for game, run in runs.items():
        for url in _own_urls(game, run.share_token):
            assert client.get(url, follow=True).status_code == 200, url


@pytest.mark.parametrize("game", ["r1", "realms", "regions"])
@pytest.mark.parametrize("other", ["r1", "realms", "regions"])
def test_another_games_run_id_is_a_404(client, runs, game, other):
    if game == other:
        return
    for url in _own_urls(game, runs[other].share_token):
        r = client.get(url)
        if game == "r1" and "/games/0/" in url:   # r1's replay address sends another game's run to its own
            token = runs[other].share_token
            assert r.status_code == 302 and r["Location"].startswith(f"/{other}/simulate/runs/{token}/games/0/")
            continue
        assert r.status_code == 404, (url, r.status_code)


def test_r1s_report_address_sends_another_games_run_to_its_own_report(client, runs):
    for game in ("realms", "regions"):
        r = client.get(f"/simulate/runs/{runs[game].share_token}/")
        assert r.status_code == 302 and r["Location"] == f"/{game}/simulate/runs/{runs[game].share_token}/"


def test_the_strategy_editor_runs_against_the_strategy_picked(client, monkeypatch):
    from simulator import tasks

    monkeypatch.setattr(tasks.start_run, "apply_async",
                        lambda args, **kw: services.run_execute_here(SimulationRun.objects.get(pk=args[0])))
    page = client.get("/regions/strategies/").content.decode()
    assert 'name="opponent_pick"' in page and "<option>wide-board</option>" in page
    r = client.post("/regions/simulate/?from=editor", {"mode": "versus", "opponent_pick": "wide-board",
                                                       "text": (STRATEGY_DIR / "big-money.txt").read_text(),
                                                       "games": "4"})
    assert r.status_code == 302, r.content
    run = SimulationRun.objects.get()
    assert run.spec["opponent"]["name"] == "Wide Board", run.spec["opponent"].get("name")
