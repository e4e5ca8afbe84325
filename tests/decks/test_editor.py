"""The deck editor as a player uses it: guided steps, the live side (legality with rule and fix, the deck
grouped by type with effective costs and inline problems, charts, opening odds), the card browser, and the
"copies owned" form on card pages."""
from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model

from decks.charts import chart_css, deck_charts
from decks.services import collection_set, deck_create
from decks.stats import deck_stats

from .cardsets import LEGAL_BASE

pytestmark = pytest.mark.django_db


@pytest.fixture
def kay(db):
    return get_user_model().objects.create_user("kay", password="pw-kay-123456")


def test_s9_3_cost_chart_draws_the_loyalty_part_apart(pool):
    stats = deck_stats(dict(LEGAL_BASE, spy=3), pool)
    charts = {c["id"]: c for c in deck_charts(stats)}
    assert {"cost", "power", "icons", "types", "factions", "attributes", "quests", "setup"} <= set(charts)
    cost = charts["cost"]["svg"]
    assert cost.startswith("<svg") and 'role="img"' in cost and "<script" not in cost and "<style" not in cost
    assert "off-faction, cost + Loyalty (§9.3)" in cost
    raised = stats["surcharged_curve"]
    spy_cost = pool.get("spy")["cost"] + pool.get("spy")["loyalty"]
    assert raised == {str(spy_cost): 3}
    # the chart's text summary is what a screen reader hears: effective costs
    assert f"cost {spy_cost}: {stats['cost_curve'][str(spy_cost)]}" in charts["cost"]["alt"]


def test_charts_of_an_empty_deck_are_none_and_in_faction_deck_has_no_loyalty_series(pool):
    assert deck_charts(deck_stats({}, pool)) == []
    cost = next(c for c in deck_charts(deck_stats(LEGAL_BASE, pool)) if c["id"] == "cost")["svg"]
    assert "Loyalty (§9.3)" not in cost.replace("Cost curve (with Loyalty)", "")


def test_chart_stylesheet_is_scoped_and_served(client):
    css = chart_css()
    assert css and all(rule.startswith(".deck-chart svg") for rule in css.strip().splitlines())
    response = client.get("/decks/charts.css")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/css")


def test_live_panel_shows_rule_fix_grouped_deck_effective_cost_and_odds(client, small_catalogue):
    text = "1x Camelot\n1x The Long Reign\n" + "\n".join(f"1x Quest {i}" for i in range(1, 7)) + \
        "\n3x Knight 1\n4x Knight 2\n1x Morgana's Spy"
    live = html.unescape(client.post("/decks/check/", {"text": text}).content.decode())
    assert "Not legal" in live
    assert "§2.1, §11" in live and "Fix: Add or remove quests until the quest deck holds exactly 7" in live
    assert "Fix: Cut copies down to the limit" in live
    # grouped by type, with counts, and the problem beside the card it concerns
    assert re.search(r"Quests <small>\(6\)</small>", live) and re.search(r"Units <small>\(8\)</small>", live)
    assert "⚠ 4 copies of Knight 2" in live
    spy = small_catalogue.get("spy")
    assert f"{spy['cost']}+{spy['loyalty']} = {spy['cost'] + spy['loyalty']}" in live  # §9.3 effective cost
    assert 'data-add="Morgana&#x27;s Spy"' in client.post("/decks/check/", {"text": text}).content.decode()
    assert "<svg" in live and "opening 7" in live and "%" in live


def test_editor_page_has_guided_steps_browser_toggles_and_keyboard_help(client, kay, small_catalogue):
    client.force_login(kay)
    page = html.unescape(client.get("/decks/new/").content.decode())
    for step in ("Choose a faction", "Choose a destiny", "Pick 7 quests"):
        assert step in page
    assert "The Endless Road" in page and "at least 70 draw cards" in page  # destiny rules spelled out (§10.6)
    assert 'name="faction" value="lefay"' in page and 'name="type" value="quest"' in page
    assert 'name="view" value="images"' in page and 'name="owned"' in page
    assert "Keyboard:" in page and "<kbd>+</kbd>" in page
    # every deck control belongs to the deck form, wherever it sits on the page (the browser has its own form)
    for control in ("ed-name", "deck-text", "ed-notes", "ed-tags", "ed-faction", "ed-destiny"):
        assert re.search(rf'<(input|select|textarea) form="deck-form" id="{control}"', page), control
    assert "<script>" not in page  # CSP: scripts are static files


def test_editing_an_existing_deck_shows_its_steps_done(client, kay, small_catalogue):
    deck = deck_create(owner=kay, name="Done", counts=LEGAL_BASE).deck
    client.force_login(kay)
    page = client.get(f"/decks/{deck.pk}/edit/").content.decode()
    assert 'class="step done" id="step-faction"' in page and 'class="step done" id="step-destiny"' in page
    assert '<option value="camelot" selected>' in page  # browser's "legal for" defaults to the deck's faction


def test_card_browser_image_view_and_owned_counts(client, kay, small_catalogue):
    collection_set(user=kay, counts={"u01": 2})
    client.force_login(kay)
    images = client.get("/decks/browser/?q=knight&view=images", HTTP_HX_REQUEST="true").content.decode()
    assert 'src="/cards/u01.png?size=small"' in images and "as-images" in images and "own 2" in images
    listed = client.get("/decks/browser/?q=knight", HTTP_HX_REQUEST="true").content.decode()
    assert ".png" not in listed and 'tabindex="0" data-card="Knight 1"' in listed
    full = client.get("/decks/browser/?q=knight&type=unit&view=images").content.decode()
    assert "<form" in full and 'value="unit" selected' in full  # works without JavaScript too


def test_card_page_has_a_copies_owned_form_for_players_only(client, kay, small_catalogue):
    collection_set(user=kay, counts={"u01": 2})
    assert "Copies owned" not in client.get("/cards/u01/").content.decode()
    client.force_login(kay)
    page = client.get("/cards/u01/").content.decode()
    assert 'action="/collection/cards/u01/"' in page and 'value="2"' in page and "csrfmiddlewaretoken" in page
    response = client.post("/collection/cards/u01/", {"count": "3", "next": "/cards/u01/"})
    assert response["Location"] == "/cards/u01/"
    assert 'value="3"' in client.get("/cards/u01/").content.decode()


def test_decklist_browser_date_range_and_my_favourites(client, kay, small_catalogue):
    from decks.services import decklist_favourite, decklist_publish

    mine = decklist_publish(deck=deck_create(owner=kay, name="A", counts=LEGAL_BASE).deck, title="Starred list")
    decklist_publish(deck=deck_create(owner=kay, name="B", counts=LEGAL_BASE).deck, title="Plain list")
    decklist_favourite(decklist=mine, user=kay)
    client.force_login(kay)
    page = client.get("/decklists/?favourites=1").content.decode()
    assert "Starred list" in page and "Plain list" not in page
    assert "Plain list" in client.get("/decklists/?since=2000-01-01&until=2999-12-31").content.decode()
    assert "No decklist matches" in client.get("/decklists/?until=2000-01-01").content.decode()
    bad = client.get("/decklists/?since=2000-01-01&until=soon")
    assert bad.status_code == 400 and "&#x27;soon&#x27; is not a date" in bad.content.decode()
    client.logout()
    assert "Plain list" in client.get("/decklists/?favourites=1").content.decode()  # visitors: the filter is off


def test_charts_are_remembered_for_the_same_statistics(pool, monkeypatch):
    import decks.charts as charts

    stats = deck_stats(dict(LEGAL_BASE, u01=2), pool)
    first = charts.deck_charts(stats)
    monkeypatch.setattr(charts, "_deck_charts", lambda s: pytest.fail("recomputed the same charts"))
    assert charts.deck_charts(deck_stats(dict(LEGAL_BASE, u01=2), pool)) == first
    monkeypatch.setattr(charts, "_deck_charts", lambda s: [{"id": "new"}])
    assert charts.deck_charts(deck_stats(dict(LEGAL_BASE, u01=1), pool)) == [{"id": "new"}]


def test_owned_copies_set_from_the_card_browser_without_leaving_the_editor(client, kay, small_catalogue):
    from decks.selectors import collection_counts

    client.force_login(kay)
    fragment = client.get("/decks/browser/?q=knight", HTTP_HX_REQUEST="true").content.decode()
    assert 'hx-post="/collection/cards/u01/"' in fragment and 'id="own-u01"' in fragment
    response = client.post("/collection/cards/u01/", {"count": "2"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and collection_counts(user=kay) == {"u01": 2}
    bad = client.post("/collection/cards/u01/", {"count": "lots"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and "whole number" in bad.content.decode() and collection_counts(user=kay) == {"u01": 2}
    client.logout()
    assert "own-form" not in client.get("/decks/browser/?q=knight", HTTP_HX_REQUEST="true").content.decode()


def test_import_a_pasted_list_into_the_open_deck_adds_or_replaces_as_one_version(client, kay, small_catalogue):
    deck = deck_create(owner=kay, name="Open", counts={"u01": 2}).deck
    client.force_login(kay)
    assert "Import a list into this deck" in client.get(f"/decks/{deck.pk}/").content.decode()
    client.post(f"/decks/{deck.pk}/import/", {"text": "1x Knight 1\n3x Knight 2", "mode": "add"})
    deck.refresh_from_db()
    assert deck.counts == {"u01": 3, "u02": 3} and deck.version == 2
    client.post(f"/decks/{deck.pk}/import/", {"text": "2x Knight 3", "mode": "replace"})
    deck.refresh_from_db()
    assert deck.counts == {"u03": 2} and deck.version == 3
    bad = client.post(f"/decks/{deck.pk}/import/", {"text": "2x Knight 4\n1x Gawian\n2x Zzyzx", "mode": "add"},
                      follow=True)
    page = html.unescape(bad.content.decode())
    assert "Did you mean" in page
    # Each unreadable line once, after a count (it was "Line 2: Line 2: …" after the first one again).
    assert "2 lines could not be read, so nothing was saved" in page
    assert page.count("Line 2:") == 1 and page.count("Line 3:") == 1 and "Line 2: Line 2" not in page
    deck.refresh_from_db()
    assert deck.counts == {"u03": 2} and deck.version == 3  # nothing half-saved
    other = get_user_model().objects.create_user("mordred", password="pw-mordred-1")
    client.force_login(other)
    assert client.post(f"/decks/{deck.pk}/import/", {"text": "1x Knight 1"}).status_code == 404


@pytest.mark.parametrize("url", ["/decks/{pk}/import/", "/decks/archive/import/", "/collection/cards/u01/"])
def test_new_writes_need_the_csrf_token(kay, small_catalogue, url):
    from django.test import Client

    deck = deck_create(owner=kay, name="Guarded", counts={"u01": 1}).deck
    client = Client(enforce_csrf_checks=True)
    client.force_login(kay)
    assert client.post(url.format(pk=deck.pk), {"text": "1x Knight 2", "count": "3"}).status_code == 403
    deck.refresh_from_db()
    assert deck.version == 1


def test_my_decks_filter_by_tag_and_decklist_page_has_statistics(client, kay, small_catalogue):
    from decks.services import decklist_publish

    deck = deck_create(owner=kay, name="Tagged", counts=LEGAL_BASE, tags=["Aggro"]).deck
    deck_create(owner=kay, name="Untagged", counts={"u01": 1})
    client.force_login(kay)
    page = client.get("/decks/?tag=aggro").content.decode()
    assert "Tagged" in page and "Untagged" not in page and 'href="?tag=aggro"' in page
    public = client.get(decklist_publish(deck=deck, title="Shared").get_absolute_url()).content.decode()
    assert "Statistics" in public and "<svg" in public and "opening 7" in public


def test_editor_summary_line_for_phones_follows_the_verdict(client, kay, small_catalogue):
    deck = deck_create(owner=kay, name="Ok", counts=LEGAL_BASE).deck
    client.force_login(kay)
    page = html.unescape(client.get(f"/decks/{deck.pk}/edit/").content.decode())
    assert 'class="live-summary is-legal"' in page and "✓ Legal · 60/60 draw · 7/7 quests" in page


def test_deck_page_says_whether_the_collection_builds_it(client, kay, small_catalogue):
    deck = deck_create(owner=kay, name="Build", counts={"u01": 3, "u02": 2}).deck
    client.force_login(kay)
    assert "Record the cards you own" in client.get(f"/decks/{deck.pk}/").content.decode()
    collection_set(user=kay, counts={"u01": 1})
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "Missing from your collection" in page and "4 cards short" in page
    collection_set(user=kay, counts={"u01": 3, "u02": 2})
    assert "You own every card this deck needs" in client.get(f"/decks/{deck.pk}/").content.decode()


@pytest.mark.parametrize("field", ["name", "notes", "tags"])
def test_a_nul_character_is_a_clear_400_not_a_500(client, kay, small_catalogue, field):
    from decks.models import Deck

    client.force_login(kay)
    data = {"name": "Fine", "text": "3x Knight 1", "notes": "", "tags": ""} | {field: "bad\x00value"}
    response = client.post("/decks/new/", data)
    assert response.status_code == 400 and "NUL character" in response.content.decode()
    assert not Deck.objects.filter(owner=kay).exists()


def test_delete_then_undo_from_the_page_it_lands_on(client, kay, small_catalogue):
    deck = deck_create(owner=kay, name="Oops", counts={"u01": 2}).deck
    client.force_login(kay)
    response = client.post(f"/decks/{deck.pk}/delete/", follow=True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == f"/decks/?undo={deck.pk}"
    assert "was deleted" in page and f'action="/decks/{deck.pk}/undelete/"' in page
    assert client.get(f"/decks/{deck.pk}/").status_code == 404
    client.post(f"/decks/{deck.pk}/undelete/")
    assert client.get(f"/decks/{deck.pk}/").status_code == 200
    other = get_user_model().objects.create_user("gareth", password="pw-gareth-12")
    client.force_login(other)
    assert "was deleted" not in client.get(f"/decks/?undo={deck.pk}").content.decode()


def test_s10_6_the_draw_count_target_follows_the_destiny(client, small_catalogue):
    text = "1x Camelot\n1x The Endless Road\n" + "\n".join(f"1x Quest {i}" for i in range(1, 8)) + "\n" + \
        "\n".join(f"3x Knight {i}" for i in range(1, 21))
    live = client.post("/decks/check/", {"text": text}).content.decode()
    assert 'Draw cards <strong>60</strong> / <span class="required-draw">70</span>' in live
    plain = client.post("/decks/check/", {"text": text.replace("The Endless Road", "The Long Reign")}).content.decode()
    assert '<span class="required-draw">60</span>' in plain


def test_publish_description_has_a_sanitised_preview(client, kay, small_catalogue):
    deck = deck_create(owner=kay, name="Pub", counts=LEGAL_BASE).deck
    client.force_login(kay)
    assert 'hx-target="#pub-preview"' in client.get(f"/decks/{deck.pk}/").content.decode()
    preview = client.post("/decks/preview/", {"description": "**bold** <img src=x onerror=alert(1)>"}).content.decode()
    assert "<strong>bold</strong>" in preview and "onerror" not in preview and "<img" not in preview
