"""Action texts (CONTRACTS §6): how an option is printed (`action_text`) and read back (`parse_action`), card
labels and names."""
from __future__ import annotations

from typing import Any, TYPE_CHECKING

from .cards import (
    TACTIC_NAMES, TACTIC_BITS,
)
from .state import (
    Z_BORDER, Z_STRIKE, A_LEADER, A_KEEP, A_MULLIGAN, A_BUILD, A_CELL, A_RECRUIT, A_MOVE, A_PLAY, A_USE, A_DISCARD,
    A_GROUP, A_DONE, A_PASS, A_ATTACK, A_RAID, A_REWARD, A_PAY, A_PAY_ALL, A_TARGET, A_TAKE, A_KILL, A_YES, A_NO,
    REWARDS, G_OFFENSIVE, G_DEFENSIVE, IllegalAction, Decision, cell_of, cell_xy,
)

if TYPE_CHECKING:
    from .game import Game


# =================================================================================================
# validation of listings (a raid party, a Group: any legal subset of a printed option)
def legal_listing(g: Game, dec: Decision, a: Any) -> bool:
    if not isinstance(a, tuple) or not a:
        return False
    if a[0] == A_RAID and dec.kind == "raid" and len(a) == 4:
        party = a[3]
        if not party or len(set(party)) != len(party):
            return False
        for o in dec.options:
            if o[0] == A_RAID and o[1] == a[1] and o[2] == a[2] and set(party) <= set(o[3]):
                return True
        return False
    if a[0] == A_GROUP and dec.kind == "actions" and len(a) == 3:
        members = a[2]
        if len(members) < 2 or len(set(members)) != len(members):
            return False
        for o in dec.options:
            if o[0] == A_GROUP and o[1] == a[1] and set(members) <= set(o[2]):
                return True
        return False
    return False


# =================================================================================================
# texts: actions printed and read back (CONTRACTS §6 style)
def nameable(g: Game, dec: Decision) -> dict:
    codes = dec._codes
    if codes is None:
        ids: set[int] = set()
        for o in dec.options:
            for x in o[1:]:
                if isinstance(x, tuple):
                    ids.update(x)
            ids.update(option_cards(g, o))
        codes = {}
        for i in ids:
            c = g.cdef[i].code
            codes[c] = codes.get(c, 0) + 1
        dec._codes = codes
    return codes


def option_cards(g: Game, o: tuple) -> list[int]:
    k = o[0]
    if k in (A_BUILD, A_MOVE, A_DISCARD, A_PAY, A_TARGET, A_TAKE, A_KILL, A_LEADER):
        return [o[1]]
    if k == A_RECRUIT:
        return [o[1]]
    if k == A_PLAY:
        return [o[1]] + ([o[2]] if o[2] >= 0 else [])
    if k == A_USE:
        return [o[1]]
    if k == A_RAID:
        return [o[1]] + list(o[3])
    if k == A_ATTACK:
        return list(o[1]) + list(o[2])
    if k == A_GROUP:
        return list(o[2])
    return []


def card_name(g: Game, i: int, codes: dict | None = None) -> str:
    code = g.cdef[i].code
    if codes is not None and codes.get(code, 0) == 1:
        return code
    return g.labels[i]


def safe_text(g: Game, a: Any) -> str:
    try:
        return repr(action_text(g, a))
    except Exception:   # noqa: BLE001 - an unprintable action is itself the error
        return repr(a)


def action_text(g: Game, a: Any) -> str:
    """The short text of an action: `build fb-001`, `at 1,0`, `recruit fb-013 strike`, `attack a b+c front`,
    `raid fb-003 left x+y`, `pay all`, `reward vp`, ... (docs/games/realms.md, "Actions")."""
    dec = g.pending
    codes = nameable(g, dec) if dec is not None else None

    def nm(i: int) -> str:
        return card_name(g, i, codes)

    def grp(ws: tuple) -> str:
        return "+".join(nm(w) for w in ws)

    k = a[0]
    if k == A_LEADER:
        return f"leader {g.cdef[a[1]].code}"
    if k == A_KEEP:
        return "keep"
    if k == A_MULLIGAN:
        return "mulligan"
    if k == A_BUILD:
        return f"build {nm(a[1])}"
    if k == A_CELL:
        x, y = cell_xy(a[1])
        return f"at {x},{y}"
    if k == A_RECRUIT:
        return f"recruit {nm(a[1])} {'borderlands' if a[2] == Z_BORDER else 'strike'}"
    if k == A_MOVE:
        return f"move {nm(a[1])}"
    if k == A_PLAY:
        return f"play {nm(a[1])}" + (f" on {nm(a[2])}" if a[2] >= 0 else "")
    if k == A_USE:
        d = g.cdef[a[1]]
        return f"use {nm(a[1])}" + (f" {a[2] + 1}" if len(d.abilities) > 1 else "")
    if k == A_DISCARD:
        return f"discard {nm(a[1])}"
    if k == A_GROUP:
        return f"group {'offensive' if a[1] == G_OFFENSIVE else 'defensive'} {grp(a[2])}"
    if k == A_DONE:
        return "done"
    if k == A_PASS:
        return "pass"
    if k == A_ATTACK:
        return f"attack {grp(a[1])} {grp(a[2])} {TACTIC_NAMES[a[3]]}"
    if k == A_RAID:
        tgt = "leader" if g.cdef[a[1]].is_leader else nm(a[1])
        return f"raid {tgt} {TACTIC_NAMES[a[2]]} {grp(a[3])}"
    if k == A_REWARD:
        return f"reward {REWARDS[a[1]]}"
    if k == A_PAY:
        return f"pay {nm(a[1])}"
    if k == A_PAY_ALL:
        return "pay all"
    if k == A_TARGET:
        return f"target {nm(a[1])}"
    if k == A_TAKE:
        return f"take {nm(a[1])}"
    if k == A_KILL:
        return f"kill {nm(a[1])}"
    if k == A_YES:
        return "yes"
    if k == A_NO:
        return "no"
    raise IllegalAction(f"not an action: {a!r}")


def parse_action(g: Game, text: str) -> tuple:
    """Read an action text back (every text action_text prints, plus any legal raid party or Group listing).
    Cards are named by label, or by code when one card with that code can be named here."""
    dec = g.pending
    if dec is None:
        raise IllegalAction("the game is over: no action is due")
    words = text.split()
    if not words:
        raise IllegalAction("an empty action")
    verb = words[0].lower()
    args = words[1:]
    simple = {"keep": (A_KEEP,), "mulligan": (A_MULLIGAN,), "done": (A_DONE,), "pass": (A_PASS,),
              "yes": (A_YES,), "no": (A_NO,)}
    if verb in simple and not args:
        return simple[verb]
    if verb == "pay" and args == ["all"]:
        return (A_PAY_ALL,)
    cands = nameable_ids(g, dec)
    used: list[int] = []

    def card(tok: str, pool: list[int] | None = None) -> int:
        return resolve(g, tok, cands if pool is None else pool, used, dec)

    def tactic(tok: str) -> int:
        if tok.lower() not in TACTIC_BITS:
            raise IllegalAction(f"{tok!r} is not a Tactic: left, front or right")
        return TACTIC_BITS[tok.lower()]

    try:
        if verb == "leader" and len(args) == 1:
            for o in dec.options:
                if o[0] == A_LEADER and (g.cdef[o[1]].code == args[0] or g.labels[o[1]] == args[0]):
                    return o
            raise IllegalAction(f"{args[0]} is not one of this player's Leaders")
        if verb == "at" and len(args) == 1:
            x, _, y = args[0].partition(",")
            return (A_CELL, cell_of(int(x), int(y)))
        if verb == "build" and len(args) == 1:
            return (A_BUILD, card(args[0]))
        if verb == "recruit" and len(args) == 2:
            zone = {"borderlands": Z_BORDER, "strike": Z_STRIKE, "strike_force": Z_STRIKE}.get(args[1].lower())
            if zone is None:
                raise IllegalAction(f"{args[1]!r} is not a zone to recruit into: borderlands or strike")
            return (A_RECRUIT, card(args[0]), zone)
        if verb == "move" and len(args) == 1:
            return (A_MOVE, card(args[0]))
        if verb == "play" and len(args) in (1, 3):
            i = card(args[0])
            if len(args) == 3:
                if args[1].lower() != "on":
                    raise IllegalAction("write 'play CARD on HOST'")
                return (A_PLAY, i, card(args[2]))
            return (A_PLAY, i, -1)
        if verb == "use" and len(args) in (1, 2):
            i = card(args[0])
            n = int(args[1]) - 1 if len(args) == 2 else next(
                (o[2] for o in dec.options if o[0] == A_USE and o[1] == i), 0)
            return (A_USE, i, n)
        if verb == "discard" and len(args) == 1:
            return (A_DISCARD, card(args[0]))
        if verb == "group" and len(args) == 2:
            kind = {"offensive": G_OFFENSIVE, "defensive": G_DEFENSIVE}.get(args[0].lower())
            if kind is None:
                raise IllegalAction("write 'group offensive A+B' or 'group defensive A+B'")
            members = tuple(sorted(card(t) for t in args[1].split("+")))
            for o in dec.options:
                if o[0] == A_GROUP and o[1] == kind and tuple(sorted(o[2])) == members:
                    return o
            return (A_GROUP, kind, members)
        if verb == "attack" and len(args) == 3:
            a = tuple(card(t) for t in args[0].split("+"))
            d = tuple(card(t) for t in args[1].split("+"))
            t = tactic(args[2])
            for o in dec.options:
                if o[0] == A_ATTACK and set(o[1]) == set(a) and set(o[2]) == set(d) and o[3] == t:
                    return o
            return (A_ATTACK, a, d, t)
        if verb == "raid" and len(args) == 3:
            p = dec.player
            if args[0].lower() == "leader":
                tgt = g.leader[1 - p]
            else:
                tgt = card(args[0])
            t = tactic(args[1])
            party = tuple(sorted(card(x) for x in args[2].split("+")))
            for o in dec.options:
                if o[0] == A_RAID and o[1] == tgt and o[2] == t and tuple(sorted(o[3])) == party:
                    return o
            return (A_RAID, tgt, t, party)
        if verb == "reward" and len(args) == 1 and args[0].lower() in REWARDS:
            return (A_REWARD, REWARDS.index(args[0].lower()))
        if verb == "pay" and len(args) == 1:
            return (A_PAY, card(args[0]))
        if verb in ("target", "take", "kill") and len(args) == 1:
            return ({"target": A_TARGET, "take": A_TAKE, "kill": A_KILL}[verb], card(args[0]))
    except ValueError as exc:
        if isinstance(exc, IllegalAction):
            raise
        raise IllegalAction(f"cannot read {text!r}: {exc}") from None
    raise IllegalAction(f"cannot read {text!r} as a {dec.kind} action; options: "
                        + ", ".join(action_text(g, o) for o in dec.options[:12]))


def nameable_ids(g: Game, dec: Decision) -> list[int]:
    ids: list[int] = []
    for o in dec.options:
        for i in option_cards(g, o):
            if i not in ids:
                ids.append(i)
    return ids


def warriors(g: Game, p: int) -> list[int]:
    return g.z[p][Z_BORDER] + g.z[p][Z_STRIKE]


def resolve(g: Game, tok: str, pool: list[int], used: list[int], dec: Decision) -> int:
    for i in pool:
        if g.labels[i] == tok:
            used.append(i)
            return i
    same = [i for i in pool if g.cdef[i].code == tok and i not in used]
    if not same:
        raise IllegalAction(f"{tok!r} names no card this {dec.kind} decision can name")
    used.append(same[0])
    return same[0]


def dedupe_hand(g: Game, ids: list[int], kind: int) -> list:
    """Alike cards (same card, same hidden zone) are one option (CONTRACTS §6)."""
    out: list = []
    seen_defs: set[int] = set()
    for i in ids:
        key = id(g.cdef[i])
        if key not in seen_defs:
            seen_defs.add(key)
            out.append((kind, i))
    return out


def names(g: Game, ids: Any) -> str:
    return " + ".join(g.cdef[i].name for i in ids)
