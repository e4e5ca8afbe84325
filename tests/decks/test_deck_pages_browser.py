"""Deck and decklist pages as a new user met them (Confusing), in Debian's Chromium: tags on the deck
page, Markdown headings and code in notes, no Like button on one's own decklist, the author filter by part of a
name, and the import errors said once."""
from __future__ import annotations

import re

import pytest

from tests.browser.conftest import browser, page, shot  # noqa: F401  (shared Playwright fixtures)

from .test_validatedeck import STARTERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CAMELOT = next(p for p in STARTERS if p.stem == "camelot").read_text(encoding="utf-8")
NOTES = "# Plan\n\nMulligan for Knights.\n\n## Early game\n\n```\n3x Hedge Knight\n2x Squire\n```\n\n### Late\n"


def _sign_in(page, live_server, name):  # noqa: F811
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(name, password=f"{name}-pw-4242")
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(f"{name}-pw-4242")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state("load")
    return user


def test_the_deck_page_shows_tags_and_notes_headings_and_code(live_server, page, shot):  # noqa: F811
    """Regression: tags showed in the My decks table only; `#` and `##` headings were plain text; fenced code was
    inline."""
    from decks.services import deck_import_text

    user = _sign_in(page, live_server, "tor")
    deck = deck_import_text(owner=user, text=CAMELOT, name="Tagged", tags=["aggro", "tourney"], notes=NOTES).deck
    page.goto(live_server.url + f"/decks/{deck.pk}/")
    tags = page.get_by_label("Tags")
    assert tags.get_by_role("link", name="aggro").is_visible() and tags.get_by_role("link", name="tourney").is_visible()
    notes = page.get_by_label("Notes")
    plan, early, late = (notes.get_by_role("heading", name=n) for n in ("Plan", "Early game", "Late"))
    assert plan.evaluate("e => e.tagName") == "H3" and early.evaluate("e => e.tagName") == "H4"
    size = lambda loc: float(loc.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))  # noqa: E731
    body = float(notes.locator("p").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size(plan) > size(early) > body and size(late) >= body  # they read as headings, largest first
    code = notes.locator("pre code")
    assert code.count() == 1 and code.inner_text().splitlines() == ["3x Hedge Knight", "2x Squire"]
    assert code.evaluate("e => getComputedStyle(e.parentElement).display") == "block"
    shot("decks-page-tags-notes")
    tags.get_by_role("link", name="aggro").click()
    page.get_by_text("Decks tagged").wait_for()
    assert page.get_by_role("link", name="Tagged").is_visible()


def test_an_author_sees_no_like_button_and_the_author_filter_takes_part_of_a_name(live_server, page):  # noqa: F811
    from decks.services import deck_import_text, decklist_publish

    user = _sign_in(page, live_server, "Guinevere")
    decklist = decklist_publish(deck=deck_import_text(owner=user, text=CAMELOT, name="Mine").deck, title="Queen's list")
    page.goto(live_server.url + decklist.get_absolute_url())
    assert page.get_by_role("button", name=re.compile("Like")).count() == 0
    assert "your own decklist" in page.locator("main").inner_text()
    page.goto(live_server.url + "/decklists/")
    page.get_by_label("Author").fill("guin")
    page.get_by_label("Author").press("Enter")
    page.wait_for_url(re.compile(r"author=guin"))
    assert page.get_by_role("link", name="Queen's list").is_visible()


def test_an_unreadable_import_says_each_line_once(live_server, page):  # noqa: F811
    """Regression: "Line 2: Line 2: cannot read …", after a summary repeating the first error; the collection CSV
    did the same, emptied the pasted text after an error and replaced the whole collection by default."""
    _sign_in(page, live_server, "percival")
    page.goto(live_server.url + "/decks/")
    page.get_by_role("textbox", name="Decklist").fill("3x Hedge Knight\n2x Sir Nobody\nthree knights please")
    page.get_by_role("button", name="Import", exact=True).click()
    alert = page.get_by_role("alert")
    assert alert.inner_text() == "2 lines could not be read, so nothing was saved. Correct them and try again:"
    items = page.locator("ul.problems li").all_inner_texts()
    assert len(items) == 2 and all(i.count("Line ") == 1 for i in items), items
    assert items[0].startswith("Line 2:") and items[1].startswith("Line 3:")
    page.goto(live_server.url + "/collection/")
    assert page.get_by_label("Update the cards in this file").is_checked()  # not the destructive one
    page.get_by_label("or paste").fill("code,count\nSir Nobody,2")
    page.get_by_role("button", name="Import").click()
    assert "1 row could not be read, so nothing was saved" in page.get_by_role("alert").inner_text()
    assert page.locator("ul.problems li").inner_text().count("Line ") == 1
    assert page.get_by_label("or paste").input_value() == "code,count\nSir Nobody,2"  # kept to correct
