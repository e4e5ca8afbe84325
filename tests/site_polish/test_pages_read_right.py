"""What a visitor reads on the pages: no template comment leaks into a page, card lists do not use the comma that
card names contain, chart legends are whole, the API root lists every endpoint, the favicon is served."""
import re

import pytest

from simulator.access import set_shared
from tests.conftest import ROOT, STARTERS_DIR

ROOT_TEMPLATES = ROOT / "templates"

pytestmark = pytest.mark.django_db


def test_the_deck_editor_shows_no_template_comment(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("editor", password="x-long-password"))
    r = client.get("/decks/new/")
    page = r.content.decode()
    assert r.status_code == 200 and 'id="browser-form"' in page
    assert "{#" not in page and "#}" not in page and "only from the filter buttons" not in page


@pytest.fixture
def hands_run():
    from simulator import services

    # Arthur alone at 4 copies (a draft over the limit, as people paste them): his chart line is named after him
    text = (STARTERS_DIR / "camelot.txt").read_text().replace("2x Arthur Pendragon", "4x Arthur Pendragon")
    run, _ = services.run_request(mode="hands", text=text, games=200, seed=4, dispatch=False)
    services.run_execute_here(run)
    run.refresh_from_db()
    assert run.status == "done", run.error
    set_shared(run, True)   # runs are private to their owner: visited by its shared link
    return run


def test_the_hands_report_separates_cards_by_a_mark_no_card_name_holds(client, hands_run):
    html = client.get(f"/simulate/runs/{hands_run.share_token}/").content.decode()
    best = re.search(r"<h3>Best hands</h3><ol>(.*?)</ol>", html, re.S).group(1)
    hands = re.findall(r"<li>(.*?) → places", best)
    assert hands and all(len(h.split(" · ")) == 7 for h in hands), hands   # 7 cards, each whole
    assert "Arthur Pendragon, The Once and Future King" in html


def test_hand_chart_legends_are_not_cut(client, hands_run):
    html = client.get(f"/simulate/runs/{hands_run.share_token}/").content.decode()
    legends = re.findall(r'class="legend reactive activate-serie">.*?<text[^>]*>([^<]*)</text>', html)
    assert legends and not any(t.endswith("…") for t in legends), legends
    assert any("Arthur Pendragon, The Once and Future King" in t for t in legends), legends


def test_search_chips_follow_the_typed_query(client):
    html = client.get("/cards/", {"q": "f:camelot t:unit c<=2"}).content.decode()
    active = re.findall(r'<a href="[^"]*" class="chip[^"]*active"[^>]*>([^<]*)</a>', html)
    assert "All factions" not in active and "All types" not in active, active
    assert "Camelot" in " ".join(active) and "Units" in active, active
    plain = client.get("/cards/", {"q": "c<=2"}).content.decode()
    active = re.findall(r'<a href="[^"]*" class="chip[^"]*active"[^>]*>([^<]*)</a>', plain)
    assert {"All factions", "All types"} <= set(active), active


def test_the_api_root_lists_every_top_level_endpoint(client):
    body = client.get("/api/", HTTP_ACCEPT="application/json").json()
    for name in ("cards", "decks", "decklists", "collection", "validate", "simulations", "tuning", "docs"):
        assert name in body, body
    for name, url in body.items():
        assert url.startswith("http://testserver/api/"), (name, url)
    assert client.get(body["validate"]).status_code == 405   # POST only: it exists


def test_the_favicon_is_served(client):
    r = client.get("/favicon.ico")
    assert r.status_code == 301
    icon = client.get(r["Location"])
    assert icon.status_code == 200 and b"<svg" in b"".join(icon.streaming_content if icon.streaming else [icon.content])


@pytest.fixture
def realms_cards(capsys):
    from django.core.management import call_command

    from cards.games.realms import SET_FILE

    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()


def test_the_realms_editor_reads_naturally_and_has_minus_buttons(client, realms_cards):
    html = client.get("/realms/decks/new/", {"starter": "The Sunward Throne"}).content.decode()
    h1 = re.search(r"<h1>(.*?)</h1>", html).group(1)
    assert h1.startswith("New deck — ") and "New The" not in h1, h1
    assert html.count('name="remove"') >= 5 and "Remove one " in html   # a − for every card in the list


def test_the_readme_says_how_to_change_the_port_and_that_the_first_run_compiles():
    from tests.conftest import ROOT

    readme = (ROOT / "README.md").read_text()
    assert "PORT=8080 make run" in readme and "five minutes" in readme
    assert "${PORT:-8000}" in (ROOT / "scripts" / "run.sh").read_text()   # the variable the README names


def test_one_way_of_writing_a_rate():
    from simulator.templatetags.simulator_tags import ci_pct, points, points_ci, rate_ci

    assert rate_ci(0.95, (0.938, 0.964)) == "95.0% (93.8–96.4%)"
    assert ci_pct([0.5, 0.625]) == "50.0–62.5%"
    assert points(0.032) == "+3.2 points" and points_ci((-0.01, 0.074)) == "−1.0 to +7.4 points"


@pytest.mark.parametrize("game", ["realms", "regions"])
def test_the_hosted_games_reports_write_the_interval_in_percentages(client, realms_cards, game):
    from cards.games.realms import STARTERS_DIR as REALMS_STARTERS
    from simulator import services
    from simulator.engines.regions import STRATEGY_DIR
    from simulator.games.services import game_run_request

    if game == "realms":
        a, b = (REALMS_STARTERS / "sunward.txt").read_text(), (REALMS_STARTERS / "deepwood.txt").read_text()
    else:
        a, b = (STRATEGY_DIR / "big-money.txt").read_text(), (STRATEGY_DIR / "wide-board.txt").read_text()
    run, _ = game_run_request(game, mode="versus", text=a, opponent_text=b, games=6, seed=2, dispatch=False)
    services.run_execute_here(run)
    set_shared(run, True)
    html = client.get(f"/{game}/simulate/runs/{run.share_token}/").content.decode()
    assert re.search(r"won <strong>\d+\.\d%</strong> .*95% interval \d+\.\d–\d+\.\d%\)", html), html
    assert not re.search(r"\b0\.\d{2,3}–[01]\.\d{2,3}", html)


def test_the_regions_menu_links_strategies_and_round_robin(client):
    html = client.get("/regions/").content.decode()
    assert 'href="/regions/strategies/">Strategies</a>' in html and 'href="/regions/round-robin/">Round-robin</a>' in html
    assert "/regions/strategies/" not in client.get("/realms/").content.decode()


def test_the_round_robin_names_heroes_not_codes(client, monkeypatch):
    from simulator import tasks

    monkeypatch.setattr(tasks.regions_round_robin, "apply_async", lambda args, **kw: tasks.regions_round_robin(*args))
    html = client.get("/regions/round-robin/?games=10&seed=3").content.decode()
    heroes = re.findall(r'<th scope="row">[^<]*<span class="muted">\(([^)]*)\)</span>', html)
    assert len(heroes) == 5 and not any(re.fullmatch(r"hr-\d+", h) for h in heroes), heroes
    assert re.search(r"\d+\.\d% <span class=\"muted\">\(\d+\.\d–\d+\.\d%\)</span>", html)   # a rate, in percentages


@pytest.mark.parametrize("url", ["/", "/realms/", "/regions/", "/regions/strategies/", "/realms/cards/"])
def test_no_developer_speak(client, realms_cards, url):
    html = client.get(url).content.decode()
    for phrase in (r"\b00[0-3]_", r"cards? loaded", r"\(rules ", r"docs/[\w/]+\.md", r"in the repository"):
        assert not re.search(phrase, html), (url, phrase)


def test_tuning_pages_say_no_repository_path_nor_their_kind_twice():
    from django.template.loader import render_to_string

    from simulator.models import TuningRun

    body = (ROOT_TEMPLATES / "simulator" / "tuning_body.html").read_text()
    assert "docs/tuning.md" not in body and "in the repository" not in body
    run = TuningRun(pk=7, kind="tune", title="Card swaps for Camelot (versus)", status="done", games=10)
    h1 = re.search(r"<h1>(.*?)</h1>", render_to_string("simulator/tuning_run.html", {"run": run, "result": None}))
    assert h1 and h1.group(1).count("Card swaps") == 1, h1 and h1.group(1)


def test_the_tune_tables_scroll_in_their_own_box_with_a_hint():
    """On a phone the comparison table and the meta matrix scroll inside a box that says so (static/css: the
    hint shows below 900 px); the page itself never scrolls sideways (tests/simulator/test_tuning_browser.py)."""
    from django.template.loader import render_to_string

    from simulator.models import TuningRun

    run = TuningRun(pk=3, kind="compare", title="A against B", status="done", games=10)
    row = {"opponent": "Winter", "games": 10, "a_win_rate": 0.6, "b_win_rate": 0.5, "delta": 0.1, "ci95": [-0.1, 0.3]}
    result = {"kind": "compare", "a": {"name": "A"}, "b": {"name": "B"}, "opponents": [row],
              "overall": {**row, "opponent": "all"}}
    html = render_to_string("simulator/tuning_compare.html", {"run": run, "result": result})
    assert re.search(r'class="scroll-hint"[^>]*>[^<]*sideways[^<]*</p>\s*<div class="table-scroll[^"]*"[^>]*>'
                     r'<table class="sim-table"><caption>Win rate', html), html
    assert "+10.0 points" in html and "−10.0 to +30.0 points" in html and "60.0%" in html
    matrix = (ROOT_TEMPLATES / "simulator" / "tuning_matrix.html").read_text()
    assert re.search(r'class="scroll-hint"[^>]*>[^<]*sideways[^<]*</p>\s*<div class="table-scroll[^"]*"[^>]*>'
                     r'<table class="sim-table tune-matrix">', matrix)


def test_the_realms_hands_report_writes_chances_as_percentages(client, realms_cards):
    from cards.games.realms import STARTERS_DIR as REALMS_STARTERS

    r = client.post("/realms/hands/", {"text": (REALMS_STARTERS / "sunward.txt").read_text()})
    html = r.content.decode()
    table = re.search(r'<table class="card-table hands-table">.*?</table>', html, re.S)
    assert r.status_code == 200 and table, html[:2000]
    cells = re.findall(r"<td(?: class=\"wide\")?>([^<]*)</td>", table.group(0))
    chances = [c for c in cells if re.fullmatch(r"[\d.]+%?|—", c) and not c.isdigit()]
    assert chances and all(c.endswith("%") or c == "—" for c in chances), chances[:10]
    assert re.search(r"taken in \d+\.\d% of hands", html)


@pytest.mark.parametrize("target, delta, interval", [("gauntlet", "+4.0 points", "−1.0 to +9.0 points"),
                                                     ("goldfish", "0.04 rounds", "-0.01 to 0.09")])
def test_card_swaps_write_a_win_rate_difference_in_points(target, delta, interval):
    from django.template.loader import render_to_string

    swap = {"label": "−1 Squire, +1 Gawain", "delta": 0.04, "ci95": [-0.01, 0.09], "games": 80, "finalist": True,
            "out": [{"copies": 1, "name": "Squire"}], "in": [{"copies": 1, "name": "Gawain"}], "why": ""}
    result = {"kind": "tune", "target": target, "candidates": 4, "rounds": [], "best": swap, "dead_weight": [],
              "delta_means": ""}
    html = render_to_string("simulator/tuning_tune.html", {"result": result, "top_swaps": [swap]})
    assert f"<td>{delta}</td><td>{interval}</td>" in html, html
