"""`simulate FILE --game G --mode M` for the hosted games (CONTRACTS §7): the game's engine hooks of the registry
(cards/games/registry.py; realms: `hands` exact). Modes that run an engine (realms goldfish and versus, regions
versus) are simulator/games/command.py's."""
from __future__ import annotations

import json
import time
from pathlib import Path

from django.core.management.base import CommandError

from cards.games import registry
from cards.selectors import game_cards
from roc_site.dbcheck import require_database

from .game_services import GameDeckError, read_text


def simulate_other_game(command, *, file: str, mode: str, games, seed: int, as_json: bool, game: str) -> None:
    try:
        spec = registry.get(game)
        run = spec.mode(mode)
    except (registry.UnknownGame, NotImplementedError) as exc:
        raise CommandError(f"--game: {exc}", returncode=2) from None
    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read deck file {file}: {exc}", returncode=2) from exc
    require_database(cards=False)
    cards = game_cards(spec.slug)
    if not cards:
        raise CommandError(f"No {spec.slug} cards are loaded: run python manage.py loadcards on its card file.",
                           returncode=2)
    try:
        counts = read_text(spec, text, cards)
    except GameDeckError as exc:
        raise CommandError(exc.message + " " + "; ".join(p["message"] for p in exc.problems), returncode=2) from None
    started = time.perf_counter()
    options = {"seed": seed}
    if games is not None:
        options["games"] = games
    try:
        result = run(counts, cards, options)
    except ValueError as exc:
        raise CommandError(str(exc), returncode=2) from None
    result["elapsed_s"] = round(time.perf_counter() - started, 3)
    if as_json:
        command.stdout.write(json.dumps(result, ensure_ascii=False))
        return
    lines = [f"{spec.name}: {mode}"]
    for row in result.get("cards", [])[:60]:
        lines.append(f"  {row['name']}: {row.get('copies')} copies, opening 7 {row['p_opening']:.3f}")
    for key in ("win_rate", "games"):
        if key in result:
            lines.append(f"  {key}: {result[key]}")
    command.stdout.write("\n".join(lines))
