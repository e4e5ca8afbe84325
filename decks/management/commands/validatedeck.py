"""`python manage.py validatedeck FILE [--json] [--format SLUG] [--game G]` (CONTRACTS §3, §7).

With `--game realms` (any registered game but r1) the game's legality hook judges the deck and `--format` is
one of that game's formats (realms: `standard`, `simplified`).

Exit 0: the deck is legal. Exit 1: it is not (every problem is listed). Exit 2: the file cannot be read, the
arguments are wrong, or the database is not ready (not migrated, no cards loaded: the message says what to run). The active organised-play format applies unless `--format` names another one.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from roc_site.dbcheck import require_database

from decks.decklist import check_decklist_text
from decks.pool import CardPool
from decks.selectors import format_active, format_by_slug

MAX_FILE_BYTES = 1_000_000  # a decklist is a few kilobytes; anything this big is not one


class Command(BaseCommand):
    help = "Check a decklist file against the deckbuilding rules (§11). Exit 0 legal, 1 illegal, 2 unreadable."

    def add_arguments(self, parser):
        parser.add_argument("file", help="decklist text file (CONTRACTS §2); '-' reads standard input")
        parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
        parser.add_argument("--format", dest="format_slug", default=None,
                            help="check against this organised-play format instead of the active one (r1); "
                                 "another game: one of its formats (realms: standard, simplified)")
        parser.add_argument("--game", default=None, help="the game (CONTRACTS §7); default r1")

    def _read(self, name: str) -> str:
        try:
            if name == "-":
                data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
            else:
                path = Path(name)
                if not path.is_file():
                    raise CommandError(f"{name}: no such file", returncode=2)
                with path.open("rb") as fh:
                    data = fh.read(MAX_FILE_BYTES + 1)
        except OSError as e:
            raise CommandError(f"{name}: cannot read the file ({e.strerror or e})", returncode=2) from e
        if len(data) > MAX_FILE_BYTES:
            raise CommandError(f"{name}: larger than {MAX_FILE_BYTES:,} bytes; that is not a decklist", returncode=2)
        if b"\x00" in data:
            raise CommandError(f"{name}: a binary file, not decklist text", returncode=2)
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise CommandError(f"{name}: not UTF-8 text (byte {e.start})", returncode=2) from e

    def handle(self, *args, **options):
        from cards.games import registry

        try:
            game = registry.get(options["game"])
        except registry.UnknownGame as e:
            raise CommandError(f"--game: {e}", returncode=2) from None
        if not game.own_tables:
            return self._other_game(game, options)
        text = self._read(options["file"])
        require_database()
        if options["format_slug"]:
            fmt = format_by_slug(options["format_slug"])
            if fmt is None:
                raise CommandError(f"--format: no format with slug {options['format_slug']!r}", returncode=2)
        else:
            fmt = format_active()
        verdict = check_decklist_text(text, CardPool.from_db(), fmt)
        if options["json"]:
            self.stdout.write(json.dumps(verdict.to_json(), ensure_ascii=False, indent=2))
        else:
            self.stdout.write(render_verdict(verdict.to_json()))
        if not verdict.legal:
            sys.exit(1)


    def _other_game(self, game, options):
        from cards.selectors import game_cards

        fmt = options["format_slug"] or game.formats[0]
        if fmt not in game.formats:
            raise CommandError(f"--format: the {game.slug} formats are {', '.join(game.formats)}, not {fmt!r}",
                               returncode=2)
        if not game.has("check_text"):
            raise CommandError(f"--game {game.slug}: this game has no deckbuilding to check", returncode=2)
        text = self._read(options["file"])
        require_database(cards=False)
        cards = game_cards(game.slug)
        if not cards:
            raise CommandError(f"No {game.slug} cards are loaded: run python manage.py loadcards on its card file "
                               "(make load-core does).", returncode=2)
        verdict = game.hook("check_text")(text, cards, fmt)
        if options["json"]:
            self.stdout.write(json.dumps(verdict, ensure_ascii=False, indent=2))
        else:
            self.stdout.write(render_game_verdict(verdict))
        if not verdict["legal"]:
            sys.exit(1)


def render_game_verdict(data: dict) -> str:
    counts = ", ".join(f"{n} {k}" for k, n in data.get("counts", {}).items())
    who = data.get("affiliation") or data.get("faction") or "no identity"
    lines = [f"{'LEGAL' if data['legal'] else 'NOT LEGAL'}: {who}; {counts}"
             + (f"; format {data['format']}" if data.get("format") else "")]
    for label, mark, items in (("error", "x", data["errors"]), ("warning", "!", data["warnings"])):
        if items:
            lines.append(f"{len(items)} {label}{'s' if len(items) != 1 else ''}:")
            lines += [f"  {mark} {e['message']} [{e['code']}, {e['rule']}]" for e in items]
    return "\n".join(lines)


def render_verdict(data: dict) -> str:
    counts = data["counts"]
    who = f"{data['faction'] or 'no faction'}, destiny {data['destiny'] or 'none'}"
    head = (f"{'LEGAL' if data['legal'] else 'NOT LEGAL'}: {who}; {counts['draw']} draw cards, "
            f"{counts['quests']} quests" + (f"; format {data['format']}" if data.get("format") else ""))
    lines = [head]
    if data["errors"]:
        lines.append(f"{len(data['errors'])} error{'s' if len(data['errors']) != 1 else ''}:")
        lines += [f"  x {e['message']} [{e['code']}, {e['rule']}]" for e in data["errors"]]
    if data["warnings"]:
        lines.append(f"{len(data['warnings'])} warning{'s' if len(data['warnings']) != 1 else ''}:")
        lines += [f"  ! {w['message']} [{w['code']}, {w['rule']}]" for w in data["warnings"]]
    return "\n".join(lines)
