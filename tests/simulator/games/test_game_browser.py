"""The realms report and the regions strategy editor in Debian's Chromium at 1366 and 390 px: the
report's charts and tables fit the page, the editor shows a parse error with line and column as one types and
clears it when fixed. Screenshots in var/screenshots/."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from tests.browser.conftest import browser, page, shot  # noqa: F401  (shared Playwright fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path(__file__).resolve().parents[3] / "var" / "screenshots"


def _wide_and_phone(browser):  # noqa: F811
    for width in (1366, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.set_default_timeout(15_000)
        yield width, page
        context.close()


def test_realms_goldfish_report_fits(live_server, browser):  # noqa: F811
    from cards.games.realms import SET_FILE, STARTERS_DIR
    from simulator import services
    from simulator.games import services as game_services

    call_command("loadcards", str(SET_FILE), verbosity=0)
    run, _ = game_services.game_run_request("realms", mode="goldfish", text=(STARTERS_DIR / "sunward.txt").read_text(),
                                            games=60, seed=1, dispatch=False)
    services.run_execute_here(run)
    run.refresh_from_db()
    from simulator.access import set_shared
    set_shared(run, True)   # runs are private to their owner: the pages are visited by the run's shared link
    run.ref = run.share_token
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, page in _wide_and_phone(browser):
        page.goto(live_server.url + run.get_absolute_url())
        assert "Reached 50 VP" in page.locator(".sim-headline").inner_text()
        assert page.locator(".sim-chart svg").count() >= 3
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        box = page.locator(".sim-chart svg").first.bounding_box()
        assert box["width"] > 200 and box["x"] + box["width"] <= width
        page.screenshot(path=str(SHOTS / f"realms-goldfish-{width}.png"), full_page=True)


def test_regions_strategy_editor_live_errors(live_server, browser):  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, page in _wide_and_phone(browser):
        page.goto(live_server.url + "/regions/strategies/")
        page.wait_for_selector(".strategy-ok")
        area = page.locator("#strategy-text")
        area.press("Control+End")
        area.type("\nbuy:\n  Nothing At All if goods >=\n")
        page.wait_for_selector(".strategy-errors")
        text = page.locator(".strategy-errors").inner_text()
        assert "line " in text and "column " in text, text
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(SHOTS / f"regions-strategy-error-{width}.png"), full_page=True)
        page.goto(live_server.url + "/regions/strategies/?strategy=worker-engine")
        page.wait_for_selector(".strategy-ok")
        page.screenshot(path=str(SHOTS / f"regions-strategy-ok-{width}.png"), full_page=True)


def test_regions_report_and_replay_fit(live_server, browser):  # noqa: F811
    from simulator import services
    from simulator.engines.regions.sim import shipped_text
    from simulator.games import services as game_services

    run, _ = game_services.game_run_request("regions", mode="versus", text=shipped_text("big-money"),
                                            opponent_text=shipped_text("region-control"), games=40, seed=1,
                                            dispatch=False)
    services.run_execute_here(run)
    run.refresh_from_db()
    from simulator.access import set_shared
    set_shared(run, True)   # runs are private to their owner: the pages are visited by the run's shared link
    run.ref = run.share_token
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, page in _wide_and_phone(browser):
        page.goto(live_server.url + run.get_absolute_url())
        assert "Big Money" in page.locator(".sim-headline").inner_text()
        assert page.locator(".sim-chart svg").count() == 4
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(SHOTS / f"regions-report-{width}.png"), full_page=True)
        page.click("#board-replay")   # "Watch game 1" on the board
        page.click("a[rel=next]")
        assert "step 2 /" in page.locator("#replay-nav").inner_text()  # the board replay: test_regions_replay_browser
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(SHOTS / f"regions-replay-{width}.png"), full_page=True)
