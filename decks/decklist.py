"""Decklist text (CONTRACTS §2): reading what players paste, and writing the canonical form.

Accepted lines: `3x Name`, `3 Name`, `3 x Name`, `3x Name, Subtitle`, `3x CODE`, `Name x3`, each optionally
followed by ` (SET)` or ` (SET) NUMBER`. Names match case-insensitively with straight and curly apostrophes
equal; the same card on several lines adds up. Blank lines, `#` and `//` comments, section headers (a line
ending in `:`) and `Key: value` header lines are ignored.

    >>> pool = CardPool.from_cards([{"code": "c1", "name": "Gawain", "type": "unit", "faction": "camelot"}])
    >>> parse_decklist("Units:\\n2x Gawain\\ngawain x1", pool).counts
    {'c1': 3}
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from .legality import FormatRules, Problem, Verdict, check_deck
from .pool import CardPool, card_title, normalise_name

MAX_LINE_COUNT = 99  # more copies than this on one line is a typo, not a deck
MAX_LINE_CHARS = 300
MAX_LISTED_PROBLEMS = 100

_FRONT = re.compile(r"^(?P<count>[-+]?\d+)(?:\s*[x\u00d7X])?\s+(?P<rest>\S.*)$")
_BACK = re.compile(r"^(?P<rest>\S.*?)\s+[x\u00d7X]\s*(?P<count>[-+]?\d+)(?P<tail>(?:\s+\(.*)?)$")
_SET_SUFFIX = re.compile(r"^(?P<title>.+?)\s+\((?P<set>[^()]{1,32})\)(?:\s+(?P<number>\d{1,6}))?$")
_META_HEADER = re.compile(r"^[^\W\d][\w '\u2019-]{0,40}:(\s|$)")
_CODE = re.compile(r"^[a-z0-9-]{1,32}$")
_BULLETS = "\u2022\u00b7*-\u25cf "

SECTIONS = (
    ("Faction", ("faction",)),
    ("Destiny", ("destiny",)),
    ("Quests", ("quest",)),
    ("Units", ("unit",)),
    ("Locations", ("location",)),
    ("Attachments", ("attachment",)),
    ("Deeds", ("deed",)),
)


@dataclass(frozen=True)
class DecklistProblem:
    """A line that could not be read: its number (1-based), a CONTRACTS §3 code, why, and what might be meant."""

    line: int
    code: str  # bad_line | unknown_card | ambiguous_card
    message: str
    suggestions: tuple[str, ...] = ()
    text: str = ""

    def as_verdict_problem(self) -> Problem:
        cards = self.suggestions if self.code == "ambiguous_card" else ((self.text,) if self.text else ())
        return Problem(self.code, "§11", self.message, tuple(cards), line=self.line)

    def to_json(self) -> dict:
        return {"line": self.line, "code": self.code, "message": self.message,
                "suggestions": list(self.suggestions), "text": self.text}


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
    def __init__(self, pool: CardPool):
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
        """Narrow printings by '(SET) NUMBER' when given; keep all when that narrows to nothing."""
        if set_code is None or len(codes) < 2:
            return codes
        narrowed = []
        for code in codes:
            printing = self.pool.printing(code)
            if printing and printing[0] == set_code.lower() and (number is None or printing[1] == number):
                narrowed.append(code)
        return narrowed or codes

    def resolve(self, title: str, set_code: str | None, number: int | None) -> tuple[str | None, tuple[str, ...]]:
        """(code, ()) when the title names one card; (None, candidates) when it names several; (None, ()) else."""
        codes = self.pool.codes_for_title(title)
        if codes:
            # Identical titles are reprints of one card: the set narrows it, else the first printing.
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


def parse_decklist(text: str, pool: CardPool) -> ParsedDecklist:
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
    if len(line) > MAX_LINE_CHARS:
        return DecklistProblem(number, "bad_line", f"Line {number} is {len(line)} characters long; a decklist line "
                               f"is a count and a card name, e.g. '3x Gawain'.", text=shown)
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
                               "e.g. '3x Gawain', '3 Gawain' or 'Gawain x3'.", text=shown)
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
    attempts = [(rest, None, None)]
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


def _export_line(code: str, count: int, card: dict, pool: CardPool) -> str:
    title = card_title(card)
    if pool.codes_for_title(title) != [code]:
        # Several printings share this title: name the printing so that import gives back this very code.
        printing = pool.printing(code)
        if printing and printing[1] is not None:
            same = [c for c in pool.codes_for_title(title) if pool.printing(c) == printing]
            if same == [code]:
                return f"{count}x {title} ({printing[0].upper()}) {printing[1]}"
        return f"{count}x {code}"
    return f"{count}x {title}"


def _line_counts(count: int) -> list[int]:
    """100 -> [99, 1]: counts per exported line, each one the reader accepts (found by fuzzing export/import)."""
    return [99] * (count // 99) + ([count % 99] if count % 99 else [])


def export_decklist(counts: Mapping[str, int], pool: CardPool, *, name: str | None = None) -> str:
    """The canonical text of a deck: `3x Name, Subtitle` lines under Faction/Destiny/Quests/Units/... headers.

    Cards the pool does not know (deleted from the catalogue) are kept under 'Unknown cards:' by code.
    """
    grouped: dict[str, list[tuple[str, str]]] = {header: [] for header, _ in SECTIONS}
    unknown: list[str] = []
    for code, count in counts.items():
        card = pool.get(code)
        if card is None:
            unknown.append(f"{count}x {code}")
            continue
        for header, types in SECTIONS:
            if card.get("type") in types:
                # A line holds at most 99 copies (the reader refuses more); the same card on several lines adds up.
                grouped[header].extend((normalise_name(card_title(card)), _export_line(code, part, card, pool))
                                       for part in _line_counts(count))
                break
    blocks = [f"# {name}"] if name else []
    for header, _ in SECTIONS:
        if grouped[header]:
            blocks.append(f"{header}:\n" + "\n".join(line for _, line in sorted(grouped[header])))
    if unknown:
        blocks.append("Unknown cards:\n" + "\n".join(sorted(unknown)))
    return "\n\n".join(blocks) + "\n"


def content_hash(counts: Mapping[str, int]) -> str:
    """sha256 of the sorted `code:count` lines: identical lists have identical hashes, whatever their order."""
    body = "\n".join(f"{code}:{counts[code]}" for code in sorted(counts) if counts[code] > 0)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def check_decklist_text(text: str, pool: CardPool, fmt: FormatRules | None = None) -> Verdict:
    """Read a decklist (CONTRACTS §2) and judge it: the text's problems come first, then the deck's."""
    parsed = parse_decklist(text, pool)
    verdict = check_deck(parsed.counts, pool, fmt)
    if parsed.problems:
        verdict.errors[:0] = [p.as_verdict_problem() for p in parsed.problems]
        verdict.legal = False
    return verdict
