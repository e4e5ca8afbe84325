"""The collection: CSV in and out, whole sets, what a deck lacks, and `owned:` in card search."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from decks.collection import deck_shortfall, export_collection_csv, parse_collection_csv
from decks.models import CollectionCard
from decks.services import DeckInputError, collection_add_set, collection_import_csv, collection_set


def test_collection_csv_reads_codes_titles_and_headerless_rows(pool):
    parsed = parse_collection_csv("card,qty\nu01,2\nMorgana\u2019s Spy,3\nGawain, Son of Lot,1\n", pool)
    # "Gawain, Son of Lot" unquoted splits into 3 cells: the count column is the second one -> a bad row.
    assert parsed.counts == {"u01": 2, "spy": 3}
    assert [p.code for p in parsed.problems] == ["bad_line"]
    parsed = parse_collection_csv('"Gawain, Son of Lot",1\nu01,1\nu01,2\n', pool)
    assert parsed.counts == {"gawain-lot": 1, "u01": 3} and not parsed.problems


@pytest.mark.parametrize("text,code", [
    ("code,count\nGawian,1", "unknown_card"),
    ("code,count\nGawain,1", "ambiguous_card"),
    ("code,count\nu01,-1", "bad_line"),
    ("code,count\nu01,1000000", "bad_line"),
    ("code,count\nu01", "bad_line"),
    ("name,colour\nu01,red", "bad_line"),
])
def test_collection_csv_bad_rows(pool, text, code):
    parsed = parse_collection_csv(text, pool)
    assert [p.code for p in parsed.problems] == [code]


def test_collection_csv_round_trip_and_shortfall(pool):
    owned = {"u01": 2, "gawain-lot": 1, "spy": 12}
    assert parse_collection_csv(export_collection_csv(owned, pool), pool).counts == owned
    assert deck_shortfall({"u01": 3, "spy": 3, "u02": 1}, owned) == {"u01": 1, "u02": 1}
    assert deck_shortfall({"u01": 2}, owned) == {}


@pytest.mark.django_db
def test_collection_services_import_is_all_or_nothing(small_catalogue):
    user = get_user_model().objects.create_user("carol", password="pw-carol-123")
    assert collection_set(user=user, counts={"u01": 2, "u02": 1}) == {"u01": 2, "u02": 1}
    assert collection_set(user=user, counts={"u02": 0, "u03": 3}) == {"u01": 2, "u03": 3}
    with pytest.raises(DeckInputError) as info:
        collection_import_csv(user=user, text="code,count\nu05,1\nGawian,2\n")
    assert info.value.problems[0].line == 3
    assert CollectionCard.objects.filter(user=user).count() == 2  # nothing half-saved
    assert collection_import_csv(user=user, text="code,count\nu05,1\n") == {"u05": 1}
    owned = collection_add_set(user=user, set_code="tst", copies=2)
    assert owned["u05"] == 3 and owned["u01"] == 2 and len(owned) == len(small_catalogue)
    with pytest.raises(DeckInputError, match="No set"):
        collection_add_set(user=user, set_code="nope")
    with pytest.raises(DeckInputError, match="Unknown card"):
        collection_set(user=user, counts={"nope": 1})


@pytest.mark.django_db
def test_collection_api_and_owned_search(small_catalogue):
    from cards.search import search_cards

    user = get_user_model().objects.create_user("dave", password="pw-dave-1234")
    client = APIClient()
    assert client.get("/api/collection/").status_code in (401, 403)
    client.force_authenticate(user)
    assert client.get("/api/collection/").json() == {"cards": {}}
    response = client.post("/api/collection/cards/", {"cards": {"u01": 3, "spy": 1}}, format="json")
    assert response.status_code == 200 and response.json()["cards"] == {"spy": 1, "u01": 3}
    assert client.post("/api/collection/cards/", {"cards": {"u01": 5000}}, format="json").status_code == 400
    assert client.post("/api/collection/cards/", {"cards": {"nope": 1}}, format="json").status_code == 400
    bad = client.post("/api/collection/import/", {"csv": "code,count\nGawian,1"}, format="json")
    assert bad.status_code == 400 and bad.json()["problems"][0]["suggestions"]
    ok = client.post("/api/collection/import/", {"csv": "code,count\nu02,2", "replace": False}, format="json")
    assert ok.json()["cards"] == {"spy": 1, "u01": 3, "u02": 2}
    csv_text = client.get("/api/collection/export/").content.decode()
    assert csv_text.splitlines()[0] == "code,title,count" and "u01,Knight 1,3" in csv_text
    assert client.put("/api/collection/replace/", {"cards": {"u01": 1}}, format="json").json() == {
        "cards": {"u01": 1}}
    assert client.post("/api/collection/sets/", {"set": "nope"}, format="json").status_code == 400
    # owned: in card search (CONTRACTS §5) now answers from this collection.
    assert set(search_cards("owned:yes", user=user).values_list("code", flat=True)) == {"u01"}
    from cards.search import card_matches

    assert card_matches("owned:yes", small_catalogue.get("u01"), user=user)
    assert not card_matches("owned:yes", small_catalogue.get("u02"), user=user)
    deck = client.post("/api/decks/", {"name": "D", "cards": {"u01": 3, "u02": 1}}, format="json").json()
    assert client.get(f"/api/decks/{deck['id']}/buildable/").json() == {
        "buildable": False, "missing": {"u01": 2, "u02": 1}}


def test_collection_csv_with_any_line_endings_or_garbage_never_crashes(pool):
    assert parse_collection_csv("code,count\ru01,2\r\nu02,1\n", pool).counts == {"u01": 2, "u02": 1}
    for junk in ('"unterminated\n', "a\x00b,1", bytes(range(256)).decode("latin-1")):
        parsed = parse_collection_csv(junk, pool)
        assert parsed.counts == {} and parsed.problems, junk
    assert parse_collection_csv("\r\r\r", pool).counts == {}
