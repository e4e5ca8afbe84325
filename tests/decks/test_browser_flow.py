"""End to end in Debian's Chromium: a new player builds a legal Camelot deck by pasting, searching and
clicking, watches the legality panel go green, publishes it, and a logged-out visitor sees the same list."""
from __future__ import annotations

import re

import pytest

from tests.browser.conftest import browser, page, shot  # noqa: F401  (shared Playwright fixtures)

from pathlib import Path

# The 2026 Camelot starter (61 draw cards, three Hedge Knights): the flow's counts are its, whatever the shipped
# starter holds today.
CAMELOT_2026 = Path(__file__).resolve().parents[1] / "fixtures" / "starters_2026" / "camelot.txt"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_new_player_builds_publishes_and_shares_a_legal_camelot_deck(live_server, page, shot):  # noqa: F811
    from cards.models import Card

    faction = Card.objects.get(type="faction", faction__slug="camelot")
    camelot = CAMELOT_2026.read_text(encoding="utf-8")
    destiny_title = re.search(r"^Destiny:\n1x (.+)$", camelot, re.M).group(1)
    destiny = Card.objects.get(type="destiny", name=destiny_title)
    # Everything but the faction card, the destiny and the three Hedge Knights: 58 draw cards, not legal yet.
    skipped = {f"1x {faction.title}", f"1x {destiny.title}", "3x Hedge Knight"}
    assert skipped <= set(camelot.splitlines())
    body = "\n".join(line for line in camelot.splitlines() if line not in skipped)

    page.goto(live_server.url + "/accounts/signup/")
    page.get_by_label("Username").fill("tristan")
    page.get_by_label("Password", exact=True).fill("isolde-forever-42")
    page.get_by_label("Password confirmation").fill("isolde-forever-42")
    page.get_by_role("button", name="Sign up").click()

    page.goto(live_server.url + "/decks/new/")
    page.get_by_label("Name", exact=True).fill("Round Table")
    page.select_option("#ed-faction", faction.code)
    page.select_option("#ed-destiny", destiny.code)
    page.fill("#deck-text", body)
    legality = page.locator("#legality")
    legality.get_by_text("Not legal").wait_for()
    assert "draw deck needs at least 60" in legality.inner_text()

    assert "Fix:" in legality.inner_text()  # each problem says what to do (§2.1, §11)

    page.fill("#br-q", "hedge knight")
    add = page.locator('#browser-results [data-add="Hedge Knight"]')
    add.wait_for()
    add.click()  # one copy by mouse ...
    legality.locator(".deck-cards li", has_text="Hedge Knight").wait_for()
    result = page.locator('#browser-results .browser-card[data-card="Hedge Knight"]')
    result.focus()
    page.keyboard.press("+")  # ... and one by keyboard (documented on the page)
    legality.get_by_text("Legal deck").wait_for()
    assert "Draw cards 60 / 60" in legality.inner_text()
    assert "2×" in legality.locator(".deck-cards li", has_text="Hedge Knight").inner_text()
    page.wait_for_function("document.querySelector('.browser-card[data-card=\"Hedge Knight\"] .in-deck')"
                           ".textContent === '2 in deck'")
    assert page.locator("#quest-count").inner_text() == "7 / 7"
    assert legality.locator(".deck-chart svg").count() >= 5  # live statistics as charts
    page.get_by_text("images", exact=True).click()
    page.locator('#browser-results img[src*="?size=small"]').first.wait_for()
    shot("decks-editor-legal")
    phone = page.context.browser.new_context(viewport={"width": 390, "height": 844},
                                             storage_state=page.context.storage_state())
    try:
        small = phone.new_page()
        small.goto(live_server.url + "/decks/new/")
        small.get_by_role("navigation", name="Editor parts").get_by_role("link", name="The deck").click()  # a tab
        small.locator("#legality").get_by_text("Not legal").wait_for()
        assert small.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling on a phone
    finally:
        phone.close()
    page.get_by_role("button", name="Save").click()
    page.get_by_role("heading", name="Round Table").wait_for()
    assert page.get_by_text("Legal deck").is_visible()

    page.get_by_label("Title").fill("Knights of the Round Table")
    page.get_by_role("button", name="Publish a snapshot").click()
    page.get_by_role("heading", name="Knights of the Round Table").wait_for()
    public_url = page.url
    assert re.search(r"/decklists/\d+-knights-of-the-round-table/$", public_url)

    visitor = page.context.browser.new_context()
    try:
        anonymous = visitor.new_page()
        anonymous.goto(public_url)
        assert anonymous.get_by_role("heading", name="Knights of the Round Table").is_visible()
        assert "2×" in anonymous.locator(".deck-cards li", has_text="Hedge Knight").inner_text()
        assert anonymous.locator(".deck-group", has_text="Units").count() == 1
        image = anonymous.locator("img.deck-image")
        image.wait_for()
        anonymous.wait_for_function("img => img.complete && img.naturalWidth >= 1200",
                                    arg=image.element_handle(), timeout=30_000)
        shot("decks-public-decklist")
        decklist_id = re.search(r"/decklists/(\d+)-", public_url).group(1)
        text = anonymous.request.get(f"{live_server.url}/api/decklists/{decklist_id}/export/?format=text").text()
        assert "2x Hedge Knight" in text and f"1x {destiny.name}" in text
    finally:
        visitor.close()


def test_the_editor_saves_a_deck_without_javascript(live_server, browser):  # noqa: F811
    """Every deck control sits outside the <form> element (tied to it by form="deck-form"): plain HTML must still
    submit them all."""
    from django.contrib.auth import get_user_model

    from cards.models import Card

    get_user_model().objects.create_user("dagonet", password="fool-of-camelot-7")
    camelot = CAMELOT_2026.read_text(encoding="utf-8")
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(live_server.url + "/accounts/login/")
        page.get_by_label("Username").fill("dagonet")
        page.get_by_label("Password").fill("fool-of-camelot-7")
        page.locator("main form button[type=submit]").click()
        page.goto(live_server.url + "/decks/new/")
        page.get_by_label("Name", exact=True).fill("No scripts")
        page.select_option("#ed-faction", Card.objects.get(type="faction", faction__slug="camelot").code)
        page.fill("#deck-text", camelot)
        page.fill("#ed-tags", "plain, html")
        page.get_by_role("button", name="Save").click()
        page.get_by_role("heading", name="No scripts").wait_for()
        assert page.get_by_text("Legal deck").is_visible()
        from decks.models import Deck

        deck = Deck.objects.get(name="No scripts")
        assert deck.tags == ["plain", "html"] and deck.faction.slug == "camelot" and deck.is_private
    finally:
        context.close()
