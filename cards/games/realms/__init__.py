"""`realms`: the Leaders, Places and Warriors duel (rules `002_…`, CONTRACTS §7), as pure Python (no Django).

- `schema` — the card fields, `normalise_card(raw)` and `parse_card_file(text)` (errors per card and field).
- `abilities` — the ability format the engine executes, and `check_abilities(list)`.
- `decklist` — `RealmsPool`, `parse_decklist(text, pool)`, `export_decklist(counts, pool)` (CONTRACTS §2).
- `legality` — `check_deck(entries, fmt)`, `check_counts`, `check_decklist_text` (CONTRACTS §3, §7).
- `hands` — exact opening-hand, Gift of Fate and by-turn probabilities (`hands_report`).
- `images` — the card frame (`render_card(card, size)`) and `contact_sheet(cards)`.
- `data/realms.json` — the card set; `data/starters/*.txt` — one starter deck per affiliation.

The readings chosen where the received rules are silent are in docs/games/realms.md.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"
SET_FILE = DATA_DIR / "realms.json"
STARTERS_DIR = DATA_DIR / "starters"


@lru_cache(maxsize=1)
def bundled_cards() -> tuple[dict, ...]:
    """The cards of `data/realms.json`, normalised (each with its set code under "set")."""
    from .schema import parse_card_file

    parsed = parse_card_file(SET_FILE.read_text(encoding="utf-8"), source=str(SET_FILE))
    if parsed.errors:  # pragma: no cover - the tests keep the bundled file clean
        raise ValueError("; ".join(str(e) for e in parsed.errors[:5]))
    return tuple({**card, "set": parsed.set_code} for card in parsed.cards)


def bundled_pool():
    from .decklist import RealmsPool

    return RealmsPool(bundled_cards())


def starter_files() -> list[Path]:
    return sorted(STARTERS_DIR.glob("*.txt"))
