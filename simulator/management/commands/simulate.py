"""python manage.py simulate FILE --mode hands|goldfish|versus [--opponent FILE] [--games N] [--seed S] [--json]
[--policy NAME] [--opponent-policy NAME] [--queue] [--game GAME] — CONTRACTS §3, §7. In-process by default; --queue
sends the run to the Celery workers and waits. Every game goes the same way: simulator/games/command.py."""
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Simulate a deck: opening hands and setup, goldfish, or head-to-head (CONTRACTS §3)."

    def add_arguments(self, parser):
        from simulator.games.command import add_arguments

        add_arguments(parser)

    def handle(self, *args, **options):
        from simulator.games.command import simulate

        return simulate(self, options)
