"""Strategies: the short text a player writes and shares (docs/games/regions.md, "Strategies"), and its parser.

A strategy names its Hero and lists ordered rules, Dominiate- and Geronimoo-style:

    name: Recognition Rush
    hero: Corin Vale
    buy:
      Recognition
      Harbour Scrip if goods >= 5 and count(Harbour Scrip) < 2
      Silver
    place:
      citizen at empty, any
    pocket:
      Recognition

`parse_strategy(text, cardset)` returns a `Strategy` (rules compiled to small closures) or raises
`StrategyError`, whose `errors` list every problem with its line and column (1-based) and a hint.

>>> s = parse_strategy("hero: Corin Vale\\nbuy:\\n  Recognition\\n  Silver if goods >= 2\\n")
>>> s.hero.name, [r.text for r in s.buy]
('Corin Vale', ['Recognition', 'Silver if goods >= 2'])
>>> try:
...     parse_strategy("hero: Corin Vale\\nbuy:\\n  Silvr\\n")
... except StrategyError as e:
...     print(e)
line 3, column 3: unknown card or card type 'Silvr' (did you mean 'Silver'?)
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Callable

from .cards import CITIZEN, STRUCTURE, TACTIC, TYPE_INDEX, CardDef, CardSet, HeroDef

SECTIONS = ("buy", "place", "use", "pocket", "trash", "target")
HEADERS = ("name", "hero", "description")
TYPE_WORDS = {"supplies": 0, "supply": 0, "citizen": 1, "citizens": 1, "structure": 2, "structures": 2,
              "tactic": 3, "tactics": 3, "recognition": 4}
REGION_WORDS = ("empty", "safe", "contested", "weakest", "mine", "quest", "biggest", "any")
VARIABLES = ("goods", "turn", "level", "regions", "controlled", "opp_regions", "opp_controlled", "score",
             "opp_score", "lead", "recognition", "pile", "hand", "deck", "cards", "pocket", "capacity", "bought",
             "players")
FUNCTIONS = ("count", "inhand", "market", "stack", "opp_stack")
MAX_LINE = 300


@dataclass(frozen=True)
class StrategyProblem:
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


class StrategyError(ValueError):
    """A strategy text that cannot be used; `errors` holds every problem found, in order."""

    def __init__(self, errors: list[StrategyProblem]):
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors

    def as_json(self) -> list[dict]:
        return [{"line": e.line, "column": e.column, "message": e.message} for e in self.errors]


class _Fail(Exception):
    def __init__(self, column: int, message: str):
        super().__init__(message)
        self.column = column
        self.message = message


@dataclass(frozen=True)
class Selector:
    """A card name, a card type, or `any`: what a rule is about."""

    text: str
    card: CardDef | None = None
    type: int = -1          # -1: not a type selector

    def matches(self, c: CardDef) -> bool:
        if self.card is not None:
            return c is self.card
        return self.type < 0 or c.type == self.type


@dataclass
class Rule:
    text: str
    line: int
    selector: Selector
    regions: list = field(default_factory=list)          # place/use rules: region names (int) or words (str)
    cond: Callable | None = None                          # cond(game, player) -> bool
    ci: int = -1                                          # the selector inlined: card index (-1: any) ...
    ty: int = -1                                          # ... and type (-1: any)

    def __post_init__(self):
        self.ci = self.selector.card.index if self.selector.card is not None else -1
        self.ty = self.selector.type


@dataclass
class Strategy:
    name: str
    hero: HeroDef
    text: str
    description: str = ""
    buy: list[Rule] = field(default_factory=list)
    place: list[Rule] = field(default_factory=list)
    use: list[Rule] = field(default_factory=list)
    pocket: list[Rule] = field(default_factory=list)
    trash: list[Rule] = field(default_factory=list)
    target: list[Rule] = field(default_factory=list)
    cache: dict = field(default_factory=dict, repr=False, compare=False)   # policies' tables, built once
    cardset: CardSet | None = field(default=None, repr=False, compare=False)   # the set its names were read in

    def summary(self) -> dict:
        return {"name": self.name, "hero": self.hero.name, "hero_code": self.hero.code,
                "rules": {s: [r.text for r in getattr(self, s)] for s in SECTIONS}}


def _norm(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").replace("\u2018", "'").lower().split())


# ---- expressions: a tiny tokenizer and a recursive-descent parser building closures ---------------------------
_TOKEN = re.compile(r"\s*(?:(?P<num>\d+)|(?P<op><=|>=|==|!=|<|>|=|\+|-|\*|\(|\))|(?P<word>[A-Za-z_][A-Za-z_]*))")


class _Expr:
    """Parser of one condition; `col0` is the column (0-based) where the condition starts in its line."""

    def __init__(self, text: str, col0: int, parser: "_Parser"):
        self.text = text
        self.col0 = col0
        self.parser = parser
        self.pos = 0

    def fail(self, at: int, message: str):
        raise _Fail(self.col0 + at + 1, message)

    def skip(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> tuple[str, str, int]:
        self.skip()
        if self.pos >= len(self.text):
            return ("end", "", self.pos)
        m = _TOKEN.match(self.text, self.pos)
        if not m or m.end() == self.pos:
            return ("bad", self.text[self.pos], self.pos)
        kind = m.lastgroup or "bad"
        return (kind, m.group(kind), self.pos)

    def take(self) -> tuple[str, str, int]:
        tok = self.peek()
        if tok[0] not in ("end", "bad"):
            m = _TOKEN.match(self.text, self.pos)
            assert m is not None
            self.pos = m.end()
        return tok

    def parse(self):
        fn = self.or_expr()
        kind, value, at = self.peek()
        if kind != "end":
            self.fail(at, f"unexpected {value!r} after the condition (join conditions with 'and' / 'or')")
        return fn

    def or_expr(self):
        left = self.and_expr()
        while self.peek()[0] == "word" and self.peek()[1].lower() == "or":
            self.take()
            right = self.and_expr()
            left = (lambda a, b: lambda g, p: a(g, p) or b(g, p))(left, right)
        return left

    def and_expr(self):
        left = self.not_expr()
        while self.peek()[0] == "word" and self.peek()[1].lower() == "and":
            self.take()
            right = self.not_expr()
            left = (lambda a, b: lambda g, p: a(g, p) and b(g, p))(left, right)
        return left

    def not_expr(self):
        kind, value, at = self.peek()
        if kind == "word" and value.lower() == "not":
            self.take()
            inner = self.not_expr()
            return lambda g, p: not inner(g, p)
        return self.comparison()

    def comparison(self):
        kind, value, at = self.peek()
        if kind == "op" and value == "(":
            # a parenthesised condition, or an arithmetic term such as (count(Silver) + 1) >= 3
            save = self.pos
            self.take()
            try:
                inner = self.or_expr()
                k2, v2, a2 = self.take()
                if v2 != ")":
                    self.fail(a2, "missing ')'")
                nk, nv, _ = self.peek()
                if nk == "op" and nv in ("<", "<=", ">", ">=", "==", "!=", "=", "+", "-", "*"):
                    raise _Fail(0, "arith")
                return inner
            except _Fail as exc:
                if exc.message != "arith" and not (exc.message.startswith("expected a comparison")):
                    raise
                self.pos = save
        left, left_at = self.sum_expr()
        kind, op, at = self.peek()
        if kind != "op" or op not in ("<", "<=", ">", ">=", "==", "!=", "="):
            self.fail(at if kind != "end" else len(self.text),
                      "expected a comparison such as 'goods >= 5' (operators < <= > >= == !=)")
        self.take()
        right, _ = self.sum_expr()
        const = getattr(right, "const", None)
        if const is not None:   # the usual "variable OP number": one closure instead of two
            n = const
            if op == "<":
                return lambda g, p: left(g, p) < n
            if op == "<=":
                return lambda g, p: left(g, p) <= n
            if op == ">":
                return lambda g, p: left(g, p) > n
            if op == ">=":
                return lambda g, p: left(g, p) >= n
            if op == "!=":
                return lambda g, p: left(g, p) != n
            return lambda g, p: left(g, p) == n
        if op == "<":
            return lambda g, p: left(g, p) < right(g, p)
        if op == "<=":
            return lambda g, p: left(g, p) <= right(g, p)
        if op == ">":
            return lambda g, p: left(g, p) > right(g, p)
        if op == ">=":
            return lambda g, p: left(g, p) >= right(g, p)
        if op == "!=":
            return lambda g, p: left(g, p) != right(g, p)
        return lambda g, p: left(g, p) == right(g, p)

    def sum_expr(self):
        left, at0 = self.product()
        while True:
            kind, op, at = self.peek()
            if kind == "op" and op in ("+", "-"):
                self.take()
                right, _ = self.product()
                left = ((lambda a, b: lambda g, p: a(g, p) + b(g, p)) if op == "+"
                        else (lambda a, b: lambda g, p: a(g, p) - b(g, p)))(left, right)
            else:
                return left, at0

    def product(self):
        left, at0 = self.atom()
        while True:
            kind, op, at = self.peek()
            if kind == "op" and op == "*":
                self.take()
                right, _ = self.atom()
                left = (lambda a, b: lambda g, p: a(g, p) * b(g, p))(left, right)
            else:
                return left, at0

    def atom(self):
        kind, value, at = self.take()
        if kind == "num":
            n = int(value)
            return _const(n), at
        if kind == "op" and value == "-":
            inner, _ = self.atom()
            return (lambda g, p: -inner(g, p)), at
        if kind == "op" and value == "(":
            inner, _ = self.sum_expr()
            k2, v2, a2 = self.take()
            if v2 != ")":
                self.fail(a2, "missing ')'")
            return inner, at
        if kind == "word":
            word = value.lower()
            if word in FUNCTIONS:
                return self.function(word, at), at
            fn = VARIABLE_FNS.get(word)
            if fn is None:
                hint = _hint(word, list(VARIABLES) + [f + "(...)" for f in FUNCTIONS])
                self.fail(at, f"unknown variable {value!r}{hint}; variables are {', '.join(VARIABLES)}, functions "
                              f"{', '.join(f + '(...)' for f in FUNCTIONS)}")
            return fn, at
        if kind == "end":
            self.fail(len(self.text), "the condition ends too early: expected a number, variable or function")
        self.fail(at, f"unexpected {value!r}: expected a number, variable or function")
        raise AssertionError  # pragma: no cover

    def function(self, word: str, at: int):
        self.skip()
        if self.pos >= len(self.text) or self.text[self.pos] != "(":
            self.fail(self.pos, f"{word} takes an argument in parentheses, e.g. {word}(Silver)")
        close = self.text.find(")", self.pos)
        if close < 0:
            self.fail(len(self.text), "missing ')'")
        arg = self.text[self.pos + 1:close].strip()
        arg_at = self.pos + 1 + (len(self.text[self.pos + 1:close]) - len(self.text[self.pos + 1:close].lstrip()))
        self.pos = close + 1
        if word in ("stack", "opp_stack"):
            r = self.parser.region(arg, self.col0 + arg_at)
            if word == "stack":
                return lambda g, p: len(g.stacks[p][r])
            return lambda g, p: max(len(g.stacks[q][r]) for q in range(g.n) if q != p)
        sel = self.parser.selector(arg, self.col0 + arg_at)
        if word == "count":   # cards owned, wherever they sit (the engine keeps the counts)
            if sel.card is not None:
                ci = sel.card.index
                return lambda g, p: g.owned[p][ci]
            if sel.type >= 0:
                t = sel.type
                return lambda g, p: g.owned_t[p][t]
            return lambda g, p: sum(g.owned_t[p])
        if word == "inhand":
            return lambda g, p: sum(1 for c in g.hand[p] if sel.matches(c))
        return lambda g, p: sum(1 for pile in g.mpiles if pile and sel.matches(pile[-1])) + (
            sum(1 for c in g.standing if sel.matches(c) and (c.type != 4 or g.rec_pile > 0)))


class _const:
    """A number in a condition: callable like every term, and marked so comparisons with it can be specialised."""

    __slots__ = ("const",)

    def __init__(self, n: int):
        self.const = n

    def __call__(self, g, p) -> int:
        return self.const


def _goods(g, p):
    total = g.bank[p]
    for c in g.hand[p]:
        if c.plain and c.only < 0:
            total += c.goods
    return total


def _score(g, p):
    return g.score(p)


def _opp_best(g, p, fn):
    best = -1
    for q in range(g.n):
        if q != p:
            v = fn(g, q)
            if v > best:
                best = v
    return best


def _presence(g, q):
    return 5 - g.stacks[q].count([])


def _controlled(g, q):
    return g.ctrl.count(q)


def _v_turn(g, p):
    return g.turn


def _v_level(g, p):
    return g.level[p]


def _v_opp_regions(g, p):
    return _opp_best(g, p, _presence)


def _v_opp_controlled(g, p):
    return _opp_best(g, p, _controlled)


def _v_opp_score(g, p):
    return _opp_best(g, p, _score)


def _v_lead(g, p):
    return g.score(p) - _opp_best(g, p, _score)


def _v_recognition(g, p):
    return g.rec_owned[p]


def _v_pile(g, p):
    return g.rec_pile


def _v_hand(g, p):
    return len(g.hand[p])


def _v_deck(g, p):
    return g.deck_size(p)


def _v_cards(g, p):
    return sum(g.owned_t[p])


def _v_pocket(g, p):
    return len(g.pocket[p])


def _v_capacity(g, p):
    return g.pocket_capacity(p)


def _v_bought(g, p):
    return g.bought[p]


def _v_players(g, p):
    return g.n


VARIABLE_FNS: dict[str, Callable] = {
    "goods": _goods, "turn": _v_turn, "level": _v_level, "regions": _presence, "controlled": _controlled,
    "opp_regions": _v_opp_regions, "opp_controlled": _v_opp_controlled, "score": _score,
    "opp_score": _v_opp_score, "lead": _v_lead, "recognition": _v_recognition, "pile": _v_pile,
    "hand": _v_hand, "deck": _v_deck, "cards": _v_cards, "pocket": _v_pocket, "capacity": _v_capacity,
    "bought": _v_bought, "players": _v_players,
}


def _hint(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


# ---- lines ----------------------------------------------------------------------------------------------------
class _Parser:
    def __init__(self, cs: CardSet):
        self.cs = cs
        self.names = {c.lname: c for c in cs.cards}
        self.region_names = {}
        for r in cs.regions:
            self.region_names[_norm(r.short)] = r.index
            self.region_names[_norm(r.name)] = r.index
            self.region_names[r.code] = r.index

    def selector(self, text: str, col: int) -> Selector:
        key = _norm(text)
        if not key:
            raise _Fail(col + 1, "expected a card name, a card type (supplies, citizen, structure, tactic, "
                                 "recognition) or 'any'")
        if key in self.names:
            return Selector(text.strip(), card=self.names[key])
        if key in TYPE_WORDS:
            t = TYPE_WORDS[key]
            if t == 4:   # the Recognition card and the type are the same thing
                return Selector(text.strip(), card=self.cs.recognition)
            return Selector(text.strip(), type=t)
        if key == "any":
            return Selector("any")
        hint = _hint(key, list(self.names) + list(TYPE_WORDS) + ["any"])
        if hint:
            close = difflib.get_close_matches(key, list(self.names) + list(TYPE_WORDS) + ["any"], n=1, cutoff=0.6)[0]
            pretty = self.names[close].name if close in self.names else close
            hint = f" (did you mean {pretty!r}?)"
        raise _Fail(col + 1, f"unknown card or card type {text.strip()!r}{hint}")

    def region(self, text: str, col: int) -> int:
        key = _norm(text)
        if key in self.region_names:
            return self.region_names[key]
        names = [r.short for r in self.cs.regions]
        hint = _hint(key, [_norm(x) for x in names])
        if hint:
            close = difflib.get_close_matches(key, [_norm(x) for x in names], n=1, cutoff=0.6)[0]
            hint = f" (did you mean {names[[_norm(x) for x in names].index(close)]!r}?)"
        raise _Fail(col + 1, f"unknown Region {text.strip()!r}{hint}; Regions are {', '.join(names)}")

    def region_list(self, text: str, col: int) -> list:
        out: list = []
        pos = 0
        for part in text.split(","):
            lead = len(part) - len(part.lstrip())
            key = _norm(part)
            if not key:
                raise _Fail(col + pos + 1, "expected a Region or a Region word after 'at' "
                                           f"({', '.join(REGION_WORDS)})")
            if key in REGION_WORDS:
                out.append(key)
            else:
                try:
                    out.append(self.region(part, col + pos + lead))
                except _Fail as exc:
                    hint = _hint(key, list(REGION_WORDS))
                    raise _Fail(exc.column, exc.message + f"; or a Region word{hint}: "
                                                          f"{', '.join(REGION_WORDS)}") from None
            pos += len(part) + 1
        return out

    def rule(self, section: str, text: str, col: int, line: int) -> Rule:
        """One rule line: `SELECTOR [at REGIONS] [if CONDITION]`."""
        cond = None
        m = re.search(r"(?i)(?<![\w'])if(?![\w'])", text)
        head = text
        if m:
            head = text[:m.start()].rstrip()
            body = text[m.end():]
            if not body.strip():
                raise _Fail(col + m.end() + 1, "'if' needs a condition, e.g. 'if goods >= 5'")
            cond = _Expr(body, col + m.end(), self).parse()
        regions: list = []
        am = re.search(r"(?i)\s+at\s+|\s+at$", head)
        name_part = head
        if am:
            name_part = head[:am.start()]
            regions_text = head[am.end():]
            if section not in ("place", "use"):
                raise _Fail(col + am.start() + 2, f"'at' places a card: it belongs in place: or use: rules, not "
                                                  f"{section}:")
            regions = self.region_list(regions_text, col + am.end())
        elif section == "place":
            raise _Fail(col + len(head) + 1, "a place rule says where: 'CARD at REGION[, REGION ...]', e.g. "
                                             "'citizen at empty, any'")
        selector = self.selector(name_part, col)
        if section == "place" and selector.card is not None and selector.card.type not in (CITIZEN, STRUCTURE,
                                                                                          TACTIC):
            raise _Fail(col + 1, f"{selector.card.name} never goes into a Stack (003 §5.3): only Citizens, "
                                 "Structures and Tactics are placed")
        if section == "place" and selector.card is None and selector.type in (0, 4):
            raise _Fail(col + 1, "Supplies and Recognition never go into a Stack (003 §5.3)")
        if section == "use" and selector.card is not None and not any(selector.card.hand_ab):
            raise _Fail(col + 1, f"{selector.card.name} has no Hand ability to use (Discard me / Trash me)")
        return Rule(text=text.strip(), line=line, selector=selector, regions=regions, cond=cond)


def parse_strategy(text: str, cardset: CardSet | None = None, *, name: str | None = None) -> Strategy:
    """Parse a strategy text (docs/games/regions.md). Raises StrategyError listing every problem."""
    cs = cardset or CardSet.default()
    parser = _Parser(cs)
    problems: list[StrategyProblem] = []
    if not isinstance(text, str):
        raise StrategyError([StrategyProblem(1, 1, "a strategy is a text")])
    header: dict[str, tuple[str, int, int]] = {}
    sections: dict[str, list[Rule]] = {s: [] for s in SECTIONS}
    current: str | None = None     # the section being read; "?" after an unknown one
    seen_sections: set[str] = set()
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        if "//" in line:
            line = line.split("//", 1)[0].rstrip()
        if not line.strip():
            continue
        if len(raw) > MAX_LINE:
            problems.append(StrategyProblem(lineno, MAX_LINE, f"line longer than {MAX_LINE} characters"))
            continue
        indent = len(line) - len(line.lstrip())
        body = line.strip()
        m = re.match(r"^([A-Za-z_]+)\s*:\s*(.*)$", body)
        if m and (m.group(1).lower() in HEADERS or m.group(1).lower() in SECTIONS):
            key = m.group(1).lower()
            rest = m.group(2)
            value_col = indent + m.start(2) + 1
            if key in HEADERS:
                if not rest.strip():
                    problems.append(StrategyProblem(lineno, value_col, f"{key}: needs a value"))
                elif key in header:
                    problems.append(StrategyProblem(lineno, indent + 1, f"{key}: is given twice (first on line "
                                                                        f"{header[key][1]})"))
                else:
                    header[key] = (rest.strip(), lineno, value_col)
                current = None
                continue
            if key in seen_sections:
                problems.append(StrategyProblem(lineno, indent + 1, f"the {key}: section appears twice; put all "
                                                                    f"its rules under one {key}: line"))
            seen_sections.add(key)
            current = key
            if rest.strip():   # a one-line section: "pocket: Recognition"
                for part_col, part in _split_commas(rest) if key in ("pocket", "trash", "target") else [(0, rest)]:
                    try:
                        sections[key].append(parser.rule(key, part, value_col - 1 + part_col, lineno))
                    except _Fail as exc:
                        problems.append(StrategyProblem(lineno, exc.column, exc.message))
            continue
        if m and (current is None or current == "?" or indent == 0):
            word = m.group(1).lower()
            hint = _hint(word, list(HEADERS) + list(SECTIONS))
            problems.append(StrategyProblem(lineno, indent + 1, f"unknown header {m.group(1)!r}{hint}; headers are "
                                                                f"{', '.join(HEADERS)} and sections "
                                                                f"{', '.join(s + ':' for s in SECTIONS)}"))
            current = "?"          # the rules under an unknown section are not read (one error, not one per rule)
            continue
        if current == "?":
            continue
        if current is None:
            problems.append(StrategyProblem(lineno, indent + 1, "a rule outside a section: start the section with "
                                                                "a line such as 'buy:' or 'place:'"))
            continue
        try:
            sections[current].append(parser.rule(current, body, indent, lineno))
        except _Fail as exc:
            problems.append(StrategyProblem(lineno, exc.column, exc.message))
    hero = None
    if "hero" not in header:
        problems.append(StrategyProblem(1, 1, "the strategy needs a 'hero: NAME' line; Heroes are "
                                              + ", ".join(h.name for h in cs.heroes)))
    else:
        value, lineno, col = header["hero"]
        try:
            hero = cs.hero(value)
        except KeyError:
            names = [h.name for h in cs.heroes]
            close = difflib.get_close_matches(value.lower(), [x.lower() for x in names], n=1, cutoff=0.5)
            hint = f" (did you mean {names[[x.lower() for x in names].index(close[0])]!r}?)" if close else ""
            problems.append(StrategyProblem(lineno, col, f"unknown Hero {value!r}{hint}; Heroes are "
                                                         + ", ".join(names)))
    if not problems and not sections["buy"] and not sections["place"]:
        problems.append(StrategyProblem(1, 1, "the strategy has no buy: or place: rules, so it would never act"))
    if problems:
        problems.sort(key=lambda e: (e.line, e.column))
        raise StrategyError(problems)
    assert hero is not None
    return Strategy(name=name or (header["name"][0] if "name" in header else hero.name), hero=hero, text=text,
                    description=header["description"][0] if "description" in header else "",
                    buy=sections["buy"], place=sections["place"], use=sections["use"], pocket=sections["pocket"],
                    trash=sections["trash"], target=sections["target"], cardset=cs)


def _split_commas(text: str) -> list[tuple[int, str]]:
    out = []
    pos = 0
    for part in text.split(","):
        if part.strip():
            out.append((pos + len(part) - len(part.lstrip()), part.strip()))
        pos += len(part) + 1
    return out
