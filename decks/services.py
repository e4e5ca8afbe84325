"""Writes to decks. Every service is keyword-only and atomic: bad input raises `DeckInputError` and saves nothing.

Every save makes a new `DeckVersion`; two editors saving the same deck both get their version kept (the later
save is told about the conflict, and the earlier version stays restorable).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import slugify

from cards.models import Card, Faction

from .collection import MAX_OWNED, parse_collection_csv
from .decklist import DecklistProblem, content_hash, parse_decklist
from .legality import FormatRules, check_deck
from .models import (CollectionCard, Deck, DeckCard, Decklist, DecklistCard, DecklistComment, DecklistFavourite,
                     DecklistLike, DeckVersion, Format)
from .pool import CardPool

MAX_NAME_CHARS = 200
MAX_NOTES_CHARS = 20_000
MAX_TAGS = 20
MAX_TAG_CHARS = 40
MAX_COPIES_PER_CARD = 99
MAX_DECK_CARDS = 500


class DeckInputError(ValueError):
    """Input a deck cannot be saved from. `problems` lists unreadable decklist lines when there are any."""

    def __init__(self, message: str, problems: list[DecklistProblem] | None = None):
        super().__init__(message)
        self.message = message
        self.problems = problems or []

    @property
    def summary(self) -> str:
        """One line for a page that lists `problems` below it: how many lines failed and that nothing changed,
        without repeating the first problem (the API's `detail` is `message`, which quotes it)."""
        if not self.problems:
            return self.message
        n = len(self.problems)
        what = "rows" if "CSV" in self.message else "lines"
        what = what[:-1] if n == 1 else what
        return f"{n} {what} could not be read, so nothing was saved. Correct {'it' if n == 1 else 'them'} and try again:"


@dataclass(frozen=True)
class SaveResult:
    deck: Deck
    version: DeckVersion
    conflict: bool = False  # the editor saved over a version it had not seen; both versions are kept


def _clean_name(name: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise DeckInputError("A deck needs a name.")
    name = " ".join(name.split())
    if "\x00" in name:
        raise DeckInputError("The deck name contains a NUL character.")
    if len(name) > MAX_NAME_CHARS:
        raise DeckInputError(f"The deck name is {len(name)} characters long; at most {MAX_NAME_CHARS}.")
    return name


def _clean_notes(notes: str) -> str:
    if not isinstance(notes, str):
        raise DeckInputError("Notes must be text.")
    if len(notes) > MAX_NOTES_CHARS:
        raise DeckInputError(f"The notes are {len(notes)} characters long; at most {MAX_NOTES_CHARS}.")
    if "\x00" in notes:
        raise DeckInputError("The notes contain a NUL character.")
    return notes


def _clean_tags(tags: Iterable[str]) -> list[str]:
    if isinstance(tags, str) or not isinstance(tags, Iterable):
        raise DeckInputError("Tags must be a list of words.")
    out: list[str] = []
    for tag in tags:
        if not isinstance(tag, str):
            raise DeckInputError("Each tag must be text.")
        tag = " ".join(tag.split()).lower()
        if "\x00" in tag:
            raise DeckInputError("A tag contains a NUL character.")
        if not tag:
            continue
        if len(tag) > MAX_TAG_CHARS:
            raise DeckInputError(f"The tag '{tag[:20]}…' is longer than {MAX_TAG_CHARS} characters.")
        if tag not in out:
            out.append(tag)
    if len(out) > MAX_TAGS:
        raise DeckInputError(f"A deck has at most {MAX_TAGS} tags; {len(out)} were given.")
    return out


def _clean_counts(counts: Mapping[str, int], pool: CardPool, *, kept: Iterable[str] = ()) -> dict[str, int]:
    """Check a code -> count mapping. Codes in `kept` (already in the deck) may be missing from the catalogue:
    a card deleted from the catalogue stays in the decks that hold it until their owner removes it."""
    if not isinstance(counts, Mapping):
        raise DeckInputError("Cards must be an object of card code -> number of copies.")
    kept = set(kept)
    clean: dict[str, int] = {}
    unknown = []
    for code, n in counts.items():
        if not isinstance(code, str) or (pool.get(code) is None and code not in kept):
            unknown.append(str(code)[:40])
            continue
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_COPIES_PER_CARD:
            raise DeckInputError(f"{code}: the number of copies must be a whole number from 0 to "
                                 f"{MAX_COPIES_PER_CARD}, not {str(n)[:20]!r}.")
        if n:
            clean[code] = n
    if unknown:
        raise DeckInputError(f"Unknown card code{'s' if len(unknown) > 1 else ''}: {', '.join(unknown[:10])}.")
    total = sum(clean.values())
    if total > MAX_DECK_CARDS:
        raise DeckInputError(f"{total} cards is far beyond a deck (at most {MAX_DECK_CARDS}).")
    return clean


def _identity(counts: Mapping[str, int], pool: CardPool) -> tuple[Faction | None, Card | None]:
    """The deck's faction (from its faction card) and destiny, when there is exactly one of each."""
    known = [pool.get(c) for c in counts if pool.get(c) is not None]
    faction_slugs = {card["faction"] for card in known if card["type"] == "faction"}
    destiny_codes = [card["code"] for card in known if card["type"] == "destiny"]
    faction = Faction.objects.filter(slug=next(iter(faction_slugs))).first() if len(faction_slugs) == 1 else None
    destiny = Card.objects.filter(code=destiny_codes[0]).first() if len(destiny_codes) == 1 else None
    return faction, destiny


def _write_cards(deck: Deck, counts: Mapping[str, int]) -> None:
    DeckCard.objects.filter(deck=deck).delete()
    DeckCard.objects.bulk_create([DeckCard(deck=deck, card_code=code, count=n) for code, n in counts.items()])


def _new_version(deck: Deck, counts: Mapping[str, int], *, based_on: int | None,
                 restored_from: int | None = None) -> DeckVersion:
    number = (deck.versions.aggregate(top=Max("number"))["top"] or 0) + 1
    version = DeckVersion.objects.create(
        deck=deck, number=number, name=deck.name, notes=deck.notes, tags=list(deck.tags), cards=dict(counts),
        content_hash=deck.content_hash, based_on=based_on, restored_from=restored_from)
    deck.version = number
    deck.save(update_fields=["version", "updated_at"])
    return version


@transaction.atomic
def deck_create(*, owner, name: str, counts: Mapping[str, int], notes: str = "", tags: Iterable[str] = (),
                is_private: bool = True, pool: CardPool | None = None) -> SaveResult:
    """Create a deck and its version 1. The deck need not be legal yet: players save work in progress."""
    pool = pool or CardPool.from_db()
    return _create(owner=owner, name=name, clean=_clean_counts(counts, pool), notes=notes, tags=tags,
                   is_private=is_private, pool=pool)


def _create(*, owner, name: str, clean: dict[str, int], notes: str, tags: Iterable[str], is_private: bool,
            pool: CardPool, copied_from=None) -> SaveResult:
    faction, destiny = _identity(clean, pool)
    deck = Deck.objects.create(owner=owner, name=_clean_name(name), notes=_clean_notes(notes),
                               tags=_clean_tags(tags), is_private=bool(is_private), faction=faction,
                               destiny=destiny, content_hash=content_hash(clean), copied_from=copied_from)
    _write_cards(deck, clean)
    version = _new_version(deck, clean, based_on=None)
    return SaveResult(deck=deck, version=version)


@transaction.atomic
def deck_update(*, deck: Deck, name: str | None = None, counts: Mapping[str, int] | None = None,
                notes: str | None = None, tags: Iterable[str] | None = None, is_private: bool | None = None,
                base_version: int | None = None, pool: CardPool | None = None) -> SaveResult:
    """Save a new version of a deck. Fields left as None keep their value.

    `base_version` is the version the editor started from. When another save came in between (two tabs),
    this save still becomes a new version, the other one stays in the history, and `conflict` is True.
    A save identical to the latest version creates no new version.
    """
    pool = pool or CardPool.from_db()
    locked = Deck.objects.select_for_update().get(pk=deck.pk)  # serialise concurrent saves of one deck
    latest = locked.versions.order_by("-number").first()
    current = dict(latest.cards) if latest else locked.counts
    clean = _clean_counts(counts, pool, kept=current) if counts is not None else current
    if name is not None:
        locked.name = _clean_name(name)
    if notes is not None:
        locked.notes = _clean_notes(notes)
    if tags is not None:
        locked.tags = _clean_tags(tags)
    if is_private is not None:
        locked.is_private = bool(is_private)
    if base_version is not None and (isinstance(base_version, bool) or not isinstance(base_version, int)):
        raise DeckInputError("base_version must be a version number.")
    conflict = base_version is not None and latest is not None and base_version != latest.number
    unchanged = (latest is not None and latest.cards == clean and latest.name == locked.name
                 and latest.notes == locked.notes and latest.tags == locked.tags)
    if unchanged:
        locked.save(update_fields=["is_private", "updated_at"])
        return SaveResult(deck=locked, version=latest, conflict=conflict)
    locked.faction, locked.destiny = _identity(clean, pool)
    locked.content_hash = content_hash(clean)
    locked.save()
    if clean != current:
        _write_cards(locked, clean)
    version = _new_version(locked, clean, based_on=base_version if base_version is not None else
                           (latest.number if latest else None))
    return SaveResult(deck=locked, version=version, conflict=conflict)


def _parse_or_raise(text: str, pool: CardPool) -> dict[str, int]:
    if not isinstance(text, str):
        raise DeckInputError("The decklist must be text.")
    parsed = parse_decklist(text, pool)
    if parsed.problems:
        first = parsed.problems[0].message
        more = f" (and {len(parsed.problems) - 1} more)" if len(parsed.problems) > 1 else ""
        raise DeckInputError(f"The decklist has lines that could not be read: {first}{more}", parsed.problems)
    if not parsed.counts:
        raise DeckInputError("The decklist holds no cards.")
    return parsed.counts


def deck_import_text(*, owner, text: str, name: str | None, deck: Deck | None = None, notes: str | None = None,
                     tags: Iterable[str] | None = None, is_private: bool | None = None,
                     base_version: int | None = None, pool: CardPool | None = None) -> SaveResult:
    """Import a decklist (CONTRACTS §2) as a new deck, or as one new version of `deck` (with any name, notes, tags
    given). Any unreadable line saves nothing and raises `DeckInputError` whose `problems` list every bad line."""
    pool = pool or CardPool.from_db()
    counts = _parse_or_raise(text, pool)
    if deck is None:
        return deck_create(owner=owner, name=name or "", counts=counts, notes=notes or "", tags=tags or (),
                           is_private=True if is_private is None else is_private, pool=pool)
    if deck.owner_id != owner.pk:
        raise DeckInputError("Only the deck's owner can import into it.")
    return deck_update(deck=deck, counts=counts, name=name, notes=notes, tags=tags, is_private=is_private,
                       base_version=base_version, pool=pool)


@transaction.atomic
def deck_restore_version(*, deck: Deck, number: int) -> SaveResult:
    """Make an old version the latest again, as a new version (the versions in between stay in the history)."""
    old = deck.versions.filter(number=number).first()
    if old is None:
        raise DeckInputError(f"Deck {deck.pk} has no version {number}.")
    locked = Deck.objects.select_for_update().get(pk=deck.pk)
    latest_number = locked.version
    counts = dict(old.cards)
    locked.name, locked.notes, locked.tags = old.name, old.notes, list(old.tags)
    locked.faction, locked.destiny = _identity(counts, CardPool.from_db())
    locked.content_hash = content_hash(counts)
    locked.save()
    _write_cards(locked, counts)
    version = _new_version(locked, counts, based_on=latest_number, restored_from=number)
    return SaveResult(deck=locked, version=version)


@transaction.atomic
def deck_delete(*, deck: Deck) -> Deck:
    """Delete a deck, undoably: it disappears everywhere but stays restorable by `deck_undelete`."""
    if deck.deleted_at is None:
        deck.deleted_at = timezone.now()
        deck.save(update_fields=["deleted_at"])
    return deck


@transaction.atomic
def deck_undelete(*, deck: Deck) -> Deck:
    if deck.deleted_at is not None:
        deck.deleted_at = None
        deck.save(update_fields=["deleted_at"])
    return deck


@transaction.atomic
def deck_copy(*, deck: Deck, owner) -> SaveResult:
    """A new private deck with the same list, name, notes and tags; the copy's history starts at version 1."""
    pool = CardPool.from_db()
    counts = deck.counts
    return _create(owner=owner, name=f"Copy of {deck.name}"[:MAX_NAME_CHARS],
                   clean=_clean_counts(counts, pool, kept=counts), notes=deck.notes, tags=deck.tags,
                   is_private=True, pool=pool, copied_from=deck.copied_from)


@transaction.atomic
def format_activate(*, fmt: Format) -> Format:
    """Make `fmt` the format every deck is checked against (§11); the previously active one is deactivated."""
    Format.objects.filter(active=True).exclude(pk=fmt.pk).update(active=False)
    if not fmt.active:
        fmt.active = True
        fmt.save(update_fields=["active", "updated_at"])
    return fmt


@transaction.atomic
def format_deactivate_all() -> int:
    """Back to the default: no organised-play list active, as pre-launch (§11)."""
    return Format.objects.filter(active=True).update(active=False)


# ---- collection ------------------------------------------------------------------------------------
@transaction.atomic
def collection_set(*, user, counts: Mapping[str, int], replace: bool = False,
                   pool: CardPool | None = None) -> dict[str, int]:
    """Set owned copies per card code (0 removes the card). `replace=True` makes `counts` the whole collection."""
    pool = pool or CardPool.from_db()
    if not isinstance(counts, Mapping):
        raise DeckInputError("The collection must be an object of card code -> copies owned.")
    unknown = [str(c)[:40] for c in counts if not isinstance(c, str) or pool.get(c) is None]
    if unknown:
        raise DeckInputError(f"Unknown card code{'s' if len(unknown) > 1 else ''}: {', '.join(unknown[:10])}.")
    for code, n in counts.items():
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_OWNED:
            raise DeckInputError(f"{code}: copies owned must be a whole number from 0 to {MAX_OWNED}, "
                                 f"not {str(n)[:20]!r}.")
    if replace:
        CollectionCard.objects.filter(user=user).delete()
    else:
        CollectionCard.objects.filter(user=user, card_code__in=list(counts)).delete()
    CollectionCard.objects.bulk_create(
        [CollectionCard(user=user, card_code=code, count=n) for code, n in counts.items() if n > 0])
    return {row.card_code: row.count for row in CollectionCard.objects.filter(user=user)}


@transaction.atomic
def collection_add_set(*, user, set_code: str, copies: int = 1) -> dict[str, int]:
    """Add `copies` boxes of a whole set: each card's box quantity (1 when unknown) times `copies`."""
    if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= 10:
        raise DeckInputError("copies must be a whole number of boxes from 1 to 10.")
    cards = list(Card.objects.filter(card_set__code=set_code).values_list("code", "quantity"))
    if not cards:
        raise DeckInputError(f"No set with code {str(set_code)[:32]!r}.")
    rows = CollectionCard.objects.filter(user=user, card_code__in=[c for c, _ in cards])
    owned = {row.card_code: row for row in rows}
    for code, quantity in cards:
        add = (quantity or 1) * copies
        row = owned.get(code)
        if row is None:
            CollectionCard.objects.create(user=user, card_code=code, count=min(MAX_OWNED, add))
        else:
            row.count = min(MAX_OWNED, row.count + add)
            row.save(update_fields=["count", "updated_at"])
    return {row.card_code: row.count for row in CollectionCard.objects.filter(user=user)}


def collection_import_csv(*, user, text: str, replace: bool = True, pool: CardPool | None = None) -> dict[str, int]:
    """Import a collection CSV. Any unreadable row saves nothing; `DeckInputError.problems` lists every row."""
    pool = pool or CardPool.from_db()
    if not isinstance(text, str):
        raise DeckInputError("The collection must be CSV text.")
    parsed = parse_collection_csv(text, pool)
    if parsed.problems:
        first = parsed.problems[0].message
        more = f" (and {len(parsed.problems) - 1} more)" if len(parsed.problems) > 1 else ""
        raise DeckInputError(f"The CSV has rows that could not be read: {first}{more}", parsed.problems)
    return collection_set(user=user, counts=parsed.counts, replace=replace, pool=pool)


# ---- published decklists ---------------------------------------------------------------------------
@transaction.atomic
def decklist_publish(*, deck: Deck, title: str, description: str = "", pool: CardPool | None = None,
                     fmt: FormatRules | None = None) -> Decklist:
    """Publish the deck's latest version as an immutable, public decklist. Only a legal deck can be published
    (§11, and the active format if one is given). Re-publishing links the new decklist to the previous one."""
    pool = pool or CardPool.from_db()
    latest = deck.versions.order_by("-number").first()
    counts = dict(latest.cards) if latest else deck.counts
    verdict = check_deck(counts, pool, fmt)
    if not verdict.legal:
        raise DeckInputError("Only a legal deck can be published: " + " ".join(e.message for e in verdict.errors[:5]))
    title = _clean_name(title)
    description = _clean_notes(description)
    previous = Decklist.objects.filter(source_deck=deck).order_by("-published_at", "-id").first()
    faction, destiny = _identity(counts, pool)
    decklist = Decklist.objects.create(
        owner=deck.owner, source_deck=deck, source_version=latest.number if latest else None, title=title,
        slug=slugify(title)[:80] or "decklist", description=description, faction=faction, destiny=destiny,
        cards=counts, content_hash=content_hash(counts), derived_from=deck.copied_from, previous=previous)
    # published_at and faction are copies of the decklist's (the database's triggers keep them so, decks/dbsync.py).
    DecklistCard.objects.bulk_create(
        [DecklistCard(decklist=decklist, card_code=code, count=n, published_at=decklist.published_at,
                      faction_id=decklist.faction_id) for code, n in counts.items()])
    return decklist


def decklist_copy(*, decklist: Decklist, owner, pool: CardPool | None = None) -> SaveResult:
    """Copy a published decklist into the user's decks; publishing the copy later links back (derived_from)."""
    pool = pool or CardPool.from_db()
    counts = dict(decklist.cards)
    with transaction.atomic():
        return _create(owner=owner, name=f"Copy of {decklist.title}"[:MAX_NAME_CHARS],
                       clean=_clean_counts(counts, pool, kept=counts), notes=decklist.description, tags=(),
                       is_private=True, pool=pool, copied_from=decklist)


def _toggle(model, field: str, *, decklist: Decklist, user, on: bool) -> Decklist:
    with transaction.atomic():
        if on:
            model.objects.get_or_create(user=user, decklist=decklist)
        else:
            model.objects.filter(user=user, decklist=decklist).delete()
        Decklist.objects.filter(pk=decklist.pk).update(**{field: model.objects.filter(decklist=decklist).count()})
    decklist.refresh_from_db(fields=[field])
    return decklist


def decklist_like(*, decklist: Decklist, user, on: bool = True) -> Decklist:
    """Like (or un-like) a decklist; idempotent. `like_count` is kept for sorting by popularity, so an author
    cannot like their own decklist (un-liking one, say an old like, is allowed)."""
    if on and decklist.owner_id == getattr(user, "pk", None):
        raise DeckInputError("You cannot like your own decklist: likes are how other players rate it.")
    return _toggle(DecklistLike, "like_count", decklist=decklist, user=user, on=on)


def decklist_favourite(*, decklist: Decklist, user, on: bool = True) -> Decklist:
    return _toggle(DecklistFavourite, "favourite_count", decklist=decklist, user=user, on=on)


# ---- the whole account as one file --------------------------------------------------------------
def account_export(*, user) -> dict:
    """Every deck of the user (deleted ones too, flagged) with every version, and their collection, as one JSON-able
    object that `account_import` reads back. Nothing a user saved is left out."""
    from .archive import ARCHIVE_FORMAT, ARCHIVE_VERSION

    decks = []
    index: dict[int, int] = {}   # deck id -> its place in the file (what a decklist's source_deck points at)
    for deck in Deck.objects.filter(owner=user).order_by("created_at", "id").prefetch_related("versions"):
        index[deck.pk] = len(decks)
        versions = sorted(deck.versions.all(), key=lambda v: v.number)
        decks.append({
            "name": deck.name, "is_private": deck.is_private, "deleted": deck.deleted_at is not None,
            "created_at": deck.created_at.isoformat(),
            "versions": [{"number": v.number, "name": v.name, "notes": v.notes, "tags": list(v.tags),
                          "cards": dict(v.cards), "based_on": v.based_on, "restored_from": v.restored_from,
                          "created_at": v.created_at.isoformat()} for v in versions]})
    collection = {row.card_code: row.count for row in CollectionCard.objects.filter(user=user)}
    decklists = [{
        "id": dl.pk, "title": dl.title, "description": dl.description, "cards": dict(dl.cards),
        "published_at": dl.published_at.isoformat(), "source_deck": index.get(dl.source_deck_id),
        "source_version": dl.source_version,
    } for dl in Decklist.objects.filter(owner=user).order_by("published_at", "id")]
    likes = list(DecklistLike.objects.filter(user=user).order_by("created_at", "id")
                 .values_list("decklist_id", flat=True))
    favourites = list(DecklistFavourite.objects.filter(user=user).order_by("created_at", "id")
                      .values_list("decklist_id", flat=True))
    # Comments on decklists: in the file so that nothing written is lost; an import does not post them
    # again (they answer other players' decklists on the site they were written on).
    comments = [{"decklist": c.decklist_id, "decklist_title": c.decklist.title, "body": c.body,
                 "created_at": c.created_at.isoformat(), "hidden": c.hidden_at is not None}
                for c in DecklistComment.objects.filter(author=user).select_related("decklist").order_by("created_at",
                                                                                                         "id")]
    return {"format": ARCHIVE_FORMAT, "version": ARCHIVE_VERSION, "exported_at": timezone.now().isoformat(),
            "user": user.get_username(), "decks": decks, "collection": collection, "decklists": decklists,
            "likes": likes, "favourites": favourites, "comments": comments}


@dataclass(frozen=True)
class ImportSummary:
    decks: list[Deck]
    versions: int
    collection_cards: int
    decklists: int = 0          # published decklists re-created (ones already there are not doubled)
    likes: int = 0              # likes and favourites restored on decklists that still exist
    favourites: int = 0
    missing_marks: int = 0      # likes/favourites of decklists no longer on this site


@transaction.atomic
def account_import(*, user, data, pool: CardPool | None = None) -> ImportSummary:
    """Read an `account_export` file into `user`'s account. Everything is checked first; any problem raises
    `DeckInputError` (its `problems` name each place) and saves nothing. Never overwrites: every deck is added as a
    new deck with all its versions (numbers, dates and restore links kept), and the collection keeps, per card,
    the larger of the owned and the imported count. Cards no longer in the catalogue stay in the decks (flagged
    there, as for any deck); in the collection they are a problem, since nobody can own a card that is not there."""
    from .archive import read_archive

    pool = pool or CardPool.from_db()
    archive = read_archive(data)
    problems = list(archive.problems)
    problems += [f"collection.{code}: no card has this code." for code in archive.collection if pool.get(code) is None]
    if problems:
        raise DeckInputError(f"The account file cannot be imported: {problems[0]}"
                             + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
                             [DecklistProblem(0, "bad_archive", p) for p in problems])
    created, n_versions = [], 0
    for item in archive.decks:
        latest = item.versions[-1]
        cards = dict(latest.cards)
        faction, destiny = _identity(cards, pool)
        deck = Deck.objects.create(
            owner=user, name=" ".join(item.name.split())[:MAX_NAME_CHARS], notes=latest.notes,
            tags=list(latest.tags), is_private=item.is_private, faction=faction, destiny=destiny,
            content_hash=content_hash(cards), version=latest.number,
            deleted_at=timezone.now() if item.deleted else None)
        _write_cards(deck, cards)
        DeckVersion.objects.bulk_create([DeckVersion(
            deck=deck, number=v.number, name=" ".join(v.name.split())[:MAX_NAME_CHARS] or deck.name, notes=v.notes,
            tags=list(v.tags), cards=dict(v.cards), content_hash=content_hash(v.cards), based_on=v.based_on,
            restored_from=v.restored_from) for v in item.versions], batch_size=500)
        # auto_now_add stamps "now"; the history keeps the dates the versions were really saved.
        dated = {v.number: v.created_at for v in item.versions if v.created_at is not None}
        if dated:
            rows = list(DeckVersion.objects.filter(deck=deck, number__in=list(dated)).only("pk", "number"))
            for row in rows:
                row.created_at = dated[row.number]
            DeckVersion.objects.bulk_update(rows, ["created_at"], batch_size=500)
        if item.created_at is not None:
            Deck.objects.filter(pk=deck.pk).update(created_at=item.created_at)
        created.append(deck)
        n_versions += len(item.versions)
    owned = {row.card_code: row for row in CollectionCard.objects.filter(user=user)}
    changed = 0
    for code, n in archive.collection.items():
        row = owned.get(code)
        if row is None:
            CollectionCard.objects.create(user=user, card_code=code, count=n)
            changed += 1
        elif n > row.count:
            row.count = n
            row.save(update_fields=["count", "updated_at"])
            changed += 1
    n_decklists = _import_decklists(user, archive.decklists, created, pool)
    likes, missing_l = _import_marks(user, archive.likes, DecklistLike, "like_count")
    favourites, missing_f = _import_marks(user, archive.favourites, DecklistFavourite, "favourite_count")
    return ImportSummary(decks=created, versions=n_versions, collection_cards=changed, decklists=n_decklists,
                         likes=likes, favourites=favourites, missing_marks=missing_l + missing_f)


def _import_decklists(user, items, created: list[Deck], pool: CardPool) -> int:
    """Re-create the user's published decklists as they were published (title, text, cards, date), linked to the
    imported deck they came from. A decklist the user already has (same title and cards) is not doubled."""
    have = set(Decklist.objects.filter(owner=user).values_list("title", "content_hash"))
    made = 0
    last_of: dict[int, Decklist] = {}
    for item in items:
        counts = dict(item.cards)
        key = (item.title, content_hash(counts))
        if key in have:
            continue
        have.add(key)
        source = created[item.source_deck] if item.source_deck is not None else None
        faction, destiny = _identity(counts, pool)
        decklist = Decklist.objects.create(
            owner=user, source_deck=source, source_version=item.source_version, title=_clean_name(item.title),
            slug=slugify(item.title)[:80] or "decklist", description=item.description, faction=faction,
            destiny=destiny, cards=counts, content_hash=key[1],
            previous=last_of.get(item.source_deck) if item.source_deck is not None else None)
        DecklistCard.objects.bulk_create(
            [DecklistCard(decklist=decklist, card_code=code, count=n, published_at=decklist.published_at,
                          faction_id=decklist.faction_id) for code, n in counts.items()])
        if item.published_at is not None:   # the date it was really published (the card rows follow: dbsync)
            Decklist.objects.filter(pk=decklist.pk).update(published_at=item.published_at)
        if item.source_deck is not None:
            last_of[item.source_deck] = decklist
        made += 1
    return made


def _import_marks(user, ids, model, counter: str) -> tuple[int, int]:
    """Likes or favourites on decklists that still exist on this site: (restored, no longer there)."""
    if not ids:
        return 0, 0
    existing = set(Decklist.objects.filter(pk__in=ids).values_list("pk", flat=True))
    already = set(model.objects.filter(user=user, decklist_id__in=existing).values_list("decklist_id", flat=True))
    new = [pk for pk in ids if pk in existing and pk not in already]
    model.objects.bulk_create([model(user=user, decklist_id=pk) for pk in new], ignore_conflicts=True)
    for pk in new:
        Decklist.objects.filter(pk=pk).update(**{counter: model.objects.filter(decklist_id=pk).count()})
    return len(new), len([pk for pk in ids if pk not in existing])


# ---- comments on published decklists -------------------------------------------------------------
MAX_COMMENT_CHARS = 5_000


class CommentPermissionError(PermissionError):
    """The user may not do this to the comment (only its writer, the decklist's author and staff may)."""


def _clean_comment(body) -> str:
    if not isinstance(body, str):
        raise DeckInputError("A comment must be text.")
    body = body.replace("\r\n", "\n").strip()
    if not body:
        raise DeckInputError("The comment is empty: write something first.")
    if "\x00" in body:
        raise DeckInputError("The comment contains a NUL character.")
    if len(body) > MAX_COMMENT_CHARS:
        raise DeckInputError(f"The comment is {len(body):,} characters long; at most {MAX_COMMENT_CHARS:,}.")
    return body


@transaction.atomic
def comment_create(*, decklist: Decklist, author, body: str) -> DecklistComment:
    """A signed-in player's comment (Markdown) on a published decklist. How often one may comment is limited where
    the request comes in (decks/throttling.py), as for simulations."""
    if author is None or not getattr(author, "is_authenticated", False):
        raise CommentPermissionError("Log in to comment.")
    return DecklistComment.objects.create(decklist=decklist, author=author, body=_clean_comment(body))


def _check_moderator(comment: DecklistComment, user) -> None:
    from .selectors import comment_can_moderate

    if not comment_can_moderate(comment=comment, user=user):
        raise CommentPermissionError("Only the decklist's author and staff can hide comments.")


@transaction.atomic
def comment_hide(*, comment: DecklistComment, by, hidden: bool = True) -> DecklistComment:
    """Hide (or show again) a comment: the decklist's author and staff only. A hidden comment is kept; only
    they and its writer still see it, marked hidden."""
    _check_moderator(comment, by)
    if hidden and comment.hidden_at is None:
        comment.hidden_at, comment.hidden_by = timezone.now(), by
    elif not hidden:
        comment.hidden_at, comment.hidden_by = None, None
    comment.save(update_fields=["hidden_at", "hidden_by"])
    return comment


@transaction.atomic
def comment_delete(*, comment: DecklistComment, by) -> None:
    """Delete a comment for good: its writer, the decklist's author and staff may."""
    from .selectors import comment_can_delete

    if not comment_can_delete(comment=comment, user=by):
        raise CommentPermissionError("Only the comment's writer, the decklist's author and staff can delete it.")
    comment.delete()


# ---- the starter decks as published decklists ------------------------------------------------------
STARTER_ACCOUNT = "ReignOfKingsDB"
STARTER_TAG = "starter"


@dataclass(frozen=True)
class StarterSeedResult:
    account: str
    published: list[Decklist]    # new decklists (a starter seen for the first time, or whose list changed)
    unchanged: int               # starters already published with exactly this list


def _starter_account(username: str):
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is None:
        user = user_model(username=username, first_name="Reign of Kings DB")
        user.set_unusable_password()  # nobody logs in as the site: its decklists are published by this service
        user.save()
    elif user.has_usable_password():
        raise DeckInputError(f"The account {username!r} belongs to a player (it has a password): publish the "
                             f"starters under another account name.")
    return user


@transaction.atomic
def starter_decklists_publish(*, starters, account: str = STARTER_ACCOUNT,
                              pool: CardPool | None = None) -> StarterSeedResult:
    """Publish the core set's starter decks (cards/starters.py) as decklists of the site's own account, so the
    decklist browser is never empty. Idempotent: each starter is a public deck of that account (tagged
    `starter-SLUG`); a starter already published with the same list is left alone, one whose file changed becomes
    a new version of its deck and a new decklist linked to the old one (`previous`). Any starter that cannot be
    read or is not legal raises `DeckInputError` and publishes nothing."""
    pool = pool or CardPool.from_db()
    if not len(pool):
        raise DeckInputError("The card catalogue is empty: load the cards first (python manage.py loadcards "
                             "cards/data/core.json).")
    user = _starter_account(account)
    decks = {tag: deck for deck in Deck.objects.filter(owner=user) for tag in deck.tags}
    published, unchanged = [], 0
    for starter in starters:
        title = f"{starter.faction} — {starter.title}" if starter.title else f"{starter.faction} starter deck"
        description = (f"The core set's starter deck for {starter.faction}: a legal deck ready to play. Copy it to "
                       f"your decks to change it, or simulate it against another starter.")
        try:
            counts = _parse_or_raise(starter.text, pool)
        except DeckInputError as e:
            raise DeckInputError(f"Starter {starter.slug}: {e.message}", e.problems) from e
        tag = f"{STARTER_TAG}-{starter.slug}"
        deck = decks.get(tag)
        if deck is None:
            deck = deck_create(owner=user, name=title, counts=counts, notes=description,
                               tags=[STARTER_TAG, tag], is_private=False, pool=pool).deck
        elif deck.content_hash != content_hash(counts) or deck.deleted_at is not None:
            deck.deleted_at = None
            deck.save(update_fields=["deleted_at"])
            deck = deck_update(deck=deck, counts=counts, name=title, pool=pool).deck
        latest = Decklist.objects.filter(source_deck=deck).order_by("-published_at", "-id").first()
        if latest is not None and latest.content_hash == deck.content_hash:
            unchanged += 1
            continue
        try:
            published.append(decklist_publish(deck=deck, title=title, description=description, pool=pool))
        except DeckInputError as e:
            raise DeckInputError(f"Starter {starter.slug}: {e.message}") from e
    return StarterSeedResult(account=user.username, published=published, unchanged=unchanged)
