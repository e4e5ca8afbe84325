"""Every game's rulebook page in Debian's Chromium at 1366 and 390 px: nothing scrolls sideways, the contents
and the sections are there, a contents link lands on its section. Screenshots in var/screenshots/rules-*.png."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import browser  # noqa: F401  (shared Playwright fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path(__file__).resolve().parents[1] / "var" / "screenshots"


@pytest.mark.parametrize("slug, url, section", [("realms", "/realms/rules/", "s14"),
                                                 ("regions", "/regions/rules/", "s4.2"),
                                                 ("r1", "/rules/", "s6.2")])
def test_rulebook_pages_fit_at_both_widths(live_server, browser, slug, url, section):  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1366, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(live_server.url + url)
        page.screenshot(path=str(SHOTS / f"rules-{slug}-{width}.png"), full_page=False)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.locator(".rules-toc li").count() > 10
        page.locator(f'.rules-toc a[href="#{section}"]').click()
        assert page.evaluate("location.hash") == f"#{section}"
        top = page.evaluate(f"document.getElementById('{section}').getBoundingClientRect().top")
        assert 0 <= top < 900
        page.screenshot(path=str(SHOTS / f"rules-{slug}-{width}-section.png"), full_page=False)
        context.close()
