"""The realms engine's vocabulary: the codes of zones, steps, actions, stack frames and statistics, and the small
objects a game holds (the waiting `Decision`, a fight's `Combat`, a lasting `TmpEff`), the Settlement's cell
arithmetic, 002 §16's CV pipeline, and the report helpers. Imports nothing of the engine but `cards`."""
from __future__ import annotations

from typing import Final

from simulator.engines.common.protocol import IllegalAction  # noqa: F401  (re-exported: the engine's error)

from .cards import (
    E_GRANT_TACTIC, E_MODIFY_CV, M_ALWAYS, M_CAN, M_CANNOT, M_NEVER, OP_ADD, OP_MUL, OP_SUB, ORD_AFTER, ORD_BEFORE,
    ORD_NORMAL, TACTIC_NAMES, TACTIC_ORDER, CardDef, CvMod, Eff,
)

# ---- zones (R1; docs/games/realms.md §3.1) ---------------------------------------------------------------
Z_DECK: Final = 0
Z_HAND: Final = 1
Z_DISCARD: Final = 2
Z_ASIDE: Final = 3
Z_ANNIH: Final = 4
Z_VP: Final = 5
Z_SETTLE: Final = 6
Z_BORDER: Final = 7
Z_STRIKE: Final = 8
Z_ATTACHED: Final = 9
Z_RITUAL: Final = 10
Z_OUT: Final = 11
Z_LIMBO: Final = 12
N_ZONES: Final = 13
ZONE_NAMES: Final = ("deck", "hand", "discard", "set_aside", "annihilated", "vp_pile", "settlement", "borderlands",
              "strike_force", "attached", "rituals", "leaders_out", "resolving")

# ---- steps ---------------------------------------------------------------------------------------------
ST_LEADER: Final = 0
ST_MULLIGAN: Final = 1
ST_TURN_START: Final = 2
ST_DRAW: Final = 3
ST_ACTIONS: Final = 4
ST_BAL_START: Final = 5
ST_BALANCE: Final = 6
ST_ATTACK: Final = 7
ST_RAID: Final = 8
ST_END: Final = 9
ST_OVER: Final = 10
STEP_NAMES: Final = ("leader", "mulligan", "turn_start", "draw", "actions", "balancing_start", "balancing", "attack",
              "raid", "end", "over")

# ---- actions (tuples whose first item is one of these) -------------------------------------------------
A_LEADER: Final = 0
A_KEEP: Final = 1
A_MULLIGAN: Final = 2
A_BUILD: Final = 3
A_CELL: Final = 4
A_RECRUIT: Final = 5
A_MOVE: Final = 6
A_PLAY: Final = 7
A_USE: Final = 8
A_DISCARD: Final = 9
A_GROUP: Final = 10
A_DONE: Final = 11
A_PASS: Final = 12
A_ATTACK: Final = 13
A_RAID: Final = 14
A_REWARD: Final = 15
A_PAY: Final = 16
A_PAY_ALL: Final = 17
A_TARGET: Final = 18
A_TAKE: Final = 19
A_KILL: Final = 20
A_YES: Final = 21
A_NO: Final = 22
REWARDS: Final = ("gold", "attachments", "discard", "vp")   # 002 §14: the four Leader-raid rewards
RW_GOLD: Final = 0
RW_ATTACHMENTS: Final = 1
RW_DISCARD: Final = 2
RW_VP: Final = 3
G_OFFENSIVE: Final = 1   # 002 §11
G_DEFENSIVE: Final = 2

# ---- option tuples shared between decisions and games -----------------------------------------------------
# An option is an immutable value; making one afresh (a tuple, its ints boxed) and freeing it with its decision cost
# more than the rest of the work for most options, and the same few recur every decision: the common ones are made
# once per card instance number and handed out again.
DONE_OPT: Final[tuple] = (A_DONE,)
PASS_OPT: Final[tuple] = (A_PASS,)
PAY_ALL_OPT: Final[tuple] = (A_PAY_ALL,)
_PAY_OPTS: Final[list[tuple]] = []
_DISCARD_OPTS: Final[list[tuple]] = []
_BUILD_OPTS: Final[list[tuple]] = []
_MOVE_OPTS: Final[list[tuple]] = []
_PLAY_OPTS: Final[list[tuple]] = []      # (A_PLAY, i, -1): no host
_BORDER_OPTS: Final[list[tuple]] = []    # (A_RECRUIT, i, Z_BORDER)
_STRIKE_OPTS: Final[list[tuple]] = []    # (A_RECRUIT, i, Z_STRIKE)


def _grow(lst: list[tuple], kind: int, i: int, extra: int, three: bool) -> tuple:
    for n in range(len(lst), i + 1):
        lst.append((kind, n, extra) if three else (kind, n))
    return lst[i]


def pay_opt(i: int) -> tuple:
    return _PAY_OPTS[i] if i < len(_PAY_OPTS) else _grow(_PAY_OPTS, A_PAY, i, 0, False)


def discard_opt(i: int) -> tuple:
    return _DISCARD_OPTS[i] if i < len(_DISCARD_OPTS) else _grow(_DISCARD_OPTS, A_DISCARD, i, 0, False)


def build_opt(i: int) -> tuple:
    return _BUILD_OPTS[i] if i < len(_BUILD_OPTS) else _grow(_BUILD_OPTS, A_BUILD, i, 0, False)


def move_opt(i: int) -> tuple:
    return _MOVE_OPTS[i] if i < len(_MOVE_OPTS) else _grow(_MOVE_OPTS, A_MOVE, i, 0, False)


def play_opt(i: int) -> tuple:
    """(A_PLAY, i, -1): a card played with no host."""
    return _PLAY_OPTS[i] if i < len(_PLAY_OPTS) else _grow(_PLAY_OPTS, A_PLAY, i, -1, True)


def recruit_opt(i: int, zone: int) -> tuple:
    if zone == Z_BORDER:
        return _BORDER_OPTS[i] if i < len(_BORDER_OPTS) else _grow(_BORDER_OPTS, A_RECRUIT, i, Z_BORDER, True)
    if zone == Z_STRIKE:
        return _STRIKE_OPTS[i] if i < len(_STRIKE_OPTS) else _grow(_STRIKE_OPTS, A_RECRUIT, i, Z_STRIKE, True)
    return (A_RECRUIT, i, zone)

# ---- stack frames -------------------------------------------------------------------------------------
F_ABILITY: Final = 0
F_EFFECT: Final = 1
F_DISCARD_LIMBO: Final = 2
F_CHOOSE_DISCARD: Final = 3
F_COST_KILL: Final = 4

# ---- temporary effects ---------------------------------------------------------------------------------
TE_CV: Final = 0
TE_TACTIC: Final = 1
TE_RULE: Final = 2

SEAT: Final = ("P0", "P1")
DURATION_WORDS: Final = ("this attack", "this raid", "this turn", "until your next turn")

# the per-game counters of the reports (GameResult.stats), by index
STAT_NAMES: Final = ("cards_played", "places_built", "warriors_recruited", "attacks", "attacks_won", "attacks_lost",
              "attacks_tied", "warriors_killed", "warriors_lost", "raids", "raids_failed", "places_destroyed",
              "places_lost", "leader_raids", "reward_gold", "reward_attachments", "reward_discard", "reward_vp",
              "unpaid_discards", "reshuffles")
S_CARDS_PLAYED: Final = 0
S_PLACES_BUILT: Final = 1
S_WARRIORS_RECRUITED: Final = 2
S_ATTACKS: Final = 3
S_ATTACKS_WON: Final = 4
S_ATTACKS_LOST: Final = 5
S_ATTACKS_TIED: Final = 6
S_WARRIORS_KILLED: Final = 7
S_WARRIORS_LOST: Final = 8
S_RAIDS: Final = 9
S_RAIDS_FAILED: Final = 10
S_PLACES_DESTROYED: Final = 11
S_PLACES_LOST: Final = 12
S_LEADER_RAIDS: Final = 13
S_REWARD_GOLD: Final = 14
S_REWARD_ATTACHMENTS: Final = 15
S_REWARD_DISCARD: Final = 16
S_REWARD_VP: Final = 17
S_UNPAID_DISCARDS: Final = 18
S_RESHUFFLES: Final = 19


class PositionError(ValueError):
    """A position that breaks a rule of the state; the message names the player, zone and card."""


class Decision:
    """The waiting decision: its kind, the player who decides, the legal options (action tuples) and context."""

    __slots__ = ("kind", "player", "options", "ctx", "_codes")

    def __init__(self, kind: str, player: int, options: list, ctx: tuple = ()) -> None:
        self.kind = kind
        self.player = player
        self.options = options
        self.ctx = ctx
        self._codes: dict | None = None

    def __repr__(self) -> str:
        return f"Decision({self.kind}, player {self.player}, {len(self.options)} options)"


class TmpEff:
    """A lasting effect of an ability on one card (002 §16 durations): a CV modifier, a Tactic, or a rule mode."""

    __slots__ = ("kind", "target", "mod", "bits", "rule", "mode", "dur", "ctrl")

    def __init__(self, kind: int, target: int, mod: CvMod | None, bits: int, rule: int, mode: int, dur: int,
                 ctrl: int) -> None:
        self.kind = kind
        self.target = target
        self.mod = mod
        self.bits = bits
        self.rule = rule
        self.mode = mode
        self.dur = dur
        self.ctrl = ctrl


class Combat:
    """The attack or raid being fought (002 §13, §14): sides, Tactic, the modification phase's state."""

    def __init__(self, raid: bool, attacker: int, att: list[int], dfn: list[int], tactic: int) -> None:
        self.raid = raid
        self.attacker = attacker            # the attacking (raiding) player
        self.att = att                      # the attacking side (warriors; a raid party)
        self.dfn = dfn                      # the defending side (a warrior, a Defensive Group, the raided card)
        self.tactic = tactic
        self.mods: list[list[CvMod]] = [[], []]   # modifiers on each player's side (our_side / their_side)
        self.to_act = attacker              # 002 §13 step 4 (R16): alternating from the attacker
        self.passes = 0
        self.used: list[int] = []           # combat/raid abilities used in this attack or raid (once each)

    def copy(self) -> Combat:
        c = Combat(self.raid, self.attacker, list(self.att), list(self.dfn), self.tactic)
        c.mods = [list(self.mods[0]), list(self.mods[1])]
        c.to_act = self.to_act
        c.passes = self.passes
        c.used = list(self.used)
        return c


def cell_of(x: int, y: int) -> int:
    return (x + 128) * 256 + (y + 128)


def _adjacent(grid: dict[int, int], c: int) -> int:
    """How many cards of a Settlement grid share a side with cell c (R2)."""
    return (c + 256 in grid) + (c - 256 in grid) + (c + 1 in grid) + (c - 1 in grid)


def cell_xy(c: int) -> tuple[int, int]:
    return c // 256 - 128, c % 256 - 128


CELL0: Final = 128 * 256 + 128   # cell_of(0, 0)
NEIGHBOURS: Final = (256, -256, 1, -1)   # R2: the four edges of a square cell


def pipeline(base: int, mods: list[CvMod]) -> int:
    """002 §16's CV modifier order, exact (R18): x/÷ before all, +/− before all, x/÷, +/−, +/− after all,
    x/÷ after all; the result rounded down, never below 0.

    >>> from simulator.engines.realms.cards import OP_DIV
    >>> pipeline(5, [CvMod(OP_ADD, 3, ORD_NORMAL), CvMod(OP_DIV, 2, ORD_BEFORE)])
    5
    >>> pipeline(5, [CvMod(OP_MUL, 2, ORD_NORMAL), CvMod(OP_SUB, 1, ORD_AFTER)])
    9
    """
    simple = True
    total = base
    for m in mods:
        if m.order != ORD_NORMAL or m.op >= OP_MUL:
            simple = False
            break
        total += m.value if m.op == OP_ADD else -m.value
    if simple:
        return total if total > 0 else 0
    num, den = base, 1
    for order, muls in ((ORD_BEFORE, True), (ORD_BEFORE, False), (ORD_NORMAL, True), (ORD_NORMAL, False),
                        (ORD_AFTER, False), (ORD_AFTER, True)):
        for m in mods:
            if m.order != order or (m.op >= OP_MUL) != muls:
                continue
            if m.op == OP_ADD:
                num += m.value * den
            elif m.op == OP_SUB:
                num -= m.value * den
            elif m.op == OP_MUL:
                num *= m.value
            else:
                den *= m.value
    v = num // den
    return v if v > 0 else 0


# ---- helpers ------------------------------------------------------------------------------------------------
def new_stats() -> list[int]:
    return [0] * len(STAT_NAMES)


def stats_dict(stats: list[int]) -> dict[str, int]:
    return dict(zip(STAT_NAMES, stats))


# The card labels of a card table, kept per table (its CardDefs, by identity: CardDef has no __eq__, and the key holds
# them, so an id cannot be reused while its entry lives). A game's labels list is never changed in place (clones share
# it; positions.py replaces it), so the games of one pair of decks share one list. Bounded: cleared past 64 tables.
_LABELS: dict[tuple, list[str]] = {}


def _labels_for(cdef: list[CardDef]) -> list[str]:
    key = tuple(cdef)
    out = _LABELS.get(key)
    if out is None:
        if len(_LABELS) >= 64:
            _LABELS.clear()
        out = default_labels(cdef)
        _LABELS[key] = out
    return out


def default_labels(cdef: list[CardDef]) -> list[str]:
    """code#k, k counting that code's copies over both decks (player 0's first)."""
    seen: dict[str, int] = {}
    out = []
    for d in cdef:
        k = seen.get(d.code, 0) + 1
        seen[d.code] = k
        out.append(f"{d.code}#{k}")
    return out


def tactics_text(bits: int) -> str:
    return "/".join(TACTIC_NAMES[t] for t in TACTIC_ORDER if bits & t) or "no Tactic"


def resources_text(res: tuple[int, int, int, int]) -> str:
    parts = [f"{n} {name.capitalize()}" for n, name in zip(res, ("gold", "food", "timber", "iron")) if n]
    return ", ".join(parts) or "nothing"


def effect_text(e: Eff) -> str:
    if e.kind == E_MODIFY_CV and e.cvmod is not None:
        return f"{e.cvmod.text()} CV"
    if e.kind == E_GRANT_TACTIC:
        return f"has {tactics_text(e.tactics)}"
    from .cards import RULES
    modes = {M_CANNOT: "cannot", M_CAN: "can", M_ALWAYS: "ALWAYS", M_NEVER: "NEVER"}
    return ", ".join(f"{modes[m]} {RULES[r]}" for r, m in e.rules)
