"""python manage.py simulate FILE --mode hands|goldfish|versus [--opponent FILE] [--games N] [--seed S] [--json]
[--policy NAME] [--opponent-policy NAME] [--queue] — CONTRACTS §3. In-process by default; --queue sends the run
to the Celery workers and waits."""
import json
import sys
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from roc_site.dbcheck import require_database
from simulator import runner
from simulator.deckinput import build_spec, policy_names
from simulator.models import RunStatus
from simulator.runner import EngineUnavailable, SpecError


def _read(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {what} {path}: {exc}", returncode=2) from exc


class Command(BaseCommand):
    help = "Simulate a deck: opening hands and setup, goldfish, or head-to-head (CONTRACTS §3)."

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="decklist text file (CONTRACTS §2)")
        parser.add_argument("--mode", required=True, choices=runner.MODES)
        parser.add_argument("--opponent", metavar="FILE", help="the opponent's decklist (versus)")
        parser.add_argument("--games", type=int, help="games to play, or hands to sample for --mode hands")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
        names = ", ".join(policy_names())
        parser.add_argument("--policy", metavar="NAME", default=None,
                            help=f"who plays the first deck (goldfish and versus): one of {names}; "
                                 "expert:N gives the search player N simulations per decision (default greedy); "
                                 "--game regions: strategy (default), random, search, search:N")
        parser.add_argument("--opponent-policy", metavar="NAME", default=None,
                            help=f"who plays the opponent deck (versus): one of {names} (default greedy)")
        parser.add_argument("--queue", action="store_true", help="run on the Celery workers and wait")
        parser.add_argument("--timeout", type=float, default=3600, help="seconds to wait with --queue")
        parser.add_argument("--game", default=None, help="the game (CONTRACTS §7); default r1")
        from simulator.games.command import add_game_arguments

        add_game_arguments(parser)

    def handle(self, *args, file, mode, opponent=None, games=None, seed=1, json=False, queue=False,
               timeout=3600, policy=None, opponent_policy=None, **options):
        from simulator.games.command import handles, simulate_game

        if handles(options.get("game"), mode):  # realms goldfish/versus, regions versus (simulator/games)
            return simulate_game(self, {**self._game_options, "file": file, "mode": mode})
        if options.get("game") not in (None, "", "r1"):  # another game: its registry hooks (decks/game_simulate.py)
            from decks.game_simulate import simulate_other_game

            return simulate_other_game(self, file=file, mode=mode, games=games, seed=seed, as_json=json,
                                       game=options["game"])
        text = _read(file, "deck file")
        opponent_text = _read(opponent, "opponent file") if opponent else None
        if games is not None and games < 1:
            raise CommandError(f"--games must be at least 1, not {games}", returncode=2)
        if mode == "hands" and (policy or opponent_policy):
            raise CommandError("--policy and --opponent-policy go with --mode goldfish or versus (hands plays no "
                               "games)", returncode=2)
        if mode != "versus" and opponent_policy:
            raise CommandError("--opponent-policy goes with --mode versus (the goldfish opponent never decides)",
                               returncode=2)
        settings = {}
        if policy:
            settings["policy"] = policy
        if opponent_policy:
            settings["opponent_policy"] = opponent_policy
        require_database()  # the decks are read against the card catalogue: migrated and loaded, or say so
        try:
            spec = build_spec(mode=mode, text=text, opponent_text=opponent_text, games=games, seed=seed,
                              settings=settings,
                              deck_name=Path(file).name, opponent_name=Path(opponent).name if opponent else None)
        except (SpecError, EngineUnavailable) as exc:
            raise CommandError(str(exc), returncode=2) from exc
        if queue:
            result = self._queued(spec, timeout)
        else:
            try:
                result = runner.run_in_process(spec)
            except Exception as exc:  # an engine bug must read as a failed run, not a traceback
                raise CommandError(f"the simulation failed: {exc.__class__.__name__}: {exc}", returncode=1) from exc
        self._print(result, as_json=json)

    def _queued(self, spec: dict, timeout: float) -> dict:
        from simulator import services

        run = services.run_from_spec(spec)
        try:
            services.run_dispatch(run)
        except services.BrokerUnavailable as exc:
            raise CommandError(str(exc), returncode=3) from exc
        deadline = time.monotonic() + timeout
        shown = -1.0
        while time.monotonic() < deadline:
            run.refresh_from_db()
            if run.status == RunStatus.DONE:
                return run.result
            if run.status == RunStatus.FAILED:
                raise CommandError(f"run {run.pk} failed: {run.error}", returncode=1)
            if run.progress != shown and sys.stderr.isatty():
                shown = run.progress
                self.stderr.write(f"\rrun {run.pk}: {run.progress:.0%}", ending="")
            time.sleep(0.1)
        raise CommandError(f"run {run.pk} did not finish within {timeout:g} s (is a worker running?)", returncode=1)

    def _print(self, result: dict, *, as_json: bool) -> None:
        if as_json:
            self.stdout.write(json.dumps(result, sort_keys=True))
            return
        from simulator.text import report_text

        self.stdout.write(report_text(result))

    def execute(self, *args, **options):
        self._game_options = dict(options)  # every option, whatever handle() names (simulator/games/command.py)
        return super().execute(*args, **options)
