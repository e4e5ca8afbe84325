"""The effect primitives of the ability format (docs/engine-abilities.md, "Effects"), one class each.

A primitive is what one entry of an ability's `effects` does: `{"draw": 2}`, `{"kill": "target"}`, ... Each class
holds everything about its primitive:

- `key`, the entry's name, and whether it is `harmful` to the cards it acts on (the greedy player aims those at
  the opponent);
- `check`, the compile check abilities.py runs when a deck is built (a problem makes the card unsupported);
- `possible`, the §8.11 test: could it change the game state now (an ability is only initiated if it could);
- its resolution: `apply` for a primitive that never asks a player, or `run` (a generator that may yield a
  Decision, open windows, make cards enter or leave play) with `asks = True`; both return True when the effect
  happened in full ("then", §8.11);
- `log`, its line in the game's log, in plain words citing the rule ("§3.3 Frost Maiden: exhausts Gawain"):
  resolving a primitive writes one line after the ability's own "§8 player P uses CARD" line. It is formatted
  only when the game keeps a log (`if g.logs is not None`), so a game without one pays a test per effect. The
  rules' own consequences keep their lines (a card leaving play, §7.1; a change of control, §3.2; a win, §12).

`EFFECTS` maps each key to its primitive: every subclass of `Effect` with a key is in it, so adding a primitive
is adding one class. `Ctx` is one resolution of an ability (its source, controller, targets, X, event).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generator

from .abilities import DURATIONS, SCRIPTS, _check_amount, _check_duration, _check_selector
from .cards import parse_keyword, token_def
from .state import DECK, DEAD, DISCARD, DONE, FACTION, FIELD, HAND, LIMBO, SECRET, ZONE_BY_NAME, Decision, \
    fisher_yates

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


# ---------------------------------------------------------------- cards, wealth and Influence (§1.1, §3.4, §5.2)
class Draw(Amount):
    """The player (you, or `"player": "opponent"`) draws N cards; from an empty deck it is eliminated (§12)."""

    key = "draw"

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        q = g._player_of(ctx, e)
        n = g._amount(v, ctx.p, ctx.src, ctx)
        if g.logs is not None:
            g._log(self.log(g, ctx, e, (q, n)))   # before: drawing from an empty deck ends the game (§12)
        g._draw(q, n)
        return n > 0

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return f"§8 {g.name(ctx.src)}: player {what[0]} draws {n_cards(what[1])}"


class GainWealth(Amount):
    """N wealth into the player's pool (§3.4)."""

    key = "gain_wealth"

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        q = g._player_of(ctx, e)
        n = g._amount(v, ctx.p, ctx.src, ctx)
        g.pool[q] += n
        if g.logs is not None:
            g._log(self.log(g, ctx, e, (q, n)))
        return n > 0

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        q = what[0]
        return f"§3.4 {g.name(ctx.src)}: player {q} gains {what[1]} wealth (pool {g.pool[q]})"


class GainInfluence(Amount):
    """The player gains N Influence on its faction card (§1.1; fires influence_gained; 15 wins at once, §12)."""

    key = "gain_influence"
    asks = True

    def run(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> Steps:
        q = g._player_of(ctx, e)
        n = g._amount(v, ctx.p, ctx.src, ctx)
        # the line is _gain_influence's ("§1.1 CARD: player P gains N Influence (total)"), written with the gain
        yield from g._gain_influence(q, n, self.log(g, ctx, e, n) if g.logs is not None else "")
        return n > 0

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return f"§1.1 {g.name(ctx.src)}"


class PlaceInfluence(Amount):
    """N Influence counters on the cards of `on` (default: the source) in the field (§1.1: they count for their
    controller)."""

    key = "place_influence"

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        n = g._amount(v, ctx.p, ctx.src, ctx)
        cards = [c for c in g._refs(ctx, e.get("on", "self")) if g.zone[c] == FIELD]
        for c in cards:
            g.cnt[c] += n
        if g.logs is not None:
            g._log(self.log(g, ctx, e, (cards, n)))
        g._check_win()
        return bool(cards) and n > 0

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return f"§1.1 {g.name(ctx.src)}: {what[1]} Influence on {names(g, what[0])}"


class MoveInfluence(Amount):
    """N Influence from the opponent's faction card to yours: a move, not a gain (§6.1)."""

    key = "move_influence"

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        p = ctx.p
        n = g._amount(v, p, ctx.src, ctx)
        m = min(n, g.infl[1 - p])
        g.infl[1 - p] -= m
        g.infl[p] += m
        if g.logs is not None:
            g._log(self.log(g, ctx, e, m))
        g._check_win()
        return m == n and n > 0

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        p = ctx.p
        return (f"§6.1 {g.name(ctx.src)}: {what} Influence moves from player {1 - p} to player {p} "
                f"({g.infl[p]} and {g.infl[1 - p]} on their faction cards)")


class LoseInfluence(Amount):
    """The player loses N Influence from its faction card (as much as it has)."""

    key = "lose_influence"

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        q = g._player_of(ctx, e)
        n = g._amount(v, ctx.p, ctx.src, ctx)
        m = min(n, g.infl[q])
        g.infl[q] -= m
        if g.logs is not None:
            g._log(self.log(g, ctx, e, (q, m)))
        return m == n and n > 0

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        q = what[0]
        return f"§1.1 {g.name(ctx.src)}: player {q} loses {what[1]} Influence ({g.infl[q]} left)"


# ---------------------------------------------------------------- ready and exhausted (§3.3)
class Turn(Effect):
    """Turn the cards (in the field, or a faction card) to `to` (1 exhausted, 0 ready, §3.3): each one not in that
    state yet and not `protected` turns. A subclass is its data and its protection."""

    to = 0

    def protected(self, g: Resolution, p: int, c: int) -> bool:
        return False

    def possible(self, g: Resolution, p: int, src: int, v: Any, e: dict, info: Any) -> int:
        if isinstance(v, dict) and "each" in v:
            to = self.to
            return 1 if any(g.exh[c] != to for c in g._select(v, p, src, info)) else 0
        return 1

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        p, to = ctx.p, self.to
        cards = [c for c in g._refs(ctx, v) if g.zone[c] in (FIELD, FACTION)]
        turned = []
        for c in cards:
            if g.exh[c] == to or self.protected(g, p, c):
                continue
            g.exh[c] = to
            turned.append(c)
        if g.logs is not None:
            g._log(self.log(g, ctx, e, turned))
        return bool(cards) and len(turned) == len(cards)

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        """The cards it turned (not those already so, or protected)."""
        return f"§3.3 {g.name(ctx.src)}: {'exhausts' if self.to else 'readies'} {names(g, what)}"


class Exhaust(Turn):
    """Exhaust the cards; "cannot be exhausted by opponent" protects (§8.11)."""

    key = "exhaust"
    harmful = True
    to = 1

    def protected(self, g: Resolution, p: int, c: int) -> bool:
        return g.ctrl[c] != p and g.has_rule(c, "cannot_be_exhausted_by_opponent")


class Ready(Turn):
    """Ready the cards."""

    key = "ready"
    to = 0


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
        q = 1 - p if e.get("player") == "opponent" else p
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
        q = 1 - p if e.get("player") == "opponent" else p
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
            a = yield Decision("search", p, [("take", c) for c in cands] + [DONE], ctx.src)
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
        if g.logs is not None:
            g._log(self.log(g, ctx, e, iid))
        yield from g._enter(p, iid, "token")
        return True

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        d = g.cdef[what]
        return f"§3.8 {g.name(ctx.src)}: player {ctx.p} creates a token, {d.name} (Power {d.power})"


# ---------------------------------------------------------------- lasting effects (§8.9) and emblems (§3.5)
class ModifyPower(Lasting):
    """+N / -N Power on the cards of `who` until `until` (§8.9)."""

    key = "modify_power"

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        _check_amount(v, f"{where} {self.key}", problems)
        _check_selector(e.get("who", "self"), f"{where} {self.key}", problems)
        _check_duration(e, where, problems)

    def is_harmful(self, v: Any) -> bool:
        return isinstance(v, int) and v < 0

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        n = g._amount(v, ctx.p, ctx.src, ctx)
        until = e.get("until", "phase")
        cards = [c for c in g._refs(ctx, e.get("who", "self")) if g.zone[c] == FIELD]
        for c in cards:
            g.pmod[c] = g.pmod.get(c, 0) + n
            g.lasting.append((until, "power", c, n))
        if g.logs is not None:
            g._log(self.log(g, ctx, e, (cards, n)))
        return bool(cards)

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        cards, n = what
        return (f"§8.9 {g.name(ctx.src)}: {names(g, cards)} {'gets' if len(cards) < 2 else 'get'} {n:+d} Power "
                f"until the end of the {e.get('until', 'phase')}")


class GainKeyword(Lasting):
    """The cards of `who` gain a keyword ("Ravage (2)" keeps its X, §9) until `until`."""

    key = "gain_keyword"

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        if not parse_keyword(v)[0]:
            problems.append(f"{where}: unknown keyword {v!r}")
        _check_selector(e.get("who", "self"), f"{where} {self.key}", problems)
        _check_duration(e, where, problems)

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        bit, param = parse_keyword(v)
        until = e.get("until", "phase")
        cards = [c for c in g._refs(ctx, e.get("who", "self")) if g.zone[c] == FIELD]
        for c in cards:
            g.kgrant.setdefault(c, []).append((bit, param, until))
            g.lasting.append((until, "keyword", c, (bit, param)))
        if g.logs is not None:
            g._log(self.log(g, ctx, e, cards))
        return bool(cards)

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return (f"§9 {g.name(ctx.src)}: {names(g, what)} {'gains' if len(what) < 2 else 'gain'} "
                f"{e[self.key]} until the end of the {e.get('until', 'phase')}")


class Become(Lasting):
    """§2.2 type change: `{"become": {"type": "unit"|"location", "power": n, "icons": [...]}, "who", "until"}` —
    the cards function wholly as the new type for the duration; their printed type is unchanged."""

    key = "become"

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        if not isinstance(v, dict) or v.get("type") not in ("unit", "location") \
                or set(v) - {"type", "power", "icons"}:
            problems.append(f"{where}: become needs {{\"type\": \"unit\" or \"location\"}} (and for a unit "
                            f"optional power and icons), not {v!r}")
        elif not isinstance(v.get("power", 0), int) or isinstance(v.get("power", 0), bool) \
                or not isinstance(v.get("icons", []), list):
            problems.append(f"{where}: become's power is a number and icons a list")
        _check_selector(e.get("who", "self"), f"{where} become", problems)
        _check_duration(e, where, problems)

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        until = e.get("until", "phase")
        cards = [c for c in g._refs(ctx, e.get("who", "self")) if g.zone[c] == FIELD]
        for c in cards:
            new = g._printed(c).as_type(v["type"], v.get("power"), v.get("icons"))
            stack = g.retyped.get(c)
            if stack is None:
                stack = g.retyped[c] = [g.cdef[c]]   # the printed definition first
            stack.append(new)
            g._set_def(c, new)
            g.lasting.append((until, "type", c, new))
        if g.logs is not None:
            g._log(self.log(g, ctx, e, cards))
        return bool(cards)

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        many = len(what) > 1
        return (f"§2.2 {g.name(ctx.src)}: {names(g, what)} {'function' if many else 'functions'} as "
                f"{'' if many else 'a '}{e[self.key]['type']}{'s' if many else ''} until the end of the "
                f"{e.get('until', 'phase')}")


class TakeControl(Effect):
    """§3.2: you take control of the cards, for good or `until` the end of a phase, struggle or round (§3.7: never
    of a unique whose name you control)."""

    key = "take_control"
    harmful = True

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        _check_selector(v, f"{where} take_control", problems)
        if "until" in e:   # without one, control changes for good
            _check_duration(e, where, problems)

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        p = ctx.p
        cards = [c for c in g._refs(ctx, v) if g.zone[c] == FIELD and g.ctrl[c] != p]
        done = 0
        until = e.get("until")
        if g.logs is not None:   # before: each change writes its own §3.2 line (changes.py)
            g._log(self.log(g, ctx, e, cards))
        for c in cards:
            prev = g.ctrl[c]
            if g._change_control(c, p):
                done += 1
                if until is not None:
                    g.lasting.append((until, "control", c, prev))
        return bool(cards) and done == len(cards)

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        until = e.get("until")
        how = f"until the end of the {until}" if until is not None else "for good"
        return f"§3.2 {g.name(ctx.src)}: control of {names(g, what)} passes to player {ctx.p} {how}"


class PlaceEmblem(Effect):
    """A sorcery emblem on each card: it is blanked (§3.5, §3.6)."""

    key = "place_emblem"
    harmful = True

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        cards = [c for c in g._refs(ctx, v) if g.zone[c] == FIELD]
        for c in cards:
            g.emb[c] += 1
        g._statics_cache = None
        if g.logs is not None:
            g._log(self.log(g, ctx, e, cards))
        g._check_attachments()
        return bool(cards)

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return f"§3.5 {g.name(ctx.src)}: a sorcery emblem on {names(g, what)}: blanked"


class RemoveEmblem(Effect):
    """One sorcery emblem off each card that has one."""

    key = "remove_emblem"

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        cards = [c for c in g._refs(ctx, v) if g.zone[c] == FIELD]
        done = 0
        off = []
        for c in cards:
            if g.emb[c]:
                g.emb[c] -= 1
                done += 1
                off.append(c)
        g._statics_cache = None
        if g.logs is not None:
            g._log(self.log(g, ctx, e, off))
        g._check_attachments()
        return bool(cards) and done == len(cards)

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return f"§3.5 {g.name(ctx.src)}: a sorcery emblem off {names(g, what)}"


# ---------------------------------------------------------------- the struggle in progress (§6)
class InStruggle(Effect):
    """An effect on the struggle in progress: outside a struggle the ability cannot be initiated (§8.11)."""

    def possible(self, g: Resolution, p: int, src: int, v: Any, e: dict, info: Any) -> int:
        return 1 if g.struggle is not None else -1


class JoinStruggle(InStruggle):
    """§6.5: the units join the struggle on their controller's side (no icon, ready state or Subtle check; no
    exhausting)."""

    key = "join_struggle"

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        s = g.struggle
        if s is None:
            return False
        cards = [c for c in g._refs(ctx, v) if g.zone[c] == FIELD and g.cdef[c].is_unit]
        for c in cards:
            side = s.attackers if g.ctrl[c] == s.attacker else s.defenders
            if c not in s.attackers and c not in s.defenders:
                side.append(c)
        if g.logs is not None:
            g._log(self.log(g, ctx, e, cards))
        return bool(cards)

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return f"§6.5 {g.name(ctx.src)}: {names(g, what)} {'joins' if len(what) < 2 else 'join'} the struggle"


class RemoveFromStruggle(InStruggle):
    """§6.5: the units no longer take part in the struggle (they count for neither side)."""

    key = "remove_from_struggle"
    harmful = True

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        if g.struggle is None:
            return False
        cards = [c for c in g._refs(ctx, v) if g.zone[c] == FIELD and g.cdef[c].is_unit]
        for c in cards:
            g._drop_from_struggle(c)
        if g.logs is not None:
            g._log(self.log(g, ctx, e, cards))
        return bool(cards)

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return f"§6.5 {g.name(ctx.src)}: {names(g, what)} no longer {'takes' if len(what) < 2 else 'take'} part " \
               "in the struggle"


class ModifySpoils(InStruggle):
    """+N / -N to the struggle's spoils (§6.1: N is the attacker's quest Spoils); its value is an amount."""

    key = "modify_spoils"

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        _check_amount(v, f"{where} {self.key}", problems)

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        if g.struggle is None:
            return False
        n = g._amount(v, ctx.p, ctx.src, ctx)
        g.struggle.spoils_mod += n
        if g.logs is not None:
            g._log(self.log(g, ctx, e, n))
        return True

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return f"§6.1 {g.name(ctx.src)}: the struggle's spoils {what:+d}"


# ---------------------------------------------------------------- answers to an event (§7.3, §8.4)
class Save(Effect):
    """§7.3: a Halt ability keeps the event's card (the next one not saved yet) in play."""

    key = "save"

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        if v != "event_card":
            problems.append(f"{where}: save acts on event_card")

    def possible(self, g: Resolution, p: int, src: int, v: Any, e: dict, info: Any) -> int:
        if info is None or not any(c not in info.get("saved", ()) for c in info.get("cards", ())):
            return -1
        return 1

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        info = ctx.event or {}
        saved = info.get("saved")
        if saved is None:
            return False
        for c in info.get("cards", ()):
            if c not in saved:
                saved.add(c)
                if g.logs is not None:
                    g._log(self.log(g, ctx, e, c))
                return True
        return False

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return f"§7.3 {g.name(ctx.src)}: {g.name(what)} is saved"


class Cancel(Effect):
    """§8.4 Halt: the event (a card being played, a duplicate save) is canceled."""

    key = "cancel"

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        if v != "event":
            problems.append(f"{where}: cancel acts on event")

    def possible(self, g: Resolution, p: int, src: int, v: Any, e: dict, info: Any) -> int:
        return -1 if info is None or "cancelled" not in info else 1

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        info = ctx.event or {}
        if "cancelled" in info:
            info["cancelled"] = True
            if g.logs is not None:
                g._log(self.log(g, ctx, e, info))
            return True
        return False

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        c = what.get("card")
        event = "a duplicate save" if "cards" in what else "the play"   # resolution.py's two cancellable events
        of = f" of {g.name(c)}" if isinstance(c, int) and c >= 0 else ""
        return f"§8.4 {g.name(ctx.src)}: {event}{of} is cancelled"


# ---------------------------------------------------------------- looking, later, and the escape hatch
class Scout(Amount):
    """§9.3 Scout (X) as an effect: look at the top N of your deck, each to the top or the bottom."""

    key = "scout"
    asks = True

    def run(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> Steps:
        n = g._amount(v, ctx.p, ctx.src, ctx)
        if g.logs is not None:
            g._log(self.log(g, ctx, e, min(n, len(g.deck[ctx.p]))))
        yield from g._scout(ctx.p, n)
        return True

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return (f"§8.10 {g.name(ctx.src)}: player {ctx.p} looks at the top {n_cards(what)} of their deck, each to "
                "the top or the bottom")


class Then(Effect):
    """"then": its effects resolve only when every effect before it happened in full (§8.11)."""

    key = "then"
    nested = True

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        check_effects(v, where, problems)

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        """Written by the resolver (resolution.py `_resolve`) when the effects before it did not all happen in
        full, so its own do not resolve; when they resolve, each writes its own line."""
        return (f"§8.11 {g.name(ctx.src)}: the effects before 'then' did not all happen in full, so the ones "
                "after it do not resolve")


class Delayed(Effect):
    """§8.9 delayed effect: its effects wait for the end of this phase / struggle / round (`at`); targets and X
    stay as chosen now. They resolve after that point's lasting effects expire (§8.8)."""

    key = "delayed"

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        if e.get("at", "phase") not in DURATIONS:
            problems.append(f"{where}: a delayed effect resolves at the end of a phase, struggle or round, "
                            f"not {e.get('at')!r}")
        check_effects(v, where, problems)

    def apply(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> bool:
        at = e.get("at", "phase")
        if at == "struggle" and g.struggle is None:
            return False
        g.delayed.append((at, ctx, v))
        if g.logs is not None:
            g._log(self.log(g, ctx, e, at))
        return True

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return f"§8.9 {g.name(ctx.src)}: a delayed effect waits for the end of the {what}"


class Script(Effect):
    """The escape hatch: a Python function registered with abilities.register_script, called as fn(game, ctx)
    (a generator may ask players); it returns whether it happened in full."""

    key = "script"
    asks = True

    def check(self, v: Any, e: dict, where: str, problems: list[str]) -> None:
        if v not in SCRIPTS:
            problems.append(f"{where}: no script named {v!r}")

    def run(self, g: Resolution, ctx: Ctx, v: Any, e: dict) -> Steps:
        fn = SCRIPTS[v]
        if g.logs is not None:
            g._log(self.log(g, ctx, e, v))
        result = fn(g, ctx)
        if hasattr(result, "send"):
            result = yield from result
        return bool(result)

    def log(self, g: Resolution, ctx: Ctx, e: dict, what: Any) -> str:
        return f"§8 {g.name(ctx.src)}: the script {what!r} resolves"


# ---------------------------------------------------------------- the table
def _primitives(cls: Any) -> list[Effect]:
    """One instance of every subclass of `cls` (at any depth) that names a primitive."""
    out = []
    for sub in cls.__subclasses__():
        prim = sub()
        if prim.key:
            out.append(prim)
        out.extend(_primitives(sub))
    return out


EFFECTS: dict[str, Effect] = {prim.key: prim for prim in _primitives(Effect)}   # key -> primitive
EFFECT_KEYS = frozenset(EFFECTS)
# the keys that qualify an effect rather than name one ("who", "until", ...)
EFFECT_MODIFIERS = frozenset({"player", "on", "position", "who", "until", "zone", "to", "count", "cannot_be_saved",
                              "at"})


def primitive_of(e: dict) -> Effect:
    """The primitive an effect entry names (a checked entry names exactly one)."""
    for k in e:
        prim = EFFECTS.get(k)
        if prim is not None:
            return prim
    raise KeyError(f"no effect in {sorted(e)}")


def check_effects(effects: Any, where: str, problems: list[str]) -> None:
    """The compile check of an `effects` list: each entry names one known primitive, which checks its value."""
    if not isinstance(effects, (list, tuple)):
        problems.append(f"{where}: effects must be a list")
        return
    for e in effects:
        if not isinstance(e, dict):
            problems.append(f"{where}: an effect must be an object")
            continue
        keys = set(e) - EFFECT_MODIFIERS
        main = keys & EFFECT_KEYS
        if len(main) != 1 or keys - EFFECT_KEYS:
            problems.append(f"{where}: unknown effect {sorted(keys - EFFECT_KEYS) or sorted(e)}")
            continue
        name = main.pop()
        EFFECTS[name].check(e[name], e, where, problems)


def is_harmful(effects: Any) -> bool:
    """Whether any effect of the list harms the cards it acts on (policies aim those at the opponent)."""
    for e in effects:
        if isinstance(e, dict):
            for k in e:
                prim = EFFECTS.get(k)
                if prim is not None:
                    if prim.is_harmful(e[k]):
                        return True
                    break
    return False
