"""Realms decklist text (CONTRACTS §2): reading what players paste, and writing the canonical form.

The same line rules as r1's reader (`decks/decklist.py`), written again here because `cards` may not import
`decks` (dependencies point cards ← decks ← simulator): `3x Name`, `3 Name`, `3 x Name`, `3x Name, Subtitle`,
`3x CODE`, `Name x3`, each optionally followed by ` (SET)` or ` (SET) NUMBER`. Names match case-insensitively with
straight and curly apostrophes equal; the same card on several lines adds up. Blank lines, `#` and `//` comments,
section headers (a line ending in `:`) and `Key: value` header lines are ignored. Export writes `Leaders:`,
`Places:`, `Warriors:` and `Intrigues:` sections; export followed by import gives the same deck.

    >>> pool = RealmsPool([{"code": "c1", "name": "Farmstead", "type": "place"}])
    >>> parse_decklist("Places:\\n2x Farmstead\\nfarmstead x1", pool).counts
    {'c1': 3}
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import fuzz, process

MAX_LINE_COUNT = 99  # more copies than this on one line is a typo, not a deck
MAX_LINE_CHARS = 300
MAX_LISTED_PROBLEMS = 100
LINE_RULE = "002 §18"  # the rule a decklist line problem is filed under (the deck cannot be built from it)

_FRONT = re.compile(r"^(?P<count>[-+]?\d+)(?:\s*[x\u00d7X])?\s+(?P<rest>\S.*)$")
_BACK = re.compile(r"^(?P<rest>\S.*?)\s+[x\u00d7X]\s*(?P<count>[-+]?\d+)(?P<tail>(?:\s+\(.*)?)$")
_SET_SUFFIX = re.compile(r"^(?P<title>.+?)\s+\((?P<set>[^()]{1,32})\)(?:\s+(?P<number>\d{1,6}))?$")
_META_HEADER = re.compile(r"^[^\W\d][\w '\u2019-]{0,40}:(\s|$)")
_CODE = re.compile(r"^[a-z0-9-]{1,32}$")
_BULLETS = "\u2022\u00b7*-\u25cf "
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'", "`": "'", "\u00b4": "'"})
_SPACES = re.compile(r"\s+")

SECTIONS = (("Leaders", "leader"), ("Places", "place"), ("Warriors", "warrior"), ("Intrigues", "intrigue"))


@lru_cache(maxsize=16384)
def normalise_name(text: str) -> str:
    """The key names and titles are matched by: case-insensitive, apostrophes equal, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    return _SPACES.sub(" ", text).strip().casefold()


def card_title(card: dict) -> str:
    """'Name, Subtitle' — the form decklists use (CONTRACTS §2)."""
    return f"{card['name']}, {card['subtitle']}" if card.get("subtitle") else card["name"]


class RealmsPool:
    """Realms cards by code, title and name; immutable once built. A card dict may carry "set" (a set code)."""

    __slots__ = ("_by_code", "_by_title", "_by_name", "_titles", "_sets")

    def __init__(self, cards: Iterable[dict]):
        self._by_code: dict[str, dict] = {}
        self._by_title: dict[str, list[str]] = {}
        self._by_name: dict[str, list[str]] = {}
        self._sets: dict[str, tuple[str, int | None]] = {}
        for card in cards:
            code = card["code"]
            self._by_code[code] = card
            self._by_title.setdefault(normalise_name(card_title(card)), []).append(code)
            self._by_name.setdefault(normalise_name(card["name"]), []).append(code)
            if card.get("set"):
                self._sets[code] = (str(card["set"]).lower(), card.get("number"))
        self._titles = list(dict.fromkeys(card_title(c) for c in self._by_code.values()))

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
        return self._by_title.get(normalise_name(title), [])

    def codes_for_name(self, name: str) -> list[str]:
        return self._by_name.get(normalise_name(name), [])

    def printing(self, code: str) -> tuple[str, int | None] | None:
        return self._sets.get(code)


@dataclass(frozen=True)
class DecklistProblem:
    """A line that could not be read: its number (1-based), a CONTRACTS §3 code, why, and what might be meant."""

    line: int
    code: str  # bad_line | unknown_card | ambiguous_card
    message: str
    suggestions: tuple[str, ...] = ()
    text: str = ""

    def to_problem_json(self) -> dict:
        """The problem as an entry of the verdict's `errors` (CONTRACTS §3)."""
        cards = self.suggestions if self.code == "ambiguous_card" else ((self.text,) if self.text else ())
        return {"code": self.code, "rule": LINE_RULE, "message": self.message, "cards": list(cards),
                "line": self.line}


@dataclass
class ParsedDecklist:
    counts: dict[str, int] = field(default_factory=dict)  # card code -> copies, in order of first appearance
    problems: list[DecklistProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class _Reader:
    def __init__(self, pool: RealmsPool):
        self.pool = pool
        self._suggestions: dict[str, tuple[str, ...]] = {}

    def suggest(self, title: str) -> tuple[str, ...]:
        key = normalise_name(title)
        if key not in self._suggestions:
            found = process.extract(key, self.pool.titles, scorer=fuzz.WRatio, processor=normalise_name,
                                    limit=3, score_cutoff=75)
            self._suggestions[key] = tuple(match for match, _score, _i in found)
        return self._suggestions[key]

    def _pick(self, codes: list[str], set_code: str | None, number: int | None) -> list[str]:
        if set_code is None or len(codes) < 2:
            return codes
        narrowed = [c for c in codes if (p := self.pool.printing(c)) and p[0] == set_code.lower()
                    and (number is None or p[1] == number)]
        return narrowed or codes

    def resolve(self, title: str, set_code: str | None, number: int | None) -> tuple[str | None, tuple[str, ...]]:
        codes = self.pool.codes_for_title(title)
        if codes:
            return self._pick(codes, set_code, number)[0], ()
        codes = self.pool.codes_for_name(title)
        if codes:
            codes = self._pick(codes, set_code, number)
            titles = tuple(dict.fromkeys(card_title(self.pool.get(c)) for c in codes))
            if len(titles) == 1:
                return codes[0], ()
            return None, titles
        code = title.strip().lower()
        if _CODE.match(code) and code in self.pool:
            return code, ()
        return None, ()


def parse_decklist(text: str, pool: RealmsPool) -> ParsedDecklist:
    """Read decklist text into card counts, with one problem per line that could not be read."""
    reader = _Reader(pool)
    result = ParsedDecklist()
    hidden = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip().lstrip("\ufeff").strip()
        if not line or line.startswith(("#", "//")) or line.endswith(":"):
            continue
        problem = _read_line(line, number, reader, result.counts)
        if problem is None:
            continue
        if len(result.problems) < MAX_LISTED_PROBLEMS:
            result.problems.append(problem)
        else:
            hidden += 1
    if hidden:
        result.problems.append(DecklistProblem(
            0, "bad_line", f"{hidden} more lines could not be read (only the first {MAX_LISTED_PROBLEMS} are listed)."))
    return result


def _read_line(line: str, number: int, reader: _Reader, counts: dict[str, int]) -> DecklistProblem | None:
    shown = _short(line)
    example = "'3x Farmstead'"
    if len(line) > MAX_LINE_CHARS:
        return DecklistProblem(number, "bad_line", f"Line {number} is {len(line)} characters long; a decklist line "
                               f"is a count and a card name, e.g. {example}.", text=shown)
    match = _FRONT.match(line)
    tail = ""
    if match is None:
        match = _BACK.match(line)
        if match is not None:
            tail = match.group("tail") or ""
    if match is None:
        if _META_HEADER.match(line):
            return None  # 'Deck: My list', 'Author: someone' — header lines from other sites
        return DecklistProblem(number, "bad_line", f"Line {number}: cannot read '{shown}'. Write a count and a card, "
                               "e.g. '3x Farmstead', '3 Farmstead' or 'Farmstead x3'.", text=shown)
    count_text = match.group("count")
    digits = count_text.lstrip("+-")
    if count_text.startswith("-"):
        return DecklistProblem(number, "bad_line", f"Line {number}: '{shown}': a count cannot be negative; give a "
                               f"count from 1 to {MAX_LINE_COUNT}.", text=shown)
    if len(digits) > 6 or int(digits) > MAX_LINE_COUNT:
        return DecklistProblem(number, "bad_line", f"Line {number}: '{shown}': {_short(digits, 12)} copies is not a "
                               f"real count (at most {MAX_LINE_COUNT} per line).", text=shown)
    count = int(digits)
    if count == 0:
        return DecklistProblem(number, "bad_line", f"Line {number}: '{shown}' has a count of 0, which adds nothing: "
                               f"remove the line or give a count from 1 to {MAX_LINE_COUNT}.", text=shown)
    rest = (match.group("rest") + tail).strip().lstrip(_BULLETS).strip()
    attempts: list[tuple[str, str | None, int | None]] = [(rest, None, None)]
    suffix = _SET_SUFFIX.match(rest)
    if suffix:
        set_number = int(suffix.group("number")) if suffix.group("number") else None
        attempts.insert(0, (suffix.group("title"), suffix.group("set").strip(), set_number))
    candidates: tuple[str, ...] = ()
    for title, set_code, set_number in attempts:
        code, found = reader.resolve(title, set_code, set_number)
        if code is not None:
            counts[code] = counts.get(code, 0) + count
            return None
        candidates = candidates or found
    title = attempts[0][0]
    if candidates:
        return DecklistProblem(number, "ambiguous_card", f"Line {number}: '{_short(title)}' matches several cards: "
                               f"{'; '.join(candidates)}. Add the subtitle, e.g. '{count}x {candidates[0]}'.",
                               candidates, text=_short(title))
    suggestions = reader.suggest(title)
    hint = f" Did you mean {' or '.join(suggestions)}?" if suggestions else ""
    return DecklistProblem(number, "unknown_card", f"Line {number}: unknown card '{_short(title)}'.{hint}",
                           suggestions, text=_short(title))


def _export_line(code: str, count: int, card: dict, pool: RealmsPool) -> str:
    title = card_title(card)
    if pool.codes_for_title(title) != [code]:
        printing = pool.printing(code)
        if printing and printing[1] is not None:
            same = [c for c in pool.codes_for_title(title) if pool.printing(c) == printing]
            if same == [code]:
                return f"{count}x {title} ({printing[0].upper()}) {printing[1]}"
        return f"{count}x {code}"
    return f"{count}x {title}"


def export_decklist(counts: Mapping[str, int], pool: RealmsPool, *, name: str | None = None) -> str:
    """The canonical text of a realms deck: `3x Name` lines under Leaders/Places/Warriors/Intrigues headers.

    Cards the pool does not know are kept under 'Unknown cards:' by code.
    """
    grouped: dict[str, list[tuple[str, str]]] = {header: [] for header, _ in SECTIONS}
    unknown: list[str] = []
    for code, count in counts.items():
        card = pool.get(code)
        if card is None:
            unknown.append(f"{count}x {code}")
            continue
        for header, ctype in SECTIONS:
            if card.get("type") == ctype:
                parts = [MAX_LINE_COUNT] * (count // MAX_LINE_COUNT) + ([count % MAX_LINE_COUNT]
                                                                       if count % MAX_LINE_COUNT else [])
                grouped[header].extend((normalise_name(card_title(card)), _export_line(code, part, card, pool))
                                       for part in parts)
                break
    blocks = [f"# {name}"] if name else []
    for header, _ in SECTIONS:
        if grouped[header]:
            blocks.append(f"{header}:\n" + "\n".join(line for _, line in sorted(grouped[header])))
    if unknown:
        blocks.append("Unknown cards:\n" + "\n".join(sorted(unknown)))
    return "\n\n".join(blocks) + "\n"
