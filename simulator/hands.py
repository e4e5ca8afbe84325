"""Opening hands and setup: exact probabilities and Monte Carlo over hands with the exact best setup of each.

No database access here: everything works on the deck's draw cards as (CONTRACTS §1 card dict, count) pairs.

Definitions (stated in every report, because players read these numbers literally):

- **Opening 7**: the first 7 cards of the shuffled draw deck (§4, before any mulligan).
- **Seen by round r**: the first 7 + S + 2·r cards of the deck, where S is the number of cards the player draws
  back after setup ("draw back up to 7", §4; the setting `setup_refill`, default 3, about what a best setup
  places) and 2 cards per Draw phase (§5.2). Round 1's Draw phase is included in "by round 1".
- **All-or-nothing mulligan** (§4, once): the whole hand is set aside, 7 new cards are drawn from the other
  N − 7, then the old hand is shuffled back. For a card or query row, `p_with_mulligan` is the exact chance of
  holding at least k copies after the policy "mulligan when the opening 7 holds fewer than k".
- The Monte Carlo part applies the setup policy of the `mulligan` setting (default: mulligan when the best
  setup places fewer than 2 units) and reports how often it fires and what the final hands look like.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterable, Sequence

from cards.games.r1.facts import DRAWS_PER_ROUND, HAND_SIZE, ICONS, SETUP_BUDGET
from simulator.engines.r1.setup import SetupSolver
from simulator.reports import hist_stats, sorted_hist

DEFAULT_ROUNDS = 5
DEFAULT_SETUP_REFILL = 3
TOP_HANDS = 3


# ---- exact -----------------------------------------------------------------------------------------------
def p_at_least(k: int, population: int, successes: int, draws: int) -> float:
    """Exact hypergeometric P(X >= k): at least k of `successes` special cards among `draws` drawn
    without replacement from `population`.

    >>> round(p_at_least(1, 60, 3, 7), 6)   # one of 3 copies in an opening 7 of a 60-card deck
    0.31543
    """
    return float(p_at_least_exact(k, population, successes, draws))


def p_exactly(i: int, population: int, successes: int, draws: int) -> Fraction:
    if i < 0 or i > successes or i > draws or draws - i > population - successes:
        return Fraction(0)
    return Fraction(math.comb(successes, i) * math.comb(population - successes, draws - i),
                    math.comb(population, draws))


def p_at_least_with_mulligan(k: int, population: int, successes: int, hand: int = HAND_SIZE) -> float:
    """P(at least k copies in the kept hand) under "mulligan when the opening hand holds fewer than k" (§4).

    The new 7 come from the N − 7 cards not in the old hand, which still hold K − j copies when the old hand
    held j. The mulligan happens at most once.
    """
    if k <= 0:
        return 1.0
    total = Fraction(0)
    for j in range(0, min(successes, hand) + 1):
        pj = p_exactly(j, population, successes, hand)
        if not pj:
            continue
        if j >= k:
            total += pj
        else:
            total += pj * Fraction(p_at_least_exact(k, population - hand, successes - j, hand))
    return float(total)


def p_at_least_exact(k: int, population: int, successes: int, draws: int) -> Fraction:
    draws = max(0, min(draws, population))
    if k <= 0:
        return Fraction(1)
    if successes < k or draws < k:
        return Fraction(0)
    hits = sum(math.comb(successes, i) * math.comb(population - successes, draws - i)
               for i in range(k, min(successes, draws) + 1))
    return Fraction(hits, math.comb(population, draws))


def seen_sizes(rounds: int, setup_refill: int) -> list[int]:
    """How many cards are seen by the end of each round's Draw phase (see the module docstring)."""
    return [HAND_SIZE + setup_refill + DRAWS_PER_ROUND * r for r in range(1, rounds + 1)]


@dataclass
class Target:
    """A row of the probability table: one card, or every card matching a search query (CONTRACTS §5)."""

    label: str
    copies: int
    k: int = 1
    kind: str = "card"  # "card" | "query" | "codes"


def exact_rows(targets: Sequence[Target], deck_size: int, *, rounds: int = DEFAULT_ROUNDS,
               setup_refill: int = DEFAULT_SETUP_REFILL) -> list[dict]:
    sizes = seen_sizes(rounds, setup_refill)
    rows = []
    for t in targets:
        rows.append({
            "name": t.label, "kind": t.kind, "copies": t.copies, "k": t.k,
            "p_opening": p_at_least(t.k, deck_size, t.copies, HAND_SIZE),
            "p_with_mulligan": p_at_least_with_mulligan(t.k, deck_size, t.copies),
            "p_seen_by_round": [p_at_least(t.k, deck_size, t.copies, n) for n in sizes],
        })
    return rows


def card_targets(draw: Sequence[tuple[dict, int]]) -> list[Target]:
    """One row per distinct draw card (by 'Name, Subtitle'), most copies first."""
    rows: dict[str, int] = {}
    for card, count in draw:
        title = f"{card['name']}, {card['subtitle']}" if card.get("subtitle") else card["name"]
        rows[title] = rows.get(title, 0) + count
    return [Target(label=title, copies=n) for title, n in sorted(rows.items(), key=lambda kv: (-kv[1], kv[0]))]


def query_target(draw: Sequence[tuple[dict, int]], label: str, match: Callable[[dict], bool], k: int = 1,
                 kind: str = "query") -> Target:
    return Target(label=label, copies=sum(n for card, n in draw if match(card)), k=k, kind=kind)


# ---- mulligan policy -------------------------------------------------------------------------------------
POLICY_KINDS = ("none", "min_units", "min_power", "min_budget")


@dataclass(frozen=True)
class MulliganPolicy:
    """When the Monte Carlo player mulligans (§4, once, all-or-nothing), judged on the best setup of the hand."""

    kind: str = "min_units"
    value: int = 2

    @classmethod
    def from_setting(cls, setting) -> MulliganPolicy:
        if setting is None:
            return cls()
        if not isinstance(setting, dict):
            raise ValueError('mulligan must be an object like {"kind": "min_units", "value": 2}')
        kind = setting.get("kind", "min_units")
        if kind not in POLICY_KINDS:
            raise ValueError(f"mulligan.kind must be one of {', '.join(POLICY_KINDS)}, not {kind!r}")
        value = setting.get("value", 0 if kind == "none" else 2)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 50:
            raise ValueError("mulligan.value must be a whole number from 0 to 50")
        return cls(kind, value)

    def to_setting(self) -> dict:
        return {"kind": self.kind, "value": self.value}

    def describe(self) -> str:
        if self.kind == "none":
            return "never mulligan"
        what = {"min_units": "units", "min_power": "total Power", "min_budget": "budget used"}[self.kind]
        return f"mulligan if the best setup places fewer than {self.value} {what}"

    def wants_mulligan(self, choice) -> bool:
        if self.kind == "none":
            return False
        have = {"min_units": choice.units, "min_power": choice.power, "min_budget": choice.budget_used}[self.kind]
        return have < self.value


# ---- Monte Carlo -----------------------------------------------------------------------------------------
@dataclass
class HandsDeck:
    """The draw deck prepared once: distinct cards, the pile of indices, and the setup solver."""

    cards: list[dict]
    pile: list[int]
    faction: str
    solver: SetupSolver

    @classmethod
    def build(cls, draw: Iterable[tuple[dict, int]], faction: str, budget: int = SETUP_BUDGET) -> HandsDeck:
        cards, pile = [], []
        for card, count in draw:
            cards.append(card)
            pile.extend([len(cards) - 1] * count)
        return cls(cards=cards, pile=pile, faction=faction, solver=SetupSolver(cards, faction, budget))

    @property
    def budget(self) -> int:
        return self.solver.budget

    def title(self, i: int) -> str:
        card = self.cards[i]
        return f"{card['name']}, {card['subtitle']}" if card.get("subtitle") else card["name"]


def setup_budget(entries: Iterable[tuple[dict, int]]) -> int:
    """The §4 budget of a deck: 8, plus unconditional "Your setup budget gets +N" statics on its faction card and
    destiny (they are always active, §10.6, §10.7)."""
    budget = SETUP_BUDGET
    for card, _ in entries:
        if card.get("type") not in ("faction", "destiny"):
            continue
        for ability in card.get("abilities") or []:
            if (isinstance(ability, dict) and ability.get("timing") == "static" and not ability.get("condition")
                    and ability.get("affects", "you") == "you"):
                bonus = (ability.get("modify") or {}).get("setup_budget")
                if isinstance(bonus, int) and not isinstance(bonus, bool):
                    budget += bonus
    return max(0, budget)


def _partial_shuffle(pile: list[int], count: int, rng) -> None:
    """Fisher–Yates on the first `count` positions only, with the run's own generator (STYLE §4)."""
    n = len(pile)
    rand = rng.random
    for i in range(min(count, n - 1)):
        j = i + int(rand() * (n - i))
        pile[i], pile[j] = pile[j], pile[i]


def empty_hands_partial() -> dict:
    return {
        "samples": 0, "empty": 0, "mulligans": 0, "final_empty": 0,
        "budget": {}, "units": {}, "power": {}, "icons": {}, "placed": {}, "final_units": {}, "final_power": {},
        "icon_cover": {icon: 0 for icon in ICONS},
        "card_in_opening": {}, "sum_units": 0, "sum_power": 0, "sum_budget": 0, "sum_placed": 0,
        "best": [], "worst": [],
    }


def hands_chunk(deck: HandsDeck, samples: int, rng, policy: MulliganPolicy, chunk: int = 0) -> dict:
    """Sample `samples` opening hands, solve each one's best setup exactly, and count (never average)."""
    from collections import Counter

    out = empty_hands_partial()
    pile = list(deck.pile)
    best_of = deck.solver.best
    wants_mulligan = policy.wants_mulligan
    stats: Counter = Counter()      # (budget, units, power, icons, placed) of each first hand
    finals: Counter = Counter()     # (units, power, empty) of each kept hand
    cover = [0, 0, 0, 0]
    in_opening = [0] * len(deck.cards)
    mulligans = 0
    top: list = []      # the TOP_HANDS best (score, sample) so far, best first
    bottom: list = []   # the TOP_HANDS worst, worst first
    for s in range(samples):
        _partial_shuffle(pile, 2 * HAND_SIZE, rng)
        hand = pile[:HAND_SIZE]
        choice = best_of(hand)
        icons = choice.icons
        stats[(choice.budget_used, choice.units, choice.power, len(icons), len(choice.placed))] += 1
        for icon in icons:
            cover[ICONS.index(icon)] += 1
        for i in set(hand):
            in_opening[i] += 1
        score = (choice.power, choice.units, len(icons), choice.budget_used, len(choice.placed))
        if len(top) < TOP_HANDS or score > top[-1][0]:
            top.append((score, s, hand, choice.placed))
            top.sort(key=lambda e: (tuple(-x for x in e[0]), e[1]))
            del top[TOP_HANDS:]
        if len(bottom) < TOP_HANDS or score < bottom[-1][0]:
            bottom.append((score, s, hand, choice.placed))
            bottom.sort(key=lambda e: (e[0], e[1]))
            del bottom[TOP_HANDS:]
        final = choice
        if wants_mulligan(choice):
            mulligans += 1
            final = best_of(pile[HAND_SIZE:2 * HAND_SIZE])
        finals[(final.units, final.power, final.is_empty)] += 1
    for (budget, units, power, icons, placed), n in stats.items():
        for key, value in (("budget", budget), ("units", units), ("power", power), ("icons", icons),
                           ("placed", placed)):
            out[key][str(value)] = out[key].get(str(value), 0) + n
        out["sum_units"] += units * n
        out["sum_power"] += power * n
        out["sum_budget"] += budget * n
        out["sum_placed"] += placed * n
        if placed == 0:
            out["empty"] += n
    for (units, power, empty), n in finals.items():
        out["final_units"][str(units)] = out["final_units"].get(str(units), 0) + n
        out["final_power"][str(power)] = out["final_power"].get(str(power), 0) + n
        if empty:
            out["final_empty"] += n
    out["icon_cover"] = {icon: cover[b] for b, icon in enumerate(ICONS)}
    out["card_in_opening"] = {str(i): n for i, n in enumerate(in_opening) if n}
    out["mulligans"] = mulligans
    out["samples"] = samples
    out["best"] = [_hand_json(deck, (sc, chunk, s, hand, placed)) for sc, s, hand, placed in top]
    out["worst"] = [_hand_json(deck, (sc, chunk, s, hand, placed)) for sc, s, hand, placed in bottom]
    return out


def _hand_json(deck: HandsDeck, entry) -> dict:
    score, chunk, sample, hand, placed = entry
    return {"score": list(score), "chunk": chunk, "sample": sample,
            "hand": [deck.title(i) for i in hand], "placed": [deck.title(hand[p]) for p in placed]}


def merge_hands(parts: Sequence[dict]) -> dict:
    """Exact merge of chunk partials: counts and histograms add up; best/worst hands re-ranked."""
    out = empty_hands_partial()
    for part in parts:
        for key in ("samples", "empty", "mulligans", "final_empty", "sum_units", "sum_power", "sum_budget",
                    "sum_placed"):
            out[key] += part[key]
        for key in ("budget", "units", "power", "icons", "placed", "final_units", "final_power", "icon_cover",
                    "card_in_opening"):
            for k, v in part[key].items():
                out[key][k] = out[key].get(k, 0) + v
        out["best"].extend(part["best"])
        out["worst"].extend(part["worst"])
    out["best"] = sorted(out["best"], key=lambda h: ([-x for x in h["score"]], h["chunk"], h["sample"]))[:TOP_HANDS]
    out["worst"] = sorted(out["worst"], key=lambda h: (h["score"], h["chunk"], h["sample"]))[:TOP_HANDS]
    return out


def hands_report(deck: HandsDeck, merged: dict, *, targets: Sequence[Target], policy: MulliganPolicy,
                 rounds: int = DEFAULT_ROUNDS, setup_refill: int = DEFAULT_SETUP_REFILL) -> dict:
    """The `hands` JSON of CONTRACTS §3 (without elapsed_s), from the exact tables and the merged samples."""
    n = merged["samples"]
    deck_size = len(deck.pile)
    rows = exact_rows(targets, deck_size, rounds=rounds, setup_refill=setup_refill)
    # Monte Carlo check of the exact opening probabilities, per card row.
    by_title: dict[str, int] = {}
    for i in range(len(deck.cards)):
        by_title.setdefault(deck.title(i), 0)
        by_title[deck.title(i)] += merged["card_in_opening"].get(str(i), 0)
    for row in rows:
        if row["kind"] == "card" and n:
            row["mc_opening"] = by_title.get(row["name"], 0) / n
    setup = {
        "samples": n,
        "budget": deck.budget,
        "mean_units": merged["sum_units"] / n if n else None,
        "mean_power": merged["sum_power"] / n if n else None,
        "mean_budget_used": merged["sum_budget"] / n if n else None,
        "mean_cards_placed": merged["sum_placed"] / n if n else None,
        "p_empty": merged["empty"] / n if n else None,
        "budget_used": sorted_hist(merged["budget"]),
        "units": sorted_hist(merged["units"]),
        "power": sorted_hist(merged["power"]),
        "icons_covered": sorted_hist(merged["icons"]),
        "cards_placed": sorted_hist(merged["placed"]),
        "icon_coverage": {icon: (merged["icon_cover"][icon] / n if n else None) for icon in ICONS},
        "power_stats": hist_stats(merged["power"]),
        "best_hands": merged["best"],
        "worst_hands": merged["worst"],
        "standard_error_p_empty": (math.sqrt(merged["empty"] / n * (1 - merged["empty"] / n) / n) if n else None),
    }
    mulligan = {
        "policy": policy.describe(),
        "setting": policy.to_setting(),
        "rate": merged["mulligans"] / n if n else None,
        "final_units": sorted_hist(merged["final_units"]),
        "final_power": sorted_hist(merged["final_power"]),
        "final_p_empty": merged["final_empty"] / n if n else None,
    }
    return {
        "mode": "hands",
        "deck_size": deck_size,
        "cards": rows,
        "setup": setup,
        "mulligan": mulligan,
        "definitions": {
            "p_opening": "exact chance of at least k copies in the opening 7 (no mulligan)",
            "p_with_mulligan": "exact chance of at least k copies after mulliganing any opening 7 with fewer than k",
            "p_seen_by_round": (f"exact chance of at least k copies among the first 7 + {setup_refill} (setup "
                                f"refill) + 2 per Draw phase cards, for rounds 1 to {rounds}"),
            "setup": "the exact best legal setup (§4) of each sampled opening 7, before any mulligan",
        },
        "seen_cards_by_round": seen_sizes(rounds, setup_refill),
    }
