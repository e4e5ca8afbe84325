"""What a deck's and a decklist's pages offer (image grid, sample hand, the list as text),
the legality column of My decks, the decklist browser's tiles and its card filter, and the decklists holding a
card on the card's page."""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.decklist import export_decklist, parse_decklist
from decks.pool import CardPool
from decks.services import comment_create, deck_create, decklist_like, decklist_publish
from decks.stats import deck_key_figures, sample_hand

from .cardsets import LEGAL_BASE, small_cards

pytestmark = pytest.mark.django_db


# ---- pure parts ------------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), extra=st.dictionaries(st.sampled_from(["u01", "u02", "spy"]), st.integers(1, 3)))
def test_a_sample_hand_is_seven_draw_cards_never_more_copies_than_the_deck_holds(seed, extra):
    pool = CardPool.from_cards(small_cards())
    counts = dict(LEGAL_BASE) | extra
    hand = sample_hand(counts, pool, random.Random(seed))
    assert len(hand) == 7
    for code, n in Counter(c["code"] for c in hand).items():
        assert pool.get(code)["type"] in ("unit", "location", "attachment", "deed")  # §4: from the draw deck
        assert n <= counts[code]


def test_a_small_deck_gives_the_hand_it_can_and_the_draws_are_spread():
    pool = CardPool.from_cards(small_cards())
    assert [c["code"] for c in sample_hand({"fac-camelot": 1, "u01": 2}, pool, random.Random(3))] == ["u01", "u01"]
    rng = random.Random(7)
    seen = Counter(c["code"] for _ in range(300) for c in sample_hand(LEGAL_BASE, pool, rng))
    draw_codes = {c for c in LEGAL_BASE if pool.get(c)["type"] == "unit"}
    assert set(seen) == draw_codes  # every draw card turns up; no quest, faction card or destiny ever does


def test_key_figures_count_types_and_the_curve_at_the_cost_to_play():
    pool = CardPool.from_cards(small_cards())
    figures = deck_key_figures(dict(LEGAL_BASE, spy=1), pool)
    assert figures["types"]["unit"] == 61 and figures["draw"] == 61 and figures["quests"] == 7
    assert sum(bar["n"] for bar in figures["curve"]) + figures["cost_other"] == 61
    spy = pool.get("spy")
    paid = spy["cost"] + (spy.get("loyalty") or 0)  # off-faction: printed cost + Loyalty (§9.3)
    assert figures["curve"][min(paid, 6)]["n"] >= 1


# ---- deck and decklist pages -------------------------------------------------------------------------------------
@pytest.fixture
def published(small_catalogue, erin):
    deck = deck_create(owner=erin, name="Knights", counts=LEGAL_BASE, is_private=False).deck
    return deck, decklist_publish(deck=deck, title="Knights of Old")


def test_the_image_view_shows_each_card_image_with_its_count(client, published):
    deck, decklist = published
    for url in (deck.get_absolute_url(), decklist.get_absolute_url()):
        listed = client.get(url).content.decode()
        assert 'class="deck-groups"' in listed and 'class="deck-grid"' not in listed
        grid = client.get(url + "?view=images").content.decode()
        assert 'class="deck-grid"' in grid
        assert grid.count('src="/cards/u01.png?size=small"') == 1 and 'aria-label="3 copies"' in grid
        assert 'href="?view=list#cards" class="chip"' in grid  # the way back to the list


def test_a_sample_hand_is_drawn_by_the_server_without_javascript(client, published, small_catalogue):
    deck, decklist = published
    for url in (deck.get_absolute_url(), decklist.get_absolute_url()):
        page = client.get(url).content.decode()
        assert "Draw a sample hand" in page and 'id="hand-deck"' in page
        hand = client.get(url + "?hand=1").content.decode()
        section = hand.split('id="hand-cards"', 1)[1].split("</ol>", 1)[0]
        codes = re.findall(r'href="/cards/([a-z0-9-]+)/"', section)
        assert len(codes) == 7 and all(small_catalogue.get(c)["type"] == "unit" for c in codes)


def test_the_list_as_text_is_on_the_page_to_copy(client, published, small_catalogue):
    deck, decklist = published
    import html

    for url, name in ((deck.get_absolute_url(), deck.name), (decklist.get_absolute_url(), decklist.title)):
        page = client.get(url).content.decode()
        text = html.unescape(page.split('id="export-text"', 1)[1].split(">", 1)[1].split("</textarea>", 1)[0])
        assert text == export_decklist(LEGAL_BASE, small_catalogue, name=name)
        assert parse_decklist(text, small_catalogue).counts == LEGAL_BASE  # copied, it imports as the same deck
        assert 'data-copy="export-text"' in page and "js/deck-tools.js" in page and "js/card-preview.js" in page


def test_my_decks_says_which_decks_are_legal(client, small_catalogue, erin):
    deck_create(owner=erin, name="Ready", counts=LEGAL_BASE)
    deck_create(owner=erin, name="Half done", counts={"fac-camelot": 1, "u01": 3})
    client.force_login(erin)
    page = client.get("/decks/").content.decode()
    assert "<th scope=\"col\">Legal</th>" in page
    rows = {re.search(r'">([^<]+)</a></td>', row).group(1): row for row in page.split("<tr>")[2:]}
    assert "✓ Legal" in rows["Ready"] and "Not legal" not in rows["Ready"]
    assert "✗ Not legal" in rows["Half done"] and "exactly 1 destiny" in rows["Half done"]  # the first problem
    assert "(+2 more)" in rows["Half done"]  # and how many more there are


def test_my_decks_legality_costs_one_query_for_all_cards(client, small_catalogue, erin, django_assert_max_num_queries):
    for i in range(12):
        deck_create(owner=erin, name=f"Deck {i}", counts=LEGAL_BASE)
    client.force_login(erin)
    client.get("/decks/")  # warm the card pool
    with django_assert_max_num_queries(14):
        assert client.get("/decks/").status_code == 200


# ---- the decklist browser ------------------------------------------------------------------------------------
def test_the_browser_shows_tiles_with_faction_colour_and_key_figures(client, published, frank):
    _, decklist = published
    decklist_like(decklist=decklist, user=frank)
    comment_create(decklist=decklist, author=frank, body="nice")
    page = client.get("/decklists/").content.decode()
    tile = page.split('class="decklist-tile faction-camelot"', 1)[1].split("</li>", 1)[0]
    assert "Knights of Old" in tile and "by erin" in tile
    assert "<dt>Units</dt><dd>60</dd>" in tile and "<dt>Deeds</dt><dd>0</dd>" in tile
    assert "60 draw" in tile and "♥ 1" in tile and "1 comment<" in tile
    assert 'aria-label="Cost curve: cost 0:' in tile and tile.count("<rect") == 7
    assert "1 decklist" in page


def test_the_browser_filters_by_a_card_and_refuses_an_unknown_one(client, published, small_catalogue, erin):
    other = {c: n for c, n in LEGAL_BASE.items() if c != "u01"} | {"u02": 3, "spy": 3}
    decklist_publish(deck=deck_create(owner=erin, name="O", counts=other).deck, title="Without knight one")
    both = client.get("/decklists/").content.decode()
    assert "Knights of Old" in both and "Without knight one" in both
    held = client.get("/decklists/?card=u01").content.decode()
    assert "Knights of Old" in held and "Without knight one" not in held and "Holding <a" in held
    for bad in ("nope", "U01;--", "x" * 40):
        answer = client.get("/decklists/", {"card": bad})
        assert answer.status_code == 400 and "remove the card filter" in answer.content.decode()


def test_the_browser_page_does_not_query_per_decklist(client, small_catalogue, erin, django_assert_max_num_queries):
    deck = deck_create(owner=erin, name="K", counts=LEGAL_BASE).deck
    for i in range(20):
        decklist_publish(deck=deck, title=f"List {i}")
    client.get("/decklists/")
    with django_assert_max_num_queries(10):
        page = client.get("/decklists/").content.decode()
    assert page.count('class="decklist-tile faction-') == 20


# ---- the card page ------------------------------------------------------------------------------------------------
def test_a_card_page_lists_the_newest_decklists_using_it_and_links_to_all(client, published, erin):
    deck, first = published
    for i in range(9):
        decklist_publish(deck=deck, title=f"Knights {i}")
    page = client.get("/cards/u01/").content.decode()
    section = page.split('id="card-decklists-h"', 1)[1].split("</section>", 1)[0]
    assert "10 published decklists hold" in section and "the newest 8" in section
    assert "Knights 8" in section and "Knights of Old" not in section  # the oldest is past the newest 8
    assert 'href="/decklists/?card=u01"' in section
    assert "No published decklist holds" in client.get("/cards/spy/").content.decode()
