"""Shared fixtures. The core card set is loaded once per test session, right after migrations (STYLE §12)."""
import os
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")

ROOT = Path(__file__).resolve().parent.parent
CORE_SET = ROOT / "cards" / "data" / "core.json"
STARTERS_DIR = ROOT / "cards" / "data" / "starters"


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Every database test sees the core set, as a user of the site would."""
    from django.core.management import call_command

    with django_db_blocker.unblock():
        call_command("loadcards", str(CORE_SET), verbosity=0)


@pytest.fixture(scope="session")
def core_card_data():
    """The core set as CONTRACTS §1 dicts, for tests that need no database (engine, legality)."""
    from cards.cardfile import parse_card_file

    return parse_card_file(CORE_SET.read_text(encoding="utf-8")).cards
