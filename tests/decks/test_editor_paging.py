"""The deck editors' card browsers as a new user met them: r1's stopped at 60 cards with no paging and repeated an
"owned [0] set" form on every row; the hosted games' stopped at 40, had + but no −, and their editor had no
statistics."""
import re

import pytest
from django.core.management import call_command
from django.test import Client

from cards.games.realms import SET_FILE, STARTERS_DIR

pytestmark = pytest.mark.django_db


def test_r1_browser_pages_past_sixty_and_owns_with_one_small_box(client, django_user_model):
    from cards.models import Card

    total = Card.objects.count()
    assert total > 120   # the core set: three pages at least
    first = client.get("/decks/browser/?q=", HTTP_HX_REQUEST="true").content.decode()
    assert f"Cards 1–60 of {total}" in first
    nxt = re.search(r'<a href="([^"]+)" hx-get="[^"]+" hx-target="#browser-results" rel="next">', first).group(1)
    assert "page=2" in nxt
    second = client.get(nxt.replace("&amp;", "&"), HTTP_HX_REQUEST="true").content.decode()
    assert f"Cards 61–120 of {total}" in second and 'rel="prev"' in second
    first_titles = set(re.findall(r'data-card="([^"]+)"', first))
    second_titles = set(re.findall(r'data-card="([^"]+)"', second))
    assert len(second_titles) == 60 and not first_titles & second_titles
    # filters ride along the pages; a page that is not a number or past the last is no error
    assert client.get("/decks/browser/?q=&page=zz", HTTP_HX_REQUEST="true").status_code == 200
    last = client.get("/decks/browser/?q=&page=999", HTTP_HX_REQUEST="true").content.decode()
    assert f"of {total}" in last and 'rel="next"' not in last
    # signed in: one small box a row, no "owned" label and no "set" button repeated on every row
    user = django_user_model.objects.create_user("kay", password="pw-kay-123456")
    client.force_login(user)
    rows = client.get("/decks/browser/?q=", HTTP_HX_REQUEST="true").content.decode()
    assert rows.count('class="own-form"') == 60 and rows.count('name="count"') == 60
    assert ">set</button>" not in rows and ">owned</label>" not in rows and 'hx-trigger="change"' in rows


def test_r1_browser_pages_keep_the_filters(client):
    page = client.get("/decks/browser/?q=&type=unit", HTTP_HX_REQUEST="true").content.decode()
    nxt = re.search(r'href="([^"]+)"[^>]*rel="next"', page)   # the core set's units fill more than one page
    assert nxt and "type=unit" in nxt.group(1) and "page=2" in nxt.group(1)


@pytest.fixture
def realms(capsys):
    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()


def test_realms_browser_pages_and_has_minus(realms):
    c = Client()
    first = c.get("/realms/decks/browser/?q=").content.decode()
    total = int(re.search(r"Cards 1–40 of (\d+)", first).group(1))
    assert total > 80
    assert first.count('name="remove"') == 40 and first.count('name="add"') == 40
    second = c.get("/realms/decks/browser/?q=&page=2").content.decode()
    assert f"Cards 41–80 of {total}" in second and "page 2 of" in second
    assert not set(re.findall(r'value="([\w-]+)"', first)) & set(re.findall(r'value="([\w-]+)"', second))
    assert c.get("/realms/decks/browser/?q=&page=-3").status_code == 200


def test_realms_editor_shows_statistics_as_r1s(realms):
    c = Client()
    text = (STARTERS_DIR / "ashen.txt").read_text()
    live = c.post("/realms/decks/live/", {"text": text, "fmt": "standard"}).content.decode()
    assert "Statistics" in live
    for chart in ("chart-cost", "chart-types", "chart-resources"):
        assert f'id="{chart}"' in live, chart
    assert re.search(r'<svg role="img" aria-label="Cost curve"', live)
    page = c.get("/realms/decks/new/?starter=The%20Ashen").content.decode()
    assert 'href="/decks/charts.css"' in page and 'id="chart-types"' in page
    empty = c.post("/realms/decks/live/", {"text": "", "fmt": "standard"}).content.decode()
    assert "chart-cost" not in empty
