"""The card search page in a real browser (Debian's Chromium): live search with htmx, and the same page with
JavaScript switched off."""
import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from playwright.sync_api import expect

from .factories import load_search_set

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

@pytest.fixture
def chromium():
    from tests.browser.conftest import shared_browser  # one Playwright per test session

    return shared_browser()


def test_live_search_updates_results_without_reloading(live_server, chromium):
    load_search_set()
    page = chromium.new_page(viewport={"width": 390, "height": 800})  # a phone
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/cards/?q=s%3Asrch")
    page.evaluate("window.__same_page = true")
    page.get_by_label("Search cards").fill("s:srch k:haste")
    expect(page.locator(".result-count")).to_have_text(re.compile(r"^1 card"))
    assert page.evaluate("window.__same_page") is True  # results swapped in place, no page load
    assert parse_qs(urlsplit(page.url).query)["q"] == ["s:srch k:haste"]  # the address can be shared
    assert page.get_by_role("link", name="Lord of the Marches").is_visible()
    # Filter buttons, view links and pages are boosted links: same page, new address, new results.
    page.get_by_label("Search cards").fill("s:srch a:knight")
    expect(page.locator(".result-count")).to_have_text(re.compile(r"^4 cards"))
    page.get_by_role("navigation", name="Filter by faction").get_by_role("link", name="Saracen Envoy").click()
    expect(page.locator(".result-count")).to_have_text(re.compile(r"^1 card"))
    assert parse_qs(urlsplit(page.url).query)["f"] == ["saracen"]
    assert page.evaluate("window.__same_page") is True
    page.get_by_label("Search cards").fill("s:srch c:seven")
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert "cost must be a whole number" in alert.inner_text()
    page.close()


def test_search_filters_and_card_page_work_without_javascript(live_server, chromium):
    load_search_set()
    context = chromium.new_context(java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/cards/")
    page.get_by_label("Search cards").fill("s:srch a:knight")
    page.get_by_role("button", name="Search").click()
    page.wait_for_url("**q=s%3Asrch+a%3Aknight**")
    assert page.locator(".result-count").inner_text().startswith("4 cards")
    page.get_by_role("navigation", name="Filter by faction").get_by_role("link", name="Saracen Envoy").click()
    assert page.locator(".result-count").inner_text().startswith("1 card")
    page.get_by_role("link", name="Desert Rider").click()
    assert page.get_by_role("heading", name="Desert Rider").is_visible()
    page.get_by_role("link", name="Ravage (1)").click()
    assert "k%3Aravage" in page.url
    context.close()


def test_a_bad_search_shows_its_caret_under_the_fault(live_server, chromium):
    """Regression: "c>>3" put the caret under the "c"; a stray "or" was read as a card name and searched."""
    page = chromium.new_page(viewport={"width": 1366, "height": 800})
    page.set_default_timeout(15_000)
    for query, fault in (("t:unit c>>3", ">3"), ("f:camelot or or", "or")):
        page.goto(live_server.url + "/cards/?" + urlencode({"q": query}))
        alert = page.get_by_role("alert")
        assert "position" in alert.inner_text()
        typed, caret = page.locator(".search-caret").inner_text().split("\n")[:2]
        assert typed == query
        assert caret.index("^") == query.rindex(fault), (query, caret)
        # The caret lines up on screen too: the block is monospaced, so "^" stands under the fault's first letter.
        assert "mono" in page.locator(".search-caret").evaluate("e => getComputedStyle(e).fontFamily")
        assert page.locator(".result-count").count() == 0  # nothing was searched
    page.close()


def test_card_images_come_with_a_legend_of_their_symbols(live_server, chromium):
    """Regression: the card images had no legend for the struggle icons and the Loyalty pips."""
    from cards.models import Card

    card = Card.objects.filter(type="unit", loyalty__gte=1, icon_combat=True).order_by("code").first()
    for width in (1366, 390):
        page = chromium.new_page(viewport={"width": width, "height": 900})
        page.set_default_timeout(15_000)
        page.goto(live_server.url + f"/cards/{card.code}/")
        legend = page.locator("details.card-legend")
        assert legend.get_attribute("open") is not None and legend.is_visible()
        text = legend.inner_text()
        for word in ("combat", "guile", "sorcery", "faith", "Loyalty", "§9.3"):
            assert word in text
        images = legend.locator("img")
        assert images.count() == 5
        page.wait_for_load_state("networkidle")
        sizes = images.evaluate_all("imgs => imgs.map(i => [i.naturalWidth, i.getBoundingClientRect().width])")
        assert all(natural > 0 and 20 <= shown <= 32 for natural, shown in sizes), sizes  # drawn, icon-sized
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.goto(live_server.url + "/cards/?view=grid")  # the image grid has it too, folded
        assert page.locator("details.card-legend summary").is_visible()
        page.close()
    assert chromium.new_context().request.get(live_server.url + "/cards/legend/dragon.png").status == 404
