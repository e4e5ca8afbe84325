"""python manage.py judge POSITION.json [--do "ACTION" ...] [--until decision|struggle|phase|round|game]
[--policy NAME] [--json] — CONTRACTS §6: load an r1 position, apply actions, run to a point, print the result."""
import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from roc_site.dbcheck import require_database


class Command(BaseCommand):
    help = ("Load an r1 position (CONTRACTS §6), apply its \"actions\" and each --do, run to --until, and print "
            "the position, the pending decision and the log.")

    def add_arguments(self, parser):
        from simulator.engines.r1.policies import POLICIES
        from simulator.engines.r1.positions import UNTIL
        parser.add_argument("position", metavar="POSITION.json")
        parser.add_argument("--do", action="append", default=[], metavar="ACTION",
                            help='an action text, e.g. --do "struggle combat" (repeatable, applied in order)')
        parser.add_argument("--until", choices=UNTIL, default="decision")
        parser.add_argument("--policy", choices=sorted(POLICIES),
                            help="the policy that plays both players from where the actions end")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args, position, do=(), until="decision", policy=None, json=False, **options):
        from simulator.engines.r1.positions import JudgeError, PositionError, judge
        try:
            data = _json_load(Path(position).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read position {position}: {exc}", returncode=2) from exc
        except ValueError as exc:
            raise CommandError(f"{position}: not JSON: {exc}", returncode=2) from exc
        require_database()
        from decks.pool import CardPool
        try:
            result = judge(data, CardPool.from_db(), list(do), until=until, policy=policy)
        except PositionError as exc:
            raise CommandError(f"{position}: refused: {exc}", returncode=2) from exc
        except JudgeError as exc:
            if json:
                self.stdout.write(_json_dump({"error": str(exc), "action_index": exc.index,
                                              "action": exc.action, "options": exc.options}))
            raise CommandError(str(exc), returncode=2) from exc
        if json:
            self.stdout.write(_json_dump(result))
            return
        pend = result["pending"]
        out = []
        if result["winner"] is not None:
            out.append(f"game over: player {result['winner']} wins ({result['reason']})")
        elif pend is not None:
            out.append(f"pending: player {pend['player']} {pend['decision']}: " + " | ".join(pend["options"]))
        else:
            out.append("stopped at the end asked for (--until)")
        if result["choice"] is not None:
            out.append(f"{policy} would play: {result['choice']}")
        out.append("log:")
        out.extend("  " + line for line in result["log"])
        if result["position"] is not None:
            out.append("position:")
            out.append(_json_dump(result["position"]))
        self.stdout.write("\n".join(out))


def _json_load(text):
    return json.loads(text)


def _json_dump(value):
    return json.dumps(value, ensure_ascii=False, indent=None, separators=(", ", ": "))


if __name__ == "__main__":   # pragma: no cover
    sys.exit("run it as: python manage.py judge POSITION.json")
