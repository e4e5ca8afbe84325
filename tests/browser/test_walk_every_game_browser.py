"""Every game's pages walked as a new user does, in Debian's Chromium at 1366 and 390 px: the cards, a card, the
decks, the editor, simulate, a report, a replay and the rulebook of r1, realms and regions, and regions' strategy
editor, round-robin and a round-robin game. Each page answers 200, does not scroll sideways on a phone, and reads
in words: no rule file names ("002_…"), card codes ("fb-110", "core-008"), repository paths ("docs/…") or commands
("manage.py"), in its text or in the boxes it fills in. The replay's step controls stay on screen with the board.
Screenshots: var/screenshots/walk-*.png."""
from __future__ import annotations

import re

import pytest
from django.core.management import call_command

from tests.browser.conftest import SCREENSHOT_DIR, own_runs, shared_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = ({"viewport": {"width": 1366, "height": 900}},
          {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True})
DEVELOPER_SPEAK = re.compile(r"\b00[123]_|\b(?:fb|core|hr|rg|ext)-\d{3}\b|\bdocs/|manage\.py")
# the page's words and what its boxes hold (a starter's list, a strategy's text)
READ = """() => document.body.innerText + " " + Array.from(document.querySelectorAll("textarea, input[type=text]"))
    .map(e => e.value).join(" ")"""


@pytest.fixture
def runs(capsys):
    from cards.games.realms import SET_FILE, STARTERS_DIR
    from cards.games.regions import DATA_FILE
    from simulator import services
    from simulator.engines.regions.sim import shipped_text
    from simulator.games import services as game_services
    from tests.conftest import STARTERS_DIR as R1_STARTERS

    call_command("loadcards", str(SET_FILE), str(DATA_FILE), verbosity=0)
    call_command("publishstarters", verbosity=0)
    capsys.readouterr()
    r1, _ = services.run_request(mode="versus", text=(R1_STARTERS / "camelot.txt").read_text(),
                                 opponent_text=(R1_STARTERS / "winter.txt").read_text(), games=4, seed=1,
                                 dispatch=False)
    realms, _ = game_services.game_run_request(
        "realms", mode="versus", text=(STARTERS_DIR / "ashen.txt").read_text(), deck_name="Cinder Choir",
        opponent_text=(STARTERS_DIR / "deepwood.txt").read_text(), opponent_name="Wardens", games=3, seed=1,
        dispatch=False)
    regions, _ = game_services.game_run_request(
        "regions", mode="versus", text=shipped_text("big-money"), opponent_text=shipped_text("region-control"),
        games=3, seed=1, dispatch=False)
    for run in (r1, realms, regions):
        services.run_execute_here(run)
        run.refresh_from_db()
        assert run.status == "done", run.error
    return {"r1": r1, "realms": realms, "regions": regions}


@pytest.fixture
def eager_round_robin(monkeypatch):
    from simulator import tasks

    monkeypatch.setattr(tasks.regions_round_robin, "apply_async", lambda args, **kw: tasks.regions_round_robin(*args))


def _pages(runs) -> list[str]:
    from cards.models import Card, GameCard

    r1_card = Card.objects.order_by("code").first().code
    realms_card = GameCard.objects.filter(game="realms").order_by("code").first().code
    regions_card = GameCard.objects.filter(game="regions").order_by("code").first().code
    r1, realms, regions = runs["r1"].pk, runs["realms"].pk, runs["regions"].pk
    return [
        "/cards/", f"/cards/{r1_card}/", "/decks/", "/decks/new/?starter=camelot", "/simulate/?starter=camelot",
        f"/simulate/runs/{r1}/", f"/simulate/runs/{r1}/games/0/?step=30", "/rules/",
        "/realms/cards/", f"/realms/cards/{realms_card}/", "/realms/decks/", "/realms/decks/new/?starter=The%20Ashen",
        "/realms/simulate/?starter=The%20Ashen%20Covenant%20%E2%80%94%20the%20Cinder%20Choir",
        f"/realms/simulate/runs/{realms}/", f"/realms/simulate/runs/{realms}/games/0/?step=40", "/realms/rules/",
        "/regions/cards/", f"/regions/cards/{regions_card}/", "/regions/simulate/", f"/regions/simulate/runs/{regions}/",
        f"/regions/simulate/runs/{regions}/games/0/?step=20", "/regions/rules/", "/regions/strategies/",
        "/regions/round-robin/?games=10", "/regions/round-robin/games/0/1/0/?games=10&step=10",
    ]


def _name(url: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", url.strip("/").lower())[:60] or "home"


def test_every_games_pages_at_both_widths(live_server, runs, eager_round_robin):
    import os

    os.makedirs(SCREENSHOT_DIR, exist_ok=True)
    pages = _pages(runs)
    problems = []
    for options in WIDTHS:
        width = options["viewport"]["width"]
        context = shared_browser().new_context(**options)
        own_runs(context, live_server.url, *runs.values())
        page = context.new_page()
        page.set_default_timeout(30_000)
        for url in pages:
            response = page.goto(live_server.url + url)
            page.wait_for_load_state("networkidle")
            if response.status != 200:
                problems.append((width, url, f"status {response.status}"))
                continue
            wide = page.evaluate("document.scrollingElement.scrollWidth")
            if wide > page.evaluate("innerWidth"):
                problems.append((width, url, f"scrolls sideways: {wide} px"))
            said = sorted(set(m.group(0) for m in DEVELOPER_SPEAK.finditer(page.evaluate(READ))))
            if said:
                problems.append((width, url, f"developer-speak: {said}"))
            tall = page.evaluate("document.scrollingElement.scrollHeight") > 12_000
            page.screenshot(path=os.path.join(SCREENSHOT_DIR, f"walk-{_name(url)}-{width}.png"),
                            full_page=not tall, timeout=60_000)
        context.close()
    assert not problems, problems


@pytest.mark.parametrize("game", ["realms", "regions"])
def test_replay_controls_stay_with_the_board_on_a_phone(live_server, runs, game):
    context = shared_browser().new_context(**WIDTHS[1])
    own_runs(context, live_server.url, runs[game])
    page = context.new_page()
    page.goto(live_server.url + f"/{game}/simulate/runs/{runs[game].pk}/games/0/?step=40")
    board = page.locator("#realms-board" if game == "realms" else "#board")
    board.scroll_into_view_if_needed()
    page.mouse.wheel(0, 600)
    page.wait_for_timeout(200)
    nav = page.locator("#replay-nav").bounding_box()
    assert 0 <= nav["y"] and nav["y"] + nav["height"] <= 844, nav   # on screen while the board is read
    assert page.evaluate("document.scrollingElement.scrollTop") > 800
    page.locator("#step-next").click()
    page.wait_for_url(re.compile(r"step=41$"))
    context.close()
