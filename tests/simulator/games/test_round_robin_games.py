"""The regions round-robin as a new user met it: a cell did not link to its games, and there was no way to put
one's own strategy in it. Each cell now opens the pair's games (played again from the pair's seed, the same games
the cell counts), and a pasted strategy joins the matrix."""
import re

import pytest
from django.core.cache import cache
from django.test import Client

from simulator.engines.regions.replay import replay_game
from simulator.engines.regions.sim import shipped_text
from simulator.games import round_robin as rr_mod

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def eager(monkeypatch):
    from simulator import tasks

    cache.clear()
    # the workers compute it (simulator/games/round_robin.py); here at once, as a queue that runs tasks eagerly
    monkeypatch.setattr(tasks.regions_round_robin, "apply_async", lambda args, **kw: tasks.regions_round_robin(*args))


def test_each_cell_opens_the_games_it_counts():
    c = Client()
    page = c.get("/regions/round-robin/?games=10&seed=3").content.decode()
    links = re.findall(r'<td><a href="(/regions/round-robin/games/(\d+)/(\d+)/0/\?games=10&amp;seed=3)"', page)
    assert len(links) == 5 * 4          # every cell but the diagonal
    assert "<th scope=\"col\">Big Money</th>" in page    # the strategies' own names, not file names
    rr = c.get("/regions/api/round-robin/?games=10&seed=3").json()
    strategies = rr_mod.strategies()
    for i, j in ((0, 1), (3, 2)):
        spec, names = rr_mod.pair_spec(strategies, i, j, 10, 3)
        winners = [replay_game(spec, k)["winner"] for k in range(10)]
        a, b = min(i, j), max(i, j)
        assert winners.count(0) == rr["matrix"][a][b]["wins"]    # the very games the cell counts
        url = f"/regions/round-robin/games/{i}/{j}/0/?games=10&seed=3"
        assert f'href="{url.replace("&", "&amp;")}"' in page
        game = c.get(url + "&step=4")
        html = game.content.decode()
        assert game.status_code == 200 and f"Replay: {names[0]} vs {names[1]}" in html and "step 5 /" in html
        assert 'href="/regions/round-robin/?games=10&amp;seed=3">← The round-robin' in html
        assert f'/regions/round-robin/games/{i}/{j}/1/?games=10&amp;seed=3">game 2<' in html
    for url, status in (("/regions/round-robin/games/1/1/0/", 404), ("/regions/round-robin/games/0/9/0/", 404),
                        ("/regions/round-robin/games/0/1/6/", 404), ("/regions/round-robin/games/0/1/0/?step=x", 400),
                        ("/regions/round-robin/games/0/1/0/?step=9999", 404),
                        ("/regions/round-robin/games/0/1/0/?mine=deadbeef", 404),
                        ("/realms/round-robin/games/0/1/0/", 404)):
        assert c.get(url).status_code == status, url


def test_a_visitor_adds_their_own_strategy():
    c = Client()
    mine = shipped_text("big-money").replace("name: Big Money", "name: Money Twice")
    r = c.post("/regions/round-robin/", {"text": mine, "games": "10", "seed": "3"})
    assert r.status_code == 302 and re.search(r"\?games=10&seed=3&mine=\w{20}$", r["Location"])
    page = c.get(r["Location"]).content.decode()
    assert page.count('<th scope="row">') == 6 and "Money Twice (yours)" in page
    rows = re.findall(r'<th scope="row">(.*?)</tr>', page, re.S)
    assert len(re.findall(r"<td><a href=", rows[-1])) == 5     # the visitor's row: a cell against each shipped one
    h = r["Location"].rsplit("=", 1)[1]
    game = c.get(f"/regions/round-robin/games/5/0/0/?games=10&seed=3&mine={h}")
    assert game.status_code == 200 and "Replay: Big Money vs Money Twice (yours)" in game.content.decode()
    # the shipped pairs play the same games with the visitor's strategy in the matrix as without it
    plain = c.get("/regions/api/round-robin/?games=10&seed=3").json()
    with_mine = rr_mod.get_or_start(None, 10, 3, mine)
    assert [row[:5] for row in with_mine["matrix"][:5]] == [row[:5] for row in plain["matrix"]]
    # a strategy that does not read: a 400 with its problems by line and column, nothing kept
    bad = c.post("/regions/round-robin/", {"text": "hero: Nobody\nbuy:\n  Silverr", "games": "10", "seed": "3"})
    assert bad.status_code == 400 and re.search(r"line 1, column \d+</a>: unknown Hero", bad.content.decode())
    assert c.post("/regions/round-robin/", {"text": "", "games": "10"}).status_code == 400


def test_the_strategy_editor_sends_a_strategy_to_the_round_robin():
    page = Client().get("/regions/strategies/").content.decode()
    assert 'formaction="/regions/round-robin/"' in page
