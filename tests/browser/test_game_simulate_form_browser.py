"""The realms and regions simulate forms in Chromium at 1366 and 390 px: no sideways scroll, the pickers on screen,
a starter button fills its box, a saved deck chosen in the list fills the run by name."""
import os

import pytest
from django.core.management import call_command

from .conftest import SCREENSHOT_DIR, shared_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"desktop": {"viewport": {"width": 1366, "height": 900}},
          "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}}


@pytest.fixture
def signed_in(signed_in_pages):
    from django.contrib.auth import get_user_model

    from cards.games.realms import SET_FILE, STARTERS_DIR

    call_command("loadcards", str(SET_FILE), verbosity=0)
    user = get_user_model().objects.create_user("pellinore", password="questing-beast-9")
    from tests.simulator.games.test_game_web import _realms_deck
    _realms_deck(user, "Dawn riders", (STARTERS_DIR / "sunward.txt").read_text())
    return signed_in_pages("pellinore", "questing-beast-9")


def _shot(page, name):
    os.makedirs(SCREENSHOT_DIR, exist_ok=True)
    page.screenshot(path=os.path.join(SCREENSHOT_DIR, f"{name}.png"), full_page=True)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_realms_form_at_both_widths(live_server, signed_in, width, monkeypatch):
    from simulator import tasks
    monkeypatch.setattr(tasks.start_run, "apply_async", lambda *a, **k: None)
    page = signed_in(WIDTHS[width])
    page.goto(live_server.url + "/realms/simulate/")
    limit = WIDTHS[width]["viewport"]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= limit
    _shot(page, f"realms-simulate-{width}")
    assert "manage.py" not in page.content()
    # the opponent's starter button fills the opponent's box and makes the run head-to-head
    page.locator('button[name="use_opponent_starter"]').first.click()
    page.wait_for_load_state("load")
    from cards.games.realms import STARTERS_DIR
    from simulator.games.picks import reader_text
    ashen = reader_text((STARTERS_DIR / "ashen.txt").read_text())   # the list as a reader gets it in a box
    assert page.locator("#sim-opponent").input_value().strip() == ashen.strip()
    assert page.locator('button[name="use_opponent_starter"].active').count() == 1
    assert page.locator('input[name="mode"][value="versus"]').is_checked()
    assert page.evaluate("document.documentElement.scrollWidth") <= limit
    # my saved deck, chosen in the list; Simulate runs it under its name
    page.select_option("#sim-text-pick", label="Dawn riders")
    page.locator("#sim-games").fill("4")
    page.get_by_role("button", name="Simulate", exact=True).click()
    page.wait_for_load_state("load")
    assert "/realms/simulate/runs/" in page.url
    from simulator.models import SimulationRun
    assert SimulationRun.objects.get().deck_name == "Dawn riders"


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_regions_form_at_both_widths(live_server, width):
    context = shared_browser().new_context(**WIDTHS[width])
    try:
        page = context.new_page()
        page.goto(live_server.url + "/regions/simulate/")
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width]["viewport"]["width"]
        assert page.locator("#sim-text-hero").is_visible() and page.locator("#sim-opponent-pick").is_visible()
        _shot(page, f"regions-simulate-{width}")
    finally:
        context.close()
