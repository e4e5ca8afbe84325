"""A player's whole account as one JSON file: every deck with every version, the collection, the
decklists they published and the decklists they liked or marked as favourite.

Pure: no database. `read_archive` checks a whole file before anything is saved and lists every problem with the
place it was found (`decks[2].versions[0].cards`), so an import is all or nothing.

    >>> archive = read_archive({"format": ARCHIVE_FORMAT, "version": 1, "collection": {"c1": 2},
    ...                         "decks": [{"name": "Mine", "versions": [{"number": 1, "cards": {"c1": 3}}]}]})
    >>> archive.decks[0].versions[0].cards, archive.collection
    ({'c1': 3}, {'c1': 2})
    >>> read_archive({"format": "something else"}).problems[0]
    "format: this is not a Reign of Kings DB account file (expected 'reign-of-kings-db/account')."
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone

ARCHIVE_FORMAT = "reign-of-kings-db/account"
ARCHIVE_VERSION = 1
MAX_DECKS = 2_000
MAX_DECKLISTS = 2_000
MAX_MARKS = 100_000   # likes, favourites
MAX_VERSIONS = 5_000
MAX_PROBLEMS = 50
CODE = re.compile(r"^[a-z0-9-]{1,32}$")  # CONTRACTS §1: a card code
MAX_NAME_CHARS = 200
MAX_NOTES_CHARS = 20_000
MAX_COPIES = 99
MAX_OWNED = 999


@dataclass(frozen=True)
class ArchivedVersion:
    number: int
    name: str
    notes: str
    tags: list[str]
    cards: dict[str, int]
    based_on: int | None = None
    restored_from: int | None = None
    created_at: datetime | None = None


@dataclass(frozen=True)
class ArchivedDeck:
    name: str
    is_private: bool
    deleted: bool
    versions: list[ArchivedVersion]  # oldest first; the last is the deck's current list
    created_at: datetime | None = None


@dataclass(frozen=True)
class ArchivedDecklist:
    title: str
    description: str
    cards: dict[str, int]
    published_at: datetime | None = None
    source_deck: int | None = None      # index into the file's `decks` (the deck it was published from)
    source_version: int | None = None
    original_id: int | None = None      # its id on the site it was exported from (kept for reference)


@dataclass
class Archive:
    decks: list[ArchivedDeck] = field(default_factory=list)
    collection: dict[str, int] = field(default_factory=dict)
    decklists: list[ArchivedDecklist] = field(default_factory=list)
    likes: list[int] = field(default_factory=list)        # decklist ids
    favourites: list[int] = field(default_factory=list)   # decklist ids
    problems: list[str] = field(default_factory=list)


def _date(value, where: str, problems: list[str]) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, str) and len(value) <= 40:
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
    problems.append(f"{where}: '{str(value)[:40]}' is not an ISO 8601 date and time.")
    return None


def _int(value, where: str, problems: list[str], lo: int, hi: int, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        problems.append(f"{where}: expected a whole number from {lo} to {hi}, not {str(value)[:20]!r}.")
        return None
    return value


def _text(value, where: str, problems: list[str], limit: int, *, required: bool = False) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        problems.append(f"{where}: expected {'non-empty ' if required else ''}text.")
        return ""
    if len(value) > limit:
        problems.append(f"{where}: {len(value)} characters long; at most {limit:,}.")
    if "\x00" in value:  # PostgreSQL text cannot hold NUL
        problems.append(f"{where}: contains a NUL character.")
    return value


def _counts(value, where: str, problems: list[str], most: int) -> dict[str, int]:
    if not isinstance(value, Mapping):
        problems.append(f"{where}: expected an object of card code -> number of copies.")
        return {}
    out: dict[str, int] = {}
    for code, n in value.items():
        if not isinstance(code, str) or not CODE.match(code):
            problems.append(f"{where}: '{str(code)[:40]}' is not a card code ([a-z0-9-], at most 32 characters).")
            continue
        n = _int(n, f"{where}.{code}", problems, 0, most)
        if n:
            out[code] = n
    return out


def _tags(value, where: str, problems: list[str]) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > 20 or \
            not all(isinstance(t, str) and len(t) <= 40 and "\x00" not in t for t in value):
        problems.append(f"{where}: expected a list of at most 20 tags of at most 40 characters each.")
        return []
    return list(value)


def _version(raw, where: str, problems: list[str]) -> ArchivedVersion | None:
    if not isinstance(raw, Mapping):
        problems.append(f"{where}: expected an object.")
        return None
    before = len(problems)
    number = _int(raw.get("number"), f"{where}.number", problems, 1, 10**9)
    version = ArchivedVersion(
        number=number or 0, name=_text(raw.get("name"), f"{where}.name", problems, MAX_NAME_CHARS),
        notes=_text(raw.get("notes"), f"{where}.notes", problems, MAX_NOTES_CHARS),
        tags=_tags(raw.get("tags"), f"{where}.tags", problems),
        cards=_counts(raw.get("cards", {}), f"{where}.cards", problems, MAX_COPIES),
        based_on=_int(raw.get("based_on"), f"{where}.based_on", problems, 1, 10**9, optional=True),
        restored_from=_int(raw.get("restored_from"), f"{where}.restored_from", problems, 1, 10**9, optional=True),
        created_at=_date(raw.get("created_at"), f"{where}.created_at", problems))
    return version if len(problems) == before else None


def _deck(raw, where: str, problems: list[str]) -> ArchivedDeck | None:
    if not isinstance(raw, Mapping):
        problems.append(f"{where}: expected an object.")
        return None
    before = len(problems)
    name = _text(raw.get("name"), f"{where}.name", problems, MAX_NAME_CHARS, required=True)
    raw_versions = raw.get("versions")
    if not isinstance(raw_versions, list) or not raw_versions:
        problems.append(f"{where}.versions: a deck needs a list of at least one version.")
        raw_versions = []
    elif len(raw_versions) > MAX_VERSIONS:
        problems.append(f"{where}.versions: {len(raw_versions)} versions; at most {MAX_VERSIONS:,}.")
        raw_versions = []
    versions = [_version(v, f"{where}.versions[{i}]", problems) for i, v in enumerate(raw_versions)]
    versions = sorted((v for v in versions if v is not None), key=lambda v: v.number)
    numbers = [v.number for v in versions]
    if len(set(numbers)) != len(numbers):
        problems.append(f"{where}.versions: two versions share a number.")
    for flag in ("is_private", "deleted"):
        if flag in raw and not isinstance(raw[flag], bool):
            problems.append(f"{where}.{flag}: expected true or false.")
    created = _date(raw.get("created_at"), f"{where}.created_at", problems)
    if len(problems) != before:
        return None
    return ArchivedDeck(name=name, is_private=raw.get("is_private", True), deleted=raw.get("deleted", False),
                        versions=versions, created_at=created)


def _decklist(raw, where: str, problems: list[str], n_decks: int) -> ArchivedDecklist | None:
    if not isinstance(raw, Mapping):
        problems.append(f"{where}: expected an object.")
        return None
    before = len(problems)
    item = ArchivedDecklist(
        title=_text(raw.get("title"), f"{where}.title", problems, MAX_NAME_CHARS, required=True),
        description=_text(raw.get("description"), f"{where}.description", problems, MAX_NOTES_CHARS),
        cards=_counts(raw.get("cards", {}), f"{where}.cards", problems, MAX_COPIES),
        published_at=_date(raw.get("published_at"), f"{where}.published_at", problems),
        source_deck=_int(raw.get("source_deck"), f"{where}.source_deck", problems, 0, max(n_decks - 1, 0),
                         optional=True),
        source_version=_int(raw.get("source_version"), f"{where}.source_version", problems, 1, 10**9, optional=True),
        original_id=_int(raw.get("id"), f"{where}.id", problems, 1, 2**62, optional=True))
    if item.source_deck is not None and n_decks == 0:
        problems.append(f"{where}.source_deck: the file has no decks.")
    if not item.cards and len(problems) == before:
        problems.append(f"{where}.cards: a published decklist has cards.")
    return item if len(problems) == before else None


def _ids(value, where: str, problems: list[str]) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list):
        problems.append(f"{where}: expected a list of decklist ids.")
        return []
    if len(value) > MAX_MARKS:
        problems.append(f"{where}: {len(value)} ids; at most {MAX_MARKS:,}.")
        return []
    out = []
    for i, v in enumerate(value):
        n = _int(v, f"{where}[{i}]", problems, 1, 2**62)
        if n is not None:
            out.append(n)
        if len(problems) > MAX_PROBLEMS:
            break
    return list(dict.fromkeys(out))


def _list_part(data: Mapping, key: str, what: str, most: int, problems: list[str]) -> list:
    """One of the file's lists (`decks`, `decklists`); absent means empty; too long is a problem, not a cut."""
    items = data.get(key, [])
    if not isinstance(items, list):
        problems.append(f"{key}: expected a list of {what}.")
        return []
    if len(items) > most:
        problems.append(f"{key}: {len(items)} {key}; at most {most:,} in one file.")
        return []
    return items


def read_archive(data) -> Archive:
    """Check an account file (already parsed from JSON). `problems` is empty when every part of it is usable."""
    archive = Archive()
    problems = archive.problems
    if not isinstance(data, Mapping) or data.get("format") != ARCHIVE_FORMAT:
        problems.append(f"format: this is not a Reign of Kings DB account file (expected '{ARCHIVE_FORMAT}').")
        return archive
    if data.get("version") != ARCHIVE_VERSION:
        problems.append(f"version: this site reads account files of version {ARCHIVE_VERSION}, "
                        f"not {str(data.get('version'))[:10]!r}.")
        return archive
    archive.collection = _counts(data.get("collection", {}), "collection", problems, MAX_OWNED)
    decks = _list_part(data, "decks", "decks", MAX_DECKS, problems)
    for i, raw in enumerate(decks):
        deck = _deck(raw, f"decks[{i}]", problems)
        if deck is not None:
            archive.decks.append(deck)
        if len(problems) > MAX_PROBLEMS:
            break
    decklists = _list_part(data, "decklists", "published decklists", MAX_DECKLISTS, problems)
    n_decks = len(decks)
    for i, raw in enumerate(decklists):
        if len(problems) > MAX_PROBLEMS:
            break
        item = _decklist(raw, f"decklists[{i}]", problems, n_decks)
        if item is not None:
            archive.decklists.append(item)
    archive.likes = _ids(data.get("likes"), "likes", problems)
    archive.favourites = _ids(data.get("favourites"), "favourites", problems)
    if len(problems) > MAX_PROBLEMS:
        extra = len(problems) - MAX_PROBLEMS
        del problems[MAX_PROBLEMS:]
        problems.append(f"… and at least {extra} more problem{'s' if extra > 1 else ''}.")
    return archive
