"""The playtest table of every game in Debian's Chromium, at 1366×900 and 390×844: a game started from the form and
a few decisions played by clicking; at 1366×900 both fields, the score track (Influence, VP, Recognition) and the
decision bar are on screen with the page unscrolled, and a card grows to a readable size on hover; at 390 px the
page never scrolls sideways, the decision bar stays on screen beside the board as it scrolls, and a tap enlarges a
card. The judge sandbox of each game loads and steps in names. Screenshots under var/screenshots/."""
from __future__ import annotations

import os

import pytest
from django.core.management import call_command

from .conftest import SCREENSHOT_DIR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"viewport": {"width": 1366, "height": 900}},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}}
PREFIX = {"r1": "", "realms": "/realms", "regions": "/regions"}
DECISIONS = 6


@pytest.fixture
def player(signed_in_pages):
    from django.contrib.auth import get_user_model

    from cards.games import registry
    from tests.simulator.engines.r1.helpers import CORE

    files = [str(f) for slug in ("realms", "regions") for f in registry.get(slug).hook("data_files")()]
    call_command("loadcards", str(CORE), *files, verbosity=0)   # the card images are drawn from the cards
    get_user_model().objects.create_user("lynette", password="kitchen-knave-7")
    return signed_in_pages("lynette", "kitchen-knave-7")


def _images_drawn(page) -> None:
    """Every card image of the page has arrived (each is drawn on the server the first time it is asked for)."""
    import time
    deadline = time.monotonic() + 30
    while not page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)"):
        assert time.monotonic() < deadline, "a card image did not arrive"
        page.wait_for_timeout(200)   # (wait_for_function evaluates a string: the site's CSP forbids that)


def _shot(page, name: str) -> None:
    _images_drawn(page)
    os.makedirs(SCREENSHOT_DIR, exist_ok=True)
    page.screenshot(path=os.path.join(SCREENSHOT_DIR, f"{name}.png"))


def _box(page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box


def _in_view(page, selector: str) -> bool:
    box, height = _box(page, selector), page.viewport_size["height"]
    width = page.viewport_size["width"]
    return box["y"] >= 0 and box["y"] + box["height"] <= height + 1 and box["x"] >= 0 and \
        box["x"] + box["width"] <= width + 1


def _decide(page) -> None:
    """Click the first option that is not a pass (else the pass) and wait for the table to come back."""
    buttons = page.locator("#options button:not(.pass)")
    if buttons.count() == 0:
        buttons = page.locator("#options button")
    with page.expect_response(lambda r: r.request.method == "POST" and "/act/" in r.url):
        buttons.first.click()
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(PREFIX))
def test_the_table_fits_the_screen_and_its_cards_enlarge(live_server, player, game, size):
    page = player(SIZES[size])
    page.goto(live_server.url + PREFIX[game] + "/play/")
    page.click("#start-game")
    page.wait_for_url(lambda url: "/play/" in url and not url.rstrip("/").endswith("/play"))
    page.wait_for_load_state("networkidle")
    for _ in range(DECISIONS):
        if page.locator("#options button").count() == 0:
            break
        _decide(page)
    assert page.locator("#game-over").count() or page.locator("#options button").count()
    text = page.inner_text("main")
    assert "You choose You" not in text and "player 0" not in text
    width = SIZES[size]["viewport"]["width"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width   # never sideways
    _shot(page, f"play-{game}-{size}")
    if size == "desktop":
        assert page.evaluate("window.scrollY") == 0
        for part in ("#pt-field-1", "#pt-track", "#pt-field-0", "#decision"):
            assert _in_view(page, part), (part, _box(page, part))
        # a card is small on the table and readable on hover
        card = page.locator("#pt-board [data-card-img]").first
        assert card.bounding_box()["width"] < 120
        card.hover()
        preview = page.locator(".pt-preview")
        preview.wait_for(state="visible")
        assert preview.bounding_box()["width"] >= 240 and _in_view(page, ".pt-preview")
        _shot(page, f"play-{game}-{size}-hover")
    else:
        # the decision bar stays on screen wherever the board is scrolled to
        for part in ("#pt-field-1", "#pt-track", "#pt-field-0"):
            page.locator(part).scroll_into_view_if_needed()
            assert _in_view(page, "#decision"), part
        card = page.locator("#pt-board [data-card-img]").first
        card.scroll_into_view_if_needed()
        card.tap()
        preview = page.locator(".pt-preview")
        preview.wait_for(state="visible")
        assert preview.bounding_box()["width"] >= 190 and _in_view(page, ".pt-preview")
        _shot(page, f"play-{game}-{size}-tap")
        card.tap()
        preview.wait_for(state="hidden")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", ["realms", "regions"])
def test_the_sandbox_steps_in_names(live_server, player, game, size):
    import re

    page = player(SIZES[size])
    page.goto(live_server.url + PREFIX[game] + "/play/sandbox/")
    options = page.locator("#sb-options button")
    assert options.count() > 0
    labels = options.all_inner_texts()
    assert not [x for x in labels if re.search(r"\b(fb|hr)-\d{3}\b", x)], labels
    with page.expect_navigation():
        options.first.click()
    assert page.locator("#sb-undo").count() == 1
    assert "Player 0" not in page.inner_text("main")
    width = SIZES[size]["viewport"]["width"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    _shot(page, f"sandbox-{game}-{size}")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", ["realms", "regions"])
def test_a_table_games_replay_steps_with_the_keys(live_server, player, game, size):
    """A game in progress replayed on the run replay's board: → steps, End goes to where the table stands, and at
    390 px the page never scrolls sideways."""
    page = player(SIZES[size])
    page.goto(live_server.url + PREFIX[game] + "/play/")
    page.click("#start-game")
    page.wait_for_url(lambda url: "/play/" in url and not url.rstrip("/").endswith("/play"))
    page.wait_for_load_state("networkidle")
    table = page.url
    for _ in range(3):
        if page.locator("#options button").count() == 0:
            break
        _decide(page)
    page.goto(table + "replay/")
    assert page.locator("#step-no").inner_text().startswith("step 1 / ")
    with page.expect_navigation():
        page.keyboard.press("ArrowRight")
    assert page.url.endswith("?step=1") and page.locator("#step-no").inner_text().startswith("step 2 / ")
    with page.expect_navigation():
        page.keyboard.press("End")
    total = page.locator("#step-no").inner_text().split("/ ")[1]
    assert page.locator("#step-no").inner_text() == f"step {total} / {total}"
    assert page.locator("#step-log").count() == 1 and page.locator("#back-to-table").get_attribute("href")
    width = SIZES[size]["viewport"]["width"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width   # never sideways
    # (no wait for every image: a regions tile's large image is lazy, loaded only when the tile is pointed at)
    page.wait_for_load_state("networkidle")
    os.makedirs(SCREENSHOT_DIR, exist_ok=True)
    page.screenshot(path=os.path.join(SCREENSHOT_DIR, f"play-replay-{game}-{size}.png"))
