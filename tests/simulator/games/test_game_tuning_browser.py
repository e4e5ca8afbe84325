"""A realms and a regions player tune in Chromium at 1366 and 390 px: version against version from the pickers,
the report in percentages with intervals, the meta matrix whose cells open their games and each game its replay on
the game's own board, and (regions) the Hero swaps. No page scrolls sideways; a wide table scrolls in its own box
with a hint. Screenshots: var/screenshots/game-tune-*.png."""
import os
import re

import pytest
from django.core.management import call_command

from tests.browser.conftest import SCREENSHOT_DIR, shared_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WIDTHS = {"desktop": {"viewport": {"width": 1366, "height": 900}},
          "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}}
RATE = re.compile(r"\d+\.\d% \(\d+\.\d–\d+\.\d%\)")


@pytest.fixture
def inline_queue(monkeypatch):
    """Each run is played through when it is started (small game counts), as the workers would."""
    from simulator import tuning_services, tuning_tasks
    from simulator.models import TuningRun

    monkeypatch.setattr(tuning_tasks.tuning_start, "apply_async", lambda args, **kw: tuning_services.tuning_execute_here(
        TuningRun.objects.get(pk=args[0])))


@pytest.fixture
def open_page(live_server):
    contexts = []

    def opener(width):
        context = shared_browser().new_context(**WIDTHS[width])
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(60_000)
        return page

    yield opener
    for context in contexts:
        context.close()


def _shot(page, name):
    os.makedirs(SCREENSHOT_DIR, exist_ok=True)
    page.screenshot(path=os.path.join(SCREENSHOT_DIR, f"game-tune-{name}.png"), full_page=True)


def _no_sideways(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width]["viewport"]["width"], page.url


def _pick(page, field, label_part):
    select = page.locator(f"#tune-pick-{field}")
    value = select.locator("option", has_text=label_part).first.get_attribute("value")
    select.select_option(value)
    page.locator(f"#tune-{field}-side button[name=load]").click()
    page.wait_for_load_state("load")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_realms_tune_pages(live_server, open_page, inline_queue, width):
    from cards.games.realms import SET_FILE

    call_command("loadcards", str(SET_FILE), verbosity=0)
    page = open_page(width)
    page.goto(live_server.url + "/realms/tune/?kind=compare")
    assert page.locator("nav.nav a[href='/realms/tune/']").count() >= 1     # the realms menu has Tune
    _pick(page, "a", "Sunward")
    _pick(page, "b", "Deepwood")
    _pick(page, "gauntlet", "Ashen")
    assert "Knights of the Dawn" in page.locator("#tune-a").input_value()
    _no_sideways(page, width)
    _shot(page, f"realms-form-{width}")
    page.locator("#tune-games").fill("4")
    page.locator("#tune-form button[type=submit]:not([name])").click()
    page.wait_for_selector("table.sim-table")
    body = page.locator("main").inner_text()
    assert "The Sunward Throne" in body and "Goldfish: rounds to victory" in body and "pts" in body
    assert "greedy" not in body and "fb-" not in body
    _no_sideways(page, width)
    _shot(page, f"realms-compare-{width}")
    page.goto(live_server.url + "/realms/tune/?kind=matrix&all_starters=1")
    page.locator("#tune-games").fill("2")
    page.locator("#tune-form button[type=submit]:not([name])").click()
    page.wait_for_selector("table.tune-matrix")
    assert page.locator("table.tune-matrix tbody tr").count() == 4
    assert RATE.search(page.locator("table.tune-matrix").inner_text().replace("\n", " "))
    assert page.locator("#matrix-scroll-hint").count() == 1
    _no_sideways(page, width)
    _shot(page, f"realms-matrix-{width}")
    page.locator("table.tune-matrix td a").first.click()
    page.wait_for_selector("table.tune-games")
    assert page.locator("table.tune-games tbody tr").count() == 2
    _no_sideways(page, width)
    _shot(page, f"realms-cell-{width}")
    page.locator("table.tune-games tbody tr").nth(1).locator("a").first.click()
    page.wait_for_selector(".rb-title")
    _no_sideways(page, width)
    _shot(page, f"realms-replay-{width}")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_regions_tune_pages(live_server, open_page, inline_queue, width):
    page = open_page(width)
    page.goto(live_server.url + "/regions/tune/?kind=compare")
    _pick(page, "a", "Big Money")
    _pick(page, "b", "Region Control")
    _pick(page, "gauntlet", "Wide")
    page.locator("#tune-hero-b").select_option(index=2)
    _no_sideways(page, width)
    _shot(page, f"regions-form-{width}")
    page.locator("#tune-games").fill("6")
    page.locator("#tune-form button[type=submit]:not([name])").click()
    page.wait_for_selector("table.sim-table")
    body = page.locator("main").inner_text()
    assert "Goldfish" not in body and "pts" in body and "hr-" not in body
    _no_sideways(page, width)
    _shot(page, f"regions-compare-{width}")
    page.goto(live_server.url + "/regions/tune/?kind=tune")
    _pick(page, "deck", "Big Money")
    _pick(page, "gauntlet", "Region Control")
    page.locator("#tune-games").fill("8")
    page.locator("#tune-form button[type=submit]:not([name])").click()
    page.wait_for_selector("text=Best swap")
    assert "→" in page.locator("main").inner_text() and page.locator("#swaps-scroll-hint").count() == 1
    if width == "desktop":   # the reason wraps, so the gain and its interval are on screen without scrolling
        last = page.locator("[aria-label=Swaps] table thead th").last.bounding_box()
        assert last["x"] + last["width"] <= WIDTHS[width]["viewport"]["width"], last
    _no_sideways(page, width)
    _shot(page, f"regions-swaps-{width}")
    page.goto(live_server.url + "/regions/tune/?kind=matrix&all_starters=1")
    page.locator("#tune-games").fill("2")
    page.locator("#tune-form button[type=submit]:not([name])").click()
    page.wait_for_selector("table.tune-matrix")
    assert page.locator("table.tune-matrix tbody tr").count() == 5
    _no_sideways(page, width)
    _shot(page, f"regions-matrix-{width}")
    page.locator("table.tune-matrix td a").first.click()
    page.wait_for_selector("table.tune-games")
    page.locator("table.tune-games tbody tr").first.locator("a").first.click()
    page.wait_for_selector(".rr-title")
    _no_sideways(page, width)
    _shot(page, f"regions-replay-{width}")
