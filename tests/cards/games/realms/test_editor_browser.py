"""The realms deck editor in Debian's Chromium, at desktop and phone widths: search the card browser, add cards
with +, watch the live legality panel (002 §18, §2, §5) change, switch to the simplified format (002 §17), save,
and see the saved deck. Screenshots go to var/screenshots/ (realms-editor-*.png)."""
from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from cards.games.realms import SET_FILE
from tests.browser.conftest import browser, page, shot  # noqa: F401  (shared Playwright fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _sign_in(page, live_server, name):  # noqa: F811
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user(name, password=f"{name}-realm-42")
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(f"{name}-realm-42")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/accounts/profile/|/$|/decks/"))
    page.wait_for_load_state("networkidle")   # the server done with the page before the test touches the database


def _load_cards():
    """The realms set, loaded before the browser makes any request: with SQLite's in-memory test database a write
    here while the live server is still answering the page's last request fails with "database table is locked"."""
    call_command("loadcards", str(SET_FILE), verbosity=0)


def _build(page, live_server, shot, tag):  # noqa: F811
    page.goto(live_server.url + "/realms/decks/new/")
    page.get_by_label("Name").fill(f"Deepwood test {tag}")
    search = page.locator("#br-q")
    search.fill("t:leader aff:deepwood")
    expect(page.locator("#browser-results li")).to_have_count(3)
    page.locator("#browser-results button[aria-label='Add Mother Orla']").click()
    expect(page.locator("#deck-text")).to_have_value(re.compile("Mother Orla"))
    expect(page.locator("#verdict")).to_contain_text("Not legal")
    expect(page.locator("#verdict")).to_contain_text("at least 60")
    # A Sunward card in a Deepwood deck: the affiliation error of 002 §5, then gone in the simplified format.
    search.fill("Sunward Squire")
    page.locator("#browser-results button[aria-label='Add Sunward Squire']").click()
    expect(page.locator("#deck-text")).to_have_value(re.compile("Sunward Squire"))
    expect(page.locator("#verdict li[data-code='affiliation']")).to_have_count(1)
    page.select_option("#ed-fmt", "simplified")
    expect(page.locator("#verdict li[data-code='affiliation']")).to_have_count(0)
    expect(page.locator("#verdict")).to_contain_text("simplified")
    page.select_option("#ed-fmt", "standard")
    expect(page.locator("#verdict li[data-code='affiliation']")).to_have_count(1)
    # Typing the rest of a legal list in the text box: the panel follows.
    text = (
        "Leaders:\n1x Mother Orla\n1x Bram Thornhand\nPlaces:\n6x Farmstead\n6x Woodcutters' Camp\n"
        "Warriors:\n46x Village Militia\n")
    page.locator("#deck-text").fill(text)
    expect(page.locator("#verdict")).to_contain_text("Legal deck")
    expect(page.locator("#verdict .problems li.error")).to_have_count(0)
    shot(f"realms-editor-{tag}")
    # + and − in the deck's own list.
    page.locator("#deck-live button[aria-label='Remove one Farmstead']").click()
    expect(page.locator("#deck-text")).to_have_value(re.compile("5x Farmstead"))
    expect(page.locator("#verdict")).to_contain_text("Not legal")
    page.locator("#deck-live button[aria-label='Add one Farmstead']").click()
    expect(page.locator("#deck-text")).to_have_value(re.compile("6x Farmstead"))
    expect(page.locator("#verdict")).to_contain_text("Legal deck")
    page.locator("#save-deck").click()
    page.wait_for_url(re.compile(r"/realms/decks/\d+/$"))
    body = page.locator("main").inner_text()
    assert f"Deepwood test {tag}" in body and "Legal deck" in body and "Opening hands" in body
    shot(f"realms-deck-{tag}")


def test_realms_editor_desktop(live_server, page, shot):  # noqa: F811
    _load_cards()
    _sign_in(page, live_server, "orla")
    _build(page, live_server, shot, "desktop")
    from decks.models import GameDeck

    deck = GameDeck.objects.get(name="Deepwood test desktop")
    assert deck.identity["affiliation"] == "deepwood" and sum(deck.cards.values()) == 60


def test_realms_editor_phone(live_server, browser, shot):  # noqa: F811
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    try:
        _load_cards()
        _sign_in(phone, live_server, "bram")
        import os

        from tests.browser.conftest import SCREENSHOT_DIR

        def phone_shot(name):
            os.makedirs(SCREENSHOT_DIR, exist_ok=True)
            phone.screenshot(path=os.path.join(SCREENSHOT_DIR, f"{name}.png"), full_page=True)

        _build(phone, live_server, phone_shot, "phone")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 400, f"the page scrolls sideways on a phone ({width}px)"
    finally:
        context.close()
