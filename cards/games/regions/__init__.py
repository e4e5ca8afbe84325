"""The Heroes and Regions market deckbuilder (`regions`, rules 003): card schema, the shipped set, card frame.

Pure Python, no Django import. `schema.py` validates card files (CONTRACTS §1 shape, set `"game": "regions"`),
`data/regions.json` is the shipped set, `frame.py` draws the cards with Pillow. The engine is
`simulator/engines/regions/`. See docs/games/regions.md.
"""
from __future__ import annotations

from pathlib import Path

DATA_FILE = Path(__file__).resolve().parent / "data" / "regions.json"


def load_default_set() -> list[dict]:
    """The shipped set's cards, validated (raises ValueError naming each bad card and field)."""
    from .schema import parse_card_file

    parsed = parse_card_file(DATA_FILE.read_text(encoding="utf-8"), source=str(DATA_FILE.name))
    if parsed.errors:
        raise ValueError("; ".join(str(e) for e in parsed.errors))
    return parsed.cards
