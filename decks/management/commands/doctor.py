"""`python manage.py doctor FILE [--game G] [--json]` (CONTRACTS §3): the deck doctor's structural reading.

Exit 0: the deck was read (with findings or none; a deck that is not legal is read all the same, its legality
errors first). Exit 2: the file cannot be read, a line names no card (the message names the line), the arguments
are wrong, or the database is not ready.
"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from roc_site.dbcheck import require_database

from decks.management.commands.validatedeck import Command as ValidateCommand


class Command(BaseCommand):
    help = ("The deck doctor: what a deck's structure costs it (undefended struggle types, dead cards, the cost "
            "curve against the quests' wealth, setup, Loyalty, Restricted cards, draw-deck size), each finding with "
            "its rule, evidence and suggestions. Exit 0 read, 2 unreadable.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="decklist text file (CONTRACTS §2); '-' reads standard input")
        parser.add_argument("--game", default=None, help="the game (CONTRACTS §7); default r1")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args, **options):
        from cards.games import registry
        from decks.doctor import DoctorInputError, diagnose_text

        try:
            game = registry.get(options["game"])
        except registry.UnknownGame as e:
            raise CommandError(f"--game: {e}", returncode=2) from None
        if not game.has("doctor"):
            raise CommandError(f"--game {game.slug}: this game has no deck doctor", returncode=2)
        text = ValidateCommand._read(self, options["file"])
        require_database(cards=game.own_tables)
        if not game.own_tables:
            from cards.selectors import game_cards
            if not game_cards(game.slug):
                raise CommandError(f"No {game.slug} cards are loaded: run python manage.py loadcards on its card "
                                   "file (make load-core does).", returncode=2)
        try:
            data = diagnose_text(text, game_slug=game.slug)
        except DoctorInputError as e:
            raise CommandError(f"{options['file']}: {e}", returncode=2) from None
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
        else:
            self.stdout.write(render_report(data))


def render_report(data: dict) -> str:
    deck = data["deck"]
    who = deck.get("faction") or deck.get("affiliation") or "no identity"
    lines = [f"Deck doctor: {deck.get('name') or 'deck'} ({who}; {deck.get('cards')} cards; "
             f"{'legal' if deck.get('legal') else 'NOT LEGAL'})"]
    for s in data.get("samples", []):
        lines.append(f"  games read: {s['note']}")
    if not data["findings"]:
        lines.append("No findings.")
    mark = {"error": "x", "warning": "!", "info": "-"}
    for f in data["findings"]:
        lines.append(f"{mark.get(f['severity'], '-')} [{f['code']}, {f['rule']}] {f['message']}")
        for s in f["suggestions"]:
            change = " / ".join(x for x in (f"+ {s['add']}" if s["add"] else "",
                                            f"- {s['remove']}" if s["remove"] else "") if x)
            lines.append(f"    {change}: {s['why']}")
    return "\n".join(lines)
