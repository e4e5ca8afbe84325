"""An in-memory index of CONTRACTS §1 card dicts: what legality, decklist text and statistics read cards from.

The pure functions of this app (`check_deck`, `parse_decklist`, `deck_stats`) take a `CardPool` and never touch
the database, so the editor, the API, the command line and the simulator all share them. `CardPool.from_db()`
builds the pool from the catalogue once per process and rebuilds it only when the catalogue has changed.

    >>> pool = CardPool.from_cards([{"code": "c1", "name": "Gawain", "type": "unit", "faction": "camelot"}])
    >>> pool.get("c1")["name"]
    'Gawain'
"""
from __future__ import annotations

import functools
import re
import threading
import unicodedata
from collections.abc import Iterable, Iterator

from cards.games.r1.facts import DRAW_TYPES

# Apostrophe look-alikes people paste from other sites; all read as "'" (CONTRACTS §2).
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'", "`": "'", "\u00b4": "'"})
_SPACES = re.compile(r"\s+")


@functools.lru_cache(maxsize=16384)
def normalise_name(text: str) -> str:
    """The key names and titles are matched by: case-insensitive, apostrophes equal, spaces collapsed.

    >>> normalise_name("  Le  Fay\u2019s CIRCLE ")
    "le fay's circle"
    """
    text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    return _SPACES.sub(" ", text).strip().casefold()


def card_title(card: dict) -> str:
    """'Name, Subtitle' — the form decklists use (CONTRACTS §2)."""
    return f"{card['name']}, {card['subtitle']}" if card.get("subtitle") else card["name"]


def is_draw_card(card: dict) -> bool:
    return card.get("type") in DRAW_TYPES


def has_keyword(card: dict, keyword: str) -> bool:
    """True when the card prints the keyword (parameters ignored: 'Haste (2)' has Haste)."""
    for raw in card.get("keywords") or ():
        if raw == keyword or raw.split("(", 1)[0].strip() == keyword:
            return True
    return False


class CardPool:
    """Cards by code, title and name. Immutable once built; safe to share between threads."""

    __slots__ = ("_by_code", "_by_title", "_by_name", "_titles", "_sets", "signature")

    def __init__(self, cards: Iterable[dict], *, sets: dict[str, tuple[str, int | None]] | None = None,
                 signature: object = None):
        self._by_code: dict[str, dict] = {}
        self._by_title: dict[str, list[str]] = {}
        self._by_name: dict[str, list[str]] = {}
        for card in cards:
            code = card["code"]
            self._by_code[code] = card
            self._by_title.setdefault(normalise_name(card_title(card)), []).append(code)
            self._by_name.setdefault(normalise_name(card["name"]), []).append(code)
        # Distinct titles, in pool order, for "did you mean ..." suggestions.
        self._titles: list[str] = list(dict.fromkeys(card_title(c) for c in self._by_code.values()))
        # code -> (set code, number): lets '3x Name (CORE) 12' pick a printing when a name is ambiguous.
        self._sets = sets or {}
        self.signature = signature

    # ---- construction ---------------------------------------------------------------------
    @classmethod
    def from_cards(cls, cards: Iterable[dict]) -> CardPool:
        """A pool of the given card dicts. A dict may carry an optional "set" key (set code) for decklist lines."""
        cards = list(cards)
        sets = {c["code"]: (str(c["set"]).lower(), c.get("number")) for c in cards if c.get("set")}
        return cls(cards, sets=sets)

    @classmethod
    def from_db(cls) -> CardPool:
        """The whole catalogue, cached per process and rebuilt when a card is added, changed or deleted."""
        return _DB_CACHE.get()

    # ---- reading ---------------------------------------------------------------------------
    def get(self, code: str) -> dict | None:
        return self._by_code.get(code)

    def __contains__(self, code: object) -> bool:
        return code in self._by_code

    def __iter__(self) -> Iterator[dict]:
        return iter(self._by_code.values())

    def __len__(self) -> int:
        return len(self._by_code)

    @property
    def titles(self) -> list[str]:
        return self._titles

    def codes_for_title(self, title: str) -> list[str]:
        """Codes of the cards whose 'Name, Subtitle' (or plain name when no subtitle) is exactly `title`."""
        return self._by_title.get(normalise_name(title), [])

    def codes_for_name(self, name: str) -> list[str]:
        """Codes of every card with this name, whatever its subtitle (§2.3)."""
        return self._by_name.get(normalise_name(name), [])

    def printing(self, code: str) -> tuple[str, int | None] | None:
        """(set code, number) of a card when known."""
        return self._sets.get(code)


class _DbPoolCache:
    """Per-process cache of the catalogue; one cheap aggregate query per use decides whether it is stale."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: CardPool | None = None

    @staticmethod
    def _signature() -> tuple:
        from django.db.models import Count, Max

        from cards.models import Card

        agg = Card.objects.aggregate(n=Count("id"), last=Max("updated_at"), top=Max("id"))
        return agg["n"], agg["last"], agg["top"]

    def get(self) -> CardPool:
        signature = self._signature()
        pool = self._pool
        if pool is not None and pool.signature == signature:
            return pool
        with self._lock:
            if self._pool is not None and self._pool.signature == signature:
                return self._pool
            from cards.models import Card

            rows = Card.objects.select_related("faction", "card_set").order_by("card_set__position", "number", "code")
            cards, sets = [], {}
            for row in rows:
                cards.append(row.to_data())
                sets[row.code] = (row.card_set.code.lower(), row.number)
            self._pool = CardPool(cards, sets=sets, signature=signature)
            return self._pool

    def clear(self) -> None:
        with self._lock:
            self._pool = None


_DB_CACHE = _DbPoolCache()
