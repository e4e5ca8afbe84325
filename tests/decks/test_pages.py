"""Deck and decklist pages: permissions in views (404 for another user's private deck), forms without JS."""
from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model

from decks.decklist import export_decklist
from decks.models import Deck, Decklist
from decks.services import deck_create, decklist_publish

from .cardsets import LEGAL_BASE

pytestmark = pytest.mark.django_db


@pytest.fixture
def gina(db):
    return get_user_model().objects.create_user("gina", password="pw-gina-1234")


def test_import_form_creates_a_deck_or_lists_problems_and_saves_nothing(client, gina, small_catalogue):
    client.force_login(gina)
    assert client.get("/decks/").status_code == 200
    bad = client.post("/decks/import/", {"name": "X", "text": "3x Gawian\n3x Knight 1"})
    assert bad.status_code == 400 and "Did you mean" in bad.content.decode() and Deck.objects.count() == 0
    ok = client.post("/decks/import/", {"name": "Knights", "text": export_decklist(LEGAL_BASE, small_catalogue)})
    deck = Deck.objects.get()
    assert ok.status_code == 302 and ok["Location"] == f"/decks/{deck.pk}/"
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "Legal deck" in page and "Knight 1" in page and "Publish a snapshot" in page


def test_deck_page_shows_problems_surcharge_and_is_private(client, gina, small_catalogue):
    deck = deck_create(owner=gina, name="Mixed", counts=dict(LEGAL_BASE, spy=1, u01=4)).deck
    client.force_login(gina)
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "Not legal" in page and "4 copies of Knight 1" in page and "Loyalty" in page
    other = get_user_model().objects.create_user("hal", password="pw-hal-12345")
    client.force_login(other)
    assert client.get(f"/decks/{deck.pk}/").status_code == 404
    assert client.post(f"/decks/{deck.pk}/versions/1/restore/").status_code == 404
    assert client.post(f"/decks/{deck.pk}/publish/", {"title": "x"}).status_code == 404
    client.logout()
    assert client.get(f"/decks/{deck.pk}/").status_code == 404
    assert client.get("/decks/").status_code == 302  # to the login page


def test_publish_and_public_decklist_page(client, gina, small_catalogue):
    deck = deck_create(owner=gina, name="Pub", counts=LEGAL_BASE).deck
    client.force_login(gina)
    response = client.post(f"/decks/{deck.pk}/publish/",
                           {"title": "Round Table", "description": "**bold** <script>x()</script>"})
    decklist = Decklist.objects.get()
    assert response["Location"] == decklist.get_absolute_url()
    client.logout()
    page = client.get(decklist.get_absolute_url()).content.decode()
    assert "Round Table" in page and "<strong>bold</strong>" in page and "<script>x()" not in page
    assert 'property="og:image"' in page and "3×" in page
    assert client.get(f"/decklists/{decklist.pk}-wrong-slug/").status_code == 301
    listing = client.get("/decklists/?faction=camelot").content.decode()
    assert "Round Table" in listing
    assert client.get("/decklists/?q=zz:1").status_code == 400
    assert client.post(f"/decklists/{decklist.pk}/copy/").status_code == 302  # to login
    client.force_login(gina)
    client.post(f"/decklists/{decklist.pk}/like/", {"on": "1"})
    assert Decklist.objects.get().like_count == 0  # not one's own
    client.force_login(get_user_model().objects.create_user("ivo", password="pw-ivo-12345"))
    client.post(f"/decklists/{decklist.pk}/like/", {"on": "1"})
    assert Decklist.objects.get().like_count == 1
    client.force_login(gina)
    copied = client.post(f"/decklists/{decklist.pk}/copy/")
    assert copied.status_code == 302 and Deck.objects.count() == 2


def test_decklist_image_is_a_png(client, gina, small_catalogue):
    decklist = decklist_publish(deck=deck_create(owner=gina, name="I", counts=LEGAL_BASE).deck, title="Img")
    response = client.get(f"/decklists/{decklist.pk}/image.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response.content[:8] == b"\x89PNG\r\n\x1a\n"


def test_deck_page_lists_missing_cards_once_a_collection_exists(client, gina, small_catalogue):
    from decks.services import collection_set

    deck = deck_create(owner=gina, name="C", counts=LEGAL_BASE).deck
    client.force_login(gina)
    assert "Missing from your collection" not in client.get(f"/decks/{deck.pk}/").content.decode()
    collection_set(user=gina, counts={f"u{i:02d}": 3 for i in range(1, 21)})
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    missing = page.split("Missing from your collection", 1)[1].split("</ul>", 1)[0]
    assert "Quest 1" in missing and "The Long Reign" in missing and "Knight 1<" not in missing


def test_delete_with_undo_and_copy(client, gina, small_catalogue):
    deck = deck_create(owner=gina, name="Gone", counts=LEGAL_BASE,
                       notes="Play *fast*. <img src=x onerror=alert(1)>").deck
    client.force_login(gina)
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "<em>fast</em>" in page and "onerror" not in page  # notes are Markdown, sanitised
    assert client.post(f"/decks/{deck.pk}/delete/").status_code == 302
    assert client.get(f"/decks/{deck.pk}/").status_code == 404
    listing = client.get("/decks/").content.decode()
    assert "Recently deleted" in listing and "Gone" in listing
    assert client.post(f"/decks/{deck.pk}/undelete/").status_code == 302
    assert client.get(f"/decks/{deck.pk}/").status_code == 200
    copied = client.post(f"/decks/{deck.pk}/copy/")
    copy = Deck.objects.exclude(pk=deck.pk).get()
    assert copied["Location"] == f"/decks/{copy.pk}/" and copy.counts == LEGAL_BASE and copy.name == "Copy of Gone"


def test_collection_page_import_export_and_sets(client, gina, small_catalogue):
    client.force_login(gina)
    assert client.get("/collection/").status_code == 200
    bad = client.post("/collection/", {"action": "csv", "csv": "code,count\nGawian,2", "mode": "replace"})
    assert bad.status_code == 400 and "Did you mean" in bad.content.decode()
    ok = client.post("/collection/", {"action": "csv", "csv": "code,count\nu01,2", "mode": "replace"})
    assert ok.status_code == 302
    assert client.post("/collection/", {"action": "set", "set": "tst", "copies": "1"}).status_code == 302
    csv_text = client.get("/collection/export.csv").content.decode()
    assert "u01,Knight 1,3" in csv_text
    assert client.post("/collection/", {"action": "set", "set": "nope", "copies": "1"}).status_code == 400


def test_compare_versions_and_decks(client, gina, small_catalogue):
    from decks.services import deck_update

    deck = deck_create(owner=gina, name="Cmp", counts={"u01": 3, "u02": 1}).deck
    deck_update(deck=deck, counts={"u01": 2, "u03": 1})
    client.force_login(gina)
    page = client.get(f"/decks/{deck.pk}/compare/?a=1&b=2&changes=1").content.decode()
    assert "Knight 3" in page and "+1" in page and "-1" in page
    assert client.get(f"/decks/{deck.pk}/compare/?a=9").status_code == 404
    other = deck_create(owner=gina, name="Other", counts={"u05": 3}).deck
    assert "Knight 5" in client.get(f"/decks/{deck.pk}/compare/?other={other.pk}").content.decode()


def test_editor_new_deck_from_faction_destiny_and_text(client, gina, small_catalogue):
    client.force_login(gina)
    page = client.get("/decks/new/").content.decode()
    assert "The Endless Road (at least 70 draw cards)" in page
    text = "\n".join(f"1x Quest {i}" for i in range(1, 8)) + "\n" + "\n".join(
        f"3x Knight {i}" for i in range(1, 21))
    live = client.post("/decks/check/", {"text": text, "faction": "fac-camelot", "destiny": "des-plain"})
    assert live.status_code == 200 and "Legal deck" in live.content.decode()
    assert "Not legal" in client.post("/decks/check/", {"text": text}).content.decode()
    response = client.post("/decks/new/", {"name": "Fresh", "text": text, "faction": "fac-camelot",
                                           "destiny": "des-plain", "notes": "hi", "tags": "a, b", "is_private": "on"})
    deck = Deck.objects.get()
    assert response.status_code == 302 and deck.counts == LEGAL_BASE and deck.tags == ["a", "b"] and deck.is_private
    preview = client.post("/decks/preview/", {"notes": "*x* <script>bad()</script>"}).content.decode()
    assert "<em>x</em>" in preview and "<script" not in preview


def test_editor_saves_one_version_per_save_and_flags_a_stale_tab(client, gina, small_catalogue):
    from decks.services import deck_update

    deck = deck_create(owner=gina, name="Tabs", counts=LEGAL_BASE).deck
    client.force_login(gina)
    form = client.get(f"/decks/{deck.pk}/edit/").content.decode()
    assert 'name="base_version" value="1"' in form and "3x Knight 1" in form
    text = export_decklist(dict(LEGAL_BASE, spy=1), small_catalogue)
    response = client.post(f"/decks/{deck.pk}/edit/", {"name": "Tabs 2", "text": text, "base_version": "1",
                                                       "notes": "n", "tags": "", "is_private": "on"}, follow=True)
    assert "Saved as version 2" in response.content.decode()
    deck.refresh_from_db()
    assert deck.version == 2 and deck.name == "Tabs 2" and deck.counts == dict(LEGAL_BASE, spy=1)
    deck_update(deck=deck, counts=LEGAL_BASE)  # another tab saves version 3
    stale = client.post(f"/decks/{deck.pk}/edit/", {"name": "Tabs 2", "text": text + "1x Round Table\n",
                                                    "base_version": "2", "is_private": "on"}, follow=True)
    assert "Both saves are kept" in stale.content.decode()
    assert list(deck.versions.values_list("number", flat=True)) == [4, 3, 2, 1]
    bad = client.post(f"/decks/{deck.pk}/edit/", {"name": "x", "text": "3x Gawian", "base_version": "4"})
    assert bad.status_code == 400 and deck.versions.count() == 4
    other = get_user_model().objects.create_user("ivy", password="pw-ivy-12345")
    client.force_login(other)
    assert client.get(f"/decks/{deck.pk}/edit/").status_code == 404


def test_card_browser_filters_and_fragment(client, gina, small_catalogue):
    client.force_login(gina)
    full = client.get("/decks/browser/?q=knight&type=unit")
    assert full.status_code == 200 and "Find cards" in full.content.decode() and full["Vary"]
    fragment = client.get("/decks/browser/?q=morgause&legal=camelot", HTTP_HX_REQUEST="true").content.decode()
    assert "No card matches" in fragment  # Bound to Le Fay: not legal in Camelot (§9.3)
    fragment = client.get("/decks/browser/?q=morgause&legal=lefay", HTTP_HX_REQUEST="true").content.decode()
    assert 'data-add="Morgause"' in fragment and "<html" not in fragment
    assert client.get("/decks/browser/?q=zz:1").status_code == 400
    from decks.services import collection_set

    collection_set(user=gina, counts={"u01": 2})
    owned = client.get("/decks/browser/?owned=1", HTTP_HX_REQUEST="true").content.decode()
    assert "Knight 1" in owned and "own 2" in owned and "Knight 2<" not in owned


def test_problems_show_inline_and_decklist_filters_favourites(client, gina, small_catalogue):
    deck = deck_create(owner=gina, name="Flags", counts=dict(LEGAL_BASE, u01=4, spy=1)).deck
    client.force_login(gina)
    page = html.unescape(client.get(f"/decks/{deck.pk}/").content.decode())
    assert page.count("⚠ 4 copies of Knight 1") == 1 and "⚠ Morgana's Spy (Le Fay's Circle) is off-faction" in page
    live = client.post("/decks/check/", {"text": "3x Knight 1\n1x Quest 1"}).content.decode()
    assert "Cost curve" in live and "opening 7" in live
    author = get_user_model().objects.create_user("jo", password="pw-jo-12345")
    decklist = decklist_publish(deck=deck_create(owner=author, name="P", counts=LEGAL_BASE).deck,
                                 title="Pennant of Gwynedd")
    client.post(f"/decklists/{decklist.pk}/favourite/", {"on": "1"})
    assert "★ Favourite" in client.get(decklist.get_absolute_url()).content.decode()
    client.post(f"/decklists/{decklist.pk}/like/", {"on": "1"})
    assert "♥ Liked" in client.get(decklist.get_absolute_url()).content.decode()
    client.post(f"/decklists/{decklist.pk}/like/", {"on": "0"})
    assert Decklist.objects.get(pk=decklist.pk).like_count == 0
    # A title no random CSRF token can contain (a three-letter one once matched the token on the page).
    assert "Pennant of Gwynedd" in client.get("/decklists/?destiny=des-plain&since=2020-01-01").content.decode()
    assert "Pennant of Gwynedd" not in client.get("/decklists/?destiny=des-fifty").content.decode()
    assert client.get("/decklists/?since=nope").status_code == 400


def test_deck_image_follows_deck_visibility(client, gina, small_catalogue):
    deck = deck_create(owner=gina, name="Pic", counts=LEGAL_BASE).deck
    client.force_login(gina)
    response = client.get(f"/decks/{deck.pk}/image.png")
    assert response.status_code == 200 and response.content[:4] == b"\x89PNG"
    client.logout()
    assert client.get(f"/decks/{deck.pk}/image.png").status_code == 404


def test_set_owned_copies_of_one_card_from_any_page(client, gina, small_catalogue):
    from decks.selectors import collection_counts

    client.force_login(gina)
    response = client.post("/collection/cards/u01/", {"count": "2", "next": "/cards/?q=knight"})
    assert response.status_code == 302 and response["Location"] == "/cards/?q=knight"
    assert collection_counts(user=gina) == {"u01": 2}
    assert client.post("/collection/cards/u01/", {"count": "0", "next": "https://evil.example/"})["Location"] == \
        "/cards/u01/"
    assert collection_counts(user=gina) == {}
    client.post("/collection/cards/nope/", {"count": "1"})
    client.post("/collection/cards/u01/", {"count": "-1"})
    assert collection_counts(user=gina) == {}


def test_deck_page_offers_to_simulate_the_deck(client, gina, small_catalogue):
    deck = deck_create(owner=gina, name="Sim me", counts=dict(LEGAL_BASE)).deck
    client.force_login(gina)
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert f'href="/simulate/?deck={deck.pk}"' in page
    assert client.get(f"/simulate/?deck={deck.pk}").status_code == 200
