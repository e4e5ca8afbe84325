"""A signed-in player fills the /tune/ boxes from their saved decks and the starter buttons, and reads the one
Fast/Strong player choice, at desktop and phone widths. Screenshots go to var/screenshots/tune-form-*.png."""
import os
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import browser  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width, height, label", [(1366, 900, "desktop"), (390, 844, "phone")])
def test_my_decks_and_starters_fill_the_tune_boxes(live_server, browser, django_user_model, width, height,  # noqa: F811
                                                   label):
    from django.conf import settings
    from django.test import Client

    from cards.starters import starter
    from decks.decklist import parse_decklist
    from decks.pool import CardPool
    from decks.services import deck_create
    from django.core.management import call_command

    from tests.browser.conftest import SCREENSHOT_DIR
    from tests.conftest import CORE_SET

    call_command("loadcards", str(CORE_SET), verbosity=0)
    user = django_user_model.objects.create_user("ada", password="pw-ada-12345")
    pool = CardPool.from_db()
    deck = deck_create(owner=user, name="My knights", counts=parse_decklist(starter("camelot").text, pool).counts,
                       pool=pool).deck
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME]
                          .value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    os.makedirs(SCREENSHOT_DIR, exist_ok=True)

    def wide():
        return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")

    try:
        page.goto(live_server.url + "/tune/?kind=compare")
        assert page.locator("[data-load-button]").first.is_hidden()   # the script fills at once: no Load needed
        page.locator("#tune-my-b").select_option(str(deck.pk))
        expect(page.locator("#tune-b")).to_have_value(re.compile("# My knights"))
        page.locator('button[name="use_starter_a"][value="winter"]').click()
        page.wait_for_load_state()
        assert "Winter" in page.locator("#tune-a").input_value()
        assert "# My knights" in page.locator("#tune-b").input_value()   # the other box kept what it held
        players = page.locator("#sim-players").inner_text()
        assert "Fast" in players and "Strong" in players and "1,000 games take" in players
        assert "greedy-v1" not in page.content()
        assert wide() <= 1
        page.screenshot(path=os.path.join(SCREENSHOT_DIR, f"tune-form-compare-{label}.png"), full_page=True)

        page.goto(live_server.url + "/tune/?kind=matrix&all_starters=1")
        before = page.locator("#tune-decks").input_value().count("\n---\n")
        page.locator("#tune-my-decks").select_option(str(deck.pk))
        expect(page.locator("#tune-decks")).to_have_value(re.compile("# My knights"))
        assert page.locator("#tune-decks").input_value().count("\n---\n") == before + 1   # added, not replaced
        assert wide() <= 1
        page.screenshot(path=os.path.join(SCREENSHOT_DIR, f"tune-form-matrix-{label}.png"), full_page=True)
    finally:
        context.close()
