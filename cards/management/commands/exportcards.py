"""python manage.py exportcards [--game G] [--set CODE] [-o FILE] — CONTRACTS §1, §7; export followed by load is a
no-op. No --game means r1."""
import json
import sys

from django.core.management.base import BaseCommand, CommandError

from cards.games import registry
from cards.models import Card, CardSet, GameCard


class Command(BaseCommand):
    help = "Write cards as a card data file (CONTRACTS §1), to standard output by default."

    def add_arguments(self, parser):
        parser.add_argument("--set", dest="set_code", metavar="CODE")
        parser.add_argument("-o", "--output", metavar="FILE")
        parser.add_argument("--game", default=registry.DEFAULT, help="the game (CONTRACTS §7); default r1")

    def handle(self, *args, set_code=None, output=None, game=registry.DEFAULT, **options):
        try:
            self.spec = registry.get(game)
        except registry.UnknownGame as e:
            raise CommandError(str(e), returncode=2) from None
        sets = CardSet.all_games.filter(game=self.spec.slug)
        if set_code:
            sets = sets.filter(code=set_code)
            if not sets.exists():
                known = ", ".join(CardSet.all_games.filter(game=self.spec.slug).values_list("code", flat=True)) \
                    or "none loaded"
                raise CommandError(f"No set with code {set_code!r} (known sets: {known}).", returncode=2)
        sets = list(sets)
        if len(sets) > 1:
            # One file holds one set; several sets are written as a list of set files.
            docs = [self._doc(s) for s in sets]
            text = json.dumps(docs, ensure_ascii=False, indent=1)
        elif sets:
            text = json.dumps(self._doc(sets[0]), ensure_ascii=False, indent=1)
        else:
            raise CommandError("No cards are loaded.", returncode=2)
        if output:
            with open(output, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        else:
            sys.stdout.write(text + "\n")

    def _doc(self, card_set):
        if not self.spec.own_tables:
            cards = [c.data for c in GameCard.objects.filter(game=card_set.game, card_set=card_set)
                     .order_by("number", "code")]
            return self.spec.hook("set_to_json")(card_set.code, card_set.name, cards)
        cards = Card.objects.filter(card_set=card_set).select_related("faction").order_by("number", "code")
        return {"set": {"code": card_set.code, "name": card_set.name}, "cards": [c.to_data() for c in cards]}
