"""At 390 px: the playtest table's Influence track shows each player's whole name (it was cut to "AI (The …").
Screenshots under var/screenshots/polish-*.png."""
import pytest
from django.core.management import call_command

from tests.browser.conftest import browser, shot  # noqa: F401  (shared Playwright fixtures)
from tests.simulator.engines.r1.helpers import CORE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def core_cards(transactional_db):
    call_command("loadcards", str(CORE), verbosity=0)


@pytest.mark.parametrize("width", [1366, 390])
def test_the_playtest_tracks_names_are_whole(live_server, browser, core_cards, width):  # noqa: F811
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    try:
        pg = ctx.new_page()
        pg.set_default_timeout(15_000)
        pg.goto(live_server.url + "/play/")
        pg.select_option("#deck-source", "starter:camelot")
        pg.select_option("#opponent-source", "starter:winter")
        pg.click("#start-game")
        names = pg.locator(".play-track-name")
        assert names.count() == 2
        for i in range(2):
            cut = names.nth(i).evaluate("e => e.scrollWidth - e.clientWidth")
            assert cut <= 1, (width, names.nth(i).inner_text(), cut)
        assert any(n.startswith("AI (") and n.endswith(")") for n in names.all_inner_texts()), names.all_inner_texts()
        assert pg.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1
        pg.locator(".play-track").screenshot(path=f"var/screenshots/polish-track-{width}.png")
    finally:
        ctx.close()


@pytest.mark.parametrize("width", [1366, 390])
def test_changed_pages_fit_the_screen(live_server, browser, core_cards, width):  # noqa: F811
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    try:
        pg = ctx.new_page()
        for name, url in (("regions", "/regions/"), ("search", "/cards/?q=f%3Acamelot+t%3Aunit+c%3C%3D2"),
                          ("strategies", "/regions/strategies/"), ("api", "/api/")):
            pg.goto(live_server.url + url)
            pg.screenshot(path=f"var/screenshots/polish-{name}-{width}.png", full_page=False)
            wide = pg.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert wide <= 1, (url, wide)
        pg.goto(live_server.url + "/regions/")
        assert pg.locator("nav >> text=Round-robin").count() >= 1 or pg.locator("text=Round-robin").count() >= 1
    finally:
        ctx.close()
