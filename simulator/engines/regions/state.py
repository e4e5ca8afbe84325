"""The regions engine's vocabulary: phase, step, action and job codes, the waiting `Decision`, the shuffle (STYLE
§4) and the small helpers the layers share. Imports nothing of the engine but `cards`."""
from __future__ import annotations

from typing import Any, TYPE_CHECKING

from simulator.engines.common.protocol import IllegalAction  # noqa: F401  (re-exported)
from simulator.engines.common.shuffle import fisher_yates  # noqa: F401  (re-exported)

from .cards import (
    CardDef,
)

if TYPE_CHECKING:
    from .game import Game

CLEANUP, OVER = 4, 5
ST_START, ST_WINDOW, ST_POCKET, ST_CAPACITY = range(4)
N_REGIONS = 5
N_MARKET_PILES = 4          # 003 §1.1: four Market Piles
N_STANDING = 6

# actions (internal form: small tuples; `action_text` prints them, `parse_action` reads them back)
A_DONE, A_BUY, A_STASH, A_TAKE, A_PLAY, A_USE, A_PLACE, A_TARGET, A_REGION, A_YES, A_NO, A_TRASH, A_KEEP = range(13)
DONE = (A_DONE,)
YES = (A_YES,)
NO = (A_NO,)
KEEP = (A_KEEP,)

# jobs: the rules' pending work, a stack (the last one runs next)
J_AB, J_EFF, J_PAY, J_STACK, J_REVEAL = range(5)

WINDOW_KINDS = ("hero", "purchase", "pocket", "capacity", "position", "contest")
CHOICE_KINDS = ("target", "region", "may", "trash")
PHASE_KEYS = ("hero", "purchase", "position", "contest", "cleanup", "over")
STEP_KEYS = ("start", "window", "pocket", "capacity")


# the window of each phase and step (ST_WINDOW, ST_POCKET, ST_CAPACITY)
_KINDS = (("hero", "hero", "hero", "hero"), ("purchase", "purchase", "pocket", "capacity"),
          ("position", "position", "position", "position"), ("contest", "contest", "contest", "contest"))


class Decision:
    """The decision waiting for `player`: its `kind` (a window or a choice), `info` and its `options` (listed on
    first use: the fast loop never needs them)."""

    __slots__ = ("kind", "player", "info", "_game", "_options")

    def __init__(self, game: Game, kind: str, player: int, info: Any = None):
        self._game = game
        self.kind = kind
        self.player = player
        self.info = info
        self._options: list | None = None

    @property
    def options(self) -> list:
        opts = self._options
        if opts is None:
            opts = self._options = self._game._options(self)
        return opts

    def __repr__(self) -> str:
        return f"Decision({self.kind}, p{self.player})"


def _norm(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").replace("\u2018", "'").lower().split())


def _distinct(cards: list[CardDef]) -> list[CardDef]:
    """The cards in a zone with copies that are alike listed once, in first-seen order."""
    seen = set()
    out = []
    for c in cards:
        if c.index not in seen:
            seen.add(c.index)
            out.append(c)
    return out


def _card_index(c: CardDef) -> int:
    return c.index


def _codes(cards) -> list[str]:
    return [c.code for c in cards]


def _job_json(game: Game, job: tuple) -> list:
    kind = job[0]
    if kind == J_AB:
        return ["ability", job[1], job[2], list(job[3].ref)]
    if kind == J_EFF:
        return ["effect", job[1], job[2], job[3], job[4], job[5]]
    if kind == J_PAY:
        return ["pay", job[1]]
    if kind == J_STACK:
        return ["stack", job[1], job[2]]
    return ["reveal", job[1], job[2], job[3].code]


def _pending_json(d: Decision | None):
    if d is None:
        return None
    info = d.info
    if d.kind == "may":
        info = [info[0], list(info[1].ref)]
    elif d.kind == "target":
        info = list(info)
    return {"kind": d.kind, "player": d.player, "info": info}
