"""All of a player's decks (every version) and their collection as one JSON file, imported back
atomically, never overwriting anything."""
from __future__ import annotations

import io
import json

import pytest

from decks.archive import ARCHIVE_FORMAT, read_archive
from decks.models import CollectionCard, Deck, DeckVersion
from decks.services import (DeckInputError, account_export, account_import, collection_set, deck_create, deck_delete,
                            deck_restore_version, deck_update)

from .cardsets import LEGAL_BASE

pytestmark = pytest.mark.django_db


def _history(user):
    """Everything a user saved, independent of ids: per deck its versions' numbers, names and cards."""
    return sorted((d.name, d.is_private, d.deleted_at is not None,
                   tuple((v.number, v.name, v.notes, tuple(v.tags), tuple(sorted(v.cards.items())), v.based_on,
                          v.restored_from) for v in d.versions.order_by("number")))
                  for d in Deck.objects.filter(owner=user))


def _account(user):
    first = deck_create(owner=user, name="Knights", counts=LEGAL_BASE, notes="*v1*", tags=["aggro"]).deck
    deck_update(deck=first, counts=dict(LEGAL_BASE, u01=2), notes="v2")
    deck_restore_version(deck=first, number=1)
    gone = deck_create(owner=user, name="Old idea", counts={"u02": 3}, is_private=False).deck
    deck_delete(deck=gone)
    collection_set(user=user, counts={"u01": 3, "u02": 1})
    return first


def test_export_holds_every_deck_every_version_and_the_collection(small_catalogue, ada):
    _account(ada)
    data = account_export(user=ada)
    assert data["format"] == ARCHIVE_FORMAT and data["version"] == 1 and data["user"] == "ada"
    by_name = {d["name"]: d for d in data["decks"]}
    assert [v["number"] for v in by_name["Knights"]["versions"]] == [1, 2, 3]
    assert by_name["Knights"]["versions"][2]["restored_from"] == 1
    assert by_name["Knights"]["versions"][1]["cards"]["u01"] == 2
    assert by_name["Old idea"]["deleted"] is True and by_name["Old idea"]["is_private"] is False
    assert data["collection"] == {"u01": 3, "u02": 1}
    json.dumps(data)  # one JSON file


def test_import_into_another_account_recreates_the_same_history(small_catalogue, ada, bob):
    _account(ada)
    summary = account_import(user=bob, data=json.loads(json.dumps(account_export(user=ada))))
    assert len(summary.decks) == 2 and summary.versions == 4 and summary.collection_cards == 2
    assert _history(bob) == _history(ada)
    knights = Deck.objects.get(owner=bob, name="Knights")
    assert knights.version == 3 and knights.counts == LEGAL_BASE and knights.faction.slug == "camelot"
    assert knights.notes == "*v1*" and knights.tags == ["aggro"]
    original = DeckVersion.objects.get(deck__owner=ada, deck__name="Knights", number=2)
    assert DeckVersion.objects.get(deck=knights, number=2).created_at == original.created_at
    assert dict(CollectionCard.objects.filter(user=bob).values_list("card_code", "count")) == {"u01": 3, "u02": 1}


def test_import_never_overwrites_decks_are_added_and_collection_keeps_the_larger_count(small_catalogue, ada):
    _account(ada)
    data = account_export(user=ada)
    before = _history(ada)
    collection_set(user=ada, counts={"u01": 5, "u02": 0})
    account_import(user=ada, data=data)
    assert Deck.objects.filter(owner=ada).count() == 4  # the two originals untouched, two more added
    assert sorted(_history(ada)) == sorted(before + before)
    assert dict(CollectionCard.objects.filter(user=ada).values_list("card_code", "count")) == {"u01": 5, "u02": 1}


def test_a_restored_version_keeps_its_link_and_the_copy_can_restore_any_version(small_catalogue, ada, bob):
    _account(ada)
    account_import(user=bob, data=account_export(user=ada))
    knights = Deck.objects.get(owner=bob, name="Knights")
    result = deck_restore_version(deck=knights, number=2)
    assert result.version.number == 4 and knights.__class__.objects.get(pk=knights.pk).counts["u01"] == 2


@pytest.mark.parametrize("mutate,where", [
    (lambda d: d.update(format="something"), "format:"),
    (lambda d: d.update(version=2), "version:"),
    (lambda d: d["decks"][0].update(name=""), "decks[0].name"),
    (lambda d: d["decks"][0].update(name="x" * 201), "decks[0].name: 201 characters"),
    (lambda d: d["decks"][1]["versions"][0].update(notes="n" * 20_001), "decks[1].versions[0].notes"),
    (lambda d: d["decks"][0]["versions"][0]["cards"].update({"u01": 100}), "decks[0].versions[0].cards.u01"),
    (lambda d: d["decks"][0]["versions"][0]["cards"].update({"<script>": 1}), "is not a card code"),
    (lambda d: d["decks"][0].update(versions=[]), "decks[0].versions"),
    (lambda d: d["decks"][0]["versions"][1].update(number=1), "two versions share a number"),
    (lambda d: d["decks"][0]["versions"][0].update(created_at="yesterday"), "not an ISO 8601"),
    (lambda d: d["collection"].update({"nope": 2}), "collection.nope: no card has this code"),
    (lambda d: d["collection"].update({"u01": -1}), "collection.u01"),
    (lambda d: d.update(decks="all"), "decks: expected a list"),
    (lambda d: d["decks"][0].update(name="nul\x00"), "decks[0].name: contains a NUL"),
    (lambda d: d["decks"][0]["versions"][0].update(tags=["a\x00"]), "decks[0].versions[0].tags"),
])
def test_a_bad_file_names_the_place_and_saves_nothing(small_catalogue, ada, bob, mutate, where):
    _account(ada)
    data = account_export(user=ada)
    mutate(data)
    with pytest.raises(DeckInputError) as e:
        account_import(user=bob, data=data)
    assert where in " ".join(p.message for p in e.value.problems)
    assert not Deck.objects.filter(owner=bob).exists() and not CollectionCard.objects.filter(user=bob).exists()


def test_a_card_deleted_from_the_catalogue_stays_in_an_imported_deck(small_catalogue, ada, bob):
    from cards.models import Card

    _account(ada)
    data = account_export(user=ada)
    data["collection"].pop("u02")
    Card.objects.filter(code="u02").delete()
    account_import(user=bob, data=data)
    assert Deck.objects.get(owner=bob, name="Old idea").counts == {"u02": 3}


def test_read_archive_lists_every_problem_not_just_the_first():
    archive = read_archive({"format": ARCHIVE_FORMAT, "version": 1, "collection": {"a": "x"},
                            "decks": [{"name": "", "versions": []}, 7]})
    text = " | ".join(archive.problems)
    assert "collection.a" in text and "decks[0].name" in text and "decks[0].versions" in text and "decks[1]" in text


def test_api_export_and_import_round_trip_and_bad_file_is_400(client, small_catalogue, ada, bob):
    _account(ada)
    client.force_login(ada)
    exported = client.get("/api/decks/archive/")
    assert exported.status_code == 200 and "attachment" in exported["Content-Disposition"]
    data = exported.json()
    client.force_login(bob)
    ok = client.post("/api/decks/archive/", data, content_type="application/json")
    assert ok.status_code == 201 and ok.json()["versions"] == 4
    assert _history(bob) == _history(ada)
    data["decks"][0]["versions"][0]["cards"] = {"u01": "three"}
    bad = client.post("/api/decks/archive/", data, content_type="application/json")
    assert bad.status_code == 400 and "decks[0].versions[0].cards.u01" in json.dumps(bad.json()["problems"])
    assert Deck.objects.filter(owner=bob).count() == 2
    junk = client.post("/api/decks/archive/", "{not json", content_type="application/json")
    assert junk.status_code == 400 and "detail" in junk.json()
    client.logout()
    assert client.get("/api/decks/archive/").status_code in (401, 403)


def test_pages_download_and_upload_the_account_file(client, small_catalogue, ada, bob):
    _account(ada)
    client.force_login(ada)
    assert "Download all my data" in client.get("/decks/").content.decode()
    body = client.get("/decks/archive.json")
    assert body.status_code == 200 and body["Content-Type"].startswith("application/json")
    client.force_login(bob)
    upload = io.BytesIO(body.content)
    upload.name = "reign-of-kings-account.json"
    ok = client.post("/decks/archive/import/", {"file": upload})
    assert ok.status_code == 302 and Deck.objects.filter(owner=bob).count() == 2
    bad = io.BytesIO(b"\xff\xfe not json")
    bad.name = "x.json"
    response = client.post("/decks/archive/import/", {"file": bad})
    assert response.status_code == 400 and "not UTF-8" in response.content.decode()
    assert Deck.objects.filter(owner=bob).count() == 2
    client.logout()
    assert client.get("/decks/archive.json").status_code == 302  # to the login page
