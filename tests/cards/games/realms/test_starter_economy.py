"""The starter decks can be played out under Resource Balancing (002 §4, §8, §12; docs/games/realms.md R4).

A greedy player plays each starter alone for 8 turns, 200 seeded games each, with the economy rules only (no
fights): setup with the Gift of Fate when the opening 7 holds no Place (R12), 5 Gold, draw up to 7 with the discard
pile reshuffled; each turn it builds and recruits whatever its Reserve pays and the balancing can keep — Places
first, then the strongest Warriors, Equipment, Rituals, Prophecies, Dark Harmony and Intrigues it can use —
respecting uniques, unlocks (R8) and the Patriarch/Prophet/Sorcerer requirements (R11). The balancing pays cards in
an order where each card's blue icons count only after its red icons are paid ("first consumes, then provides").
When nothing can be played and the hand is full it plays its cheapest Warrior or Place and lets the balancing
discard it, the only way the rules leave to cycle a stuck hand (002 §12: "you may also discard on purpose").

Measured (this test's figures, `.venv/bin/python -m pytest -q tests/cards/games/realms/test_starter_economy.py -s`):
a Place on turn 1 in 99.5–100% of games for every starter; by turn 5, 4.6–6.2 Places and 4.3–6.0 Warriors on
average (Deepwood the most Warriors, Sunward the fewest Places); by turn 8, 5.8–7.9 Places; cards discarded unpaid:
none, except 0.48 a game for Tideholm, whose mercenaries eat Gold faster than a short-sighted player earns it.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from cards.games.realms import bundled_pool, starter_files
from cards.games.realms.decklist import parse_decklist
from cards.games.realms.schema import RESOURCES, intrigue_keyword

GAMES, TURNS = 200, 8
NEEDS = {"RITUAL": "PATRIARCH", "PROPHECY": "PROPHET", "ART SPELL": "SORCERER"}


def pays(cards: list[dict], reserve: int) -> int | None:
    """002 §12 as R4 reads it: the Gold left for the Reserve, or None when some card could not be paid."""
    available = Counter({"gold": reserve})
    pending = []
    for card in cards:
        if any(card["consumes"].values()):
            pending.append(card)
        else:
            available.update(card["provides"])
    progress = True
    while pending and progress:
        progress = False
        for card in list(pending):
            if all(available[r] >= card["consumes"][r] for r in RESOURCES):
                available.subtract(card["consumes"])
                available.update(card["provides"])
                pending.remove(card)
                progress = True
    return None if pending else available["gold"]


def play(entries, seed):
    rng = random.Random(seed)
    leader = next(c for c, _ in entries if c["type"] == "leader")
    deck = [c for c, n in entries if c["type"] != "leader" for _ in range(n)]
    rng.shuffle(deck)
    discard, deck = deck[:3], deck[3:]                      # 002 §8 step 3
    hand, deck = deck[:7], deck[7:]
    if not any(c["type"] == "place" for c in hand):         # the Gift of Fate, R12: the hand to the discard pile
        discard, hand, deck = discard + hand, deck[:7], deck[7:]
    reserve = 5
    realm: list[dict] = [leader]
    rituals: list[dict] = []
    stats = []
    unpaid = [0]
    for turn in range(1, TURNS + 1):
        for ritual in rituals:                              # start of turn: Rituals end
            realm.remove(ritual)
            discard.append(ritual)
        rituals = []
        while len(hand) < 7:                                # 002 §9 step 1
            if not deck:
                if not discard:
                    break
                deck, discard = discard, []
                rng.shuffle(deck)
            hand.append(deck.pop())
        played = 0
        while True:
            warriors = [c for c in realm if c["type"] == "warrior"]
            order = sorted(hand, key=lambda c: ({"place": 0, "warrior": 1, "intrigue": 2}[c["type"]],
                                                 any(c["consumes"].values()), -(c["cv"] or 0), c["code"]))
            for card in order:
                cost = card["cost"] or 0
                kind = intrigue_keyword(card)
                if cost > reserve or (card["unique"] and any(c["name"] == card["name"] for c in realm)):
                    continue
                if card["type"] == "warrior" and card["warrior_type"] in ("CAVALRY", "VEHICLE") and not any(
                        card["warrior_type"] in p["unlocks"] for p in realm if p["type"] == "place"):
                    continue
                if kind in NEEDS and not any(w["warrior_type"] == NEEDS[kind] for w in warriors):
                    continue
                if kind == "EQUIPMENT" and len([c for c in realm if intrigue_keyword(c) == "EQUIPMENT"]) \
                        >= 2 * len(warriors):
                    continue
                if kind == "DARK HARMONY" and not any("Worthy" in c["keywords"] for c in realm):
                    continue
                if card["type"] == "intrigue" and kind is None and not any(
                        a["timing"] == "play" for a in card["abilities"] or []):
                    continue                                # kept for attacks and raids
                stays = card["type"] != "intrigue" or kind in ("EQUIPMENT", "PROPHECY", "DARK HARMONY", "RITUAL")
                if stays and pays(realm + [card], reserve - cost) is None:
                    continue
                reserve -= cost
                hand.remove(card)
                played += 1
                if stays:
                    realm.append(card)
                    if kind == "RITUAL":
                        rituals.append(card)
                else:
                    discard.append(card)
                break
            else:
                break
        if not played and len(hand) >= 7:                   # cycle a stuck hand through the balancing
            dump = sorted((c for c in hand if c["type"] in ("place", "warrior") and (c["cost"] or 0) <= reserve),
                          key=lambda c: (c["cost"] or 0, c["code"]))
            if dump:
                reserve -= dump[0]["cost"] or 0
                hand.remove(dump[0])
                discard.append(dump[0])
        gold = pays(realm, reserve)
        while gold is None:                                 # 002 §12: what cannot be paid is discarded (a
            upkeep = [c for c in realm if any(c["consumes"].values())]  # Ritual's Food has ended, say)
            worst = min(upkeep, key=lambda c: (c["cv"] or 0, c["code"]))
            realm.remove(worst)
            discard.append(worst)
            unpaid[0] += 1
            gold = pays(realm, reserve)
        assert gold >= 0
        reserve = gold                                      # 002 §12: unused Gold to the Reserve
        stats.append((sum(c["type"] == "place" for c in realm), sum(c["type"] == "warrior" for c in realm)))
    return stats, unpaid[0]


@pytest.mark.parametrize("path", starter_files(), ids=lambda p: p.stem)
def test_starter_plays_out_under_resource_balancing(path):
    pool = bundled_pool()
    entries = [(pool.get(code), n) for code, n in parse_decklist(path.read_text(encoding="utf-8"), pool).counts.items()]
    results = [play(entries, seed) for seed in range(GAMES)]
    games = [g for g, _ in results]
    unpaid = sum(u for _, u in results) / GAMES
    first_place = sum(g[0][0] >= 1 for g in games) / GAMES
    places5 = sum(g[4][0] for g in games) / GAMES
    warriors5 = sum(g[4][1] for g in games) / GAMES
    places8 = sum(g[7][0] for g in games) / GAMES
    print(f"{path.stem}: Place on turn 1 {first_place:.1%}; turn 5: {places5:.1f} Places, {warriors5:.1f} "
          f"Warriors; turn 8: {places8:.1f} Places; cards discarded unpaid per game {unpaid:.2f}")
    assert first_place >= 0.95
    assert places5 >= 4.0 and warriors5 >= 3.3
    assert places8 > places5
    assert unpaid < 1.0
