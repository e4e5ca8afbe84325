"""The realms board in the replay viewer, in Debian's Chromium at 1366 and 390 px: both Realms drawn (the
Settlement grid, Borderlands, Strike Force), the VP track, stepping by keyboard changes the step and its address,
nothing wider than the page. Screenshots in var/screenshots/realms-board-*.png."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from tests.browser.conftest import browser, page, shot, own_runs  # noqa: F401  (shared Playwright fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path(__file__).resolve().parents[3] / "var" / "screenshots"


def test_realms_board_replay_desktop_and_phone(live_server, browser):  # noqa: F811
    from cards.games.realms import SET_FILE, STARTERS_DIR
    from simulator import services
    from simulator.games import services as game_services

    call_command("loadcards", str(SET_FILE), verbosity=0)
    run, _ = game_services.game_run_request(
        "realms", mode="versus", text=(STARTERS_DIR / "ashen.txt").read_text(),
        opponent_text=(STARTERS_DIR / "sunward.txt").read_text(), games=2, seed=1, dispatch=False)
    services.run_execute_here(run)
    run.refresh_from_db()
    from simulator.games.realms_replay import replayed
    replayed(run, 0)   # the game played again once, here (the live server shares this process's cache)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1366, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        own_runs(context, live_server.url, run)
        pg = context.new_page()
        pg.set_default_timeout(60_000)
        pg.goto(live_server.url + f"/simulate/runs/{run.pk}/games/0/?step=150")
        assert pg.locator("#realm-0 .rb-grid .rb-filled").count() >= 2      # the Leader and a Place
        assert pg.locator("#realm-1 .rb-leader").count() == 1
        assert pg.locator("#vp-race .rb-marker").count() == 2
        assert "step 151 /" in pg.locator("#step-no").inner_text()
        assert pg.evaluate("document.documentElement.scrollWidth") <= width
        pg.screenshot(path=str(SHOTS / f"realms-board-{width}.png"), full_page=True)
        pg.keyboard.press("ArrowRight")
        pg.wait_for_url("**step=151")
        assert "step 152 /" in pg.locator("#step-no").inner_text()
        pg.keyboard.press("ArrowLeft")
        pg.wait_for_url("**step=150")
        pg.keyboard.press("End")
        pg.wait_for_url("**step=*")
        assert "game over" in pg.locator("#rb-phase").inner_text()
        pg.screenshot(path=str(SHOTS / f"realms-board-end-{width}.png"), full_page=True)
        context.close()
