"""Realms positions: a game state as JSON, printed and loaded (like python-chess's fen()/set_fen()).

A position describes a game at a step of a turn (docs/games/realms-engine.md, "Positions"):

```json
{"game": "realms", "format": "standard", "seed": 1, "random_events": 0, "turn": 5, "step": "actions",
 "first_player": 0, "active_player": 0, "turns_taken": [3, 2], "target_vp": 50, "max_rounds": 50,
 "players": [
  {"leader": {"card": "fb-048", "id": "ysolde", "attachments": ["fb-046"]}, "leaders_out": ["fb-049"],
   "reserve": 5, "vp": 0, "hand": ["fb-001"], "deck": ["fb-013"], "discard": [], "set_aside": [],
   "annihilated": [], "vp_pile": [],
   "settlement": [{"card": "fb-001", "id": "farm", "at": [1, 0]}],
   "borderlands": [{"card": "fb-014", "id": "pikes", "moved": false, "attacked": false, "recruited": false,
                    "attachments": [{"card": "fb-026", "id": "sword"}]}],
   "strike_force": [], "rituals": [], "groups": [{"kind": "defensive", "members": ["pikes", "archers"]}]},
  {"goldfish": true}]}
```

- `step`: `turn_start` (the active player's turn has not begun: loading runs its start, draw and Actions),
  `actions`, `balancing`, `attack`, `raid`. `deck` lists the top card first. `seed` and `random_events` (how many
  random events — shuffles, random discards — the game has had) drive every random event after loading (each one
  a `random.Random` seeded from the seed and its number), so a printed position plays on as the game did.
- A zone entry is a card code or `{"card": CODE, "id": LABEL, ...}`; a label names one card in actions and logs
  (by default `CODE#k`). `vp` is the player's total; the VP pile's printed CVs count in it (the rest are tokens).
- A player `{"goldfish": true}` is the goldfish opponent (a Leader and nothing else).
- A position that names an unknown code or breaks a rule of the state — a Leader in a hand, a Place in the
  Borderlands, an Equipment with no Warrior, two Weapons on one Warrior, a unique twice in play, two Places on one
  cell, a Neighbor Count exceeded, a Group of one, a negative Reserve, a player already past the VP to win — is
  refused with a `PositionError` naming the player, the zone and the card; nothing is built.
"""
from __future__ import annotations

from typing import Any

from .cards import (
    DUR_CODES, GOLDFISH_LEADER, IK_EQUIPMENT, IK_HARMONY, IK_PROPHECY, IK_RITUAL, KW_WORTHY, MODE_CODES, RULE_CODES, RULES, TACTIC_BITS, TACTIC_NAMES, TACTIC_ORDER, CardDef, CvMod, Deck,
    DeckError, card_def,
)
from . import abilities, settlement
from .game import (
    CELL0, G_DEFENSIVE, G_OFFENSIVE, ST_ACTIONS, ST_ATTACK, ST_BAL_START, ST_BALANCE, ST_RAID, ST_TURN_START,
    TE_CV, TE_RULE, TE_TACTIC, Z_ANNIH, Z_ASIDE, Z_ATTACHED, Z_BORDER, Z_DECK, Z_DISCARD, Z_HAND, Z_OUT, Z_RITUAL,
    Z_SETTLE, Z_STRIKE, Z_VP, Game, PositionError, TmpEff, cell_of, cell_xy, default_labels,
)

STEPS = {"turn_start": ST_TURN_START, "actions": ST_ACTIONS, "balancing": ST_BAL_START, "attack": ST_ATTACK,
         "raid": ST_RAID}
_STEP_OUT = {ST_TURN_START: "turn_start", ST_ACTIONS: "actions", ST_BAL_START: "balancing",
             ST_BALANCE: "balancing", ST_ATTACK: "attack", ST_RAID: "raid"}
_DUR_NAMES = {v: k for k, v in DUR_CODES.items()}
_MODE_NAMES = {v: k for k, v in MODE_CODES.items()}
_PLAIN_ZONES = (("hand", Z_HAND), ("deck", Z_DECK), ("discard", Z_DISCARD), ("set_aside", Z_ASIDE),
                ("annihilated", Z_ANNIH), ("vp_pile", Z_VP))


# =============================================================================================================
# printing
def to_position(game: Game) -> dict:
    """The state as a position (JSON-able dict). Positions are printed between resolutions: at the start of a
    turn or at a decision of the Actions, Resource Balancing, Attack or Raid step (not inside an attack's or a
    raid's modification phase, nor while an ability resolves)."""
    g = game
    if g.over:
        raise PositionError("the game is over: there is no position to print")
    if g.step not in _STEP_OUT:
        raise PositionError(f"positions are printed from the first turn on (this game is at setup, step "
                            f"{g.step})")
    if g.stack or g.cb is not None or g.reward_pending:
        raise PositionError("positions are printed between resolutions: this state is inside an attack, a raid "
                            "or an ability's resolution")
    pend = g.pending
    if pend is not None and pend.kind not in ("actions", "balance", "attack", "raid"):
        raise PositionError(f"positions are printed at a step's own decision, not at a '{pend.kind}' choice")
    lab = g.labels

    def entry(i: int, extra: dict | None = None) -> dict:
        e: dict[str, Any] = {"card": g.cdef[i].code, "id": lab[i]}
        if extra:
            e.update(extra)
        atts = g.atts.get(i)
        if atts:
            e["attachments"] = [{"card": g.cdef[a].code, "id": lab[a]} for a in atts]
        return e

    players = []
    for p in (0, 1):
        if g.decks[p] is None:
            players.append({"goldfish": True, "leader": entry(g.leader[p]) if g.leader[p] >= 0 else None})
            continue
        zs = g.z[p]
        pl: dict[str, Any] = {"leader": entry(g.leader[p]),
                              "leaders_out": [{"card": g.cdef[i].code, "id": lab[i]} for i in zs[Z_OUT]],
                              "reserve": g.reserve[p], "vp": g.vp[p]}
        for name, z in _PLAIN_ZONES:
            lst = zs[z]
            if z == Z_DECK:
                lst = list(reversed(lst))   # top card first
            pl[name] = [{"card": g.cdef[i].code, "id": lab[i]} for i in lst]
        pl["settlement"] = [entry(i, {"at": list(cell_xy(g.cell[i]))}) for i in zs[Z_SETTLE] if i != g.leader[p]]
        for name, z in (("borderlands", Z_BORDER), ("strike_force", Z_STRIKE)):
            pl[name] = [entry(w, {"moved": g.moved_t[w] == g.turn, "attacked": g.attacked_t[w] == g.turn,
                                  "recruited": g.recruited_t[w] == g.turn}) for w in zs[z]]
        pl["rituals"] = [{"card": g.cdef[i].code, "id": lab[i]} for i in zs[Z_RITUAL]]
        pl["groups"] = [{"kind": "offensive" if kind == G_OFFENSIVE else "defensive",
                         "members": [lab[w] for w in members]}
                        for kind, o, members in g.groups.values() if o == p]
        if any(g.add_res[p]):
            pl["add_resources"] = {r: n for r, n in zip(("gold", "food", "timber", "iron"), g.add_res[p]) if n}
        if g.mulliganed[p]:
            pl["mulliganed"] = True
        players.append(pl)
    pos: dict[str, Any] = {
        "game": "realms", "format": g.fmt, "seed": g.seed, "random_events": g.rng_n, "turn": g.turn,
        "step": _STEP_OUT[g.step], "first_player": g.first, "active_player": g.active,
        "turns_taken": list(g.turns_taken), "target_vp": g.target_vp, "max_rounds": g.max_rounds,
        "players": players,
    }
    if g.step == ST_BALANCE and g.bal_avail[0] >= 0:
        pos["balancing"] = {"available": dict(zip(("gold", "food", "timber", "iron"), g.bal_avail)),
                            "unpaid": [lab[i] for i in g.bal_unpaid], "forced": g.bal_forced}
    effects = []
    for te in g.tmp:
        e: dict[str, Any] = {"card": lab[te.target], "until": _DUR_NAMES[te.dur], "controller": te.ctrl}
        if te.kind == TE_CV:
            m = te.mod
            assert m is not None
            e["cv"] = {"op": ("add", "subtract", "multiply", "divide")[m.op], "value": m.value,
                       "order": ("before_all", "normal", "after_all")[m.order]}
        elif te.kind == TE_TACTIC:
            e["tactics"] = [TACTIC_NAMES[t] for t in TACTIC_ORDER if te.bits & t]
        else:
            e["rule"] = {RULES[te.rule]: _MODE_NAMES[te.mode]}
        effects.append(e)
    if effects:
        pos["effects"] = effects
    if g.uses:
        pos["uses"] = [{"card": lab[key // 32], "ability": key % 32 + 1, "times": n} for key, n in g.uses.items()]
    return pos


# =============================================================================================================
# loading
class _Loader:
    def __init__(self, pos: dict, catalogue: dict[str, dict]) -> None:
        self.pos = pos
        self.catalogue = catalogue
        self.cdef: list[CardDef] = []
        self.owner: list[int] = []
        self.labels: list[str | None] = []
        self.place: list[tuple[int, int, int]] = []   # (player, zone, extra)
        self.by_label: dict[str, int] = {}

    def fail(self, p: int, zone: str, msg: str) -> PositionError:
        return PositionError(f"player {p}, {zone}: {msg}")

    def card(self, p: int, zone: str, raw: Any) -> int:
        if isinstance(raw, str):
            code, label, data = raw, None, {}
        elif isinstance(raw, dict) and isinstance(raw.get("card"), str):
            code, label, data = raw["card"], raw.get("id"), raw
            if label is not None and (not isinstance(label, str) or not label or " " in label or "+" in label):
                raise self.fail(p, zone, f"card {code}: an id must be a non-empty label without spaces or '+', "
                                         f"not {label!r}")
        else:
            raise self.fail(p, zone, f"a zone entry is a card code or {{\"card\": CODE, \"id\": LABEL}}, not "
                                     f"{raw!r:.60}")
        if code == GOLDFISH_LEADER.code:
            d = GOLDFISH_LEADER
        else:
            card = self.catalogue.get(code)
            if card is None:
                raise self.fail(p, zone, f"unknown card code {code!r}")
            try:
                d = card_def(card)
            except DeckError as exc:
                raise self.fail(p, zone, f"card {code}: {exc}") from None
        i = len(self.cdef)
        self.cdef.append(d)
        self.owner.append(p)
        self.labels.append(label)
        if label is not None:
            if label in self.by_label:
                raise self.fail(p, zone, f"the id {label!r} names two cards")
            self.by_label[label] = i
        return i


def _flag(raw: Any, key: str) -> bool:
    return bool(raw.get(key)) if isinstance(raw, dict) else False


def from_position(pos: dict, catalogue: dict[str, dict] | None = None, *, log: bool = False) -> Game:
    """Load a position (see the module docstring) into a Game that runs from there to its next decision.

    `catalogue` maps card codes to card dicts (default: the bundled realms set). Raises PositionError, naming the
    player, zone and card, for anything that breaks a rule of the state; nothing is built then."""
    if not isinstance(pos, dict):
        raise PositionError("a position is a JSON object")
    if pos.get("game", "realms") != "realms":
        raise PositionError(f"this is a position of game {pos.get('game')!r}, not realms")
    if catalogue is None:
        from cards.games.realms import bundled_cards
        catalogue = {c["code"]: c for c in bundled_cards()}
    fmt = pos.get("format", "standard")
    if fmt not in ("standard", "simplified"):
        raise PositionError(f"format must be standard or simplified (002 §17), not {fmt!r}")
    step_name = pos.get("step", "turn_start")
    if step_name not in STEPS:
        raise PositionError(f"step must be one of {', '.join(STEPS)}, not {step_name!r}")
    players = pos.get("players")
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(x, dict) for x in players):
        raise PositionError("players must be a list of two player objects")
    ld = _Loader(pos, catalogue)
    zone_of: list[int] = []
    extra: dict[int, dict] = {}
    settle_at: dict[int, tuple[int, int]] = {}
    hosts: dict[int, int] = {}
    leaders = [-1, -1]
    goldfish = [bool(players[p].get("goldfish")) for p in (0, 1)]
    if goldfish[0]:
        raise PositionError("player 0, players: the goldfish opponent is player 1")

    def add(p: int, zname: str, raw: Any, z: int) -> int:
        i = ld.card(p, zname, raw)
        zone_of.append(z)
        if isinstance(raw, dict):
            extra[i] = raw
        return i

    def add_atts(p: int, zname: str, raw: Any, host: int) -> None:
        atts = raw.get("attachments", []) if isinstance(raw, dict) else []
        if not isinstance(atts, list):
            raise ld.fail(p, zname, f"{ld.cdef[host].name}: attachments must be a list")
        for a in atts:
            j = add(p, zname + " attachments", a, Z_ATTACHED)
            hosts[j] = host

    for p in (0, 1):
        pl = players[p]
        if goldfish[p]:
            raw = pl.get("leader") or GOLDFISH_LEADER.code
            leaders[p] = add(p, "leader", raw, Z_SETTLE)
            continue
        raw = pl.get("leader")
        if raw is None:
            raise ld.fail(p, "leader", "every player has a revealed Leader in a position (002 §8)")
        leaders[p] = add(p, "leader", raw, Z_SETTLE)
        add_atts(p, "leader", raw, leaders[p])
        for raw_l in pl.get("leaders_out", []) or []:
            add(p, "leaders_out", raw_l, Z_OUT)
        for zname, z in _PLAIN_ZONES:
            lst = pl.get(zname, []) or []
            if not isinstance(lst, list):
                raise ld.fail(p, zname, "must be a list of cards")
            ids = [add(p, zname, raw_c, z) for raw_c in lst]
            if z == Z_DECK:
                extra.setdefault(-1 - p, {})["deck"] = ids
        for raw_c in pl.get("settlement", []) or []:
            i = add(p, "settlement", raw_c, Z_SETTLE)
            at = raw_c.get("at") if isinstance(raw_c, dict) else None
            if not (isinstance(at, list) and len(at) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                   and -100 <= v <= 100 for v in at)):
                raise ld.fail(p, "settlement", f"{ld.cdef[i].name}: a Place needs \"at\": [x, y], whole numbers "
                                               "(R1: the Leader is at [0, 0])")
            settle_at[i] = (at[0], at[1])
            add_atts(p, "settlement", raw_c, i)
        for zname, z in (("borderlands", Z_BORDER), ("strike_force", Z_STRIKE)):
            for raw_c in pl.get(zname, []) or []:
                i = add(p, zname, raw_c, z)
                add_atts(p, zname, raw_c, i)
        for raw_c in pl.get("rituals", []) or []:
            add(p, "rituals", raw_c, Z_RITUAL)

    # ---- the rules of the state ------------------------------------------------------------------------
    cdef = ld.cdef
    zname_of = {Z_HAND: "hand", Z_DECK: "deck", Z_DISCARD: "discard", Z_ASIDE: "set_aside", Z_ANNIH: "annihilated",
                Z_VP: "vp_pile", Z_SETTLE: "settlement", Z_BORDER: "borderlands", Z_STRIKE: "strike_force",
                Z_ATTACHED: "attachments", Z_RITUAL: "rituals", Z_OUT: "leaders_out"}
    simplified = fmt == "simplified"
    for i, d in enumerate(cdef):
        p = ld.owner[i]
        z = zone_of[i]
        zn = zname_of[z]
        if i == leaders[p]:
            if not d.is_leader:
                raise ld.fail(p, "leader", f"{d.name} is a {('leader', 'place', 'warrior', 'intrigue')[d.type]}, "
                                           "not a Leader")
            continue
        if d.is_leader and z not in (Z_OUT,):
            raise ld.fail(p, zn, f"{d.name} is a Leader: Leaders are never in the draw deck (002 §8); an unused "
                                 "Leader belongs in leaders_out")
        if z == Z_OUT and not d.is_leader:
            raise ld.fail(p, zn, f"{d.name} is not a Leader")
        if z == Z_VP and not d.is_place:
            raise ld.fail(p, zn, f"{d.name} is not a Place: only destroyed Places are VP markers (002 §14)")
        if z == Z_SETTLE and not d.is_place:
            raise ld.fail(p, zn, f"{d.name} is not a Place: only Places are built into the Settlement (002 §10)")
        if z in (Z_BORDER, Z_STRIKE) and not d.is_warrior:
            raise ld.fail(p, zn, f"{d.name} is not a Warrior (002 §3)")
        if z == Z_RITUAL and not (d.is_intrigue and d.ik == IK_RITUAL):
            raise ld.fail(p, zn, f"{d.name} is not a RITUAL (002 §7.4)")
        if z == Z_ATTACHED:
            h = hosts[i]
            hd = cdef[h]
            if not d.is_intrigue or d.ik not in (IK_EQUIPMENT, IK_PROPHECY, IK_HARMONY):
                raise ld.fail(p, zn, f"{d.name} cannot be attached: only EQUIPMENT, PROPHECY and DARK HARMONY are "
                                     "(002 §7.4)")
            if d.ik == IK_EQUIPMENT and not hd.is_warrior:
                raise ld.fail(p, zn, f"{d.name} is EQUIPMENT on {hd.name}, which is not a Warrior (R10)")
            if d.ik == IK_PROPHECY and h != leaders[p]:
                raise ld.fail(p, zn, f"{d.name} is a PROPHECY on {hd.name}: Prophecies are attached to the Leader "
                                     "(002 §7.4)")
            if d.ik == IK_HARMONY and not hd.kw & KW_WORTHY:
                raise ld.fail(p, zn, f"{d.name} is a DARK HARMONY on {hd.name}, which is not Worthy (R10)")
    # uniques (002 §15, R19) and the Equipment limit (R10)
    for p in (0, 1):
        seen_u: dict[str, int] = {}
        for i, d in enumerate(cdef):
            if ld.owner[i] == p and zone_of[i] in (Z_SETTLE, Z_BORDER, Z_STRIKE, Z_ATTACHED, Z_RITUAL) and d.unique:
                if d.name in seen_u:
                    raise ld.fail(p, zname_of[zone_of[i]], f"{d.name} is unique and is in play twice (002 §15)")
                seen_u[d.name] = i
    if not simplified:
        for h in set(hosts.values()):
            slots = 0
            for j, hh in hosts.items():
                if hh == h and cdef[j].slot:
                    if slots & cdef[j].slot:
                        raise ld.fail(ld.owner[h], "attachments", f"{cdef[h].name} carries two "
                                      f"{'Weapons' if cdef[j].slot == 4 else 'Armors'} (R10: at most 1 Weapon and 1 "
                                      "Armor on each Warrior)")
                    slots |= cdef[j].slot
    # the Settlement grid (R1, R2)
    grids: list[dict[int, int]] = [{}, {}]
    for p in (0, 1):
        grids[p][CELL0] = leaders[p]
    for i, (x, y) in settle_at.items():
        p = ld.owner[i]
        c = cell_of(x, y)
        if c in grids[p]:
            raise ld.fail(p, "settlement", f"{cdef[i].name} at {x},{y}: that cell holds "
                                           f"{cdef[grids[p][c]].name} already")
        grids[p][c] = i
    for p in (0, 1):
        grid = grids[p]
        for c, i in grid.items():
            n = sum(1 for dn in (256, -256, 1, -1) if c + dn in grid)
            if n > cdef[i].nc:
                x, y = cell_xy(c)
                raise ld.fail(p, "settlement", f"{cdef[i].name} at {x},{y} touches {n} cards, more than its Neighbor "
                                               f"Count {cdef[i].nc} (002 §10)")
    # figures
    reserves = [0, 0]
    vps = [0, 0]
    for p in (0, 1):
        pl = players[p]
        for key in ("reserve", "vp"):
            v = pl.get(key, 0)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ld.fail(p, key, f"must be a whole number of at least 0, not {v!r} (R23)")
        reserves[p] = pl.get("reserve", 0)
        pile = sum(cdef[i].cv for i in range(len(cdef)) if ld.owner[i] == p and zone_of[i] == Z_VP)
        vps[p] = pl.get("vp", pile)
        if vps[p] < pile:
            raise ld.fail(p, "vp", f"{vps[p]} VP is less than the VP pile's printed CVs ({pile}, 002 §1)")
    target = pos.get("target_vp", 30 if simplified else 50)
    if not isinstance(target, int) or target < 1:
        raise PositionError(f"target_vp must be a whole number of at least 1, not {target!r}")
    for p in (0, 1):
        if vps[p] >= target:
            raise ld.fail(p, "vp", f"{vps[p]} VP: the game was over at {target} (002 §1)")
    active = pos.get("active_player", 0)
    first = pos.get("first_player", 0)
    if active not in (0, 1) or first not in (0, 1):
        raise PositionError("active_player and first_player are 0 or 1")
    if goldfish[active]:
        raise ld.fail(active, "active_player", "the goldfish opponent never takes a turn")
    seed = pos.get("seed", 0)
    draws = pos.get("random_events", 0)
    if not isinstance(seed, int) or not isinstance(draws, int) or draws < 0:
        raise PositionError("seed and random_events are whole numbers (random_events at least 0)")
    turn = pos.get("turn", 1)
    taken = pos.get("turns_taken")
    if taken is None:
        taken = [0, 0]
    if not (isinstance(taken, list) and len(taken) == 2 and all(isinstance(t, int) and t >= 0 for t in taken)):
        raise PositionError("turns_taken is a list of two whole numbers")
    max_rounds = pos.get("max_rounds", 50)

    # ---- build -----------------------------------------------------------------------------------------
    decks: list[Deck | None] = [None, None]
    for p in (0, 1):
        if not goldfish[p]:
            mine = [d for i, d in enumerate(cdef) if ld.owner[i] == p]
            counts: dict[int, tuple[CardDef, int]] = {}
            for d in mine:
                prev = counts.get(id(d))
                counts[id(d)] = (d, prev[1] + 1 if prev else 1)
            decks[p] = Deck(list(counts.values()), name=str(players[p].get("name", "")))
    g = Game(decks[0] if decks[0] is not None else Deck([(GOLDFISH_LEADER, 1)]), None, seed=seed, fmt=fmt,
             max_rounds=max_rounds, log=log, target_vp=target, autostart=False)
    g.decks = decks
    g.goldfish = decks[1] is None
    n = len(cdef)
    g.cdef = cdef
    g.owner = ld.owner
    labels = default_labels(cdef)
    used = set(x for x in ld.labels if x is not None)
    final: list[str] = []
    for i in range(n):
        lab = ld.labels[i]
        if lab is None:
            lab = labels[i]
            k = 1
            while lab in used:
                k += 1
                lab = f"{labels[i]}.{k}"
            used.add(lab)
        final.append(lab)
    g.labels = final
    g.zone = list(zone_of)
    g.where = list(ld.owner)
    g.host = [-1] * n
    g.cell = [-1] * n
    g.supplied = [False] * n
    g.group = [0] * n
    g.moved_t = [-1] * n
    g.attacked_t = [-1] * n
    g.recruited_t = [-1] * n
    g.seen = [3] * n
    g.part = [0] * n
    g.z = [[[] for _ in range(13)] for _ in (0, 1)]
    g.leader_ids = [[], []]
    for i in range(n):
        p = ld.owner[i]
        z = zone_of[i]
        if z == Z_DECK:
            continue
        g.z[p][z].append(i)
        if cdef[i].is_leader:
            g.leader_ids[p].append(i)
        if z in (Z_HAND,):
            g.seen[i] = 1 << p
        elif z == Z_ASIDE:
            g.seen[i] = 0
    for p in (0, 1):
        ids = extra.get(-1 - p, {}).get("deck", [])
        g.z[p][Z_DECK] = list(reversed(ids))   # the top card is the list's end
        for i in ids:
            g.seen[i] = 0
    g.leader = leaders
    g.leader_choice = list(leaders)
    g.grid = grids
    for p in (0, 1):
        for c, i in grids[p].items():
            g.cell[i] = c
    for j, h in hosts.items():
        g.host[j] = h
        g.atts.setdefault(h, []).append(j)
    g.turn = turn
    g.turns_taken = list(taken)
    # the turn in progress has not recorded its figures yet; a position at the start of a turn follows a turn that
    # did (so the game's per-turn lists are those of the turns played after loading)
    g.rec_turn = [t if step_name == "turn_start" or p != active else t - 1 for p, t in enumerate(taken)]
    g.rec_unpaid = [t if step_name in ("turn_start", "attack", "raid") or p != active else t - 1
                    for p, t in enumerate(taken)]
    g.first = first
    g.active = active
    g.reserve = reserves
    g.vp = vps
    for p in (0, 1):
        pile = sum(cdef[i].cv for i in g.z[p][Z_VP])
        g.vp_tokens[p] = vps[p] - pile
        g.mulliganed[p] = bool(players[p].get("mulliganed"))
    for i, raw in extra.items():
        if i < 0:
            continue
        if _flag(raw, "moved"):
            g.moved_t[i] = turn
        if _flag(raw, "attacked"):
            g.attacked_t[i] = turn
        if _flag(raw, "recruited"):
            g.recruited_t[i] = turn
    # groups
    for p in (0, 1):
        for k, raw_g in enumerate(players[p].get("groups", []) or []):
            where = f"groups[{k}]"
            if not isinstance(raw_g, dict) or raw_g.get("kind") not in ("offensive", "defensive"):
                raise ld.fail(p, where, "a Group is {\"kind\": \"offensive\"|\"defensive\", \"members\": [ids]}")
            members = []
            for lab in raw_g.get("members", []) or []:
                i = ld.by_label.get(lab)
                if i is None or ld.owner[i] != p or zone_of[i] not in (Z_BORDER, Z_STRIKE):
                    raise ld.fail(p, where, f"{lab!r} is not one of this player's warriors")
                if g.group[i]:
                    raise ld.fail(p, where, f"{cdef[i].name} is in two Groups (002 §11)")
                members.append(i)
            kind = G_OFFENSIVE if raw_g["kind"] == "offensive" else G_DEFENSIVE
            if len(members) < 2:
                raise ld.fail(p, where, "a Group has at least 2 warriors (002 §11)")
            if len({zone_of[i] for i in members}) != 1:
                raise ld.fail(p, where, "a Group's warriors are all in one zone (002 §11: no mixing)")
            if kind == G_OFFENSIVE and zone_of[members[0]] != Z_STRIKE:
                raise ld.fail(p, where, "an Offensive Group is formed from the Strike Force (002 §11)")
            gid = g.next_gid
            g.next_gid += 1
            g.groups[gid] = (kind, p, tuple(members))
            for i in members:
                g.group[i] = gid
            if not g.group_tactics(members):
                raise ld.fail(p, where, f"{', '.join(cdef[i].name for i in members)} share no Tactic (002 §11)")
        add = players[p].get("add_resources") or {}
        if not isinstance(add, dict):
            raise ld.fail(p, "add_resources", "must be an object of resources to numbers")
        for r, v in add.items():
            if r not in ("gold", "food", "timber", "iron") or not isinstance(v, int) or v < 0:
                raise ld.fail(p, "add_resources", f"{r}: {v!r} is not a resource amount")
            g.add_res[p][("gold", "food", "timber", "iron").index(r)] = v
    # lasting effects and uses
    for k, raw_e in enumerate(pos.get("effects", []) or []):
        where = f"effects[{k}]"
        i = ld.by_label.get(raw_e.get("card")) if isinstance(raw_e, dict) else None
        if i is None:
            raise PositionError(f"{where}: names no card id of the position")
        until = DUR_CODES.get(raw_e.get("until", "turn"))
        ctrl = raw_e.get("controller", ld.owner[i])
        if until is None or ctrl not in (0, 1):
            raise PositionError(f"{where}: until is attack, raid, turn or next_turn; controller 0 or 1")
        if "cv" in raw_e:
            try:
                g.tmp.append(TmpEff(TE_CV, i, CvMod.of(raw_e["cv"]), 0, 0, 0, until, ctrl))
            except (KeyError, ValueError, TypeError):
                raise PositionError(f"{where}: cv is a number or {{\"op\", \"value\", \"order\"}}") from None
        elif "tactics" in raw_e:
            bits = 0
            for t in raw_e["tactics"]:
                if t not in TACTIC_BITS:
                    raise PositionError(f"{where}: {t!r} is not a Tactic")
                bits |= TACTIC_BITS[t]
            g.tmp.append(TmpEff(TE_TACTIC, i, None, bits, 0, 0, until, ctrl))
        elif "rule" in raw_e and isinstance(raw_e["rule"], dict):
            for r, m in raw_e["rule"].items():
                if r not in RULE_CODES or m not in MODE_CODES:
                    raise PositionError(f"{where}: {r}: {m} is not a rule and a mode (docs/games/realms.md §14.5)")
                g.tmp.append(TmpEff(TE_RULE, i, None, 0, RULE_CODES[r], MODE_CODES[m], until, ctrl))
        else:
            raise PositionError(f"{where}: an effect has cv, tactics or rule")
    abilities.count_tmp(g)
    for raw_u in pos.get("uses", []) or []:
        i = ld.by_label.get(raw_u.get("card")) if isinstance(raw_u, dict) else None
        if i is None:
            raise PositionError("uses: names no card id of the position")
        g.uses[i * 32 + int(raw_u.get("ability", 1)) - 1] = int(raw_u.get("times", 1))
    for p in (0, 1):
        settlement.supply(g, p)
    g.supplied[leaders[0]] = g.supplied[leaders[1]] = True
    # the random stream where the printed game had it
    g.rng_n = draws
    step = STEPS[step_name]
    g.step = step
    g.attack_skip = active == first and taken[active] == 1 and step != ST_TURN_START
    if step == ST_BAL_START and isinstance(pos.get("balancing"), dict):
        b = pos["balancing"]
        av = b.get("available", {})
        g.step = ST_BALANCE
        g.bal_avail = [int(av.get(r, 0)) for r in ("gold", "food", "timber", "iron")]
        g.bal_unpaid = []
        for lab in b.get("unpaid", []):
            i = ld.by_label.get(lab)
            if i is None or ld.owner[i] != active:
                raise ld.fail(active, "balancing", f"{lab!r} is not a card of the active player in play")
            g.bal_unpaid.append(i)
        g.bal_forced = int(b.get("forced", 0))
    elif step == ST_RAID:
        g.raid_done = g.attack_skip
    g._dirty = True
    g._ipc = [None, None]
    g.n_trig = [0] * len(g.n_trig)
    for i in range(n):
        if 6 <= g.zone[i] <= 10:   # Z_SETTLE .. Z_RITUAL: in play
            for ab in cdef[i].triggers:
                g.n_trig[ab.event] += 1
    g.logs = [] if log else None
    g._run()
    return g
