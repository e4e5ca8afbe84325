"""The catalogue pages: /cards/, /cards/CODE/, /cards/syntax/ and the home page."""
import re

import pytest
from django.test import Client

from .factories import load_search_set


@pytest.fixture
def srch(db):
    return load_search_set()


@pytest.fixture
def client():
    return Client()


def test_card_list_searches_and_links_every_card(srch, client):
    r = client.get("/cards/", {"q": "s:srch a:knight"})
    assert r.status_code == 200
    html = r.content.decode()
    assert "4 cards found" in html
    for code in ("srch-squire", "srch-squire-vet", "srch-lord", "srch-rider"):
        assert f'href="/cards/{code}/"' in html
    assert "srch-witch" not in html
    assert 'role="search"' in html and '<label for="q"' in html


def test_malformed_query_is_an_inline_message_not_a_500(srch, client):
    r = client.get("/cards/", {"q": "t:unit c:seven"})
    assert r.status_code == 200
    html = r.content.decode()
    assert 'role="alert"' in html
    assert "cost must be a whole number, x or -, not &quot;seven&quot;" in html
    assert "position 8" in html
    assert 'aria-invalid="true"' in html


@pytest.mark.parametrize("params", [
    {"q": '"'}, {"q": "(((("}, {"q": "owned:yes"}, {"sort": "nonsense"}, {"page": "abc"}, {"page": "999"},
    {"f": "mordor"}, {"t": "spell"}, {"view": "carousel"}, {"q": "x" * 2000},
])
def test_any_input_renders_a_page(srch, client, params):
    assert client.get("/cards/", params).status_code == 200


def test_faction_and_type_filter_buttons_combine_with_the_query(srch, client):
    html = client.get("/cards/", {"q": "s:srch", "f": "camelot", "t": "unit"}).content.decode()
    assert "3 cards found" in html
    # The active faction button turns the filter off again and keeps the other parameters.
    active = re.search(r'<a href="([^"]+)" class="chip faction-camelot active" aria-current="true">', html)
    assert active and "f=" not in active.group(1) and "t=unit" in active.group(1) and "q=s%3Asrch" in active.group(1)
    assert 'href="/cards/?q=s%3Asrch&amp;f=winter&amp;t=unit"' in html


def test_grid_view_shows_card_images(srch, client):
    html = client.get("/cards/", {"q": "s:srch t:quest", "view": "grid"}).content.decode()
    assert '<img src="/cards/srch-quest-gold.png" alt="Road of Gold"' in html
    assert "card-table" not in html


def test_pagination_links_keep_the_query(srch, client):
    html = client.get("/cards/", {"q": "s:srch", "view": "grid"}).content.decode()  # 24 per page: one page
    assert 'rel="next"' not in html
    from .factories import CardFactory
    for i in range(30):
        CardFactory(name=f"Pager {i:02d}")
    html = client.get("/cards/", {"q": "pager", "view": "grid"}).content.decode()
    assert "page 1 of 2" in html
    assert 'href="/cards/?q=pager&amp;view=grid&amp;page=2" rel="next"' in html
    html2 = client.get("/cards/", {"q": "pager", "view": "grid", "page": 2}).content.decode()
    assert "Pager 29" in html2 and "Pager 00" not in html2


def test_htmx_request_gets_only_the_results_partial(srch, client):
    r = client.get("/cards/", {"q": "s:srch t:quest"}, headers={"HX-Request": "true"})
    html = r.content.decode()
    assert "<html" not in html and "Road of Gold" in html and 'aria-label="Filter by faction"' in html
    assert "HX-Request" in r["Vary"]
    full = client.get("/cards/", {"q": "s:srch t:quest"}).content.decode()
    assert "<html" in full and 'hx-get="/cards/"' in full


def test_sort_options(srch, client):
    html = client.get("/cards/", {"q": "s:srch t:unit -p:x", "sort": "-power"}).content.decode()
    assert '<option value="-power" selected>' in html
    assert html.index("Desert Rider") < html.index("Squire of the Vale")


def test_card_page_shows_image_fields_and_search_links(srch, client):
    r = client.get("/cards/srch-lord/")
    assert r.status_code == 200
    html = r.content.decode()
    assert '<img src="/cards/srch-lord.png"' in html
    for href in ("/cards/?q=a%3AKnight", "/cards/?q=a%3ALord", "/cards/?q=k%3Ahaste", "/cards/?q=k%3Aglory",
                 "/cards/?q=f%3Acamelot", "/cards/?q=t%3Aunit", "/cards/?q=c%3A4", "/cards/?q=p%3A4",
                 "/cards/?q=i%3Acombat", "/cards/?q=i%3Afaith", "/cards/?q=l%3A2", "/cards/?q=s%3Asrch"):
        assert f'href="{href}"' in html, href
    assert "Haste (2)" in html and "Action: Exhaust this unit to gain 1 wealth." in html


def test_card_page_quotes_attributes_with_spaces_and_lists_same_name_cards(srch, client):
    html = client.get("/cards/srch-shade/").content.decode()
    assert 'href="/cards/?q=a%3A%22Round+Table%22"' in html
    html = client.get("/cards/srch-squire/").content.decode()
    assert 'href="/cards/srch-squire-vet/"' in html and "share one copy limit" in html
    html = client.get("/cards/srch-destiny/").content.decode()
    assert "At most 2 copies of each card name" in html and "Le Fay" in html


def test_card_page_links_really_find_the_card(srch, client):
    html = client.get("/cards/srch-shade/").content.decode()
    links = re.findall(r'href="(/cards/\?q=[^"]+)"', html)
    assert len(links) >= 6
    from urllib.parse import parse_qs, urlsplit
    for link in links:
        q = parse_qs(urlsplit(link.replace("&amp;", "&")).query)["q"][0]
        # Narrowed to the card's name so that the answer fits on one page whatever else is loaded.
        found = client.get("/cards/", {"q": f"({q}) shade"}).content.decode()
        assert 'href="/cards/srch-shade/"' in found, link


def test_card_page_links_to_the_previous_and_next_card_of_its_set(srch, client):
    html = client.get("/cards/srch-lord/").content.decode()  # number 3
    assert 'href="/cards/srch-squire-vet/" rel="prev"' in html
    assert 'href="/cards/srch-witch/" rel="next"' in html
    first = client.get("/cards/srch-squire/").content.decode()
    assert 'rel="prev"' not in first and 'href="/cards/srch-squire-vet/" rel="next"' in first


def test_unknown_card_page_is_404(db, client):
    assert client.get("/cards/no-such-card/").status_code == 404


def test_home_page_has_search_factions_and_featured_cards(srch, client):
    html = client.get("/").content.decode()
    assert 'action="/cards/"' in html and 'name="q"' in html
    assert 'href="/cards/?f=camelot"' in html and "The Winter Court" in html
    assert html.count('<img src="/cards/') == 6


def test_featured_cards_are_draw_cards_fixed_for_a_day(srch):
    import datetime

    from cards.selectors import featured_cards

    day = datetime.date(2026, 11, 29)
    first = [c.code for c in featured_cards(count=6, day=day)]
    assert len(first) == 6 and first == [c.code for c in featured_cards(count=6, day=day)]
    assert all(c.type in ("unit", "location", "attachment", "deed") for c in featured_cards(count=6, day=day))
    week = {tuple(c.code for c in featured_cards(count=6, day=day + datetime.timedelta(days=i))) for i in range(7)}
    assert len(week) > 1


def test_no_match_says_so_and_points_to_the_syntax(srch, client):
    html = client.get("/cards/", {"q": "s:srch zzzzqqq"}).content.decode()
    assert "0 cards found" in html and "No card matches" in html and 'href="/cards/syntax/"' in html
