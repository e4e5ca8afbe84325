"""The simulator tests' own card set (tests/simulator/data/simcards.json) and two decklists built from it, so the
tests do not depend on whatever the core set holds on a given day."""
import re
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
CARD_FILE = DATA / "simcards.json"
CAMELOT_LIST = DATA / "camelot.txt"
WINTER_LIST = DATA / "winter.txt"


@lru_cache(maxsize=None)
def sim_cards() -> tuple:
    from cards.cardfile import parse_card_file

    parsed = parse_card_file(CARD_FILE.read_text(encoding="utf-8"))
    assert not parsed.errors, parsed.errors
    return tuple(parsed.cards)


def by_name(name: str) -> dict:
    return next(c for c in sim_cards() if c["name"] == name)


def deck_entries(list_path: Path) -> list[tuple[dict, int]]:
    """(card dict, count) pairs of a test decklist, read without the decks app."""
    out = []
    for line in list_path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^(\d+)x (.+)$", line.strip())
        if m:
            out.append((by_name(m.group(2)), int(m.group(1))))
    return out


def draw_entries(list_path: Path) -> list[tuple[dict, int]]:
    return [(c, n) for c, n in deck_entries(list_path) if c["type"] in ("unit", "location", "attachment", "deed")]
