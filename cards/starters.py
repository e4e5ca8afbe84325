"""The core set's starter decks (`cards/data/starters/<slug>.txt`): one legal deck per faction, as decklist text.

They are what a new player starts from: the simulate page offers them as ready-made lists (`?starter=SLUG`) so
nobody has to type a deck to try the simulator. Read once per process; the files ship with the code.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

STARTERS_DIR = Path(__file__).resolve().parent / "data" / "starters"


@dataclass(frozen=True)
class Starter:
    slug: str      # the file name: "camelot", "winter", ...
    faction: str   # "Camelot", "The Winter Court", ...
    title: str     # "The Fellowship of the Round Table"
    text: str      # the whole decklist text, as `validatedeck` and the simulator read it


def _parse_header(first_line: str, slug: str) -> tuple[str, str]:
    # "# Starter deck: Camelot — The Fellowship of the Round Table"
    head = first_line.lstrip("#").strip()
    if ":" in head:
        head = head.split(":", 1)[1].strip()
    faction, _, title = head.partition("—")
    return (faction.strip() or slug.title()), title.strip()


@lru_cache(maxsize=1)
def starters() -> tuple[Starter, ...]:
    out = []
    for path in sorted(STARTERS_DIR.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        first = next((ln for ln in text.splitlines() if ln.strip()), "")
        faction, title = _parse_header(first, path.stem) if first.startswith("#") else (path.stem.title(), "")
        out.append(Starter(path.stem, faction, title, text))
    return tuple(out)


def starter(slug: str | None) -> Starter | None:
    """The starter deck with this slug, or None (an unknown slug is simply not a starter)."""
    if not slug:
        return None
    return next((s for s in starters() if s.slug == slug), None)
