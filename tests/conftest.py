"""Shared fixtures. The core card set is loaded once per test session, right after migrations (STYLE §12).

Transactional tests (browser, broker) flush every table when they finish, factions and cards included; the
autouse fixture below puts them back before the next database test, so every test sees the same catalogue.
"""
import os
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")

ROOT = Path(__file__).resolve().parent.parent
CORE_SET = ROOT / "cards" / "data" / "core.json"
STARTERS_DIR = ROOT / "cards" / "data" / "starters"


def _load_catalogue():
    from django.core.management import call_command

    from cards.models import FACTION_ROWS, Card, Faction

    if Faction.objects.count() < len(FACTION_ROWS):
        for slug, name, color, position in FACTION_ROWS:
            Faction.objects.update_or_create(slug=slug, defaults={"name": name, "color": color,
                                                                  "position": position})
    if not Card.objects.filter(card_set__code="core").exists():
        call_command("loadcards", str(CORE_SET), verbosity=0)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Every database test sees the core set, as a user of the site would."""
    with django_db_blocker.unblock():
        _load_catalogue()


@pytest.fixture(autouse=True)
def _catalogue_present(request, django_db_blocker):
    if request.node.get_closest_marker("django_db") is not None or "db" in request.fixturenames \
            or "transactional_db" in request.fixturenames:
        request.getfixturevalue("django_db_setup")
        with django_db_blocker.unblock():
            _load_catalogue()
    yield


@pytest.fixture(scope="session")
def core_card_data():
    """The core set as CONTRACTS §1 dicts, for tests that need no database (engine, legality)."""
    from cards.cardfile import parse_card_file

    return parse_card_file(CORE_SET.read_text(encoding="utf-8")).cards
