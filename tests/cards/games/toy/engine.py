"""The toy game's engine: the smallest game with the engine protocol (simulator/engines/common/protocol.py), to
show that a new game needs nothing outside its package and its registration line to pass the conformance suite.

Rules. §1 Each player has the ten tokens of the toy set (t-1 … t-10, value 1 … 10). §2 Setup: each player's
tokens are shuffled into a facedown deck and each draws 3. §3 Players alternate, player 0 first; on its turn a
player plays a token from its hand face up into its row (scoring its value) or passes, then draws a token if its
deck has one. §4 The game ends after 30 turns or when both hands are empty; the higher row total wins, equal totals
draw. A hand and a deck's order are secret; the rows and the counts of the rest are public.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from simulator.engines.common import IllegalAction, fisher_yates
from simulator.engines.common.spec import EngineSpec

TOKENS = tuple(f"t-{i}" for i in range(1, 11))
PASS = ("pass",)
MAX_TURNS = 30


def value(code: str) -> int:
    return int(code.split("-")[1])


class Decision:
    __slots__ = ("kind", "player", "options")

    def __init__(self, kind: str, player: int, options: list) -> None:
        self.kind, self.player, self.options = kind, player, options


class View:
    """What `player` may know: its hand, both rows, the other counts."""

    __slots__ = ("_g", "player")

    def __init__(self, game: "ToyGame", player: int) -> None:
        self._g, self.player = game, player

    @property
    def hand(self) -> list:
        return list(self._g.hand[self.player])

    @property
    def rows(self) -> list:
        return [list(r) for r in self._g.row]

    @property
    def counts(self) -> list:
        g = self._g
        return [{"hand": len(g.hand[q]), "deck": len(g.deck[q])} for q in (0, 1)]

    @property
    def turn(self) -> int:
        return self._g.turn

    def determinize(self, rng: random.Random) -> "ToyGame":
        """The opponent's hand and deck pooled and dealt again, and this player's deck order, at random; the
        pools are sorted first so a world depends only on what this player knows and on rng."""
        g = self._g.clone()
        g.logs = None
        me, other = self.player, 1 - self.player
        mine = sorted(g.deck[me])
        fisher_yates(rng, mine)
        g.deck[me] = mine
        pool = sorted(g.hand[other] + g.deck[other])
        fisher_yates(rng, pool)
        n = len(g.hand[other])
        g.hand[other], g.deck[other] = pool[:n], pool[n:]
        g._decide()
        return g


class ToyGame:
    def __init__(self, seed: int, *, log: bool = False, _setup: bool = True) -> None:
        self.seed = seed
        self.logs: list | None = [] if log else None
        self.deck: list[list[str]] = [[], []]
        self.hand: list[list[str]] = [[], []]
        self.row: list[list[str]] = [[], []]
        self.turn = 0
        self.pending: Decision | None = None
        if _setup:
            rng = random.Random(seed)
            for p in (0, 1):
                deck = list(TOKENS)
                fisher_yates(rng, deck)        # §2
                self.hand[p], self.deck[p] = deck[:3], deck[3:]
            self._decide()

    # the protocol ------------------------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.pending.player if self.pending is not None else -1

    def legal_actions(self) -> list:
        return list(self.pending.options) if self.pending is not None else []

    def is_terminal(self) -> bool:
        return self.pending is None

    def returns(self) -> list[float]:
        if self.pending is not None:
            return [0.0, 0.0]
        a, b = (sum(value(c) for c in r) for r in self.row)
        return [0.0, 0.0] if a == b else [1.0, -1.0] if a > b else [-1.0, 1.0]

    def apply_action(self, action: Any) -> None:
        if isinstance(action, str):
            action = self.parse_action(action)
        if self.pending is None or action not in self.pending.options:
            raise IllegalAction(f"{action!r} is not an option; the options: "
                                f"{', '.join(self.action_text(a) for a in self.legal_actions())}")
        p = self.pending.player
        if action != PASS:                               # §3
            self.hand[p].remove(action[1])
            self.row[p].append(action[1])
        if self.deck[p]:
            self.hand[p].append(self.deck[p].pop())
        if self.logs is not None:
            self.logs.append(f"T{self.turn} §3 player {p}: {self.action_text(action)}")
        self.turn += 1
        self._decide()

    def action_text(self, action: Any) -> str:
        return "pass" if action == PASS else f"play {action[1]}"

    def parse_action(self, text: str) -> tuple:
        words = text.split()
        action = PASS if words == ["pass"] else ("play", words[1]) if len(words) == 2 and words[0] == "play" else None
        if action is None or action not in self.legal_actions():
            raise IllegalAction(f"{text!r} is not an option; the options: "
                                f"{', '.join(self.action_text(a) for a in self.legal_actions())}")
        return action

    def clone(self) -> "ToyGame":
        g = ToyGame(self.seed, _setup=False)
        g.logs = list(self.logs) if self.logs is not None else None
        g.deck, g.hand, g.row = ([list(z) for z in zone] for zone in (self.deck, self.hand, self.row))
        g.turn = self.turn
        g._decide()
        return g

    def view(self, player: int) -> View:
        return View(self, player)

    def to_position(self) -> dict:
        return {"game": "toy", "seed": self.seed, "turn": self.turn,
                "players": [{"deck": list(self.deck[p]), "hand": list(self.hand[p]), "row": list(self.row[p])}
                            for p in (0, 1)]}

    @classmethod
    def from_position(cls, pos: dict) -> "ToyGame":
        g = cls(pos["seed"], _setup=False)
        g.turn = pos["turn"]
        for p, pl in enumerate(pos["players"]):
            g.deck[p], g.hand[p], g.row[p] = list(pl["deck"]), list(pl["hand"]), list(pl["row"])
        g._decide()
        return g

    # §4 ----------------------------------------------------------------------------------------------------
    def _decide(self) -> None:
        if self.turn >= MAX_TURNS or not (self.hand[0] or self.hand[1]):
            self.pending = None
            return
        p = self.turn % 2
        self.pending = Decision("turn", p, [("play", c) for c in sorted(self.hand[p], key=value)] + [PASS])


def cards(g: ToyGame) -> Counter:
    return Counter(c for zone in (g.deck, g.hand, g.row) for z in zone for c in z)


SPEC = EngineSpec(slug="toy", new_game=ToyGame, from_position=ToyGame.from_position, cards=cards,
                  max_decisions=MAX_TURNS)
