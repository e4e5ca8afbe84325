"""python manage.py tune FILE [--target goldfish|winrate] [--gauntlet FILE ...] [--owned USER] [--games N]
[--max-games N] [--seed S] [--policy P] [--json] [--queue] — the one- and two-card swaps that improve a deck most."""
from django.core.management.base import CommandError

from simulator.tuning_command import TuningCommand, read_file


class Command(TuningCommand):
    help = ("Card swaps: cut the cards the deck plays least, try legal cards of the same type and close cost, and "
            "race the candidates (successive halving, common random numbers). Lists the best swaps with their "
            "deltas and 95%% intervals, and the cards judged dead weight.")
    kind = "tune"

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="decklist text file (CONTRACTS §2)")
        parser.add_argument("--target", choices=("goldfish", "winrate"), default=None,
                            help="goldfish: rounds to 15 Influence (the default); winrate: against the gauntlet "
                                 "(the only one for a game with no goldfish, regions)")
        parser.add_argument("--gauntlet", nargs="+", metavar="FILE", default=[],
                            help="opponent decklists for --target winrate (default: the starter decks)")
        parser.add_argument("--owned", metavar="USER", help="only cards USER's collection holds")
        parser.add_argument("--max-games", type=int, default=None, metavar="N",
                            help="the games budget of the whole search: as many candidates are raced as fit in it "
                                 "(default: the most one run may play)")
        self.common_arguments(parser)

    def handle(self, *args, file, target, gauntlet, owned=None, max_games=None, **options):
        from simulator.tuning_input import MAX_GAMES

        if max_games is not None and not 1 <= max_games <= MAX_GAMES:
            raise CommandError(f"--max-games must be from 1 to {MAX_GAMES}, not {max_games}", returncode=2)
        collection = None
        if owned:
            from django.contrib.auth import get_user_model

            from roc_site.dbcheck import require_database

            require_database()
            user = get_user_model().objects.filter(username=owned).first()
            if user is None:
                raise CommandError(f"--owned: no user named {owned!r}", returncode=2)
            collection = dict(user.collection.values_list("card_code", "count"))
        spec = self.build(options, decks=[read_file(file, "deck file")], target=target, owned=collection,
                          gauntlet=[read_file(f, "gauntlet file") for f in gauntlet], budget=max_games or MAX_GAMES)
        self.output(self.execute_spec(spec, options), options)
