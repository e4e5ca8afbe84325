"""Deck test fixtures: a small hand-made card set, as a pure pool and (for database tests) as the catalogue."""
from __future__ import annotations

import json

import pytest

from decks.pool import CardPool

from .cardsets import LEGAL_BASE, small_cards


@pytest.fixture
def cards() -> list[dict]:
    return small_cards()


@pytest.fixture
def pool(cards) -> CardPool:
    return CardPool.from_cards(cards)


@pytest.fixture
def legal() -> dict[str, int]:
    """A legal Camelot deck of the small set: faction, plain destiny, 7 quests, 20 units x3 = 60 draw cards."""
    return dict(LEGAL_BASE)


@pytest.fixture
def small_catalogue(db):
    """The catalogue holds exactly the small set (inside the test's transaction; the core set comes back after)."""
    from cards.cardfile import parse_card_file
    from cards.models import Card
    from cards.services import card_files_load

    Card.objects.all().delete()
    card_file = parse_card_file(json.dumps({"set": {"code": "tst", "name": "Test set"}, "cards": small_cards()}))
    assert not card_file.errors, card_file.errors
    card_files_load(card_files=[card_file])
    return CardPool.from_db()


def _user(name: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(name, password=f"pw-{name}-12345")


@pytest.fixture
def ada(db):
    return _user("ada")


@pytest.fixture
def bob(db):
    return _user("bob")


@pytest.fixture
def carol(db):
    return _user("carol")


@pytest.fixture
def alice(db):
    return _user("alice")


@pytest.fixture
def erin(db):
    return _user("erin")


@pytest.fixture
def frank(db):
    return _user("frank")
