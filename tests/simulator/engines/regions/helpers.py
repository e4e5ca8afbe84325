"""Shared helpers for the Heroes and Regions engine tests: a small test set and positions written by hand.

The test set keeps the shipped standing piles and adds the cards of 003 §7.3's worked exchange (Lyla, Izzy & Bren,
Cassian, Ja'Rae, Jarl) and a few cards that pin one rule each. Its Regions carry the shipped Quests but plain
Reward sides (no Damage bonus), so the worked exchange is exactly the rulebook's.
"""
from __future__ import annotations

import random

from cards.games.regions import load_default_set
from simulator.engines.regions import CardSet, Game


def _card(code, name, ctype, cost, **kw):
    return {"code": code, "name": name, "type": ctype, "cost": cost, "pile": "market", "quantity": 1, **kw}


def _hero(code, name):
    skills = [{"level": 0, "text": "+4 cards.", "abilities": [{"when": "hero", "effects": [{"draw": 4}]}]}]
    skills += [{"level": lv, "text": "", "abilities": []} for lv in range(1, 6)]
    return {"code": code, "name": name, "type": "hero", "skills": skills}


TEST_CARDS = [
    # 003 §7.3: the worked exchange
    _card("t-lyla", "Lyla", "citizen", 1, damage=0, health=1),
    _card("t-izzy", "Izzy & Bren", "citizen", 2, damage=1, health=2),
    _card("t-cassian", "Cassian", "citizen", 3, damage=2, health=2),
    _card("t-jarae", "Ja'Rae", "citizen", 1, damage=1, health=1),
    _card("t-jarl", "Jarl", "citizen", 2, damage=1, health=2),
    # one rule each
    _card("t-lamp", "Lamplighter", "citizen", 2, damage=0, health=3,
          abilities=[{"when": "reveal", "effects": [{"draw": 1}]}]),
    _card("t-archer", "Archer", "citizen", 2, damage=0, health=2,
          abilities=[{"when": "reveal", "effects": [{"strike": 1, "where": "here"}]}]),
    _card("t-wall", "Wall", "tactic", 1, damage=0, health=3),
    _card("t-spear", "Spear", "tactic", 1, damage=3, health=1),
    _card("t-crate", "Crate", "supplies", 2, goods=3, goods_only="citizen"),
    _card("t-coin", "Coin", "supplies", 1, goods=1),
    _card("t-purse", "Purse", "supplies", 4, goods=3),
    _card("t-gem", "Gem", "supplies", 3, goods=1,
          abilities=[{"when": "purchase", "from": "hand", "cost": "trash", "effects": [{"goods": 3}]}]),
    _card("t-store", "Store", "structure", 2, damage=0, health=2,
          abilities=[{"when": "static", "white": True, "effects": [{"pocket": 1}]}]),
    _card("t-flag", "Flag", "structure", 2, damage=0, health=2, abilities=[{"when": "finish", "points": 2}]),
    _card("t-herald", "Herald", "citizen", 2, damage=0, health=1,
          abilities=[{"when": "reveal", "effects": [{"recognition": 1}]}]),
    _card("t-pyre", "Pyre Keeper", "citizen", 2, damage=0, health=1,
          abilities=[{"when": "reveal", "effects": [{"trash": 1}]}]),
]
TEST_HEROES = [_hero("t-seamus", "Seamus"), _hero("t-finn", "Finn"), _hero("t-third", "Third"),
               _hero("t-fourth", "Fourth")]


def make_test_set() -> CardSet:
    base = load_default_set()
    standing = [c for c in base if c["pile"] == "standing"]
    regions = []
    for c in base:
        if c["type"] == "region":
            regions.append({**c, "reward": [], "text": c["quest"]["text"]})
    starting = []
    for h in TEST_HEROES:
        starting.append({"code": h["code"] + "-coin", "name": h["name"] + "'s Coin", "type": "supplies", "cost": 0,
                         "goods": 1, "pile": "starting", "hero": h["code"], "quantity": 8})
    return CardSet(standing + regions + TEST_HEROES + starting + TEST_CARDS, code="test")


CS = make_test_set()


def position(players: list[dict], **kw) -> dict:
    """A position for the test set: two players (Seamus, Finn) unless more are given."""
    heroes = ["t-seamus", "t-finn", "t-third", "t-fourth"]
    out = {"game": "regions", "set": "test", "seed": kw.pop("seed", 1), "turn": kw.pop("turn", 3),
           "priority": kw.pop("priority", 0), "phase": kw.pop("phase", "hero"),
           "players": [{"hero": heroes[i], **pl} for i, pl in enumerate(players)]}
    out.update(kw)
    return out


def load(players: list[dict], **kw) -> Game:
    return Game.from_position(position(players, **kw), CS, log=True)


def random_game(seed: int, heroes=("Corin Vale", "Asha Thorne"), *, cs: CardSet | None = None, max_turns: int = 40,
                steps: int | None = None) -> Game:
    """A game of the shipped set played by uniformly random actions through the validated path."""
    g = Game(cs or CardSet.default(), list(heroes), seed=seed, max_turns=max_turns)
    rng = random.Random(seed * 7 + 1)
    k = 0
    while not g.is_terminal() and (steps is None or k < steps):
        opts = g.legal_actions()
        g.apply_action(opts[int(rng.random() * len(opts))])
        k += 1
    return g


def names(cards) -> list[str]:
    return [c.name for c in cards]
