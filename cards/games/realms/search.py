"""Realms card search keys (the CONTRACTS §5 language, cards/games/query.py), over normalised card dicts.

    >>> from cards.games.realms import bundled_cards
    >>> names = [c["name"] for c in filter_cards("t:warrior wt:infantry cv>=4 aff:sunward", bundled_cards())]
    >>> len(names) > 0
    True
"""
from __future__ import annotations

from collections.abc import Iterable

from cards.games.query import QueryKey, filter_cards as _filter, parse

from .abilities import CARD_TYPES, KEYWORDS, RESOURCES, TACTICS, WARRIOR_TYPES
from .schema import AFFILIATIONS


def _provided(card: dict) -> list[str]:
    return [r for r, n in (card.get("provides") or {}).items() if n]


def _consumed(card: dict) -> list[str]:
    return [r for r, n in (card.get("consumes") or {}).items() if n]


def _is(card: dict) -> list[str]:
    out = []
    if card.get("unique"):
        out.append("unique")
    if card.get("unlimited"):
        out.append("unlimited")
    if card.get("affiliation") is None:
        out.append("general")
    if "Loner" in (card.get("keywords") or ()):
        out.append("loner")
    return out


def _affiliation(card: dict) -> str:
    return card.get("affiliation") or "general"


def _legal(card: dict) -> list[str]:
    # 002 §5: a deck may hold its Leaders' affiliation's cards and General cards; a General card matches any
    # `legal:` value (it is legal in every deck, whichever affiliations the loaded sets bring).
    if card.get("affiliation") is None:
        return [_ANY_AFFILIATION]
    return [card["affiliation"]]


_ANY_AFFILIATION = "*"


def _legal_in(affs: tuple[str, ...]):
    """`legal:`'s values of a card when the loaded affiliations are `affs`."""
    def get(card: dict) -> list[str]:
        got = _legal(card)
        return list(affs) if got == [_ANY_AFFILIATION] else got
    return get


KEYS: tuple[QueryKey, ...] = (
    QueryKey("t", "type", "choice", lambda c: c.get("type"), choices=CARD_TYPES, aliases=("type",),
             example="t:warrior"),
    QueryKey("aff", "affiliation", "choice", _affiliation, choices=(*AFFILIATIONS, "general"),
             aliases=("affiliation", "f"), example="aff:sunward"),
    QueryKey("cv", "Combat Value", "number", lambda c: c.get("cv"), aliases=("p",), example="cv>=4"),
    QueryKey("c", "starting cost", "number", lambda c: c.get("cost"), aliases=("cost",), example="c<=2"),
    QueryKey("tac", "tactic", "choice", lambda c: c.get("tactics"), choices=TACTICS, aliases=("tactic",),
             example="tac:left"),
    QueryKey("pr", "resource provided", "choice", _provided, choices=RESOURCES, aliases=("provides",),
             example="pr:food"),
    QueryKey("co", "resource consumed", "choice", _consumed, choices=RESOURCES, aliases=("consumes",),
             example="co:iron"),
    QueryKey("wt", "warrior type", "choice", lambda c: c.get("warrior_type"),
             choices=tuple(w.lower() for w in WARRIOR_TYPES), aliases=("warrior",), example="wt:cavalry"),
    QueryKey("k", "keyword", "choice", lambda c: c.get("keywords"), choices=tuple(k.lower() for k in KEYWORDS),
             aliases=("keyword", "kw"), example='k:"art spell"'),
    QueryKey("nc", "Neighbor Count", "number", lambda c: c.get("neighbor_count"), example="nc>=3"),
    QueryKey("x", "rules text", "text", lambda c: c.get("text") or "", aliases=("text", "o"),
             example="x:raid"),
    QueryKey("s", "set code", "choice", lambda c: c.get("set"), choices=("fb",), aliases=("set",), example="s:fb"),
    QueryKey("is", "card property", "choice", _is, choices=("unique", "unlimited", "general", "loner"),
             example="is:unlimited"),
    QueryKey("legal", "legal in a deck of affiliation", "choice", _legal_in(tuple(AFFILIATIONS)),
             choices=tuple(AFFILIATIONS),
             example="legal:ashen"),
    QueryKey("n", "name", "text", lambda c: c.get("name") or "", aliases=("name",), example="n:dragon"),
)


def with_sets(set_codes: Iterable[str], affiliations: Iterable[str | None] = ()) -> tuple[QueryKey, ...]:
    """KEYS with `s:` accepting the given set codes (the loaded sets), and `aff:` and `legal:` the set's four
    affiliations plus any other the loaded cards have (a new set may bring its own, CONTRACTS §7)."""
    codes = tuple(sorted(set(set_codes))) or ("fb",)
    affs = tuple(AFFILIATIONS) + tuple(sorted({a for a in affiliations if a and a not in AFFILIATIONS}))
    out = []
    for k in KEYS:
        if k.name == "s":
            k = QueryKey(k.name, k.label, k.kind, k.get, choices=codes, aliases=k.aliases, example=k.example)
        elif k.name == "aff":
            k = QueryKey(k.name, k.label, k.kind, k.get, choices=(*affs, "general"), aliases=k.aliases,
                         example=k.example)
        elif k.name == "legal":
            k = QueryKey(k.name, k.label, k.kind, _legal_in(affs), choices=affs, aliases=k.aliases,
                         example=k.example)
        out.append(k)
    return tuple(out)


def search_keys_for(cards: Iterable[dict]) -> tuple[QueryKey, ...]:
    """The keys for a list of loaded cards: their sets and their affiliations."""
    cards = list(cards)
    return with_sets((c.get("set") or "fb" for c in cards), (c.get("affiliation") for c in cards))


def filter_cards(q: str, cards: Iterable[dict]) -> list[dict]:
    cards = list(cards)
    return _filter(q, cards, search_keys_for(cards))


# The syntax page's examples, each with what it finds.
EXAMPLES = (
    ("t:warrior wt:infantry", "infantry Warriors"),
    ("aff:deepwood t:leader", "the Deepwood Kin's Leaders"),
    ("cv>=5 -is:unique", "Combat Value 5 or more, not unique"),
    ("tac:left tac:right", "cards with both flank tactics"),
    ("pr:iron or pr:timber", "cards providing iron or timber"),
    ("co:food c<=1", "cheap cards consuming food"),
    ('k:"art spell"', "ART SPELL intrigues"),
    ("legal:ashen t:place", "Places an Ashen Covenant deck may hold"),
    ('x:"raid"', "rules text mentioning raids"),
)

__all__ = ["KEYS", "EXAMPLES", "filter_cards", "parse", "search_keys_for", "with_sets"]
