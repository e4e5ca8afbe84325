"""`python manage.py validatedeck FILE [--json] [--format SLUG]` (CONTRACTS §3).

Exit 0: the deck is legal. Exit 1: it is not (every problem is listed). Exit 2: the file cannot be read, the
arguments are wrong, or the database is not ready (not migrated, no cards loaded: the message says what to run). The active organised-play format applies unless `--format` names another one.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from roc_site.dbcheck import require_database

from decks.legality import check_decklist_text
from decks.pool import CardPool
from decks.selectors import format_active, format_by_slug

MAX_FILE_BYTES = 1_000_000  # a decklist is a few kilobytes; anything this big is not one


class Command(BaseCommand):
    help = "Check a decklist file against the deckbuilding rules (§11). Exit 0 legal, 1 illegal, 2 unreadable."

    def add_arguments(self, parser):
        parser.add_argument("file", help="decklist text file (CONTRACTS §2); '-' reads standard input")
        parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
        parser.add_argument("--format", dest="format_slug", default=None,
                            help="check against this organised-play format instead of the active one")

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
