"""The realms rules engine: the state of one game and every rule of `002_…` (docs/games/realms.md).

`Game(deck_a, deck_b, seed=...)` runs the rules until a player must decide; every decision is an action
(`legal_actions()`, `apply_action()`, `action_text()`, `parse_action()`), as in r1's engine and
`simulator/engines/common/protocol.py`. Unlike r1's engine, whose steps run as generators (its copies replay the
choices of the current step), the engine is an explicit state machine — a step code, a stack of small tuples for
abilities being resolved, and plain lists and dicts of ints — so `clone()` copies the state (no replay) and a
position prints and loads at any step boundary.

    >>> from cards.games.realms import bundled_pool, starter_files           # doctest: +SKIP
    >>> g = Game(deck, None, seed=7)                                         # doctest: +SKIP
    >>> while not g.is_terminal(): g.apply_action(g.legal_actions()[0])      # doctest: +SKIP

Every rule names its section (`002 §N`) or reading (`R7`, docs/games/realms.md) in a comment; log lines too.
"""
from __future__ import annotations

import random
from typing import Any

from simulator.engines.common.protocol import IllegalAction
from simulator.engines.common.shuffle import fisher_yates

from .cards import (
    N_EVENTS, GOLDFISH_LEADER, Ability, CardDef, CvMod, Deck, Sel, Static,
)
from . import settlement, phases, actions, resources, combat, raids, abilities, statics, texts
from .state import _labels_for

# the engine's vocabulary lives in state.py; policies, views, positions and tests also read it from here
from .state import (  # noqa: F401
    Z_DECK, Z_HAND, Z_DISCARD, Z_ASIDE, Z_ANNIH, Z_VP, Z_SETTLE, Z_BORDER, Z_STRIKE, Z_ATTACHED, Z_RITUAL, Z_OUT,
    Z_LIMBO, N_ZONES, ZONE_NAMES, ST_LEADER, ST_MULLIGAN, ST_TURN_START, ST_DRAW, ST_ACTIONS, ST_BAL_START,
    ST_BALANCE, ST_ATTACK, ST_RAID, ST_END, ST_OVER, STEP_NAMES, A_LEADER, A_KEEP, A_MULLIGAN, A_BUILD, A_CELL,
    A_RECRUIT, A_MOVE, A_PLAY, A_USE, A_DISCARD, A_GROUP, A_DONE, A_PASS, A_ATTACK, A_RAID, A_REWARD, A_PAY,
    A_PAY_ALL, A_TARGET, A_TAKE, A_KILL, A_YES, A_NO, REWARDS, RW_GOLD, RW_ATTACHMENTS, RW_DISCARD, RW_VP,
    G_OFFENSIVE, G_DEFENSIVE, F_ABILITY, F_EFFECT, F_DISCARD_LIMBO, F_CHOOSE_DISCARD, F_COST_KILL, TE_CV, TE_TACTIC,
    TE_RULE, SEAT, DURATION_WORDS, STAT_NAMES, S_CARDS_PLAYED, S_PLACES_BUILT, S_WARRIORS_RECRUITED, S_ATTACKS,
    S_ATTACKS_WON, S_ATTACKS_LOST, S_ATTACKS_TIED, S_WARRIORS_KILLED, S_WARRIORS_LOST, S_RAIDS, S_RAIDS_FAILED,
    S_PLACES_DESTROYED, S_PLACES_LOST, S_LEADER_RAIDS, S_REWARD_GOLD, S_REWARD_ATTACHMENTS, S_REWARD_DISCARD,
    S_REWARD_VP, S_UNPAID_DISCARDS, S_RESHUFFLES, IllegalAction, PositionError, Decision, TmpEff, Combat, cell_of,
    cell_xy, CELL0, NEIGHBOURS, pipeline, new_stats, stats_dict, default_labels, tactics_text, resources_text,
    effect_text,
)


def _listed(options: list, action: Any) -> bool:
    """Whether `action` is one of the option objects themselves (what a policy returns): a native pointer scan,
    before the slower test by equality."""
    for o in options:
        if o is action:
            return True
    return False


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
        self._st_cv_roles = False   # a static in _st_cv reads the roles cards take in a fight
        self._st_icon: list[tuple[int, Static]] = []
        self._st_cost: list[tuple[int, Static]] = []
        self._st_grant: list[tuple[int, Static]] = []
        self._st_rule: list[tuple[int, Static]] = []
        self._trig: list[list[tuple[int, Ability]]] = [[] for _ in range(N_EVENTS)]
        self._n_tmp_rule = 0
        self._n_tmp_tac = 0
        self._in_static = 0
        self._cvc: dict[int, int] | None = None   # CV memo while a decision waits (the state cannot change)
        # the Group options (actions.group_options) with printed Tactics, per player, kept until a warrior enters or
        # leaves a Borderlands or Strike Force or a Group forms or breaks (_grp_v counts those changes)
        self._grp_v = 0
        self._grp_c: list[tuple[int, list] | None] = [None, None]
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
        self._st_cv_roles = False
        self._st_icon = []
        self._st_cost = []
        self._st_grant = []
        self._st_rule = []
        self._trig = [[] for _ in range(N_EVENTS)]
        self._n_tmp_rule = o._n_tmp_rule
        self._n_tmp_tac = o._n_tmp_tac
        self._in_static = 0
        self._cvc = {} if o._cvc is not None else None
        self._grp_v = o._grp_v
        self._grp_c = [None, None]
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
    # public API (simulator/engines/common/protocol.py)
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
            action = texts.parse_action(self, action)
        elif isinstance(action, list):
            action = tuple(action)
        if not _listed(dec.options, action) and action not in dec.options and \
                not texts.legal_listing(self, dec, action):
            raise IllegalAction(f"{texts.safe_text(self, action)} is not a legal {dec.kind} action for player "
                                f"{dec.player}; options: {', '.join(texts.action_text(self, a) for a in dec.options[:12])}"
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
        """What `player` may know (simulator/engines/common/protocol.py): see view.py."""
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
                abilities.step_stack(self)
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
            actions.actions_decision(self)
        elif st == ST_BALANCE:
            resources.balance_decision(self)
        elif st == ST_ATTACK:
            combat.attack_step(self)
        elif st == ST_RAID:
            raids.raid_step(self)
        elif st == ST_TURN_START:
            phases.turn_start(self)
        elif st == ST_DRAW:
            phases.draw_step(self)
        elif st == ST_BAL_START:
            resources.balancing_start(self)
        elif st == ST_END:
            phases.end_of_turn(self)
        elif st == ST_LEADER:
            phases.setup_leader(self)
        elif st == ST_MULLIGAN:
            phases.setup_mulligan(self)

    # =================================================================================================
    # decisions: dispatch of the chosen action
    def _handle(self, dec: Decision, a: tuple) -> None:
        kind: int = a[0]
        p = dec.player
        k = dec.kind
        if k == "actions":
            if kind == A_DONE:
                if self.logs is not None:
                    self._log(p, "002 §10", "ends its Actions")
                self.step = ST_BAL_START
            elif kind == A_BUILD or kind == A_RECRUIT or kind == A_PLAY:
                actions.play_card(self, p, a)
            elif kind == A_MOVE:
                w = a[1]
                self.moved_t[w] = self.turn
                dest = Z_STRIKE if self.zone[w] == Z_BORDER else Z_BORDER
                settlement.move(self, w, dest, p)
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
                settlement.leave(self, a[1], Z_DISCARD)
            elif kind == A_GROUP:
                actions.form_group(self, p, a[1], tuple(a[2]))
        elif k == "cell":
            settlement.build(self, p, dec.ctx[0], a[1])
        elif k == "balance":
            if kind == A_PAY_ALL:
                for i in dec.ctx:
                    resources.bal_pay(self, p, i)
            elif kind == A_PAY:
                resources.bal_pay(self, p, a[1])
            else:
                resources.bal_discard(self, p, a[1], forced=False)
        elif k == "attack":
            if kind == A_DONE:
                combat.end_attack_step(self, p)
            else:
                combat.declare_attack(self, p, a)
        elif k == "raid":
            if kind == A_PASS:
                if self.logs is not None:
                    self._log(p, "002 §14", "makes no raid")
                self.raid_done = True
            else:
                raids.declare_raid(self, p, a)
        elif k == "combat" or k == "raid_mods":
            combat.window_act(self, p, a)
        elif k == "reward":
            raids.reward(self, p, a[1])
        elif k == "leader":
            self.leader_choice[p] = a[1]
            self.setup_p += 1
        elif k == "mulligan":
            phases.mulligan(self, p, kind == A_MULLIGAN)
        else:
            abilities.handle_sub(self, dec, a)

    # ---- the questions policies, views and positions ask (each answered by its layer) -----------------
    def action_options(self, p: int) -> list:
        return actions.action_options(self, p)

    def group_tactics(self, members: tuple[int, ...] | list[int]) -> int:
        return actions.group_tactics(self, members)

    def pay_all_order(self, avail: list[int], unpaid: list[int]) -> list[int] | None:
        return resources.pay_all_order(self, avail, unpaid)

    def project_balance(self, p: int) -> list[int] | None:
        return resources.project_balance(self, p)

    def attackers(self, p: int) -> list[tuple[int, ...]]:
        return combat.attackers(self, p)

    def defenders(self, q: int) -> list[tuple[int, ...]]:
        return combat.defenders(self, q)

    def attack_options(self, p: int) -> list:
        return combat.attack_options(self, p)

    def cv_as(self, members: list[int] | tuple[int, ...], role: int) -> int:
        return combat.cv_as(self, members, role)

    def side_cv(self, members: list[int] | tuple[int, ...], mods: list[CvMod]) -> int:
        return combat.side_cv(self, members, mods)

    def window_options(self, p: int, cb: Combat) -> list:
        return combat.window_options(self, p, cb)

    def raid_targets(self, q: int) -> list[int]:
        return raids.raid_targets(self, q)

    def blocked(self, q: int, t: int) -> bool:
        return raids.blocked(self, q, t)

    def raiders(self, p: int, t: int) -> list[int]:
        return raids.raiders(self, p, t)

    def raid_options(self, p: int) -> list:
        return raids.raid_options(self, p)

    def reward_options(self, p: int) -> list:
        return raids.reward_options(self, p)

    def cv(self, i: int) -> int:
        return statics.cv(self, i)

    def tactics(self, i: int) -> int:
        return statics.tactics(self, i)

    def keywords(self, i: int) -> int:
        return statics.keywords(self, i)

    def icons(self, i: int) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
        return statics.icons(self, i)

    def allowed(self, i: int, rule: int) -> bool:
        return statics.allowed(self, i, rule)

    def supplied_place(self, i: int) -> bool:
        return statics.supplied_place(self, i)

    def match(self, sel: Sel, i: int, ctrl: int, src: int, any_zone: bool = False) -> bool:
        return statics.match(self, sel, i, ctrl, src, any_zone)

    def select(self, sel: Sel, ctrl: int, src: int) -> list[int]:
        return statics.select(self, sel, ctrl, src)

    def card_name(self, i: int, codes: dict | None = None) -> str:
        return texts.card_name(self, i, codes)

    def action_text(self, a: Any) -> str:
        return texts.action_text(self, a)

    def parse_action(self, text: str) -> tuple:
        return texts.parse_action(self, text)

