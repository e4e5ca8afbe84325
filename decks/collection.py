"""A player's collection as data: CSV in and out, and what a deck needs beyond it. Pure: no database.

CSV read: a header naming a card column (`code`, `card`, `name` or `title`) and a count column (`count`,
`quantity`, `qty`, `copies` or `owned`); without a header, two columns `card,count`. Cards are matched like
decklist lines (title, name when unambiguous, or code).

    >>> pool = CardPool.from_cards([{"code": "c1", "name": "Gawain", "type": "unit", "faction": "camelot"}])
    >>> parse_collection_csv("code,count\\nc1,2", pool).counts
    {'c1': 2}
    >>> deck_shortfall({"c1": 3}, {"c1": 2})
    {'c1': 1}
"""
from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass, field

from .decklist import DecklistProblem, _Reader
from .pool import CardPool, card_title

MAX_OWNED = 999
CARD_COLUMNS = ("code", "card", "name", "title")
COUNT_COLUMNS = ("count", "quantity", "qty", "copies", "owned")


@dataclass
class ParsedCollection:
    counts: dict[str, int] = field(default_factory=dict)
    problems: list[DecklistProblem] = field(default_factory=list)


def parse_collection_csv(text: str, pool: CardPool) -> ParsedCollection:
    """Read a collection CSV into {code: copies}; every unreadable row is a problem naming its line."""
    result = ParsedCollection()
    reader = _Reader(pool)
    try:
        # newline="": \r, \n and \r\n all end a row (csv's own rule), never "a newline inside a field".
        rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"), newline="")))
    except csv.Error as e:
        result.problems.append(DecklistProblem(0, "bad_line", f"This is not readable CSV: {e}."))
        return result
    card_col, count_col, start = 0, 1, 0
    if rows:
        header = [h.strip().lower() for h in rows[0]]
        if any(h in CARD_COLUMNS for h in header) or any(h in COUNT_COLUMNS for h in header):
            card_col = next((header.index(c) for c in CARD_COLUMNS if c in header), -1)
            count_col = next((header.index(c) for c in COUNT_COLUMNS if c in header), -1)
            if card_col < 0 or count_col < 0:
                result.problems.append(DecklistProblem(1, "bad_line", "The header needs a card column "
                                       f"({', '.join(CARD_COLUMNS)}) and a count column ({', '.join(COUNT_COLUMNS)})."))
                return result
            start = 1
    for index, row in enumerate(rows[start:], start=start + 1):
        if not row or all(not cell.strip() for cell in row) or row[0].lstrip().startswith("#"):
            continue
        if len(row) <= max(card_col, count_col):
            result.problems.append(DecklistProblem(index, "bad_line", f"Line {index}: expected a card and a count."))
            continue
        card_text, count_text = row[card_col].strip(), row[count_col].strip()
        if not count_text.isdigit() or len(count_text) > 4 or int(count_text) > MAX_OWNED:
            result.problems.append(DecklistProblem(
                index, "bad_line", f"Line {index}: the count must be a whole number from 0 to {MAX_OWNED}, "
                f"not '{count_text[:12]}'.", text=card_text[:60]))
            continue
        code, candidates = reader.resolve(card_text, None, None)
        if code is None:
            if candidates:
                result.problems.append(DecklistProblem(index, "ambiguous_card", f"Line {index}: '{card_text[:60]}' "
                                       f"matches several cards: {'; '.join(candidates)}.", candidates, card_text[:60]))
            else:
                suggestions = reader.suggest(card_text)
                hint = f" Did you mean {' or '.join(suggestions)}?" if suggestions else ""
                result.problems.append(DecklistProblem(index, "unknown_card", f"Line {index}: unknown card "
                                       f"'{card_text[:60]}'.{hint}", suggestions, card_text[:60]))
            continue
        result.counts[code] = min(MAX_OWNED, result.counts.get(code, 0) + int(count_text))
    return result


def export_collection_csv(counts: Mapping[str, int], pool: CardPool) -> str:
    """code,title,count rows sorted by code; reads back with parse_collection_csv."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["code", "title", "count"])
    for code in sorted(counts):
        card = pool.get(code)
        writer.writerow([code, card_title(card) if card else "", counts[code]])
    return out.getvalue()


def deck_shortfall(deck_counts: Mapping[str, int], owned: Mapping[str, int]) -> dict[str, int]:
    """Copies the deck needs beyond the collection, by code (an empty dict: the deck can be built)."""
    return {code: n - owned.get(code, 0) for code, n in deck_counts.items() if n > owned.get(code, 0)}
