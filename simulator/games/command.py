"""`python manage.py simulate FILE --mode MODE [--game GAME] …` (CONTRACTS §3, §7), one path for every game: the
game's run module (simulator/games/__init__.py) builds the spec from the files, then the run goes in-process or,
with `--queue`, through the Celery workers (the same chunks and seeds, so the same JSON except `elapsed_s`).
A mode a game offers without its engine (realms hands: the registration's `engine_modes`) goes to that hook."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from django.core.management.base import CommandError

from cards.games import registry
from roc_site.dbcheck import require_database

from . import engine_for, run_hook, run_in_process, simulated
from .services import GameSpecError, build_game_spec, run_from_game_spec


def engine_modes(game: str | None) -> tuple[str, ...]:
    """The modes the game's run module plays through its engine."""
    if game not in simulated():
        return ()
    return tuple(engine_for({"game": game}).MODES)


def all_modes() -> tuple[str, ...]:
    """Every mode some game runs, in registration order (the command's --mode choices)."""
    out: list[str] = []
    for game in registry.games():
        for mode in (*(engine_modes(game.slug)), *game.engine_modes):
            if mode not in out:
                out.append(mode)
    return tuple(out)


def handles(game: str | None, mode: str) -> bool:
    """Whether a run module runs (game, mode): its own modes, and any mode the game offers no other way (its run
    module then says what it runs); a mode the registration's `engine_modes` offers (realms hands) goes there."""
    game = game or registry.DEFAULT
    if game not in simulated():
        return False
    return mode in engine_modes(game) or mode not in registry.get(game).engine_modes


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


def command_problem(mode: str, options: dict) -> str | None:
    """The options the command refuses for any game before reading a file."""
    if mode == "hands" and (options.get("policy") or options.get("opponent_policy")):
        return "--policy and --opponent-policy go with --mode goldfish or versus (hands plays no games)"
    if mode != "versus" and options.get("opponent_policy"):
        return "--opponent-policy goes with --mode versus (the goldfish opponent never decides)"
    return None


def simulate(command, options: dict) -> None:
    """The whole command: every option as parsed (simulator/management/commands/simulate.py)."""
    game, mode = options.get("game") or registry.DEFAULT, options["mode"]
    try:
        registry.get(game)
    except registry.UnknownGame as exc:
        raise CommandError(f"--game: {exc}", returncode=2) from None
    if not handles(game, mode):   # a mode its registration offers without the engine (realms hands)
        from decks.game_simulate import simulate_other_game

        return simulate_other_game(command, file=options["file"], mode=mode, games=options.get("games"),
                                   seed=options.get("seed", 1), as_json=options.get("json"), game=game)
    games = options.get("games")
    if games is not None and games < 1:
        raise CommandError(f"--games must be at least 1, not {games}", returncode=2)
    problem = run_hook(game, "command_problem", command_problem)(mode, options)
    if problem:
        raise CommandError(problem, returncode=2)
    strategies = run_hook(game, "shipped_strategies") is not None
    name, text = _read(options["file"], "strategy file" if strategies else "deck file", game)
    opp_name, opp_text = "", None
    if options.get("opponent"):
        opp_name, opp_text = _read(options["opponent"], "opponent file", game)
    elif mode == "versus":
        raise CommandError("--opponent FILE is needed for --mode versus: a head-to-head run needs an opponent "
                           f"{'strategy' if strategies else 'decklist'}.", returncode=2)
    require_database(cards=run_hook(game, "CARDS_IN_DATABASE", False))
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
        command.stdout.write(run_hook(game, "report_text", report_text)(result))


def _queued(command, spec: dict, timeout: float) -> dict:
    from simulator import services
    from simulator.models import RunStatus

    run = run_from_game_spec(spec)
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


def add_arguments(parser) -> None:
    """Every game's options (CONTRACTS §3's flags, and --game, --format)."""
    parser.add_argument("file", metavar="FILE", help="decklist text file (CONTRACTS §2), or a strategy file")
    parser.add_argument("--mode", required=True, choices=all_modes())
    parser.add_argument("--opponent", metavar="FILE", help="the opponent's decklist or strategy (versus)")
    parser.add_argument("--games", type=int, help="games to play, or hands to sample for --mode hands")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    from simulator.deckinput import policy_names

    names = ", ".join(policy_names())
    parser.add_argument("--policy", metavar="NAME", default=None,
                        help=f"who plays the first deck (goldfish and versus): one of {names}; "
                             "expert:N gives the search player N simulations per decision (default greedy); "
                             "--game realms: greedy, random, expert or expert:N; "
                             "--game regions: strategy (default), random, search, search:N")
    parser.add_argument("--opponent-policy", metavar="NAME", default=None,
                        help=f"who plays the opponent deck (versus): one of {names} (default greedy)")
    parser.add_argument("--queue", action="store_true", help="run on the Celery workers and wait")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds to wait with --queue")
    parser.add_argument("--game", default=None, help="the game (CONTRACTS §7); default r1")
    parser.add_argument("--format", default=None, choices=("standard", "simplified"),
                        help="realms: standard (50 VP) or simplified (30 VP, 002 §17)")
