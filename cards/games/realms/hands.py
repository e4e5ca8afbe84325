"""Realms opening hands (002 §8, §9): exact probabilities, no sampling and no database.

Everything works on the deck as (card dict, count) pairs. Leaders are never shuffled into the draw deck
(002 §2, §8 step 1), so the draw deck is the N regular cards. Definitions (stated in every report, because
players read these numbers literally):

- **Opening 7** — 002 §8 steps 3–4: the top 3 cards are set aside unseen as the starting discard pile, then 7
  are drawn. The 3 unseen cards do not change any chance: every 7-card subset of the N is equally likely to
  be the hand, exactly as if nothing had been set aside.
- **Gift of Fate** — 002 §8 step 4: once, the whole hand is set aside (onto the discard pile,
  docs/games/realms.md) and 7 new cards are drawn. The new 7 are a uniform 7-subset of the N − 7 cards not
  in the first hand (the 3 set aside are among those, unseen). The mulligan policy is deck-wide and stated
  in the report; default: take the Gift of Fate when the opening 7 holds no Place.
- **Seen by turn t** — 002 §9 step 1 draws back up to 7, so a turn draws as many cards as left the hand the
  turn before: `plays_per_turn` (default 3). Turn 1 draws nothing; cards seen by turn t = 7 + p·(t − 1). A
  figure is given only while the deck has not run out (after that the discard pile, with the 3 set-aside cards,
  is shuffled into a new deck, 002 §9, and the count depends on play); beyond that it is null.

    >>> farm = {"code": "p1", "name": "Farmstead", "type": "place", "cost": 1}
    >>> mil = {"code": "w1", "name": "Village Militia", "type": "warrior", "cost": 0}
    >>> report = hands_report([(farm, 20), (mil, 40)])
    >>> rows = {row["name"]: row for row in report["cards"]}
    >>> round(rows["Farmstead"]["p_opening"], 4), round(report["mulligan"]["rate"], 4)
    (0.9517, 0.0483)
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

HAND_SIZE = 7  # 002 §8 step 4, §9 step 1
SET_ASIDE = 3  # 002 §8 step 3
STARTING_GOLD = 5  # 002 §8 step 6
DEFAULT_TURNS = 5
DEFAULT_PLAYS_PER_TURN = 3
MAX_TURNS = 30
TYPES = ("place", "warrior", "intrigue")


# ---- exact hypergeometric ----------------------------------------------------------------------------------
def p_exactly(i: int, population: int, successes: int, draws: int) -> Fraction:
    """P(X = i): i of the `successes` special cards among `draws` drawn without replacement from `population`."""
    if i < 0 or i > successes or i > draws or draws - i > population - successes or draws > population:
        return Fraction(0)
    return Fraction(math.comb(successes, i) * math.comb(population - successes, draws - i),
                    math.comb(population, draws))


def p_at_least(k: int, population: int, successes: int, draws: int) -> Fraction:
    """P(X >= k), exactly.

    >>> float(p_at_least(1, 57, 3, 7))   # one of 3 copies in an opening 7 of a 57-card draw deck
    0.33014354066985646
    """
    draws = max(0, min(draws, population))
    if k <= 0:
        return Fraction(1)
    if successes < k or draws < k:
        return Fraction(0)
    hits = sum(math.comb(successes, i) * math.comb(population - successes, draws - i)
               for i in range(k, min(successes, draws) + 1))
    return Fraction(hits, math.comb(population, draws))


def _split(a: int, b: int, c: int, d: int, draws: int) -> Iterable[tuple[int, int, int, Fraction]]:
    """The multivariate hypergeometric law of a hand of `draws` over four disjoint kinds of a, b, c, d copies:
    yields (x, y, z, P) for x of the first, y of the second, z of the third (the rest of the fourth)."""
    total = math.comb(a + b + c + d, draws)
    for x in range(min(a, draws) + 1):
        for y in range(min(b, draws - x) + 1):
            for z in range(min(c, draws - x - y) + 1):
                w = draws - x - y - z
                if w > d:
                    continue
                ways = math.comb(a, x) * math.comb(b, y) * math.comb(c, z) * math.comb(d, w)
                if ways:
                    yield x, y, z, Fraction(ways, total)


# ---- what the report is about ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Group:
    """A row of the table: one card (by title), or a group of cards (e.g. a search query's matches)."""

    label: str
    codes: frozenset[str]
    k: int = 1
    kind: str = "group"  # "card" | "group"


def group_of(entries: Iterable[tuple[dict, int]], label: str, match: Callable[[dict], bool], k: int = 1) -> Group:
    """The cards of the deck that `match` accepts, as one group (Leaders are never drawn, so never in it)."""
    return Group(label, frozenset(c["code"] for c, _ in entries if c.get("type") != "leader" and match(c)), k)


POLICY_KINDS = ("none", "min_places", "min_cards")


@dataclass(frozen=True)
class MulliganPolicy:
    """When to take the Gift of Fate (002 §8 step 4, once, the whole hand): when the opening 7 holds fewer than
    `value` Places (`min_places`), fewer than `value` cards of `codes` (`min_cards`, e.g. a search query), or
    never (`none`)."""

    kind: str = "min_places"
    value: int = 1
    codes: frozenset[str] = field(default_factory=frozenset)
    label: str = ""

    @classmethod
    def from_setting(cls, setting) -> MulliganPolicy:
        """From JSON: {"kind": "min_places", "value": 1} or {"kind": "min_cards", "value": 2, "codes": [...],
        "label": "..."}; None gives the default."""
        if setting is None:
            return cls()
        if not isinstance(setting, dict):
            raise ValueError('mulligan must be an object like {"kind": "min_places", "value": 1}')
        kind = setting.get("kind", "min_places")
        if kind not in POLICY_KINDS:
            raise ValueError(f"mulligan.kind must be one of {', '.join(POLICY_KINDS)}, not {kind!r}")
        value = setting.get("value", 0 if kind == "none" else 1)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= HAND_SIZE:
            raise ValueError(f"mulligan.value must be a whole number from 0 to {HAND_SIZE}")
        codes = setting.get("codes") or []
        if kind == "min_cards" and (not isinstance(codes, list) or not all(isinstance(c, str) for c in codes)):
            raise ValueError("mulligan.codes must be a list of card codes")
        label = setting.get("label") or ""
        if not isinstance(label, str):
            raise ValueError("mulligan.label must be a string")
        return cls(kind, value, frozenset(codes) if kind == "min_cards" else frozenset(), label)

    def to_setting(self) -> dict:
        out: dict = {"kind": self.kind, "value": self.value}
        if self.kind == "min_cards":
            out["codes"] = sorted(self.codes)
            out["label"] = self.label
        return out

    def describe(self) -> str:
        if self.kind == "none" or self.value == 0:
            return "never take the Gift of Fate"
        if self.kind == "min_places":
            what = "no Place" if self.value == 1 else f"fewer than {self.value} Places"
        else:
            group = self.label or "cards of the chosen group"
            what = f"none of {group}" if self.value == 1 else f"fewer than {self.value} of {group}"
        return f"take the Gift of Fate when the opening 7 holds {what}"

    def matches(self, card: dict) -> bool:
        if self.kind == "min_places":
            return card.get("type") == "place"
        if self.kind == "min_cards":
            return card.get("code") in self.codes
        return False

    @property
    def threshold(self) -> int:
        return 0 if self.kind == "none" else self.value


# ---- the deck ------------------------------------------------------------------------------------------------
@dataclass
class DrawDeck:
    """The regular cards of a deck (Leaders set apart, 002 §8 step 1) with copies per code."""

    copies: dict[str, int]
    cards: dict[str, dict]
    leaders: list[str]

    @classmethod
    def build(cls, entries: Iterable[tuple[dict, int]]) -> DrawDeck:
        copies: dict[str, int] = {}
        cards: dict[str, dict] = {}
        leaders: list[str] = []
        for card, n in entries:
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"{card.get('name')}: the number of copies must be a whole number, not {n!r}")
            if card.get("type") == "leader":
                leaders.append(card["name"])
                continue
            copies[card["code"]] = copies.get(card["code"], 0) + n
            cards[card["code"]] = card
        return cls(copies, cards, leaders)

    @property
    def size(self) -> int:
        return sum(self.copies.values())

    def count(self, codes: Iterable[str]) -> int:
        return sum(self.copies.get(c, 0) for c in set(codes))

    def matching(self, match: Callable[[dict], bool]) -> frozenset[str]:
        return frozenset(code for code, card in self.cards.items() if match(card))


def card_groups(deck: DrawDeck) -> list[Group]:
    """One row per distinct card title, most copies first."""
    rows: dict[str, set[str]] = {}
    for code, card in deck.cards.items():
        title = f"{card['name']}, {card['subtitle']}" if card.get("subtitle") else card["name"]
        rows.setdefault(title, set()).add(code)
    ordered = sorted(rows.items(), key=lambda kv: (-deck.count(kv[1]), kv[0]))
    return [Group(title, frozenset(codes), 1, "card") for title, codes in ordered]


def seen_by_turn(turns: int, plays_per_turn: int) -> list[int]:
    """Cards seen by each of turns 1..t: the hand of 7, then `plays_per_turn` drawn per later turn (002 §9)."""
    return [HAND_SIZE + plays_per_turn * (t - 1) for t in range(1, turns + 1)]


# ---- one row -------------------------------------------------------------------------------------------------
def row_probabilities(deck: DrawDeck, target: frozenset[str], k: int, policy: MulliganPolicy,
                      seen: Sequence[int]) -> dict:
    """Exact chances for one row under the policy (see the module docstring)."""
    n = deck.size
    t_all = deck.count(target)
    policy_codes = deck.matching(policy.matches)
    a = deck.count(target & policy_codes)          # target cards that count for the policy
    b = t_all - a                                  # target cards that do not
    c = deck.count(policy_codes - target)          # policy cards that are not targets
    d = n - a - b - c
    v = policy.threshold
    p_open = p_at_least(k, n, t_all, HAND_SIZE)
    with_mull = Fraction(0)
    seen_plain: list[float | None] = []
    seen_mull = [Fraction(0) for _ in seen]
    valid_plain = [m <= n - SET_ASIDE for m in seen]
    valid_mull = [m <= n - SET_ASIDE - HAND_SIZE for m in seen]
    for m, ok in zip(seen, valid_plain):
        seen_plain.append(float(p_at_least(k, n, t_all, m)) if ok else None)
    if n >= HAND_SIZE:
        for x, y, z, p in _split(a, b, c, d, HAND_SIZE):
            held = x + y
            if x + z >= v:  # keep the opening 7
                with_mull += p * (1 if held >= k else 0)
                for i, m in enumerate(seen):
                    if valid_plain[i]:
                        seen_mull[i] += p * p_at_least(k - held, n - HAND_SIZE, t_all - held, m - HAND_SIZE)
            else:  # Gift of Fate: the 7 go to the discard pile, 7 new from the other N - 7
                with_mull += p * p_at_least(k, n - HAND_SIZE, t_all - held, HAND_SIZE)
                for i, m in enumerate(seen):
                    if valid_mull[i]:
                        seen_mull[i] += p * p_at_least(k, n - HAND_SIZE, t_all - held, m)
    p_mulligan = mulligan_rate(deck, policy)
    seen_after: list[float | None] = []
    for i in range(len(seen)):
        # After a mulligan the deck runs out 7 cards sooner; a turn is given when both branches are exact.
        ok = valid_plain[i] and (valid_mull[i] or p_mulligan == 0)
        seen_after.append(float(seen_mull[i]) if ok else None)
    return {"copies": t_all, "k": k, "p_opening": float(p_open), "p_with_mulligan": float(with_mull),
            "p_seen_by_turn": seen_plain, "p_seen_by_turn_with_mulligan": seen_after}


def mulligan_rate(deck: DrawDeck, policy: MulliganPolicy) -> Fraction:
    """The exact chance that the policy takes the Gift of Fate."""
    g = deck.count(deck.matching(policy.matches))
    v = policy.threshold
    if v == 0 or deck.size < HAND_SIZE:
        return Fraction(0)
    return sum((p_exactly(i, deck.size, g, HAND_SIZE) for i in range(v)), Fraction(0))


def kept_distribution(deck: DrawDeck, codes: frozenset[str], policy: MulliganPolicy) -> tuple[list, list]:
    """How many cards of `codes` the opening 7 holds, and the hand kept under the policy: exact laws 0..7."""
    n = deck.size
    g_all = deck.count(codes)
    policy_codes = deck.matching(policy.matches)
    a = deck.count(codes & policy_codes)
    b = g_all - a
    c = deck.count(policy_codes - codes)
    d = n - a - b - c
    opening = [p_exactly(j, n, g_all, HAND_SIZE) for j in range(HAND_SIZE + 1)]
    kept = [Fraction(0)] * (HAND_SIZE + 1)
    if n >= HAND_SIZE:
        for x, y, z, p in _split(a, b, c, d, HAND_SIZE):
            if x + z >= policy.threshold:
                kept[x + y] += p
            else:
                for j in range(HAND_SIZE + 1):
                    kept[j] += p * p_exactly(j, n - HAND_SIZE, g_all - x - y, HAND_SIZE)
    return opening, kept


def _law(values: Sequence[Fraction]) -> dict[str, float]:
    return {str(i): float(p) for i, p in enumerate(values) if p}


def _mean(values: Sequence[Fraction]) -> float:
    return float(sum(i * p for i, p in enumerate(values)))


# ---- the report ------------------------------------------------------------------------------------------------
def hands_report(entries: Iterable[tuple[dict, int]], *, groups: Sequence[Group] = (),
                 policy: MulliganPolicy | None = None, turns: int = DEFAULT_TURNS,
                 plays_per_turn: int = DEFAULT_PLAYS_PER_TURN) -> dict:
    """The realms `hands` JSON (CONTRACTS §3 shape; docs/games/realms.md, "Opening hands"), without elapsed_s.

    `entries` is the deck as (card dict, count) pairs, Leaders included (they are set apart, never drawn);
    `groups` adds rows for groups of cards (a search query's matches), each with its own k.
    """
    entries = list(entries)
    policy = policy or MulliganPolicy()
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= MAX_TURNS:
        raise ValueError(f"turns must be a whole number from 1 to {MAX_TURNS}")
    if isinstance(plays_per_turn, bool) or not isinstance(plays_per_turn, int) \
            or not 0 <= plays_per_turn <= HAND_SIZE:
        raise ValueError(f"plays_per_turn must be a whole number from 0 to {HAND_SIZE}")
    for g in groups:
        if isinstance(g.k, bool) or not isinstance(g.k, int) or not 1 <= g.k <= HAND_SIZE:
            raise ValueError(f"{g.label}: k must be a whole number from 1 to {HAND_SIZE}")
    deck = DrawDeck.build(entries)
    if deck.size < HAND_SIZE + SET_ASIDE:
        raise ValueError(f"the draw deck has {deck.size} cards (Leaders are not drawn); an opening hand needs "
                         f"at least {HAND_SIZE + SET_ASIDE}: 3 set aside and 7 drawn (002 §8)")
    seen = seen_by_turn(turns, plays_per_turn)
    rows = []
    for g in [*card_groups(deck), *groups]:
        row = {"name": g.label, "kind": g.kind}
        row.update(row_probabilities(deck, g.codes, g.k, policy, seen))
        rows.append(row)

    by_type = {}
    for ctype in TYPES:
        codes = deck.matching(lambda c, t=ctype: c.get("type") == t)
        opening, kept = kept_distribution(deck, codes, policy)
        by_type[ctype] = {"copies": deck.count(codes), "mean": _mean(opening), "distribution": _law(opening),
                          "mean_kept": _mean(kept), "distribution_kept": _law(kept)}
    affordable = deck.matching(lambda c: c.get("type") == "place" and (c.get("cost") or 0) <= STARTING_GOLD)
    cheap_warriors = deck.matching(lambda c: c.get("type") == "warrior" and (c.get("cost") or 0) <= 1)
    starts = row_probabilities(deck, affordable, 1, policy, seen[:1])
    total_cost = sum((deck.cards[code].get("cost") or 0) * n for code, n in deck.copies.items())
    opening_summary = {
        "deck_size": deck.size,
        "hand_size": HAND_SIZE,
        "set_aside": SET_ASIDE,
        "starting_gold": STARTING_GOLD,
        "by_type": by_type,
        "p_no_place": float(p_exactly(0, deck.size, by_type["place"]["copies"], HAND_SIZE)),
        "p_affordable_place": starts["p_opening"],
        "p_affordable_place_with_mulligan": starts["p_with_mulligan"],
        "p_cheap_warrior": float(p_at_least(1, deck.size, deck.count(cheap_warriors), HAND_SIZE)),
        "mean_starting_cost": float(Fraction(total_cost * HAND_SIZE, deck.size)),
    }
    mulligan = {
        "policy": policy.describe(),
        "setting": policy.to_setting(),
        "rate": float(mulligan_rate(deck, policy)),
        "hand_goes_to": "discard",
    }
    return {
        "mode": "hands",
        "game": "realms",
        "deck_size": deck.size,
        "leaders": deck.leaders,
        "cards": rows,
        "opening": opening_summary,
        "mulligan": mulligan,
        "plays_per_turn": plays_per_turn,
        "seen_cards_by_turn": seen,
        "definitions": {
            "p_opening": "exact chance of at least k copies in the opening 7 (the 3 cards set aside unseen and "
                         "the Leaders change nothing; no Gift of Fate)",
            "p_with_mulligan": "exact chance of at least k copies in the hand kept under the mulligan policy (a "
                               "taken Gift of Fate sends the first 7 to the discard pile)",
            "p_seen_by_turn": (f"exact chance of at least k copies among the cards seen by turns 1 to {turns}: 7, "
                               f"then {plays_per_turn} drawn per turn (draw up to 7, 002 §9); null once the "
                               "deck would have run out"),
            "p_seen_by_turn_with_mulligan": "the same, counting only the kept hand and the cards drawn after it",
            "opening": "the opening 7 by card type (distribution: chance of each count; _kept: after the policy), "
                       f"and the chance of a Place whose Starting Cost the starting {STARTING_GOLD} Gold pays",
        },
    }


__all__ = ["DrawDeck", "Group", "MulliganPolicy", "group_of", "hands_report", "kept_distribution",
           "mulligan_rate", "p_at_least", "p_exactly", "row_probabilities", "seen_by_turn"]
