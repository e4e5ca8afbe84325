"""Card search: the query language of CONTRACTS §5.

    parse_query("f:camelot t:unit c<=2 -is:unique")   # -> an immutable syntax tree (raises SearchError)
    search_cards("a:knight or a:lord", sort="cost")    # -> QuerySet[Card], one SQL query
    card_matches("t:unit c<=2", card_dict)              # -> bool, the same query on a CONTRACTS §1 dict

The grammar is parsed by lark (LALR, contextual lexer). A parsed query is compiled twice from the same tree:
to Django Q objects (one WHERE clause) and to a plain Python predicate over card dicts, so the simulator and
the deck tools can ask "any card matching t:unit c<=2" without the database. Both readings are tested against
each other.

Every error is a `SearchError(message, position)`; `position` is the 1-based character position of the term
at fault, and the message names the term.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache

from django.db.models import Case, F, IntegerField, Q, QuerySet, Value, When

from cards.games.r1.facts import CARD_TYPES, FACTIONS, ICONS, KEYWORD_BY_LOWER, split_keyword

from .games.query import (
    COMPARISONS, MAX_NUMBER, And, Not, Or, QueryError, Term, did_you_mean, parse_tree, unquote, walk_terms,
)

__all__ = [
    "SearchError", "Query", "parse_query", "search_cards", "card_matches", "compile_q", "sort_cards",
    "SORTS", "KEYS", "register_owned_resolver", "unregister_owned_resolver",
]

# The grammar, the syntax tree and the syntax errors are every game's (cards/games/query.py); r1 adds its keys,
# their checks and the compilation to SQL.
SearchError = QueryError


# ---- keys ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class KeySpec:
    name: str          # canonical short key
    label: str         # what it searches, for messages and the help page
    kind: str          # "number" | "choice" | "text"
    field: str = ""    # the CONTRACTS §1 field


KEYS: dict[str, KeySpec] = {k.name: k for k in (
    KeySpec("t", "type", "choice", "type"),
    KeySpec("f", "faction", "choice", "faction"),
    KeySpec("c", "cost", "number", "cost"),
    KeySpec("p", "Power", "number", "power"),
    KeySpec("i", "struggle icon", "choice", "icons"),
    KeySpec("a", "attribute", "text", "attributes"),
    KeySpec("k", "keyword", "choice", "keywords"),
    KeySpec("x", "rules text", "text", "text"),
    KeySpec("l", "Loyalty", "number", "loyalty"),
    KeySpec("s", "set code", "text", "set"),
    KeySpec("w", "quest Wealth", "number", "wealth"),
    KeySpec("m", "quest Momentum", "number", "momentum"),
    KeySpec("sp", "quest Spoils", "number", "spoils"),
    KeySpec("lv", "quest Levy", "number", "levy"),
    KeySpec("is", "card property", "choice"),
    KeySpec("legal", "legal in a deck of faction", "choice"),
    KeySpec("owned", "in your collection", "choice"),
    KeySpec("n", "name", "text", "name"),
)}
# Long spellings users type from other card sites.
KEY_ALIASES = {
    "type": "t", "faction": "f", "cost": "c", "power": "p", "icon": "i", "attribute": "a", "attr": "a",
    "keyword": "k", "kw": "k", "text": "x", "o": "x", "loyalty": "l", "set": "s", "wealth": "w",
    "momentum": "m", "spoils": "sp", "levy": "lv", "name": "n",
}
IS_VALUES = ("unique", "bound", "restricted", "secret", "haste")
KEYWORD_NAMES = KEYWORD_BY_LOWER   # §9: lower-case name -> the name as printed
NUMBER_FIELDS = {"c": "cost_value", "p": "power", "l": "loyalty", "w": "wealth", "m": "momentum",
                 "sp": "spoils", "lv": "levy"}
EXAMPLE_VALUES = {"t": "unit", "f": "camelot", "i": "combat", "k": "haste", "is": "unique", "legal": "camelot",
                  "owned": "yes"}


@dataclass(frozen=True)
class Query:
    """A parsed query. `root` is None for the empty query, which matches every card."""

    text: str
    root: object | None

    @property
    def terms(self) -> list[Term]:
        return walk_terms(self.root)

    @property
    def needs_user(self) -> bool:
        return any(t.key == "owned" for t in self.terms)


# ---- parsing ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=2048)
def parse_query(q: str) -> Query:
    """Parse a query into a syntax tree, validating every key and value.

    >>> parse_query("t:unit c<=2").terms[1].op
    '<='
    """
    return Query(text=q, root=parse_tree(q, _validate_term))


def _unknown(where: str, what: str, value: str, choices, pos: int) -> SearchError:
    hint = did_you_mean(" ".join(value.lower().split()), choices)
    plural = "properties" if what == "property" else what + "s"
    return SearchError(f'{where}: unknown {what} "{value}"{hint}; {plural} are {", ".join(choices)}', pos)


def _validate_term(raw_key: str, op: str, raw_values: list[str], pos: int, text: str,
                   value_positions: list[int] | None = None) -> Term:
    """A key term checked whole. An unknown key or an operator the key cannot take points at the term; a
    malformed value points at that value (the caret under ">3" in "c>>3"), and the message names the term."""
    key = raw_key.lower()
    key = KEY_ALIASES.get(key, key)
    spec = KEYS.get(key)
    where = f'"{text}" (position {pos})'
    if spec is None:
        hint = did_you_mean(key, [*KEYS, *KEY_ALIASES])
        raise SearchError(f'unknown key "{raw_key}" in {where}{hint}; keys are '
                          + ", ".join(k for k in KEYS if k != "n"), pos)
    values = [unquote(v).strip() for v in raw_values]
    if any(not v for v in values):
        raise SearchError(f"empty value in {where}", pos)
    if op in COMPARISONS and spec.kind != "number":
        raise SearchError(f'{where}: {spec.label} cannot be compared with "{op}"; use {key}: or {key}!=', pos)
    positions = value_positions or [pos] * len(values)
    for value, at in zip(values, positions):
        if spec.kind != "text" and value[0] in "<>=!:":  # "c>>3": the value starts with another operator
            example = (f"{key}>3, {key}>=3 or {key}!=3" if spec.kind == "number"
                       else f"{key}:{EXAMPLE_VALUES.get(key, 'yes')} or {key}!={EXAMPLE_VALUES.get(key, 'yes')}")
            raise SearchError(f'{where}: "{value}" at position {at} has a second operator; write one per term, '
                              f'e.g. {example}', at)
    parsed = tuple(_validate_value(key, spec, op, v, where, at) for v, at in zip(values, positions))
    return Term(key, op, parsed, pos, text)


def _validate_value(key: str, spec: KeySpec, op: str, value: str, where: str, pos: int):
    low = value.lower()
    if spec.kind == "number":
        if low == "x" and key in ("c", "p"):
            if op in COMPARISONS:
                raise SearchError(f"{where}: X is not a number; use {key}:x to find {spec.label} X", pos)
            return "X"
        if value in ("-", "–", "—") and key == "c":
            if op in COMPARISONS:
                raise SearchError(f"{where}: – is not a number; use c:- to find cost – (§2.5)", pos)
            return "-"
        if not value.isascii() or not value.isdigit():
            extra = ", x or -" if key == "c" else (" or x" if key == "p" else "")
            raise SearchError(f"{where}: {spec.label} must be a whole number{extra}, not \"{value}\"", pos)
        number = int(value)
        if number > MAX_NUMBER:
            raise SearchError(f"{where}: {number} is too large (at most {MAX_NUMBER})", pos)
        return number
    if key == "t":
        if low in CARD_TYPES:
            return low
        if low.endswith("s") and low[:-1] in CARD_TYPES:
            return low[:-1]
        raise _unknown(where, "type", value, CARD_TYPES, pos)
    if key in ("f", "legal"):
        if low not in FACTIONS:
            raise _unknown(where, "faction", value, FACTIONS, pos)
        if key == "legal" and low == "neutral":
            raise SearchError(f"{where}: a deck's faction is one of the seven factions (§1.2), not neutral; "
                              f"try legal:camelot", pos)
        return low
    if key == "i":
        if low not in ICONS:
            raise _unknown(where, "icon", value, ICONS, pos)
        return low
    if key == "k":
        name = " ".join(low.split())
        split = split_keyword(value)   # 'Haste (2)', 'haste' and Appendix B's 'Bond' all name a keyword
        if split is not None:
            return split[0].lower()
        raise SearchError(f'{where}: unknown keyword "{value}"{did_you_mean(name, KEYWORD_NAMES)}; keywords are '
                          f'{", ".join(sorted(KEYWORD_NAMES.values()))} (§9)', pos)
    if key == "is":
        if low not in IS_VALUES:
            raise _unknown(where, "property", value, IS_VALUES, pos)
        return low
    if key == "owned":
        if low in ("yes", "y", "true"):
            return True
        if low in ("no", "n", "false"):
            return False
        raise SearchError(f'{where}: owned takes yes or no, not "{value}"', pos)
    if key == "s":
        return low
    return value  # a, x, n: free text


# ---- compiling to the database ---------------------------------------------------------------------------
_owned_resolver: Callable | None = None


def register_owned_resolver(fn: Callable | None) -> Callable | None:
    """Let the collection feature answer `owned:`. `fn(user)` returns the codes the user owns (any iterable of
    card codes) or a Q over Card, or None when the user has no collection yet. Returns the resolver it replaces
    (so that a test can put it back)."""
    global _owned_resolver
    previous, _owned_resolver = _owned_resolver, fn
    return previous


def unregister_owned_resolver() -> Callable | None:
    """Forget the resolver (owned: then answers "no collection yet"); returns it."""
    return register_owned_resolver(None)


def _owned_codes_for(user, term: Term):
    if user is None or not getattr(user, "is_authenticated", False):
        raise SearchError(f'"{term.text}" (position {term.position}): owned: needs you to sign in', term.position)
    if _owned_resolver is None:
        raise SearchError(f'"{term.text}" (position {term.position}): owned: no collection yet — '
                          f"record the cards you own first", term.position)
    owned = _owned_resolver(user)
    if owned is None:
        raise SearchError(f'"{term.text}" (position {term.position}): owned: no collection yet — '
                          f"record the cards you own first", term.position)
    return owned


def _factions(*slugs: str):
    # A subquery the database runs once, rather than a join to the faction table for every card row.
    from .models import Faction

    return Faction.objects.filter(slug__in=slugs).values("pk")


_LOOKUP = {":": "exact", "=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def _value_q(term: Term, value, user) -> Q:
    key = term.key
    if key == "name":
        return Q(name__icontains=value)
    if key == "n":
        return Q(name__icontains=value)
    if key in NUMBER_FIELDS:
        if value == "X":
            return Q(cost_kind="X") if key == "c" else Q(power_is_x=True)
        if value == "-":
            return Q(cost_kind="-")
        op = "=" if term.op == "!=" else term.op
        return Q(**{f"{NUMBER_FIELDS[key]}__{_LOOKUP[op]}": value})
    if key == "t":
        return Q(type=value)
    if key == "f":
        return Q(faction__in=_factions(value))
    if key == "i":
        return Q(**{f"icon_{value}": True})
    if key == "a":
        return Q(attributes_index__contains=f"|{value.lower()}|")  # the index is stored lower-case
    if key == "k":
        # Keywords with their own column are read from it (no LIKE); the others from the "|a|b|" index.
        column = {"bound": Q(is_bound=True), "restricted": Q(is_restricted=True),
                  "haste": Q(haste_cost__isnull=False), "secret": Q(secret_cost__isnull=False)}
        return column.get(value) or Q(keywords_index__contains=f"|{value}|")
    if key == "x":
        return Q(text__icontains=value)
    if key == "s":
        return Q(card_set__code__iexact=value)
    if key == "is":
        return {
            "unique": Q(unique=True), "bound": Q(is_bound=True), "restricted": Q(is_restricted=True),
            "secret": Q(secret_cost__isnull=False), "haste": Q(haste_cost__isnull=False),
        }[value]
    if key == "legal":
        # §11: in-faction and Neutral cards are always legal; off-faction cards unless Bound (§9.3).
        # A deck has its own faction card only (§2.1), never another faction's.
        return ((Q(type="faction") & Q(faction__in=_factions(value)))
                | (~Q(type="faction") & (Q(faction__in=_factions(value, "neutral")) | Q(is_bound=False))))
    if key == "owned":
        owned = _owned_codes_for(user, term)
        q = owned if isinstance(owned, Q) else Q(code__in=list(owned))
        return q if value else ~q
    raise SearchError(f"cannot search {key}", term.position)  # pragma: no cover


def _term_q(term: Term, user) -> Q:
    q = Q()
    for i, value in enumerate(term.values):
        vq = _value_q(term, value, user)
        q = vq if i == 0 else (q | vq)
    # "!=" is the complement of "=": c!=3 finds everything -c:3 finds.
    return ~q if term.op == "!=" else q


def _node_q(node, user) -> Q:
    if isinstance(node, Term):
        return _term_q(node, user)
    if isinstance(node, Not):
        return ~_node_q(node.child, user)
    parts = [_node_q(c, user) for c in node.children]
    q = parts[0]
    for part in parts[1:]:
        q = (q & part) if isinstance(node, And) else (q | part)
    return q


def compile_q(query: Query | str, *, user=None) -> Q:
    """The query as one Q over Card (an empty query is Q(), every card)."""
    if isinstance(query, str):
        query = parse_query(query)
    return Q() if query.root is None else _node_q(query.root, user)


# ---- sorting ---------------------------------------------------------------------------------------------
_TYPE_ORDER = Case(*[When(type=t, then=Value(i)) for i, t in enumerate(
    ("faction", "destiny", "quest", "unit", "location", "attachment", "deed"))],
    default=Value(99), output_field=IntegerField())

SORTS: dict[str, str] = {
    "name": "name",
    "cost": "cost",
    "power": "Power",
    "faction": "faction",
    "type": "type",
    "set": "set and number",
}


def _order_by(sort: str) -> list:
    desc = sort.startswith("-")
    name = sort.lstrip("-")
    if name not in SORTS:
        raise SearchError(f'unknown sort "{sort[:30]}"; sort by {", ".join(SORTS)} (prefix - to reverse)', 1)

    def field(f):
        expr = F(f) if isinstance(f, str) else f
        if f in ("name", "subtitle"):
            # Names are never null: a plain ORDER BY lets the database walk the search index in order.
            return expr.desc() if desc else expr.asc()
        return expr.desc(nulls_last=True) if desc else expr.asc(nulls_last=True)

    keys = {
        "name": ["name", "subtitle"],
        "cost": ["cost_value", "cost_kind", "name"],
        "power": ["power", "name"],
        "faction": ["faction__position", "name"],
        "type": [_TYPE_ORDER, "name"],
        "set": ["card_set__position", "number", "name"],
    }[name]
    # The code breaks ties so that pages never repeat or skip a card.
    rest = [k if not isinstance(k, str) else (k if k in ("name", "subtitle") else F(k).asc(nulls_last=True))
            for k in keys[1:]]
    if name == "name":
        rest = ["-subtitle" if desc else "subtitle"]
    return [field(keys[0]), *rest, "-code" if desc and name == "name" else "code"]


def sort_cards(qs: QuerySet, sort: str | None) -> QuerySet:
    return qs.order_by(*_order_by(sort or "name"))


def search_cards(q: str, *, user=None, sort: str | None = None) -> QuerySet:
    """Cards matching `q`, in one query, sorted by `sort` (name, cost, power, faction, type, set; -x reverses).

    Raises SearchError for a malformed query, an unknown sort, or owned: without a user/collection.
    """
    from .models import Card

    query = parse_query(q or "")
    return sort_cards(Card.objects.filter(compile_q(query, user=user)).select_related("faction", "card_set"), sort)


# ---- evaluating on a card dict ---------------------------------------------------------------------------
def _number_of(card: dict, key: str):
    field = KEYS[key].field
    return card.get(field)


def _compare(op: str, have, want: int) -> bool:
    if not isinstance(have, int) or isinstance(have, bool):
        return False
    return {":": have == want, "=": have == want, "<": have < want, "<=": have <= want,
            ">": have > want, ">=": have >= want}[op]


def _keyword_names(card: dict) -> set[str]:
    names = set()
    for raw in card.get("keywords") or []:
        split = split_keyword(str(raw))
        names.add(split[0].lower() if split is not None else str(raw).lower())
    return names


def _set_code(card: dict) -> str:
    s = card.get("set") or card.get("set_code") or ""
    if isinstance(s, dict):
        s = s.get("code") or ""
    return str(s).lower()


def _value_matches(term: Term, value, card: dict, owned) -> bool:
    key = term.key
    if key in ("name", "n"):
        return value.casefold() in (card.get("name") or "").casefold()
    if key in NUMBER_FIELDS:
        have = _number_of(card, key)
        if value in ("X", "-"):
            return have == value
        op = "=" if term.op == "!=" else term.op
        return _compare(op, have, value)
    if key == "t":
        return card.get("type") == value
    if key == "f":
        return card.get("faction") == value
    if key == "i":
        return value in (card.get("icons") or [])
    if key == "a":
        return value.lower() in {a.lower() for a in card.get("attributes") or []}
    if key == "k":
        return value in _keyword_names(card)
    if key == "x":
        return value.casefold() in (card.get("text") or "").casefold()
    if key == "s":
        return _set_code(card) == value
    if key == "is":
        names = _keyword_names(card)
        return bool(card.get("unique")) if value == "unique" else value in names
    if key == "legal":
        if card.get("type") == "faction":
            return card.get("faction") == value
        return card.get("faction") in (value, "neutral") or "bound" not in _keyword_names(card)
    if key == "owned":
        return (card.get("code") in owned) == value
    return False  # pragma: no cover


def _matches(node, card: dict, owned) -> bool:
    if isinstance(node, Term):
        hit = any(_value_matches(node, v, card, owned) for v in node.values)
        return not hit if node.op == "!=" else hit
    if isinstance(node, Not):
        return not _matches(node.child, card, owned)
    if isinstance(node, And):
        return all(_matches(c, card, owned) for c in node.children)
    return any(_matches(c, card, owned) for c in node.children)


def card_matches(q: Query | str, card: dict, *, owned: Collection[str] | None = None, user=None) -> bool:
    """Whether a CONTRACTS §1 card dict matches the query, without the database.

    `s:` reads the dict's optional "set" key (a code or {"code": ...}). `owned:` needs `owned` (a collection of
    card codes) or a signed-in `user` with a registered collection resolver.

    >>> card_matches("t:unit c<=2", {"code": "x", "name": "Squire", "type": "unit", "faction": "camelot", "cost": 1})
    True
    """
    query = parse_query(q) if isinstance(q, str) else q
    if query.root is None:
        return True
    if owned is None and query.needs_user:
        term = next(t for t in query.terms if t.key == "owned")
        resolved = _owned_codes_for(user, term)
        if isinstance(resolved, Q):
            raise SearchError(f'"{term.text}" (position {term.position}): owned: cannot be checked without the '
                              f"database here", term.position)
        owned = resolved
    owned_set = set(owned) if owned is not None else set()
    return _matches(query.root, card, owned_set)


def filter_cards(q: str, cards: Iterable[dict], **kwargs) -> list[dict]:
    """The cards of `cards` matching `q` (parsed once)."""
    query = parse_query(q)
    return [c for c in cards if card_matches(query, c, **kwargs)]


# ---- the help page's examples ----------------------------------------------------------------------------
# Defined once here: /cards/syntax/ renders them, and tests/cards/test_syntax_examples.py runs every one and checks
# that it returns exactly the cards its `check` (plain Python over the card dict, written independently of the
# search code) describes.
@dataclass(frozen=True)
class SyntaxExample:
    query: str
    meaning: str
    check: Callable[[dict], bool]


def _num(card: dict, field: str):
    v = card.get(field)
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _kw(card: dict) -> set[str]:
    return {re.sub(r"\s*\(.*\)$", "", k).lower() for k in card.get("keywords") or []}


SYNTAX_EXAMPLES: tuple[SyntaxExample, ...] = (
    SyntaxExample("knight", "cards whose name contains “knight” (any case)",
                  lambda c: "knight" in c["name"].lower()),
    SyntaxExample('"of the"', "cards whose name contains the phrase “of the”",
                  lambda c: "of the" in c["name"].lower()),
    SyntaxExample("t:unit", "units", lambda c: c["type"] == "unit"),
    SyntaxExample("t:location|attachment", "locations and attachments",
                  lambda c: c["type"] in ("location", "attachment")),
    SyntaxExample("f:camelot t:unit c<=2", "Camelot units costing 2 or less",
                  lambda c: c["faction"] == "camelot" and c["type"] == "unit" and _num(c, "cost") is not None
                  and c["cost"] <= 2),
    SyntaxExample("f:saracen or f:summer", "Saracen Envoy and Summer Court cards",
                  lambda c: c["faction"] in ("saracen", "summer")),
    SyntaxExample("c:x", "cards with cost X (§8.7)", lambda c: c["cost"] == "X"),
    SyntaxExample("c:-", "cards with cost –, which can only be revealed from the secret area (§2.5, §10.9)",
                  lambda c: c["cost"] == "-"),
    SyntaxExample("c>=5 -t:unit", "cards other than units costing 5 or more",
                  lambda c: (_num(c, "cost") or 0) >= 5 and c["type"] != "unit"),
    SyntaxExample("c!=0 t:deed", "deeds that do not cost 0 (X, – and costs above 0)",
                  lambda c: c["type"] == "deed" and c["cost"] != 0),
    SyntaxExample("p>=4", "units with Power 4 or more", lambda c: (_num(c, "power") or 0) >= 4),
    SyntaxExample("p:0", "units with 0 Power (§10.1: they stay in play)", lambda c: c["power"] == 0),
    SyntaxExample("i:sorcery", "units with the sorcery struggle icon", lambda c: "sorcery" in c["icons"]),
    SyntaxExample("t:unit (i:combat or i:guile) -i:faith", "units with a combat or guile icon but no faith icon",
                  lambda c: c["type"] == "unit" and bool({"combat", "guile"} & set(c["icons"]))
                  and "faith" not in c["icons"]),
    SyntaxExample("a:knight|lord", "cards with the attribute Knight or Lord",
                  lambda c: bool({"knight", "lord"} & {a.lower() for a in c["attributes"]})),
    SyntaxExample("k:haste", "cards with the keyword Haste (any X, §9.3)", lambda c: "haste" in _kw(c)),
    SyntaxExample('k:"no attachments"', "cards with the keyword No Attachments",
                  lambda c: "no attachments" in _kw(c)),
    SyntaxExample("x:draw", "cards whose rules text mentions “draw”", lambda c: "draw" in c["text"].lower()),
    SyntaxExample("l>=2", "cards with Loyalty 2 or 3 (§9.3)", lambda c: (_num(c, "loyalty") or 0) >= 2),
    SyntaxExample("t:quest w>=3", "quests giving 3 Wealth or more",
                  lambda c: c["type"] == "quest" and (_num(c, "wealth") or 0) >= 3),
    SyntaxExample("t:quest (sp>=2 or lv>=8)", "quests with Spoils 2+ or Levy 8+",
                  lambda c: c["type"] == "quest" and ((_num(c, "spoils") or 0) >= 2 or (_num(c, "levy") or 0) >= 8)),
    SyntaxExample("m<=2", "quests with Momentum 2 or less",
                  lambda c: _num(c, "momentum") is not None and c["momentum"] <= 2),
    SyntaxExample("is:unique -f:neutral", "unique (•) cards of the seven factions",
                  lambda c: c["unique"] and c["faction"] != "neutral"),
    SyntaxExample("is:bound", "Bound cards: only for decks of their own faction (§9.3, §11)",
                  lambda c: "bound" in _kw(c)),
    SyntaxExample("is:restricted or is:secret", "Restricted cards and Secret cards",
                  lambda c: bool({"restricted", "secret"} & _kw(c))),
    SyntaxExample("legal:winter t:unit", "units a Winter Court deck may include: its own, Neutral, and other "
                  "factions' units without Bound (§11)",
                  lambda c: c["type"] == "unit" and (c["faction"] in ("winter", "neutral") or "bound" not in _kw(c))),
    SyntaxExample("t:faction", "the faction cards", lambda c: c["type"] == "faction"),
    SyntaxExample("t:destiny", "the destinies, with their deckbuilding rules", lambda c: c["type"] == "destiny"),
    SyntaxExample("s:core", "cards of the Core Set", lambda c: str(c.get("set", "")).lower() == "core"),
)
