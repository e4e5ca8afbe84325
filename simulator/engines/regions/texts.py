"""Action texts (CONTRACTS §6): how an option is printed (`action_text`) and read back (`parse_action`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import (
    Ability,
)
from .state import (
    N_STANDING, A_DONE, A_BUY, A_STASH, A_TAKE, A_PLAY, A_USE, A_PLACE, A_TARGET, A_REGION, A_YES, A_NO, A_TRASH,
    A_KEEP, PHASE_KEYS, IllegalAction, _norm,
)
from . import cleanup

if TYPE_CHECKING:
    from .game import Game


def action_text(g: Game, a: tuple) -> str:
    """The printed form of an option (read back by parse_action): `buy Silver`, `place Sentry at Ios`, ..."""
    code = a[0]
    cards = g.cs.cards
    if code == A_DONE:
        return "done"
    if code == A_BUY:
        k = a[1]
        if k < N_STANDING:
            return f"buy {g.standing[k].name}"
        pile = g.mpiles[k - N_STANDING]
        name = pile[-1].name if pile else "?"
        same = sum(1 for q in g.mpiles if q and q[-1].name == name)
        return f"buy {name}" + (f" (pile {k - N_STANDING + 1})" if same > 1 else "")
    if code == A_STASH:
        return f"stash {cards[a[1]].name}"
    if code == A_TAKE:
        return "take " + ", ".join(cards[i].name for i in a[1:])
    if code == A_PLAY:
        return f"play {cards[a[1]].name}"
    if code == A_USE:
        card = cards[a[1]]
        several = any(len(x) > 1 for x in card.hand_ab)
        return f"use {card.name}" + (f" {a[2] + 1}" if several else "")
    if code == A_PLACE:
        return f"place {cards[a[1]].name} at {g.regions[a[2]].short}"
    if code == A_TARGET:
        q, r, i = a[1], a[2], a[3]
        stack = g.stacks[q][r]
        name = stack[i].name if i < len(stack) else "?"
        return f"target {name} at {g.regions[r].short} #{i + 1} of p{q}"
    if code == A_REGION:
        return f"at {g.regions[a[1]].short}"
    if code == A_YES:
        return "yes"
    if code == A_NO:
        return "no"
    if code == A_TRASH:
        return f"trash {cards[a[1]].name}"
    if code == A_KEEP:
        return "trash none"
    return repr(a)


def parse_action(g: Game, text: str) -> tuple:
    """Read a printed action back (case and apostrophes do not matter; `buy NAME (pile N)` always works)."""
    if g.pending is None:
        raise IllegalAction("the game is over")
    want = _norm(text)
    options = g.pending.options
    for a in options:
        if _norm(action_text(g, a)) == want:
            return a
    if want.startswith("take ") and "," in want:   # several Pocket cards in one action
        names = {_norm(c.name): c for c in g.pocket[g.pending.player]}
        picked = []
        for part in want[5:].split(","):
            card = names.get(part.strip())
            if card is None:
                break
            picked.append(card.index)
        else:
            action = (A_TAKE, *picked)
            check_take_many(g, action)   # its message says which card may not move, and why
            return action
    for a in options:
        if a[0] == A_BUY and a[1] >= N_STANDING:
            pile = g.mpiles[a[1] - N_STANDING]
            if pile and _norm(f"buy {pile[-1].name} (pile {a[1] - N_STANDING + 1})") == want:
                return a
    raise IllegalAction(f"{text!r} is not an option of the {g.pending.kind} decision of player "
                        f"{g.pending.player}; options: " + ", ".join(action_text(g, a) for a in options))


def check_take_many(g: Game, action: tuple) -> None:
    """`take A, B, ...`: several Pocket cards at once, where taking them one by one would be legal."""
    d = g.pending
    assert d is not None
    if d.kind not in ("hero", "pocket", "capacity"):
        raise IllegalAction(f"{action_text(g, action)!r}: cards are taken from the Pocket only in the Hero "
                            f"phase and at the end of the Purchase phase, not in a {d.kind} decision")
    left = list(g.pocket[d.player])
    movable = list(g.fresh[d.player]) if d.kind == "pocket" else list(left)
    for i in action[1:]:
        card = g.cs.cards[i] if isinstance(i, int) and 0 <= i < len(g.cs.cards) else None
        if card is None or card not in left:
            raise IllegalAction(f"{action_text(g, action) if card else action!r}: not all these cards are "
                                "in the Pocket")
        if card not in movable:
            raise IllegalAction(f"{action_text(g, action)!r}: {card.name} was not bought in this Purchase "
                                "phase; only this phase's purchases move into the Hand now (003 §4.2)")
        left.remove(card)
        movable.remove(card)
    if not left:
        raise IllegalAction("at least one card must stay in the Pocket (003 §4.2)")


def ab_name(g: Game, ab: Ability) -> str:
    if ab.ref[0] == "card":
        return g.cs.by_code[ab.ref[1]].name
    if ab.ref[0] == "skill":
        return f"{g.cs.hero_by_code[ab.ref[1]].name} Level {ab.ref[2]}"
    return g.cs.region_by_code[ab.ref[1]].short


def state_text(g: Game) -> str:
    """One canonical line per player and one for the board (handy in tests and bug reports)."""
    lines = [f"turn {g.turn} {PHASE_KEYS[g.phase]} prio p{g.prio} recognition {g.rec_pile} "
             f"control {g.ctrl} market {[x[-1].name if x else '-' for x in g.mpiles]}"]
    for p in range(g.n):
        lines.append(f"p{p} {g.heroes[p].name} L{g.level[p]} score {cleanup.score(g, p)} "
                     f"hand {[c.name for c in g.hand[p]]} pocket {[c.name for c in g.pocket[p]]} "
                     f"deck {len(g.deck[p])} discard {len(g.discard[p])} stacks "
                     + " | ".join(",".join(c.name for c in s) for s in g.stacks[p]))
    return "\n".join(lines)
