"""A deck's and a decklist's tools in Debian's Chromium, as a player uses it, at 1366 px and 390 px: card previews on hover
(and none on touch), the image grid, sample hands, copying the list, comments with moderation, the decklist
browser's tiles (seeded with the starters), the decklists holding a card, legality in My decks, and choosing
saved decks on the simulate page. No Content-Security-Policy violation anywhere."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOT_DIR, browser, page, shot  # noqa: F401  (shared Playwright fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase-19"
WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline'));
});
"""


def _user(name: str, **extra):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(name, password=PASSWORD, **extra)


def _log_in(pg, base: str, name: str):
    pg.goto(base + "/accounts/login/")
    pg.get_by_label("Username").fill(name)
    pg.get_by_label("Password").fill(PASSWORD)
    pg.get_by_role("button", name="Log in").click()
    pg.wait_for_url(re.compile(r"^(?!.*/accounts/login/).*$"))


def _starter_deck(owner, slug: str, name: str, *, private: bool = True):
    from cards.starters import starter
    from decks.services import deck_import_text

    return deck_import_text(owner=owner, text=starter(slug).text, name=name, is_private=private).deck


def _draw_cards(deck) -> int:
    """How many draw cards a deck holds (every card but its faction, destiny and quests), so the page's counts are
    checked against the list as it is, not a number pinned to one version of a starter."""
    from cards.models import Card

    types = dict(Card.objects.filter(code__in=deck.counts).values_list("code", "type"))
    return sum(n for code, n in deck.counts.items() if types.get(code) not in ("faction", "destiny", "quest"))


def _context(browser, width: int, **kwargs):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 900}, **kwargs)
    context.add_init_script(WATCH_CSP)
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    return context, pg


def _shot(pg, name: str):
    import os

    os.makedirs(SCREENSHOT_DIR, exist_ok=True)
    pg.screenshot(path=os.path.join(SCREENSHOT_DIR, f"{name}.png"), full_page=True)


def _no_csp_violation(pg):
    assert pg.evaluate("window.__csp") == []


def _fits(pg, width: int):
    assert pg.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling


def test_deck_page_previews_grid_sample_hand_and_copy(live_server, browser):  # noqa: F811
    ada = _user("ada")
    deck = _starter_deck(ada, "camelot", "Round Table")
    context, pg = _context(browser, 1366)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    try:
        _log_in(pg, live_server.url, "ada")
        pg.goto(f"{live_server.url}/decks/{deck.pk}/")
        preview = pg.locator("img.card-preview")
        expect(preview).to_have_count(0)
        gawain = pg.locator(".deck-groups a", has_text="Gawain")
        gawain.hover()  # Playwright scrolls it into view first: the preview stays while the pointer is on the name
        expect(preview).to_be_visible()
        assert "/cards/" in preview.get_attribute("src") and preview.get_attribute("src").endswith(".png?size=small")
        box = preview.bounding_box()
        assert box["width"] == 250 and box["x"] + box["width"] <= 1366
        pg.mouse.move(5, 5)
        expect(preview).to_be_hidden()

        hand = pg.locator("#hand-cards li")
        expect(hand).to_have_count(0)
        pg.get_by_role("button", name="Draw a sample hand").click()
        expect(hand).to_have_count(7)
        expect(pg.locator("#hand-status")).to_have_text(f"7 cards drawn; {_draw_cards(deck) - 7} left in the deck.")
        first = [hand.nth(i).inner_text() for i in range(7)]
        pg.get_by_role("button", name="Draw one more").click()
        expect(hand).to_have_count(8)
        hands = {tuple(first)}
        for _ in range(5):  # a redraw is a new hand: six 7-card hands from about 60 cards are never all the same
            pg.get_by_role("button", name="Draw a new hand").click()
            expect(hand).to_have_count(7)
            hands.add(tuple(hand.nth(i).inner_text() for i in range(7)))
        assert len(hands) > 1
        titles = [t for h in hands for t in h]
        assert not any(t.startswith(("Camelot, Court", "Seek the Holy Grail", "Alliance of Kings")) for t in titles)
        pg.locator("#hand-cards img").first.wait_for()
        _shot(pg, "deck-sample-hand-1366")

        pg.get_by_role("button", name="Copy the list as text").click()
        expect(pg.locator(".copy-status")).to_contain_text("Copied")
        copied = pg.evaluate("navigator.clipboard.readText()")
        assert copied.startswith("# Round Table") and "3x Gawain, Sun-Strengthened" in copied

        pg.get_by_role("link", name="Images", exact=True).click()
        pg.wait_for_url("**view=images**")
        expect(pg.locator(".deck-grid img")).to_have_count(pg.locator(".deck-grid li").count())
        pg.locator(".deck-grid img").last.scroll_into_view_if_needed()
        _shot(pg, "deck-images-1366")
        _no_csp_violation(pg)
    finally:
        context.close()

    phone, small = _context(browser, 390, has_touch=True, is_mobile=True, storage_state=None)
    try:
        _log_in(small, live_server.url, "ada")
        small.goto(f"{live_server.url}/decks/{deck.pk}/?view=images")
        _fits(small, 390)
        _shot(small, "deck-images-390")
        small.goto(f"{live_server.url}/decks/{deck.pk}/")
        small.get_by_role("button", name="Draw a sample hand").tap()
        expect(small.locator("#hand-cards li")).to_have_count(7)
        _fits(small, 390)
        _shot(small, "deck-sample-hand-390")
        link = small.locator(".deck-groups a", has_text="Gawain")
        link.scroll_into_view_if_needed()
        link.tap()  # a tap follows the link: no preview left over a phone's screen
        small.wait_for_url("**/cards/**")
        assert small.locator("img.card-preview.is-shown").count() == 0
        _no_csp_violation(small)
    finally:
        phone.close()


def test_comments_posted_hidden_by_the_author_and_unseen_by_others(live_server, browser):  # noqa: F811
    from decks.services import decklist_publish

    erin, _ = _user("erin"), _user("frank")
    decklist = decklist_publish(deck=_starter_deck(erin, "winter", "Frost"), title="Long Cold Night")
    url = f"{live_server.url}{decklist.get_absolute_url()}"
    context, pg = _context(browser, 1366)
    try:
        _log_in(pg, live_server.url, "frank")
        pg.goto(url)
        pg.evaluate("window.__stayed = true")  # gone if the page reloads: htmx swaps the panel only
        box = pg.get_by_label("Add a comment (Markdown)")
        box.fill("Too long " * 600)
        pg.get_by_role("button", name="Post comment").click()
        expect(pg.locator("#comment-error")).to_contain_text("at most 5,000")
        assert pg.get_by_label("Add a comment (Markdown)").input_value().startswith("Too long Too long")
        # the long text's own preview (sent 500 ms after typing) may still be on its way: let it land first, or it
        # can replace the preview of what is typed next
        pg.wait_for_timeout(700)
        pg.wait_for_load_state("networkidle")
        pg.get_by_label("Add a comment (Markdown)").fill("**Frost Maiden** early, then *Rime Knight*.\n\n- more deeds?")
        expect(pg.locator("#comment-preview strong")).to_have_text("Frost Maiden", timeout=15_000)  # a debounced request: slow on a busy machine
        pg.get_by_role("button", name="Post comment").click()
        comment = pg.locator("article.comment")
        expect(comment).to_have_count(1)
        expect(comment.locator("strong", has_text="Frost Maiden")).to_be_visible()
        expect(pg.get_by_label("Add a comment (Markdown)")).to_have_value("")
        assert pg.evaluate("window.__stayed") is True
        expect(pg.locator("#comments-h")).to_have_text("Comments (1)")
        expect(comment.get_by_role("button", name="Hide")).to_have_count(0)  # the writer cannot hide it
        _shot(pg, "decklist-comments-1366")
        _no_csp_violation(pg)
    finally:
        context.close()

    context, pg = _context(browser, 390)
    try:
        _log_in(pg, live_server.url, "erin")
        pg.goto(url + "#comments")
        pg.locator("article.comment").get_by_role("button", name="Hide").click()
        expect(pg.locator("article.comment-hidden")).to_have_count(1)
        expect(pg.locator(".comment-state")).to_contain_text("Hidden")
        _fits(pg, 390)
        _shot(pg, "decklist-comments-hidden-390")
        _no_csp_violation(pg)
    finally:
        context.close()

    context, pg = _context(browser, 1366)
    try:
        pg.goto(url)
        expect(pg.locator("#comments")).to_contain_text("No comments yet")
        expect(pg.locator("#comments")).to_contain_text("Log in to comment")
    finally:
        context.close()


def test_decklist_browser_tiles_card_page_and_my_decks(live_server, browser):  # noqa: F811
    from django.core.management import call_command

    call_command("publishstarters", verbosity=0)
    ada = _user("ada")
    _starter_deck(ada, "lefay", "Circle")
    from decks.services import deck_create

    deck_create(owner=ada, name="Unfinished", counts={})
    for width in (1366, 390):
        context, pg = _context(browser, width)
        try:
            pg.goto(live_server.url + "/decklists/")
            tiles = pg.locator(".decklist-tile")
            expect(tiles).to_have_count(7)
            camelot = pg.locator(".decklist-tile.faction-camelot")
            expect(camelot).to_have_count(1)
            colour = camelot.evaluate("e => getComputedStyle(e).borderLeftColor")
            assert colour == "rgb(47, 95, 168)"  # --camelot: the faction's own colour
            expect(camelot.locator(".tile-types")).to_contain_text("Units")
            assert camelot.locator(".tile-curve rect").count() == 7
            from decks.management.commands.publishstarters import STARTER_ACCOUNT
            from decks.models import Deck
            published = Deck.objects.get(owner__username=STARTER_ACCOUNT, name__icontains="Camelot")
            expect(camelot.locator(".tile-counts")).to_contain_text(f"{_draw_cards(published)} draw")
            _fits(pg, width)
            _shot(pg, f"decklists-tiles-{width}")
            pg.goto(live_server.url + "/cards/")
            pg.goto(live_server.url + "/cards/?q=" + "Hedge Knight")
            pg.get_by_role("link", name="Hedge Knight").first.click()
            section = pg.locator(".card-decklists")
            expect(section).to_contain_text("published decklist")
            section.get_by_role("link").first.click()
            pg.wait_for_url("**/decklists/**")
            _no_csp_violation(pg)
            _log_in(pg, live_server.url, "ada")
            pg.goto(live_server.url + "/decks/")
            rows = pg.locator(".deck-table tbody tr")
            expect(rows.filter(has_text="Circle").locator(".legality")).to_contain_text("Legal")
            expect(rows.filter(has_text="Unfinished").locator(".legality")).to_contain_text("Not legal")
            _shot(pg, f"my-decks-legality-{width}")
        finally:
            context.close()


def test_simulate_page_takes_my_saved_decks_for_both_sides(live_server, browser, monkeypatch):  # noqa: F811
    from simulator import tasks
    from simulator.models import SimulationRun

    monkeypatch.setattr(tasks.start_run, "apply_async", lambda *args, **kwargs: None)
    ada = _user("ada")
    mine = _starter_deck(ada, "camelot", "My knights")
    other = _starter_deck(ada, "winter", "My frost")
    for width in (1366, 390):
        context, pg = _context(browser, width)
        try:
            _log_in(pg, live_server.url, "ada")
            pg.goto(live_server.url + "/simulate/")
            expect(pg.get_by_role("button", name="Load")).to_have_count(0)  # with a script the choice loads at once
            pg.get_by_label("or one of my decks:").first.select_option(label="My knights · Camelot")
            expect(pg.locator("#sim-text")).to_have_value(re.compile(r"^# My knights"))
            pg.locator("#sim-opponent").fill("3x something I was typing")
            pg.locator("#sim-my-opponent").select_option(str(other.pk))
            expect(pg.locator("#sim-opponent")).to_have_value(re.compile(r"^# My frost"))
            expect(pg.locator("#sim-text")).to_have_value(re.compile(r"^# My knights"))  # the deck is kept
            assert pg.is_checked('input[name="mode"][value="versus"]')
            _fits(pg, width)
            _shot(pg, f"simulate-saved-decks-{width}")
            pg.get_by_label("Games (or hands sampled)").fill("100")
            pg.get_by_role("button", name="Simulate", exact=True).click()
            pg.wait_for_url("**/simulate/runs/**")
            run = SimulationRun.objects.order_by("-pk").first()
            assert run.deck_version.deck_id == mine.pk and run.opponent_version.deck_id == other.pk
            _no_csp_violation(pg)
        finally:
            context.close()
