"""A player compares two decks, watches the progress bar, reads the report; runs a card-swap search and a meta
matrix; all at desktop and phone widths. Screenshots go to var/screenshots/tune-*.png."""
import threading
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import browser, shot  # noqa: F401  (fixtures)
from tests.browser.looks import on_screen

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


class BackgroundQueue:
    """Each run is worked through unit by unit in a background thread, slowly enough to see the progress bar
    (the test's SQLite database locks whole tables, so a write that meets a lock is tried again)."""

    def __init__(self):
        self.threads = []

    def _retry(self, fn, *args):
        from django.db import OperationalError

        for _ in range(200):
            try:
                return fn(*args)
            except OperationalError:
                time.sleep(0.05)
        return fn(*args)

    def work(self, run_id):
        from simulator import tuning_services as services

        time.sleep(1.0)
        planned = self._retry(services.stage_start, run_id)
        while planned is not None:
            stage, units = planned
            for index in range(len(units)):
                time.sleep(0.05)
                self._retry(services.unit_store, run_id, stage, index)
            planned = self._retry(services.stage_advance, run_id, stage)

    def apply_async(self, args, **kwargs):
        thread = threading.Thread(target=self.work, args=(args[0],), daemon=True)
        thread.start()
        self.threads.append(thread)


@pytest.fixture
def background_queue(monkeypatch):
    from simulator import tuning_tasks

    queue = BackgroundQueue()
    monkeypatch.setattr(tuning_tasks.tuning_start, "apply_async", queue.apply_async)
    yield queue
    for thread in queue.threads:
        thread.join(timeout=120)


@pytest.mark.parametrize("width, height, label", [(1366, 900, "desktop"), (390, 844, "phone")])
def test_compare_tune_and_matrix_pages(live_server, browser, background_queue, width, height, label):  # noqa: F811
    import os

    from django.core.management import call_command

    from tests.browser.conftest import SCREENSHOT_DIR
    from tests.conftest import CORE_SET

    call_command("loadcards", str(CORE_SET), verbosity=0)
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(20_000)
    os.makedirs(SCREENSHOT_DIR, exist_ok=True)

    def snap(name):
        page.screenshot(path=os.path.join(SCREENSHOT_DIR, f"tune-{name}-{label}.png"), full_page=True)

    try:
        # Version against version: two starters, one gauntlet deck, the progress bar, then the report.
        page.goto(live_server.url + "/tune/?kind=compare&starter_a=camelot&starter_b=summer")
        assert "Fellowship" in page.get_by_label("Deck A (e.g. the new version)").input_value()
        winter = open(CORE_SET.parent / "starters" / "winter.txt").read()
        page.get_by_label("Gauntlet (opponents; empty: the seven starter decks), separated by ---").fill(winter)
        page.get_by_label("Games", exact=True).fill("200")
        snap("compare-form")
        page.get_by_role("button", name="Start").click()
        page.wait_for_selector("progress.sim-progress")
        seen = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(0 < v < 1 for v in seen):
            try:
                seen.append(float(page.locator("progress.sim-progress").get_attribute("value", timeout=500) or 0))
            except PlaywrightError:
                pass
            page.wait_for_timeout(100)
        assert any(0 < v < 1 for v in seen), seen
        snap("compare-progress")
        page.wait_for_selector("text=Overall", timeout=90_000)
        assert page.locator(".sim-chart svg").count() == 2
        assert on_screen(page.locator("table.sim-table").nth(1))
        snap("compare-report")
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1

        # Card swaps: a starter, goldfish speed, few games.
        page.goto(live_server.url + "/tune/?kind=tune&starter=winter")
        page.get_by_label("Games (the most per candidate)").fill("40")
        page.get_by_role("button", name="Start").click()
        page.wait_for_selector("text=Best swap", timeout=180_000)
        assert page.locator("table.sim-table tbody tr").count() >= 3
        assert page.locator("h2", has_text="Dead weight").count() == 1
        snap("tune-report")
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1

        # Meta matrix of the seven starters: a heat map, ratings, a cell's games and one game's replay.
        page.goto(live_server.url + "/tune/?kind=matrix&all_starters=1")
        page.get_by_label("Games", exact=True).fill("10")
        page.get_by_role("button", name="Start").click()
        page.wait_for_selector("table.tune-matrix", timeout=180_000)
        assert page.locator("table.tune-matrix tbody tr").count() == 7
        snap("matrix-report")
        wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert wide <= 1, wide
        page.locator("table.tune-matrix td a").first.click()
        page.wait_for_selector("table.tune-games")
        assert page.locator("table.tune-games tbody tr").count() == 10
        snap("matrix-cell")
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1
        page.locator("table.tune-games tbody tr").nth(1).locator("a").click()
        page.wait_for_selector("#replay-nav")
        page.wait_for_load_state("load")   # its key script (deferred) listens only once the page has loaded
        assert "game 2" in page.locator("h1").inner_text()
        page.keyboard.press("ArrowRight")
        page.wait_for_url("**step=1")
        page.keyboard.press("PageDown")
        page.wait_for_timeout(500)
        assert on_screen(page.locator("#step-log"))
        snap("matrix-replay")
        # Nothing wider than the screen on a phone but the scrollable tables.
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, overflow
    finally:
        context.close()
