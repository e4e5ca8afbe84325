"""Action texts (CONTRACTS §6): every option of every decision printed as a short text, like a chess move in
SAN, and every printed text read back.

| decision kind | texts |
| --- | --- |
| `window`, `react` | `pass`, `play CARD` (a card or a deed), `secret CARD`, `reveal CARD`, `haste CARD`, `use CARD [N]`, `struggle TYPE` |
| `mulligan` (§4) | `keep`, `mulligan` |
| `setup` (§4) | `place CARD [on HOST]`, `hide CARD`, `done`; `setup_host`: `place CARD on HOST` |
| `quest`, `first_player` (§5.1) | `quest CARD`, `first P` |
| `host` (§10.3) | `play CARD on HOST` |
| `attackers` (S.3) | `attack CARD ...` (`done` once some are declared one by one) |
| `subtle` (§9.1) | `bar CARD`, `bar none` |
| `defenders` (S.6) | `defend CARD ...`, `defend none` |
| `kill_own` (Combat spoils, Ruthless) | `kill CARD ...` |
| `emblem` (Sorcery spoils), `refresh_emblem` (§5.6) | `emblem CARD ...` |
| `toll_discard` (§5.7), `discard_choice` | `discard CARD ...` |
| `onwin` (§9.2), `dup_save` (§7.3) | `yes`, `no` |
| `compel` (§9.2) | `target CARD`, `no` (one decision: the unit to exhaust, or none) |
| `target`, `cost` (a card that pays a cost), `search` | `target CARD ...`, `done`; a cost that discards: `discard CARD` |
| `x` (§8.7) | `x N` |
| `scout` (§9.3) | `top CARD`, `bottom CARD` |

CARD is the card's label (a position's `"id"`), else its code when no other card the decision can name has that
code in a different state, else the code with its ordinal among that decision's cards of that code, in the
order of its options (`core-020.2`).
Copies alike (same code, zone, controller, exhaustion, emblems, counters, host; on the field also the same
attachments, Power and keywords) are one option. A listing of
several cards (`attack a b`) is one action: the engine's one-card decisions are answered in turn.
"""
from __future__ import annotations

from typing import Any

from .cards import STRUGGLE_TYPES
from .game import CONTINUE, DONE, FIELD, NO, PASS, YES, Decision, Game, IllegalAction

# the decisions answered one card at a time that a text answers with a whole listing: kind -> (verb, step)
_LISTS = {"attackers": ("attack", "attacker"), "defenders": ("defend", "defender"), "kill_own": ("kill", "kill"),
          "emblem": ("emblem", "emblem"), "refresh_emblem": ("emblem", "emblem"),
          "toll_discard": ("discard", "discard"), "discard_choice": ("discard", "discard"),
          "target": ("target", "target"), "search": ("target", "take")}


def _alike_key(g: Game, iid: int) -> tuple:
    # on the field, what a card bears and what modifies it count too: a Hound with a Crown attached (Power 3)
    # and a bare one (Power 2) are two options, so "attack hound.2" names the same card in every game laid
    # out alike (a sandbox opened from a replay step) instead of whichever copy comes first
    more: tuple = ()
    if g.zone[iid] == FIELD:
        atts = tuple(sorted(_alike_key(g, a) for a, h in g.host.items() if h == iid)) if g.host else ()
        more = (atts, g.power(iid) if g.cdef[iid].is_unit else 0, g.kw(iid))
    return (g.cdef[iid].code, g.zone[iid], g.ctrl[iid], g.exh[iid], g.emb[iid], g.cnt[iid], g.host.get(iid, -1),
            len(g.dups.get(iid, ())), more)


def _cards_of(dec: Decision) -> list[int]:
    out: list[int] = []
    for o in dec.options:
        if len(o) >= 2 and o[0] not in ("struggle", "first", "x") and isinstance(o[1], int):
            out.append(o[1])
    return out


def names_for(g: Game, cards: list[int]) -> dict[int, str]:
    """How each of these cards is named in the texts of one decision (see the module docstring)."""
    by_code: dict[str, set] = {}
    # each card's place among its code's cards (1, 2, ...): a dict, so that naming n copies of one code stays
    # linear (a list's `in` and `index` made it quadratic, and a decision over hundreds of copies took seconds)
    order: dict[str, dict[int, int]] = {}
    for i in cards:
        code = g.cdef[i].code
        by_code.setdefault(code, set()).add(_alike_key(g, i))
        seq = order.setdefault(code, {})
        if i not in seq:
            seq[i] = len(seq) + 1
    out = {}
    for i in cards:
        lab = g.labels.get(i)
        code = g.cdef[i].code
        if lab is not None:
            out[i] = lab
        elif len(by_code[code]) == 1:
            out[i] = code
        else:
            out[i] = f"{code}.{order[code][i]}"
    return out


def _accepted_names(g: Game, iid: int, cards: list[int]) -> set[str]:
    """Every name a text may use for this card in this decision: its name there, its label, its code when
    every card of that code the decision names is alike."""
    names = {names_for(g, cards if iid in cards else [*cards, iid])[iid]}
    lab = g.labels.get(iid)
    if lab is not None:
        names.add(lab)
    code = g.cdef[iid].code
    if len({_alike_key(g, j) for j in cards if g.cdef[j].code == code}) <= 1:
        names.add(code)
    return names


def _ability_number(g: Game, iid: int, idx: int) -> str:
    return f" {idx + 1}" if len(g.cdef[iid].abilities) > 1 else ""


def action_text(g: Game, action: Any, dec: Decision | None = None) -> str:
    """The text of one option of the pending decision (or of `dec`)."""
    dec = dec if dec is not None else g.pending
    if dec is None:
        raise IllegalAction("the game is over: no decision is pending")
    names = names_for(g, _cards_of(dec))
    return _text(g, dec, tuple(action), names)


def _text(g: Game, dec: Decision, a: tuple, names: dict[int, str]) -> str:
    k = dec.kind
    if a == PASS:
        return "pass"
    if a == CONTINUE:
        return "continue"
    if k == "mulligan":
        return "mulligan" if a == YES else "keep"
    if a == YES:
        return "yes"
    if a == NO:
        return "bar none" if k == "subtle" else "no"
    if a == DONE:
        return "defend none" if k == "defenders" else "done"
    verb = a[0]
    if verb == "struggle":
        return f"struggle {STRUGGLE_TYPES[a[1]]}"
    if verb == "first":
        return f"first {a[1]}"
    if verb == "x":
        return f"x {a[1]}"
    c = names.get(a[1], "?")
    if k in _LISTS:
        return f"{_LISTS[k][0]} {c}"
    if verb == "ability":
        return f"use {c}{_ability_number(g, a[1], a[2])}"
    if verb == "deed":
        return f"play {c}"
    if verb == "host":
        att = dec.info if isinstance(dec.info, int) else -1
        an = g.labels.get(att) or g.cdef[att].code if att >= 0 else "?"
        return f"{'place' if k == 'setup_host' else 'play'} {an} on {c}"
    if verb == "pick":
        return f"discard {c}" if dec.info == "discard" else f"target {c}"
    if verb == "exhaust":
        return f"target {c}"
    if verb == "bar":
        return f"bar {c}"
    return f"{verb} {c}"   # play, secret, reveal, haste, place, hide, quest, top, bottom


def option_texts(g: Game, dec: Decision | None = None) -> list[str]:
    """The options of the pending decision as texts, alike copies once, in the engine's order."""
    dec = dec if dec is not None else g.pending
    if dec is None:
        return []
    names = names_for(g, _cards_of(dec))
    out: list[str] = []
    for o in dec.options:
        t = _text(g, dec, o, names)
        if t not in out:
            out.append(t)
    return out


def parse_text(g: Game, text: str, dec: Decision | None = None) -> list[tuple]:
    """The engine actions a text stands for at the pending decision: one action, or for a listing one per card
    (then `done` where the decision offers it), or for `play/place CARD on HOST` the play and then its host.
    IllegalAction, naming the options, when the text is not one of them."""
    dec = dec if dec is not None else g.pending
    if dec is None:
        raise IllegalAction(f"{text!r}: the game is over")
    words = text.split()
    if not words:
        raise IllegalAction(f"an empty action; the options: {', '.join(option_texts(g, dec))}")
    cards = _cards_of(dec)
    names = names_for(g, cards)

    def bad() -> IllegalAction:
        return IllegalAction(f"{text!r} is not an option of this {dec.kind} decision (player {dec.player}); "
                             f"the options: {', '.join(option_texts(g, dec))}")

    # a listing of several cards
    if dec.kind in _LISTS and words[0] == _LISTS[dec.kind][0] and len(words) > 1 \
            and not (dec.kind == "defenders" and words[1:] == ["none"]):
        step = _LISTS[dec.kind][1]
        cands = [o[1] for o in dec.options if o[0] == step]
        left = list(cands)
        picks = []
        for w in words[1:]:
            pool = left if dec.kind not in ("emblem",) else cands   # two Sorcery emblems may go on one card
            hit = next((i for i in pool if w in _accepted_names(g, i, cards)), None)
            if hit is None:
                raise bad()
            picks.append((step, hit))
            if hit in left:
                left.remove(hit)
        return picks
    # one option (texts of this decision, every accepted name of its card)
    on = None
    if len(words) == 4 and words[2] == "on" and words[0] in ("play", "place"):
        on = words[3]
        words = words[:2]
    want = " ".join(words)
    for o in dec.options:
        t = _text(g, dec, o, names)
        if t == want or (len(o) >= 2 and isinstance(o[1], int) and o[0] not in ("struggle", "first", "x")
                         and _matches(g, dec, o, words, cards, names)):
            if on is not None:
                if o[0] == "host":
                    break
                return [o, ("host", on)]    # the host is named once its decision comes (resolved then)
            return [o]
    if on is not None and dec.kind in ("host", "setup_host"):
        for o in dec.options:
            if on in _accepted_names(g, o[1], cards) and words[1] in _accepted_names(g, dec.info, [dec.info]):
                return [o]
    if dec.kind in ("host", "setup_host") and len(words) == 2 and words[0] == "on":
        for o in dec.options:
            if words[1] in _accepted_names(g, o[1], cards):
                return [o]
    raise bad()


def _matches(g: Game, dec: Decision, o: tuple, words: list[str], cards: list[int], names: dict[int, str]) -> bool:
    t = _text(g, dec, o, names).split()
    if len(t) != len(words) or len(t) < 2 or t[0] != words[0]:
        return False
    if t[2:] != words[2:]:
        return False
    return words[1] in _accepted_names(g, o[1], cards)


def apply_text(g: Game, text: str) -> list[str]:
    """Apply a text at the pending decision (Game.apply_action(str) comes here). Returns the texts of the engine
    actions it made, in order. Nothing changes when the text is not an option (IllegalAction)."""
    dec = g.pending
    steps = parse_text(g, text, dec)
    assert dec is not None
    done: list[str] = []
    kind, player = dec.kind, dec.player
    for n, st in enumerate(steps):
        if st[0] == "host" and isinstance(st[1], str):
            d = g.pending
            if d is None or d.kind not in ("host", "setup_host") or d.player != player:
                g.queued.append((player, st[1]))   # its decision comes later (after a Halt window)
                break
            hosts = [o[1] for o in d.options]
            hit = next((h for h in hosts if st[1] in _accepted_names(g, h, hosts)), None)
            if hit is None:
                raise IllegalAction(f"{text!r}: {st[1]} is not a legal host; the options: "
                                    f"{', '.join(option_texts(g, d))}")
            st = ("host", hit)
        elif n > 0 and (g.pending is None or g.pending.kind != kind or g.pending.player != player):
            break   # the engine took the rest by itself (e.g. the last units to kill)
        done.append(action_text(g, st))
        g.apply_action(st)
    if kind in _LISTS:   # a listing is the whole declaration / choice: `attack a` declares a alone
        d = g.pending
        if d is not None and d.kind == kind and d.player == player and DONE in d.options:
            done.append("done")
            g.apply_action(DONE)
    return done
