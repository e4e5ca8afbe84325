"""The card search language of CONTRACTS §5 for any game, over card dicts (pure Python, no Django).

r1's search (`cards/search.py`) compiles the same grammar to SQL; the other games' catalogues are small (a few
hundred cards), so their queries are evaluated over the game's card dicts in memory. A game declares its keys as
`QueryKey`s (cards/games/<game>/search.py) and gets the whole language: bare words and "phrases" match the name,
`key:value` / `key OP number` with OP one of `: = != < <= > >=`, `-term`, `a|b` inside one key, `or`, and
parentheses. Every error is a `QueryError(message, position)` naming the term (1-based position).

    >>> keys = [QueryKey("t", "type", "choice", lambda c: c["type"], choices=("leader", "place"))]
    >>> q = parse("t:place or dragon", keys)
    >>> [matches(q, c) for c in ({"name": "Red Dragon", "type": "leader"}, {"name": "Farm", "type": "place"})]
    [True, True]
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from lark import Lark, Tree
from lark.exceptions import UnexpectedInput

MAX_QUERY_LENGTH = 500
MAX_NUMBER = 999

# The grammar of CONTRACTS §5, the same as cards/search.py's.
GRAMMAR = r"""
    start: or_expr?
    or_expr: and_expr (OR and_expr)*
    and_expr: _unary+
    _unary: neg | _atom
    neg: NEG _unary
    _atom: "(" or_expr ")" | keyterm | word | phrase
    keyterm: KEYOP value (PIPE value)*
    value: VALUE | PHRASE
    word: WORD
    phrase: PHRASE

    OR.3: /(?i:or)(?![^\s()"|])/
    KEYOP.2: /[A-Za-z]+(?:!=|<=|>=|:|=|<|>)/
    NEG: "-"
    PIPE: "|"
    PHRASE: /"[^"]*"/
    WORD: /[^\s()"|\-][^\s()"|]*/
    VALUE: /[^\s()"|]+/
    %import common.WS
    %ignore WS
"""
_PARSER = Lark(GRAMMAR, parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=False)
COMPARISONS = ("<", "<=", ">", ">=")


class QueryError(ValueError):
    """A query that cannot be searched; `position` is 1-based, pointing at the term at fault."""

    def __init__(self, message: str, position: int = 1):
        super().__init__(message)
        self.message = message
        self.position = position


@dataclass(frozen=True)
class QueryKey:
    """One search key of a game.

    kind "number": `get(card)` is an int or None, compared with the operator; "choice": `get(card)` is a value or
    a collection of values, the query's value must be one of `choices` (aliases map other spellings); "text":
    the query's value is a case-insensitive substring of `get(card)` (a string or a list of strings)."""

    name: str
    label: str
    kind: str
    get: Callable[[dict], object]
    choices: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()          # other spellings of the key ("type" for "t")
    value_aliases: dict = field(default_factory=dict)
    example: str = ""


@dataclass(frozen=True)
class Term:
    key: str
    op: str
    values: tuple
    position: int
    text: str


@dataclass(frozen=True)
class Not:
    child: object


@dataclass(frozen=True)
class And:
    children: tuple


@dataclass(frozen=True)
class Or:
    children: tuple


@dataclass(frozen=True)
class Query:
    text: str
    root: object | None
    keys: dict


def _key_table(keys: Sequence[QueryKey]) -> dict[str, QueryKey]:
    table: dict[str, QueryKey] = {}
    for k in keys:
        table[k.name] = k
        for alias in k.aliases:
            table[alias] = k
    return table


def parse(q: str, keys: Sequence[QueryKey]) -> Query:
    """Parse and validate a query against a game's keys (raises QueryError)."""
    if not isinstance(q, str):
        raise QueryError("the query must be text", 1)
    if len(q) > MAX_QUERY_LENGTH:
        raise QueryError(f"the query is too long ({len(q)} characters; at most {MAX_QUERY_LENGTH})",
                         MAX_QUERY_LENGTH + 1)
    if "\x00" in q:
        raise QueryError(f"the query contains a NUL character at position {q.index(chr(0)) + 1}", q.index("\x00") + 1)
    table = _key_table(keys)
    try:
        tree = _PARSER.parse(q)
    except UnexpectedInput as exc:
        pos = (getattr(exc, "pos_in_stream", None) or 0) + 1
        if q.count("(") > q.count(")"):
            raise QueryError(f"unclosed parenthesis in the query (position {q.index('(') + 1})", q.index("(") + 1)
        raise QueryError(f"cannot read the query at position {pos}: {q[pos - 1:pos + 10]!r}", pos) from None
    root = _build(tree.children[0], q, table, keys) if tree.children else None
    return Query(text=q, root=root, keys=table)


def _build(node: Tree, q: str, table: dict, keys):
    kind = node.data
    if kind == "or_expr":
        children = tuple(_build(c, q, table, keys) for c in node.children if isinstance(c, Tree))
        return children[0] if len(children) == 1 else Or(children)
    if kind == "and_expr":
        children = tuple(_build(c, q, table, keys) for c in node.children)
        return children[0] if len(children) == 1 else And(children)
    if kind == "neg":
        return Not(_build(node.children[1], q, table, keys))
    pos = node.meta.start_pos + 1
    text = q[node.meta.start_pos:node.meta.end_pos]
    if kind == "word":
        if node.children[0].value.lower() == "or":
            raise QueryError(f'"{node.children[0].value}" at position {pos} needs a term on both sides', pos)
        return Term("name", ":", (node.children[0].value,), pos, text)
    if kind == "phrase":
        phrase = node.children[0].value[1:-1]
        if not phrase.strip():
            raise QueryError(f"empty quotes at position {pos}: put words between the quotes", pos)
        return Term("name", ":", (phrase,), pos, text)
    keyop = node.children[0].value
    m = re.match(r"([A-Za-z]+)(.*)", keyop)
    raw_key, op = m.group(1), m.group(2)
    raw_values = [c.children[0].value for c in node.children[1:] if isinstance(c, Tree)]
    where = f'"{text}" (position {pos})'
    spec = table.get(raw_key.lower())
    if spec is None:
        close = difflib.get_close_matches(raw_key.lower(), list(table), n=1, cutoff=0.6)
        hint = f' (did you mean "{close[0]}"?)' if close else ""
        raise QueryError(f'unknown key "{raw_key}" in {where}{hint}; keys are '
                         + ", ".join(k.name for k in keys), pos)
    values = [v[1:-1] if len(v) >= 2 and v[0] == v[-1] == '"' else v for v in raw_values]
    values = [v.strip() for v in values]
    if any(not v for v in values):
        raise QueryError(f"empty value in {where}", pos)
    if op in COMPARISONS and spec.kind != "number":
        raise QueryError(f'{where}: {spec.label} cannot be compared with "{op}"; use {spec.name}: or '
                         f'{spec.name}!=', pos)
    return Term(spec.name, op, tuple(_value(spec, v, where, pos) for v in values), pos, text)


def _value(spec: QueryKey, value: str, where: str, pos: int):
    low = " ".join(value.lower().split())
    if spec.kind == "number":
        if not value.isascii() or not value.isdigit():
            raise QueryError(f'{where}: {spec.label} must be a whole number, not "{value}"', pos)
        number = int(value)
        if number > MAX_NUMBER:
            raise QueryError(f"{where}: {number} is too large (at most {MAX_NUMBER})", pos)
        return number
    if spec.kind == "choice":
        low = spec.value_aliases.get(low, low)
        if low in spec.choices:
            return low
        if low.endswith("s") and low[:-1] in spec.choices:
            return low[:-1]
        close = difflib.get_close_matches(low, list(spec.choices), n=1, cutoff=0.6)
        hint = f' (did you mean "{close[0]}"?)' if close else ""
        raise QueryError(f'{where}: unknown {spec.label} "{value}"{hint}; one of {", ".join(spec.choices)}', pos)
    return value.casefold()


def _compare(op: str, have, want: int) -> bool:
    if not isinstance(have, int) or isinstance(have, bool):
        return False
    return {":": have == want, "=": have == want, "!=": have == want, "<": have < want, "<=": have <= want,
            ">": have > want, ">=": have >= want}[op]


def _as_set(value) -> set:
    if value is None:
        return set()
    if isinstance(value, (list, tuple, set, frozenset)):
        return {str(v).lower() for v in value if v is not None}
    return {str(value).lower()}


def _term_matches(term: Term, card: dict, keys: dict) -> bool:
    if term.key == "name":
        name = (card.get("name") or "").casefold()
        sub = (card.get("subtitle") or "").casefold()
        hit = any(v.casefold() in name or v.casefold() in sub for v in term.values)
        return hit
    spec = keys[term.key]
    have = spec.get(card)
    if spec.kind == "number":
        hit = any(_compare(term.op, have, v) for v in term.values)
    elif spec.kind == "choice":
        got = _as_set(have)
        hit = any(v in got for v in term.values)
    else:
        texts = [have] if isinstance(have, str) else list(have or [])
        hit = any(v in (t or "").casefold() for v in term.values for t in texts)
    return not hit if term.op == "!=" else hit


def _node_matches(node, card: dict, keys: dict) -> bool:
    if isinstance(node, Term):
        return _term_matches(node, card, keys)
    if isinstance(node, Not):
        return not _node_matches(node.child, card, keys)
    if isinstance(node, And):
        return all(_node_matches(c, card, keys) for c in node.children)
    return any(_node_matches(c, card, keys) for c in node.children)


def matches(query: Query, card: dict) -> bool:
    return query.root is None or _node_matches(query.root, card, query.keys)


def filter_cards(q: str, cards: Iterable[dict], keys: Sequence[QueryKey]) -> list[dict]:
    """The cards matching `q` (parsed once), in the order given."""
    query = parse(q, keys)
    return [c for c in cards if matches(query, c)]


__all__ = ["QueryError", "QueryKey", "Query", "parse", "matches", "filter_cards"]
