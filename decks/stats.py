"""Deck statistics shared by the editor and the API: a pure function of (counts, pool), no database access.

    >>> pool = CardPool.from_cards([{"code": "u", "name": "Gawain", "type": "unit", "faction": "camelot",
    ...                              "cost": 2, "power": 3, "icons": ["combat"]}])
    >>> deck_stats({"u": 3}, pool)["cost_curve"]
    {'2': 3}
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from math import comb

from cards.games.r1.facts import DRAW_TYPES, HAND_SIZE, ICONS, QUEST_STATS

from .legality import effective_cost, loyalty_surcharge
from .pool import CardPool, card_title, is_draw_card



def _keyword_name(raw: str) -> str:
    return raw.split("(", 1)[0].strip()


def _sorted_numeric(counter: Counter) -> dict[str, int]:
    return {str(k): counter[k] for k in sorted(counter)}


def setup_placeable(card: dict) -> bool:
    """§4: a draw card can go on the opening board when its cost is a number (not X or –) and it is not a deed."""
    cost = card.get("cost")
    return (is_draw_card(card) and card.get("type") != "deed"
            and isinstance(cost, int) and not isinstance(cost, bool))


@lru_cache(maxsize=4096)
def p_in_opening_hand(copies: int, deck_size: int, hand: int = HAND_SIZE) -> float:
    """Exact chance that at least one of `copies` cards is among the first `hand` of a shuffled deck (§4).

    >>> round(p_in_opening_hand(3, 60), 4)
    0.3154
    """
    if copies <= 0 or deck_size <= 0:
        return 0.0
    hand = min(hand, deck_size)
    return 1.0 - comb(deck_size - copies, hand) / comb(deck_size, hand)


def deck_stats(counts: Mapping[str, int], pool: CardPool) -> dict:
    """Counts by type/faction/attribute, cost curve with the Loyalty surcharge (§9.3), Power curve, icons, keywords,
    quest-deck totals and averages (§2.4) and setup-placeable draw cards (§4). Unknown codes are listed apart."""
    cards = [(pool.get(code), n) for code, n in counts.items() if n > 0]
    unknown = sorted(code for code, n in counts.items() if n > 0 and pool.get(code) is None)
    cards = [(c, n) for c, n in cards if c is not None]
    factions = {c.get("faction") for c, _ in cards if c.get("type") == "faction"}
    deck_faction = next(iter(factions)) if len(factions) == 1 else None

    by_type: Counter = Counter()
    by_faction: Counter = Counter()
    by_attribute: Counter = Counter()
    keywords: Counter = Counter()
    cost_curve: Counter = Counter()
    printed_cost_curve: Counter = Counter()
    surcharged_curve: Counter = Counter()  # effective cost -> copies whose cost Loyalty raised (§9.3)
    power_curve: Counter = Counter()
    icons = {icon: {"units": 0, "power": 0} for icon in ICONS}
    cost_x = cost_dash = power_x = placeable = unique = 0
    off_faction: dict[str, int] = {}
    quest_totals = {stat: 0 for stat in QUEST_STATS}
    n_quests = n_draw = 0

    for card, n in cards:
        kind = card.get("type")
        by_type[kind] += n
        if kind == "quest":
            n_quests += n
            for stat in QUEST_STATS:
                quest_totals[stat] += (card.get(stat) or 0) * n
            continue
        if not is_draw_card(card):
            continue
        n_draw += n
        by_faction[card.get("faction")] += n
        for attribute in card.get("attributes") or ():
            by_attribute[attribute] += n
        for raw in card.get("keywords") or ():
            keywords[_keyword_name(raw)] += n
        if card.get("unique"):
            unique += n
        cost = effective_cost(card, deck_faction)
        if cost == "X":
            cost_x += n
        elif cost == "-":
            cost_dash += n
        elif cost is not None:
            cost_curve[cost] += n
            printed_cost_curve[card["cost"]] += n
        surcharge = loyalty_surcharge(card, deck_faction)
        if surcharge:
            off_faction[card_title(card)] = surcharge
            if isinstance(cost, int):
                surcharged_curve[cost] += n
        if kind == "unit":
            power = card.get("power")
            if power == "X":
                power_x += n
            elif power is not None:
                power_curve[power] += n
            for icon in card.get("icons") or ():
                if icon in icons:
                    icons[icon]["units"] += n
                    icons[icon]["power"] += (power if isinstance(power, int) else 0) * n
        if setup_placeable(card):
            placeable += n

    return {
        "faction": deck_faction,
        "total": sum(n for _, n in cards),
        "draw": n_draw,
        "by_type": dict(by_type),
        "by_faction": dict(by_faction),
        "by_attribute": dict(sorted(by_attribute.items(), key=lambda kv: (-kv[1], kv[0]))),
        "keywords": dict(sorted(keywords.items(), key=lambda kv: (-kv[1], kv[0]))),
        # §9.3: cost to play in this deck (printed + off-faction Loyalty); X and – kept apart (§2.5).
        "cost_curve": _sorted_numeric(cost_curve),
        "printed_cost_curve": _sorted_numeric(printed_cost_curve),
        "surcharged_curve": _sorted_numeric(surcharged_curve),
        "cost_x": cost_x,
        "cost_dash": cost_dash,
        "loyalty_surcharges": off_faction,
        "power_curve": _sorted_numeric(power_curve),
        "power_x": power_x,
        "icons": icons,
        "unique": unique,
        "quests": {
            "count": n_quests,
            "totals": quest_totals,
            "averages": {stat: round(total / n_quests, 2) if n_quests else None
                         for stat, total in quest_totals.items()},
        },
        "setup_placeable": placeable,
        # §4: the exact chance of at least one copy in the opening 7 (no mulligan), per draw card.
        "opening_hand": [{"code": card["code"], "title": card_title(card), "copies": n,
                          "p": round(p_in_opening_hand(n, n_draw), 4)}
                         for card, n in sorted(cards, key=lambda cn: (-cn[1], card_title(cn[0]).casefold()))
                         if is_draw_card(card)],
        "unknown_cards": unknown,
    }


CURVE_TOP = 6  # the key-figures curve: costs 0 to 5 one by one, then "6+"


def deck_key_figures(counts: Mapping[str, int], pool: CardPool) -> dict:
    """What a decklist's tile in the browser shows: draw cards by type, quests, and the cost curve of
    the draw deck at the cost to play in this deck (§9.3) in buckets 0…5 and 6+, with X and – apart (§2.5).

    >>> pool = CardPool.from_cards([{"code": "f", "name": "Camelot", "type": "faction", "faction": "camelot"},
    ...                              {"code": "u", "name": "Gawain", "type": "unit", "faction": "camelot", "cost": 2},
    ...                              {"code": "d", "name": "Rally", "type": "deed", "faction": "camelot", "cost": 7}])
    >>> figures = deck_key_figures({"f": 1, "u": 3, "d": 2}, pool)
    >>> figures["types"], [bar["n"] for bar in figures["curve"]]
    ({'unit': 3, 'location': 0, 'attachment': 0, 'deed': 2}, [0, 0, 3, 0, 0, 0, 2])
    """
    cards = [(pool.get(code), n) for code, n in counts.items() if n > 0 and pool.get(code) is not None]
    factions = {c["faction"] for c, _ in cards if c.get("type") == "faction"}
    deck_faction = next(iter(factions)) if len(factions) == 1 else None
    types = {kind: 0 for kind in DRAW_TYPES}
    curve = [0] * (CURVE_TOP + 1)
    other = quests = 0
    for card, n in cards:
        kind = card.get("type")
        if kind == "quest":
            quests += n
        if kind not in types:
            continue
        types[kind] += n
        cost = effective_cost(card, deck_faction)
        if isinstance(cost, int) and not isinstance(cost, bool):
            curve[min(cost, CURVE_TOP)] += n
        else:
            other += n
    labels = [str(i) for i in range(CURVE_TOP)] + [f"{CURVE_TOP}+"]
    return {"types": types, "draw": sum(types.values()), "quests": quests, "cost_other": other,
            "curve": [{"label": label, "n": n} for label, n in zip(labels, curve)]}


def sample_hand(counts: Mapping[str, int], pool: CardPool, rng, size: int = HAND_SIZE) -> list[dict]:
    """`size` cards drawn at random from the deck's draw cards (§4: the opening hand comes from the draw deck;
    the faction card, destiny and quests are not in it), each copy equally likely; fewer when the deck is smaller.
    `rng` is a `random.Random`.

    >>> import random
    >>> pool = CardPool.from_cards([{"code": "u", "name": "Gawain", "type": "unit", "faction": "camelot"},
    ...                              {"code": "q", "name": "Quest", "type": "quest", "faction": "neutral"}])
    >>> [c["code"] for c in sample_hand({"u": 2, "q": 7}, pool, random.Random(1))]
    ['u', 'u']
    """
    deck = [code for code, n in sorted(counts.items()) if pool.get(code) is not None
            and is_draw_card(pool.get(code)) for _ in range(n)]
    return [{"code": code, "title": card_title(pool.get(code))} for code in rng.sample(deck, min(size, len(deck)))]
