"""r1's run module (simulator/games/__init__.py): simulator/runner.py's chunks, merge and report, and the spec read
from decklist text against the card catalogue (simulator/deckinput.py). Its runs name no game in their spec, and
its decks may be saved decks with a settings dict (the API's `deck`, `opponent_deck` and `settings`)."""
from __future__ import annotations

from simulator import runner

MODES = runner.MODES
CARDS_IN_DATABASE = True   # its decklists are read against the catalogue's own tables
SAVED_DECKS = True         # the API takes saved decks' ids and a settings dict (CONTRACTS §4)


# runner.py's functions, looked up when called (so a test that replaces one there replaces it here too)
def chunk_plan(mode: str, games: int, settings: dict | None = None) -> list[tuple[int, int, int]]:
    return runner.chunk_plan(mode, games, settings)


def run_chunk(spec: dict, index: int) -> dict:
    return runner.run_chunk(spec, index)


def merge(mode: str, parts: list[dict]) -> dict:
    return runner.merge(mode, parts)


def finalize(spec: dict, merged: dict) -> dict:
    return runner.finalize(spec, merged)


def request_key(spec: dict) -> str:
    return runner.request_key(spec)


def build_spec(*, mode: str, text: str, opponent_text: str | None = None, games=None, seed=None,
               policy: str | None = None, opponent_policy: str | None = None, fmt=None, deck_name=None,
               opponent_name=None, settings: dict | None = None, max_games: int | None = None) -> dict:
    """A spec from decklist text (CONTRACTS §2); `policy` and `opponent_policy` go into its settings."""
    from simulator.deckinput import build_spec as build

    from .services import GameSpecError

    if policy or opponent_policy:
        settings = dict(settings or {})
        for key, value in (("policy", policy), ("opponent_policy", opponent_policy)):
            if value:
                settings[key] = value
    try:
        return build(mode=mode, text=text, opponent_text=opponent_text, games=games, seed=seed, settings=settings,
                     max_games=max_games, deck_name=deck_name or None, opponent_name=opponent_name or None)
    except (runner.SpecError, runner.EngineUnavailable) as exc:
        raise GameSpecError(str(exc)) from exc


def run_fields(spec: dict) -> dict:
    """The SimulationRun columns of an r1 spec."""
    opponent = spec.get("opponent") or {}
    return {"deck_name": spec["deck"]["name"] or "", "deck_hash": spec["deck"]["hash"],
            "deck_counts": spec["deck"]["counts"], "deck_legal": spec["deck"]["legal"],
            "opponent_name": opponent.get("name") or "", "opponent_hash": opponent.get("hash") or "",
            "opponent_counts": opponent.get("counts")}


def report_text(result: dict) -> str:
    from simulator.text import report_text as text

    return text(result)
