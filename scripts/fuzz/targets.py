"""Fuzz targets with hypothesis: one property per input a user controls, shared by the normal suite
(tests/reliability/test_fuzz.py, a few hundred cases) and the nightly run (scripts/fuzz/run.py, >= 10,000 each).

- `search`: any text is either a query or a SearchError naming a position inside the text (CONTRACTS §5); a
  query compiles to a database filter and matches every core card without raising.
- `decklist`: any text reads into positive counts of known codes plus numbered problems, never an exception
  (CONTRACTS §2); the export of what was read reads back to the same counts.
- `cardfile`: any JSON document (mutations of real core cards, and arbitrary JSON) is either a CardFileError or a
  CardFile whose cards without errors export and re-load unchanged (CONTRACTS §1: export then load is a no-op).
- `engine`: random legal-shaped decks from the whole core set, random and greedy policies, checked at every
  decision by the engine tests' invariants (tests/simulator/engines/r1/test_properties.py); the same seed gives the
  same result.

Each target is `(strategy, check)`; `check(example)` raises on a failure. Needs Django settings for `search`
(compile_q builds Q objects) but no database.
"""
from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "cards" / "data" / "core.json"


@lru_cache(maxsize=1)
def core_cards() -> tuple[dict, ...]:
    from cards.cardfile import parse_card_file

    return tuple(parse_card_file(CORE.read_text(encoding="utf-8")).cards)


@lru_cache(maxsize=1)
def core_raw() -> tuple[dict, ...]:
    return tuple(json.loads(CORE.read_text(encoding="utf-8"))["cards"])


@lru_cache(maxsize=1)
def core_pool():
    from decks.pool import CardPool

    return CardPool.from_cards(list(core_cards()))


# --- search -------------------------------------------------------------------------------------------------

SEARCH_TOKENS = [
    "t:", "f:", "c", "p", "w", "m", "sp", "lv", "l", "i:", "a:", "k:", "x:", "s:", "is:", "legal:", "owned:",
    "<=", ">=", "!=", "<", ">", "=", ":", "-", "|", "(", ")", '"', " ", "  ", "or", "OR", "and", "x", "X", "–",
    "unit", "quest", "camelot", "winter", "haste", "bound", "unique", "knight", "combat", "faith", "2", "0", "-1",
    "99999999999999999999", "core", "yes", "no", "\\", "%", "_", "'", "é", "\x00", "\n", "\t", "🜲", "Gawain",
]
SEARCH_TEXT = st.one_of(st.text(max_size=80), st.lists(st.sampled_from(SEARCH_TOKENS), max_size=20).map("".join))


def check_search(q: str) -> None:
    from cards.search import SearchError, card_matches, compile_q, parse_query

    try:
        query = parse_query(q)
    except SearchError as exc:
        assert exc.message, q
        assert 1 <= exc.position <= len(q) + 1, (q, exc.position)
        return
    try:
        compile_q(query)
    except SearchError as exc:  # a value only the database side can judge, e.g. owned: when signed out
        assert exc.message, q
        return
    for card in core_cards()[::17]:
        assert card_matches(query, card, owned=()) in (True, False)


# --- decklist -----------------------------------------------------------------------------------------------

@st.composite
def decklist_text(draw) -> str:
    cards = core_cards()
    titles = [c["name"] + (f", {c['subtitle']}" if c.get("subtitle") else "") for c in cards]
    line = st.one_of(
        st.builds(lambda n, t, x: f"{n}{x} {t}", st.integers(-3, 120), st.sampled_from(titles),
                  st.sampled_from(["", "x", "X", "×", " x"])),
        st.builds(lambda t, n: f"{t} x{n}", st.sampled_from(titles), st.integers(0, 9)),
        st.builds(lambda n, c: f"{n} {c}", st.integers(1, 3), st.sampled_from([c["code"] for c in cards])),
        st.builds(lambda n, t, s, k: f"{n}x {t} ({s}) {k}", st.integers(1, 3), st.sampled_from(titles),
                  st.sampled_from(["core", "CORE", "zz", ""]), st.integers(-1, 300)),
        st.sampled_from(["", "# comment", "// c", "Units:", "Quests:", "   ", "\ufeff3x Gawain", "3x",
                         "x Gawain", "3x ", "(core) 1"]),
        st.text(max_size=40),
    )
    return "\n".join(draw(st.lists(line, max_size=40)))


def check_decklist(text: str) -> None:
    from decks.decklist import export_decklist, parse_decklist

    pool = core_pool()
    parsed = parse_decklist(text, pool)
    lines = text.splitlines()
    for code, count in parsed.counts.items():
        assert code in pool and isinstance(count, int) and count > 0, (code, count)
    for problem in parsed.problems:
        assert problem.code in ("bad_line", "unknown_card", "ambiguous_card"), problem
        assert 0 <= problem.line <= len(lines) and problem.message, problem
    if parsed.counts:
        again = parse_decklist(export_decklist(parsed.counts, pool), pool)
        assert not again.problems and again.counts == parsed.counts, (parsed.counts, again.problems)


# --- card loader --------------------------------------------------------------------------------------------

JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**12) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12)
FIELDS = ["code", "name", "subtitle", "type", "faction", "cost", "power", "icons", "attributes", "unique",
          "loyalty", "keywords", "text", "wealth", "momentum", "spoils", "levy", "deckbuilding", "abilities",
          "gold", "initiative", "claim", "reserve", "strength", "str", "flavor", "number", "quantity"]
FIELD_VALUES = st.one_of(
    JSON_VALUE, st.sampled_from(["X", "-", "–", "unit", "quest", "destiny", "camelot", "neutral", "Bond",
                                 "Haste (2)", "Secret (x)", "Kneel", "STR +1", "Gold", "a" * 40, "UPPER-case"]),
    st.lists(st.sampled_from(["combat", "guile", "sorcery", "faith", "Knight", "Bond", "Scout (2)", 3]),
             max_size=4),
)


@st.composite
def card_document(draw) -> str:
    if draw(st.integers(0, 9)) == 0:  # arbitrary JSON, or not JSON at all
        return draw(st.one_of(JSON_VALUE.map(json.dumps), st.text(max_size=60)))
    raw = core_raw()
    cards = [dict(c) for c in draw(st.lists(st.sampled_from(raw), max_size=6))]
    for card in cards:
        for _ in range(draw(st.integers(0, 3))):
            field = draw(st.sampled_from(FIELDS))
            if draw(st.booleans()):
                card[field] = draw(FIELD_VALUES)
            else:
                card.pop(field, None)
    set_obj = draw(st.sampled_from([{"code": "fz", "name": "Fuzz"}, {"code": "BAD CODE", "name": "x"}, None,
                                    {"code": "fz"}]))
    doc = {"set": set_obj, "cards": cards} if set_obj is not None else {"cards": cards}
    return json.dumps(doc, ensure_ascii=draw(st.booleans()))


def check_cardfile(text: str) -> None:
    from cards.cardfile import CardFileError, card_to_json, parse_card_file

    try:
        parsed = parse_card_file(text, source="fuzz")
    except CardFileError as exc:
        assert str(exc).startswith("fuzz:"), exc
        return
    for err in parsed.errors:
        assert err.field and err.message, err
    bad = {e.code for e in parsed.errors}
    good = [c for c in parsed.cards if c.get("code") not in bad]
    if good and not parsed.errors:
        exported = json.dumps({"set": {"code": parsed.set_code, "name": parsed.set_name},
                               "cards": [card_to_json(c) for c in good]})
        again = parse_card_file(exported, source="fuzz")
        assert not again.errors, again.errors
        assert [card_to_json(c) for c in again.cards] == [card_to_json(c) for c in good]


# --- engine -------------------------------------------------------------------------------------------------

ENGINE_CASE = st.tuples(st.integers(0, 2**31), st.sampled_from([("random", "random"), ("greedy", "random"),
                                                                  ("random", "greedy")]), st.booleans())


def _random_core_deck(rng: random.Random):
    from simulator.engines.r1 import build_deck

    cards = core_cards()
    pick = lambda t: [c for c in cards if c["type"] == t]  # noqa: E731
    draw = [c for c in cards if c["type"] in ("unit", "location", "attachment", "deed")]
    return build_deck([(rng.choice(pick("faction")), 1), (rng.choice(pick("destiny")), 1)]
                      + [(q, 1) for q in rng.sample(pick("quest"), 7)]
                      + [(c, 3) for c in rng.sample(draw, 20)])


def check_engine(case) -> None:
    from simulator.engines.r1 import play_game
    from tests.simulator.engines.r1.test_properties import run_checked_game  # the engine tests' invariants

    seed, policies, goldfish = case
    rng = random.Random(seed)
    deck_a = _random_core_deck(rng)
    deck_b = None if goldfish else _random_core_deck(rng)
    game = run_checked_game(deck_a, deck_b, seed, policies)
    assert game.is_terminal()
    if seed % 10 == 0:  # determinism, on a tenth of the cases (it doubles the cost)
        one = play_game(deck_a, deck_b, seed=seed, policies=policies, max_rounds=30)
        two = play_game(deck_a, deck_b, seed=seed, policies=policies, max_rounds=30)
        assert (one.winner, one.reason, one.rounds, one.influence_by_round) == \
               (two.winner, two.reason, two.rounds, two.influence_by_round)


TARGETS = {
    "search": (SEARCH_TEXT, check_search),
    "decklist": (decklist_text(), check_decklist),
    "cardfile": (card_document(), check_cardfile),
    "engine": (ENGINE_CASE, check_engine),
}
