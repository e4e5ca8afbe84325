"""Every example on /cards/syntax/ returns exactly what the page says it does (cards.search.SYNTAX_EXAMPLES)."""
import pytest
from django.test import Client
from django.utils.html import escape

from cards.models import Card
from cards.search import SYNTAX_EXAMPLES, card_matches, search_cards
from cards.views import search_url

from .factories import card_dict, load_search_set


@pytest.fixture
def all_cards(db):
    load_search_set()
    return [card_dict(c) for c in Card.objects.select_related("faction", "card_set")]


@pytest.mark.parametrize("example", SYNTAX_EXAMPLES, ids=[e.query for e in SYNTAX_EXAMPLES])
def test_help_page_example_returns_what_the_page_says(all_cards, example):
    expected = {c["code"] for c in all_cards if example.check(c)}
    found = {c.code for c in search_cards(example.query)}
    assert found == expected
    assert {c["code"] for c in all_cards if card_matches(example.query, c)} == expected


@pytest.mark.parametrize("example", [e for e in SYNTAX_EXAMPLES if e.query != "s:core"],
                         ids=[e.query for e in SYNTAX_EXAMPLES if e.query != "s:core"])
def test_help_page_example_finds_something_in_the_test_set(all_cards, example):
    # A check that matches nothing could not tell a right answer from a wrong one.
    assert search_cards(f"s:srch ({example.query})").exists()


def test_help_page_renders_every_example_with_a_working_link(all_cards):
    page = Client().get("/cards/syntax/").content.decode()
    for example in SYNTAX_EXAMPLES:
        link = escape(search_url(example.query))
        assert f'<a href="{link}"><code>{escape(example.query)}</code></a>' in page, example.query
        assert escape(example.meaning) in page
        count = search_cards(example.query).count()
        assert f"<td>{count} card{'' if count == 1 else 's'}</td>" in page, example.query
