"""Nothing a user saved is lost: the account file also holds the decklists a player published and the
decklists they liked or marked as favourite, and importing it brings them back without doubling anything."""
from __future__ import annotations

import json

import pytest

from decks.archive import read_archive
from decks.models import Decklist, DecklistCard, DecklistFavourite, DecklistLike
from decks.selectors import decklist_search
from decks.services import (DeckInputError, account_export, account_import, deck_create, deck_update,
                            decklist_favourite, decklist_like, decklist_publish)

from .cardsets import LEGAL_BASE

pytestmark = pytest.mark.django_db


def _published(user):
    return sorted((d.title, d.description, tuple(sorted(d.cards.items())), d.published_at.isoformat(),
                   d.faction.slug if d.faction else None)
                  for d in Decklist.objects.filter(owner=user))


def _setup(ada, carol):
    deck = deck_create(owner=ada, name="Knights", counts=LEGAL_BASE).deck
    first = decklist_publish(deck=deck, title="Knights v1", description="*fast*")
    deck_update(deck=deck, counts=dict(LEGAL_BASE, u01=2, u21=1))
    second = decklist_publish(deck=deck, title="Knights v2")
    theirs = decklist_publish(deck=deck_create(owner=carol, name="C", counts=LEGAL_BASE).deck, title="Carol's")
    decklist_like(decklist=theirs, user=ada)
    decklist_favourite(decklist=theirs, user=ada)
    # A like of one's own list, made before authors were refused one: the archive still carries it.
    DecklistLike.objects.create(decklist=first, user=ada)
    Decklist.objects.filter(pk=first.pk).update(like_count=1)
    return first, second, theirs


def test_export_holds_published_decklists_likes_and_favourites(small_catalogue, ada, carol):
    first, second, theirs = _setup(ada, carol)
    data = account_export(user=ada)
    assert [d["title"] for d in data["decklists"]] == ["Knights v1", "Knights v2"]
    assert data["decklists"][0]["source_deck"] == 0 and data["decklists"][0]["description"] == "*fast*"
    assert data["decklists"][1]["cards"]["u01"] == 2
    assert data["likes"] == [theirs.pk, first.pk] and data["favourites"] == [theirs.pk]
    json.dumps(data)


def test_import_into_another_account_recreates_the_published_decklists_and_marks(small_catalogue, ada, bob, carol):
    first, second, theirs = _setup(ada, carol)
    summary = account_import(user=bob, data=json.loads(json.dumps(account_export(user=ada))))
    assert summary.decklists == 2 and summary.likes == 2 and summary.favourites == 1 and summary.missing_marks == 0
    assert [t[:4] for t in _published(bob)] == [t[:4] for t in _published(ada)]   # titles, text, cards, dates
    v2 = Decklist.objects.get(owner=bob, title="Knights v2")
    assert v2.source_deck.owner == bob and v2.previous.title == "Knights v1"
    # the card rows follow the restored date (database trigger), so "decklists containing X" finds them
    assert set(DecklistCard.objects.filter(decklist=v2).values_list("published_at", flat=True)) == {v2.published_at}
    assert v2 in list(decklist_search(cards=["u21"]))
    theirs.refresh_from_db()
    assert theirs.like_count == 2 and theirs.favourite_count == 2
    assert DecklistLike.objects.filter(user=bob, decklist=first).exists()


def test_import_into_the_same_account_doubles_nothing(small_catalogue, ada, carol):
    _setup(ada, carol)
    data = account_export(user=ada)
    summary = account_import(user=ada, data=data)
    assert summary.decklists == 0 and summary.likes == 0 and summary.favourites == 0
    assert Decklist.objects.filter(owner=ada).count() == 2
    assert DecklistLike.objects.filter(user=ada).count() == 2 and DecklistFavourite.objects.filter(user=ada).count() == 1


def test_marks_on_decklists_that_are_gone_are_counted_not_failed(small_catalogue, ada, bob, carol):
    _, _, theirs = _setup(ada, carol)
    data = account_export(user=ada)
    theirs.delete()
    summary = account_import(user=bob, data=data)
    assert summary.missing_marks == 2 and summary.likes == 1


def test_an_old_file_without_decklists_still_imports(small_catalogue, ada, bob, carol):
    _setup(ada, carol)
    data = account_export(user=ada)
    for key in ("decklists", "likes", "favourites"):
        data.pop(key)
    summary = account_import(user=bob, data=data)
    assert summary.decklists == 0 and len(summary.decks) == 1


@pytest.mark.parametrize("mutate,where", [
    (lambda d: d.update(decklists="x"), "decklists: expected a list"),
    (lambda d: d["decklists"][0].update(title=""), "decklists[0].title"),
    (lambda d: d["decklists"][0].update(cards={}), "decklists[0].cards"),
    (lambda d: d["decklists"][0].update(source_deck=7), "decklists[0].source_deck"),
    (lambda d: d["decklists"][0].update(published_at="yesterday"), "decklists[0].published_at"),
    (lambda d: d.update(likes=[1, "two"]), "likes[1]"),
    (lambda d: d.update(favourites={"a": 1}), "favourites: expected a list"),
])
def test_a_bad_decklist_part_is_refused_whole_and_saves_nothing(small_catalogue, ada, bob, carol, mutate, where):
    _setup(ada, carol)
    data = json.loads(json.dumps(account_export(user=ada)))
    mutate(data)
    assert any(where in p for p in read_archive(data).problems)
    with pytest.raises(DeckInputError):
        account_import(user=bob, data=data)
    assert not Decklist.objects.filter(owner=bob).exists() and not DecklistLike.objects.filter(user=bob).exists()
