"""Inputs the decks API used to read leniently (found by the strict schema run, docs/reliability.md) are now a 400
whose detail names the field, and change nothing (CONTRACTS §4)."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from decks.models import CollectionCard, Deck, Decklist
from decks.services import collection_set, deck_create, decklist_publish

from .cardsets import LEGAL_BASE

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(erin):
    api = APIClient()
    api.force_authenticate(erin)
    return api


def _refused(response, *names):
    assert response.status_code == 400, (response.status_code, response.content[:300])
    detail = response.json()["detail"]
    for name in names:
        assert name in detail, detail
    return detail


# ---- collection: `cards` must be an object of code -> copies -------------------------------------------------
@pytest.mark.parametrize("method, path", [("post", "/api/collection/cards/"), ("put", "/api/collection/replace/")])
@pytest.mark.parametrize("body, fmt", [
    ({"cards": "u01"}, "multipart"), ({"cards": ""}, "multipart"), ({"cards": '{"u01": 2}'}, "multipart"),
    ({"cards": "u01", "cards.u02": "1"}, "multipart"), ({"cards": "u01"}, "json"), ({"cards": ["u01", 2]}, "json"),
    ({"cards": [["u01", 2]]}, "json"), ({"cards": None}, "json"), ({"cards": 3}, "json"), ({}, "json"),
    ({"cards": {"u01": "x"}}, "json"), ({"cards": {"u01": -1}}, "json"), ({"cards": {"u01": 1000}}, "json"),
    ({"cards": {"u01": 1.5}}, "json")])
def test_collection_cards_of_the_wrong_shape_are_refused(small_catalogue, erin, client, method, path, body, fmt):
    collection_set(user=erin, counts={"u03": 2})
    detail = _refused(getattr(client, method)(path, body, format=fmt), "cards")
    assert "ErrorDetail" not in detail
    assert dict(CollectionCard.objects.filter(user=erin).values_list("card_code", "count")) == {"u03": 2}


def test_collection_cards_in_a_form_body_one_field_per_card(small_catalogue, erin, client):
    response = client.post("/api/collection/cards/", {"cards.u01": "2", "cards.u02": "0"}, format="multipart")
    assert response.status_code == 200 and response.json() == {"cards": {"u01": 2}}
    detail = _refused(client.post("/api/collection/cards/", {"cards": {"u01": "x"}}, format="json"), "cards")
    assert "u01: A valid integer is required." in detail  # readable, names the card


# ---- decks: a form body cannot empty a deck or make it public by leaving fields out ----------------------------
def test_deck_cards_of_the_wrong_shape_are_refused(small_catalogue, erin, client):
    assert _refused(client.post("/api/decks/", {"name": "D", "cards": "u01"}, format="multipart"), "cards")
    assert not Deck.objects.filter(owner=erin).exists()
    deck = deck_create(owner=erin, name="D", counts={"u01": 2}).deck
    for body, fmt in [({"cards": "u01"}, "multipart"), ({"cards": ""}, "multipart"), ({"cards": [1]}, "json"),
                      ({"cards": {"u01": True}}, "json")]:
        _refused(client.patch(f"/api/decks/{deck.pk}/", body, format=fmt), "cards")
    deck.refresh_from_db()
    assert deck.counts == {"u01": 2} and deck.version == 1


def test_a_form_save_that_leaves_is_private_out_keeps_it(small_catalogue, erin, client):
    deck = deck_create(owner=erin, name="D", counts={"u01": 2}, is_private=True).deck
    response = client.patch(f"/api/decks/{deck.pk}/", {"name": "E", "cards.u02": "1"}, format="multipart")
    assert response.status_code == 200 and response.json()["is_private"] is True
    assert response.json()["cards"] == {"u02": 1}  # `cards` is the whole list, as in JSON
    created = client.post("/api/decks/", {"name": "F", "cards.u01": "2"}, format="multipart")
    assert created.status_code == 201 and created.json()["is_private"] is True  # the documented default
    public = client.patch(f"/api/decks/{deck.pk}/", {"is_private": "false"}, format="multipart")
    assert public.json()["is_private"] is False


# ---- deck validation: `format` is a format's slug, or left out ---------------------------------------------------
@pytest.mark.parametrize("value, shown", [(None, "null"), ("", "''"), ("  ", "'  '"), (3, "3"), (["x"], "['x']")])
def test_validate_format_must_be_a_slug_or_left_out(small_catalogue, value, shown):
    anonymous = APIClient()
    detail = _refused(anonymous.post("/api/decks/validate/", {"text": "1x u01", "format": value}, format="json"),
                      "format", shown, "leave it out")
    assert "the active format" in detail
    assert _refused(anonymous.post("/api/decks/validate/", {"text": "1x u01", "format": "nope"}, format="json"),
                    "No format with slug 'nope'")
    assert anonymous.post("/api/decks/validate/", {"text": "1x u01"}, format="json").status_code == 200
    assert _refused(anonymous.post("/api/decks/validate/", {"text": "1x u01", "format": ""}, format="multipart"),
                    "format")


# ---- the decklist browser: a parameter given must hold a valid value ---------------------------------------------
@pytest.fixture
def published(small_catalogue, erin):
    return decklist_publish(deck=deck_create(owner=erin, name="D", counts=LEGAL_BASE).deck, title="Round Table")


@pytest.mark.parametrize("query, names", [
    ("until=", ["until is empty"]), ("since=", ["since is empty"]), ("faction=", ["faction is empty"]),
    ("destiny=", ["destiny is empty"]), ("card=", ["card is empty"]), ("card=u01&card=", ["card is empty"]),
    ("q=", ["q is empty"]), ("q=%20%20", ["q is empty"]), ("author=", ["author is empty"]),
    ("sort=", ["sort is empty"]), ("until=2020-01-01junk", ["until must be a date"]),
    ("since=20200101", ["since must be a date"]), ("until=2020-02-30", ["until must be a date"]),
    ("since=2021-01-01&until=2020-01-01", ["is before since"]), ("faction=nowhere", ["No faction 'nowhere'"]),
    ("destiny=u01", ["No destiny card"]), ("faction=camelot&faction=lefay", ["faction is given 2 times"]),
    ("sort=random", ["sort must be one of"]), ("q=" + "a" * 501, ["q is 501 characters"]),
    ("card=a%00", ["card contains a NUL"]), ("faction=a%00", ["faction contains a NUL"]),
    ("destiny=a%00", ["destiny contains a NUL"]), ("author=a%00", ["author contains a NUL"]),
    ("card=" + "x" * 33, ["card is 33 characters"]), ("&".join(f"card=u{i:02d}" for i in range(1, 22)),
                                                      ["card is given 21 times"])])
def test_decklist_filters_that_cannot_apply_are_400(published, query, names):
    _refused(APIClient().get("/api/decklists/?" + query), *names)


def test_decklist_filters_that_apply(published):
    anonymous = APIClient()
    day = published.published_at.date().isoformat()
    for query, count in [("", 1), (f"since={day}&until={day}", 1), ("until=2000-01-01", 0), ("faction=lefay", 0),
                         ("faction=camelot&card=u01&card=u02", 1), ("destiny=des-plain", 1), ("author=ERIN", 1),
                         ("author=nobody", 0), ("card=gone-from-catalogue", 0), ("sort=likes", 1),
                         ("since=0001-01-01&until=9999-12-31", 1), ("card=u01&until=9999-12-31", 1)]:
        response = anonymous.get("/api/decklists/?" + query)
        assert response.status_code == 200 and response.json()["count"] == count, (query, response.json())


def test_the_decklist_page_reads_its_empty_form_fields_as_any(published, client):
    page = client.get("/decklists/?faction=&destiny=&q=&author=&since=&until=&sort=")
    assert page.status_code == 200 and "Round Table" in page.content.decode()
    assert client.get("/decklists/?until=2020-01-01junk").status_code == 400
    assert client.get("/decklists/?destiny=nope").status_code == 400
    assert client.get("/decklists/?author=a%00").status_code == 400
    assert client.get("/decklists/?destiny=a%00").status_code == 400
    assert "is before since" in client.get("/decklists/?since=2021-01-01&until=2020-01-01").content.decode()


@pytest.mark.parametrize("fmt", ["", "xml"])
def test_an_export_format_given_must_be_text_or_json(published, client, fmt):
    deck = Deck.objects.get()
    for path in (f"/api/decks/{deck.pk}/export/", f"/api/decklists/{published.pk}/export/"):
        response = client.get(f"{path}?format={fmt}")
        assert response.status_code == 400 and response["Content-Type"].startswith("application/json")
        assert "format must be 'text' or 'json'" in response.json()["detail"]
        assert client.get(path).status_code == 200
    assert Decklist.objects.count() == 1


@pytest.mark.parametrize("fmt", ["", "json", "xml"])
def test_the_collection_export_is_csv_only(small_catalogue, erin, client, fmt):
    collection_set(user=erin, counts={"u01": 2})
    response = client.get(f"/api/collection/export/?format={fmt}")
    assert response.status_code == 400 and "format must be 'text'" in response.json()["detail"]
    for ok in ("/api/collection/export/", "/api/collection/export/?format=text"):
        response = client.get(ok)
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
        assert "u01" in response.content.decode()
