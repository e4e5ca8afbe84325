"""A new user pastes a deck, presses Simulate, watches the progress bar, and reads all three reports."""
import threading
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import browser, page, shot  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


class BackgroundQueue:
    """Each run is worked through chunk by chunk in a background thread, slowly enough to see progress.

    The test's in-memory SQLite database has table-level locks with no waiting, so the worker thread starts
    only when the test releases it (once the run page has loaded), and retries a write that meets a lock;
    an htmx poll that meets one simply gets no swap and polls again.
    """

    def __init__(self):
        self.go = threading.Event()
        self.threads = []

    def release(self):
        self.go.set()

    def _retry(self, fn, *args):
        from django.db import OperationalError

        for _ in range(100):
            try:
                return fn(*args)
            except OperationalError:
                time.sleep(0.05)
        return fn(*args)

    def work(self, run_id):
        from simulator import runner, services
        from simulator.models import SimulationRun

        self.go.wait(30)
        self.go.clear()
        run = self._retry(lambda: SimulationRun.objects.get(pk=run_id))
        self._retry(services.run_mark_started, run_id)
        for index, _, _ in runner.chunk_plan(run.mode, run.games, run.settings):
            time.sleep(0.8)
            self._retry(services.chunk_store, run_id, index)
        self._retry(services.run_finish, run_id)

    def apply_async(self, args, **kwargs):
        thread = threading.Thread(target=self.work, args=(args[0],), daemon=True)
        thread.start()
        self.threads.append(thread)


@pytest.fixture
def background_queue(monkeypatch):
    from simulator import tasks

    queue = BackgroundQueue()
    monkeypatch.setattr(tasks.start_run, "apply_async", queue.apply_async)
    yield queue
    queue.release()
    for thread in queue.threads:
        thread.join(timeout=30)


def test_paste_a_deck_watch_progress_and_read_the_three_reports(live_server, page, shot, background_queue):
    from django.core.management import call_command

    from tests.conftest import CORE_SET, STARTERS_DIR

    call_command("loadcards", str(CORE_SET))  # a new user pastes a starter deck of the core set
    deck = (STARTERS_DIR / "camelot.txt").read_text()
    opponent = (STARTERS_DIR / "winter.txt").read_text()

    page.goto(live_server.url + "/simulate/")
    page.get_by_label("Decklist", exact=True).fill(deck)
    page.get_by_label("Opening hands and setup").check()
    page.get_by_label("Games (or hands sampled)").fill("8000")
    page.get_by_role("button", name="Simulate").click()
    page.wait_for_selector("progress.sim-progress")
    background_queue.release()
    # The bar moves while chunks finish (htmx polls the run page every second), then becomes the report.
    seen = []
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not any(v > 0 for v in seen):
        try:
            seen.append(float(page.locator("progress.sim-progress").get_attribute("value", timeout=500) or 0))
        except PlaywrightError:
            pass  # swapped out between polls
        page.wait_for_timeout(100)
    assert any(0 < v < 1 for v in seen), seen
    shot("simulate-progress")
    page.wait_for_selector("text=Exact probabilities", timeout=30_000)
    assert page.locator(".sim-chart svg").count() >= 3
    assert "sampled opening hands" in page.locator(".sim-uncertainty").inner_text()
    shot("simulate-hands-report")

    page.goto(live_server.url + "/simulate/")
    page.get_by_label("Decklist", exact=True).fill(deck)
    page.get_by_label("Goldfish (rounds to 15 Influence)").check()
    page.get_by_label("Games (or hands sampled)").fill("400")
    page.get_by_role("button", name="Simulate").click()
    page.wait_for_selector("progress.sim-progress")
    background_queue.release()
    page.wait_for_selector("text=Against the goldfish", timeout=60_000)
    assert "Based on 400 games" in page.locator(".sim-uncertainty").inner_text()
    shot("simulate-goldfish-report")

    page.goto(live_server.url + "/simulate/")
    page.get_by_label("Decklist", exact=True).fill(deck)
    page.get_by_label("Head-to-head", exact=True).check()
    page.get_by_label("Opponent decklist (head-to-head only)").fill(opponent)
    page.get_by_label("Games (or hands sampled)").fill("200")
    page.get_by_role("button", name="Simulate").click()
    page.wait_for_selector("progress.sim-progress")
    background_queue.release()
    page.wait_for_selector("text=Wilson interval", timeout=60_000)
    page.get_by_text("Sample game log").click()
    assert page.locator(".sim-log li").count() > 5
    shot("simulate-versus-report")
