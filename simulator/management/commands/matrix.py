"""python manage.py matrix FILE ... [--games N] [--seed S] [--policy P] [--json] [--queue] — a round-robin of
decklists: each cell's win rate with its interval and each deck's Bradley–Terry rating."""
from simulator.tuning_command import TuningCommand, read_file


class Command(TuningCommand):
    help = ("Meta matrix: every deck against every other, a win rate with a 95%% interval per cell, and each "
            "deck's rating (Bradley–Terry on the Elo scale) with its interval.")
    kind = "matrix"

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="decklist text files (at least two)")
        self.common_arguments(parser)

    def handle(self, *args, files, **options):
        spec = self.build(options, decks=[read_file(f, "deck file") for f in files])
        self.output(self.execute_spec(spec, options), options)
