"""Realms decks from decklist text (CONTRACTS §2, cards/games/realms/decklist.py), with errors a player can act on.

    >>> deck = deck_from_decklist("1x Queen Ysolde\\n59x Farmstead")
    >>> len(deck.leaders), len(deck.cards), deck.legality["legal"]
    (1, 59, True)
    >>> deck_from_decklist("2x Farmsted")
    Traceback (most recent call last):
    ...
    simulator.engines.realms.cards.DeckError: Line 1: unknown card 'Farmsted'. Did you mean Farmstead?
"""
from __future__ import annotations

from pathlib import Path

from cards.games.realms import bundled_pool, starter_files
from cards.games.realms.decklist import RealmsPool, parse_decklist
from cards.games.realms.legality import check_deck

from .cards import Deck, DeckError, build_deck


def deck_from_decklist(text: str, pool: RealmsPool | None = None, *, fmt: str = "standard",
                       name: str = "") -> Deck:
    """Build a Deck from decklist text. Unreadable lines, unknown or ambiguous cards, a deck without a Leader or
    without regular cards raise DeckError naming each line; an illegal but playable deck builds, with its
    verdict (CONTRACTS §3 JSON) in `deck.legality`."""
    if not isinstance(text, str):
        raise DeckError("the decklist must be text")
    pool = pool if pool is not None else bundled_pool()
    parsed = parse_decklist(text, pool)
    if parsed.problems:
        raise DeckError(" ".join(pr.message for pr in parsed.problems))
    if not parsed.counts:
        raise DeckError("the decklist names no card: write one card per line, e.g. '3x Farmstead'")
    entries = []
    for code, n in parsed.counts.items():
        card = pool.get(code)
        if card is None:   # pragma: no cover - parse_decklist only returns codes of the pool
            raise DeckError(f"card {code} is not in the realms card pool")
        entries.append((card, n))
    deck = build_deck(entries, name=name)
    deck.legality = check_deck(entries, fmt).to_json()
    return deck


def starter_deck(stem: str) -> Deck:
    """One of the bundled starters by file name: sunward, deepwood, ashen, tideholm."""
    for path in starter_files():
        if path.stem == stem:
            return deck_from_decklist(path.read_text(encoding="utf-8"), name=stem)
    raise DeckError(f"no starter deck called {stem!r}; starters are "
                    + ", ".join(p.stem for p in starter_files()))


def starter_decks(folder: str | Path | None = None) -> dict[str, Deck]:
    """The bundled starters by file name; `folder` reads the `*.txt` lists of another folder instead (the engine
    tests and the fingerprint read the frozen lists of tests/fixtures/starters_2026/realms, so that a rebalanced
    starter never changes the games they pin)."""
    paths = sorted(Path(folder).glob("*.txt")) if folder is not None else starter_files()
    return {path.stem: deck_from_decklist(path.read_text(encoding="utf-8"), name=path.stem) for path in paths}
