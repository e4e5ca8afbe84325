"""The deck editor as a new user met it, in Debian's Chromium: the Faction and Destiny menus and the
pasted list are one source of truth, a saved deck's faction and destiny can be changed, errors keep what was
typed and chosen, and every button can be seen."""
from __future__ import annotations

import re

import pytest

from tests.browser.conftest import browser, page, shot  # noqa: F401  (shared Playwright fixtures)
from tests.browser.looks import contrast, on_screen

from .test_validatedeck import STARTERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CAMELOT = next(p for p in STARTERS if p.stem == "camelot").read_text(encoding="utf-8")


def _starter_destiny():
    from cards.models import Card

    title = re.search(r"^Destiny:\n1x (.+)$", CAMELOT, re.M).group(1)
    return Card.objects.get(type="destiny", name=title)


def _other_destiny(than):
    from cards.models import Card

    return Card.objects.filter(type="destiny").exclude(pk=than.pk).order_by("name").first()


def _sign_in(page, live_server, name="enid"):  # noqa: F811
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(name, password=f"{name}-geraint-42")
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(f"{name}-geraint-42")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/accounts/profile/|/$|/decks/"))
    return user


def _value(page, selector):  # noqa: F811
    return page.eval_on_selector(selector, "e => e.value")


def test_pasting_a_list_sets_the_menus_and_what_the_page_shows_is_saved(live_server, page, shot):  # noqa: F811
    from cards.models import Card
    from decks.models import Deck

    _sign_in(page, live_server)
    faction = Card.objects.get(type="faction", faction__slug="camelot")
    pasted, chosen = _starter_destiny(), _other_destiny(_starter_destiny())
    page.goto(live_server.url + "/decks/new/")
    page.get_by_label("Name", exact=True).fill("Menus follow the list")
    page.fill("#deck-text", CAMELOT)
    # Pasting a list sets both menus (they stayed on "— choose —").
    page.wait_for_function(f"() => document.getElementById('ed-destiny').value === '{pasted.code}'")
    assert _value(page, "#ed-faction") == faction.code
    assert "done" in page.locator("#step-destiny").get_attribute("class")
    assert pasted.name in page.locator("#destiny-chosen-rules").inner_text()
    # A destiny chosen in the menu replaces the pasted one in the list, and the deck panel follows.
    page.select_option("#ed-destiny", chosen.code)
    text = _value(page, "#deck-text")
    assert f"1x {chosen.title}" in text.splitlines() and f"1x {pasted.title}" not in text.splitlines()
    live = page.locator("#legality section[aria-labelledby=live-list-h]")
    live.locator("li", has_text=chosen.title).wait_for()
    assert live.locator("li", has_text=pasted.title).count() == 0
    shot("decks-editor-menus-follow-the-list")
    # A form error keeps the list as typed and the menus as chosen.
    page.fill("#deck-text", text + "\n2x Sir Nobody of Nowhere")
    page.get_by_role("button", name="Save").click()
    page.get_by_role("alert").first.wait_for()
    assert "1 line could not be read, so nothing was saved" in page.get_by_role("alert").first.inner_text()
    problem = page.locator("ul.problems li").first.inner_text()
    assert problem.count("Line ") == 1 and "Sir Nobody" in problem  # was "Line 2: Line 2: ..."
    assert _value(page, "#ed-destiny") == chosen.code and _value(page, "#ed-faction") == faction.code
    assert Deck.objects.count() == 0
    page.fill("#deck-text", text)
    page.get_by_role("button", name="Save").click()
    page.get_by_role("heading", name="Menus follow the list").wait_for()
    deck = Deck.objects.get()
    assert deck.destiny_id == chosen.pk and deck.faction.slug == "camelot"
    assert chosen.name in page.locator("main").inner_text()


def test_a_saved_deck_changes_its_destiny_from_the_editor(live_server, page, shot):  # noqa: F811
    """Regression: a saved deck's faction and destiny had no control and no hint."""
    from decks.models import Deck
    from decks.services import deck_import_text

    user = _sign_in(page, live_server, "lynette")
    deck = deck_import_text(owner=user, text=CAMELOT, name="Round Table").deck
    pasted, chosen = _starter_destiny(), _other_destiny(_starter_destiny())
    page.goto(live_server.url + f"/decks/{deck.pk}/edit/")
    assert _value(page, "#ed-destiny") == pasted.code
    assert "replaces the one in the decklist" in page.locator("#destiny-help").inner_text()
    assert "replaces the faction card" in page.locator("#faction-help").inner_text()
    page.select_option("#ed-destiny", chosen.code)
    page.locator("#legality li", has_text=chosen.title).wait_for()
    shot("decks-edit-change-destiny")
    page.get_by_role("button", name=re.compile("Save")).click()
    page.get_by_text("Saved as version 2").wait_for()
    deck = Deck.objects.get(pk=deck.pk)
    assert deck.destiny_id == chosen.pk and deck.version == 2
    assert deck.counts.get(pasted.code) is None


def test_without_scripts_the_menus_and_the_list_never_silently_disagree(live_server, browser):  # noqa: F811
    from cards.models import Card
    from decks.models import Deck

    pasted, chosen = _starter_destiny(), _other_destiny(_starter_destiny())
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        _sign_in(page, live_server, "kay")
        page.goto(live_server.url + "/decks/new/")
        page.get_by_label("Name", exact=True).fill("Plain form")
        page.select_option("#ed-destiny", chosen.code)
        page.fill("#deck-text", CAMELOT)
        page.get_by_role("button", name="Save").click()
        alert = page.get_by_role("alert").first
        assert pasted.title in alert.inner_text() and chosen.title in alert.inner_text()
        assert Deck.objects.count() == 0  # the pasted destiny no longer wins silently
        assert _value(page, "#deck-text").strip() == CAMELOT.strip() and _value(page, "#ed-destiny") == chosen.code
        # The menu, changed on its own, replaces the list's destiny; a menu left alone leaves the list as it is.
        page.select_option("#ed-destiny", chosen.code)
        page.get_by_role("button", name="Save").click()
        page.get_by_role("heading", name="Plain form").wait_for()
        deck = Deck.objects.get()
        assert deck.destiny_id == chosen.pk
        page.goto(live_server.url + f"/decks/{deck.pk}/edit/")
        winter = Card.objects.get(type="faction", faction__slug="winter")
        page.select_option("#ed-faction", winter.code)
        page.get_by_role("button", name=re.compile("Save")).click()
        page.get_by_text("Saved as version 2").wait_for()
        deck = Deck.objects.get()
        assert deck.faction.slug == "winter" and deck.destiny_id == chosen.pk
    finally:
        context.close()


def test_restore_and_set_buttons_can_be_seen_and_restoring_asks_first(live_server, page, shot):  # noqa: F811
    """Regression: "restore" in a deck's history and "set" beside "owned" were white on white; restoring happened
    on one click with no confirmation."""
    from decks.models import Deck
    from decks.services import deck_import_text

    user = _sign_in(page, live_server, "gareth")
    deck = deck_import_text(owner=user, text=CAMELOT, name="Kitchen knight").deck
    deck_import_text(owner=user, text=CAMELOT.replace("3x Hedge Knight", "1x Hedge Knight"), name=None, deck=deck)
    page.goto(live_server.url + f"/decks/{deck.pk}/")
    restore = page.get_by_role("link", name=re.compile("restore"))
    assert on_screen(restore) and contrast(restore) >= 4.5, contrast(restore)
    restore.click()
    page.get_by_role("heading", name=re.compile("Restore version 1")).wait_for()
    assert "+2 Hedge Knight" in page.locator(".restore-changes").inner_text()
    assert Deck.objects.get(pk=deck.pk).version == 2  # nothing happened yet
    shot("decks-restore-confirm")
    page.get_by_role("link", name="Cancel").click()
    assert Deck.objects.get(pk=deck.pk).version == 2
    page.get_by_role("link", name=re.compile("restore")).click()
    page.get_by_role("button", name="Restore version 1").click()
    page.get_by_text("Version 1 restored as version 3").wait_for()
    assert Deck.objects.get(pk=deck.pk).counts == Deck.objects.get(pk=deck.pk).versions.get(number=1).cards
    # The card browser beside the editor: one small box of copies owned a row (it was a form of "owned", a box and
    # "set" repeated on every row), saved when its number changes.
    page.goto(live_server.url + f"/decks/{deck.pk}/edit/")
    page.fill("#br-q", "hedge knight")
    page.wait_for_function("() => document.querySelectorAll('#browser-results .browser-card').length === 1 && "
                           "document.querySelector('#browser-results .browser-card').dataset.card === 'Hedge Knight'")
    page.wait_for_load_state("networkidle")
    assert page.locator('#browser-results .own-form button').count() == 0
    assert "owned" not in page.locator("#browser-results .browser-card").first.inner_text()
    # Typed as a person would: a click into the box (the search box loses focus: that searched again and redrew
    # the results, so the typed number went into a box that was no longer there), then the number.
    box = page.locator('#browser-results .own-form input[name=count]').first
    box.click()
    page.wait_for_load_state("networkidle")
    assert box.evaluate("e => e === document.activeElement"), (  # still the box clicked: no redraw under it
        page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)"), box.evaluate("e => e.isConnected"))
    assert on_screen(box)
    box.fill("3")
    box.press("Tab")
    page.wait_for_function("() => document.querySelector('#browser-results .own-form').dataset.state === 'saved'")
    assert page.locator("#edit-status").inner_text() == "Saved: you own 3."
    from decks.selectors import collection_counts

    assert sum(collection_counts(user=user).values()) == 3


def _svg_texts(chart):
    return chart.locator("text").evaluate_all("ts => ts.map(t => [t.textContent, t.getBoundingClientRect().y])")


def test_the_deck_charts_read_right(live_server, page, shot):  # noqa: F811
    """Regression: an empty deck's "Card types" chart said "No data" in huge type; the Power curve skipped values
    nobody had (0, 1, 2, 3, 5, 6: no 4); horizontal bar charts put the largest bar last."""
    from cards.models import Card
    from decks.services import deck_create

    user = _sign_in(page, live_server, "bedivere")
    faction = Card.objects.get(type="faction", faction__slug="camelot")
    # Only a faction card: the editor's live panel and the deck page draw no empty chart.
    lone = deck_create(owner=user, name="Just a banner", counts={faction.code: 1}).deck
    for url in (f"/decks/{lone.pk}/", f"/decks/{lone.pk}/edit/"):
        page.goto(live_server.url + url)
        assert "No data" not in page.locator("main").inner_text()
        assert page.locator(".deck-chart svg text", has_text="No data").count() == 0
        assert page.locator('.deck-chart svg[aria-label="Card types"]').count() == 0
    # Units of Power 1, 2 and 5 only (none of 3 or 4), most of them Camelot, a few Neutral.
    units = {}
    for power, n in ((1, 3), (2, 2), (5, 1)):
        for card in Card.objects.filter(type="unit", power=power, faction__slug__in=("camelot", "neutral"))[:n]:
            units[card.code] = 3 if card.faction.slug == "camelot" else 1
    assert {Card.objects.get(code=c).power for c in units} == {1, 2, 5}
    deck = deck_create(owner=user, name="Gappy", counts={faction.code: 1, **units}).deck
    page.goto(live_server.url + f"/decks/{deck.pk}/")
    power = page.locator('.deck-chart svg[aria-label="Power curve (units)"]')
    labels = [t for t, _ in _svg_texts(power.locator(".axis.x"))]
    assert labels[:5] == ["1", "2", "3", "4", "5"], labels
    factions = page.locator('.deck-chart svg[aria-label="Draw cards by faction"]')
    rows = sorted((y, t) for t, y in _svg_texts(factions.locator(".axis.y")) if t in ("Camelot", "Neutral"))
    counts = {"Camelot": sum(n for c, n in units.items() if Card.objects.get(code=c).faction.slug == "camelot"),
              "Neutral": sum(n for c, n in units.items() if Card.objects.get(code=c).faction.slug == "neutral")}
    top = rows[0][1]
    assert counts[top] == max(counts.values()), (rows, counts)  # the largest bar is the top one
    shot("decks-charts")
