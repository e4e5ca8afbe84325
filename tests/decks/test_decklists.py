"""Published decklists: immutable snapshots, re-publish chains, derived-from links, likes, search."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from decks.models import Decklist, DecklistCard
from decks.selectors import decklist_ids_containing_card, decklist_search
from decks.services import (DeckInputError, deck_create, deck_update, decklist_copy, decklist_favourite,
                            decklist_like, decklist_publish)

from .cardsets import LEGAL_BASE

pytestmark = pytest.mark.django_db


def test_publish_snapshots_the_latest_version_and_stays_immutable(small_catalogue, erin):
    deck = deck_create(owner=erin, name="D", counts=LEGAL_BASE).deck
    decklist = decklist_publish(deck=deck, title="Knights of the Round!", description="*go*")
    assert decklist.slug == "knights-of-the-round" and decklist.get_absolute_url().endswith("-knights-of-the-round/")
    assert decklist.cards == LEGAL_BASE and decklist.source_version == 1
    assert decklist.faction.slug == "camelot" and decklist.destiny.code == "des-plain"
    assert set(DecklistCard.objects.filter(decklist=decklist).values_list("card_code", flat=True)) == set(LEGAL_BASE)
    deck_update(deck=deck, counts=dict(LEGAL_BASE, spy=1))
    decklist.refresh_from_db()
    assert decklist.cards == LEGAL_BASE  # later edits never touch the published list
    again = decklist_publish(deck=deck, title="Knights v2")
    assert again.previous == decklist and again.source_version == 2


def test_only_a_legal_deck_is_published(small_catalogue, erin):
    deck = deck_create(owner=erin, name="D", counts={"u01": 3}).deck
    with pytest.raises(DeckInputError, match="Only a legal deck"):
        decklist_publish(deck=deck, title="Nope")
    assert Decklist.objects.count() == 0


def test_copy_then_publish_links_derived_from(small_catalogue, erin, frank):
    original = decklist_publish(deck=deck_create(owner=erin, name="D", counts=LEGAL_BASE).deck, title="Orig")
    copy = decklist_copy(decklist=original, owner=frank).deck
    assert copy.owner == frank and copy.counts == LEGAL_BASE and copy.is_private
    derived = decklist_publish(deck=copy, title="Remix")
    assert derived.derived_from == original and derived.previous is None


def test_likes_and_favourites_are_idempotent_and_counted(small_catalogue, erin, frank, carol):
    decklist = decklist_publish(deck=deck_create(owner=erin, name="D", counts=LEGAL_BASE).deck, title="L")
    decklist_like(decklist=decklist, user=frank)
    decklist_like(decklist=decklist, user=frank)
    assert decklist_like(decklist=decklist, user=carol).like_count == 2
    assert decklist_like(decklist=decklist, user=frank, on=False).like_count == 1
    assert decklist_favourite(decklist=decklist, user=frank).favourite_count == 1


def test_an_author_cannot_like_their_own_decklist(small_catalogue, erin, frank, client):
    """Regression: you could like your own decklist (and so raise it in the "most liked" order)."""
    decklist = decklist_publish(deck=deck_create(owner=erin, name="D", counts=LEGAL_BASE).deck, title="Mine")
    with pytest.raises(DeckInputError, match="your own decklist"):
        decklist_like(decklist=decklist, user=erin)
    assert decklist.likes.count() == 0
    client.force_login(erin)
    page = client.get(decklist.get_absolute_url()).content.decode()
    assert "♥ Like" not in page and "your own decklist" in page
    response = client.post(f"/decklists/{decklist.pk}/like/", {"on": "1"}, follow=True)
    assert "You cannot like your own decklist" in response.content.decode()
    api = APIClient()
    api.force_authenticate(erin)
    answer = api.post(f"/api/decklists/{decklist.pk}/like/")
    assert answer.status_code == 400 and "own decklist" in answer.json()["detail"]
    decklist.refresh_from_db()
    assert decklist.like_count == 0
    client.force_login(frank)  # anyone else can
    assert "♥ Like" in client.get(decklist.get_absolute_url()).content.decode()


def test_the_author_filter_matches_part_of_a_name_in_any_case(small_catalogue, erin, frank):
    """Regression: the decklists author filter matched exact names only."""
    a = decklist_publish(deck=deck_create(owner=erin, name="A", counts=LEGAL_BASE).deck, title="A")
    decklist_publish(deck=deck_create(owner=frank, name="B", counts=LEGAL_BASE).deck, title="B")
    assert list(decklist_search(author="RI")) == [a]  # eRIn
    assert list(decklist_search(author="erin")) == [a]
    assert set(decklist_search(author="r")) == set(Decklist.objects.all())
    assert list(decklist_search(author="zz")) == []


def test_decklist_search_filters_and_sorts(small_catalogue, erin, frank):
    a = decklist_publish(deck=deck_create(owner=erin, name="A", counts=LEGAL_BASE).deck, title="A")
    lefay = {c: n for c, n in LEGAL_BASE.items() if c != "fac-camelot"} | {"fac-lefay": 1, "morgause": 1}
    b = decklist_publish(deck=deck_create(owner=frank, name="B", counts=lefay).deck, title="B")
    decklist_like(decklist=a, user=frank)
    assert list(decklist_search()) == [b, a]
    assert list(decklist_search(sort="likes")) == [a, b]
    assert list(decklist_search(faction="lefay")) == [b]
    assert list(decklist_search(author="ERIN")) == [a]
    assert list(decklist_search(cards=["morgause"])) == [b]
    assert list(decklist_search(cards=["morgause", "fac-camelot"])) == []
    assert list(decklist_search(destiny="des-plain")) == [b, a]
    assert list(decklist_search(query="k:bound")) == [b]
    assert list(decklist_ids_containing_card(code="morgause")) == [b.pk]
    with pytest.raises(ValueError):
        decklist_search(sort="random")


def test_decklists_api(small_catalogue, erin, frank):
    owner = APIClient()
    owner.force_authenticate(erin)
    deck_id = owner.post("/api/decks/", {"name": "D", "cards": LEGAL_BASE}, format="json").json()["id"]
    stranger = APIClient()
    stranger.force_authenticate(frank)
    assert stranger.post(f"/api/decks/{deck_id}/publish/", {"title": "x"}, format="json").status_code == 404
    response = owner.post(f"/api/decks/{deck_id}/publish/", {"title": "Round Table"}, format="json")
    assert response.status_code == 201, response.json()
    decklist = response.json()
    assert decklist["page_url"] == f"/decklists/{decklist['id']}-round-table/"
    anonymous = APIClient()
    listing = anonymous.get("/api/decklists/").json()
    assert listing["count"] == 1 and listing["results"][0]["title"] == "Round Table"
    assert anonymous.get(f"/api/decklists/{decklist['id']}/").json()["cards"] == LEGAL_BASE
    assert anonymous.post(f"/api/decklists/{decklist['id']}/like/").status_code in (401, 403)
    assert stranger.post(f"/api/decklists/{decklist['id']}/like/").json()["like_count"] == 1
    assert stranger.delete(f"/api/decklists/{decklist['id']}/like/").json()["like_count"] == 0
    copied = stranger.post(f"/api/decklists/{decklist['id']}/copy/")
    assert copied.status_code == 201 and copied.json()["owner"] == "frank"
    text = anonymous.get(f"/api/decklists/{decklist['id']}/export/?format=text").content.decode()
    assert text.startswith("# Round Table") and "3x Knight 1" in text
    assert anonymous.get("/api/decklists/?sort=random").status_code == 400
    assert anonymous.get("/api/decklists/?since=yesterday").status_code == 400
    assert anonymous.get("/api/decklists/?q=zz:1").status_code == 400
    assert anonymous.get("/api/decklists/?q=k:bound").json()["count"] == 0
    assert anonymous.get("/api/decklists/?faction=camelot&card=u01").json()["count"] == 1
    illegal = owner.post("/api/decks/", {"name": "I", "cards": {"u01": 1}}, format="json").json()["id"]
    refused = owner.post(f"/api/decks/{illegal}/publish/", {"title": "Nope"}, format="json")
    assert refused.status_code == 400 and "legal" in refused.json()["detail"]
