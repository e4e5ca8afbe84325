"""The realms rules engine: the state of one game and every rule of `002_…` (docs/games/realms.md).

`Game(deck_a, deck_b, seed=...)` runs the rules until a player must decide; every decision is an action
(`legal_actions()`, `apply_action()`, `action_text()`, `parse_action()`), as in r1's engine and
`simulator/engines/protocol.py`. Unlike r1's generator, the engine is an explicit state machine — a step code, a
stack of small tuples for abilities being resolved, and plain lists and dicts of ints — so `clone()` copies the
state (no replay) and a position prints and loads at any step boundary.

    >>> from cards.games.realms import bundled_pool, starter_files           # doctest: +SKIP
    >>> g = Game(deck, None, seed=7)                                         # doctest: +SKIP
    >>> while not g.is_terminal(): g.apply_action(g.legal_actions()[0])      # doctest: +SKIP

Every rule names its section (`002 §N`) or reading (`R7`, docs/games/realms.md) in a comment; log lines too.
"""
from __future__ import annotations

import random
from typing import Any, Final

from simulator.engines.common.protocol import IllegalAction
from simulator.engines.common.shuffle import fisher_yates

from .cards import (
    AF_HOST, AF_LEADER, AF_OPP, AF_SEL, AF_SELF, AF_YOU, C_ALL, C_ANY, C_BEHIND, C_CONTROLS, C_HAND_GTE,
    C_HAND_LTE, C_NOT, C_OPP_CONTROLS, C_RESERVE_GTE, C_TACTIC, C_TAKING_PART, C_VP_GTE, C_VP_LTE, C_ZONE,
    CTRL_ANY, CTRL_OPP, CTRL_YOU, DUR_ATTACK, DUR_NEXT_TURN, DUR_RAID, DUR_TURN, E_ADD_RESOURCES, E_ANNIHILATE,
    E_DISBAND, E_DISCARD, E_DISCARD_HAND, E_DRAW, E_GAIN_GOLD, E_GRANT_TACTIC, E_KILL, E_MODIFY_CV, E_MOVE,
    E_RECOVER, E_RECRUIT, E_RETURN, E_RULE, E_SEARCH, E_TAKE_GOLD, EV_ATTACK_WON, EV_BALANCING, EV_BUILT,
    EV_DIES, EV_PLACE_DESTROYED, EV_RAID_WON, EV_RECRUITED, EV_TURN_START, IK_EQUIPMENT, IK_HARMONY,
    IK_NEEDS, IK_PROPHECY, IK_RITUAL, K_ANNIHILATE_SELF, K_DISCARD_HAND, K_DISCARD_SELF, K_KILL,
    K_PAY_GOLD, KW_LONER, KW_WORTHY, M_ALWAYS, M_CAN, M_CANNOT, M_NEVER, N_EVENTS, OP_ADD, OP_MUL,
    OP_SUB, ORD_AFTER, ORD_BEFORE, ORD_NORMAL, R_ATTACK, R_BE_ATTACKED, R_BE_BLOCKED, R_BE_KILLED, R_BE_MOVED,
    R_BE_RAIDED, R_BLOCK, R_JOIN, R_RAID, REF_EACH, REF_EVENT, REF_HOST, REF_LEADER, REF_OUR, REF_SELF,
    REF_TARGET, REF_THEIR, ROLE_ATTACKER, ROLE_DEFENDER, ROLE_RAIDED, ROLE_RAIDER, SZ_BORDER, SZ_DECK,
    SZ_DISCARD, SZ_HAND, SZ_PLAY, SZ_SETTLEMENT, SZ_STRIKE, TAC_ALL, TACTIC_NAMES, TACTIC_ORDER, TM_COMBAT,
    TM_RAID, W_CAVALRY, W_VEHICLE, GOLDFISH_LEADER, Ability, CardDef, Cond, CvMod, Deck, Eff, Sel, Static, TACTIC_BITS,
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

    def copy(self) -> "Combat":
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


class Game:
    """One game of realms between two decks (`deck_b=None`: the goldfish opponent, a Leader and nothing else)."""

    def __init__(self, deck_a: Deck | None, deck_b: Deck | None = None, *, seed: int = 0,
                 first_player: int | None = None, fmt: str = "standard", max_rounds: int = 50,
                 log: bool = False, goldfish_leader: CardDef | None = None, target_vp: int | None = None,
                 template: "Game | None" = None, autostart: bool = True) -> None:
        if template is not None:
            self._copy_from(template)
            return
        if deck_a is None:
            raise ValueError("deck_a is required")
        if fmt not in ("standard", "simplified"):
            raise ValueError(f"unknown format {fmt!r}: standard or simplified (002 §17)")
        self.decks: list[Deck | None] = [deck_a, deck_b]
        self.seed = seed
        self.fmt = fmt
        self.simplified = fmt == "simplified"
        self.target_vp = target_vp if target_vp is not None else (30 if self.simplified else 50)   # 002 §1, §17
        self.max_rounds = max_rounds
        self.goldfish = deck_b is None
        self.first_arg = first_player
        self.rng_n = 0                      # random events so far: the whole state of the game's randomness
        # ---- the card table: instance ids, per-id arrays --------------------------------------------------
        self.cdef: list[CardDef] = []
        self.owner: list[int] = []
        leader_ids: list[list[int]] = [[], []]
        for p in (0, 1):
            deck = self.decks[p]
            if deck is None:
                leaders = [goldfish_leader or GOLDFISH_LEADER]
                cards: list[CardDef] = []
            else:
                leaders = deck.leaders
                cards = deck.cards
            for d in leaders:
                leader_ids[p].append(len(self.cdef))
                self.cdef.append(d)
                self.owner.append(p)
            for d in cards:
                self.cdef.append(d)
                self.owner.append(p)
        n = len(self.cdef)
        self.labels: list[str] = _labels_for(self.cdef)
        self.zone: list[int] = [Z_OUT] * n
        self.where: list[int] = list(self.owner)
        self.host: list[int] = [-1] * n
        self.cell: list[int] = [-1] * n
        self.supplied: list[bool] = [False] * n
        self.group: list[int] = [0] * n
        self.moved_t: list[int] = [-1] * n
        self.attacked_t: list[int] = [-1] * n
        self.recruited_t: list[int] = [-1] * n
        self.seen: list[int] = [0] * n      # bit p: player p knows which card this is, where it is
        self.part: list[int] = [0] * n      # role in the attack or raid being fought
        self.z: list[list[list[int]]] = [[[] for _ in range(N_ZONES)] for _ in (0, 1)]
        for i in range(n):
            if self.cdef[i].is_leader:
                self.z[self.owner[i]][Z_OUT].append(i)
                self.seen[i] = 1 << self.owner[i]   # a player knows its own Leaders
            else:
                self.zone[i] = Z_DECK
                self.z[self.owner[i]][Z_DECK].append(i)
        self.leader_ids = leader_ids
        self.leader = [-1, -1]
        self.grid: list[dict[int, int]] = [{}, {}]
        self.grid_v = [0, 0]                 # bumped whenever a Settlement changes (build cells are cached by it)
        self._front: list[list[tuple[int, int]]] = [[], []]
        self._cells_v = [-1, -1]
        self.atts: dict[int, list[int]] = {}
        self.groups: dict[int, tuple[int, int, tuple[int, ...]]] = {}
        self.next_gid = 1
        self.tmp: list[TmpEff] = []
        self.uses: dict[int, int] = {}
        self.reserve = [0, 0]
        self.vp = [0, 0]
        self.vp_tokens = [0, 0]
        self.add_res: list[list[int]] = [[0, 0, 0, 0], [0, 0, 0, 0]]
        self.mulliganed = [False, False]
        self.leader_choice = [-1, -1]
        self.step = ST_LEADER
        self.setup_p = 0
        self.turn = 0                      # turns begun, both players together
        self.turns_taken = [0, 0]
        self.active = 0
        self.first = 0
        self.cb: Combat | None = None
        self.raid_done = False
        self.reward_pending = False
        self.attack_skip = False
        self.bal_avail = [0, 0, 0, 0]
        self.bal_unpaid: list[int] = []
        self.bal_forced = 0
        self.stack: list[tuple] = []
        self.pending: Decision | None = None
        self.over = False
        self.winner: int | None = None
        self.reason: str | None = None
        self.logs: list[str] | None = [] if log else None
        # ---- derived, rebuilt when the cards in play change (statics, listeners) -------------------------
        self._dirty = True
        self._ipc: list[list[int] | None] = [None, None]   # _in_play's lists, until the cards in play change
        self.n_trig = [0] * N_EVENTS   # trigger abilities of cards in play, per event (0: no listener, no lookup)
        self._st_cv: list[tuple[int, Static]] = []
        self._st_icon: list[tuple[int, Static]] = []
        self._st_cost: list[tuple[int, Static]] = []
        self._st_grant: list[tuple[int, Static]] = []
        self._st_rule: list[tuple[int, Static]] = []
        self._trig: list[list[tuple[int, Ability]]] = [[] for _ in range(N_EVENTS)]
        self._n_tmp_rule = 0
        self._n_tmp_tac = 0
        self._in_static = 0
        self._cvc: dict[int, int] | None = None   # CV memo while a decision waits (the state cannot change)
        # icons() memo, read only while _cvc is not None (a decision waits); dropped whenever one starts to wait and
        # made by the first icons() call that walks statics then (most decisions never make one)
        self._icc: dict[int, tuple[tuple[int, int, int, int], tuple[int, int, int, int]]] | None = None
        # ---- statistics for the reports ----------------------------------------------------------------
        self.stats: list[list[int]] = [new_stats(), new_stats()]
        self.vp_by_turn: list[list[int]] = [[], []]
        self.gold_by_turn: list[list[int]] = [[], []]
        self.unpaid_by_turn: list[list[int]] = [[], []]
        self.rec_turn = [-1, -1]     # the turn (of that player) whose end figures were last recorded
        self.rec_unpaid = [-1, -1]   # the turn whose balancing was last recorded
        self.played: list[dict[str, int]] = [{}, {}]
        self._views: list[Any] = [None, None]
        if autostart:
            self._run()

    # =================================================================================================
    # copying
    def _copy_from(self, o: "Game") -> None:
        self.decks = o.decks
        self.seed = o.seed
        self.fmt = o.fmt
        self.simplified = o.simplified
        self.target_vp = o.target_vp
        self.max_rounds = o.max_rounds
        self.goldfish = o.goldfish
        self.first_arg = o.first_arg
        self.rng_n = o.rng_n
        self.cdef = o.cdef
        self.owner = o.owner
        self.labels = o.labels
        self.zone = o.zone[:]
        self.where = o.where[:]
        self.host = o.host[:]
        self.cell = o.cell[:]
        self.supplied = o.supplied[:]
        self.group = o.group[:]
        self.moved_t = o.moved_t[:]
        self.attacked_t = o.attacked_t[:]
        self.recruited_t = o.recruited_t[:]
        self.seen = o.seen[:]
        self.part = o.part[:]
        self.z = [[lst[:] for lst in o.z[0]], [lst[:] for lst in o.z[1]]]
        self.leader_ids = o.leader_ids
        self.leader = o.leader[:]
        self.grid = [dict(o.grid[0]), dict(o.grid[1])]
        self.grid_v = o.grid_v[:]
        self._front = [o._front[0], o._front[1]]   # immutable once built: shared
        self._cells_v = o._cells_v[:]
        self.atts = {k: v[:] for k, v in o.atts.items()}
        self.groups = dict(o.groups)
        self.next_gid = o.next_gid
        self.tmp = o.tmp[:]
        self.uses = dict(o.uses)
        self.reserve = o.reserve[:]
        self.vp = o.vp[:]
        self.vp_tokens = o.vp_tokens[:]
        self.add_res = [o.add_res[0][:], o.add_res[1][:]]
        self.mulliganed = o.mulliganed[:]
        self.leader_choice = o.leader_choice[:]
        self.step = o.step
        self.setup_p = o.setup_p
        self.turn = o.turn
        self.turns_taken = o.turns_taken[:]
        self.active = o.active
        self.first = o.first
        self.cb = o.cb.copy() if o.cb is not None else None
        self.raid_done = o.raid_done
        self.reward_pending = o.reward_pending
        self.attack_skip = o.attack_skip
        self.bal_avail = o.bal_avail[:]
        self.bal_unpaid = o.bal_unpaid[:]
        self.bal_forced = o.bal_forced
        self.stack = o.stack[:]
        self.pending = o.pending   # immutable once made: shared
        self.over = o.over
        self.winner = o.winner
        self.reason = o.reason
        self.logs = o.logs[:] if o.logs is not None else None
        self._dirty = True
        self._ipc = [None, None]
        self.n_trig = o.n_trig[:]
        self._st_cv = []
        self._st_icon = []
        self._st_cost = []
        self._st_grant = []
        self._st_rule = []
        self._trig = [[] for _ in range(N_EVENTS)]
        self._n_tmp_rule = o._n_tmp_rule
        self._n_tmp_tac = o._n_tmp_tac
        self._in_static = 0
        self._cvc = {} if o._cvc is not None else None
        self._icc = None
        self.stats = [o.stats[0][:], o.stats[1][:]]
        self.vp_by_turn = [o.vp_by_turn[0][:], o.vp_by_turn[1][:]]
        self.gold_by_turn = [o.gold_by_turn[0][:], o.gold_by_turn[1][:]]
        self.unpaid_by_turn = [o.unpaid_by_turn[0][:], o.unpaid_by_turn[1][:]]
        self.rec_turn = o.rec_turn[:]
        self.rec_unpaid = o.rec_unpaid[:]
        self.played = [dict(o.played[0]), dict(o.played[1])]
        self._views = [None, None]

    def clone(self) -> "Game":
        """An independent copy of the state (lists, dicts and small objects copied; no replay, no deepcopy)."""
        return Game(None, template=self)

    # =================================================================================================
    # public API (simulator/engines/protocol.py)
    def current_player(self) -> int:
        """The player who must decide now (-1 when the game is over)."""
        return self.pending.player if self.pending is not None else -1

    def legal_actions(self) -> list:
        """The options of the pending decision (empty once the game is over). Do not modify the list."""
        return self.pending.options if self.pending is not None else []

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        """[1, -1] when player 0 won, [-1, 1] when player 1 won, [0, 0] for a draw or an unfinished game."""
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def apply_action(self, action: Any) -> None:
        """Resolve the pending decision with `action` (a tuple from legal_actions() or its text) and run the rules
        to the next decision. An illegal action raises IllegalAction and changes nothing."""
        dec = self.pending
        if dec is None:
            raise IllegalAction("the game is over")
        if isinstance(action, str):
            action = self.parse_action(action)
        elif isinstance(action, list):
            action = tuple(action)
        if action not in dec.options and not self._legal_listing(dec, action):
            raise IllegalAction(f"{self._safe_text(action)} is not a legal {dec.kind} action for player "
                                f"{dec.player}; options: {', '.join(self.action_text(a) for a in dec.options[:12])}"
                                + (" ..." if len(dec.options) > 12 else ""))
        self.pending = None
        self._cvc = None
        self._handle(dec, action)
        self._run()

    def to_position(self) -> dict:
        """The state as a position (positions.py): JSON that from_position() loads back."""
        from .positions import to_position
        return to_position(self)

    def view(self, player: int):
        """What `player` may know (simulator/engines/protocol.py): see view.py."""
        v = self._views[player]
        if v is None:
            from .view import PlayerView
            v = PlayerView(self, player)
            self._views[player] = v
        return v

    @property
    def round(self) -> int:
        """Rounds begun: a round is one turn of each player (the goldfish takes none), counted by the first
        player's turns."""
        return self.turns_taken[self.first]

    # =================================================================================================
    # the main loop
    def _run(self) -> None:
        while not self.over:
            dec = self.pending
            if dec is not None:
                if len(dec.options) != 1:
                    self._cvc = {}
                    self._icc = None
                    return
                # a decision with exactly one option is taken by itself (CONTRACTS §6)
                self.pending = None
                self._handle(dec, dec.options[0])
                continue
            if self.stack:
                self._step_stack()
            else:
                self._step()

    def _decide(self, kind: str, player: int, options: list, ctx: tuple = ()) -> None:
        self.pending = Decision(kind, player, options, ctx)

    def _log(self, p: int, section: str, msg: str) -> None:
        if self.logs is not None:
            self.logs.append(f"T{self.turn} {SEAT[p] if p >= 0 else '--'} {section} {msg}")

    def _event_rng(self) -> random.Random:
        """The random.Random of the game's next random event (a shuffle, a random discard, the first player): seeded
        from the game's seed and the event's number, so the randomness to come is just (seed, events so far) —
        what clone() copies and a position prints."""
        k = self.rng_n
        self.rng_n = k + 1
        return random.Random((self.seed * 0x9E3779B97F4A7C15 + (k + 1) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF)

    def _rand(self) -> float:
        return self._event_rng().random()

    def _shuffle(self, lst: list[int]) -> None:
        """Fisher–Yates on one random event's random.Random (results do not depend on the Python version)."""
        fisher_yates(self._event_rng(), lst)

    # =================================================================================================
    # steps
    def _step(self) -> None:
        st = self.step
        if st == ST_ACTIONS:
            self._actions_decision()
        elif st == ST_BALANCE:
            self._balance_decision()
        elif st == ST_ATTACK:
            self._attack_step()
        elif st == ST_RAID:
            self._raid_step()
        elif st == ST_TURN_START:
            self._turn_start()
        elif st == ST_DRAW:
            self._draw_step()
        elif st == ST_BAL_START:
            self._balancing_start()
        elif st == ST_END:
            self._end_of_turn()
        elif st == ST_LEADER:
            self._setup_leader()
        elif st == ST_MULLIGAN:
            self._setup_mulligan()

    # ---- 002 §8 setup ---------------------------------------------------------------------------------
    def _setup_leader(self) -> None:
        # 002 §8 step 1: each player secretly chooses one of its Leaders; both are revealed at once
        while self.setup_p < 2:
            p = self.setup_p
            ids = self.leader_ids[p]
            if self.leader_choice[p] < 0:
                opts = []
                seen_codes: set[str] = set()
                for i in ids:
                    if self.cdef[i].code not in seen_codes:
                        seen_codes.add(self.cdef[i].code)
                        opts.append((A_LEADER, i))
                if len(opts) > 1:
                    self._decide("leader", p, opts)
                    return
                self.leader_choice[p] = ids[0]
            self.setup_p += 1
        for p in (0, 1):
            i = self.leader_choice[p]
            self.leader[p] = i
            self._move(i, Z_SETTLE, p)
            self.cell[i] = CELL0
            self.grid[p][CELL0] = i
            self.supplied[i] = True
            if self.logs is not None:
                self._log(p, "002 §8", f"reveals {self.cdef[i].title} as Leader (CV {self.cdef[i].cv}, "
                                       f"{tactics_text(self.cdef[i].tactics)})")
        # 002 §8 steps 2-4: shuffle, set aside 3 unseen (the starting discard pile, R12), draw 7
        for p in (0, 1):
            if self.decks[p] is None:
                continue
            deck = self.z[p][Z_DECK]
            self._shuffle(deck)
            for _ in range(min(3, len(deck))):
                i = deck.pop()
                self.zone[i] = Z_ASIDE
                self.z[p][Z_ASIDE].append(i)
            self._draw(p, 7, log=False)
            if self.logs is not None:
                self._log(p, "002 §8", f"sets aside 3 cards unseen and draws {len(self.z[p][Z_HAND])}")
        self.step = ST_MULLIGAN
        self.setup_p = 0

    def _setup_mulligan(self) -> None:
        # 002 §8 step 4: the Gift of Fate, once per player, decided before turn order is known (R12)
        while self.setup_p < 2:
            p = self.setup_p
            self.setup_p += 1
            if self.decks[p] is not None:
                self._decide("mulligan", p, [(A_KEEP,), (A_MULLIGAN,)])
                return
        # 002 §8 step 6: 5 Gold each (the goldfish opponent has nothing but its Leader)
        for p in (0, 1):
            self.reserve[p] = 0 if self.decks[p] is None else 5
        # 002 §8 step 7 (R13): turn order at random; the goldfish opponent never takes a turn
        if self.goldfish:
            self.first = 0
        elif self.first_arg is not None:
            self.first = self.first_arg
        else:
            self.first = int(self._rand() * 2)
        if self.logs is not None:
            self._log(self.first, "002 §8", "goes first (R13: skips the Attack and Raid steps of its first turn)")
        self.active = self.first
        self.step = ST_TURN_START

    def _mulligan(self, p: int, take: bool) -> None:
        if take:
            hand = self.z[p][Z_HAND]
            for i in hand:
                self.zone[i] = Z_ASIDE
                self.seen[i] = 1 << p
                self.z[p][Z_ASIDE].append(i)
            hand.clear()
            self._draw(p, 7, log=False)
            self.mulliganed[p] = True
            if self.logs is not None:
                self._log(p, "002 §8", "takes the Gift of Fate: the hand is set aside onto the discard pile (R12), "
                                       "7 new cards drawn")
        else:
            if self.logs is not None:
                self._log(p, "002 §8", "keeps its opening hand")

    # ---- start of turn, draw ------------------------------------------------------------------------------
    def _turn_start(self) -> None:
        p = self.active
        if self.decks[p] is None:   # the goldfish opponent takes no turns
            self.active = 1 - p
            return
        if p == self.first and self.turns_taken[p] >= self.max_rounds:
            self._stalemate()
            return
        self.turn += 1
        self.turns_taken[p] += 1
        self.uses.clear()
        self.add_res[p] = [0, 0, 0, 0]
        if self.logs is not None:
            self._log(p, "002 §9", f"turn {self.turns_taken[p]} begins (VP {self.vp[0]}-{self.vp[1]}, "
                                   f"Reserve {self.reserve[p]})")
        # R14: the start of the turn clears what lasted until this player's next turn
        for gid in [g for g, (kind, o, _) in self.groups.items() if o == p and kind == G_DEFENSIVE]:
            self._disband(gid, "002 §11", "a Defensive Group lasts until the start of its owner's next turn")
        for i in list(self.z[p][Z_RITUAL]):
            if self.logs is not None:
                self._log(p, "002 §7.4", f"{self.cdef[i].name} ends (R9) and is discarded")
            self._leave(i, Z_DISCARD)
        self._expire(DUR_NEXT_TURN, p)
        self.attack_skip = p == self.first and self.turns_taken[p] == 1   # R13
        self.step = ST_DRAW
        self._fire_simple(EV_TURN_START, p)

    def _draw_step(self) -> None:
        p = self.active
        need = 7 - len(self.z[p][Z_HAND])
        if need > 0:   # 002 §9 step 1: draw up to 7; nothing interrupts drawing
            self._draw(p, need)
        self.step = ST_ACTIONS

    def _draw(self, p: int, n: int, log: bool = True) -> int:
        """Draw n cards; when the deck runs out the discard pile (set-aside cards too) is shuffled into a new deck
        (002 §9); with both empty, drawing stops (R15). Returns the number drawn."""
        deck = self.z[p][Z_DECK]
        hand = self.z[p][Z_HAND]
        drawn = 0
        bit = 1 << p
        for _ in range(n):
            if not deck:
                if not self._reshuffle(p):
                    if self.logs is not None:
                        self._log(p, "R15", "deck and discard pile are empty: drawing stops")
                    break
            i = deck.pop()
            self.zone[i] = Z_HAND
            self.seen[i] = bit
            hand.append(i)
            drawn += 1
        if log and drawn:
            if self.logs is not None:
                self._log(p, "002 §9", f"draws {drawn}")
        return drawn

    def _reshuffle(self, p: int) -> bool:
        zs = self.z[p]
        pile = zs[Z_DISCARD] + zs[Z_ASIDE]
        if not pile:
            return False
        zs[Z_DISCARD] = []
        zs[Z_ASIDE] = []
        deck = zs[Z_DECK]
        for i in pile:
            self.zone[i] = Z_DECK
            self.seen[i] = 0
            deck.append(i)
        self._shuffle(deck)
        self.stats[p][S_RESHUFFLES] += 1
        if self.logs is not None:
            self._log(p, "002 §9", f"the deck ran out: the discard pile ({len(pile)} cards) is shuffled into a new "
                                   "deck")
        return True

    # ---- 002 §10 Actions -----------------------------------------------------------------------------------
    def _actions_decision(self) -> None:
        self._decide("actions", self.active, self.action_options(self.active))

    def action_options(self, p: int) -> list:
        """Every legal action of p's Actions step (002 §10), `done` last. Alike cards in hand are one option."""
        self._refresh()
        opts: list = []
        zs = self.z[p]
        reserve = self.reserve[p]
        cdef = self.cdef
        seen_defs: set[int] = set()
        warriors = zs[Z_BORDER] + zs[Z_STRIKE]
        needs = self._types_in_play(p)
        for i in zs[Z_HAND]:
            d = cdef[i]
            key = id(d)
            if key in seen_defs:
                continue
            seen_defs.add(key)
            if d.unique and self._copy_in_play(p, d.name):
                continue   # 002 §15 (R19)
            cost = self._cost(i, p)
            if cost > reserve:
                continue
            if d.is_place:
                if self._has_cell(p, d.nc):
                    opts.append((A_BUILD, i))
            elif d.is_warrior:
                for zone in self._recruit_zones(p, d):
                    opts.append((A_RECRUIT, i, zone))
            else:
                ik = d.ik
                need = IK_NEEDS.get(ik, -1)
                if need >= 0 and not (needs >> need) & 1:
                    continue   # R11
                if ik == IK_EQUIPMENT:
                    for w in warriors:
                        if self._can_equip(w, d):
                            opts.append((A_PLAY, i, w))
                elif ik == IK_HARMONY:
                    for h in self._in_play(p):
                        if self.keywords(h) & KW_WORTHY and self.zone[h] != Z_ATTACHED:
                            opts.append((A_PLAY, i, h))
                elif ik in (IK_RITUAL, IK_PROPHECY):
                    opts.append((A_PLAY, i, -1))
                else:
                    ab = d.play_ab
                    if ab is not None and self._usable(ab, i, p, -1, extra_gold=cost):
                        opts.append((A_PLAY, i, -1))
        for w in warriors:
            if self.moved_t[w] != self.turn and not self.group[w] and self.allowed(w, R_BE_MOVED):
                opts.append((A_MOVE, w))
        for i in self._in_play(p):
            d = cdef[i]
            if d.actions and self._active_source(i):
                for k, ab in enumerate(d.abilities):
                    if ab.timing == 3 and self.uses.get(i * 32 + k, 0) < ab.limit and \
                            self._usable(ab, i, p, self._subject(i)):
                        opts.append((A_USE, i, k))
        if zs[Z_ATTACHED]:
            for w in warriors:
                for i in self.atts.get(w, ()):
                    if cdef[i].ik == IK_EQUIPMENT:
                        opts.append((A_DISCARD, i))   # R9: you may discard your own Equipment in your Actions
        if len(warriors) >= 2:
            self._group_options(p, opts)
        opts.append((A_DONE,))
        return opts

    def _group_options(self, p: int, opts: list) -> None:
        """002 §11: for each kind and zone, the warriors that could group under each Tactic (the engine accepts
        any 2+ of one listed set: `group offensive a+b`)."""
        done: set = set()
        for zone in (Z_STRIKE, Z_BORDER):
            free = []
            for w in self.z[p][zone]:
                if not self.group[w] and self.allowed(w, R_JOIN):
                    free.append((w, self.tactics(w)))
            if len(free) < 2:
                continue
            for t in TACTIC_ORDER:
                members = tuple(w for w, bits in free if bits & t)
                if len(members) >= 2 and members not in done:
                    done.add(members)
                    if zone == Z_STRIKE:
                        opts.append((A_GROUP, G_OFFENSIVE, members))
                    opts.append((A_GROUP, G_DEFENSIVE, members))

    def _types_in_play(self, p: int) -> int:
        bits = 0
        for w in self.z[p][Z_BORDER] + self.z[p][Z_STRIKE]:
            bits |= self.cdef[w].wbit
        return bits

    def _recruit_zones(self, p: int, d: CardDef) -> list[int]:
        """R7, R8: where a warrior of this type may be recruited now (none when its type is locked)."""
        if self.simplified:   # 002 §17: Cavalry and Vehicle restrictions ignored
            return [Z_BORDER, Z_STRIKE]
        wt = d.wtype
        if wt == W_CAVALRY or wt == W_VEHICLE:
            bit = 1 << wt
            if not any(self.cdef[q].unlocks & bit and self.supplied[q] for q in self.z[p][Z_SETTLE]):
                return []
            if wt == W_VEHICLE:
                return [Z_STRIKE]
        return [Z_BORDER, Z_STRIKE]

    def _can_equip(self, w: int, d: CardDef) -> bool:
        """R10: at most 1 Weapon and 1 Armor on each Warrior (ignored in the simplified format, 002 §17)."""
        if self.simplified or not d.slot:
            return True
        for a in self.atts.get(w, ()):
            if self.cdef[a].slot & d.slot:
                return False
        return True

    def _build_cells(self, p: int, d: CardDef) -> list[int]:
        """002 §10, R2: empty cells edge-adjacent to the Leader or a Place, where neither the new Place nor any card
        it touches would have more adjacent cards than its Neighbor Count."""
        nc = d.nc
        return [e for e, count in self._frontier(p) if count <= nc]

    def _has_cell(self, p: int, nc: int) -> bool:
        """Whether a Place of Neighbor Count nc can be built somewhere (002 §10, R2), from the cached frontier: it is
        computed once per change of the Settlement and the build that follows reads it again (an early-exit scan
        of the grid instead cost more: it is repeated for every Place in hand and every decision until a build)."""
        for _, count in self._frontier(p):
            if count <= nc:
                return True
        return False

    def _frontier(self, p: int) -> list[tuple[int, int]]:
        """The empty cells next to the Settlement that no neighbour's Neighbor Count forbids, each with how many
        cards it touches (sorted by cell; recomputed only when the Settlement changes)."""
        if self._cells_v[p] == self.grid_v[p]:
            return self._front[p]
        grid = self.grid[p]
        cdef = self.cdef
        out: list[tuple[int, int]] = []
        if grid:
            # a small window over the Settlement, two cells of margin (a neighbour's neighbour stays inside), as a
            # flat list: 0 empty, 1 a card, 2 a card that cannot take one more neighbour, 3 an empty cell checked
            # (native int indexing: testing the grid dict boxed every cell number)
            lo_x = lo_y = 1 << 20
            hi_x = hi_y = -1
            for c in grid:
                x = c >> 8
                y = c & 255
                if x < lo_x:
                    lo_x = x
                if x > hi_x:
                    hi_x = x
                if y < lo_y:
                    lo_y = y
                if y > hi_y:
                    hi_y = y
            h = hi_y - lo_y + 5
            base = 2 * h + 2 - lo_x * h - lo_y   # window index of cell c: (c >> 8) * h + (c & 255) + base
            occ = [0] * ((hi_x - lo_x + 5) * h)
            for c in grid:
                occ[(c >> 8) * h + (c & 255) + base] = 1
            for c, q in grid.items():
                k = (c >> 8) * h + (c & 255) + base
                if (occ[k + h] != 0) + (occ[k - h] != 0) + (occ[k + 1] != 0) + (occ[k - 1] != 0) >= cdef[q].nc:
                    occ[k] = 2
            steps = (h, -h, 1, -1)   # NEIGHBOURS in the window, in the same order
            for c in grid:
                k = (c >> 8) * h + (c & 255) + base
                for n in range(4):
                    ke = k + steps[n]
                    if occ[ke]:
                        continue   # a card, or already checked
                    occ[ke] = 3
                    count = 0
                    ok = True
                    for m in range(4):
                        v = occ[ke + steps[m]]
                        if v == 1 or v == 2:
                            count += 1
                            if v == 2:
                                ok = False
                                break
                    if ok:
                        out.append((c + NEIGHBOURS[n], count))
        out.sort()
        self._front[p] = out
        self._cells_v[p] = self.grid_v[p]
        return out

    def _neighbours(self, p: int, c: int) -> int:
        return _adjacent(self.grid[p], c)

    # ---- playing cards ------------------------------------------------------------------------------------
    def _play_card(self, p: int, a: tuple) -> None:
        kind = a[0]
        i = a[1]
        d = self.cdef[i]
        if kind == A_BUILD:
            cells = self._build_cells(p, d)
            if len(cells) == 1:
                self._build(p, i, cells[0])
            else:
                self._decide("cell", p, [(A_CELL, c) for c in cells], (i,))
            return
        cost = self._cost(i, p)
        self.reserve[p] -= cost
        self._count_play(p, d)
        if kind == A_RECRUIT:
            self._recruit(p, i, a[2], cost)
            return
        host = a[2]
        ik = d.ik
        if ik == IK_EQUIPMENT or ik == IK_HARMONY:
            self._attach(i, host)
            if self.logs is not None:
                self._log(p, "002 §10", f"{'equips' if ik == IK_EQUIPMENT else 'bestows'} {d.name} on "
                                        f"{self.cdef[host].name} ({cost} Gold)")
            self._enters(i, p)
        elif ik == IK_PROPHECY:
            self._attach(i, self.leader[p])
            if self.logs is not None:
                self._log(p, "002 §10", f"utters {d.name}: attached to the Leader for the game ({cost} Gold)")
            self._enters(i, p)
        elif ik == IK_RITUAL:
            self._move(i, Z_RITUAL, p)
            if self.logs is not None:
                self._log(p, "002 §10", f"performs {d.name} until the start of its next turn ({cost} Gold)")
            self._enters(i, p)
        else:
            # a plain Intrigue or an Art Spell: it resolves, then it is discarded (R9)
            self._move(i, Z_LIMBO, p)
            if self.logs is not None:
                self._log(p, "002 §10", f"plays {d.name} ({cost} Gold)")
            self.stack.append((F_DISCARD_LIMBO, i))
            ab = self._hand_ability(d)
            if ab is not None:
                self.stack.append((F_ABILITY, i, d.abilities.index(ab), p, 0, (), -1))

    def _hand_ability(self, d: CardDef) -> Ability | None:
        cb = self.cb
        if cb is None:
            return d.play_ab
        lst = d.raid if cb.raid else d.combat
        return lst[0] if lst else None

    def _count_play(self, p: int, d: CardDef) -> None:
        self.stats[p][S_CARDS_PLAYED] += 1
        self.played[p][d.name] = self.played[p].get(d.name, 0) + 1

    def _build(self, p: int, i: int, c: int) -> None:
        d = self.cdef[i]
        cost = self._cost(i, p)
        self.reserve[p] -= cost
        self._count_play(p, d)
        self._move(i, Z_SETTLE, p)
        self.cell[i] = c
        self.grid[p][c] = i
        self.grid_v[p] += 1
        self._supply(p, quiet=i)
        x, y = cell_xy(c)
        if self.logs is not None:
            self._log(p, "002 §10", f"builds {d.name} at {x},{y} ({cost} Gold)")
        self.stats[p][S_PLACES_BUILT] += 1
        self._fire_card(EV_BUILT, i)
        self._enters(i, p)

    def _recruit(self, p: int, i: int, zone: int, cost: int) -> None:
        d = self.cdef[i]
        self._move(i, zone, p)
        self.recruited_t[i] = self.turn
        if self.logs is not None:
            self._log(p, "002 §10", f"recruits {d.name} (CV {d.cv}) into the "
                                    f"{'Borderlands' if zone == Z_BORDER else 'Strike Force'} ({cost} Gold)")
        self.stats[p][S_WARRIORS_RECRUITED] += 1
        self._fire_card(EV_RECRUITED, i)
        self._enters(i, p)

    def _enters(self, i: int, p: int) -> None:
        d = self.cdef[i]
        if d.enters:
            for ab in reversed(d.enters):
                self.stack.append((F_ABILITY, i, d.abilities.index(ab), p, 0, (), -1))

    def _attach(self, i: int, host: int) -> None:
        p = self.owner[i]
        self._move(i, Z_ATTACHED, p)
        self.host[i] = host
        self.atts.setdefault(host, []).append(i)

    # ---- moving cards ---------------------------------------------------------------------------------
    def _move(self, i: int, zone: int, p: int) -> None:
        """Put card i into zone of player p's lists (no rules: callers apply them)."""
        old = self.zone[i]
        self.z[self.where[i]][old].remove(i)
        self.zone[i] = zone
        self.where[i] = p
        self.z[p][zone].append(i)
        if Z_SETTLE <= zone <= Z_LIMBO or zone in (Z_DISCARD, Z_ANNIH, Z_VP):
            self.seen[i] = 3
        if (Z_SETTLE <= zone <= Z_RITUAL) or (Z_SETTLE <= old <= Z_RITUAL):
            self._dirty = True
            self._ipc[0] = None
            self._ipc[1] = None
            now = Z_SETTLE <= zone <= Z_RITUAL
            if now != (Z_SETTLE <= old <= Z_RITUAL):
                trig = self.cdef[i].triggers
                if trig:
                    for ab in trig:
                        self.n_trig[ab.event] += 1 if now else -1

    def _leave(self, i: int, dest: int, to: int = -1) -> None:
        """Card i leaves play for dest (discard, annihilated, hand, a VP pile); its attachments are discarded, its
        Group loses it, its Place's cell empties (002 §3, §11, §15)."""
        o = self.owner[i]
        for a in self.atts.pop(i, []):
            if self.zone[a] == Z_ATTACHED:
                self.host[a] = -1
                self._leave(a, Z_DISCARD)
        h = self.host[i]
        if h >= 0:
            lst = self.atts.get(h)
            if lst is not None and i in lst:
                lst.remove(i)
            self.host[i] = -1
        was_place = self.zone[i] == Z_SETTLE
        gid = self.group[i]
        if gid:
            self._leave_group(i, gid)
        self._move(i, dest, o if to < 0 else to)
        if dest == Z_HAND:
            self.seen[i] = 3
        if was_place:
            c = self.cell[i]
            if self.grid[o].get(c) == i:
                del self.grid[o][c]
                self.grid_v[o] += 1
            self.cell[i] = -1
            self.supplied[i] = False
            self._supply(o)
        if self.tmp:
            self.tmp = [t for t in self.tmp if t.target != i]
            self._count_tmp()
        self.part[i] = 0
        cb = self.cb
        if cb is not None:
            if i in cb.att:
                cb.att.remove(i)
            if i in cb.dfn:
                cb.dfn.remove(i)
        self._dirty = True

    def _kill(self, i: int, why: str) -> None:
        """A warrior dies (to its owner's discard pile, with its attachments); `dies` triggers follow."""
        if self.zone[i] not in (Z_BORDER, Z_STRIKE):
            return
        if not self.allowed(i, R_BE_KILLED):
            if self.logs is not None:
                self._log(self.owner[i], "002 §16", f"{self.cdef[i].name} cannot be killed")
            return
        frames = self._collect(EV_DIES, i)
        o = self.owner[i]
        if self.logs is not None:
            self._log(o, why, f"{self.cdef[i].name} dies")
        self.stats[o][S_WARRIORS_LOST] += 1
        self.stats[1 - o][S_WARRIORS_KILLED] += 1
        self._leave(i, Z_DISCARD)
        self._push_frames(frames)

    def _supply(self, p: int, quiet: int = -1) -> None:
        """002 §15: a Place is supplied while an unbroken path of adjacent cards joins it to the Leader."""
        grid = self.grid[p]
        supplied = self.supplied
        if quiet >= 0:
            # a Place just built beside a supplied card, in a Settlement where every Place is supplied: it is
            # supplied and nothing else changes (a new card can only reconnect cards that were cut off)
            c = self.cell[quiet]
            near = False
            for dn in NEIGHBOURS:
                q = grid.get(c + dn, -1)
                if q >= 0 and supplied[q]:
                    near = True
                    break
            if near and all(supplied[i] for i in self.z[p][Z_SETTLE] if i != quiet):
                if not supplied[quiet]:
                    supplied[quiet] = True
                    self._dirty = True
                return
        reach = {CELL0} if CELL0 in grid else set()
        todo = list(reach)
        while todo:
            c = todo.pop()
            for dn in NEIGHBOURS:
                e = c + dn
                if e in grid and e not in reach:
                    reach.add(e)
                    todo.append(e)
        for c, i in grid.items():
            s = c in reach
            if self.supplied[i] != s:
                self.supplied[i] = s
                self._dirty = True
                if i != self.leader[p] and i != quiet:
                    if self.logs is not None:
                        self._log(p, "002 §15", f"{self.cdef[i].name} is "
                                                f"{'supplied again' if s else 'cut off from the Supply Line'}")

    # ---- groups ---------------------------------------------------------------------------------------
    def _form_group(self, p: int, kind: int, members: tuple[int, ...]) -> None:
        chosen = set(members)   # in the order of their zone (what a position reproduces), however listed
        members = tuple(w for w in self.z[p][self.zone[members[0]]] if w in chosen)
        gid = self.next_gid
        self.next_gid += 1
        self.groups[gid] = (kind, p, members)
        for w in members:
            self.group[w] = gid
        if self.logs is not None:
            self._log(p, "002 §11", f"forms {'an Offensive' if kind == G_OFFENSIVE else 'a Defensive'} Group: "
                                    f"{', '.join(self.cdef[w].name for w in members)} "
                                    f"({tactics_text(self.group_tactics(members))})")

    def group_tactics(self, members: tuple[int, ...] | list[int]) -> int:
        bits = TAC_ALL
        for w in members:
            bits &= self.tactics(w)
        return bits

    def _disband(self, gid: int, section: str, why: str = "") -> None:
        g = self.groups.pop(gid, None)
        if g is None:
            return
        for w in g[2]:
            if self.group[w] == gid:
                self.group[w] = 0
        if self.logs is not None:
            self._log(g[1], section, f"the Group of {', '.join(self.cdef[w].name for w in g[2])} disbands"
                                     + (f" ({why})" if why else ""))

    def _leave_group(self, w: int, gid: int) -> None:
        g = self.groups.get(gid)
        self.group[w] = 0
        if g is None:
            return
        members = tuple(m for m in g[2] if m != w)
        self.groups[gid] = (g[0], g[1], members)
        self._check_group(gid)

    def _check_group(self, gid: int) -> None:
        g = self.groups.get(gid)
        if g is not None and (len(g[2]) < 2 or not self.group_tactics(g[2])):
            self._disband(gid, "002 §11", "fewer than 2 members, or no Tactic they all share")

    def _check_groups(self) -> None:
        for gid in list(self.groups):
            self._check_group(gid)

    # =================================================================================================
    # 002 §12 Resource Balancing (R4)
    def _balancing_start(self) -> None:
        p = self.active
        self.step = ST_BALANCE
        self.bal_forced = 0
        self.bal_unpaid = []
        # the balancing's inputs are taken after its triggers resolve: see _balance_init
        self.bal_avail = [-1, 0, 0, 0]
        self._fire_simple(EV_BALANCING, p)

    def _balance_init(self, p: int) -> None:
        if self._dirty:
            self._refresh()
        avail = [self.reserve[p], 0, 0, 0]
        extra = self.add_res[p]
        for r in range(4):
            avail[r] += extra[r]
        unpaid: list[int] = []
        fast = not self._st_icon
        cdef = self.cdef
        for i in self._in_play(p):
            if self.zone[i] == Z_SETTLE and not self.supplied[i]:
                continue   # 002 §15: an unsupplied Place neither provides nor pays
            if fast:
                d = cdef[i]
                if d.has_red:
                    unpaid.append(i)
                else:
                    avail[0] += d.p0
                    avail[1] += d.p1
                    avail[2] += d.p2
                    avail[3] += d.p3
                continue
            prov, cons = self.icons(i)
            if cons[0] or cons[1] or cons[2] or cons[3]:
                unpaid.append(i)
            else:
                for r in range(4):
                    avail[r] += prov[r]
        self.bal_avail = avail
        self.bal_unpaid = unpaid

    def _balance_decision(self) -> None:
        p = self.active
        if self._dirty:
            self._refresh()
        if self.bal_avail[0] < 0:
            self._balance_init(p)
        unpaid = self.bal_unpaid
        if not unpaid:
            self._balance_end(p)
            return
        avail = self.bal_avail
        payable = [i for i in unpaid if self._affordable(i, avail)]

        if not payable:
            # 002 §12: the cards that cannot be paid are discarded
            for i in list(unpaid):
                self._bal_discard(p, i, forced=True)
            return
        opts: list = []
        order = self.pay_all_order(avail, unpaid)
        ctx: tuple = ()
        if order is not None:
            opts.append((A_PAY_ALL,))
            ctx = tuple(order)   # the engine's order, which `pay all` follows
        for i in payable:
            opts.append((A_PAY, i))
        for i in unpaid:
            opts.append((A_DISCARD, i))
        self._decide("balance", p, opts, ctx)

    def _affordable(self, i: int, avail: list[int]) -> bool:
        if self._dirty:
            self._refresh()
        if not self._st_icon:
            d = self.cdef[i]
            return avail[0] >= d.c0 and avail[1] >= d.c1 and avail[2] >= d.c2 and avail[3] >= d.c3
        cons = self.icons(i)[1]
        return avail[0] >= cons[0] and avail[1] >= cons[1] and avail[2] >= cons[2] and avail[3] >= cons[3]

    def pay_all_order(self, avail: list[int], unpaid: list[int]) -> list[int] | None:
        """An order that pays every card of `unpaid` from `avail` (R4: a card's blue icons count once its red ones
        are paid), or None. The engine's order: the cards that also provide something first (the most net
        first, each as soon as it can be paid), then the cards that only consume, whose order does not matter.
        (`pay all` is offered when this order pays everything; a player may always pay card by card.)"""
        order: list[int] = []
        if self._dirty:
            self._refresh()
        if not self._st_icon:
            return order if self._settle_fast(list(avail), unpaid, order) else None
        if self._settle_order(list(avail), [(i,) + self.icons(i) for i in unpaid], order) is None:
            return None
        return order

    def _settle_fast(self, a: list[int], ids: list[int], order: list[int] | None) -> bool:
        """_settle_order for printed icons (no static changes them): the same order, on the cards' int fields."""
        cdef = self.cdef
        conv: list[int] = []
        n0 = n1 = n2 = n3 = 0
        for i in ids:
            d = cdef[i]
            if d.has_blue:
                conv.append(i)
            else:
                n0 += d.c0
                n1 += d.c1
                n2 += d.c2
                n3 += d.c3
        a0, a1, a2, a3 = a[0], a[1], a[2], a[3]
        while conv:
            best = -1
            best_key = -99
            for k in range(len(conv)):
                d = cdef[conv[k]]
                if a0 >= d.c0 and a1 >= d.c1 and a2 >= d.c2 and a3 >= d.c3 and d.net > best_key:
                    best, best_key = k, d.net
            if best < 0:
                return False
            i = conv.pop(best)
            d = cdef[i]
            a0 += d.p0 - d.c0
            a1 += d.p1 - d.c1
            a2 += d.p2 - d.c2
            a3 += d.p3 - d.c3
            if order is not None:
                order.append(i)
        if a0 < n0 or a1 < n1 or a2 < n2 or a3 < n3:
            return False
        a[0] = a0 - n0
        a[1] = a1 - n1
        a[2] = a2 - n2
        a[3] = a3 - n3
        if order is not None:
            for i in ids:
                if not cdef[i].has_blue:
                    order.append(i)
        return True

    def _settle_order(self, a: list[int], items: list, order: list[int] | None) -> list[int] | None:
        """Pay `items` ((card, provides, consumes) triples) from `a` in the engine's order; `a` ends as what is
        left (or the function returns None when some card cannot be paid). Appends the order to `order`."""
        converters = []
        n0 = n1 = n2 = n3 = 0
        for it in items:
            prov = it[1]
            if prov[0] or prov[1] or prov[2] or prov[3]:
                converters.append(it)
            else:
                cons = it[2]
                n0 += cons[0]
                n1 += cons[1]
                n2 += cons[2]
                n3 += cons[3]
        while converters:
            best = -1
            best_key = -99
            for k in range(len(converters)):
                _, prov, cons = converters[k]
                if a[0] >= cons[0] and a[1] >= cons[1] and a[2] >= cons[2] and a[3] >= cons[3]:
                    key = prov[0] + prov[1] + prov[2] + prov[3] - (cons[0] + cons[1] + cons[2] + cons[3])
                    if key > best_key:
                        best, best_key = k, key
            if best < 0:
                return None
            i, prov, cons = converters.pop(best)
            a[0] += prov[0] - cons[0]
            a[1] += prov[1] - cons[1]
            a[2] += prov[2] - cons[2]
            a[3] += prov[3] - cons[3]
            if order is not None:
                order.append(i)
        if a[0] < n0 or a[1] < n1 or a[2] < n2 or a[3] < n3:
            return None
        a[0] -= n0
        a[1] -= n1
        a[2] -= n2
        a[3] -= n3
        if order is not None:
            for it in items:
                p = it[1]
                if not (p[0] or p[1] or p[2] or p[3]):
                    order.append(it[0])
        return a

    def project_balance(self, p: int) -> list[int] | None:
        """What p would have left after a Resource Balancing now that keeps every card in play (R4): the four
        resources, Gold being the next Reserve; None when the engine's order could not pay some card."""
        if self._dirty:
            self._refresh()
        extra = self.add_res[p]
        a = [self.reserve[p] + extra[0], extra[1], extra[2], extra[3]]
        zone = self.zone
        supplied = self.supplied
        if not self._st_icon:
            cdef = self.cdef
            ids: list[int] = []
            a0, a1, a2, a3 = a[0], a[1], a[2], a[3]
            for i in self._in_play(p):
                if zone[i] == Z_SETTLE and not supplied[i]:
                    continue
                d = cdef[i]
                if d.has_red:
                    ids.append(i)
                else:
                    a0 += d.p0
                    a1 += d.p1
                    a2 += d.p2
                    a3 += d.p3
            a = [a0, a1, a2, a3]
            if not ids:
                return a
            return a if self._settle_fast(a, ids, None) else None
        items = []
        for i in self._in_play(p):
            if zone[i] == Z_SETTLE and not supplied[i]:
                continue
            prov, cons = self.icons(i)
            if cons[0] or cons[1] or cons[2] or cons[3]:
                items.append((i, prov, cons))
            else:
                a[0] += prov[0]
                a[1] += prov[1]
                a[2] += prov[2]
                a[3] += prov[3]
        if not items:
            return a
        return self._settle_order(a, items, None)

    def _bal_pay(self, p: int, i: int) -> None:
        if self._dirty:
            self._refresh()
        avail = self.bal_avail
        if not self._st_icon:
            d = self.cdef[i]
            avail[0] += d.p0 - d.c0
            avail[1] += d.p1 - d.c1
            avail[2] += d.p2 - d.c2
            avail[3] += d.p3 - d.c3
        else:
            prov, cons = self.icons(i)
            for r in range(4):
                avail[r] += prov[r] - cons[r]
        self.bal_unpaid.remove(i)

    def _bal_discard(self, p: int, i: int, forced: bool) -> None:
        d = self.cdef[i]
        if forced:
            self.bal_forced += 1
            self.stats[p][S_UNPAID_DISCARDS] += 1
        if self.logs is not None:
            self._log(p, "002 §12", f"{d.name} {'cannot be paid' if forced else 'is not paid'} and is discarded")
        gone = [i] + list(self.atts.get(i, ()))
        self._leave(i, Z_DISCARD)
        unpaid = self.bal_unpaid
        for g in gone:
            if g in unpaid:
                unpaid.remove(g)
        # a Place that lost its Supply Line pays nothing (002 §15)
        for q in list(unpaid):
            if self.zone[q] == Z_SETTLE and not self.supplied[q]:
                unpaid.remove(q)

    def _balance_end(self, p: int) -> None:
        # 002 §12, §4: Gold still available is the Reserve; the other resources are lost (R23: never below 0)
        gold = self.bal_avail[0]
        if self.logs is not None:
            self._log(p, "002 §12", f"Resource Balancing done: Reserve {self.reserve[p]} -> {gold}")
        self.reserve[p] = gold if gold > 0 else 0
        self.add_res[p] = [0, 0, 0, 0]
        self.unpaid_by_turn[p].append(1 if self.bal_forced else 0)
        self.rec_unpaid[p] = self.turns_taken[p]
        self.bal_avail = [-1, 0, 0, 0]
        self.bal_unpaid = []
        self.step = ST_ATTACK
        if self.attack_skip:
            if self.logs is not None:
                self._log(p, "R13", "the first player's first turn has no Attack and no Raid")

    # =================================================================================================
    # 002 §13 Attack
    def _attack_step(self) -> None:
        p = self.active
        cb = self.cb
        if cb is not None:
            self._window(cb)
            return
        if self.attack_skip:
            self._end_attack_step(p)
            return
        opts = self.attack_options(p)
        if not opts:
            self._end_attack_step(p)
            return
        opts.append((A_DONE,))
        self._decide("attack", p, opts)

    def attackers(self, p: int) -> list[tuple[int, ...]]:
        """002 §13: the attacking units: a Strike Force warrior in no Group that has not attacked, or an Offensive
        Group whose members all can attack."""
        units: list[tuple[int, ...]] = []
        t = self.turn
        for w in self.z[p][Z_STRIKE]:
            if not self.group[w] and self._can_attack(w, t):
                units.append((w,))
        for gid, (kind, o, members) in self.groups.items():
            if o == p and kind == G_OFFENSIVE and all(self._can_attack(w, t) for w in members):
                units.append(members)
        return units

    def _can_attack(self, w: int, t: int) -> bool:
        if self.zone[w] != Z_STRIKE or self.attacked_t[w] == t:
            return False
        if not self.simplified and self.cdef[w].wtype == W_VEHICLE and self.recruited_t[w] == t:
            return False   # R8: a Vehicle cannot act the turn it is recruited
        return self.allowed(w, R_ATTACK)

    def defenders(self, q: int) -> list[tuple[int, ...]]:
        """002 §13: an opposing warrior not in a Defensive Group, or an opposing Defensive Group."""
        units: list[tuple[int, ...]] = []
        for zone in (Z_BORDER, Z_STRIKE):
            for w in self.z[q][zone]:
                g = self.group[w]
                if g and self.groups[g][0] == G_DEFENSIVE:
                    continue
                if self.allowed(w, R_BE_ATTACKED):
                    units.append((w,))
        for gid, (kind, o, members) in self.groups.items():
            if o == q and kind == G_DEFENSIVE and all(self.allowed(w, R_BE_ATTACKED) for w in members):
                units.append(members)
        return units

    def attack_options(self, p: int) -> list:
        self._refresh()
        att = self.attackers(p)
        if not att:
            return []
        dfn = self.defenders(1 - p)
        opts: list = []
        for a in att:
            ta = self.group_tactics(a) if len(a) > 1 else self.tactics(a[0])
            if not ta:
                continue
            for d in dfn:
                shared = ta & (self.group_tactics(d) if len(d) > 1 else self.tactics(d[0]))
                for t in TACTIC_ORDER:
                    if shared & t:
                        opts.append((A_ATTACK, a, d, t))
        return opts

    def _declare_attack(self, p: int, a: tuple) -> None:
        att, dfn, t = a[1], a[2], a[3]
        for w in att:
            self.attacked_t[w] = self.turn
            self.part[w] = ROLE_ATTACKER
        for w in dfn:
            self.part[w] = ROLE_DEFENDER
        self.cb = Combat(False, p, list(att), list(dfn), t)
        self.stats[p][S_ATTACKS] += 1
        if self.logs is not None:
            self._log(p, "002 §13", f"attacks {names(self, dfn)} with {names(self, att)} on the {TACTIC_NAMES[t]}")

    def cv_as(self, members: list[int] | tuple[int, ...], role: int) -> int:
        """The total CV of members fighting in `role` now (their 'while attacking/defending/raiding' statics
        counted), without changing the game: what a player weighs before declaring a fight."""
        part = self.part
        saved = [part[w] for w in members]
        for w in members:
            part[w] = role
        memo = self._cvc
        self._cvc = None
        total = 0
        for w in members:
            total += self.cv(w)
        self._cvc = memo
        for w, s in zip(members, saved):
            part[w] = s
        return total

    def side_cv(self, members: list[int] | tuple[int, ...], mods: list[CvMod]) -> int:
        """002 §13, §16 (R18): the sum of the members' CVs, then the side's own modifiers."""
        total = 0
        for w in members:
            total += self.cv(w)
        return pipeline(total, mods) if mods else total

    def _resolve_attack(self, cb: Combat) -> None:
        p = cb.attacker
        q = 1 - p
        if not cb.att or not cb.dfn:
            self.cb = None
            if self.logs is not None:
                self._log(p, "002 §13", "the attack has no side left to fight: nobody dies")
            self._expire(DUR_ATTACK, -1)
            self._clear_parts()
            return
        # CVs are computed when the modification phase ends (002 §16: "all at once")
        a_cv = self.side_cv(cb.att, cb.mods[p])
        d_cv = self.side_cv(cb.dfn, cb.mods[q])
        self.cb = None
        if a_cv > d_cv:
            winners, losers, role = cb.att, cb.dfn, ROLE_ATTACKER
            self.stats[p][S_ATTACKS_WON] += 1
            verdict = "the attacker wins"
        elif d_cv > a_cv:
            winners, losers, role = cb.dfn, cb.att, ROLE_DEFENDER
            self.stats[p][S_ATTACKS_LOST] += 1
            verdict = "the defender wins"
        else:
            winners, losers, role = [], [], 0
            self.stats[p][S_ATTACKS_TIED] += 1
            verdict = "a tie: nobody dies"
        if self.logs is not None:
            self._log(p, "002 §13", f"{names(self, cb.att)} {a_cv} vs {names(self, cb.dfn)} {d_cv}: {verdict}")
        frames: list[tuple] = self._collect_side(EV_ATTACK_WON, list(winners), role) if winners else []
        for w in list(losers):
            self._kill(w, "002 §13")   # R16: every member of a losing Group dies
        # effects lasting "this attack" end once it is resolved (after the deaths they may prevent)
        self._expire(DUR_ATTACK, -1)
        self._clear_parts()
        self._push_frames(frames)

    def _clear_parts(self) -> None:
        part = self.part
        for i in range(len(part)):
            if part[i]:
                part[i] = 0

    def _end_attack_step(self, p: int) -> None:
        # 002 §13: after the Attack Step all Offensive Groups disband
        for gid in [g for g, (kind, o, _) in self.groups.items() if kind == G_OFFENSIVE and o == p]:
            self._disband(gid, "002 §13", "Offensive Groups disband after the Attack step")
        self.step = ST_RAID
        self.raid_done = self.attack_skip

    # =================================================================================================
    # 002 §14 Raid
    def _raid_step(self) -> None:
        p = self.active
        cb = self.cb
        if self.raid_done:
            self.step = ST_END
            return
        if cb is not None:
            self._window(cb)
            return
        if self.reward_pending:
            self._decide("reward", p, self.reward_options(p))
            return
        opts = self.raid_options(p)
        if not opts:
            self.raid_done = True
            return
        opts.append((A_PASS,))
        self._decide("raid", p, opts)

    def raid_targets(self, q: int) -> list[int]:
        """002 §14: q's Places with an exposed edge (R2) that can be raided, or, with no Place left, q's Leader."""
        settle = self.z[q][Z_SETTLE]
        leader = self.leader[q]
        if len(settle) > 1:
            out = []
            for i in settle:
                if i != leader and self._neighbours(q, self.cell[i]) < 4 and self.allowed(i, R_BE_RAIDED):
                    out.append(i)
            return out
        return [leader] if leader >= 0 and self.allowed(leader, R_BE_RAIDED) else []

    def blocked(self, q: int, t: int) -> bool:
        """002 §14: a Borderlands warrior not in a Group, or a Borderlands Defensive Group (all members), of q's
        having Tactic t blocks a raid on it."""
        for w in self.z[q][Z_BORDER]:
            g = self.group[w]
            if g:
                continue
            if self.tactics(w) & t and self.allowed(w, R_BLOCK):
                return True
        for gid, (kind, o, members) in self.groups.items():
            if o == q and kind == G_DEFENSIVE and self.zone[members[0]] == Z_BORDER:
                if self.group_tactics(members) & t and all(self.allowed(w, R_BLOCK) for w in members):
                    return True
        return False

    def raiders(self, p: int, t: int) -> list[int]:
        """R17: p's Strike Force warriors having Tactic t that may raid (attacking earlier does not stop them)."""
        out = []
        turn = self.turn
        for w in self.z[p][Z_STRIKE]:
            if self.tactics(w) & t and self.allowed(w, R_RAID):
                if not self.simplified and self.cdef[w].wtype == W_VEHICLE and self.recruited_t[w] == turn:
                    continue   # R8
                out.append(w)
        return out

    def raid_options(self, p: int) -> list:
        """One option per target and Tactic, with every warrior that may raid there (`raid T front a+b`; the engine
        accepts any of them). A blocked Tactic cannot be announced (R17) unless the raiders cannot be blocked."""
        self._refresh()
        q = 1 - p
        targets = self.raid_targets(q)
        if not targets or not self.z[p][Z_STRIKE]:
            return []
        opts: list = []
        block = {t: self.blocked(q, t) for t in TACTIC_ORDER}
        for tgt in targets:
            tt = self.tactics(tgt)
            for t in TACTIC_ORDER:
                if not tt & t:
                    continue
                party = self.raiders(p, t)
                if block[t]:
                    party = [w for w in party if not self.allowed(w, R_BE_BLOCKED)]
                if party:
                    opts.append((A_RAID, tgt, t, tuple(party)))
        return opts

    def _declare_raid(self, p: int, a: tuple) -> None:
        tgt, t = a[1], a[2]
        chosen = set(a[3])   # in Strike Force order, however listed
        party = [w for w in self.z[p][Z_STRIKE] if w in chosen]
        for w in party:
            self.part[w] = ROLE_RAIDER
        self.part[tgt] = ROLE_RAIDED
        self.cb = Combat(True, p, list(party), [tgt], t)
        self.stats[p][S_RAIDS] += 1
        if self.logs is not None:
            self._log(p, "002 §14", f"raids {self.cdef[tgt].name} on the {TACTIC_NAMES[t]} with {names(self, party)}")

    def _resolve_raid(self, cb: Combat) -> None:
        p = cb.attacker
        q = 1 - p
        self.raid_done = True
        if not cb.att or not cb.dfn:
            self.cb = None
            if self.logs is not None:
                self._log(p, "002 §14", "the raid has no raider or no target left: nothing happens")
            self._expire(DUR_RAID, -1)
            self._clear_parts()
            return
        r_cv = self.side_cv(cb.att, cb.mods[p])
        t_cv = self.side_cv(cb.dfn, cb.mods[q])
        tgt = cb.dfn[0]
        self.cb = None
        self._expire(DUR_RAID, -1)
        self._clear_parts()
        if r_cv <= t_cv:   # 002 §14: a tie cannot be broken; a smaller total does nothing (R17)
            if self.logs is not None:
                self._log(p, "002 §14", f"raiders {r_cv} vs {self.cdef[tgt].name} {t_cv}: "
                                        f"{'a tie: nothing happens' if r_cv == t_cv else 'the raid fails'}")
            self.stats[p][S_RAIDS_FAILED] += 1
            return
        d = self.cdef[tgt]
        if d.is_leader:
            if self.logs is not None:
                self._log(p, "002 §14", f"raiders {r_cv} vs the Leader {t_cv}: the raid succeeds; the raider chooses a "
                                        "reward")
            self.stats[p][S_LEADER_RAIDS] += 1
            self.reward_pending = True
            self.raid_done = False
            return
        if self.logs is not None:
            self._log(p, "002 §14", f"raiders {r_cv} vs {d.name} {t_cv}: {d.name} is destroyed, {d.cv} VP")
        self.stats[p][S_PLACES_DESTROYED] += 1
        self.stats[q][S_PLACES_LOST] += 1
        frames = self._collect_destroyed(tgt, q, p)
        self._leave(tgt, Z_VP, p)   # the card becomes a VP marker in the raider's pile (002 §14)
        self._push_frames(frames)
        self._gain_vp(p, d.cv, tokens=False)   # 002 §1: VP = the base CV

    def reward_options(self, p: int) -> list:
        q = 1 - p
        opts: list = []
        if self.reserve[q] > 0:
            opts.append((A_REWARD, RW_GOLD))
        if self.atts.get(self.leader[q]):
            opts.append((A_REWARD, RW_ATTACHMENTS))
        if self.z[q][Z_DISCARD] or self.z[q][Z_ASIDE]:
            opts.append((A_REWARD, RW_DISCARD))
        opts.append((A_REWARD, RW_VP))
        return opts

    def _reward(self, p: int, k: int) -> None:
        q = 1 - p
        self.reward_pending = False
        self.raid_done = True
        self.stats[p][S_REWARD_GOLD + k] += 1
        leader = self.leader[q]
        if k == RW_GOLD:
            g = self.reserve[q]
            self.reserve[q] = 0
            self.reserve[p] += g
            if self.logs is not None:
                self._log(p, "002 §14", f"takes the opponent's whole Reserve: {g} Gold")
        elif k == RW_ATTACHMENTS:
            lst = list(self.atts.get(leader, ()))
            for a in lst:
                self._leave(a, Z_ANNIH)
            if self.logs is not None:
                self._log(p, "002 §14", f"annihilates the cards attached to the opponent's Leader ({len(lst)})")
        elif k == RW_DISCARD:
            pile = self.z[q][Z_DISCARD] + self.z[q][Z_ASIDE]
            for i in pile:
                self._move(i, Z_ANNIH, q)
            if self.logs is not None:
                self._log(p, "002 §14", f"annihilates the opponent's discard pile ({len(pile)} cards)")
        frames = self._collect_raid_won(p, leader)
        if k == RW_VP:
            v = self.cdef[leader].cv
            if self.logs is not None:
                self._log(p, "002 §14", f"takes {v} VP tokens (the Leader's base CV)")
            self._push_frames(frames)
            self._gain_vp(p, v, tokens=True)
            return
        self._push_frames(frames)

    def _gain_vp(self, p: int, n: int, tokens: bool) -> None:
        self.vp[p] += n
        if tokens:
            self.vp_tokens[p] += n
        # 002 §1, §14: the first to the required VP wins at once (50; 30 in the simplified format, 002 §17)
        if self.vp[p] >= self.target_vp:
            if self.logs is not None:
                self._log(p, "002 §1", f"reaches {self.vp[p]} VP and wins")
            self._finish(p, "vp")

    def _finish(self, winner: int | None, reason: str) -> None:
        self.over = True
        self.winner = winner
        self.reason = reason
        self.step = ST_OVER
        self.pending = None
        self.stack.clear()
        self.cb = None
        # the cached views refer back to the game: forgotten at the end, so a finished game is freed at once
        # instead of waiting for the cycle collector (view() makes a new one when asked)
        self._views = [None, None]
        p = self.active
        t = self.turns_taken[p]
        if self.rec_turn[p] != t:   # the figures of the turn the game ended in
            self.rec_turn[p] = t
            self.vp_by_turn[p].append(self.vp[p])
            self.gold_by_turn[p].append(self.reserve[p])
            if self.rec_unpaid[p] != t:
                self.rec_unpaid[p] = t
                self.unpaid_by_turn[p].append(1 if self.bal_forced else 0)

    def _stalemate(self) -> None:
        # R22 (002 §19): at the turn cap the game ends as a stalemate: most VP wins, equal VP is a draw
        a, b = self.vp
        w = 0 if a > b else 1 if b > a else None
        if self.logs is not None:
            self._log(-1, "R22", f"round cap {self.max_rounds} reached: stalemate, VP {a}-{b}")
        self._finish(w, "stalemate")

    # ---- end of turn ----------------------------------------------------------------------------------
    def _end_of_turn(self) -> None:
        p = self.active
        # R14: step 6, effects lasting "this turn" end
        self._expire(DUR_TURN, -1)
        self.vp_by_turn[p].append(self.vp[p])
        self.gold_by_turn[p].append(self.reserve[p])
        self.rec_turn[p] = self.turns_taken[p]
        self._check_groups()
        self.active = 1 - p
        self.step = ST_TURN_START

    # =================================================================================================
    # the modification phase of an attack or raid (002 §13 step 4, §14, §16; R16)
    def _window(self, cb: Combat) -> None:
        while cb.passes < 2:
            p = cb.to_act
            opts = self.window_options(p, cb)
            if opts:
                opts.append((A_PASS,))
                self._decide("raid_mods" if cb.raid else "combat", p, opts)
                return
            cb.passes += 1
            cb.to_act = 1 - p
        if cb.raid:
            self._resolve_raid(cb)
        else:
            self._resolve_attack(cb)

    def window_options(self, p: int, cb: Combat) -> list:
        """The Intrigues p may play and the abilities of p's cards taking part that p may use (once each)."""
        if self.decks[p] is None:
            return []
        opts: list = []
        raid = cb.raid
        reserve = self.reserve[p]
        seen_defs: set[int] = set()
        needs = -1
        for i in self.z[p][Z_HAND]:
            d = self.cdef[i]
            if not (d.hand_raid if raid else d.hand_combat) or id(d) in seen_defs:
                continue
            seen_defs.add(id(d))
            need = IK_NEEDS.get(d.ik, -1)
            if need >= 0:
                if needs < 0:
                    needs = self._types_in_play(p)
                if not (needs >> need) & 1:
                    continue
            cost = self._cost(i, p)
            if cost > reserve:
                continue
            ab = (d.raid if raid else d.combat)[0]
            if self._usable(ab, i, p, -1, extra_gold=cost):
                opts.append((A_PLAY, i, -1))
        side = cb.att if p == cb.attacker else cb.dfn
        timing = TM_RAID if raid else TM_COMBAT
        for w in side:
            for i in [w] + self.atts.get(w, []):
                d = self.cdef[i]
                if not (d.raid if raid else d.combat):
                    continue
                if not self._active_source(i):
                    continue
                for k, ab in enumerate(d.abilities):
                    if ab.timing == timing and i * 32 + k not in cb.used and self._usable(ab, i, p, self._subject(i)):
                        opts.append((A_USE, i, k))
        return opts

    def _window_act(self, p: int, a: tuple) -> None:
        cb = self.cb
        assert cb is not None
        if a[0] == A_PASS:
            cb.passes += 1
            cb.to_act = 1 - p
            return
        cb.passes = 0
        cb.to_act = 1 - p
        if a[0] == A_PLAY:
            self._play_card(p, a)
        else:
            i, k = a[1], a[2]
            cb.used.append(i * 32 + k)
            if self.logs is not None:
                self._log(p, "002 §16", f"uses {self.cdef[i].name}: {self.cdef[i].abilities[k].text}")
            self.stack.append((F_ABILITY, i, k, p, 0, (), -1))

    # =================================================================================================
    # decisions: dispatch of the chosen action
    def _handle(self, dec: Decision, a: tuple) -> None:
        kind = a[0]
        p = dec.player
        k = dec.kind
        if k == "actions":
            if kind == A_DONE:
                if self.logs is not None:
                    self._log(p, "002 §10", "ends its Actions")
                self.step = ST_BAL_START
            elif kind in (A_BUILD, A_RECRUIT, A_PLAY):
                self._play_card(p, a)
            elif kind == A_MOVE:
                w = a[1]
                self.moved_t[w] = self.turn
                dest = Z_STRIKE if self.zone[w] == Z_BORDER else Z_BORDER
                self._move(w, dest, p)
                if self.logs is not None:
                    self._log(p, "002 §10", f"moves {self.cdef[w].name} to the "
                                            f"{'Borderlands' if dest == Z_BORDER else 'Strike Force'}")
            elif kind == A_USE:
                i, n = a[1], a[2]
                key = i * 32 + n
                self.uses[key] = self.uses.get(key, 0) + 1
                if self.logs is not None:
                    self._log(p, "002 §10", f"uses {self.cdef[i].name}: {self.cdef[i].abilities[n].text}")
                self.stack.append((F_ABILITY, i, n, p, 0, (), -1))
            elif kind == A_DISCARD:
                if self.logs is not None:
                    self._log(p, "R9", f"discards its {self.cdef[a[1]].name}")
                self._leave(a[1], Z_DISCARD)
            elif kind == A_GROUP:
                self._form_group(p, a[1], tuple(a[2]))
        elif k == "cell":
            self._build(p, dec.ctx[0], a[1])
        elif k == "balance":
            if kind == A_PAY_ALL:
                for i in dec.ctx:
                    self._bal_pay(p, i)
            elif kind == A_PAY:
                self._bal_pay(p, a[1])
            else:
                self._bal_discard(p, a[1], forced=False)
        elif k == "attack":
            if kind == A_DONE:
                self._end_attack_step(p)
            else:
                self._declare_attack(p, a)
        elif k == "raid":
            if kind == A_PASS:
                if self.logs is not None:
                    self._log(p, "002 §14", "makes no raid")
                self.raid_done = True
            else:
                self._declare_raid(p, a)
        elif k == "combat" or k == "raid_mods":
            self._window_act(p, a)
        elif k == "reward":
            self._reward(p, a[1])
        elif k == "leader":
            self.leader_choice[p] = a[1]
            self.setup_p += 1
        elif k == "mulligan":
            self._mulligan(p, kind == A_MULLIGAN)
        else:
            self._handle_sub(dec, a)

    # =================================================================================================
    # abilities: the stack
    def _step_stack(self) -> None:
        f = self.stack.pop()
        op = f[0]
        if op == F_ABILITY:
            self._step_ability(f)
        elif op == F_EFFECT:
            self._step_effect(f)
        elif op == F_DISCARD_LIMBO:
            i = f[1]
            if self.zone[i] == Z_LIMBO:
                self._move(i, Z_DISCARD, self.owner[i])
        elif op == F_CHOOSE_DISCARD:
            self._step_choose_discard(f)
        elif op == F_COST_KILL:
            self._step_cost_kill(f)

    def _subject(self, src: int) -> int:
        """§14.2: the subject is the card, its host when attached, or its player's side (-1) for an Intrigue played
        from hand."""
        z = self.zone[src]
        if z == Z_ATTACHED:
            return self.host[src]
        if z == Z_LIMBO or z == Z_HAND:
            return -1
        return src

    def _step_ability(self, f: tuple) -> None:
        _, src, k, ctrl, stage, targets, ev = f
        ab = self.cdef[src].abilities[k]
        if stage == -1:   # an optional trigger (one with a cost): use it?
            if self._usable(ab, src, ctrl, self._subject(src)):
                self.stack.append((F_ABILITY, src, k, ctrl, 0, targets, ev))
                self._decide("trigger", ctrl, [(A_YES,), (A_NO,)], (src, k))
            return
        if stage == 0:
            if ab.cond is not None and not self._cond(ab.cond, ctrl, self._subject(src)):
                return   # §14.2: the condition must hold (a trigger whose condition fails does nothing)
            sel = ab.target
            if sel is not None and len(targets) < sel.count:
                cands = [c for c in self.select(sel, ctrl, src) if c not in targets]
                if cands:
                    opts: list = [(A_TARGET, c) for c in cands]
                    if sel.up_to and targets:
                        opts.append((A_DONE,))
                    self.stack.append(f)
                    self._decide("target", ctrl, opts, (src, k))
                    return
                if not targets and not sel.up_to:
                    if self.logs is not None:
                        self._log(ctrl, "§14.2", f"{self.cdef[src].name}: no legal target, nothing happens")
                    return
            stage = 1
        costs = ab.costs
        while stage <= len(costs):
            c = costs[stage - 1]
            stage += 1
            if c.kind == K_PAY_GOLD:
                self.reserve[ctrl] -= min(c.n, self.reserve[ctrl])
            elif c.kind == K_DISCARD_SELF:
                if Z_SETTLE <= self.zone[src] <= Z_RITUAL:
                    self._leave(src, Z_DISCARD)
            elif c.kind == K_ANNIHILATE_SELF:
                if Z_SETTLE <= self.zone[src] <= Z_RITUAL or self.zone[src] == Z_LIMBO:
                    if self.zone[src] == Z_LIMBO:
                        self._move(src, Z_ANNIH, self.owner[src])
                    else:
                        self._leave(src, Z_ANNIH)
            elif c.kind == K_DISCARD_HAND:
                self.stack.append((F_ABILITY, src, k, ctrl, stage, targets, ev))
                self.stack.append((F_CHOOSE_DISCARD, ctrl, c.n, 0, src))
                return
            elif c.kind == K_KILL:
                self.stack.append((F_ABILITY, src, k, ctrl, stage, targets, ev))
                self.stack.append((F_COST_KILL, src, k, ctrl, stage - 2))
                return
        if ab.effects:
            self.stack.append((F_EFFECT, src, k, ctrl, 0, targets, ev))

    def _step_choose_discard(self, f: tuple) -> None:
        _, p, n, rnd, src = f
        hand = self.z[p][Z_HAND]
        if n <= 0 or not hand:
            return
        if rnd:
            rng = self._event_rng()
            for _ in range(min(n, len(hand))):
                i = hand[int(rng.random() * len(hand))]
                if self.logs is not None:
                    self._log(p, "§14.4", f"discards {self.cdef[i].name} at random")
                self._move(i, Z_DISCARD, p)
            return
        self.stack.append(f)
        self._decide("discard", p, dedupe_hand(self, hand, A_DISCARD), (n,))

    def _step_cost_kill(self, f: tuple) -> None:
        _, src, k, ctrl, ci = f
        sel = self.cdef[src].abilities[k].costs[ci].sel
        assert sel is not None
        cands = [w for w in self.select(sel, ctrl, src) if self.zone[w] in (Z_BORDER, Z_STRIKE)
                 and self.owner[w] == ctrl]
        if not cands:
            return
        self._decide("kill", ctrl, [(A_KILL, w) for w in cands], (src, k))

    def _handle_sub(self, dec: Decision, a: tuple) -> None:
        kind = a[0]
        p = dec.player
        k = dec.kind
        if k == "target":
            f = self.stack.pop()
            if kind == A_DONE:
                self.stack.append((F_ABILITY, f[1], f[2], f[3], 1, f[5], f[6]))
            else:
                self.stack.append((F_ABILITY, f[1], f[2], f[3], 0, f[5] + (a[1],), f[6]))
        elif k == "trigger":
            if kind == A_NO:
                self.stack.pop()   # the frame that would have used it
        elif k == "discard":
            f = self.stack.pop()
            i = a[1]
            if self.logs is not None:
                self._log(p, "§14.4", f"discards {self.cdef[i].name} from hand")
            self._move(i, Z_DISCARD, p)
            if f[2] > 1:
                self.stack.append((F_CHOOSE_DISCARD, f[1], f[2] - 1, f[3], f[4]))
        elif k == "kill":
            self._kill(a[1], "§14.5")
        elif k == "take":
            i = a[1]
            src_zone = self.zone[i]
            self._move(i, Z_HAND, p)
            self.seen[i] = 3
            if src_zone == Z_DECK:
                if self.logs is not None:
                    self._log(p, "§14.4", f"searches its deck for {self.cdef[i].name} (revealed) and shuffles")
                deck = self.z[p][Z_DECK]
                for j in deck:
                    self.seen[j] = 0
                self._shuffle(deck)
            else:
                if self.logs is not None:
                    self._log(p, "§14.4", f"takes {self.cdef[i].name} from its discard pile into its hand")
        elif k == "recruit":
            i, zone = a[1], a[2]
            free = bool(dec.ctx[0])
            cost = 0 if free else self._cost(i, p)
            self.reserve[p] -= cost
            self._count_play(p, self.cdef[i])
            self._recruit(p, i, zone, cost)

    def _step_effect(self, f: tuple) -> None:
        _, src, k, ctrl, ei, targets, ev = f
        ab = self.cdef[src].abilities[k]
        effects = ab.effects
        if ei + 1 < len(effects):
            self.stack.append((F_EFFECT, src, k, ctrl, ei + 1, targets, ev))
        self._effect(effects[ei], ab, src, k, ctrl, targets, ev)

    def _amount(self, e: Eff, ctrl: int, src: int) -> int:
        if e.amount_sel is not None:
            return len(self.select(e.amount_sel, ctrl, src))
        return e.amount

    def _effect(self, e: Eff, ab: Ability, src: int, k: int, ctrl: int, targets: tuple, ev: int) -> None:
        kind = e.kind
        name = self.cdef[src].name
        q = 1 - ctrl
        if kind == E_DRAW:
            self._draw(ctrl, self._amount(e, ctrl, src))
        elif kind == E_GAIN_GOLD:
            n = self._amount(e, ctrl, src)
            self.reserve[ctrl] += n
            if self.logs is not None:
                self._log(ctrl, "§14.4", f"{name}: gains {n} Gold (Reserve {self.reserve[ctrl]})")
        elif kind == E_TAKE_GOLD:
            n = min(self._amount(e, ctrl, src), self.reserve[q])
            self.reserve[q] -= n
            self.reserve[ctrl] += n
            if self.logs is not None:
                self._log(ctrl, "§14.4", f"{name}: takes {n} Gold from the opponent's Reserve")
        elif kind in (E_MODIFY_CV, E_GRANT_TACTIC, E_RULE):
            self._lasting(e, ab, src, ctrl, targets, ev)
        elif kind == E_KILL:
            for i in self._refs(e.ref, e.ref_sel, src, ctrl, targets, ev):
                self._kill(i, "§14.4")
        elif kind == E_DISCARD or kind == E_ANNIHILATE:
            dest = Z_DISCARD if kind == E_DISCARD else Z_ANNIH
            for i in self._refs(e.ref, e.ref_sel, src, ctrl, targets, ev):
                z = self.zone[i]
                d = self.cdef[i]
                if Z_SETTLE <= z <= Z_RITUAL and not d.is_leader and not d.is_place:
                    if self.logs is not None:
                        self._log(ctrl, "002 §3", f"{name}: {'discards' if dest == Z_DISCARD else 'annihilates'} "
                                                  f"{d.name}")
                    self._leave(i, dest)
                elif dest == Z_ANNIH and z in (Z_DISCARD, Z_ASIDE):
                    if self.logs is not None:
                        self._log(ctrl, "002 §3", f"{name}: annihilates {d.name} from a discard pile")
                    self._move(i, Z_ANNIH, self.owner[i])
        elif kind == E_RETURN:
            for i in self._refs(e.ref, e.ref_sel, src, ctrl, targets, ev):
                z = self.zone[i]
                if z in (Z_BORDER, Z_STRIKE, Z_ATTACHED):
                    if self.logs is not None:
                        self._log(ctrl, "§14.4", f"{name}: {self.cdef[i].name} returns to its owner's hand")
                    self._leave(i, Z_HAND)
        elif kind == E_MOVE:
            for i in self._refs(e.ref, e.ref_sel, src, ctrl, targets, ev):
                z = self.zone[i]
                if z in (Z_BORDER, Z_STRIKE) and not self.group[i] and self.allowed(i, R_BE_MOVED):
                    dest = Z_STRIKE if z == Z_BORDER else Z_BORDER
                    self._move(i, dest, self.owner[i])
                    if self.logs is not None:
                        self._log(ctrl, "§14.4", f"{name}: {self.cdef[i].name} moves to the "
                                                 f"{'Borderlands' if dest == Z_BORDER else 'Strike Force'}")
        elif kind == E_DISBAND:
            for i in self._refs(e.ref, e.ref_sel, src, ctrl, targets, ev):
                if self.group[i]:
                    self._disband(self.group[i], "§14.4")
        elif kind == E_RECOVER or kind == E_SEARCH:
            sel = e.sel
            assert sel is not None
            zone = Z_DISCARD if kind == E_RECOVER else Z_DECK
            cands = [i for i in self.z[ctrl][zone] if self.match(sel, i, ctrl, src, any_zone=True)]
            if not cands:
                if kind == E_SEARCH:
                    if self.logs is not None:
                        self._log(ctrl, "§14.4", f"{name}: the search finds nothing; the deck is shuffled")
                    self._shuffle(self.z[ctrl][Z_DECK])
                return
            if kind == E_SEARCH:
                for i in cands:   # the searcher looks through its deck (then shuffles it)
                    self.seen[i] |= 1 << ctrl
            self._decide("take", ctrl, dedupe_hand(self, cands, A_TAKE), (kind,))
        elif kind == E_RECRUIT:
            sel = e.sel
            assert sel is not None
            opts: list = []
            seen_defs: set[int] = set()
            for i in self.z[ctrl][Z_HAND]:
                d = self.cdef[i]
                if not d.is_warrior or id(d) in seen_defs or not self.match(sel, i, ctrl, src, any_zone=True):
                    continue
                seen_defs.add(id(d))
                if d.unique and self._copy_in_play(ctrl, d.name):
                    continue
                if not e.free and self._cost(i, ctrl) > self.reserve[ctrl]:
                    continue
                for zone in self._recruit_zones(ctrl, d):
                    opts.append((A_RECRUIT, i, zone))
            if opts:
                self._decide("recruit", ctrl, opts, (1 if e.free else 0,))
        elif kind == E_DISCARD_HAND:
            p = q if e.opponent else ctrl
            self.stack.append((F_CHOOSE_DISCARD, p, self._amount(e, ctrl, src), 1 if e.random else 0, src))
        elif kind == E_ADD_RESOURCES:
            for r in range(4):
                self.add_res[ctrl][r] += e.resources[r]
            if self.logs is not None:
                self._log(ctrl, "§14.4", f"{name}: this turn's Resource Balancing has {resources_text(e.resources)} "
                                         "more")

    def _lasting(self, e: Eff, ab: Ability, src: int, ctrl: int, targets: tuple, ev: int) -> None:
        until = e.until
        if until < 0:   # §14.4: the default duration follows the timing
            until = DUR_ATTACK if ab.timing == TM_COMBAT else DUR_RAID if ab.timing == TM_RAID else DUR_TURN
        cb = self.cb
        name = self.cdef[src].name
        if e.who in (REF_OUR, REF_THEIR) and cb is not None and e.kind == E_MODIFY_CV and \
                until in (DUR_ATTACK, DUR_RAID):
            side = ctrl if e.who == REF_OUR else 1 - ctrl
            assert e.cvmod is not None
            cb.mods[side].append(e.cvmod)
            if self.logs is not None:
                self._log(ctrl, "002 §16", f"{name}: {'our' if side == ctrl else 'the opposing'} side "
                                           f"{e.cvmod.text()} CV")
            return
        for i in self._refs(e.who, e.who_sel, src, ctrl, targets, ev):
            if not (Z_SETTLE <= self.zone[i] <= Z_RITUAL):
                continue
            if e.kind == E_MODIFY_CV:
                self.tmp.append(TmpEff(TE_CV, i, e.cvmod, 0, 0, 0, until, ctrl))
            elif e.kind == E_GRANT_TACTIC:
                self.tmp.append(TmpEff(TE_TACTIC, i, None, e.tactics, 0, 0, until, ctrl))
            else:
                for rule, mode in e.rules:
                    self.tmp.append(TmpEff(TE_RULE, i, None, 0, rule, mode, until, ctrl))
            if self.logs is not None:
                self._log(ctrl, "§14.4", f"{name}: {self.cdef[i].name} {effect_text(e)} "
                                         f"({DURATION_WORDS[until]})")
        self._count_tmp()
        self._check_groups()

    def _count_tmp(self) -> None:
        r = t = 0
        for te in self.tmp:
            if te.kind == TE_RULE:
                r += 1
            elif te.kind == TE_TACTIC:
                t += 1
        self._n_tmp_rule = r
        self._n_tmp_tac = t

    def _expire(self, dur: int, p: int) -> None:
        if not self.tmp:
            return
        keep = [t for t in self.tmp if not (t.dur == dur and (p < 0 or t.ctrl == p))]
        if len(keep) != len(self.tmp):
            self.tmp = keep
            self._count_tmp()
            self._check_groups()

    def _refs(self, ref: int, sel: Sel | None, src: int, ctrl: int, targets: tuple, ev: int) -> list[int]:
        if ref == REF_SELF:
            return [src]
        if ref == REF_TARGET:
            return list(targets)
        if ref == REF_HOST:
            h = self.host[src]
            return [h] if h >= 0 else []
        if ref == REF_LEADER:
            return [self.leader[ctrl]]
        if ref == REF_EVENT:
            return [ev] if ev >= 0 else []
        if ref == REF_EACH:
            assert sel is not None
            return self.select(sel, ctrl, src)
        cb = self.cb
        if cb is None:
            return []
        side = ctrl if ref == REF_OUR else 1 - ctrl
        return list(cb.att if side == cb.attacker else cb.dfn)

    # =================================================================================================
    # events and triggers
    def _fire_simple(self, ev: int, p: int) -> None:
        """turn_start / balancing: the active player's triggers."""
        if not self.n_trig[ev]:
            return
        self._refresh()
        frames = []
        for src, ab in self._trig[ev]:
            if self.owner[src] == p:
                frames.append(self._trigger_frame(src, ab, -1))
        self._push_frames(frames)

    def _fire_card(self, ev: int, card: int) -> None:
        self._push_frames(self._collect(ev, card))

    def _collect(self, ev: int, card: int) -> list[tuple]:
        """recruited / built / dies: listeners whose `card` filter matches (self, a selector seen from the listener's
        controller, or — with no filter — a card of the listener's controller). Collected before a dying card
        leaves, so a card's own `dies` trigger fires."""
        if not self.n_trig[ev]:
            return []   # nobody in play listens (a dying card's own triggers count: it is still in play)
        self._refresh()
        lst = self._trig[ev]
        if not lst and not (ev == EV_DIES and self.cdef[card].triggers):
            return []
        frames = []
        cands = list(lst)
        if ev == EV_DIES and self.cdef[card].triggers:
            for ab in self.cdef[card].triggers:
                if ab.event == ev and all(s != card for s, _ in cands):
                    cands.append((card, ab))
        for src, ab in cands:
            ctrl = self.owner[src]
            if ab.when_self:
                ok = src == card
            elif ab.when_sel is not None:
                ok = self.match(ab.when_sel, card, ctrl, src, any_zone=True)
            else:
                ok = self.owner[card] == ctrl
            if ok:
                frames.append(self._trigger_frame(src, ab, card))
        return frames

    def _collect_side(self, ev: int, side: list[int], role: int) -> list[tuple]:
        """attack_won: once per attack won, for listeners whose filter matches a card on the winning side."""
        if not self.n_trig[ev]:
            return []
        self._refresh()
        frames = []
        for src, ab in self._trig[ev]:
            ctrl = self.owner[src]
            if ab.when_as and ab.when_as != role:
                continue
            hit = -1
            for w in side:
                if ab.when_self:
                    ok = w == src or self.host[src] == w
                elif ab.when_sel is not None:
                    ok = self.match(ab.when_sel, w, ctrl, src, any_zone=True)
                else:
                    ok = self.owner[w] == ctrl
                if ok:
                    hit = w
                    break
            if hit >= 0:
                frames.append(self._trigger_frame(src, ab, hit))
        return frames

    def _collect_destroyed(self, place: int, owner: int, raider: int) -> list[tuple]:
        if not self.n_trig[EV_PLACE_DESTROYED] and not self.n_trig[EV_RAID_WON]:
            return []
        self._refresh()
        frames = []
        for src, ab in self._trig[EV_PLACE_DESTROYED]:
            ctrl = self.owner[src]
            if ab.when_ctrl == CTRL_YOU and owner != ctrl or ab.when_ctrl == CTRL_OPP and owner == ctrl:
                continue
            if src == place:
                continue
            frames.append(self._trigger_frame(src, ab, place))
        frames.extend(self._collect_raid_won(raider, place))
        return frames

    def _collect_raid_won(self, raider: int, target: int) -> list[tuple]:
        if not self.n_trig[EV_RAID_WON]:
            return []
        self._refresh()
        frames = []
        tt = self.cdef[target].type
        for src, ab in self._trig[EV_RAID_WON]:
            if self.owner[src] != raider:
                continue
            if ab.when_target >= 0 and ab.when_target != tt:
                continue
            frames.append(self._trigger_frame(src, ab, target))
        return frames

    def _trigger_frame(self, src: int, ab: Ability, ev: int) -> tuple:
        k = self.cdef[src].abilities.index(ab)
        return (F_ABILITY, src, k, self.owner[src], -1 if ab.optional else 0, (), ev)

    def _push_frames(self, frames: list[tuple]) -> None:
        # the active player's triggers resolve first, each player's in card order (the stack is LIFO)
        if not frames:
            return
        a = self.active
        if len(frames) > 1:
            rank: dict[int, int] = {}
            for p in (a, 1 - a):
                for i in self._in_play(p):
                    rank[i] = len(rank)
            frames.sort(key=lambda f: (f[3] != a, rank.get(f[1], 9999)))
        for k in range(len(frames) - 1, -1, -1):
            self.stack.append(frames[k])

    # =================================================================================================
    # static abilities, CV, Tactics, keywords, icons, rules
    def _in_play(self, p: int) -> list[int]:
        """p's cards in play in a canonical order: the Settlement, the Borderlands, the Strike Force, the Rituals,
        then each host's attachments in the order they were attached (what a position reproduces). Built once per
        change of the cards in play and shared: callers only read it."""
        got = self._ipc[p]
        if got is None:
            got = self._build_in_play(p)
            self._ipc[p] = got
        return got

    def _build_in_play(self, p: int) -> list[int]:
        zs = self.z[p]
        base = zs[Z_SETTLE] + zs[Z_BORDER] + zs[Z_STRIKE] + zs[Z_RITUAL]
        if not zs[Z_ATTACHED]:
            return base
        atts = self.atts
        out = list(base)
        for h in base:
            lst = atts.get(h)
            if lst:
                out.extend(lst)
        return out

    def _active_source(self, i: int) -> bool:
        """§14.2: a Place's abilities work while it is supplied (002 §15); attached cards while attached; a Ritual
        until its owner's next turn; a Leader always."""
        z = self.zone[i]
        if z == Z_SETTLE:
            return self.supplied[i]
        return Z_BORDER <= z <= Z_RITUAL

    def _refresh(self) -> None:
        if not self._dirty:
            return
        self._dirty = False
        cv: list[tuple[int, Static]] = []
        icon: list[tuple[int, Static]] = []
        cost: list[tuple[int, Static]] = []
        grant: list[tuple[int, Static]] = []
        rule: list[tuple[int, Static]] = []
        trig: list[list[tuple[int, Ability]]] = [[] for _ in range(N_EVENTS)]
        cdef = self.cdef
        for p in (0, 1):
            for i in self._in_play(p):
                d = cdef[i]
                if not d.in_play_abilities or not self._active_source(i):
                    continue
                for st in d.statics:
                    if st.cvmod is not None:
                        cv.append((i, st))
                    if st.icons:
                        icon.append((i, st))
                    if st.has_cost:
                        cost.append((i, st))
                    if st.tactics or st.kw:
                        grant.append((i, st))
                    if st.rules:
                        rule.append((i, st))
                for ab in d.triggers:
                    trig[ab.event].append((i, ab))
        self._st_cv = cv
        self._st_icon = icon
        self._st_cost = cost
        self._st_grant = grant
        self._st_rule = rule
        self._trig = trig

    def _affects(self, src: int, st: Static, i: int) -> bool:
        a = st.affects
        if a == AF_SELF:
            return i == src
        if a == AF_HOST:
            return i == self.host[src]
        if a == AF_LEADER:
            return i == self.leader[self.owner[src]]
        if a == AF_SEL:
            sel = st.sel
            assert sel is not None
            return self.match(sel, i, self.owner[src], src)
        if a == AF_YOU:
            return self.owner[i] == self.owner[src]
        return self.owner[i] != self.owner[src]

    def _static_on(self, src: int, st: Static, i: int) -> bool:
        # inside a static's own tests, selectors read printed CV, Tactics, keywords and icons (no loops)
        self._in_static += 1
        ok = self._affects(src, st, i)
        if ok:
            c = st.cond
            ok = c is None or self._cond(c, self.owner[src], self._subject(src))
        self._in_static -= 1
        return ok

    def cv(self, i: int) -> int:
        """The card's CV now: printed CV with its static and lasting modifiers, in 002 §16's order (R18)."""
        memo = self._cvc
        if memo is not None:
            v = memo.get(i)
            if v is not None:
                return v
        if self._dirty:
            self._refresh()
        d = self.cdef[i]
        mods: list[CvMod] = []
        owner = self.owner
        for src, st in self._st_cv:
            sel = st.sel
            if sel is not None:
                # cheap tests first (§14.5): the card's type and controller
                if sel.types and not d.type_bit & sel.types:
                    continue
                c = sel.controller
                if c != CTRL_ANY and (owner[i] == owner[src]) != (c == CTRL_YOU):
                    continue
            elif st.affects == AF_SELF and i != src or st.affects == AF_HOST and self.host[src] != i:
                continue
            if self._static_on(src, st, i):
                m = st.cvmod
                assert m is not None
                mods.append(m)
        if self.tmp:
            for te in self.tmp:
                if te.kind == TE_CV and te.target == i:
                    assert te.mod is not None
                    mods.append(te.mod)
        v = pipeline(d.cv, mods) if mods else d.cv
        if memo is not None:
            memo[i] = v
        return v

    def tactics(self, i: int) -> int:
        """Printed Tactics, plus those granted by statics and effects (002 §6)."""
        bits = self.cdef[i].tactics
        if self._in_static:
            return bits
        if self._dirty:
            self._refresh()
        if not self._st_grant and not self._n_tmp_tac:
            return bits
        for src, st in self._st_grant:
            if not st.tactics or bits & st.tactics == st.tactics:
                continue
            if st.affects == AF_SELF and i != src or st.affects == AF_HOST and self.host[src] != i:
                continue
            if self._static_on(src, st, i):
                bits |= st.tactics
        if self._n_tmp_tac:
            for te in self.tmp:
                if te.kind == TE_TACTIC and te.target == i:
                    bits |= te.bits
        return bits

    def keywords(self, i: int) -> int:
        bits = self.cdef[i].kw
        if self._in_static:
            return bits
        if self._dirty:
            self._refresh()
        if not self._st_grant:
            return bits
        for src, st in self._st_grant:
            if st.kw and self._static_on(src, st, i):
                bits |= st.kw
        return bits

    def icons(self, i: int) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
        """The card's blue and red icons with static modifiers, never below 0 (002 §4)."""
        d = self.cdef[i]
        if self._dirty:
            self._refresh()
        if not self._st_icon or self._in_static:
            return d.prov, d.cons
        memo = None
        if self._cvc is not None:   # a decision waits: the answers keep, as cv()'s
            memo = self._icc
            if memo is None:
                memo = {}
                self._icc = memo
            else:
                got = memo.get(i)
                if got is not None:
                    return got
        prov: list[int] | None = None   # copies of the printed icons, made once a static applies
        cons: list[int] = []
        owner = self.owner
        for src, st in self._st_icon:
            sel = st.sel
            if sel is not None:
                # the cheap tests first, as in cv()
                if sel.types and not d.type_bit & sel.types:
                    continue
                c = sel.controller
                if c != CTRL_ANY and (owner[i] == owner[src]) != (c == CTRL_YOU):
                    continue
            elif st.affects == AF_SELF and i != src or st.affects == AF_HOST and self.host[src] != i:
                continue
            if self._static_on(src, st, i):
                if prov is None:
                    prov = list(d.prov)
                    cons = list(d.cons)
                for r in range(4):
                    prov[r] += st.prov[r]
                    cons[r] += st.cons[r]
        if prov is None:
            res = (d.prov, d.cons)
        else:
            res = ((max(prov[0], 0), max(prov[1], 0), max(prov[2], 0), max(prov[3], 0)),
                   (max(cons[0], 0), max(cons[1], 0), max(cons[2], 0), max(cons[3], 0)))
        if memo is not None:
            memo[i] = res
        return res

    def allowed(self, i: int, rule: int) -> bool:
        """002 §16 (R18): NEVER forbids over everything; else ALWAYS or can allows; else cannot forbids; else the
        default (Loner: `join_group` cannot, 002 §11; a Vehicle: `be_moved` cannot, R8)."""
        d = self.cdef[i]
        if self._dirty:
            self._refresh()
        if not self._st_rule and not self._n_tmp_rule:
            if rule == R_JOIN:
                return not self.keywords(i) & KW_LONER
            if rule == R_BE_MOVED:
                return d.wtype != W_VEHICLE or self.simplified
            return True
        modes = 0
        if rule == R_JOIN:
            if self.keywords(i) & KW_LONER:
                modes = M_CANNOT
        elif rule == R_BE_MOVED:
            if d.wtype == W_VEHICLE and not self.simplified:
                modes = M_CANNOT
        owner = self.owner
        for src, st in self._st_rule:
            sel = st.sel
            if sel is not None:
                if sel.types and not d.type_bit & sel.types:
                    continue
                c = sel.controller
                if c != CTRL_ANY and (owner[i] == owner[src]) != (c == CTRL_YOU):
                    continue
            elif st.affects == AF_SELF and i != src:
                continue
            for r, m in st.rules:
                if r == rule and self._static_on(src, st, i):
                    modes |= m
        if self._n_tmp_rule:
            for te in self.tmp:
                if te.kind == TE_RULE and te.target == i and te.rule == rule:
                    modes |= te.mode
        if not modes:
            return True
        if modes & M_NEVER:
            return False
        if modes & (M_ALWAYS | M_CAN):
            return True
        return False

    def _cost(self, i: int, p: int) -> int:
        """The Starting Cost card i costs p now (static cost modifiers, never below 0; 002 §4)."""
        d = self.cdef[i]
        c = d.cost
        if self._dirty:
            self._refresh()
        if not self._st_cost:
            return c
        for src, st in self._st_cost:
            ctrl = self.owner[src]
            a = st.affects
            if a == AF_OPP:
                ok = p != ctrl
            elif a == AF_SEL:
                sel = st.sel
                assert sel is not None
                ok = self._match_card(sel, i) and (sel.controller == CTRL_ANY
                                                   or (p == ctrl) == (sel.controller == CTRL_YOU))
            else:
                ok = p == ctrl
            if ok and (st.cond is None or self._cond(st.cond, ctrl, self._subject(src))):
                c += st.cost
        return c if c > 0 else 0

    def _copy_in_play(self, p: int, name: str) -> bool:
        for i in self._in_play(p):
            if self.cdef[i].name == name:
                return True
        return False

    def supplied_place(self, i: int) -> bool:
        return self.supplied[i]

    # =================================================================================================
    # selectors and conditions (§14.3, §14.5)
    def _match_card(self, sel: Sel, i: int) -> bool:
        """The card's own characteristics only (type, warrior type, affiliation, keyword, name, cost, unique)."""
        d = self.cdef[i]
        if sel.types and not d.type_bit & sel.types:
            return False
        if sel.wtypes and not d.wbit & sel.wtypes:
            return False
        if sel.has_aff and d.affiliation != sel.aff:
            return False
        if sel.kw_ik >= 0 and (not d.is_intrigue or d.ik != sel.kw_ik):
            return False
        if sel.name is not None and d.name != sel.name:
            return False
        if sel.cost_lte >= 0 and d.cost > sel.cost_lte:
            return False
        if sel.unique >= 0 and d.unique != bool(sel.unique):
            return False
        return True

    def match(self, sel: Sel, i: int, ctrl: int, src: int, any_zone: bool = False) -> bool:
        """Whether card i matches selector sel, seen from player ctrl (the ability's controller)."""
        d = self.cdef[i]
        if sel.types and not d.type_bit & sel.types:
            return False
        c = sel.controller
        if c != CTRL_ANY and (self.owner[i] == ctrl) != (c == CTRL_YOU):
            return False
        z = self.zone[i]
        if not any_zone:
            sz = sel.zone
            if sz == SZ_PLAY:
                if not (Z_SETTLE <= z <= Z_RITUAL):
                    return False
            elif sz == SZ_BORDER:
                if z != Z_BORDER:
                    return False
            elif sz == SZ_STRIKE:
                if z != Z_STRIKE:
                    return False
            elif sz == SZ_SETTLEMENT:
                if z != Z_SETTLE:
                    return False
            elif sz == SZ_HAND:
                if z != Z_HAND:
                    return False
            elif sz == SZ_DISCARD:
                if z != Z_DISCARD:
                    return False
            elif sz == SZ_DECK:
                if z != Z_DECK:
                    return False
        if sel.not_self and i == src:
            return False
        if not self._match_card(sel, i):
            return False
        if sel.kw_bit and not self.keywords(i) & sel.kw_bit:
            return False
        if sel.tactic and not self.tactics(i) & sel.tactic:
            return False
        if sel.provides >= 0 and not self.icons(i)[0][sel.provides]:
            return False
        if sel.consumes >= 0 and not self.icons(i)[1][sel.consumes]:
            return False
        if sel.supplied >= 0 and (self.supplied[i] if d.is_place else True) != bool(sel.supplied):
            return False
        if sel.in_group >= 0 and bool(self.group[i]) != bool(sel.in_group):
            return False
        if sel.equipped >= 0:
            eq = any(self.cdef[a].ik == IK_EQUIPMENT for a in self.atts.get(i, ()))
            if eq != bool(sel.equipped):
                return False
        if sel.taking_part >= 0:
            role = self.part[i]
            if sel.taking_part == 0:
                if not role:
                    return False
            elif role != sel.taking_part:
                return False
        if sel.needs_cv:
            # inside a static's own test, the printed CV (a static cannot depend on the CV it changes)
            v = d.cv if self._in_static else self.cv(i)
            if sel.cv_lte >= 0 and v > sel.cv_lte:
                return False
            if sel.cv_gte >= 0 and v < sel.cv_gte:
                return False
        return True

    def select(self, sel: Sel, ctrl: int, src: int) -> list[int]:
        """Every card matching sel now, seen from ctrl: in play by default, or the zone the selector names."""
        sz = sel.zone
        out: list[int] = []
        c = sel.controller
        players = (ctrl,) if c == CTRL_YOU else (1 - ctrl,) if c == CTRL_OPP else (0, 1)
        for p in players:
            zs = self.z[p]
            if sz == SZ_PLAY:
                pool = self._in_play(p)
            elif sz == SZ_BORDER:
                pool = zs[Z_BORDER]
            elif sz == SZ_STRIKE:
                pool = zs[Z_STRIKE]
            elif sz == SZ_SETTLEMENT:
                pool = zs[Z_SETTLE]
            elif sz == SZ_HAND:
                pool = zs[Z_HAND]
            elif sz == SZ_DISCARD:
                pool = zs[Z_DISCARD]
            else:
                pool = zs[Z_DECK]
            for i in pool:
                if self.match(sel, i, ctrl, src):
                    out.append(i)
        return out

    def _side_role(self, p: int) -> int:
        cb = self.cb
        if cb is None:
            return 0
        if cb.raid:
            return ROLE_RAIDER if p == cb.attacker else ROLE_RAIDED
        return ROLE_ATTACKER if p == cb.attacker else ROLE_DEFENDER

    def _cond(self, c: Cond, ctrl: int, subject: int) -> bool:
        k = c.kind
        if k == C_CONTROLS or k == C_OPP_CONTROLS:
            sel = c.sel
            assert sel is not None
            who = ctrl if k == C_CONTROLS else 1 - ctrl
            n = len(self.select(sel, who, subject))
            return n >= c.lo and (c.hi < 0 or n <= c.hi)
        if k == C_TAKING_PART:
            role = self.part[subject] if subject >= 0 else self._side_role(ctrl)
            return role != 0 if c.n == 0 else role == c.n
        if k == C_RESERVE_GTE:
            return self.reserve[ctrl] >= c.n
        if k == C_VP_GTE:
            return self.vp[ctrl] >= c.n
        if k == C_VP_LTE:
            return self.vp[ctrl] <= c.n
        if k == C_BEHIND:
            return self.vp[ctrl] < self.vp[1 - ctrl]
        if k == C_HAND_LTE:
            return len(self.z[ctrl][Z_HAND]) <= c.n
        if k == C_HAND_GTE:
            return len(self.z[ctrl][Z_HAND]) >= c.n
        if k == C_TACTIC:
            return self.cb is not None and self.cb.tactic == c.n
        if k == C_ZONE:
            if subject < 0:
                return False
            z = self.zone[subject]
            return (z == Z_BORDER) if c.n == SZ_BORDER else (z == Z_STRIKE)
        if k == C_ALL:
            return all(self._cond(s, ctrl, subject) for s in c.subs)
        if k == C_ANY:
            return any(self._cond(s, ctrl, subject) for s in c.subs)
        if k == C_NOT:
            return not self._cond(c.subs[0], ctrl, subject)
        return False

    def _usable(self, ab: Ability, src: int, ctrl: int, subject: int, extra_gold: int = 0) -> bool:
        """§14.2: its condition holds, its costs can be paid, a legal target exists."""
        if ab.cond is not None and not self._cond(ab.cond, ctrl, subject):
            return False
        gold = extra_gold
        for c in ab.costs:
            k = c.kind
            if k == K_PAY_GOLD:
                gold += c.n
            elif k == K_DISCARD_HAND:
                others = len(self.z[ctrl][Z_HAND]) - (1 if self.zone[src] == Z_HAND else 0)
                if others < c.n:
                    return False
            elif k == K_KILL:
                sel = c.sel
                assert sel is not None
                if not any(self.zone[w] in (Z_BORDER, Z_STRIKE) and self.owner[w] == ctrl
                           for w in self.select(sel, ctrl, src)):
                    return False
        if gold > self.reserve[ctrl]:
            return False
        sel = ab.target
        if sel is not None:
            n = len(self.select(sel, ctrl, src))
            if n < (1 if sel.up_to else sel.count):
                return False
        return True

    # =================================================================================================
    # validation of listings (a raid party, a Group: any legal subset of a printed option)
    def _legal_listing(self, dec: Decision, a: Any) -> bool:
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
    def _nameable(self, dec: Decision) -> dict:
        codes = dec._codes
        if codes is None:
            ids: set[int] = set()
            for o in dec.options:
                for x in o[1:]:
                    if isinstance(x, tuple):
                        ids.update(x)
                ids.update(self._option_cards(o))
            codes = {}
            for i in ids:
                c = self.cdef[i].code
                codes[c] = codes.get(c, 0) + 1
            dec._codes = codes
        return codes

    def _option_cards(self, o: tuple) -> list[int]:
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

    def card_name(self, i: int, codes: dict | None = None) -> str:
        code = self.cdef[i].code
        if codes is not None and codes.get(code, 0) == 1:
            return code
        return self.labels[i]

    def _safe_text(self, a: Any) -> str:
        try:
            return repr(self.action_text(a))
        except Exception:   # noqa: BLE001 - an unprintable action is itself the error
            return repr(a)

    def action_text(self, a: Any) -> str:
        """The short text of an action: `build fb-001`, `at 1,0`, `recruit fb-013 strike`, `attack a b+c front`,
        `raid fb-003 left x+y`, `pay all`, `reward vp`, ... (docs/games/realms.md, "Actions")."""
        dec = self.pending
        codes = self._nameable(dec) if dec is not None else None

        def nm(i: int) -> str:
            return self.card_name(i, codes)

        def grp(ws: tuple) -> str:
            return "+".join(nm(w) for w in ws)

        k = a[0]
        if k == A_LEADER:
            return f"leader {self.cdef[a[1]].code}"
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
            d = self.cdef[a[1]]
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
            tgt = "leader" if self.cdef[a[1]].is_leader else nm(a[1])
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

    def parse_action(self, text: str) -> tuple:
        """Read an action text back (every text action_text prints, plus any legal raid party or Group listing).
        Cards are named by label, or by code when one card with that code can be named here."""
        dec = self.pending
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
        cands = self._nameable_ids(dec)
        used: list[int] = []

        def card(tok: str, pool: list[int] | None = None) -> int:
            return self._resolve(tok, cands if pool is None else pool, used, dec)

        def tactic(tok: str) -> int:
            if tok.lower() not in TACTIC_BITS:
                raise IllegalAction(f"{tok!r} is not a Tactic: left, front or right")
            return TACTIC_BITS[tok.lower()]

        try:
            if verb == "leader" and len(args) == 1:
                for o in dec.options:
                    if o[0] == A_LEADER and (self.cdef[o[1]].code == args[0] or self.labels[o[1]] == args[0]):
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
                    tgt = self.leader[1 - p]
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
                            + ", ".join(self.action_text(o) for o in dec.options[:12]))

    def _nameable_ids(self, dec: Decision) -> list[int]:
        ids: list[int] = []
        for o in dec.options:
            for i in self._option_cards(o):
                if i not in ids:
                    ids.append(i)
        return ids

    def _warriors(self, p: int) -> list[int]:
        return self.z[p][Z_BORDER] + self.z[p][Z_STRIKE]

    def _resolve(self, tok: str, pool: list[int], used: list[int], dec: Decision) -> int:
        for i in pool:
            if self.labels[i] == tok:
                used.append(i)
                return i
        same = [i for i in pool if self.cdef[i].code == tok and i not in used]
        if not same:
            raise IllegalAction(f"{tok!r} names no card this {dec.kind} decision can name")
        used.append(same[0])
        return same[0]


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
