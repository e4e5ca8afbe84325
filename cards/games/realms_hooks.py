"""The realms game's hooks for the registry (cards/games/registry.py): its package's functions in the shapes the
site calls (cards as plain dicts, decks as code -> count). Pure Python, no Django import."""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from .query import QueryKey
from .realms import SET_FILE, starter_files
from .realms.decklist import RealmsPool
from .realms.decklist import export_decklist as _export
from .realms.decklist import parse_decklist as _parse
from .realms.hands import MulliganPolicy, group_of, hands_report
from .realms.legality import check_counts, check_decklist_text
from .realms.schema import RESOURCE_NAMES, TACTIC_NAMES, TYPE_NAMES, affiliation_name


def _pool(cards: Iterable[dict]) -> RealmsPool:
    cards = tuple(cards)
    key = tuple((c["code"], c.get("name"), c.get("subtitle"), c.get("set"), c.get("number")) for c in cards)
    return _cached_pool(key, cards)


_POOLS: dict = {}


def _cached_pool(key, cards) -> RealmsPool:
    pool = _POOLS.get(key)
    if pool is None:
        if len(_POOLS) > 8:
            _POOLS.clear()
        pool = _POOLS[key] = RealmsPool(cards)
    return pool


def search_keys(cards: Iterable[dict] = ()) -> tuple[QueryKey, ...]:
    from .realms.search import search_keys_for
    return search_keys_for(cards)


def parse_decklist(text: str, cards: Iterable[dict]) -> tuple[dict[str, int], list[dict]]:
    parsed = _parse(text, _pool(cards))
    return dict(parsed.counts), [p.to_problem_json() for p in parsed.problems]


def export_decklist(counts: Mapping[str, int], cards: Iterable[dict], name: str | None = None) -> str:
    return _export(counts, _pool(cards), name=name)


def check_deck(counts: Mapping[str, int], cards: Iterable[dict], fmt: str = "standard") -> dict:
    return check_counts(counts, _pool(cards), fmt).to_json()


def check_text(text: str, cards: Iterable[dict], fmt: str = "standard") -> dict:
    return check_decklist_text(text, _pool(cards), fmt).to_json()


def identity(counts: Mapping[str, int], cards: Iterable[dict]) -> dict:
    """A realms deck is known by its Leaders and their affiliation (002 §2, §5)."""
    by_code = {c["code"]: c for c in cards}
    leaders = [by_code[c] for c in counts if c in by_code and by_code[c].get("type") == "leader"]
    affs = {c.get("affiliation") for c in leaders}
    aff = next(iter(affs)) if len(affs) == 1 else None
    return {"affiliation": aff, "affiliation_name": affiliation_name(aff) if aff else None,
            "leaders": [c["name"] for c in leaders], "group": aff}


def card_group(card: dict) -> str | None:
    return card.get("affiliation")


def hands(counts: Mapping[str, int], cards: Iterable[dict], options: Mapping | None = None) -> dict:
    """The realms `hands` JSON (002 §8): exact chances; options `turns`, `plays_per_turn`, `mulligan` and
    `groups` ([{"label", "query", "k"}]: a search query's matches as one row)."""
    from .realms.search import filter_cards
    options = dict(options or {})
    cards = list(cards)
    by_code = {c["code"]: c for c in cards}
    entries = [(by_code[code], n) for code, n in counts.items() if code in by_code]
    groups = []
    for g in options.get("groups") or ():
        matched = {c["code"] for c in filter_cards(g["query"], cards)}
        groups.append(group_of(entries, g.get("label") or g["query"], lambda c, m=matched: c["code"] in m,
                               int(g.get("k", 1))))
    kwargs = {k: options[k] for k in ("turns", "plays_per_turn") if options.get(k) is not None}
    return hands_report(entries, groups=groups, policy=MulliganPolicy.from_setting(options.get("mulligan")),
                        **kwargs)


def hands_mode(counts, cards, options=None) -> dict:
    return hands(counts, cards, options)


def card_summary(card: dict) -> list[tuple[str, str]]:
    """The card page's facts, in the game's words (docs/games/realms.md, "Card fields")."""
    out = [("Type", TYPE_NAMES.get(card.get("type"), card.get("type") or "")),
           ("Affiliation", affiliation_name(card.get("affiliation")))]
    if card.get("warrior_type"):
        out.append(("Warrior type", card["warrior_type"]))
    if card.get("cost") is not None:
        out.append(("Starting cost", str(card["cost"])))
    if card.get("cv") is not None:
        out.append(("Combat Value", str(card["cv"])))
    if card.get("tactics"):
        out.append(("Tactics", ", ".join(TACTIC_NAMES.get(t, t) for t in card["tactics"])))
    for label, key in (("Provides", "provides"), ("Consumes", "consumes")):
        res = {r: n for r, n in (card.get(key) or {}).items() if n}
        if res:
            out.append((label, ", ".join(f"{n} {RESOURCE_NAMES.get(r, r)}" for r, n in res.items())))
    if card.get("neighbor_count") is not None:
        out.append(("Neighbor Count", str(card["neighbor_count"])))
    if card.get("keywords"):
        out.append(("Keywords", ", ".join(card["keywords"])))
    flags = [f for f, on in (("unique", card.get("unique")), ("UNLIMITED COPIES IN DECK", card.get("unlimited")))
             if on]
    if flags:
        out.append(("Marks", ", ".join(flags)))
    return out


def starters() -> list[tuple[str, str]]:
    """(name, decklist text) of the shipped starter decks, one per affiliation."""
    out = []
    for path in starter_files():
        text = path.read_text(encoding="utf-8")
        first = text.splitlines()[0] if text else ""
        title = first.removeprefix("# Starter deck:").strip() if first.startswith("# Starter deck:") else ""
        out.append((title or f"{affiliation_name(path.stem)} starter", text))
    return out


def data_files() -> list:
    return [SET_FILE]
