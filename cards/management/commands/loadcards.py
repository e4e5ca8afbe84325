"""python manage.py loadcards FILE [FILE ...] — CONTRACTS §1: insert or update by code, all or nothing."""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cards.cardfile import CardFileError, parse_card_documents
from cards.services import card_files_load


class Command(BaseCommand):
    help = "Load card data files (CONTRACTS §1). A file with any invalid card loads nothing."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--json", action="store_true", help="print the summary as JSON")

    def handle(self, *args, files, json: bool = False, **options):
        parsed, problems = [], []
        seen_codes: dict[str, str] = {}
        for name in files:
            path = Path(name)
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                problems.append(f"{name}: cannot read file ({e})")
                continue
            try:
                documents = parse_card_documents(text, source=name)
            except CardFileError as e:
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
        summary = card_files_load(card_files=parsed)
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
