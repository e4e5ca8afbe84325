"""python manage.py rendercards [--set CODE] [--out DIR] [--sheet FILE] [--size SIZE] [--code CODE ...]

Renders every card's image. Without --out the images go to the disk cache that
/cards/CODE.png serves from (warming it); with --out each card is written as DIR/CODE.png. --sheet also writes
a contact sheet: every rendered card as a thumbnail with its code underneath, for looking at a whole set at once.
"""
from __future__ import annotations

import shutil
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cards.images import SIZES, card_legibility, card_png, contact_sheet, prune_cache
from cards.models import Card, CardSet


class Command(BaseCommand):
    help = "Render card images (to the image cache, or to --out DIR) and optionally a contact sheet."

    def add_arguments(self, parser):
        parser.add_argument("--set", dest="set_code", metavar="CODE", help="only this set's cards")
        parser.add_argument("--code", dest="codes", metavar="CODE", action="append",
                            help="only this card (repeatable)")
        parser.add_argument("--out", metavar="DIR", help="write DIR/CODE.png for each card")
        parser.add_argument("--sheet", metavar="FILE", help="also write a contact sheet PNG of all rendered cards")
        parser.add_argument("--size", default="normal", help=f"image size: {', '.join(SIZES)} (default normal)")
        parser.add_argument("--columns", type=int, default=8, help="contact sheet columns (default 8)")
        parser.add_argument("--prune", action="store_true",
                            help="first delete cached images of deleted cards and of cards edited since")
        parser.add_argument("--strict", action="store_true",
                            help="exit 1 when a card's name or text comes out too small to read, or is cut short")

    def handle(self, *args, set_code=None, codes=None, out=None, sheet=None, size="normal", columns=8,
               strict=False, prune=False, **options):
        if size not in SIZES:
            raise CommandError(f"--size {size!r} is not a size; sizes are {', '.join(SIZES)}.", returncode=2)
        if columns < 1:
            raise CommandError("--columns must be at least 1.", returncode=2)
        cards = Card.objects.select_related("faction", "card_set").order_by("card_set__position", "number", "code")
        if set_code:
            if not CardSet.objects.filter(code=set_code).exists():
                known = ", ".join(CardSet.objects.values_list("code", flat=True)) or "none loaded"
                raise CommandError(f"No set with code {set_code!r} (known sets: {known}).", returncode=2)
            cards = cards.filter(card_set__code=set_code)
        if codes:
            cards = cards.filter(code__in=codes)
            missing = sorted(set(codes) - set(cards.values_list("code", flat=True)))
            if missing:
                raise CommandError(f"No card with code {', '.join(map(repr, missing))}.", returncode=2)
        cards = list(cards)
        if not cards:
            raise CommandError("No cards to render (is a card file loaded? `manage.py loadcards FILE`).",
                               returncode=2)
        if prune:
            removed = prune_cache(Card.objects.select_related("faction", "card_set"))
            self.stdout.write(f"Pruned {removed} stale cached image(s).")
        out_dir = Path(out) if out else None
        if out_dir:
            out_dir.mkdir(parents=True, exist_ok=True)

        started = time.perf_counter()
        rendered = cached = 0
        paths = []
        for card in cards:
            image = card_png(card, size)
            rendered += image.rendered
            cached += not image.rendered
            if out_dir:
                target = out_dir / f"{card.code}.png"
                shutil.copyfile(image.path, target)
                paths.append((card.code, target))
            else:
                paths.append((card.code, image.path))
        elapsed = time.perf_counter() - started
        where = out_dir or paths[0][1].parent
        self.stdout.write(f"{len(cards)} card images ({size}) in {where}: {rendered} rendered, "
                          f"{cached} already cached, {elapsed:.1f} s.")
        if sheet:
            sheet_path = Path(sheet)
            sheet_path.parent.mkdir(parents=True, exist_ok=True)
            contact_sheet(paths, columns=columns).save(sheet_path, format="PNG")
            self.stdout.write(f"Contact sheet of {len(paths)} cards: {sheet_path}")

        # Legibility on the standard 500x700 image, whatever size was rendered.
        problems = []
        dropped = []
        for card in cards:
            check = card_legibility(card.to_data())
            if check.problems:
                problems.append(f"  {card.code} ({card.title}): {'; '.join(check.problems)}")
            if check.flavour_dropped:
                dropped.append(card.code)
        if dropped:
            self.stdout.write(f"Flavour text left out for lack of room on {len(dropped)} card(s): "
                              + ", ".join(dropped))
        if problems:
            self.stderr.write(f"{len(problems)} card(s) hard to read:\n" + "\n".join(problems))
            if strict:
                raise CommandError("Some cards are not legible (see above).", returncode=1)
        else:
            self.stdout.write("Every card is legible: names at 14 px or more, rules text at 10 px or more.")
