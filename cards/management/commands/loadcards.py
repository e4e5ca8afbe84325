"""python manage.py loadcards FILE [FILE ...] — CONTRACTS §1: insert or update by code, all or nothing.

A set naming its game (a `"game"`, CONTRACTS §7) is read by that game's schema (cards/games/registry.py)
and stored in its game's table; no game means r1. All the files load in one transaction, or nothing does."""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from cards.cardfile import CardFileError, parse_card_documents
from cards.games import registry
from cards.services import LoadSummary, card_files_load, game_card_files_load


def _games_of(text: str) -> list[tuple[str, str]]:
    """(game slug, the set object's JSON) for each set of a file, or [] when the file is r1 only or unreadable
    (r1's parser then reads the text itself and reports it)."""
    try:
        doc = json.loads(text)
    except ValueError:
        return []
    docs = doc if isinstance(doc, list) else [doc]
    out = []
    for d in docs:
        card_set = d.get("set") if isinstance(d, dict) else None
        game = card_set.get("game") if isinstance(card_set, dict) else None
        out.append((game if isinstance(game, str) and game else registry.DEFAULT, json.dumps(d)))
    if all(game == registry.DEFAULT for game, _ in out):
        return []
    return out


class Command(BaseCommand):
    help = "Load card data files (CONTRACTS §1). A file with any invalid card loads nothing."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--json", action="store_true", help="print the summary as JSON")

    def handle(self, *args, files, json: bool = False, **options):
        parsed, problems = [], []
        others: dict[str, list] = {}
        seen_codes: dict[str, str] = {}
        for name in files:
            path = Path(name)
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                problems.append(f"{name}: cannot read file ({e})")
                continue
            documents = []
            try:
                split = _games_of(text)
                if not split:
                    documents = parse_card_documents(text, source=name)
                for game, doc in split:
                    if game == registry.DEFAULT:
                        documents.extend(parse_card_documents(doc, source=name))
                        continue
                    try:
                        spec = registry.get(game)
                    except registry.UnknownGame as e:
                        problems.append(f"{name}: the set's \"game\": {e}")
                        continue
                    cf = spec.hook("parse_card_file")(doc, source=name)
                    for error in cf.errors:
                        problems.append(f"{name}: {error}")
                    for code in {c.get("code") for c in cf.cards if c.get("code")}:
                        key = f"{game}:{code}"
                        if key in seen_codes:
                            problems.append(f"{name}: card {code!r}, field 'code': duplicate code, also in "
                                            f"{seen_codes[key]}")
                        seen_codes.setdefault(key, name)
                    others.setdefault(game, []).append(cf)
            except (CardFileError, ValueError) as e:
                problems.append(str(e))
                continue
            for cf in documents:
                for error in cf.errors:
                    problems.append(f"{name}: {error}")
                codes = {card.get("code") for card in cf.cards if card.get("code")}
                for code in sorted(codes & seen_codes.keys()):
                    problems.append(f"{name}: card {code!r}, field 'code': duplicate code, also in "
                                    f"{seen_codes[code]}")
                for code in codes:
                    seen_codes.setdefault(code, name)
                parsed.append(cf)
        if problems:
            for p in problems:
                self.stderr.write(p)
            raise CommandError(f"{len(problems)} problem(s); nothing was loaded.", returncode=1)
        with transaction.atomic():
            summary = card_files_load(card_files=parsed) if parsed else LoadSummary()
            for game, card_files in others.items():
                part = game_card_files_load(game=game, card_files=card_files)
                summary.created += part.created
                summary.updated += part.updated
                summary.unchanged += part.unchanged
        result = {
            "created": len(summary.created), "updated": len(summary.updated), "unchanged": len(summary.unchanged),
            "rewritten": summary.rewritten,
        }
        if json:
            self.stdout.write(__import__("json").dumps(result))
        else:
            self.stdout.write(
                f"Loaded {len(summary.created)} new, {len(summary.updated)} updated, "
                f"{len(summary.unchanged)} unchanged card(s)."
            )
            if summary.rewritten:
                self.stdout.write("Rewritten from older terms (Appendix B): " + ", ".join(summary.rewritten))
