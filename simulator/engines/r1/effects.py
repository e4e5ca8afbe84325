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

The primitives that move cards between zones are in effects_zones.py, the base class and `Ctx` in effect_base.py;
this module has the others and the table, which imports them all.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import effects_zones  # noqa: F401  (its primitives join the table below)
from .abilities import DURATIONS, SCRIPTS, _check_amount, _check_duration, _check_selector
from .cards import parse_keyword
from .effect_base import Amount, Ctx, Effect, Lasting, Steps, n_cards, names
from .state import FACTION, FIELD

if TYPE_CHECKING:
    from .resolution import Resolution

__all__ = ["Ctx", "Effect", "EFFECTS", "EFFECT_KEYS", "EFFECT_MODIFIERS", "check_effects", "is_harmful", "primitive_of"]


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
