"""Deck services: every save is a version, nothing saved is lost, bad input saves nothing."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from decks.decklist import content_hash
from decks.models import Deck, DeckCard, DeckVersion
from decks.pool import CardPool
from decks.selectors import deck_ids_containing_card, deck_list_visible, version_changes
from decks.services import (DeckInputError, deck_create, deck_import_text, deck_restore_version, deck_update)

from .cardsets import LEGAL_BASE

pytestmark = pytest.mark.django_db


def test_deck_create_stores_cards_identity_hash_and_version_1(small_catalogue, alice):
    result = deck_create(owner=alice, name="  My   deck ", counts=LEGAL_BASE, notes="n", tags=["Aggro", "aggro"])
    deck = result.deck
    assert deck.name == "My deck" and deck.is_private  # private by default
    assert deck.faction.slug == "camelot" and deck.destiny.code == "des-plain"
    assert deck.tags == ["aggro"]
    assert deck.counts == LEGAL_BASE
    assert deck.content_hash == content_hash(LEGAL_BASE)
    assert result.version.number == 1 and result.version.cards == LEGAL_BASE and deck.version == 1


@pytest.mark.parametrize("kwargs,message", [
    ({"name": ""}, "needs a name"),
    ({"name": "x" * 201}, "at most 200"),
    ({"counts": {"nope": 1}}, "Unknown card code"),
    ({"counts": {"u01": -1}}, "whole number from 0 to 99"),
    ({"counts": {"u01": 1000000}}, "whole number from 0 to 99"),
    ({"counts": {"u01": "3"}}, "whole number"),
    ({"notes": "n" * 20001}, "at most 20000"),
    ({"tags": ["t"] * 0 + [f"t{i}" for i in range(21)]}, "at most 20 tags"),
])
def test_deck_create_rejects_bad_input_and_saves_nothing(small_catalogue, alice, kwargs, message):
    args = {"owner": alice, "name": "Deck", "counts": {"u01": 3}} | kwargs
    with pytest.raises(DeckInputError, match=message):
        deck_create(**args)
    assert Deck.objects.count() == 0 and DeckVersion.objects.count() == 0


def test_every_save_is_a_version_and_identical_saves_add_none(small_catalogue, alice):
    deck = deck_create(owner=alice, name="D", counts=LEGAL_BASE).deck
    second = deck_update(deck=deck, counts=dict(LEGAL_BASE, u01=2), base_version=1)
    assert second.version.number == 2 and not second.conflict
    assert DeckCard.objects.get(deck=deck, card_code="u01").count == 2
    again = deck_update(deck=deck, counts=dict(LEGAL_BASE, u01=2), base_version=2)
    assert again.version.number == 2  # nothing changed: no new version
    renamed = deck_update(deck=deck, name="D2")
    assert renamed.version.number == 3 and renamed.version.cards == dict(LEGAL_BASE, u01=2)
    assert list(deck.versions.values_list("number", flat=True)) == [3, 2, 1]


def test_two_tabs_saving_keep_both_versions(small_catalogue, alice):
    deck = deck_create(owner=alice, name="D", counts=LEGAL_BASE).deck
    tab_a = deck_update(deck=deck, counts=dict(LEGAL_BASE, spy=1), base_version=1)
    tab_b = deck_update(deck=deck, counts=dict(LEGAL_BASE, loc1=1), base_version=1)  # tab B never saw A's save
    assert not tab_a.conflict and tab_b.conflict
    versions = {v.number: v.cards for v in deck.versions.all()}
    assert versions[2] == dict(LEGAL_BASE, spy=1)  # the earlier save is not erased
    assert versions[3] == dict(LEGAL_BASE, loc1=1)
    assert DeckVersion.objects.get(deck=deck, number=3).based_on == 1


def test_restore_makes_an_old_version_the_latest_without_losing_any(small_catalogue, alice):
    deck = deck_create(owner=alice, name="First", counts=LEGAL_BASE).deck
    deck_update(deck=deck, name="Second", counts={"u01": 1})
    result = deck_restore_version(deck=deck, number=1)
    deck.refresh_from_db()
    assert result.version.number == 3 and result.version.restored_from == 1
    assert deck.name == "First" and deck.counts == LEGAL_BASE and deck.destiny.code == "des-plain"
    assert deck.versions.count() == 3
    with pytest.raises(DeckInputError, match="no version 9"):
        deck_restore_version(deck=deck, number=9)


def test_import_text_with_a_bad_line_saves_nothing_and_lists_every_problem(small_catalogue, alice):
    with pytest.raises(DeckInputError) as info:
        deck_import_text(owner=alice, name="Imported", text="3x Knight 1\n3x Gawian\n0 Knight 2\n2x Gawain")
    assert [(p.line, p.code) for p in info.value.problems] == [
        (2, "unknown_card"), (3, "bad_line"), (4, "ambiguous_card")]
    assert Deck.objects.count() == 0
    result = deck_import_text(owner=alice, name="Imported", text="Units:\n3x Knight 1\nKnight 1 x1")
    assert result.deck.counts == {"u01": 4}
    result = deck_import_text(owner=alice, name="ignored", deck=result.deck, text="2x Knight 2")
    assert result.deck.counts == {"u02": 2} and result.version.number == 2


def test_deck_keeps_cards_deleted_from_the_catalogue(small_catalogue, alice):
    from cards.models import Card

    deck = deck_create(owner=alice, name="D", counts=LEGAL_BASE).deck
    Card.objects.filter(code="u01").delete()
    deck.refresh_from_db()
    assert deck.counts["u01"] == 3
    assert "u01" not in CardPool.from_db()  # the pool noticed the catalogue changed
    # Saving the deck keeps the deleted card (the owner removes it when they choose); new unknown codes are refused.
    saved = deck_update(deck=deck, counts=dict(LEGAL_BASE, u02=2), base_version=1)
    assert saved.version.cards["u01"] == 3 and saved.deck.faction.slug == "camelot"
    assert deck_update(deck=deck, name="Renamed").version.number == 3
    with pytest.raises(DeckInputError, match="Unknown card code: u99"):
        deck_update(deck=deck, counts=dict(LEGAL_BASE, u99=1))
    assert deck_update(deck=deck, counts=dict(LEGAL_BASE, u01=0)).deck.counts.get("u01") is None


def test_selectors_visibility_and_cards_index(small_catalogue, alice):
    bob = get_user_model().objects.create_user("bob", password="pw-bob-12345")
    private = deck_create(owner=alice, name="Secret", counts={"u01": 3}).deck
    public = deck_create(owner=alice, name="Shared", counts={"u02": 3}, is_private=False).deck
    assert set(deck_list_visible(user=bob)) == {public}
    assert set(deck_list_visible(user=alice)) == {private, public}
    assert list(deck_ids_containing_card(code="u01")) == [private.pk]
    assert version_changes({"a": 2, "b": 1}, {"a": 3, "c": 1}) == {"added": {"a": 1, "c": 1},
                                                                  "removed": {"b": 1}}
