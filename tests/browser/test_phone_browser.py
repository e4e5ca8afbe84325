"""The site on a phone (390 px wide) as a new user met it: the navigation took three lines, the
editor's deck sat 6,900 px below a 4,000 px card browser, keyboard-shortcut help showed on a touch screen, and the
cards table cut its cost column off. Each is checked here in Debian's Chromium, with the desktop (1366 px) view
kept as it was."""
from __future__ import annotations

import pytest

from tests.browser.conftest import SCREENSHOT_DIR
from tests.browser.looks import on_screen

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}


@pytest.fixture
def signed_in(signed_in_pages):
    """(context options) -> a page signed in as a new user."""
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("pellinore", password="questing-beast-9")
    return signed_in_pages("pellinore", "questing-beast-9")


def _shot(page, name):
    import os

    os.makedirs(SCREENSHOT_DIR, exist_ok=True)
    page.screenshot(path=os.path.join(SCREENSHOT_DIR, f"{name}.png"), full_page=True)


def test_the_navigation_is_one_line_with_a_menu_button_on_a_phone(live_server, signed_in):
    phone = signed_in(PHONE)
    phone.goto(live_server.url + "/cards/")
    header = phone.locator(".site-header").bounding_box()
    assert header["height"] <= 60, header  # one line: the brand and the button (it was three lines of links)
    nav = phone.get_by_role("navigation", name="Main")
    menu = nav.get_by_text("Menu")
    assert on_screen(menu)
    assert not nav.get_by_role("link", name="Decklists").is_visible()
    menu.click()
    assert nav.get_by_role("link", name="Decklists").is_visible()
    assert nav.get_by_role("button", name="Log out").is_visible()
    _shot(phone, "phone-nav-open")
    nav.get_by_role("link", name="Decks", exact=True).click()
    phone.get_by_role("heading", name="My decks").wait_for()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    desktop = signed_in(DESKTOP)
    desktop.goto(live_server.url + "/cards/")
    nav = desktop.get_by_role("navigation", name="Main")
    assert not nav.get_by_text("Menu").is_visible()
    for name in ("Cards", "Decks", "Decklists", "Simulate", "pellinore"):
        assert nav.get_by_role("link", name=name, exact=True).is_visible()
    assert desktop.locator(".site-header").bounding_box()["height"] <= 60


def test_the_editor_is_three_tabs_on_a_phone_and_one_page_on_a_desktop(live_server, signed_in):
    phone = signed_in(PHONE)
    phone.goto(live_server.url + "/decks/new/")
    tabs = phone.get_by_role("navigation", name="Editor parts")
    browser_panel, deck_panel, text = phone.locator(".card-browser"), phone.locator(".editor-live"), phone.locator("#deck-text")
    assert text.is_visible() and not browser_panel.is_visible() and not deck_panel.is_visible()
    assert phone.evaluate("document.documentElement.scrollHeight") < 3_000  # was about 11,000 px
    tabs.get_by_role("link", name="Add cards").click()
    assert browser_panel.is_visible() and not text.is_visible()
    assert not phone.locator("#br-keys").is_visible()  # no keyboard-shortcut help on a touch screen
    phone.fill("#br-q", "hedge knight")
    add = phone.locator('#browser-results [data-add="Hedge Knight"]')
    add.wait_for()
    add.click()
    phone.locator("#live-summary").get_by_text("1/60 draw").wait_for()
    tabs.get_by_role("link", name="The deck").click()
    assert deck_panel.is_visible() and not browser_panel.is_visible()
    deck_panel.locator(".deck-cards li", has_text="Hedge Knight").wait_for()
    assert tabs.get_by_role("link", name="The deck").get_attribute("aria-current") == "true"
    _shot(phone, "phone-editor-deck-tab")
    tabs.get_by_role("link", name="Decklist").click()
    assert "1x Hedge Knight" in text.input_value()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    desktop = signed_in(DESKTOP)
    desktop.goto(live_server.url + "/decks/new/")
    assert not desktop.get_by_role("navigation", name="Editor parts").is_visible()
    for part in (".card-browser", ".editor-live", "#deck-text", "#br-keys"):
        assert desktop.locator(part).is_visible(), part


def test_the_cards_table_shows_cost_and_power_on_a_phone(live_server, signed_in):
    phone = signed_in(PHONE)
    phone.goto(live_server.url + "/cards/")
    table = phone.locator("table.card-table")
    for name in ("Cost", "Power"):
        header = table.get_by_role("columnheader", name=name)
        box = header.bounding_box()
        assert on_screen(header) and box["x"] >= 0 and box["x"] + box["width"] <= 390, (name, box)
    region = phone.locator(".table-scroll:has(table.card-table)")
    assert region.evaluate("e => e.scrollWidth <= e.clientWidth + 1")  # nothing cut off or hidden sideways
    first_dot = table.locator("tbody tr").first.locator("td").nth(2)
    assert first_dot.get_attribute("title")  # the faction's name, where only its colour dot fits
    _shot(phone, "phone-cards-table")
