"""`python manage.py publishstarters [--account NAME]`: the core set's starter decks (cards/data/starters/) as
published decklists of the site's own account, so /decklists/ shows them on a new site.

Idempotent: `make run` runs it after `loadcards` every time, and a starter already published with the same list
is left alone; a starter whose file changed is published again as a newer version. Exit 0 when done; 1 when the
catalogue is empty, a starter cannot be read or is not legal (nothing is published then).
"""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from cards.starters import starters
from decks.services import STARTER_ACCOUNT, DeckInputError, starter_decklists_publish


class Command(BaseCommand):
    help = "Publish the core set's starter decks as decklists of the site's account (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--account", default=STARTER_ACCOUNT,
                            help=f"username of the site's account that publishes them (default {STARTER_ACCOUNT})")

    def handle(self, *args, account: str, **options):
        try:
            result = starter_decklists_publish(starters=starters(), account=account)
        except DeckInputError as e:
            raise CommandError(e.message, returncode=1) from e
        except DatabaseError as e:
            raise CommandError(f"The database is not ready ({str(e).splitlines()[0][:120]}): run "
                               "`python manage.py migrate` first.", returncode=1) from e
        from decks.game_services import GameDeckError, game_starters_publish

        try:
            others, others_unchanged = game_starters_publish(account=account)  # the other games' (CONTRACTS §7)
        except GameDeckError as e:
            raise CommandError(e.message, returncode=1) from e
        for decklist in [*result.published, *others]:
            self.stdout.write(f"published {decklist.title} ({decklist.get_absolute_url()})")
        self.stdout.write(f"Starter decklists of {result.account}: {len(result.published) + len(others)} published, "
                          f"{result.unchanged + others_unchanged} already up to date.")
