"""What the compare, tune and matrix commands share: reading files, --queue, exit codes (CONTRACTS §3).

Exit 0 done, 1 the run failed, 2 bad file / arguments / unplayable deck / database not migrated, 3 queue down.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from roc_site.dbcheck import require_database

from . import runner, tuning
from .tuning import TuningError


def read_file(path: str, what: str) -> tuple[str, str]:
    try:
        return Path(path).name, Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {what} {path}: {exc}", returncode=2) from exc


class TuningCommand(BaseCommand):
    kind = ""

    def common_arguments(self, parser):
        parser.add_argument("--games", type=int, help=f"games per deck and opponent (default "
                                                      f"{tuning.DEFAULT_GAMES[self.kind]})")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--policy", default=None,
                            help=f"the player of the decks under test (random, greedy, ...; see simulate --help; "
                                 f"default {tuning.DEFAULT_POLICY}, a game's own Fast player with --game)")
        parser.add_argument("--opponent-policy", default=None, help="the opponents' player")
        parser.add_argument("--game", default=None, help="a hosted game (realms: decklist files; regions: strategy "
                                                          "files, its swaps are of Heroes); default r1")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
        parser.add_argument("--queue", action="store_true", help="run on the Celery workers and wait")
        parser.add_argument("--timeout", type=float, default=3600, help="seconds to wait with --queue")

    def build(self, options, **kwargs) -> dict:
        from .tuning_input import build_tuning_spec

        if options.get("games") is not None and options["games"] < 1:
            raise CommandError(f"--games must be at least 1, not {options['games']}", returncode=2)
        # r1's lists are read against its loaded cards; a hosted game's reader says what it lacks itself
        require_database(cards=not options.get("game"))
        try:
            return build_tuning_spec(kind=self.kind, games=options.get("games"), seed=options.get("seed"),
                                     policy=options.get("policy"), opponent_policy=options.get("opponent_policy"),
                                     game=options.get("game") or None, **kwargs)
        except (TuningError, runner.EngineUnavailable) as exc:
            raise CommandError(str(exc), returncode=2) from exc

    def execute_spec(self, spec: dict, options) -> dict:
        if options.get("queue"):
            return self._queued(spec, options.get("timeout") or 3600)
        show = sys.stderr.isatty() and not options.get("json")

        def progress(done, total):
            if show:
                self.stderr.write(f"\r{done:,} of about {total:,} games", ending="")
        try:
            return tuning.run_in_process(spec, progress)
        except Exception as exc:  # an engine bug must read as a failed run, not a traceback
            raise CommandError(f"the run failed: {exc.__class__.__name__}: {exc}", returncode=1) from exc

    def _queued(self, spec: dict, timeout: float) -> dict:
        from . import tuning_services as services
        from .models import RunStatus

        run = services.tuning_from_spec(spec)
        try:
            services.tuning_dispatch(run)
        except services.BrokerUnavailable as exc:
            raise CommandError(str(exc), returncode=3) from exc
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            run.refresh_from_db()
            if run.status == RunStatus.DONE:
                return run.result
            if run.status in (RunStatus.FAILED, run.CANCELLED):
                raise CommandError(f"run {run.pk} {run.status}: {run.error}", returncode=1)
            if sys.stderr.isatty():
                self.stderr.write(f"\rrun {run.pk}: {run.progress:.0%}", ending="")
            time.sleep(0.1)
        raise CommandError(f"run {run.pk} did not finish within {timeout:g} s (is a worker running?)", returncode=1)

    def output(self, result: dict, options) -> None:
        if options.get("json"):
            self.stdout.write(json.dumps(result, sort_keys=True))
        else:
            from .tuning_text import tuning_text

            self.stdout.write(tuning_text(result))
