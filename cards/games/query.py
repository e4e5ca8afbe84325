"""The card search language of CONTRACTS §5 for any game, over card dicts (pure Python, no Django).

The grammar, the syntax tree and the syntax errors live here once: r1's search (`cards/search.py`) parses with
`parse_tree` and its own key checks, and compiles the tree to SQL; the other games' catalogues are small (a few
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

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

MAX_QUERY_LENGTH = 500
MAX_NUMBER = 999

# The grammar of CONTRACTS §5. KEYOP is tried before WORD (priority) so that "c<=2" lexes as key+operator then
# value; inside a value the contextual lexer only offers VALUE/PHRASE, so "t:or" or "c:-" are values, not the OR
# operator or negation.
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

    def __str__(self) -> str:
        return self.message


# ---- syntax tree ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Term:
    key: str                  # canonical key, or "name" for bare words and phrases
    op: str                   # ":" "=" "!=" "<" "<=" ">" ">="
    values: tuple             # validated values; several means OR (a|b)
    position: int             # 1-based
    text: str                 # the term as typed


@dataclass(frozen=True)
class Not:
    child: object


@dataclass(frozen=True)
class And:
    children: tuple


@dataclass(frozen=True)
class Or:
    children: tuple


def walk_terms(root) -> list[Term]:
    """The terms of a syntax tree, left to right."""
    out: list[Term] = []

    def walk(node):
        if isinstance(node, Term):
            out.append(node)
        elif isinstance(node, Not):
            walk(node.child)
        elif isinstance(node, (And, Or)):
            for child in node.children:
                walk(child)

    if root is not None:
        walk(root)
    return out


# ---- parsing -------------------------------------------------------------------------------------------------
# A key term's checker: (raw key, operator, raw values, position, term text, value positions) -> Term.
KeyTermChecker = Callable[[str, str, list, int, str, list], Term]


def parse_tree(q: str, check_key_term: KeyTermChecker):
    """The syntax tree of `q` (None for the empty query), each key term checked by the game's `check_key_term`;
    raises QueryError naming the term at fault."""
    if not isinstance(q, str):
        raise QueryError("the query must be text", 1)
    if len(q) > MAX_QUERY_LENGTH:
        raise QueryError(f"the query is too long ({len(q)} characters; at most {MAX_QUERY_LENGTH})",
                         MAX_QUERY_LENGTH + 1)
    if "\x00" in q:
        raise QueryError(f"the query contains a NUL character at position {q.index(chr(0)) + 1}",
                         q.index("\x00") + 1)
    try:
        tree = _PARSER.parse(q)
    except UnexpectedInput as exc:
        raise _syntax_error(q, exc) from None
    return _build(tree.children[0], q, check_key_term) if tree.children else None


def _build(node: Tree, q: str, check_key_term: KeyTermChecker):
    kind = node.data
    if kind == "or_expr":
        children = tuple(_build(c, q, check_key_term) for c in node.children if isinstance(c, Tree))
        return children[0] if len(children) == 1 else Or(children)
    if kind == "and_expr":
        children = tuple(_build(c, q, check_key_term) for c in node.children)
        return children[0] if len(children) == 1 else And(children)
    if kind == "neg":
        return Not(_build(node.children[1], q, check_key_term))
    pos = node.meta.start_pos + 1
    text = q[node.meta.start_pos:node.meta.end_pos]
    if kind == "word":
        if node.children[0].value.lower() == "or":
            # The lexer reads "or" as a word where no OR can stand (first, after "(", "-" or another "or"):
            # a stray operator, not a card name; a name with the word in it is searched as "or" in quotes.
            raise QueryError(f'"{node.children[0].value}" at position {pos} needs a term on both sides; '
                             f'to find cards named with the word, write it in quotes: "or"', pos)
        return Term("name", ":", (node.children[0].value,), pos, text)
    if kind == "phrase":
        phrase = node.children[0].value[1:-1]
        if not phrase.strip():
            raise QueryError(f'empty quotes at position {pos}: put words between the quotes', pos)
        return Term("name", ":", (phrase,), pos, text)
    if kind == "keyterm":
        keyop = node.children[0].value
        m = re.match(r"([A-Za-z]+)(.*)", keyop)
        assert m is not None   # KEYOP's pattern
        tokens = [c.children[0] for c in node.children[1:] if isinstance(c, Tree)]
        return check_key_term(m.group(1), m.group(2), [t.value for t in tokens], pos, text,
                              [t.start_pos + 1 for t in tokens])
    raise QueryError(f"cannot read the term at position {pos}", pos)  # pragma: no cover


def _describe_token(token: Token) -> str:
    return "the end of the query" if token.type == "$END" else f'"{token.value}"'


def _syntax_error(q: str, exc: UnexpectedInput) -> QueryError:
    end = len(q) + 1
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream + 1
        char = q[exc.pos_in_stream] if exc.pos_in_stream < len(q) else ""
        if char == '"':
            return QueryError(f'unclosed quote at position {pos}: add the closing "', pos)
        if char in "|":
            return QueryError(f'"|" at position {pos} must sit between two values of one key, e.g. t:unit|location',
                               pos)
        if char == "-":
            return QueryError(f'"-" at position {pos} must be followed by a term to negate, e.g. -t:unit', pos)
        return QueryError(f'unexpected "{char}" at position {pos}', pos)
    if isinstance(exc, (UnexpectedToken, UnexpectedEOF)):
        token = getattr(exc, "token", None)
        at_end = token is None or token.type == "$END"
        pos = end if at_end else (token.start_pos or 0) + 1
        prev = _previous_token(q, pos - 1)
        if prev is not None and prev.type == "KEYOP":
            return QueryError(f'"{prev.value}" at position {prev.start_pos + 1} needs a value, e.g. '
                               f'{prev.value}{"2" if prev.value[-1] in "<=>" else "unit"}', prev.start_pos + 1)
        if prev is not None and prev.type == "NEG":
            return QueryError(f'"-" at position {prev.start_pos + 1} must be followed by a term to negate, '
                               f'e.g. -t:unit', prev.start_pos + 1)
        if prev is not None and prev.type == "OR":
            return QueryError(f'"{prev.value}" at position {prev.start_pos + 1} needs a term on both sides',
                               prev.start_pos + 1)
        if prev is not None and prev.type == "PIPE":
            return QueryError(f'"|" at position {prev.start_pos + 1} needs a value after it', prev.start_pos + 1)
        if prev is not None and prev.type == "LPAR" and at_end:
            return QueryError(f'"(" at position {prev.start_pos + 1} is never closed', prev.start_pos + 1)
        if not at_end:
            if token.type == "RPAR" and prev is not None and prev.type == "LPAR":
                return QueryError(f'empty parentheses at position {prev.start_pos + 1}: put terms inside them',
                                   prev.start_pos + 1)
            if token.type == "RPAR":
                return QueryError(f'")" at position {pos} has no matching "("', pos)
            if token.type == "OR":
                return QueryError(f'"{token.value}" at position {pos} needs a term on both sides', pos)
            if token.type == "PIPE":
                return QueryError(f'"|" at position {pos} must sit between two values of one key, '
                                   f'e.g. t:unit|location', pos)
            return QueryError(f"unexpected {_describe_token(token)} at position {pos}", pos)
        opened = _unclosed_paren(q)
        if opened is not None:
            return QueryError(f'"(" at position {opened} is never closed', opened)
        return QueryError(f"the query ends too early (position {pos})", pos)
    return QueryError(f"cannot read the query at position {exc.column}", 1)  # pragma: no cover


def _previous_token(q: str, offset: int) -> Token | None:
    """The last token that starts before `offset` (0-based), for error messages."""
    prev = None
    try:
        for tok in _PARSER.lex(q[:offset]):
            prev = tok
    except UnexpectedInput:
        return prev
    if prev is None:
        return None
    # The basic lexer cannot tell context; re-label what the grammar would make of a trailing "(" or "-".
    if prev.value == "(":
        prev.type = "LPAR"
    elif prev.value == "-":
        prev.type = "NEG"
    elif prev.value == "|":
        prev.type = "PIPE"
    return prev


def _unclosed_paren(q: str) -> int | None:
    stack: list[int] = []
    in_quote = False
    for i, ch in enumerate(q):
        if ch == '"':
            in_quote = not in_quote
        elif not in_quote and ch == "(":
            stack.append(i + 1)
        elif not in_quote and ch == ")" and stack:
            stack.pop()
    return stack[-1] if stack else None


def did_you_mean(value: str, choices) -> str:
    """' (did you mean "unit"?)' for a near miss, else ''."""
    close = difflib.get_close_matches(value.lower(), list(choices), n=1, cutoff=0.6)
    return f' (did you mean "{close[0]}"?)' if close else ""


def unquote(raw: str) -> str:
    return raw[1:-1] if len(raw) >= 2 and raw[0] == raw[-1] == '"' else raw


# ---- any game's keys, over card dicts --------------------------------------------------------------------
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
    table = _key_table(keys)

    def check(raw_key: str, op: str, raw_values: list, pos: int, text: str, _positions: list) -> Term:
        where = f'"{text}" (position {pos})'
        spec = table.get(raw_key.lower())
        if spec is None:
            raise QueryError(f'unknown key "{raw_key}" in {where}{did_you_mean(raw_key.lower(), table)}; keys are '
                             + ", ".join(k.name for k in keys), pos)
        values = [unquote(v).strip() for v in raw_values]
        if any(not v for v in values):
            raise QueryError(f"empty value in {where}", pos)
        if op in COMPARISONS and spec.kind != "number":
            raise QueryError(f'{where}: {spec.label} cannot be compared with "{op}"; use {spec.name}: or '
                             f'{spec.name}!=', pos)
        return Term(spec.name, op, tuple(_value(spec, v, where, pos) for v in values), pos, text)

    return Query(text=q, root=parse_tree(q, check), keys=table)


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
        raise QueryError(f'{where}: unknown {spec.label} "{value}"{did_you_mean(low, spec.choices)}; one of '
                         f'{", ".join(spec.choices)}', pos)
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
