"""Writes for the decks, decklists and collections of the hosted games (CONTRACTS §7), through the registry's
hooks only. Every write is one transaction; bad input raises GameDeckError and changes nothing."""
from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils.text import slugify

from cards.games import registry
from cards.selectors import game_cards

from .models import GameCollectionCard, GameDeck, GameDeckVersion, GameDecklist

MAX_COPIES_STORED = 99
MAX_OWNED = 99


class GameDeckError(ValueError):
    def __init__(self, message: str, problems: list[dict] | None = None):
        super().__init__(message)
        self.message = message
        self.problems = problems or []


def read_text(game: registry.Game, text: str, cards: list[dict] | None = None) -> dict[str, int]:
    """Decklist text -> counts; raises GameDeckError listing every unreadable line (CONTRACTS §2)."""
    cards = game_cards(game.slug) if cards is None else cards
    counts, problems = game.hook("parse_decklist")(text or "", cards)
    if problems:
        raise GameDeckError(f"{len(problems)} line{'s' if len(problems) != 1 else ''} could not be read; "
                            "nothing was saved.", problems)
    return counts


def _clean(game: registry.Game, counts: Mapping[str, int], cards: list[dict]) -> dict[str, int]:
    known = {c["code"] for c in cards}
    out = {}
    for code, n in counts.items():
        if code not in known:
            raise GameDeckError(f"Unknown {game.slug} card code {str(code)[:40]!r}.")
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_COPIES_STORED:
            raise GameDeckError(f"{code}: a count is a whole number from 0 to {MAX_COPIES_STORED}.")
        if n:
            out[code] = n
    return out


def _name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise GameDeckError("A deck needs a name.")
    if len(name) > 200:
        raise GameDeckError("A deck's name has at most 200 characters.")
    return name


@transaction.atomic
def game_deck_save(*, game: registry.Game, owner, name: str, counts: Mapping[str, int], fmt: str = "",
                   notes: str = "", is_private: bool = True, deck: GameDeck | None = None) -> GameDeck:
    """Create a deck, or save a new version of `deck` (every save is kept)."""
    cards = game_cards(game.slug)
    clean = _clean(game, counts, cards)
    fmt = fmt or game.formats[0]
    if fmt not in game.formats:
        raise GameDeckError(f"format must be one of {', '.join(game.formats)}, not {fmt[:20]!r}.")
    identity = game.hook("identity")(clean, cards) if game.has("identity") else {}
    if deck is None:
        deck = GameDeck(game=game.slug, owner=owner)
    else:
        deck = GameDeck.objects.select_for_update().get(pk=deck.pk)
    deck.name, deck.cards, deck.fmt, deck.identity = _name(name), clean, fmt, identity
    deck.group = identity.get("group")
    deck.notes = (notes or "")[:20000]
    deck.is_private = bool(is_private)
    deck.version += 1
    deck.save()
    GameDeckVersion.objects.create(deck=deck, number=deck.version, name=deck.name, cards=clean)
    return deck


def game_deck_restore(*, deck: GameDeck, number: int) -> GameDeck:
    version = deck.versions.filter(number=number).first()
    if version is None:
        raise GameDeckError(f"No version {number} of this deck.")
    return game_deck_save(game=registry.get(deck.game), owner=deck.owner, name=version.name,
                          counts=version.cards, fmt=deck.fmt, notes=deck.notes, is_private=deck.is_private,
                          deck=deck)


@transaction.atomic
def game_decklist_publish(*, deck: GameDeck, title: str, description: str = "") -> GameDecklist:
    title = _name(title or deck.name)
    return GameDecklist.objects.create(
        game=deck.game, owner=deck.owner, source_deck=deck, title=title, slug=slugify(title)[:80] or "deck",
        description=(description or "")[:20000], fmt=deck.fmt, cards=dict(deck.cards),
        identity=dict(deck.identity), group=deck.group)


@transaction.atomic
def game_collection_set(*, game: registry.Game, user, counts: Mapping[str, int]) -> dict[str, int]:
    """Set the owned copies of the given cards (0 removes a card)."""
    cards = game_cards(game.slug)
    known = {c["code"] for c in cards}
    for code, n in counts.items():
        if code not in known:
            raise GameDeckError(f"Unknown {game.slug} card code {str(code)[:40]!r}.")
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_OWNED:
            raise GameDeckError(f"{code}: owned copies are a whole number from 0 to {MAX_OWNED}.")
    GameCollectionCard.objects.filter(user=user, game=game.slug, card_code__in=list(counts)).delete()
    GameCollectionCard.objects.bulk_create(
        [GameCollectionCard(user=user, game=game.slug, card_code=c, count=n) for c, n in counts.items() if n])
    return dict(GameCollectionCard.objects.filter(user=user, game=game.slug).values_list("card_code", "count"))


@transaction.atomic
def game_starters_publish(*, account: str) -> tuple[list[GameDecklist], int]:
    """Publish every hosted game's starter decks (its `starters` hook) as decklists of the site's account, like
    r1's `starter_decklists_publish`: idempotent (a starter already published with the same list is left alone, a
    changed one becomes a new version of its deck and its decklist shows it);
    a game whose cards are not loaded is skipped; a starter that cannot be read or is not legal raises
    GameDeckError and publishes nothing."""
    from .services import _starter_account

    user = None
    published, unchanged = [], 0
    for game in registry.hosted():
        if not (game.has("starters") and game.has("check_text")):
            continue
        cards = game_cards(game.slug)
        if not cards:
            continue
        for title, text in game.hook("starters")():
            counts = read_text(game, text, cards)
            verdict = game.hook("check_deck")(counts, cards, game.formats[0])
            if not verdict["legal"]:
                raise GameDeckError(f"The {game.slug} starter {title!r} is not legal: "
                                    + "; ".join(e["message"] for e in verdict["errors"][:3]))
            user = user or _starter_account(account)
            last = GameDecklist.objects.filter(game=game.slug, owner=user, title=title).first()
            if last is not None and last.cards == counts:
                unchanged += 1
                continue
            deck = GameDeck.objects.filter(game=game.slug, owner=user, name=title, deleted_at=None).first()
            deck = game_deck_save(game=game, owner=user, name=title, counts=counts, is_private=False, deck=deck)
            if last is None:
                published.append(game_decklist_publish(deck=deck, title=title,
                                                       description=f"The {game.name} starter deck."))
            else:
                # A rebalanced starter: its decklist follows in place (same URL; the earlier list stays in the
                # deck's versions), as r1's starters do, rather than a second decklist for the same starter.
                last.source_deck, last.cards, last.identity, last.group, last.fmt = (
                    deck, dict(deck.cards), dict(deck.identity), deck.group, deck.fmt)
                last.save(update_fields=["source_deck", "cards", "identity", "group", "fmt"])
                published.append(last)
    return published, unchanged
