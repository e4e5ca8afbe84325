"""Fixtures for the realms engine tests: the starters, the card catalogue, and positions written compactly.

`pos(p0, p1=None, **top)` builds a position (the round cap set to the current round, so a game ends where the
next round would begin) (docs/games/realms-engine.md, "Positions") from two player dicts whose
missing keys take their empty values; p1=None is the goldfish opponent. Codes are the First Banners set's
(cards/games/realms/data/realms.json), e.g. fb-001 Farmstead, fb-013 Village Militia, fb-048 Queen Ysolde.
"""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from cards.games.realms import bundled_cards
from simulator.engines.realms import from_position, starter_decks

REALMS_STARTERS_2026 = Path(__file__).resolve().parents[4] / "tests" / "fixtures" / "starters_2026" / "realms"

QUEEN = "fb-048"        # Queen Ysolde: CV 8, front/right; 2 Gold 2 Food 1 Timber; your CAVALRY get +1 CV
CALDWEN = "fb-050"      # Ser Caldwen: CV 9, front; gain 1 Gold when your warrior wins an attack as the attacker
ORLA = "fb-072"         # Mother Orla: CV 7, left/right; 2 Gold 2 Food 1 Timber
FARM = "fb-001"         # Farmstead: Place CV 3, front, Neighbor Count 3, 2 Food
CAMP = "fb-002"         # Woodcutters' Camp: Place CV 3, left, NC 2, 2 Timber
IRON_PIT = "fb-003"     # Iron Pit: Place CV 4, right, NC 2, 2 Iron, consumes 1 Food
MARKET = "fb-004"       # Market Square: Place CV 4, front/right, NC 3, 2 Gold, consumes 1 Timber
GRANARY = "fb-008"      # Granary: Place CV 4, front, NC 4, 1 Food; Farmsteads provide 1 more Food
MILITIA = "fb-013"      # Village Militia: INFANTRY CV 1, front, 1 Food, cost 0
PIKEMEN = "fb-014"      # Pikemen: INFANTRY CV 2, left/front, +1 CV while defending, 1 Food, cost 1
BLADES = "fb-015"       # Hired Blades: INFANTRY CV 3, front/right, 1 Gold, cost 0
SCOUT = "fb-017"        # Wayfinder Scout: INFANTRY Loner CV 1, all Tactics; raids by it alone cannot be blocked
OUTRIDERS = "fb-019"    # Outriders: CAVALRY CV 3, all Tactics, 1 Food, cost 2
RAM = "fb-021"          # Battering Ram: VEHICLE CV 2, front, +3 raiding, 1 Timber, cost 2
SWORD = "fb-026"        # Iron Sword: EQUIPMENT Weapon, +2 CV, 1 Iron, cost 1
SPEAR = "fb-027"        # War Spear: EQUIPMENT Weapon, +1 CV and the Front tactic, 1 Iron, cost 1


@pytest.fixture(scope="session")
def decks():
    # The starters as they were when these tests' games were pinned (the shipped ones are rebalanced over time).
    return starter_decks(REALMS_STARTERS_2026)


@pytest.fixture(scope="session")
def catalogue():
    return {c["code"]: c for c in bundled_cards()}


def player(**kw) -> dict:
    base = {"leader": QUEEN, "leaders_out": [], "reserve": 5, "vp": 0, "hand": [], "deck": [], "discard": [],
            "set_aside": [], "annihilated": [], "vp_pile": [], "settlement": [], "borderlands": [],
            "strike_force": [], "rituals": [], "groups": []}
    base.update(copy.deepcopy(kw))
    return base


def pos(p0: dict, p1: dict | None = None, **top) -> dict:
    doc = {"game": "realms", "format": "standard", "seed": 1, "random_events": 0, "turn": 5, "step": "actions",
           "first_player": 0, "active_player": 0, "turns_taken": [3, 2],
           "players": [p0, p1 if p1 is not None else {"goldfish": True}]}
    doc.update(top)
    # by default the game stops (a stalemate, R22) when the next round would begin, so that a test's state is not
    # played on by decisions that take themselves (a decision with one option)
    cap = doc["turns_taken"][doc["first_player"]]
    if doc["step"] == "turn_start" and doc["active_player"] == doc["first_player"]:
        cap += 1
    doc.setdefault("max_rounds", cap)
    return doc


def load(doc: dict, **kw):
    return from_position(doc, log=True, **kw)


def texts(game) -> list[str]:
    return [game.action_text(a) for a in game.legal_actions()]


def do(game, *actions: str) -> None:
    for a in actions:
        game.apply_action(a)


def done_until(game, kind: str, limit: int = 50) -> None:
    """Answer 'done' / 'pay all' / 'pass' until a decision of this kind waits."""
    for _ in range(limit):
        if game.pending is None or game.pending.kind == kind:
            return
        opts = texts(game)
        for want in ("done", "pay all", "pass"):
            if want in opts:
                game.apply_action(want)
                break
        else:
            raise AssertionError(f"no way through {game.pending.kind}: {opts}")
    raise AssertionError(f"never reached {kind}")
