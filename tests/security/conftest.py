"""Security test fixtures: two users, Alice's private and public decks, a published decklist."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttle counters live in the cache: every test starts from zero."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", "alice@example.com", "alice-pw-Camelot-1")


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", "bob@example.com", "bob-pw-Avalon-2")


@pytest.fixture
def some_units(db) -> list[str]:
    from cards.models import Card

    return list(Card.objects.filter(type="unit").order_by("code").values_list("code", flat=True)[:3])


@pytest.fixture
def private_deck(alice, some_units):
    from decks.services import deck_create

    return deck_create(owner=alice, name="Alice secret plan", counts={c: 2 for c in some_units},
                       is_private=True).deck


@pytest.fixture
def public_deck(alice, some_units):
    from decks.services import deck_create

    return deck_create(owner=alice, name="Alice open deck", counts={some_units[0]: 1}, is_private=False).deck


def client_for(user) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c
