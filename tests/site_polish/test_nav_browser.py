"""The navigation bar at 1366 px: every game's links, the game picker and the account on one line (a hosted game's
bar ran to two lines once it had Simulate, Tune, Play and the three games as chips), and the picker takes you to
another game."""
import pytest

from tests.browser.conftest import browser  # noqa: F401  (shared Playwright fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("path", ["/cards/", "/realms/", "/regions/"])
def test_the_bar_is_one_line_on_a_desktop_and_the_picker_switches_game(live_server, browser, path):  # noqa: F811
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("bedivere-of-the-long-name", password="x-long-password-1")
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    try:
        pg = ctx.new_page()
        pg.set_default_timeout(15_000)
        from tests.browser.conftest import sign_in

        sign_in(pg, live_server.url, "bedivere-of-the-long-name", "x-long-password-1")
        pg.goto(live_server.url + path)
        bar = pg.locator(".site-header").bounding_box()
        assert bar["height"] <= 60, bar
        links = pg.locator(".nav-links")
        assert links.get_by_role("link", name="Simulate", exact=True).is_visible()
        assert links.get_by_role("link", name="Play", exact=True).is_visible()
        assert links.get_by_role("link", name="bedivere-of-the-long-name").is_visible()
        picker = links.locator(".game-pick summary")
        picker.click()
        games = links.get_by_role("group", name="Game").get_by_role("link")
        assert games.count() == 3
        games.filter(has_text="The Realm duel").click()
        pg.wait_for_url("**/realms/")
        assert pg.locator(".nav-links .game-pick summary").inner_text().startswith("The Realm duel")
    finally:
        ctx.close()
