"""A realms game played again with a frame per decision: the board as both players see it in public (002 §3), the
log lines since the last frame and the choice about to be made (for r1's replay viewer).

Games are reproducible: `sim.run_chunk` gives game g of a run the g-th seed drawn from its chunk's
`random.Random(chunk_seed(run seed, chunk))`, and head-to-head games alternate the first player (g % 2), so
`game_args(spec, g)` finds the same arguments and `replay_game` plays the same game as the run did (a test compares
its outcome with play_game's). Pure Python, no Django import.

A board holds only public information (R29: nothing of a hand, a deck's order or the set-aside cards but their
counts): both Leaders, the Places on their grid cells with which sides touch another card and which are exposed
(R1, R2), Borderlands and Strike Force warriors with their CV now, Tactics, type, Equipment and Group, the Rituals,
Reserves (Gold), VP and the zones' sizes, and the fight under way.
"""
from __future__ import annotations

import random
from typing import Any

from .cards import RESOURCES, TACTIC_ORDER, WARRIOR_TYPES, CardDef, Deck
from .game import (
    G_OFFENSIVE, STEP_NAMES, Z_ASIDE, Z_BORDER, Z_DECK, Z_DISCARD, Z_HAND, Z_RITUAL, Z_SETTLE, Z_STRIKE, Game,
    cell_xy,
)

MAX_FRAMES = 3000
TACTIC_SHORT = {1: "L", 2: "F", 4: "R"}
TACTIC_LONG = {1: "Left Flank", 2: "Front", 4: "Right Flank"}
STEP_TITLES = {"leader": "Setup: Leaders", "mulligan": "Setup: Gift of Fate", "turn_start": "Start of turn",
               "draw": "Draw", "actions": "Actions", "balancing_start": "Resource Balancing",
               "balancing": "Resource Balancing", "attack": "Attack", "raid": "Raid", "end": "End of turn"}
STEP_RULES = {"leader": "002 §8", "mulligan": "002 §8", "turn_start": "R14", "draw": "002 §9", "actions": "002 §10",
              "balancing_start": "002 §12", "balancing": "002 §12", "attack": "002 §13", "raid": "002 §14",
              "end": "R14"}


class ReplayError(ValueError):
    """A game that cannot be replayed (not in the run, or an engine that changed since)."""


def game_args(spec: dict, index: int) -> dict:
    """The arguments `sim.run_chunk` gave game `index` of the run `spec`."""
    from . import sim
    mode = spec.get("mode")
    if mode not in sim.MODES:
        raise ReplayError("only goldfish and head-to-head games can be replayed")
    games = int(spec["games"])
    if not isinstance(index, int) or not 0 <= index < games:
        raise ReplayError(f"game {index + 1 if isinstance(index, int) else index} is not in this run "
                          f"(it played {games} games)")
    st = spec.get("settings") or {}
    seed = 0
    for chunk, start, size in sim.chunk_plan(mode, games, st):
        if start <= index < start + size:
            rng = random.Random(sim.chunk_seed(spec["seed"], chunk))
            for _ in range(index - start + 1):
                seed = rng.getrandbits(63)
            break
    return {"seed": seed, "first_player": index % 2 if mode == "versus" else None,
            "policies": (str(st.get("policy", "greedy")),
                         str(st.get("opponent_policy", "greedy")) if mode == "versus" else "greedy"),
            "max_rounds": int(st.get("max_rounds", sim.DEFAULT_MAX_ROUNDS)), "fmt": st.get("format", "standard")}


# ---- the board ----------------------------------------------------------------------------------------------
def _tactics(bits: int) -> list[str]:
    return [TACTIC_SHORT[t] for t in TACTIC_ORDER if bits & t]


def _res(icons: tuple) -> list[dict]:
    return [{"name": RESOURCES[r], "n": icons[r]} for r in range(4) if icons[r]]


def _card(g: Game, i: int) -> dict:
    d: CardDef = g.cdef[i]
    prov, cons = g.icons(i)
    out: dict[str, Any] = {"id": i, "code": d.code, "name": d.name, "cv": g.cv(i), "base_cv": d.cv,
                           "tactics": _tactics(g.tactics(i)), "provides": _res(prov), "consumes": _res(cons),
                           "attachments": [g.cdef[a].name for a in g.atts.get(i, ())]}
    if d.is_warrior:
        out["type"] = WARRIOR_TYPES[d.wtype].title() if d.wtype >= 0 else ""
        gid = g.group[i]
        if gid:
            kind, _, members = g.groups[gid]
            out["group"] = {"kind": "offensive" if kind == G_OFFENSIVE else "defensive", "id": gid,
                            "size": len(members)}
        out["moved"] = g.moved_t[i] == g.turn
        out["attacked"] = g.attacked_t[i] == g.turn
    return out


def _settlement(g: Game, p: int) -> dict:
    """The grid (R1): rows of cells from the top, each a card or None, with the sides touching another card."""
    grid = g.grid[p]
    cells = {cell_xy(c): q for c, q in grid.items()}
    if not cells:
        return {"rows": [], "width": 0}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    rows = []
    for y in range(y1, y0 - 1, -1):   # north up
        row: list[dict | None] = []
        for x in range(x0, x1 + 1):
            q = cells.get((x, y))
            if q is None:
                row.append(None)
                continue
            c = _card(g, q)
            sides = {"n": (x, y + 1) in cells, "s": (x, y - 1) in cells, "e": (x + 1, y) in cells,
                     "w": (x - 1, y) in cells}
            d = g.cdef[q]
            c.update({"x": x, "y": y, "leader": d.is_leader, "sides": sides, "neighbours": sum(sides.values()),
                      "nc": d.nc, "supplied": bool(g.supplied[q]) or d.is_leader,
                      "exposed": not d.is_leader and not all(sides.values())})
            row.append(c)
        rows.append(row)
    return {"rows": rows, "width": x1 - x0 + 1}


def board_of(g: Game) -> dict:
    """The public board of g (module docstring): JSON-able."""
    players = []
    for p in (0, 1):
        zs = g.z[p]
        goldfish = g.decks[p] is None
        lead = g.leader[p]
        players.append({
            "goldfish": goldfish, "vp": g.vp[p], "reserve": g.reserve[p],
            "leader": _card(g, lead) if lead >= 0 else None,
            "settlement": _settlement(g, p),
            "places": len(zs[Z_SETTLE]) - (1 if lead >= 0 else 0),
            "borderlands": [_card(g, w) for w in zs[Z_BORDER]],
            "strike_force": [_card(g, w) for w in zs[Z_STRIKE]],
            "rituals": [g.cdef[i].name for i in zs[Z_RITUAL]],
            "hand": len(zs[Z_HAND]), "deck": len(zs[Z_DECK]), "discard": len(zs[Z_DISCARD]),
            "set_aside": len(zs[Z_ASIDE]), "turns": g.turns_taken[p],
        })
    step = STEP_NAMES[g.step] if 0 <= g.step < len(STEP_NAMES) else "end"
    cb = g.cb
    fight = None
    if cb is not None:
        fight = {"raid": cb.raid, "attacker": cb.attacker, "tactic": TACTIC_LONG.get(cb.tactic, ""),
                 "att": [g.cdef[i].name for i in cb.att], "dfn": [g.cdef[i].name for i in cb.dfn],
                 "att_cv": g.side_cv(cb.att, list(cb.mods[cb.attacker])),
                 "dfn_cv": g.side_cv(cb.dfn, list(cb.mods[1 - cb.attacker]))}
    return {"turn": g.turn, "round": g.round, "step": step, "step_title": STEP_TITLES.get(step, step),
            "step_rule": STEP_RULES.get(step, ""), "active": g.active, "first": g.first, "target_vp": g.target_vp,
            "over": g.over, "winner": g.winner, "players": players, "fight": fight}


# ---- replaying ------------------------------------------------------------------------------------------------
def replay_game(deck_a: Deck, deck_b: Deck | None, *, seed: int, first_player: int | None,
                policies: tuple = ("greedy", "greedy"), fmt: str = "standard", max_rounds: int = 50) -> dict:
    """Play the game again (as play_game does) and return {"frames", "winner", "reason", "rounds", "vp",
    "first_player", "seed"}. A frame: {"board", "lines" (log lines since the last frame), "actor", "action"
    (the text of the choice made at this frame), "turn", "round", "step"}."""
    from . import _policy_seed, make_policy
    pols = [make_policy(x, _policy_seed(seed, k)) if isinstance(x, str) else x for k, x in enumerate(policies)]
    g = Game(deck_a, deck_b, seed=seed, first_player=first_player, fmt=fmt, max_rounds=max_rounds, log=True)
    views = [g.view(0), g.view(1)]
    frames: list[dict] = []
    seen = 0

    def snap(actor: int | None, action: str | None) -> None:
        nonlocal seen
        logs = g.logs or []
        new = logs[seen:]
        seen = len(logs)
        if len(frames) >= MAX_FRAMES:
            return
        b = board_of(g)
        frames.append({"board": b, "lines": list(new), "actor": actor, "action": action, "turn": b["turn"],
                       "round": b["round"], "step": b["step"]})

    while not g.over:
        dec = g.pending
        assert dec is not None
        a = pols[dec.player].choose(views[dec.player], dec)
        snap(dec.player, g.action_text(a))
        g.apply_action(a)
    snap(None, None)
    return {"frames": frames, "winner": g.winner, "reason": g.reason or "stalemate", "rounds": g.round,
            "vp": list(g.vp), "first_player": g.first, "seed": seed, "truncated": len(frames) >= MAX_FRAMES}


def step_targets(frames: list[dict], step: int) -> dict:
    """Where each stepping control goes from `step`: one decision back and forward, the previous and next turn,
    the first and the last frame."""
    n = len(frames)
    starts = [i for i in range(n) if i == 0 or frames[i]["turn"] != frames[i - 1]["turn"]]
    return {"prev": step - 1 if step > 0 else None, "next": step + 1 if step < n - 1 else None,
            "first": 0, "last": n - 1,
            "prev_turn": max((i for i in starts if i < step), default=None),
            "next_turn": min((i for i in starts if i > step), default=None)}
