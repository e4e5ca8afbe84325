"""Error answers are the site's own pages: a hand-edited address that finds nothing, a refused form and a server
error read like the rest of the site (its navigation and a way back), not a bare browser page."""
import pytest
from django.template.loader import render_to_string

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_the_sites_own_404(client):
    r = client.get("/decks/999999999/")
    page = r.content.decode()
    assert r.status_code == 404
    assert "Not found" in page and 'class="site-header"' in page and 'href="/"' in page


def test_a_refused_query_names_its_problem_on_the_sites_page(client):
    r = client.get("/cards/?q=%00")
    page = r.content.decode()
    assert r.status_code == 400
    assert "Bad request" in page and "NUL" in page and 'class="site-header"' in page


def test_a_refused_query_still_answers_json_to_the_api(client):
    r = client.get("/api/cards/?q=%00")
    assert r.status_code == 400 and "NUL" in r.json()["detail"]


def test_the_500_page_renders_without_a_request():
    # Django renders 500.html with no context at all: it must not need the site's context processors
    page = render_to_string("500.html")
    assert "Something went wrong" in page and "nothing you sent was changed" in page
