"""The regions replay on a board of five Regions in Debian's Chromium at 1366 and 390 px: the board fits
the page, the keys step (→ ←) and turn (PageDown) with the address following, and a step's address opens that
step. Screenshots in var/screenshots/regions-board-*.png."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.conftest import browser, own_runs  # noqa: F401  (shared Playwright fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path(__file__).resolve().parents[3] / "var" / "screenshots"


def test_board_replay_fits_and_steps_with_keys(live_server, browser):  # noqa: F811
    from simulator import services
    from simulator.engines.regions.sim import shipped_text
    from simulator.games import services as game_services

    run, _ = game_services.game_run_request("regions", mode="versus", text=shipped_text("big-money"),
                                            opponent_text=shipped_text("region-control"), games=4, seed=1,
                                            dispatch=False)
    services.run_execute_here(run)
    run.refresh_from_db()
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = live_server.url + run.get_absolute_url() + "replay/"
    for width in (1366, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        own_runs(context, live_server.url, run)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(url + "?step=40")
        assert "step 41 /" in page.locator("#step-no").inner_text()
        assert page.locator("div.rr-region").count() == 5 and page.locator(".rr-market .rr-tile").count() >= 8
        assert page.locator(".rr-stack .rr-tile").count() > 0
        page.screenshot(path=str(SHOTS / f"regions-board-{width}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.keyboard.press("ArrowRight")
        page.wait_for_url(re.compile(r"step=41$"))
        assert "step 42 /" in page.locator("#step-no").inner_text()
        page.keyboard.press("ArrowLeft")
        page.wait_for_url(re.compile(r"step=40$"))
        turn = page.locator(".rr-turn strong").inner_text()
        before = page.url   # wait for the page the key leads to, not the one shown (its URL matches too)
        page.keyboard.press("PageDown")
        page.wait_for_url(lambda u: u != before and re.search(r"step=\d+$", u) is not None)
        assert page.locator(".rr-turn strong").inner_text() != turn
        before = page.url
        page.keyboard.press("End")
        page.wait_for_url(lambda u: u != before and re.search(r"step=\d+$", u) is not None)
        assert "Game over" in page.locator("#step-decision").inner_text()
        page.screenshot(path=str(SHOTS / f"regions-board-end-{width}.png"), full_page=True)
        context.close()
