"""`simulate FILE --game realms --mode goldfish|versus` and `simulate STRATEGY --game regions --mode versus
--opponent STRATEGY` (CONTRACTS §3, §7): in-process by default, `--queue` through the Celery
workers (the same chunks and seeds, so the same JSON except `elapsed_s`)."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from django.core.management.base import CommandError

from roc_site.dbcheck import require_database

from . import GAMES, STRATEGY_GAMES, engine_for, run_hook, run_in_process
from .services import GameSpecError, build_game_spec, run_from_game_spec


def engine_modes(game: str | None) -> tuple[str, ...]:
    """The modes the game's run module (its registration's `runs`) plays through its engine."""
    if game not in GAMES:
        return ()
    return tuple(engine_for({"game": game}).MODES)


def handles(game: str | None, mode: str) -> bool:
    """Whether this module runs (game, mode); other games' modes (realms hands) go to their registry hooks."""
    return game in STRATEGY_GAMES or mode in engine_modes(game)


def _read(path: str, what: str, game: str) -> tuple[str, str]:
    """(name, text) of a file; for a strategy game also the name of a shipped strategy (regions:
    strategies/NAME.txt)."""
    p = Path(path)
    shipped = run_hook(game, "shipped_strategies")
    if shipped and not p.is_file():
        text = shipped().get(path)
        if text is not None:
            return path, text
    try:
        return p.name, p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {what} {path}: {exc}", returncode=2) from exc


def simulate_game(command, options: dict) -> None:
    game, mode = options["game"], options["mode"]
    games = options.get("games")
    if games is not None and games < 1:
        raise CommandError(f"--games must be at least 1, not {games}", returncode=2)
    name, text = _read(options["file"], "strategy file" if game in STRATEGY_GAMES else "deck file", game)
    opp_name, opp_text = "", None
    if options.get("opponent"):
        opp_name, opp_text = _read(options["opponent"], "opponent file", game)
    elif mode == "versus":
        raise CommandError("--opponent FILE is needed for --mode versus", returncode=2)
    if mode != "versus" and options.get("opponent_policy"):
        raise CommandError("--opponent-policy goes with --mode versus (the goldfish opponent never decides)",
                           returncode=2)
    require_database(cards=False)
    try:
        spec = build_game_spec(game, mode=mode, text=text, opponent_text=opp_text, games=games,
                               seed=options.get("seed", 1), policy=options.get("policy"),
                               opponent_policy=options.get("opponent_policy"), fmt=options.get("format"),
                               deck_name=name, opponent_name=opp_name)
    except GameSpecError as exc:
        raise CommandError(str(exc), returncode=2) from None
    if options.get("queue"):
        result = _queued(command, spec, options.get("timeout") or 3600)
    else:
        try:
            result = run_in_process(spec)
        except Exception as exc:  # an engine bug reads as a failed run, not a traceback
            raise CommandError(f"the simulation failed: {exc.__class__.__name__}: {exc}", returncode=1) from exc
    if options.get("json"):
        command.stdout.write(json.dumps(result, sort_keys=True))
    else:
        command.stdout.write(report_text(result))


def _queued(command, spec: dict, timeout: float) -> dict:
    from simulator import services
    from simulator.models import RunStatus

    run = run_from_game_spec(spec)
    try:
        services.run_dispatch(run)
    except services.BrokerUnavailable as exc:
        raise CommandError(str(exc), returncode=3) from exc
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if run.status == RunStatus.DONE:
            return run.result
        if run.status == RunStatus.FAILED:
            raise CommandError(f"run {run.pk} failed: {run.error}", returncode=1)
        if sys.stderr.isatty():
            command.stderr.write(f"\rrun {run.pk}: {run.progress:.0%}", ending="")
        time.sleep(0.1)
    raise CommandError(f"run {run.pk} did not finish within {timeout:g} s (is a worker running?)", returncode=1)


def _pct(p) -> str:
    return "-" if p is None else f"{100 * p:.1f}%"


def report_text(r: dict) -> str:
    """The report in plain words (the command without --json)."""
    game = r.get("game")
    lines = []
    if r["mode"] == "goldfish":
        wt = r["win_turn"]
        lines += [f"{game} goldfish: {r['games']} games, seed {r['seed']}, policy {r.get('policy')}",
                  f"  reached {r['target_vp']} VP: {_pct(r['win_rate'])} of games"
                  + (f"; turns to it: mean {wt['mean']:.2f}, median {wt['median']}, {wt['min']}-{wt['max']}"
                     if wt["mean"] is not None else ""),
                  f"  games with a turn of unpaid red icons: {_pct(r['unpaid']['rate'])}"
                  f" ({r['unpaid']['turns_per_game']:.2f} such turns a game)"]
        vp = r["vp_by_turn"]
        if vp:
            lines.append("  VP by turn: " + " ".join(f"{v:.1f}" for v in vp[:20]))
        gold = [g for g in r["gold_by_turn"] if g is not None]
        if gold:
            lines.append("  Gold by turn: " + " ".join(f"{g:.1f}" for g in gold[:20]))
        if r["stuck_in_hand"]:
            lines.append("  stuck in hand at the end: " + ", ".join(
                f"{s['name']} ({_pct(s['rate'])})" for s in r["stuck_in_hand"][:6]))
    else:
        deck, opp = r.get("deck", {}), r.get("opponent", {})
        lines += [f"{game} versus: {deck.get('name')} against {opp.get('name')}, {r['games']} games, "
                  f"seed {r['seed']}, policies {' / '.join(r.get('policies', []))}",
                  f"  wins {r['wins']}, losses {r['losses']}, draws {r['draws']}: win rate {_pct(r['win_rate'])}"
                  + (f" (95% {_pct(r['ci95'][0])}-{_pct(r['ci95'][1])})" if r.get("ci95") else ""),
                  f"  mean length {r['mean_rounds']:.2f} {run_hook(game, 'REPORT_ROUNDS', 'rounds')}; "
                  f"first player wins {_pct(r['first_player_win_rate'])}"]
        lines += run_hook(game, "report_sides", lambda r: [])(r)
    lines.append(f"  engine {r.get('engine_version')}; {r.get('elapsed_s')} s")
    return "\n".join(lines)


def add_game_arguments(parser) -> None:
    """The hosted games' options, each added unless the r1 command already has it (--policy, --opponent-policy)."""
    have = {s for action in parser._actions for s in action.option_strings}
    if "--policy" not in have:
        parser.add_argument("--policy", metavar="NAME", default=None,
                            help="who plays the first deck or strategy (realms: greedy, random, expert or "
                                 "expert:N; regions: strategy, random, search, search:N)")
    if "--opponent-policy" not in have:
        parser.add_argument("--opponent-policy", metavar="NAME", default=None,
                            help="who plays the opponent (versus)")
    if "--format" not in have:
        parser.add_argument("--format", default=None, choices=("standard", "simplified"),
                            help="realms: standard (50 VP) or simplified (30 VP, 002 §17)")
