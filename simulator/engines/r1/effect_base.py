"""The base of the effect primitives (effects.py): `Ctx`, one resolution of an ability, and `Effect`, the class each
primitive subclasses, with the shapes several share (`Amount`: the value is an amount; `Lasting`: a lasting effect
on the cards of `who`, §8.9) and the helpers their log lines use.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generator

from .abilities import _check_amount, _check_duration, _check_selector
from .state import Decision

if TYPE_CHECKING:
    from .resolution import Resolution

Steps = Generator[Decision, Any, bool]   # a resolution that may ask: yields Decisions, returns "in full"


class Ctx:
    """One resolution of an ability: its source card, controller, chosen targets and X."""

    __slots__ = ("src", "ab", "p", "targets", "x", "event", "is_deed")

    def __init__(self, src, ab, p, event=None, is_deed=False):
        self.src = src
        self.ab = ab
        self.p = p
        self.targets: list[int] = []
        self.x = 0
        self.event = event
        self.is_deed = is_deed

    def copy(self) -> "Ctx":
        c = Ctx(self.src, self.ab, self.p, self.event, self.is_deed)
        c.targets = list(self.targets)
        c.x = self.x
        return c


class Effect:
    """The base of every primitive: by default its value is a selector (which cards it acts on), it needs
    nothing to be possible but cards when it acts on "each" of a selector, and it never asks."""

    key = ""          # the effect's name in an ability's `effects`
    harmful = False   # it harms the cards it acts on
    asks = False      # its resolution is `run` (a generator), not `apply`
    nested = False    # its value is a list of effects resolved after the ones before it happened in full

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        _check_selector(v, f"{where} {self.key}", problems)

    def is_harmful(self, v: Any) -> bool:
        return self.harmful

    def possible(self, g: Resolution, p: int, src: int, v: Any, e: dict, info: Any) -> int:
        """§8.11: 1 when it could change the state, 0 when this one could not (another effect may), -1 when the
        ability cannot be initiated at all."""
        if isinstance(v, dict) and "each" in v:
            return 1 if g._select(v, p, src, info) else 0
        return 1

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        raise NotImplementedError(self.key)

    def run(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> Steps:
        raise NotImplementedError(self.key)
        yield   # a generator

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        """The log line of one resolution: `what` is what it did, as the primitive passes it (the cards it acted
        on, an amount). Called only when the game keeps a log."""
        raise NotImplementedError(self.key)


def player_named(p: int, e: dict) -> int:
    """The player an effect entry acts on: its controller `p`, or the opponent with `"player": "opponent"`."""
    return 1 - p if e.get("player") == "opponent" else p


def names(g: Resolution, cards: Any) -> str:
    """Card names for a log line ("nothing" for none)."""
    return ", ".join(g.name(c) for c in cards) or "nothing"


def n_cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


class Amount(Effect):
    """A primitive whose value is an amount (a number, "X" or {"count": selector})."""

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        _check_amount(v, f"{where} {self.key}", problems)


class Lasting(Effect):
    """A lasting effect (§8.9) on the cards of `who` (default: the source) until `until` (default: the phase)."""

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        _check_selector(e.get("who", "self"), f"{where} {self.key}", problems)
        _check_duration(e, where, problems)
