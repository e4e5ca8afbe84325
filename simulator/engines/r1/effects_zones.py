"""The effect primitives that move cards between zones (effects.py has the rest and the table): leaving play (§7.1:
kill, discard, sacrifice, return), discarding from hand, milling and searching (§8.10), and entering play without
being played (§8.6 put into play, §3.8 tokens). One class each, as effects.py describes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .abilities import _check_selector
from .cards import token_def
from .effect_base import Amount, Ctx, Effect, Steps, n_cards, names, player_named
from .state import DECK, DEAD, DISCARD, DONE, FIELD, HAND, LIMBO, SECRET, ZONE_BY_NAME, Decision, fisher_yates

if TYPE_CHECKING:
    from .resolution import Resolution


# ---------------------------------------------------------------- leaving play (§7.1) and other zone moves
class LeavePlay(Effect):
    """The cards leave play as `how` (§7.1: killed → dead pile, discarded and sacrificed → discard pile, returned
    → hand or deck), through the §7.2 sequence; `cannot_be_saved` ignores every save (§7.3); `position`: "top"
    or "bottom" of the deck. Cards out of play (hand, deck, piles, secret area) just move to `elsewhere` (-1:
    they stay where they are). A subclass is its data: `key`, `how`, `elsewhere`."""

    harmful = True
    asks = True
    how = ""          # how a card in the field leaves (changes.py `_remove_from_field`)
    said = ""         # the same in the log's words
    elsewhere = -1    # where a card out of play goes (-1: nowhere)

    def run(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> Steps:
        cards = g._refs(ctx, v)
        in_field = [c for c in cards if g.zone[c] == FIELD]
        others = [c for c in cards if g.zone[c] in (HAND, DECK, DISCARD, DEAD, SECRET)]
        if g.logs is not None:   # before the §7.2 sequence, whose Halt window may save them
            g._log(self.log(g, ctx, e, (in_field, others)))
        if in_field:
            yield from g._leave(in_field, self.how, cannot_be_saved=bool(e.get("cannot_be_saved")),
                                position=e.get("position", "top"))
        z = self.elsewhere
        if z >= 0:
            for c in others:
                if z == DECK:
                    g._move(c, DECK, top=e.get("position", "top") != "bottom")
                elif z != DISCARD or g.zone[c] != DISCARD:   # returned to hand even from the hand, as before
                    g._move(c, z)
        left = sum(1 for c in in_field if g.zone[c] != FIELD)
        return bool(cards) and left == len(in_field)

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        in_field, others = what
        parts = []
        if in_field:
            parts.append(f"{names(g, in_field)} would be {self.said}")
        if others and self.elsewhere >= 0:
            parts.append(f"{names(g, others)} (out of play) {'are' if len(others) > 1 else 'is'} {self.said}")
        return f"§7.1 {g.name(ctx.src)}: " + ("; ".join(parts) or f"nothing to be {self.said}")


class Kill(LeavePlay):
    """§7.1 kill: a unit goes to the dead pile ("cannot be killed" protects)."""

    key = "kill"
    how = "killed"
    said = "killed"


class Discard(LeavePlay):
    """§7.1 discard: to the discard pile (a card out of play is discarded from where it is)."""

    key = "discard"
    how = "discarded"
    said = "discarded"
    elsewhere = DISCARD


class Sacrifice(LeavePlay):
    """§7.1 sacrifice: to the discard pile; it cannot be saved (§7.3)."""

    key = "sacrifice"
    how = "sacrificed"
    said = "sacrificed"


class ReturnToHand(LeavePlay):
    """Return to the owner's hand."""

    key = "return_to_hand"
    how = "returned"
    said = "returned to its owner's hand"
    elsewhere = HAND


class ReturnToDeck(LeavePlay):
    """Return to the top (or `"position": "bottom"`) of the owner's deck."""

    key = "return_to_deck"
    how = "returned_deck"
    said = "returned to its owner's deck"
    elsewhere = DECK


class DiscardRandom(Amount):
    """The player discards N cards from hand at random (as many as it holds)."""

    key = "discard_random"

    def possible(self, g: Resolution, p: int, src: int, v: Any, e: dict, info: Any) -> int:
        q = player_named(p, e)
        return 1 if g.hand[q] else 0

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        q = g._player_of(ctx, e)
        n = g._amount(v, ctx.p, ctx.src, ctx)
        hand = g.hand[q]
        m = min(n, len(hand))
        gone = []
        for _ in range(m):
            c = hand[int(g.rng.random() * len(hand))]
            g._move(c, DISCARD)
            gone.append(c)
        if g.logs is not None:
            g._log(self.log(g, ctx, e, (q, gone)))
        return m == n and n > 0

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return f"§8 {g.name(ctx.src)}: player {what[0]} discards {names(g, what[1])} at random"


class DiscardFromHand(Amount):
    """The player discards N cards of its choice from hand."""

    key = "discard_from_hand"
    asks = True

    def run(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> Steps:
        q = g._player_of(ctx, e)
        n = g._amount(v, ctx.p, ctx.src, ctx)
        m = 0
        gone = []
        while m < n and g.hand[q]:
            a = yield Decision("discard_choice", q, [("discard", j) for j in g.hand[q]], n - m)
            g._move(a[1], DISCARD)
            gone.append(a[1])
            m += 1
        if g.logs is not None:
            g._log(self.log(g, ctx, e, (q, gone)))
        return m == n and n > 0

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return f"§8 {g.name(ctx.src)}: player {what[0]} discards {names(g, what[1])} from hand"


class Mill(Amount):
    """The top N cards of the player's deck go to its discard pile (§9.2 Ravage does the same)."""

    key = "mill"

    def possible(self, g: Resolution, p: int, src: int, v: Any, e: dict, info: Any) -> int:
        q = player_named(p, e)
        return 1 if g.deck[q] else 0

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        q = g._player_of(ctx, e)
        n = g._amount(v, ctx.p, ctx.src, ctx)
        m = min(n, len(g.deck[q]))
        g._mill(q, n)
        if g.logs is not None:
            g._log(self.log(g, ctx, e, (q, m)))
        return m == n and n > 0

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        q, m = what
        top = names(g, g.discard[q][len(g.discard[q]) - m:]) if m else "nothing"
        return f"§8 {g.name(ctx.src)}: the top {n_cards(m)} of player {q}'s deck go to the discard pile ({top})"


class Search(Effect):
    """§8.10: look through your deck (or `zone`: discard, dead) for up to `count` cards matching the selector,
    to hand (or `"to": "field"`: they enter play); a searched deck is shuffled."""

    key = "search"
    asks = True

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        _check_selector(v, f"{where} search", problems)
        if e.get("zone", "deck") not in ("deck", "discard", "dead"):
            problems.append(f"{where}: cannot search {e.get('zone')!r}")
        if e.get("to", "hand") not in ("hand", "field"):
            problems.append(f"{where}: search to {e.get('to')!r} is unknown")

    def run(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> Steps:
        p = ctx.p
        zname = e.get("zone", "deck")
        z = ZONE_BY_NAME[zname]
        sel = dict(v)
        sel["zone"] = zname
        sel.setdefault("controller", "you")
        count = e.get("count", 1)
        found = 0
        taken = []
        dest = e.get("to", "hand")
        while found < count:
            cands = g._select(sel, p, ctx.src)
            if dest == "field":
                cands = [c for c in cands if g.can_enter(p, c)]
            if not cands:
                break
            g.shown.extend(cands)   # its player sees the cards found while it chooses (PlayerView.cdef)
            a = yield Decision("search", p, [("take", c) for c in cands] + [DONE], ctx.src)
            g.shown.extend(cands)
            if a == DONE:
                break
            found += 1
            taken.append(a[1])
            if dest == "field":
                g._move(a[1], LIMBO)
                yield from g._enter(p, a[1], "put")
            else:
                g._move(a[1], HAND)
        if z == DECK:
            fisher_yates(g.rng, g.deck[p])   # §8.10: the searched deck is shuffled either way
        if g.logs is not None:
            g._log(self.log(g, ctx, e, taken))
        return found == count

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        where = "into play" if e.get("to", "hand") == "field" else "to hand"
        shuffled = ", then shuffles it" if e.get("zone", "deck") == "deck" else ""
        return (f"§8.10 {g.name(ctx.src)}: player {ctx.p} searches the {e.get('zone', 'deck')} and takes "
                f"{names(g, what)} {where}{shuffled}")


# ---------------------------------------------------------------- entering play (§8.6, §3.8)
class PutIntoPlay(Effect):
    """§8.6 put into play: the cards (out of play) enter their owner's field without paying their cost; Loyalty
    still applies."""

    key = "put_into_play"
    asks = True

    def run(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> Steps:
        cards = [c for c in g._refs(ctx, v) if g.zone[c] in (HAND, DECK, DISCARD, DEAD, SECRET)]
        done = 0
        for c in cards:
            owner = g.owner[c]
            sur = g.loyalty_surcharge(owner, g.cdef[c])
            if not g.can_enter(owner, c) or g.pool[owner] < sur:
                continue
            g._spend(owner, sur)   # §8.6: Loyalty still applies
            if g.logs is not None:
                g._log(self.log(g, ctx, e, (c, sur)))
            g._move(c, LIMBO)
            yield from g._enter(owner, c, "put")
            done += 1
        return bool(cards) and done == len(cards)

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        c, sur = what
        paid = f", paying {sur} for Loyalty" if sur else ""
        return f"§8.6 {g.name(ctx.src)}: {g.name(c)} is put into play for player {g.owner[c]}{paid}"


class CreateToken(Effect):
    """§3.8: a token unit (`name`, `power`, `icons`, `attributes`, `keywords`, `abilities`) enters your field."""

    key = "create_token"
    asks = True

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        if not isinstance(v, dict) or "name" not in v:
            problems.append(f"{where}: create_token needs a name")

    def run(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> Steps:
        p = ctx.p
        d = token_def(v)
        iid = len(g.cdef)
        g.cdef.append(d)
        g.owner.append(p)
        g.ctrl.append(p)
        g.zone.append(LIMBO)
        g.limbo.append(iid)
        g.exh.append(0)
        g.emb.append(0)
        g.cnt.append(0)
        g.seen.append(0)
        g.shown.append(iid)   # a new card id: the players' views widen their card tables
        if g.logs is not None:
            g._log(self.log(g, ctx, e, iid))
        yield from g._enter(p, iid, "token")
        return True

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        d = g.cdef[what]
        return f"§3.8 {g.name(ctx.src)}: player {ctx.p} creates a token, {d.name} (Power {d.power})"
