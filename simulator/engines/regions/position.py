"""Loading a position (the JSON of `Game.to_position`) back into a game, refusing anything the rules forbid.

Every key but `players` (and each player's `hero`) may be missing and then takes its empty value, so a test or a
bug report can write a short position by hand: a phase, a few Stacks, a hand. Errors name the player, the zone
and the card (or the key) so the position can be fixed.
"""
from __future__ import annotations

import base64
import random
import struct

from .cards import TYPE_INDEX, CardSet, STRUCTURE, CITIZEN, TACTIC
from .game import (
    J_AB, J_EFF, J_PAY, J_REVEAL, J_STACK, N_MARKET_PILES, N_REGIONS, PHASE_KEYS, STEP_KEYS, Decision, Game,
    OVER, CHOICE_KINDS, WINDOW_KINDS,
)


class PositionError(ValueError):
    """A position that cannot be loaded; the message names where the problem is."""


def _int(value, where: str, *, minimum: int = 0, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum or (
            maximum is not None and value > maximum):
        bound = f"{minimum}..{maximum}" if maximum is not None else f">= {minimum}"
        raise PositionError(f"{where}: expected a whole number {bound}, not {value!r}")
    return value


def load_position(cls, pos: dict, cs: CardSet, *, log: bool = False) -> Game:
    if not isinstance(pos, dict):
        raise PositionError("a position is a JSON object")
    if pos.get("game", "regions") != "regions":
        raise PositionError(f"position of game {pos.get('game')!r}, not 'regions'")
    players = pos.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise PositionError("'players' must be a list of 2 to 4 players (003 §2)")
    n = len(players)
    heroes = []
    for p, pl in enumerate(players):
        if not isinstance(pl, dict) or "hero" not in pl:
            raise PositionError(f"player {p}: needs a 'hero' (a Hero's code or name)")
        try:
            heroes.append(cs.hero(pl["hero"]))
        except KeyError as exc:
            raise PositionError(f"player {p}, hero: {exc.args[0]}") from None
    seed = pos.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PositionError("seed: expected an integer")
    g = cls(cs, heroes, seed=seed, _blank=True)
    g.rng = random.Random(seed)
    g.rng_shared = False
    if pos.get("rng"):
        try:
            raw = base64.b64decode(pos["rng"])
            internal = struct.unpack(f"<{len(raw) // 4}I", raw)
            g.rng.setstate((3, tuple(internal), None))
        except Exception as exc:  # a hand-edited rng string: say so rather than a traceback
            raise PositionError(f"rng: not a generator state printed by to_position ({exc})") from None
    g.logs = [] if log else None
    g.max_turns = _int(pos.get("max_turns", 60), "max_turns", minimum=1)
    g.regions = cs.regions
    g.standing = cs.standing
    g.turn = _int(pos.get("turn", 1), "turn", minimum=1)
    g.prio = _int(pos.get("priority", 0), "priority", maximum=n - 1)
    g.first_player = _int(pos.get("first_player", g.prio), "first_player", maximum=n - 1)
    g.order = [(g.prio + k) % n for k in range(n)]
    phase = pos.get("phase", "hero")
    if phase not in PHASE_KEYS:
        raise PositionError(f"phase: one of {', '.join(PHASE_KEYS)}, not {phase!r}")
    g.phase = PHASE_KEYS.index(phase)
    g.ai = _int(pos.get("actor", 0), "actor", maximum=n)
    step = pos.get("step", "start")
    if step not in STEP_KEYS:
        raise PositionError(f"step: one of {', '.join(STEP_KEYS)}, not {step!r}")
    g.step = STEP_KEYS.index(step)
    g.cu_r = _int(pos.get("cleanup_region", 0), "cleanup_region", maximum=N_REGIONS)

    def cards(value, where: str, *, reverse: bool = False) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            raise PositionError(f"{where}: expected a list of card codes")
        out = []
        for code in value:
            card = cs.by_code.get(code) if isinstance(code, str) else None
            if card is None:
                card = cs.by_name.get(str(code).lower().replace("\u2019", "'")) if isinstance(code, str) else None
            if card is None:
                raise PositionError(f"{where}: unknown card {code!r}")
            out.append(card)
        return out[::-1] if reverse else out

    region_codes = {r.code: r.index for r in cs.regions}
    for r in cs.regions:
        region_codes.setdefault(r.lname, r.index)

    def region_index(key, where: str) -> int:
        k = region_codes.get(key) if isinstance(key, str) else None
        if k is None and isinstance(key, str):
            k = region_codes.get(key.lower().replace("\u2019", "'"))
        if k is None:
            raise PositionError(f"{where}: unknown Region {key!r}; Regions are "
                                + ", ".join(r.code for r in cs.regions))
        return k

    g.deck, g.hand, g.discard, g.pocket, g.played, g.stacks = [], [], [], [], [], []
    g.known_top, g.bank, g.rbank, g.spent, g.bought, g.might, g.level = [], [], [], [], [], [], []
    g.fresh = []
    for p, pl in enumerate(players):
        known = {"hero", "level", "deck", "known_top", "hand", "pocket", "discard", "played", "stacks", "bank",
                 "restricted", "might", "spent", "bought", "purchased"}
        extra = sorted(set(pl) - known)
        if extra:
            raise PositionError(f"player {p}: unknown key(s) {', '.join(extra)}")
        g.deck.append(cards(pl.get("deck"), f"player {p}, deck", reverse=True))
        g.hand.append(cards(pl.get("hand"), f"player {p}, hand"))
        g.discard.append(cards(pl.get("discard"), f"player {p}, discard"))
        g.played.append(cards(pl.get("played"), f"player {p}, played"))
        pocket = pl.get("pocket")
        g.pocket.append(cards(pocket, f"player {p}, pocket") if pocket is not None else [cs.goods_card])
        if not g.pocket[p]:
            raise PositionError(f"player {p}, pocket: at least one card must stay in the Pocket (003 §4.2)")
        stacks = [[] for _ in range(N_REGIONS)]
        raw_stacks = pl.get("stacks") or {}
        if isinstance(raw_stacks, list):
            if len(raw_stacks) != N_REGIONS:
                raise PositionError(f"player {p}, stacks: a list of five Stacks, one per Region")
            raw_stacks = {cs.regions[r].code: s for r, s in enumerate(raw_stacks)}
        if not isinstance(raw_stacks, dict):
            raise PositionError(f"player {p}, stacks: an object {{region code: [cards front first]}}")
        for key, value in raw_stacks.items():
            r = region_index(key, f"player {p}, stacks")
            stack = cards(value, f"player {p}, stack at {cs.regions[r].short}")
            for c in stack:
                if c.type not in (CITIZEN, STRUCTURE, TACTIC):
                    raise PositionError(f"player {p}, stack at {cs.regions[r].short}: {c.name} is not a Citizen, "
                                        "Structure or Tactic (003 §5.3)")
            stacks[r] = stack
        g.stacks.append(stacks)
        g.known_top.append(_int(pl.get("known_top", 0), f"player {p}, known_top", maximum=len(g.deck[p])))
        g.bank.append(_int(pl.get("bank", 0), f"player {p}, bank"))
        rb = [0] * 5
        for key, value in (pl.get("restricted") or {}).items():
            if key not in TYPE_INDEX:
                raise PositionError(f"player {p}, restricted: unknown card type {key!r}")
            rb[TYPE_INDEX[key]] = _int(value, f"player {p}, restricted {key}")
        g.rbank.append(rb)
        m = [0] * N_REGIONS
        for key, value in (pl.get("might") or {}).items():
            m[region_index(key, f"player {p}, might")] = _int(value, f"player {p}, might")
        g.might.append(m)
        g.spent.append(_int(pl.get("spent", 0), f"player {p}, spent"))
        g.bought.append(_int(pl.get("bought", 0), f"player {p}, bought"))
        fresh = cards(pl.get("purchased"), f"player {p}, purchased")
        left = list(g.pocket[p])
        for c in fresh:
            if c not in left:
                raise PositionError(f"player {p}, purchased: {c.name} is not in the Pocket (the cards bought in this "
                                    "Purchase phase that are still in the Pocket)")
            left.remove(c)
        g.fresh.append(fresh)
        level = pl.get("level")
        g.level.append(_int(level, f"player {p}, level", maximum=5) if level is not None
                       else sum(1 for s in stacks if s))
    g.ctrl = [-1] * N_REGIONS
    for key, value in (pos.get("control") or {}).items():
        r = region_index(key, "control")
        if value is not None:
            g.ctrl[r] = _int(value, f"control of {cs.regions[r].short}", maximum=n - 1)
    piles = pos.get("market_piles")
    if piles is None:
        piles = [[] for _ in range(N_MARKET_PILES)]
    if not isinstance(piles, list) or len(piles) != N_MARKET_PILES:
        raise PositionError("market_piles: a list of four Market Piles, each top card first (003 §1.1)")
    g.mpiles = [cards(x, f"market pile {m + 1}", reverse=True) for m, x in enumerate(piles)]
    g.mdeck = cards(pos.get("market_deck"), "market_deck", reverse=True)
    g.mdiscard = cards(pos.get("market_discard"), "market_discard")
    rec = cs.recognition
    g.rec_owned = [sum(1 for zone in (g.deck[p], g.hand[p], g.discard[p], g.pocket[p], g.played[p]) for c in zone
                       if c is rec) for p in range(n)]
    g.owned = [[0] * len(cs.cards) for _ in range(n)]
    g.owned_t = [[0] * 5 for _ in range(n)]
    for p in range(n):
        for zone in (g.deck[p], g.hand[p], g.discard[p], g.pocket[p], g.played[p], *g.stacks[p]):
            for c in zone:
                g.owned[p][c.index] += 1
                g.owned_t[p][c.type] += 1
    g.n_ab = [[sum(1 for st in g.stacks[p] for c in st if ph in c.ab_phases) for ph in range(4)] for p in range(n)]
    default_pile = cs.recognition_total - sum(g.rec_owned)
    g.rec_pile = _int(pos.get("recognition_pile", default_pile), "recognition_pile", maximum=cs.recognition_total)
    if g.rec_pile + sum(g.rec_owned) != cs.recognition_total:
        raise PositionError(f"recognition_pile: ten Recognition are in play (003 §1.1): the pile holds {g.rec_pile} "
                            f"and the players own {sum(g.rec_owned)}")
    ending = pos.get("ending", g.rec_pile == 0)
    if not isinstance(ending, bool):
        raise PositionError(f"ending: expected true or false (the Recognition pile ran out this turn), not {ending!r}")
    if g.rec_pile == 0 and not ending:
        raise PositionError("ending: the Recognition pile is empty, so the game is ending (003 §8.3)")
    g.ending = ending
    for zone, where in ((g.mdeck, "market_deck"), (g.mdiscard, "market_discard")):
        for c in zone:
            if c.pile == "standing":
                raise PositionError(f"{where}: {c.name} belongs to its standing pile, never the Market (003 §8.2)")
    g.jobs = [_job(j, g, cs, n) for j in (pos.get("jobs") or [])]
    g.over = g.phase == OVER
    result = pos.get("result") or {}
    g.winners = list(result.get("winners", []))
    g.reason = result.get("reason")
    g.stat_score, g.stat_presence, g.stat_control, g.stat_rec = [], [], [], []
    g.stat_bought = [{} for _ in range(n)]
    g.history = []
    g.pending = None
    pending = pos.get("pending")
    if g.over:
        return g
    if pending is not None:
        g.pending = _pending(pending, g, cs, n)
        if g.pending.kind in WINDOW_KINDS:
            # a window is recomputed from the state, so a hand-written one cannot disagree with it
            g.pending = None
            g._run()
    else:
        g._run()
    return g


def _job(j, g: Game, cs: CardSet, n: int) -> tuple:
    try:
        kind = j[0]
        if kind == "ability":
            return (J_AB, int(j[1]), int(j[2]), cs.ability(tuple(j[3])))
        if kind == "effect":
            return (J_EFF, int(j[1]), int(j[2]), int(j[3]), int(j[4]), int(j[5]))
        if kind == "pay":
            return (J_PAY, int(j[1]))
        if kind == "stack":
            return (J_STACK, int(j[1]), int(j[2]))
        if kind == "reveal":
            return (J_REVEAL, int(j[1]), int(j[2]), cs.by_code[j[3]])
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise PositionError(f"jobs: cannot read {j!r} ({exc})") from None
    raise PositionError(f"jobs: unknown job {j!r}")


def _pending(d, g: Game, cs: CardSet, n: int) -> Decision:
    if not isinstance(d, dict) or d.get("kind") not in (*WINDOW_KINDS, *CHOICE_KINDS):
        raise PositionError(f"pending: kind is one of {', '.join((*WINDOW_KINDS, *CHOICE_KINDS))}")
    p = _int(d.get("player"), "pending player", maximum=n - 1)
    info = d.get("info")
    try:
        if d["kind"] == "may":
            info = (int(info[0]), cs.ability(tuple(info[1])))
        elif d["kind"] == "target":
            info = (int(info[0]), int(info[1]), int(info[2]))
        elif d["kind"] in ("region", "trash"):
            info = int(info)
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise PositionError(f"pending info: cannot read {info!r} ({exc})") from None
    return Decision(g, d["kind"], p, info)
