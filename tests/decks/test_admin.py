"""Formats in the admin (§11): an admin creates and activates one; the verdict names it; never a 500."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from decks.models import Format
from decks.selectors import format_active

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, db):
    get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-12345")
    client.login(username="root", password="pw-root-12345")
    return client


def test_s11_admin_creates_and_activates_a_format(admin_client, small_catalogue):
    from cards.models import Card

    u01 = Card.objects.get(code="u01").pk
    response = admin_client.post("/admin/decks/format/add/", {
        "name": "Spring League", "slug": "spring-league", "description": "", "banned": [u01], "restricted": []})
    assert response.status_code == 302, response.content[:2000]
    assert format_active() is None  # created inactive: the default format has no list (§11)
    other = Format.objects.create(name="Old League", slug="old-league", active=True)
    spring = Format.objects.get(slug="spring-league")
    response = admin_client.post("/admin/decks/format/", {"action": "activate", "_selected_action": [spring.pk]})
    assert response.status_code == 302
    other.refresh_from_db()
    assert not other.active and format_active().name == "Spring League"
    assert format_active().banned == frozenset({"Knight 1"})


def test_a_second_active_format_is_a_form_error_not_a_500(admin_client, small_catalogue):
    Format.objects.create(name="Old League", slug="old-league", active=True)
    response = admin_client.post("/admin/decks/format/add/", {
        "name": "New League", "slug": "new-league", "description": "", "active": "on"})
    assert response.status_code == 200
    assert b"Only one format can be active" in response.content
    assert Format.objects.count() == 1


def test_admin_deck_pages_render(admin_client, small_catalogue):
    from decks.services import deck_create

    user = get_user_model().objects.get(username="root")
    deck = deck_create(owner=user, name="D", counts={"u01": 3}).deck
    assert admin_client.get("/admin/decks/deck/").status_code == 200
    assert admin_client.get(f"/admin/decks/deck/{deck.pk}/change/").status_code == 200
    assert admin_client.get("/admin/decks/format/").status_code == 200
