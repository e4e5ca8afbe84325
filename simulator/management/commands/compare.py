"""python manage.py compare A B [--gauntlet FILE ...] [--games N] [--seed S] [--policy P] [--json] [--queue]
— two decks (two versions of one) against the same gauntlet with common random numbers."""
from simulator.tuning_command import TuningCommand, read_file


class Command(TuningCommand):
    help = ("Version against version: the difference in win rate (per gauntlet deck and overall) and in goldfish "
            "speed of deck A over deck B, with 95%% intervals. The gauntlet defaults to the seven starter decks.")
    kind = "compare"

    def add_arguments(self, parser):
        parser.add_argument("a", metavar="A", help="decklist text file (CONTRACTS §2)")
        parser.add_argument("b", metavar="B", help="the decklist to compare it with (e.g. the previous version)")
        parser.add_argument("--gauntlet", nargs="+", metavar="FILE", default=[],
                            help="opponent decklists (default: the starter decks)")
        self.common_arguments(parser)

    def handle(self, *args, a, b, gauntlet, **options):
        decks = [read_file(a, "deck file"), read_file(b, "deck file")]
        spec = self.build(options, decks=decks, gauntlet=[read_file(f, "gauntlet file") for f in gauntlet])
        self.output(self.execute_spec(spec, options), options)
