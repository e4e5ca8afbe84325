"""`manage.py publishstarters`: the seven starter decks as published decklists of the site's account,
idempotent (make run runs it on every start), a changed starter published as a newer version."""
from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from cards.starters import Starter, starters
from decks.legality import check_deck
from decks.models import Deck, Decklist
from decks.pool import CardPool
from decks.services import STARTER_ACCOUNT, DeckInputError, starter_decklists_publish

pytestmark = pytest.mark.django_db


def _run(*args) -> str:
    out = StringIO()
    call_command("publishstarters", *args, stdout=out)
    return out.getvalue()


def test_the_seven_starters_are_published_once_however_often_it_runs():
    first = _run()
    assert "7 published, 0 already up to date" in first
    again = _run()
    assert "0 published, 7 already up to date" in again
    lists = Decklist.objects.filter(owner__username=STARTER_ACCOUNT)
    assert lists.count() == 7 and Deck.objects.filter(owner__username=STARTER_ACCOUNT).count() == 7
    pool = CardPool.from_db()
    assert {d.faction.slug for d in lists} == {"camelot", "eleven", "keepers", "lefay", "saracen", "summer", "winter"}
    assert all(check_deck(d.cards, pool).legal for d in lists)
    camelot = lists.get(faction__slug="camelot")
    assert camelot.title == "Camelot — The Fellowship of the Round Table"
    assert not get_user_model().objects.get(username=STARTER_ACCOUNT).has_usable_password()  # nobody logs in


def test_a_changed_starter_is_a_newer_version_linked_to_the_old_one():
    _run()
    old = starters()[0]
    changed = Starter(old.slug, old.faction, old.title, old.text.replace("2x Arthur Pendragon", "1x Arthur Pendragon")
                      .replace("1x Kay, Seneschal", "2x Kay, Seneschal"))
    assert changed.text != old.text
    result = starter_decklists_publish(starters=[changed, *starters()[1:]])
    assert len(result.published) == 1 and result.unchanged == 6
    newer = result.published[0]
    assert newer.previous is not None and newer.previous.faction == newer.faction
    assert Decklist.objects.filter(owner__username=STARTER_ACCOUNT).count() == 8


def test_a_players_account_of_that_name_is_never_used():
    get_user_model().objects.create_user(STARTER_ACCOUNT, password="someone-else-123")
    with pytest.raises(CommandError, match="belongs to a player"):
        _run()
    assert Decklist.objects.count() == 0
    assert "7 published" in _run("--account", "site-starters")


def test_an_illegal_starter_publishes_nothing():
    broken = Starter("broken", "Camelot", "Broken", "1x Camelot, Court of the High King\n3x Hedge Knight\n")
    with pytest.raises(DeckInputError, match="Starter broken: Only a legal deck can be published"):
        starter_decklists_publish(starters=[*starters(), broken])
    assert Decklist.objects.count() == 0 and Deck.objects.count() == 0


def test_an_empty_catalogue_says_to_load_the_cards_first():
    from cards.models import Card

    Card.objects.all().delete()
    with pytest.raises(CommandError, match="load the cards first"):
        _run()


def test_make_run_publishes_them_after_loading_the_cards():
    from pathlib import Path

    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    target = makefile.split("load-core:", 1)[1].split("\n\n", 1)[0]
    assert target.index("loadcards") < target.index("publishstarters")
