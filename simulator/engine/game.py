"""The two-player game of ruleset r1 (§4–§12) as a resumable procedure over a small state of ints and lists.

The rules are one generator (`Game._run`): it runs until a player must decide something, yields a `Decision`
(the player, what kind of choice, the legal options) and resumes with the chosen action. `legal_actions()`,
`apply_action()`, `clone()`, `is_terminal()` and `returns()` wrap it in the OpenSpiel/python-chess shape;
`play_game()` (in `__init__`) drives it with policies called directly on each decision.

Cards are indices ("iids") into per-game tables; zones are lists of iids per player (a deck's top is its end).
"""
from __future__ import annotations

from typing import Any

import random

from .abilities import EFFECT_MODIFIERS, SCRIPTS, Ability
from .cards import (
    COST_DASH, COST_X, KW_COMPEL, KW_CUNNING, KW_GLORY, KW_HASTE, KW_LASTING, KW_MASTERY, KW_NO_ATTACH,
    KW_PROWESS, KW_RAVAGE, KW_RESTRICTED, KW_RUTHLESS, KW_SCOUT, KW_SECRET, KW_SUBTLE, KW_WARY, ICON_BITS,
    KEYWORD_BITS, STRUGGLE_TYPES, CardDef, Deck, parse_keyword, token_def,
)

WIN_INFLUENCE = 15      # §1.1, §12
HAND_SIZE = 7           # §4
SETUP_BUDGET = 8        # §4
SECRET_PLACE_COST = 2   # §10.9
DRAW_PER_ROUND = 2      # §5.2

# Zones (§3.1). FIELD is "in play"; FACTION/DESTINY/QUEST are the permanent slots.
DECK, HAND, FIELD, DISCARD, DEAD, SECRET, QDECK, QUSED, OUT, DUP, FACTION, DESTINY, QUEST, GONE, LIMBO, ASIDE = \
    range(16)
ZONE_NAMES = ("deck", "hand", "field", "discard", "dead", "secret", "quest_deck", "used_quests", "out",
              "duplicate", "faction", "destiny", "active_quest", "gone", "resolving", "aside")
# zones whose cards both players see (§3.1); the others are a hand, a deck, a secret area or a facedown board
PUBLIC_ZONE = bytes(0 if z in (DECK, HAND, SECRET, QDECK, ASIDE) else 1 for z in range(16))
ZONE_BY_NAME = {"field": FIELD, "hand": HAND, "deck": DECK, "discard": DISCARD, "dead": DEAD, "secret": SECRET}

PHASES = ("quest", "draw", "kingdom", "confrontation", "authority", "refresh", "toll")
QUEST_P, DRAW_P, KINGDOM_P, CONFRONT_P, AUTHORITY_P, REFRESH_P, TOLL_P = range(7)
COMBAT, GUILE, SORCERY, FAITH = range(4)

PASS = ("pass",)
DONE = ("done",)
CONTINUE = ("continue",)
STRUGGLE_COUNTERS = ("initiated", "won", "unopposed", "defended", "won_defending")
YES = ("yes",)
NO = ("no",)


# Selectors compiled to tuples of small checks, keyed by id(); the entry keeps the selector alive, so an id is
# never reused while cached. Bounded, because effects may build selectors on the fly.
_COMPILED: dict[int, tuple] = {}


_STATIC_KEYS = frozenset({"type", "attribute", "faction", "name", "unique", "icon", "is_token", "cost_lte",
                          "cost_gte", "not_self"})


def _static_part_matches(sel: dict, d, iid: int, src: int) -> bool:
    """The selector's checks that depend only on the printed card (and which card is the source)."""
    for k, v in sel.items():
        if k not in _STATIC_KEYS:
            continue
        if k == "type":
            if (d.type not in v) if isinstance(v, list) else d.type != v:
                return False
        elif k == "attribute":
            if (not any(a in d.attributes for a in v)) if isinstance(v, list) else v not in d.attributes:
                return False
        elif k == "faction":
            if d.faction != v:
                return False
        elif k == "name":
            if d.name != v:
                return False
        elif k == "unique":
            if d.unique != bool(v):
                return False
        elif k == "icon":
            if not d.icons & ICON_BITS.get(v, 0):
                return False
        elif k == "is_token":
            if d.is_token != bool(v):
                return False
        elif k == "cost_lte":
            if not 0 <= d.cost <= v:
                return False
        elif k == "cost_gte":
            if d.cost < v:
                return False
        elif k == "not_self":
            if v and iid == src:
                return False
    return True


def _dynamic_part(ab) -> tuple:
    """(zone, controller, checks) of a static's `affects` selector without its printed-card checks, which
    `_power_candidates` has already applied. Cached on the ability."""
    sel = ab.affects
    dyn = {k: v for k, v in sel.items() if k not in _STATIC_KEYS}
    ab.dyn_affects = (ZONE_BY_NAME.get(sel.get("zone", "field"), FIELD), sel.get("controller", "you"),
                      _compile_selector_uncached(dyn))
    return ab.dyn_affects


def _power_check(op: str, v: int):
    def check(g, j, src):
        d = g.cdef[j]
        if not d.is_unit:
            return False
        pw = g.power(j) if g.zone[j] == FIELD else d.power
        pw = pw if pw > 0 else 0
        if op == "power_lt":
            return pw < v
        if op == "power_lte":
            return pw <= v
        if op == "power_gt":
            return pw > v
        return pw >= v
    return check


def _struggle_check(k: str, v):
    want = bool(v)
    if k == "attacking" or v == "attacking":
        def member(s, j):
            return j in s.attackers
    elif k == "defending" or v == "defending":
        def member(s, j):
            return j in s.defenders
    else:
        def member(s, j):
            return j in s.attackers or j in s.defenders

    def check(g, j, src):
        s = g.struggle
        if s is None:
            return not want
        return member(s, j) == want
    return check


def _compile_selector(sel: dict) -> tuple:
    if len(_COMPILED) > 4096:
        _COMPILED.clear()
    entry = (sel, _compile_selector_uncached(sel))
    _COMPILED[id(sel)] = entry
    return entry


def _compile_selector_uncached(sel: dict) -> tuple:
    checks: list = []
    for k, v in sel.items():
        if k in ("zone", "controller", "count", "up_to", "each"):
            continue
        if k == "type":
            if isinstance(v, list):
                vs = frozenset(v)
                checks.append(lambda g, j, src, vs=vs: g.cdef[j].type in vs)
            else:
                checks.append(lambda g, j, src, v=v: g.cdef[j].type == v)
        elif k == "attribute":
            if isinstance(v, list):
                vs = frozenset(v)
                checks.append(lambda g, j, src, vs=vs: not vs.isdisjoint(g.cdef[j].attributes))
            else:
                checks.append(lambda g, j, src, v=v: v in g.cdef[j].attributes)
        elif k == "faction":
            checks.append(lambda g, j, src, v=v: g.cdef[j].faction == v)
        elif k == "name":
            checks.append(lambda g, j, src, v=v: g.cdef[j].name == v)
        elif k == "unique":
            checks.append(lambda g, j, src, v=bool(v): g.cdef[j].unique == v)
        elif k == "keyword":
            bit = parse_keyword(v)[0] or KEYWORD_BITS.get(str(v).lower(), 0)
            checks.append(lambda g, j, src, bit=bit: bool(g.kw(j) & bit))
        elif k == "icon":
            bit = ICON_BITS.get(v, 0)
            checks.append(lambda g, j, src, bit=bit: bool(g.cdef[j].icons & bit))
        elif k in ("power_lt", "power_lte", "power_gt", "power_gte"):
            checks.append(_power_check(k, v))
        elif k == "cost_lte":
            checks.append(lambda g, j, src, v=v: 0 <= g.cdef[j].cost <= v)
        elif k == "cost_gte":
            checks.append(lambda g, j, src, v=v: g.cdef[j].cost >= v)
        elif k == "ready":
            checks.append(lambda g, j, src, v=bool(v): (not g.exh[j]) == v)
        elif k == "exhausted":
            checks.append(lambda g, j, src, v=bool(v): bool(g.exh[j]) == v)
        elif k in ("participating", "attacking", "defending"):
            checks.append(_struggle_check(k, v))
        elif k == "not_self":
            if v:
                checks.append(lambda g, j, src: j != src)
        elif k in ("blanked", "has_emblem"):
            checks.append(lambda g, j, src, v=bool(v): bool(g.emb[j]) == v)
        elif k == "has_influence":
            checks.append(lambda g, j, src, v=bool(v): bool(g.cnt[j]) == v)
        elif k == "is_token":
            checks.append(lambda g, j, src, v=bool(v): g.cdef[j].is_token == v)
    return tuple(checks)


_LIVE_KEYS: dict[str, tuple[str, str]] = {}   # event name -> its "halt:" and "disrupt:" keys in Game.live


# (source card, its controller, the static ability): one active static ability (§8.1)
StaticEntry = tuple[int, int, Ability]
# A Power static that could apply to a card (Game._power_candidates): source, controller, kind (0 self, 1 host,
# 2 selector), zone, "you" True / "opponent" False / "any" None, remaining selector checks, condition, amount
PowerCand = tuple[int, int, int, int, Any, tuple, Any, Any]


class GameOver(Exception):
    """Raised inside the rules when the game ends (§12); caught by `_run`."""

    def __init__(self, winner, reason):
        super().__init__(reason)
        self.winner = winner
        self.reason = reason


class IllegalAction(ValueError):
    """An action that is not one of the pending decision's options."""


class Decision:
    """A choice the rules ask of one player: `kind`, `player`, the legal `options` and some `info`."""

    __slots__ = ("kind", "player", "options", "info")

    def __init__(self, kind: str, player: int, options: list, info=None):
        self.kind = kind
        self.player = player
        self.options = options
        self.info = info

    def __repr__(self) -> str:
        return f"Decision({self.kind}, p{self.player}, {len(self.options)} options)"


class Struggle:
    """§6: the struggle in progress."""

    __slots__ = ("type", "attacker", "defender", "attackers", "defenders", "barred", "att_total", "def_total",
                 "winner", "margin", "spoils_mod", "unopposed", "declared_attackers", "declared_defenders")

    def __init__(self, stype: int, attacker: int):
        self.type = stype
        self.attacker = attacker
        self.defender = 1 - attacker
        self.attackers: list[int] = []
        self.defenders: list[int] = []
        self.declared_attackers: list[int] = []
        self.declared_defenders: list[int] = []
        self.barred: set[int] = set()
        self.att_total = self.def_total = 0
        self.winner: Any = None   # the winning player, None until S.8 (and for 0-0)
        self.margin = 0
        self.spoils_mod = 0
        self.unopposed = False

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


def fisher_yates(rng: random.Random, items: list) -> None:
    """STYLE §4: our own shuffle on rng.random(), so results do not depend on the Python version."""
    rand = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]


class Game:
    """One game between two decks (`deck_b=None`: the goldfish opponent of CONTRACTS §3).

    >>> g = Game(deck, None, seed=1)                # doctest: +SKIP
    >>> while not g.is_terminal(): g.apply_action(g.legal_actions()[0])
    """

    def __init__(self, deck_a: Deck, deck_b: Deck | None = None, *, seed: int, first_player: int | None = None,
                 max_rounds: int = 50, log: bool = False, autostart: bool = True, observer=None,
                 policies: Any = None, cards: list[int] | None = None):
        """`policies`: None, or a pair of policy objects (None for a player decided through `apply_action`) —
        each has `choose(view, decision)` and may have the shortcuts `wants_window`, `ability_filter` and
        `declare` (docs/engine.md); `play()` then plays the game out with them. `cards`: internal, used by
        `PlayerView.determinize`: card id i starts as the card the decks give id cards[i] (a permutation within
        one owner's draw cards)."""
        if first_player not in (None, 0, 1):
            raise ValueError("first_player must be 0, 1 or None")
        self.decks = (deck_a, deck_b)
        self.goldfish = deck_b is None
        self.seed = seed
        self.first_arg = first_player
        self.max_rounds = max_rounds
        self.rng = random.Random(seed)
        self.logs: Any = [] if log else None   # list[str] when logging
        cdef: list[CardDef] = []
        owner: list[int] = []
        self.faction_iid = [-1, -1]
        self.destiny_iid = [-1, -1]
        self.deck: list[list[int]] = [[], []]
        self.qdeck: list[list[int]] = [[], []]
        for p, d in enumerate(self.decks):
            if d is None:
                continue
            self.faction_iid[p] = len(cdef); cdef.append(d.faction); owner.append(p)
            if d.destiny is not None:
                self.destiny_iid[p] = len(cdef); cdef.append(d.destiny); owner.append(p)
            for q in d.quests:
                self.qdeck[p].append(len(cdef)); cdef.append(q); owner.append(p)
            for c in d.draw:
                self.deck[p].append(len(cdef)); cdef.append(c); owner.append(p)
        if cards is not None:
            if sorted(cards) != list(range(len(cdef))) or any(owner[i] != owner[j] for i, j in enumerate(cards)):
                raise ValueError("cards must permute card ids within one owner")
            cdef = [cdef[j] for j in cards]
        self.card_map = cards
        self.cdef = cdef
        self.owner = owner
        n = len(cdef)
        # which cards have been in a public zone (field, discard, dead pile, ...): PlayerView.determinize keeps
        # those as they are and deals the others again
        self.seen = bytearray(n)
        self.zone = [DECK] * n
        for p in (0, 1):
            if self.faction_iid[p] >= 0:
                self.zone[self.faction_iid[p]] = FACTION
            if self.destiny_iid[p] >= 0:
                self.zone[self.destiny_iid[p]] = DESTINY
            for qi in self.qdeck[p]:
                self.zone[qi] = QDECK
        self.ctrl = list(owner)
        self.exh = [0] * n
        self.emb = [0] * n
        self.cnt = [0] * n
        self.host: dict[int, int] = {}
        self.dups: dict[int, list[int]] = {}
        self.hand: list[list[int]] = [[], []]
        self.field: list[list[int]] = [[], []]
        self.discard: list[list[int]] = [[], []]
        self.dead: list[list[int]] = [[], []]
        self.secret: list[list[int]] = [[], []]
        self.qused: list[list[int]] = [[], []]
        self.out: list[list[int]] = [[], []]
        self.limbo: list[int] = []
        self.aside: list[list[int]] = [[], []]   # §4: the facedown opening board / a mulliganed hand
        self.quest = [-1, -1]
        self.infl = [0, 0]
        self.pool = [0, 0]
        self.authority = -1
        self.first = 0
        self.round_no = 0
        self.phase = -1
        self.active = -1
        self.struggle: Struggle | None = None
        self.struggles_done: list[set] = [set(), set()]
        # a game loaded from a position starts here (positions.py); -1: from §4 setup
        self.start_phase = -1
        self.start_active = -1
        # stops: the rules also pause at the start of each phase or turn and at the end of each struggle with a
        # Decision of kind "boundary" (player -1, one option, never recorded): the judge stops there
        self.stops = False
        # positions.from_position: origin(cards, log) lays out the same start again (clone and determinize replay
        # the history from there instead of from §4 setup)
        self.origin: Any = None
        self.queued: list[Any] = []   # (player, host name) of a `play CARD on HOST` whose host decision is to come
        self.labels: dict[int, str] = {}   # card id -> the label a position gave it (action texts use it)
        self.restricted_used = [0, 0]
        self.plays_by_name: list[dict] = [{}, {}]
        self.uses: dict = {}
        self.lasting: list[tuple] = []   # (until, kind, who, value): kind "power" | "keyword" | "control"
        self.delayed: list[tuple] = []   # §8.9 (at, ctx, effects): "at the end of this phase / struggle / round"
        self.retyped: dict[int, list] = {}   # §2.2 card -> [printed CardDef, then each type change still applying]
        self.pmod: dict[int, int] = {}
        self.kgrant: dict[int, list] = {}
        self._statics_cache: Any = None
        self._st_power: list[StaticEntry] = []   # the active statics split by what they modify (_statics)
        self._st_grant: list[StaticEntry] = []
        self._st_grant_mask = 0
        self._st_rule: list[StaticEntry] = []
        self._st_cost: list[StaticEntry] = []
        self._st_player: list[StaticEntry] = []
        self._st_rule_by: dict[str, list[StaticEntry]] = {}
        self._pw_cands: dict[int, list[PowerCand]] = {}
        self.has_abilities = any(d is not None and any(c.abilities for c in d.defs) for d in self.decks)
        # §7.4 replacements: only decks that have one pay for tracking when each card entered play
        self.has_replace = any(d is not None and any(c.replacements for c in d.defs) for d in self.decks)
        self.entry_seq: dict[int, int] = {}   # card -> order it entered the field ("most recent wins")
        self._seq = 0
        self._replacing: set = set()          # (source, ability, card) replacements being applied (no loops)
        # live[event]: how many cards where they lie (field, hand for deeds, permanent slots) could react to it;
        # n_act[p]: cards of p that could take an action in a window. Windows nobody can act in are skipped.
        self.live: dict[str, int] = {}
        self.live_ev: dict[str, int] = {}   # event name -> live counts of its Response, Halt and Disrupt keys
        self.n_act = [0, 0]
        for p in (0, 1):
            for i in (self.faction_iid[p], self.destiny_iid[p]):
                if i >= 0 and cdef[i].hooks:
                    self._hook(i, FIELD, 1, p)
        # statistics for GameResult
        self.stat_spent = [0, 0]
        self.stat_played = [0, 0]
        self.stat_won = [0, 0]
        self.by_round: dict[str, list] = {"influence": [], "spent": [], "played": [], "won": []}
        self.cards_played: dict[str, int] = {}
        self.winner: int | None = None
        self.reason: str | None = None
        self.over = False
        # Every choice made in this game, in order, so that clone() can replay it exactly: the answer to each
        # Decision (a tuple), and the answers of play_game's shortcuts, which skip Decisions: a wants_window answer
        # is the int 2*player + answer, an action window whose options came out empty under an ability filter
        # is 4 + player, a declaration is the list [player, card, ...].
        self.history: list[Any] = []
        self._replay: list[Any] | None = None   # while replaying a history (clone, determinize)
        self._rpos = 0
        # §6.2 counters per player and struggle type, for the struggles that player initiated: initiated, won
        # (as the attacker), unopposed (S.10), defended (the defending player declared at least one defender,
        # S.6); and won_defending, the struggles of that type the player won as the defender
        self._sc = [0] * 40   # (player * 4 + type) * 5 + counter, counters in STRUGGLE_COUNTERS order
        self._gen = self._run()
        self.pending: Decision | None = None
        self.round1_first = first_player if first_player is not None else 0
        # play_game: per player, a policy's wants_window(game, p, kind) -> bool, asked before options are built
        self.fast_pass: list[Any] = [None, None]
        # effective Power memo, only while nothing can change: a policy's choice, building window options
        self._pcache: dict | None = None
        self.ability_filter: list[Any] = [None, None]   # play_game: a policy's ability_filter(game, ability, kind) -> bool
        # play_game: per player, a policy's declare(game, kind, p, eligible, stype) -> list of ids, which answers
        # a whole S.1-S.3 / S.6 declaration at once (the same picks its one-by-one decisions would make)
        self.declare_hook: list[Any] = [None, None]
        # tests: observer(game, what, info) with ("phase_end", phase) before each phase closes, ("toll_done", phase)
        # and ("struggle_end", the Struggle record) at S.13 before "until the end of the struggle" effects expire
        self.observer = observer
        self.policies: list[Any] = [None, None]
        self._views: list[PlayerView | None] = [None, None]   # made on first use
        if policies is not None:
            self._set_policies(policies)
        if autostart:
            self._advance(None, first=True)

    def _set_policies(self, policies: Any) -> None:
        if isinstance(policies, str) or len(policies) != 2:
            raise ValueError("policies must be a pair of policy objects (or None for either)")
        for p in (0, 1):
            pol = policies[p]
            if pol is not None and not hasattr(pol, "choose"):
                raise ValueError("a policy needs a choose(view, decision) method")
            self.policies[p] = pol
            self.fast_pass[p] = getattr(pol, "wants_window", None) if pol is not None else None
            self.ability_filter[p] = getattr(pol, "ability_filter", None) if pol is not None else None
            self.declare_hook[p] = getattr(pol, "declare", None) if pol is not None else None

    def view(self, p: int) -> "PlayerView":
        """What player p may know of this game (a read-only view; PlayerView)."""
        v = self._views[p]
        if v is None:
            v = PlayerView(self, p)
            self._views[p] = v
        return v

    @property
    def struggle_counts(self) -> list[list[dict[str, int]]]:
        """§6.2 counters per player and struggle type (0 combat, 1 guile, 2 sorcery, 3 faith) for the struggles
        that player initiated: initiated, won (as the attacker), unopposed (S.10), defended (the defending
        player declared at least one defender, S.6); and won_defending: struggles of that type the player won as
        the defender."""
        sc = self._sc
        return [[{k: sc[(p * 4 + t) * 5 + n] for n, k in enumerate(STRUGGLE_COUNTERS)} for t in range(4)]
                for p in (0, 1)]

    def play(self, stop: Any = None) -> None:
        """Play the game with the policies given to the constructor (play_game's loop): to its end, or until
        `stop(game, decision)` says True at a decision, which then waits in `pending`."""
        pols = self.policies
        if pols[0] is None or (pols[1] is None and not self.goldfish):
            raise ValueError("play() needs a policy for each player")
        v0, v1 = self.view(0), self.view(1)
        c0 = pols[0].choose
        c1 = pols[1].choose if pols[1] is not None else c0
        gen = self._gen
        hist = self.history
        try:
            dec: Decision = next(gen) if self.pending is None else self.pending
            self.pending = None
            while True:
                if stop is not None and stop(self, dec):
                    self.pending = dec
                    return
                self._pcache = {}   # the state cannot change while a policy chooses: Power may be memoised
                a = c0(v0, dec) if dec.player == 0 else c1(v1, dec)
                self._pcache = None
                hist.append(a)
                dec = gen.send(a)
        except StopIteration:
            self.pending = None

    # ------------------------------------------------------------------ public API (OpenSpiel shape)
    def _advance(self, action, first=False):
        try:
            self.pending = next(self._gen) if first else self._gen.send(action)
        except StopIteration:
            self.pending = None

    def current_player(self) -> int:
        """The player who must decide now (-1 when the game is over)."""
        return self.pending.player if self.pending is not None else -1

    def legal_actions(self) -> list:
        """The options of the pending decision (empty when the game is over)."""
        return list(self.pending.options) if self.pending is not None else []

    def apply_action(self, action) -> None:
        """Resolve the pending decision with `action` and run the rules up to the next decision."""
        if self.pending is None:
            raise IllegalAction("the game is over")
        if isinstance(action, str):
            from .actions import apply_text   # the action texts of CONTRACTS §6
            apply_text(self, action)
            return
        if isinstance(action, list):
            action = tuple(action)
        if self.pending.kind == "boundary":
            if action != CONTINUE:
                raise IllegalAction(f"{action!r}: the game is paused at a {self.pending.info[0]} boundary; "
                                    "continue with ('continue',)")
            self._advance(action)   # a pause, not a choice: not recorded
            return
        if action not in self.pending.options:
            raise IllegalAction(f"{action!r} is not a legal {self.pending.kind} action for player "
                                f"{self.pending.player}")
        self.history.append(action)
        self._advance(action)

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        """[1, -1] when player 0 won, [-1, 1] when player 1 won, [0, 0] otherwise."""
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def clone(self, log: bool | None = None, policies: Any = None) -> "Game":
        """An independent copy of this game: replays the same seed and every recorded choice (no deepcopy, no
        shared state). The copy has the `policies` given here (default none: each of its decisions waits in
        `pending`)."""
        g = self._replayed(self.history, self.card_map, self.logs is not None if log is None else log)
        if policies is not None:
            g._set_policies(policies)
        return g

    def _replayed(self, history: list, cards: list[int] | None, log: bool) -> "Game":
        """A new game on the same decks and seed that makes the choices of `history` (IllegalAction when one no
        longer applies)."""
        if self.origin is not None:   # a game loaded from a position starts from it again
            g: Game = self.origin(cards, log)
            g.observer = self.observer
        else:
            g = Game(self.decks[0], self.decks[1], seed=self.seed, first_player=self.first_arg,
                     max_rounds=self.max_rounds, log=log, autostart=False, observer=self.observer, cards=cards)
        g._replay = history
        g._rpos = 0
        n = len(history)
        gen = g._gen
        try:
            dec: Decision = next(gen)
            while g._rpos < n:
                a = history[g._rpos]
                if type(a) is not tuple or a not in dec.options:
                    raise IllegalAction(f"replay: {a!r} is not an option of {dec!r}")
                g._rpos += 1
                g.history.append(a)
                dec = gen.send(a)
            g.pending = dec
        except StopIteration:
            g.pending = None
        g._replay = None
        return g

    def _replayed_entry(self, kind: int, p: int) -> Any:
        """While replaying: the recorded answer of one of play_game's shortcuts at this point, if it was asked
        here (kind 0: wants_window -> bool; 1: empty filtered options -> True; 2: a declaration -> list), else
        None."""
        rep = self._replay
        if rep is None or self._rpos >= len(rep):
            return None
        e = rep[self._rpos]
        if kind == 0:
            if type(e) is not int or e >= 4 or e >> 1 != p:
                return None
            out: Any = bool(e & 1)
        elif kind == 1:
            if type(e) is not int or e != 4 + p:
                return None
            out = True
        else:
            if type(e) is not list or not e or e[0] != p:
                return None
            out = e[1:]
        self._rpos += 1
        self.history.append(e)
        return out

    def influence(self, p: int) -> int:
        """§1.1: Influence a player controls: counters on the faction card plus counters on its field cards."""
        total = self.infl[p]
        cnt = self.cnt
        for i in self.field[p]:
            if cnt[i]:
                total += cnt[i]
        return total

    def state_text(self) -> str:
        """One canonical line per player (like a FEN): round, phase, Influence, pool, zones by card code."""
        def names(ids):
            return ",".join(self.cdef[i].code + ("*" if self.exh[i] else "") + ("!" * self.emb[i]) for i in ids)
        phase = PHASES[self.phase] if 0 <= self.phase < 7 else "setup"
        lines = [f"r{self.round_no} {phase} first={self.first} authority={self.authority}"]
        for p in (0, 1):
            q = self.cdef[self.quest[p]].code if self.quest[p] >= 0 else "-"
            lines.append(f"p{p} inf={self.influence(p)} pool={self.pool[p]} quest={q} deck={len(self.deck[p])} "
                         f"hand=[{names(self.hand[p])}] field=[{names(self.field[p])}] "
                         f"secret={len(self.secret[p])} discard={len(self.discard[p])} dead={len(self.dead[p])}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ small helpers
    def _log(self, msg: str) -> None:
        self.logs.append(f"R{self.round_no} {msg}")

    def name(self, iid: int) -> str:
        return self.cdef[iid].name

    def _zone_list(self, p: int, z: int) -> list[int]:
        return (self.deck, self.hand, self.field, self.discard, self.dead, self.secret, self.qdeck,
                self.qused, self.out)[z][p]

    def _hook(self, iid: int, z: int, delta: int, p: int) -> None:
        """Keep `live` and `n_act` in step when a listening card enters or leaves the field / a hand."""
        d = self.cdef[iid]
        live = self.live
        ev = self.live_ev
        if z == HAND:
            e = d.hand_event
            if e:
                live[e] = live.get(e, 0) + delta
                b = e.partition(":")[2] or e
                ev[b] = ev.get(b, 0) + delta
            if d.hand_action:
                self.n_act[p] += delta
        else:
            for e in d.field_events:
                live[e] = live.get(e, 0) + delta
                b = e.partition(":")[2] or e
                ev[b] = ev.get(b, 0) + delta
            if d.actions and not d.is_deed:
                self.n_act[p] += delta

    def _move(self, iid: int, z: int, p: int | None = None, top: bool = True) -> None:
        """Take a card out of its zone and put it into zone z of player p (default: its owner)."""
        oz = self.zone[iid]
        hooks = self.cdef[iid].hooks
        if hooks and (oz == FIELD or oz == HAND):
            self._hook(iid, oz, -1, self.ctrl[iid] if oz == FIELD else self.owner[iid])
        if oz <= OUT:
            lst = self._zone_list(self.ctrl[iid] if oz == FIELD else self.owner[iid], oz)
            lst.remove(iid)
        elif oz == LIMBO:
            self.limbo.remove(iid)
        elif oz == ASIDE:
            self.aside[self.owner[iid]].remove(iid)
        elif oz == DUP:
            for k, v in self.dups.items():
                if iid in v:
                    v.remove(iid)
                    break
        if p is None:
            p = self.owner[iid]
        if z <= OUT:
            if z == DECK and not top:
                self.deck[p].insert(0, iid)
            else:
                self._zone_list(p, z).append(iid)
        elif z == LIMBO:
            self.limbo.append(iid)
        elif z == ASIDE:
            self.aside[p].append(iid)
        self.zone[iid] = z
        if PUBLIC_ZONE[z]:
            self.seen[iid] = 1
        if z == FIELD:
            self.ctrl[iid] = p
            if self.has_replace:
                self._seq += 1
                self.entry_seq[iid] = self._seq
        else:
            self.ctrl[iid] = self.owner[iid]
        if (oz == FIELD or z == FIELD) and self.cdef[iid].statics:
            self._statics_cache = None   # only a card with static abilities changes the set of statics
        if hooks and (z == FIELD or z == HAND):
            self._hook(iid, z, 1, p)

    def off_faction(self, p: int, d: CardDef) -> bool:
        """§9.3: a card whose faction is neither neutral nor its player's faction card's."""
        deck = self.decks[p]
        return d.faction != "neutral" and deck is not None and d.faction != deck.faction_slug

    def loyalty_surcharge(self, p: int, d: CardDef) -> int:
        """§9.3: an off-faction card's Loyalty (off_faction inlined: this is read for every card in hand)."""
        lo = d.loyalty
        if not lo:
            return 0
        f = d.faction
        if f == "neutral":
            return 0
        dk = self.decks[p]
        return lo if dk is not None and f != dk.faction_slug else 0

    # ------------------------------------------------------------------ static abilities (§8.1) and modifiers
    def _statics(self) -> list:
        """(source, controller, ability) for every static ability now active; cached until the field changes,
        and split by the reading that needs it (Power, keywords, rules, costs, player modifiers)."""
        cache = self._statics_cache
        if cache is not None:
            return cache
        out: list[StaticEntry] = []
        st_power: list[StaticEntry] = []
        st_grant: list[StaticEntry] = []
        st_rule: list[StaticEntry] = []
        st_cost: list[StaticEntry] = []
        st_player: list[StaticEntry] = []
        if self.has_abilities:
            cdef, emb = self.cdef, self.emb
            for p in (0, 1):
                for i in (self.faction_iid[p], self.destiny_iid[p], self.quest[p], *self.field[p]):
                    if i >= 0:
                        sts = cdef[i].statics
                        if sts and not emb[i]:
                            for a in sts:
                                x: StaticEntry = (i, p, a)
                                out.append(x)
                                m = a.modify
                                if "power" in m:
                                    st_power.append(x)
                                if a.grant_bits:
                                    st_grant.append(x)
                                if a.rule:
                                    st_rule.append(x)
                                if "cost" in m:
                                    st_cost.append(x)
                                if len(m) > ("power" in m) + ("cost" in m) + ("type" in m):
                                    st_player.append(x)
        if st_power != self._st_power:
            self._pw_cands = {}   # the candidates depend only on the Power statics (and printed cards)
        self._st_power, self._st_grant, self._st_rule = st_power, st_grant, st_rule
        mask = 0
        for _s, _c, a in st_grant:
            for b, _param in a.grant_bits:
                mask |= b
        self._st_grant_mask = mask   # every keyword some static ability in force grants (§9)
        self._st_cost, self._st_player = st_cost, st_player
        by_rule: dict[str, list[StaticEntry]] = {}
        for x in st_rule:
            for r in x[2].rule:
                by_rule.setdefault(r, []).append(x)
        self._st_rule_by = by_rule
        self._statics_cache = out
        return out

    def _power_candidates(self, iid: int) -> list[PowerCand]:
        """The Power statics that could ever apply to this card, judged on what cannot change while the set of
        statics stays the same (its printed type, attributes, name, faction, icons; which card is the source).
        Each is a flat tuple (source, controller, kind 0 self / 1 host / 2 selector, zone, "you" True / "opponent"
        False / "any" None, the selector's remaining checks, condition, Power amount) so `power` reads no
        attributes."""
        d = self.cdef[iid]
        out: list[PowerCand] = []
        for src, c, ab in self._st_power:
            aff = ab.affects
            amt = ab.modify["power"]
            if aff is None or aff == "self":
                if src == iid:
                    out.append((src, c, 0, 0, None, (), ab.condition, amt))
            elif aff == "host":
                if self.host.get(src) == iid:   # only on its own host (the cache is cleared when a host is set)
                    out.append((src, c, 1, 0, None, (), ab.condition, amt))
            elif isinstance(aff, dict):
                cache = ab.smatch
                if cache is None or len(cache) > 512:
                    cache = ab.smatch = {}
                ok = cache.get(d)
                if ok is None:
                    ok = cache[d] = _static_part_matches(aff, d, -1, -2)   # not_self aside: it is per copy
                if ok and not (iid == src and aff.get("not_self")):
                    dyn = ab.dyn_affects
                    if dyn is None:
                        dyn = _dynamic_part(ab)
                    z, who, checks = dyn
                    out.append((src, c, 2, z, None if who == "any" else who == "you", checks, ab.condition, amt))
        self._pw_cands[iid] = out
        return out

    def _static_applies(self, src: int, p: int, ab, iid: int) -> bool:
        aff = ab.affects
        if aff is None or aff == "self":
            if iid != src:
                return False
            ok = True
        elif aff == "host":
            if self.host.get(src) != iid:
                return False
            ok = True
        elif isinstance(aff, dict):
            ok = self._match(aff, iid, p, src)
        else:
            ok = False
        return ok and (ab.condition is None or self._cond(ab.condition, p, src))

    def _player_static(self, p: int, key: str, stype: int | None = None) -> int:
        """Sum of a player-level static modifier (authority, levy, wealth, spoils, momentum, setup_budget...)."""
        total = 0
        if self._statics_cache is None:
            self._statics()
        for src, c, ab in self._st_player:
            v = ab.modify.get(key)
            if not v:
                continue
            if key == "struggle_total" and "type" in ab.modify and stype is not None \
                    and ab.modify["type"] != STRUGGLE_TYPES[stype]:
                continue
            aff = ab.affects
            who = 1 - c if aff == "opponent" else c
            if who != p:
                continue
            if ab.condition is not None and not self._cond(ab.condition, c, src):
                continue
            total += v
        return total

    def power(self, iid: int) -> int:
        """Effective Power (may be negative; totals floor each unit at 0, §6.6)."""
        pc = self._pcache
        if pc is not None:
            v = pc.get(iid)
            if v is not None:
                return v
        pw = self.cdef[iid].power
        pm = self.pmod
        if pm:
            pw += pm.get(iid, 0)
        if self.has_abilities:
            if self._statics_cache is None:
                self._statics()
            cands = self._pw_cands.get(iid)
            if cands is None:
                cands = self._power_candidates(iid)
            for src, c, kind, z, you, checks, cond, amt in cands:
                if kind == 2:
                    if self.zone[iid] != z:
                        continue
                    if you is not None:
                        holder = self.ctrl[iid] if z == FIELD else self.owner[iid]
                        if (holder == c) != you:
                            continue
                    ok = True
                    for check in checks:
                        if not check(self, iid, src):
                            ok = False
                            break
                    if not ok:
                        continue
                elif kind == 1 and self.host.get(src) != iid:
                    continue
                if cond is None or self._cond(cond, c, src):
                    pw += amt
        if pc is not None:
            pc[iid] = pw
        return pw

    def kw(self, iid: int) -> int:
        """Keyword bitmask: printed (unless blanked, §3.6) plus granted ones."""
        k = 0 if self.emb[iid] else self.cdef[iid].kw
        g = self.kgrant.get(iid)
        if g:
            for bit, _param, _until in g:
                k |= bit
        if self.has_abilities:
            if self._statics_cache is None:
                self._statics()
            for src, c, ab in self._st_grant:
                if self._static_applies(src, c, ab, iid):
                    for bit, _param in ab.grant_bits:
                        k |= bit
        return k

    def kw_params(self, iid: int, bit: int) -> list[int]:
        """§9: the X of each instance of a parameterised keyword the card has — printed (unless blanked), granted
        by an effect, granted by a static ability — once per distinct X: Ravage (1) and Ravage (2) are two
        keywords, two Ravage (2) are one (§9 "a card cannot have the same keyword twice")."""
        d = self.cdef[iid]
        out: list[int] = []
        if not self.emb[iid] and d.kw & bit:
            v = {KW_HASTE: d.haste, KW_SECRET: d.secret, KW_SCOUT: d.scout, KW_RAVAGE: d.ravage}.get(bit)
            out.append(v or 0)
        for b, param, _u in self.kgrant.get(iid, ()):
            if b == bit and (param or 0) not in out:
                out.append(param or 0)
        if self.has_abilities:
            if self._statics_cache is None:
                self._statics()
            for src, c, ab in self._st_grant:
                for b, param in ab.grant_bits:
                    if b == bit and (param or 0) not in out and self._static_applies(src, c, ab, iid):
                        out.append(param or 0)
        return out

    def _granted_anywhere(self, bit: int) -> bool:
        """Whether any static ability in force or lasting effect grants this keyword to some card (§9)."""
        if self.has_abilities and self._statics_cache is None:
            self._statics()
        if self._st_grant_mask & bit:
            return True
        if self.kgrant:
            for lst in self.kgrant.values():
                for b, _param, _u in lst:
                    if b == bit:
                        return True
        return False

    def _kw_x(self, iid: int, bit: int, granted: bool) -> int:
        """The X of Haste (X) / Secret (X) on a card out of play (§9.3, §10.9), printed or granted: -1 without it.
        `granted`: _granted_anywhere(bit); without a grant in force only the printed keyword is read."""
        d = self.cdef[iid]
        if not granted:
            if not d.kw & bit:
                return -1
            return (d.haste if bit == KW_HASTE else d.secret) or 0
        return self.kw_param(iid, bit) if self.kw(iid) & bit else -1

    def kw_param(self, iid: int, bit: int) -> int:
        """The X of a parameterised keyword: for a cost (Haste, Secret) the lowest of its instances (§9)."""
        xs = self.kw_params(iid, bit)
        return min(xs) if xs else 0

    def has_rule(self, iid: int, rule: str) -> bool:
        if not self.has_abilities:
            return False
        if self._statics_cache is None:
            self._statics()
        for src, c, ab in self._st_rule_by.get(rule, ()):
            if self._static_applies(src, c, ab, iid):
                return True
        return False

    def blanked(self, iid: int) -> bool:
        return self.emb[iid] > 0

    def play_cost(self, p: int, iid: int) -> int:
        """§5.3/§9.3: printed cost + off-faction Loyalty + static cost modifiers (floor 0)."""
        d = self.cdef[iid]
        c = max(d.cost, 0) + self.loyalty_surcharge(p, d)
        if self.has_abilities:
            if self._statics_cache is None:
                self._statics()
            for src, cp, ab in self._st_cost:
                v = ab.modify.get("cost")
                if v and cp == p and (ab.affects is None or self._match_props(ab.affects, iid, cp, src)) \
                        and (ab.condition is None or self._cond(ab.condition, cp, src)):
                    c += v
        return max(c, 0)

    def quest_stat(self, p: int, stat: str) -> int:
        q = self.quest[p]
        base = getattr(self.cdef[q], stat) if q >= 0 else 0
        if self.has_abilities:
            base += self._player_static(p, stat)
        return max(base, 0)

    def is_duplicate_entry(self, p: int, iid: int) -> int:
        """§3.7: the copy in play this card would go under as a duplicate (-1 if none)."""
        d = self.cdef[iid]
        if not d.unique or self.owner[iid] != p:
            return -1
        for j in self.field[p]:
            if self.cdef[j].name == d.name and self.owner[j] == p and not self.cdef[j].is_token:
                return j
        return -1

    def controls_unique_name(self, p: int, name: str) -> bool:
        return any(self.cdef[j].name == name and self.cdef[j].unique for j in self.field[p])

    def legal_hosts(self, p: int, iid: int, src_ab=None, first: bool = False) -> list[int]:
        """§10.3: cards an attachment may go on — by default any unit in the field (either side); its `attach`
        selector narrows that; No Attachments rejects. `first`: stop at the first legal host."""
        ab = src_ab or self.cdef[iid].attach_ability
        sel = ab.target if ab is not None and ab.target else None
        out = []
        cdef = self.cdef
        if sel is not None:
            who = sel.get("controller", "you")
            sides = (p,) if who == "you" else (1 - p,) if who == "opponent" else (0, 1)
        else:
            sides = (0, 1)
        for q in sides:
            for j in self.field[q]:
                if sel is None:
                    if not cdef[j].is_unit:
                        continue
                elif not self._match(sel, j, p, iid):
                    continue
                if self.kw(j) & KW_NO_ATTACH:
                    continue
                out.append(j)
                if first:
                    return out
        return out

    def can_enter(self, p: int, iid: int) -> bool:
        """Whether a card may enter p's field now: Restricted allowance (§9.3), attachment host (§10.3)."""
        d = self.cdef[iid]
        if d.is_deed or d.type not in ("unit", "location", "attachment"):
            return False
        if not d.unique and not d.is_attachment and not (d.kw & KW_RESTRICTED):
            return True
        if self.is_duplicate_entry(p, iid) >= 0:
            return True
        if d.unique and self.controls_unique_name(p, d.name):
            # §3.7: p controls a copy it cannot put this one under (the opponent's, by a change of control):
            # the play is prevented, not paid for and discarded
            return False
        if d.kw & KW_RESTRICTED and self.restricted_used[p] >= 1:
            return False
        if d.is_attachment and not self.legal_hosts(p, iid, first=True):
            return False
        return True

    # ------------------------------------------------------------------ influence and the end of the game
    def _gain_influence(self, p: int, n: int, why: str):
        """A *gain* of Influence (§1.1); fires influence_gained; the 15-check is immediate (§12)."""
        if n <= 0 or (self.goldfish and p == 1):
            return
        self.infl[p] += n
        if self.logs is not None:
            self._log(f"{why}: player {p} gains {n} Influence ({self.influence(p)})")
        self._check_win()
        if self.live_ev.get("influence_gained"):
            yield from self._event("influence_gained", {"player": p, "amount": n})

    def _check_win(self) -> None:
        """§12: 15 or more Influence wins at once; both at once -> the first player decides (takes the win)."""
        a = self.influence(0) >= WIN_INFLUENCE
        b = self.influence(1) >= WIN_INFLUENCE
        if a or b:
            winner = self.first if (a and b) else (0 if a else 1)
            if self.logs is not None:
                self._log(f"§12 player {winner} controls {self.influence(winner)} Influence and wins")
            raise GameOver(winner, "influence")

    def _eliminate(self, players: list[int]):
        """§12 elimination; if every player is eliminated at once: highest Influence, then Authority, then the
        first player decides."""
        if len(players) == 1:
            winner = 1 - players[0]
        else:
            i0, i1 = self.influence(0), self.influence(1)
            if i0 != i1:
                winner = 0 if i0 > i1 else 1
            elif self.authority in (0, 1):
                winner = self.authority
            else:
                winner = self.first
        if self.logs is not None:
            self._log(f"§12 player(s) {players} must draw from an empty deck: eliminated; player {winner} wins")
        raise GameOver(winner, "elimination")

    def _draw(self, p: int, n: int) -> int:
        """Draw n cards; drawing from an empty deck eliminates (§5.2, §12). Returns cards drawn."""
        if self.goldfish and p == 1:
            return 0
        deck = self.deck[p]
        hand = self.hand[p]
        zone = self.zone
        for k in range(n):
            if not deck:
                self._eliminate([p])
            i = deck.pop()
            hand.append(i)
            zone[i] = HAND
            if self.cdef[i].hooks:
                self._hook(i, HAND, 1, p)
        return n

    # ------------------------------------------------------------------ the game procedure
    def _run(self):
        """§4 setup, then rounds of the seven phases (§5) until the game ends (§12) or the round limit. A game
        loaded from a position (positions.py) starts inside its round instead: at the start of phase
        `start_phase`, for Kingdom and Confrontation at the start of `start_active`'s turn."""
        try:
            ph0 = self.start_phase
            if ph0 < 0:
                yield from self._setup()
            while True:
                if ph0 < 0:
                    if self.round_no >= self.max_rounds:
                        self.winner = None
                        self.reason = "round_limit"
                        if self.logs is not None:
                            self._log(f"round limit {self.max_rounds} reached: no winner")
                        break
                    self.round_no += 1
                    ph0 = QUEST_P
                self._round_open = True
                if ph0 <= QUEST_P:
                    yield from self._quest_phase()
                if ph0 <= DRAW_P:
                    yield from self._draw_phase()
                if ph0 <= KINGDOM_P:
                    yield from self._kingdom_phase(self.start_active if ph0 == KINGDOM_P else -1)
                if ph0 <= CONFRONT_P:
                    yield from self._confrontation_phase(self.start_active if ph0 == CONFRONT_P else -1)
                if ph0 <= AUTHORITY_P:
                    yield from self._authority_phase()
                if ph0 <= REFRESH_P:
                    yield from self._refresh_phase()
                yield from self._toll_phase()
                self._record_round()
                ph0 = -1
        except GameOver as end:
            self.winner = end.winner
            self.reason = end.reason
            if getattr(self, "_round_open", False):
                self._record_round()
        self.over = True
        self.pending = None

    def _record_round(self) -> None:
        br = self.by_round
        br["influence"].append([self.influence(0), self.influence(1)])
        br["spent"].append(self.stat_spent[:])
        br["played"].append(self.stat_played[:])
        br["won"].append(self.stat_won[:])
        self.stat_spent = [0, 0]
        self.stat_played = [0, 0]
        self.stat_won = [0, 0]
        self._round_open = False

    def players(self):
        """Players in first-player order, without the goldfish (which never acts)."""
        f = self.first
        if self.goldfish:
            return (0,)
        return (f, 1 - f)

    # §4 Setup ---------------------------------------------------------
    def _setup(self):
        rng = self.rng
        first = self.first_arg if self.first_arg is not None else (0 if rng.random() < 0.5 else 1)
        self.first = first
        self.round1_first = first
        if self.logs is not None:
            self.round_no = 0
            self._log(f"§4 setup: player {first} is the first player")
        for p in (0, 1):
            fisher_yates(rng, self.deck[p])
        for p in self.players():
            self._draw(p, HAND_SIZE)
        # §4 mulligan: once, all or nothing, first player first.
        for p in self.players():
            a = yield Decision("mulligan", p, [YES, NO])
            if a == YES:
                old = list(self.hand[p])
                for i in old:
                    self._move(i, ASIDE)
                self._draw(p, HAND_SIZE)
                for i in old:
                    self._move(i, DECK)
                fisher_yates(rng, self.deck[p])
                if self.logs is not None:
                    self._log(f"§4 player {p} mulligans")
        # §4 opening board: placed facedown within the 8-wealth budget, first player first.
        placed: list[list[tuple]] = [[], []]
        for p in self.players():
            budget = SETUP_BUDGET + self._player_static(p, "setup_budget") if self.has_abilities else SETUP_BUDGET
            used = 0
            restricted = 0
            chosen: list[tuple] = []   # (iid, how, host)
            while True:
                opts = self._setup_options(p, budget - used, restricted, chosen)
                if len(opts) == 1:
                    break
                a = yield Decision("setup", p, opts, {"budget": budget, "used": used})
                if a == DONE:
                    break
                kind, iid = a
                cost = self._setup_cost(p, iid, kind, chosen)
                host = -1
                if kind == "place" and self.cdef[iid].is_attachment:
                    hosts = self._setup_hosts(p, iid, chosen)
                    host = hosts[0] if len(hosts) == 1 else (yield Decision("setup_host", p,
                                                                            [("host", h) for h in hosts], iid))[1]
                used += cost
                if self.cdef[iid].kw & KW_RESTRICTED and kind == "place" \
                        and self._setup_dup_target(p, iid, chosen) < 0:
                    restricted += 1   # §4: one Restricted card at setup; a duplicate does not use it (§3.7)
                self._move(iid, ASIDE)
                chosen.append((iid, kind, host))
            placed[p] = chosen
            if self.logs is not None:
                self._log(f"§4 player {p} places {len(chosen)} card(s) facedown, budget {used}/{budget}")
        # §4 reveal simultaneously: no "enters play" triggers; attachments and duplicates resolve.
        for p in self.players():
            for iid, kind, host in placed[p]:
                self.aside[p].remove(iid)
                if kind == "hide":
                    self.secret[p].append(iid)
                    self.zone[iid] = SECRET
                    continue
                under = self.is_duplicate_entry(p, iid)
                if under >= 0:
                    self.dups.setdefault(under, []).append(iid)
                    self.zone[iid] = DUP
                    self.seen[iid] = 1
                    continue
                self.field[p].append(iid)
                self.zone[iid] = FIELD
                self.seen[iid] = 1
                self.ctrl[iid] = p
                if self.cdef[iid].hooks:
                    self._hook(iid, FIELD, 1, p)
                if host >= 0:
                    self.host[iid] = host
                    self._pw_cands = {}   # Power statics of attachments apply to their host only
            self._statics_cache = None
            if self.logs is not None and placed[p]:
                self._log("§4 reveal: player %d fields %s" % (
                    p, ", ".join(self.name(i) for i, k, _ in placed[p] if k == "place") or "nothing"))
        for p in self.players():
            need = HAND_SIZE - len(self.hand[p])
            if need > 0:
                self._draw(p, need)

    def _setup_dup_of(self, iid: int, chosen: list) -> bool:
        d = self.cdef[iid]
        if not d.unique:
            return False
        for j, k, _h in chosen:
            if j == iid:
                return False
            if k == "place" and self.cdef[j].name == d.name:
                return True
        return False

    def _setup_dup_target(self, p: int, iid: int, chosen: list) -> int:
        d = self.cdef[iid]
        if not d.unique:
            return -1
        for j, k, _h in chosen:
            if k == "place" and self.cdef[j].name == d.name:
                return j
        return -1

    def _setup_cost(self, p: int, iid: int, kind: str, chosen: list) -> int:
        d = self.cdef[iid]
        if kind == "place" and self._setup_dup_target(p, iid, chosen) >= 0:
            return 0  # §4: duplicates of your uniques are free
        c = d.cost + self.loyalty_surcharge(p, d)
        return c + SECRET_PLACE_COST if kind == "hide" else c

    def _setup_hosts(self, p: int, iid: int, chosen: list) -> list[int]:
        """§4/§10.3: units placed in this setup that this attachment may legally go on (its `attach` selector,
        No Attachments, not a duplicate). Placed cards are the player's own, so "enemy unit" attachments have none."""
        ab = self.cdef[iid].attach_ability
        sel = ab.target if ab is not None and ab.target else None
        if sel is not None and sel.get("controller", "you") == "opponent":
            return []
        out = []
        for j, k, _h in chosen:
            dj = self.cdef[j]
            if k != "place" or not dj.is_unit or dj.kw & KW_NO_ATTACH or self._setup_dup_of(j, chosen):
                continue
            if sel is not None and not self._match_props(sel, j, p, iid):
                continue
            out.append(j)
        return out

    def _setup_options(self, p: int, left: int, restricted: int, chosen: list) -> list:
        opts: list[tuple] = []
        for iid in self.hand[p]:
            d = self.cdef[iid]
            if d.is_deed or d.cost < 0:   # §4: deeds and X/– costs cannot be placed
                continue
            dup = self._setup_dup_target(p, iid, chosen) >= 0
            if d.is_attachment and (dup or not self._setup_hosts(p, iid, chosen)):
                pass
            elif not (d.kw & KW_RESTRICTED and restricted >= 1 and not dup) \
                    and self._setup_cost(p, iid, "place", chosen) <= left:
                opts.append(("place", iid))
            # hiding a Secret card uses no Restricted allowance: it does not enter the field (§9.3, §10.9)
            if d.kw & KW_SECRET and self._setup_cost(p, iid, "hide", chosen) <= left:
                opts.append(("hide", iid))
        opts.append(DONE)
        return opts

    # Windows (§8.2–§8.5) ------------------------------------------------
    def _action_window(self, active: int = -1, kind: int = -1, memo: dict | None = None):
        """§8.2: priority from the first player, alternating; closes when both pass in a row. `memo`: effective
        Power already worked out for this state (by `_window_needed`)."""
        p = self.first
        passes = 0
        fast = self.fast_pass
        goldfish = self.goldfish
        if memo is None:
            memo = {}   # effective Power, valid until someone acts: passing changes nothing
        while passes < 2:
            if goldfish and p == 1:
                passes += 1    # CONTRACTS §3: the goldfish never acts (it has no options in any window)
                p = 0
                continue
            f = fast[p]
            self._pcache = memo
            r = self._replayed_entry(0, p) if self._replay is not None else None
            if r is not None or f is not None:
                if r is not None:
                    wants = bool(r)
                else:
                    v = self._views[p]
                    wants = bool(f(v if v is not None else self.view(p), p, kind if p == active else -1))
                    self.history.append(2 * p + (1 if wants else 0))
                if not wants:
                    self._pcache = None
                    passes += 1    # the policy said up front that it passes here: no options materialised
                    p = 1 - p
                    continue
            if self._replay is not None and self._replayed_entry(1, p) is not None:
                opts = []
            else:
                opts = self._window_options(p, kind if p == active else -1)
                if not opts and self.ability_filter[p] is not None:
                    self.history.append(4 + p)   # the filter may have emptied them: replays must pass here too
            self._pcache = None
            if not opts:
                passes += 1
                p = 1 - p
                continue
            a = yield Decision("window", p, opts, kind)
            if a == PASS:
                passes += 1
            else:
                passes = 0
                yield from self._window_action(p, a)
                memo = {}
            p = 1 - p

    def _window_options(self, p: int, kind: int) -> list:
        if self.goldfish and p == 1:
            return []
        if self._pcache is not None:
            return self._window_options_uncached(p, kind)
        self._pcache = {}
        try:
            return self._window_options_uncached(p, kind)
        finally:
            self._pcache = None

    def _window_options_uncached(self, p: int, kind: int) -> list:
        opts: list[tuple] = []
        pool = self.pool[p]
        cdef = self.cdef
        if kind == KINGDOM_P:
            if self._statics_cache is None:
                self._statics()
            cost_mods = self._st_cost
            for iid in self.hand[p]:
                d = cdef[iid]
                if d.is_deed:
                    # §10.9: a Secret deed is secret-placed like any Secret card (and played when revealed);
                    # deeds are played from hand in their own timing windows, not as a Kingdom play
                    if d.kw & KW_SECRET and pool >= SECRET_PLACE_COST:
                        opts.append(("secret", iid))
                    continue
                c = d.cost
                if c >= 0:
                    if cost_mods:
                        c = self.play_cost(p, iid)
                    elif d.loyalty:
                        c += self.loyalty_surcharge(p, d)
                    if (c <= pool or (d.unique and self.is_duplicate_entry(p, iid) >= 0)) \
                            and (d.enters_freely or self.can_enter(p, iid)) \
                            and (d.max_per_round is None or self._max_ok(p, d)):
                        opts.append(("play", iid))
                if d.kw & KW_SECRET and pool >= SECRET_PLACE_COST:
                    opts.append(("secret", iid))
        elif kind == CONFRONT_P:
            granted = self._granted_anywhere(KW_HASTE) if self.has_abilities else False
            for iid in self.hand[p]:
                d = cdef[iid]
                if not (d.kw & KW_HASTE or granted):
                    continue
                hx = self._kw_x(iid, KW_HASTE, granted)
                if hx >= 0 and not d.is_deed and self.can_enter(p, iid) and self._max_ok(p, d) \
                        and (hx + self.loyalty_surcharge(p, d) <= pool or self.is_duplicate_entry(p, iid) >= 0):
                    opts.append(("haste", iid))   # §3.7: a duplicate costs 0, whatever Haste (X) says
            done = self.struggles_done[p]
            icons = self.attack_icons(p)
            for t in range(4):
                if icons & (1 << t) and t not in done:
                    opts.append(("struggle", t))
        secret_granted = False
        if self.secret[p] and self.has_abilities:
            secret_granted = self._granted_anywhere(KW_SECRET)
        for iid in self.secret[p]:
            d = cdef[iid]
            sx = self._kw_x(iid, KW_SECRET, secret_granted)
            if sx >= 0 and sx + self.loyalty_surcharge(p, d) <= pool:
                if d.is_deed:
                    ab = d.play_ability
                    if ab is not None and ab.timing == "action" and self._usable(p, iid, ab, None, deed=True,
                                                                                 extra_cost=-1):
                        opts.append(("reveal", iid))
                elif self.can_enter(p, iid):
                    opts.append(("reveal", iid))
        if self.n_act[p]:
            # play_game: a policy may name up front the abilities it would ever use in this window, so the
            # others are never checked (it chooses among legal actions either way)
            flt = self.ability_filter[p]
            for iid in (self.faction_iid[p], self.destiny_iid[p], *self.field[p]):
                if iid < 0:
                    continue
                d = cdef[iid]
                if d.actions and not self.emb[iid]:
                    for ab in d.actions:
                        if (flt is None or flt(self.view(p), ab, kind)) and self._usable(p, iid, ab, None):
                            opts.append(("ability", iid, ab.index))
            for iid in self.hand[p]:
                d = cdef[iid]
                ab = d.play_ability
                if d.is_deed and ab is not None and ab.timing == "action" and d.cost <= pool \
                        and (flt is None or flt(self.view(p), ab, kind)) and self._usable(p, iid, ab, None, deed=True):
                    opts.append(("deed", iid))
        if opts:
            opts.append(PASS)
        return opts

    def _max_ok(self, p: int, d: CardDef) -> bool:
        return d.max_per_round is None or self.plays_by_name[p].get(d.name, 0) < d.max_per_round

    def _window_action(self, p: int, a: tuple):
        kind = a[0]
        if kind == "play":
            yield from self._play_from_hand(p, a[1], "play")
        elif kind == "haste":
            yield from self._play_from_hand(p, a[1], "haste")
        elif kind == "secret":
            iid = a[1]
            self._spend(p, SECRET_PLACE_COST)
            self._move(iid, SECRET, p)
            if self.logs is not None:
                self._log(f"§10.9 player {p} secret-places a card for 2")
        elif kind == "reveal":
            yield from self._reveal(p, a[1])
        elif kind == "struggle":
            yield from self._struggle(p, a[1])
        elif kind == "ability":
            iid, idx = a[1], a[2]
            ab = next(x for x in self.cdef[iid].abilities if x.index == idx)
            yield from self._use_ability(p, iid, ab, None)
        elif kind == "deed":
            yield from self._play_deed(p, a[1], None)

    def _spend(self, p: int, n: int) -> None:
        if n:
            self.pool[p] -= n
            self.stat_spent[p] += n

    def _note_played(self, p: int, iid: int) -> None:
        self.stat_played[p] += 1
        name = self.cdef[iid].name
        pb = self.plays_by_name[p]
        pb[name] = pb.get(name, 0) + 1
        if p == 0:
            self.cards_played[name] = self.cards_played.get(name, 0) + 1

    def _play_from_hand(self, p: int, iid: int, how: str):
        """§5.3 play (cost + Loyalty) or §9.3 Haste (X + Loyalty): pay, then the card enters the field."""
        d = self.cdef[iid]
        if self.is_duplicate_entry(p, iid) >= 0:
            cost = 0   # §3.7: a duplicate costs 0
        elif how == "haste":
            cost = max(self._kw_x(iid, KW_HASTE, self._granted_anywhere(KW_HASTE)), 0) + self.loyalty_surcharge(p, d)
        else:
            cost = self.play_cost(p, iid)
        self._spend(p, cost)
        self._move(iid, LIMBO)
        self._note_played(p, iid)
        if self.logs is not None:
            self._log(f"{'§9.3 Haste' if how == 'haste' else '§5.3 Kingdom'}: player {p} plays {d.name} for {cost}")
        cancelled: Any = False
        if self.live_ev.get("card_played") and not d.uncancelable:   # §8.11 "cannot be canceled"
            info = {"card": iid, "player": p, "cancelled": False}
            yield from self._event("card_played", info, halt_only=True)
            cancelled = info["cancelled"]
        if cancelled:
            self._move(iid, DISCARD)
            return
        yield from self._enter(p, iid, "played")
        if self.live_ev.get("card_played"):
            yield from self._event("card_played", {"card": iid, "player": p}, response_only=True)

    def _reveal(self, p: int, iid: int):
        """§10.9: pay Secret (X) (+ Loyalty); a permanent enters the field, a deed is played."""
        d = self.cdef[iid]
        cost = max(self._kw_x(iid, KW_SECRET, self._granted_anywhere(KW_SECRET)), 0) + self.loyalty_surcharge(p, d)
        if self.logs is not None:
            self._log(f"§10.9 player {p} reveals {d.name} from the secret area for {cost}")
        if d.is_deed:
            yield from self._play_deed(p, iid, None, cost_override=cost)
            return
        self._spend(p, cost)
        self._move(iid, LIMBO)
        self._note_played(p, iid)
        yield from self._enter(p, iid, "revealed")
        if self.live_ev.get("card_played"):
            yield from self._event("card_played", {"card": iid, "player": p}, response_only=True)

    def _enter(self, p: int, iid: int, how: str):
        """§8.6 a card enters p's field: duplicate (§3.7), Restricted count (§9.3), attachment host (§10.3),
        then "when this enters play" (forced) and enters_play responses; Scout (§9.3)."""
        d = self.cdef[iid]
        under = self.is_duplicate_entry(p, iid)
        if under >= 0:
            self._move(iid, DUP)
            self.dups.setdefault(under, []).append(iid)
            if self.logs is not None:
                self._log(f"§3.7 {d.name} goes under the copy in play as a duplicate")
            return
        if d.unique and self.controls_unique_name(p, d.name):
            self._move(iid, DISCARD)  # §3.7 clarified: the collision is prevented
            return
        if d.kw & KW_RESTRICTED:
            if self.restricted_used[p] >= 1:
                self._move(iid, DISCARD)
                return
            self.restricted_used[p] += 1
        host = -1
        if d.is_attachment:
            hosts = self.legal_hosts(p, iid)
            if not hosts:
                self._move(iid, DISCARD)  # §10.9: an attachment with no legal host is discarded
                return
            if len(hosts) == 1:
                host = hosts[0]
            else:
                a = yield Decision("host", p, [("host", h) for h in hosts], iid)
                host = a[1]
        self._move(iid, FIELD, p)
        self.exh[iid] = 0
        if host >= 0:
            self.host[iid] = host
            self._pw_cands = {}   # Power statics of attachments apply to their host only
        if (d.kw & KW_SCOUT and not self.emb[iid]) or (self.has_abilities and self._granted_anywhere(KW_SCOUT)
                                                      and self.kw(iid) & KW_SCOUT):
            for x in self.kw_params(iid, KW_SCOUT):   # §9.3, each distinct Scout (X)
                yield from self._scout(p, x)
        if d.enters and self.zone[iid] == FIELD:
            for ab in d.enters:
                if self._usable(p, iid, ab, None, forced=True):
                    yield from self._use_ability(p, iid, ab, None)
        if self.live_ev.get("enters_play"):
            yield from self._event("enters_play", {"card": iid, "player": p})

    def _scout(self, p: int, n: int):
        """§9.3 Scout (X): look at the top X, put each on top or bottom (in the order chosen)."""
        deck = self.deck[p]
        n = min(n, len(deck))
        if n <= 0:
            return
        looked = deck[-n:][::-1]   # top first; they stay in the deck while being looked at (§8.10)
        top: list[int] = []
        bottom: list[int] = []
        for iid in looked:
            a = yield Decision("scout", p, [("top", iid), ("bottom", iid)], iid)
            (top if a[0] == "top" else bottom).append(iid)
        del deck[-n:]
        for iid in reversed(top):
            deck.append(iid)
        for iid in bottom:
            deck.insert(0, iid)

    # §5 phases ------------------------------------------------------------
    def _boundary(self, what: str, ph: int, p: int = -1):
        """Where a position can be taken (with `stops` on): the start of a phase, of a Kingdom or Confrontation
        turn, the end of a struggle."""
        if self.stops:
            self.phase = ph
            yield Decision("boundary", -1, [CONTINUE], (what, ph, p))

    def _phase_start(self, ph: int):
        self.phase = ph
        if self.uses:
            self.uses = {k: v for k, v in self.uses.items() if k[2] != "phase"}
        if self.live_ev.get("phase_start"):
            yield from self._event("phase_start", {"phase": PHASES[ph]}, response_only=True)

    def _phase_end(self, ph: int):
        if self.observer is not None:
            self.observer(self, "phase_end", ph)
        if self.live_ev.get("phase_end"):
            yield from self._event("phase_end", {"phase": PHASES[ph]}, response_only=True)
        self._expire("phase")   # §8.8
        if self.delayed:
            yield from self._run_delayed("phase")

    def _quest_phase(self):
        """§5.1: choose quests secretly, reveal, momentum decides who chooses the first player, Embark."""
        if self.stops:
            yield from self._boundary("phase", QUEST_P)
        yield from self._phase_start(QUEST_P)
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        chosen = [-1, -1]
        for p in self.players():
            if not self.qdeck[p]:
                # only with fewer than 2 quests: the active quest is the only one left to choose again (§10.5)
                old = self.quest[p]
                if old >= 0:
                    if self.cdef[old].hooks:
                        self._hook(old, FIELD, -1, p)
                    self.quest[p] = -1
                    self.qdeck[p].append(old)
                    self.zone[old] = QDECK
                    self._statics_cache = None
            opts = [("quest", q) for q in self.qdeck[p]]
            a = opts[0] if len(opts) == 1 else (yield Decision("quest", p, opts))
            chosen[p] = a[1]
        quest_statics = False   # only a quest with static abilities changes the set of statics (§8.1)
        for p in self.players():
            old = self.quest[p]
            if old >= 0:
                self.zone[old] = QUSED
                self.qused[p].append(old)
                if self.cdef[old].hooks:
                    self._hook(old, FIELD, -1, p)
                if self.cdef[old].statics:
                    quest_statics = True
            q = chosen[p]
            if self.cdef[q].statics:
                quest_statics = True
            self.qdeck[p].remove(q)
            self.quest[p] = q
            self.zone[q] = QUEST
            if self.cdef[q].hooks:
                self._hook(q, FIELD, 1, p)
            if not self.qdeck[p]:   # §5.1/§10.5: the used-quest pile reshuffles into the quest deck
                self.qdeck[p] = self.qused[p]
                self.qused[p] = []
                for x in self.qdeck[p]:
                    self.zone[x] = QDECK
                fisher_yates(self.rng, self.qdeck[p])
        if quest_statics:
            self._statics_cache = None
        if self.logs is not None:
            self._log("§5.1 Quest: " + "; ".join(
                f"player {p} embarks on {self.name(self.quest[p])}" for p in self.players()))
        # First player: highest momentum chooses; tie: lowest Influence chooses; still tied: at random.
        if self.goldfish:
            chooser = 0
        else:
            m0, m1 = self.quest_stat(0, "momentum"), self.quest_stat(1, "momentum")
            if m0 != m1:
                chooser = 0 if m0 > m1 else 1
            else:
                i0, i1 = self.influence(0), self.influence(1)
                if i0 != i1:
                    chooser = 0 if i0 < i1 else 1
                else:
                    chooser = 0 if self.rng.random() < 0.5 else 1
        if self.goldfish:
            a = ("first", 0)
        else:
            a = yield Decision("first_player", chooser, [("first", chooser), ("first", 1 - chooser)])
        self.first = a[1]
        if self.round_no == 1:
            self.round1_first = self.first
        if self.logs is not None:
            self._log(f"§5.1 player {chooser} chooses player {self.first} as first player")
        if self.live_ev.get("quest_revealed"):
            for p in self.players():
                yield from self._event("quest_revealed", {"player": p, "card": self.quest[p]})
        for p in self.players():
            q = self.quest[p]
            for ab in self.cdef[q].embark:
                if self._usable(p, q, ab, None, forced=True):
                    yield from self._use_ability(p, q, ab, None)
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        yield from self._phase_end(QUEST_P)

    def _window_needed(self) -> dict | None:
        """Whether an ordinary action window (no active player) could see anyone act. Nobody can when no card
        offers an action and no secret card can be revealed; and under play_game, when each player's policy says
        up front (`wants_window`, which has no side effects) that it would pass — the window would close after
        two passes with nothing changed, so it is not opened at all. Returns None for "no window", else the Power
        memo to open it with."""
        n_act = self.n_act
        if not n_act[0] and not n_act[1] and not (self.secret[0] and self.pool[0]) \
                and not (self.secret[1] and self.pool[1]):
            return None
        fast = self.fast_pass
        memo: dict = {}
        for p in (0, 1):
            if p == 1 and self.goldfish:
                continue
            f = fast[p]
            r = self._replayed_entry(0, p) if self._replay is not None else None
            if r is not None:
                if r:
                    return memo
                continue
            if f is None:
                return memo
            self._pcache = memo
            try:
                v = self._views[p]
                wants = bool(f(v if v is not None else self.view(p), p, -1))
            finally:
                self._pcache = None
            self.history.append(2 * p + (1 if wants else 0))
            if wants:
                return memo   # what was worked out stays valid for the window (nothing changed yet)
        return None

    def _draw_phase(self):
        """§5.2: both draw 2 simultaneously; an empty deck eliminates (simultaneity, §12)."""
        if self.stops:
            yield from self._boundary("phase", DRAW_P)
        yield from self._phase_start(DRAW_P)
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        short = [p for p in self.players() if len(self.deck[p]) < DRAW_PER_ROUND]
        if short:
            self._eliminate(sorted(short))
        for p in self.players():
            self._draw(p, DRAW_PER_ROUND)
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        yield from self._phase_end(DRAW_P)

    def _kingdom_phase(self, start: int = -1):
        """§5.3: each active player in turn collects wealth and may play cards; ordinary windows otherwise.
        `start`: a loaded position's active player, whose turn it is (wealth collected)."""
        order = self.players()
        if start < 0:
            yield from self._phase_start(KINGDOM_P)
            m = self._window_needed()
            if m is not None:
                yield from self._action_window(memo=m)
        else:
            self.phase = KINGDOM_P
            order = order[order.index(start):]
        for p in order:
            self.active = p
            if p != start:
                self.pool[p] += self.quest_stat(p, "wealth")
                if self.logs is not None:
                    self._log(f"§5.3 Kingdom: player {p} collects {self.quest_stat(p, 'wealth')} wealth")
                if self.stops:
                    yield from self._boundary("turn", KINGDOM_P, p)
            yield from self._action_window(p, KINGDOM_P)
        self.active = -1
        yield from self._phase_end(KINGDOM_P)

    def _confrontation_phase(self, start: int = -1):
        """§5.4: each active player in turn may initiate up to one struggle of each type. `start`: a loaded
        position's active player, whose turn it is (`struggles_done[start]` as the position says)."""
        order = self.players()
        if start < 0:
            yield from self._phase_start(CONFRONT_P)
            m = self._window_needed()
            if m is not None:
                yield from self._action_window(memo=m)
        else:
            self.phase = CONFRONT_P
            order = order[order.index(start):]
        for p in order:
            self.active = p
            if p != start:
                self.struggles_done[p] = set()
                if self.stops:
                    yield from self._boundary("turn", CONFRONT_P, p)
            yield from self._action_window(p, CONFRONT_P)
        self.active = -1
        yield from self._phase_end(CONFRONT_P)

    def authority_total(self, p: int) -> int:
        """§5.5: Power of ready units (each floored at 0) + 1 per wealth in pool + bonuses."""
        if self.goldfish and p == 1:
            return 0   # CONTRACTS §3: the goldfish's Authority total is 0
        total = self.pool[p]
        cdef, exh = self.cdef, self.exh
        for i in self.field[p]:
            if cdef[i].is_unit and not exh[i]:
                pw = self.power(i) if self.has_abilities or self.pmod else cdef[i].power
                if pw > 0:
                    total += pw
        if self.has_abilities:
            total += self._player_static(p, "authority")
        return total

    def _authority_phase(self):
        """§5.5: highest total gains 1 Influence and the emblem; a tie strips the emblem."""
        if self.stops:
            yield from self._boundary("phase", AUTHORITY_P)
        yield from self._phase_start(AUTHORITY_P)
        a0, a1 = self.authority_total(0), self.authority_total(1)
        if a0 == a1:
            self.authority = -1
            if self.logs is not None:
                self._log(f"§5.5 Authority: {a0} vs {a1}, tie: the emblem is unheld")
        else:
            w = 0 if a0 > a1 else 1
            self.authority = w
            if self.logs is not None:
                self._log(f"§5.5 Authority: {a0} vs {a1}, player {w} claims it")
            yield from self._gain_influence(w, 1, "§5.5 Authority")
            if self.live_ev.get("authority_claimed"):
                yield from self._event("authority_claimed", {"player": w})
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        yield from self._phase_end(AUTHORITY_P)

    def _refresh_phase(self):
        """§5.6: ready everything (unless "does not ready"); each player removes one sorcery emblem."""
        if self.stops:
            yield from self._boundary("phase", REFRESH_P)
        yield from self._phase_start(REFRESH_P)
        exh = self.exh
        for p in (0, 1):
            for i in self.field[p]:
                if exh[i] and not self.has_rule(i, "does_not_ready"):
                    exh[i] = 0
            if self.faction_iid[p] >= 0:
                exh[self.faction_iid[p]] = 0   # a faction card exhausted to pay a cost readies too
        for p in self.players():
            marked = [i for i in self.field[p] if self.emb[i]]
            if not marked:
                continue
            if len(marked) == 1:
                i = marked[0]
            else:
                i = (yield Decision("refresh_emblem", p, [("emblem", j) for j in marked]))[1]
            self.emb[i] -= 1
            self._statics_cache = None
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        yield from self._phase_end(REFRESH_P)

    def _toll_phase(self):
        """§5.7: wealth returns to the treasury; hands are reduced to Levy."""
        if self.stops:
            yield from self._boundary("phase", TOLL_P)
        yield from self._phase_start(TOLL_P)
        self.pool[0] = self.pool[1] = 0
        for p in self.players():
            levy = self.quest_stat(p, "levy")
            hand = self.hand[p]
            while len(hand) > levy:
                a = yield Decision("toll_discard", p, [("discard", i) for i in hand], levy)
                self._move(a[1], DISCARD)
            if self.logs is not None:
                self._log(f"§5.7 Toll: player {p} keeps {len(hand)} card(s) (levy {levy})")
        if self.observer is not None:
            self.observer(self, "toll_done", TOLL_P)
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        yield from self._phase_end(TOLL_P)
        self.pool[0] = self.pool[1] = 0   # §3.4: wealth gained in Toll's closing window never carries over
        # End of round (§5.7, §8.8): "until end of round" effects expire; per-round counters reset.
        self._expire("round")
        if self.delayed:
            yield from self._run_delayed("round")
        self.restricted_used = [0, 0]
        self.plays_by_name = [{}, {}]
        if self.uses:
            self.uses = {k: v for k, v in self.uses.items() if k[2] == "game"}

    # §6 struggles ---------------------------------------------------------
    def _can_declare(self, iid: int, t: int, attack: bool) -> bool:
        """§6.5: a declared unit must be ready and bear the icon (and no "cannot attack/defend" applies)."""
        d = self.cdef[iid]
        if not d.is_unit or self.exh[iid] or not (d.icons & (1 << t)):
            return False
        if self.has_abilities:
            if self._statics_cache is None:
                self._statics()
            if self._st_rule_by and self.has_rule(iid, "cannot_attack" if attack else "cannot_defend"):
                return False
        return True

    def attack_icons(self, p: int) -> int:
        """Bitmask of the struggle types p could declare attackers for now (one pass over the field)."""
        mask = 0
        cdef, exh = self.cdef, self.exh
        rules = False
        if self.has_abilities:
            if self._statics_cache is None:
                self._statics()
            rules = "cannot_attack" in self._st_rule_by
        for i in self.field[p]:
            d = cdef[i]
            if d.is_unit and d.icons and not exh[i] and (d.icons | mask) != mask:
                if rules and self.has_rule(i, "cannot_attack"):
                    continue
                mask |= d.icons
        return mask

    def _eligible_attackers(self, p: int, t: int, quick: bool = False):
        out = []
        for iid in self.field[p]:
            if self._can_declare(iid, t, True):
                if quick:
                    return True
                out.append(iid)
        return out if not quick else False

    def _struggle(self, p: int, t: int):
        """§6.2 S.1–S.14."""
        s = Struggle(t, p)
        self.struggle = s
        self.struggles_done[p].add(t)
        opp = s.defender
        ci = (p * 4 + t) * 5   # self._sc: initiated, won, unopposed, defended, won_defending
        sc = self._sc
        sc[ci] += 1
        exh = self.exh
        # S.1–S.3 declare at least one ready attacker bearing the icon; each exhausts; Subtle.
        elig = self._eligible_attackers(p, t)
        picks = self._declared("attackers", p, elig, t, True) if elig else None
        if picks is not None:
            s.attackers.extend(picks)
            elig = None
        while elig:
            opts: list[tuple] = [("attacker", i) for i in elig]
            if s.attackers:
                opts.append(DONE)
            a = yield Decision("attackers", p, opts, t)
            if a == DONE:
                break
            s.attackers.append(a[1])
            elig.remove(a[1])
        for i in s.attackers:
            exh[i] = 1
        s.declared_attackers = s.attackers[:]
        if self.logs is not None:
            self._log(f"§6.2 S.3 player {p} declares a {STRUGGLE_TYPES[t].title()} struggle with "
                      + ", ".join(self.name(i) for i in s.attackers))
        for i in s.attackers:
            if self.kw(i) & KW_SUBTLE:
                cands = [j for j in self.field[opp] if j not in s.barred and self._can_declare(j, t, False)
                         and not (self.kw(j) & KW_SUBTLE)]
                if cands:
                    a = yield Decision("subtle", p, [("bar", j) for j in cands] + [NO], i)
                    if a != NO:
                        s.barred.add(a[1])
                        if self.logs is not None:
                            self._log(f"§9.1 Subtle: {self.name(i)} bars {self.name(a[1])} from defending")
        if self.live_ev.get("struggle_declared"):
            yield from self._event("struggle_declared", {"type": t, "attacker": p})
        # S.4–S.5
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        # S.6 defenders: ready, bearing the icon, not barred by Subtle.
        if not (self.goldfish and opp == 1):
            elig = [j for j in self.field[opp] if j not in s.barred and self._can_declare(j, t, False)]
            picks = self._declared("defenders", opp, elig, t, False) if elig else None
            if picks is not None:
                s.defenders.extend(picks)
                elig = None
            while elig:
                a = yield Decision("defenders", opp, [("defender", j) for j in elig] + [DONE], t)
                if a == DONE:
                    break
                s.defenders.append(a[1])
                elig.remove(a[1])
            for j in s.defenders:
                exh[j] = 1
            s.declared_defenders = s.defenders[:]
            if s.defenders:
                sc[ci + 3] += 1   # S.6: the defending player declared at least one defender
            if self.logs is not None and s.defenders:
                self._log(f"§6.2 S.6 player {opp} defends with " + ", ".join(self.name(j) for j in s.defenders))
        if self.live_ev.get("defenders_declared"):
            yield from self._event("defenders_declared", {"type": t, "attacker": p})
        # S.7
        m = self._window_needed()
        if m is not None:
            yield from self._action_window(memo=m)
        # S.8 determine the winner
        if self.live_ev.get("struggle_resolving"):
            yield from self._event("struggle_resolving", {"type": t, "attacker": p})
        att, dfn = self.struggle_totals(s)
        s.att_total, s.def_total = att, dfn
        if att == 0 and dfn == 0:
            s.winner = None   # S.8: 0–0 has no winner (no spoils, no unopposed)
        elif att >= dfn:
            s.winner = p      # S.8: the attacker wins ties that are not 0–0
        else:
            s.winner = opp
        s.margin = abs(att - dfn)    # §6.4, fixed here
        s.unopposed = s.winner == p and dfn == 0
        if s.winner == p:
            sc[ci + 1] += 1
            if s.unopposed:
                sc[ci + 2] += 1
        elif s.winner == opp:
            sc[(opp * 4 + t) * 5 + 4] += 1
        if self.logs is not None:
            who = "no winner" if s.winner is None else ("attacker wins" if s.winner == p else "defender wins")
            self._log(f"Confrontation S.8 {STRUGGLE_TYPES[t].title()}: {att} vs {dfn}, {who}, margin {s.margin}")
        if s.winner is not None:
            self.stat_won[s.winner] += 1
            # S.9 responses
            if self.live_ev.get("struggle_won") or self.live_ev.get("struggle_lost"):
                info = {"type": t, "attacker": p, "winner": s.winner, "unopposed": s.unopposed}
                yield from self._event("struggle_won", info)
                yield from self._event("struggle_lost", info)
        if s.winner == p:
            # S.10 unopposed: the defending total is 0
            if s.unopposed:
                yield from self._gain_influence(p, 1, "§6.2 S.10 unopposed")
            # S.11 spoils
            yield from self._spoils(s)
        if s.winner is not None:
            yield from self._on_win_keywords(s)
        # S.13–S.14
        if self.observer is not None:
            self.observer(self, "struggle_end", s)
        self._expire("struggle")
        if self.delayed:
            yield from self._run_delayed("struggle")
        self.struggle = None
        if self.stops:
            yield from self._boundary("struggle", CONFRONT_P, p)

    def _declared(self, kind: str, p: int, elig: list, t: int, need_one: bool) -> list | None:
        """A policy's whole declaration (S.3 attackers / S.6 defenders) through its `declare` shortcut, or the
        one recorded in the history being replayed; None when neither (the declaration is then one decision per
        unit). Checked like the one-by-one decisions: distinct eligible cards, at least one attacker (S.1)."""
        picks: Any = self._replayed_entry(2, p) if self._replay is not None else None
        if picks is None:
            hook = self.declare_hook[p]
            if hook is None:
                return None
            self._pcache = {}
            try:
                picks = hook(self.view(p), kind, p, elig[:], t)
            finally:
                self._pcache = None
            self.history.append([p, *picks])
        ok = set(elig)
        if len(set(picks)) != len(picks) or any(i not in ok for i in picks) or (need_one and not picks):
            raise IllegalAction(f"{kind}: {picks!r} is not a legal declaration from {elig!r}")
        return list(picks)

    def struggle_totals(self, s: Struggle) -> tuple[int, int]:
        """§6.3: each side's effective Power (each unit floored at 0, §6.6); +1 for the Authority holder's
        attacks (§5.5); units no longer in the field count 0 (§6.5). Memoised with effective Power while nothing
        can change (`_pcache`, key -1)."""
        pc = self._pcache
        if pc is not None:
            got = pc.get(-1)
            if got is not None and got[0] is s:
                return got[1]
        totals = []
        for side, pl in ((s.attackers, s.attacker), (s.defenders, s.defender)):
            tot = 0
            for i in side:
                if self.zone[i] == FIELD:
                    pw = self.power(i)
                    if pw > 0:
                        tot += pw
            if self.has_abilities:
                tot += self._player_static(pl, "struggle_total", s.type)
            totals.append(max(tot, 0))
        if self.authority == s.attacker:
            totals[0] += 1
        out = (totals[0], totals[1])
        if pc is not None:
            pc[-1] = (s, out)
        return out

    def spoils_value(self, s: Struggle) -> int:
        return max(self.quest_stat(s.attacker, "spoils") + s.spoils_mod, 0)

    def _spoils(self, s: Struggle):
        """§6.1 spoils with N = the attacker's quest Spoils, done as far as possible."""
        n = self.spoils_value(s)
        if n <= 0:
            return
        p, opp, t = s.attacker, s.defender, s.type
        if self.goldfish and opp == 1:
            return  # the goldfish has nothing to lose
        if t == COMBAT:
            units = [i for i in self.field[opp] if self.cdef[i].is_unit]
            chosen: list[int] = []
            while units and len(chosen) < n:
                if len(units) <= n - len(chosen):
                    chosen.extend(units)
                    break
                a = yield Decision("kill_own", opp, [("kill", i) for i in units], n - len(chosen))
                chosen.append(a[1])
                units.remove(a[1])
            if chosen:
                if self.logs is not None:
                    self._log(f"§6.1 Combat spoils: player {opp} kills " + ", ".join(self.name(i) for i in chosen))
                yield from self._leave(chosen, "killed")
        elif t == GUILE:
            hand = self.hand[opp]
            k = min(n, len(hand))
            for _ in range(k):
                i = hand[int(self.rng.random() * len(hand))]
                self._move(i, DISCARD)
                if self.logs is not None:
                    self._log(f"§6.1 Guile spoils: player {opp} discards {self.name(i)} at random")
        elif t == SORCERY:
            for _ in range(n):
                cards = list(self.field[opp])
                if not cards:
                    break
                a = cards[0] if len(cards) == 1 else (yield Decision("emblem", p, [("emblem", i) for i in cards]))[1]
                if isinstance(a, tuple):
                    a = a[1]
                self.emb[a] += 1
                self._statics_cache = None
                self._check_attachments()
                if self.logs is not None:
                    self._log(f"§6.1 Sorcery spoils: a sorcery emblem blanks {self.name(a)}")
        else:
            m = min(n, self.infl[opp])
            if m:
                self.infl[opp] -= m
                self.infl[p] += m   # a move, not a gain (§6.1): influence_gained does not fire
                if self.logs is not None:
                    self._log(f"§6.1 Faith spoils: {m} Influence moves from player {opp} to player {p}")
                self._check_win()

    def _on_win_keywords(self, s: Struggle):
        """§9.2 at S.12: each participating unit of the winning side, each keyword optional."""
        w = s.winner
        attacking = w == s.attacker
        side = s.attackers if attacking else s.defenders
        for i in list(side):
            if self.zone[i] != FIELD:
                continue
            k = self.kw(i)
            if not (k & (KW_GLORY | KW_MASTERY | KW_CUNNING | KW_COMPEL | KW_RAVAGE | KW_PROWESS | KW_WARY
                         | KW_RUTHLESS)):
                continue
            if k & KW_GLORY:
                if (yield Decision("onwin", w, [YES, NO], ("Glory", i))) == YES:
                    self.cnt[i] += 1
                    if self.logs is not None:
                        self._log(f"§9.2 Glory: 1 Influence on {self.name(i)}")
                    self._check_win()
            if k & KW_MASTERY:
                if (yield Decision("onwin", w, [YES, NO], ("Mastery", i))) == YES:
                    self._draw(w, 1)
            if k & KW_CUNNING:
                if (yield Decision("onwin", w, [YES, NO], ("Cunning", i))) == YES:
                    self.pool[w] += 1
            if attacking and k & KW_COMPEL:
                cands = [j for j in self.field[s.defender] if self.cdef[j].is_unit and not self.exh[j]
                         and max(self.power(j), 0) < s.margin
                         and not self.has_rule(j, "cannot_be_exhausted_by_opponent")]
                if cands:
                    a = yield Decision("compel", w, [("exhaust", j) for j in cands] + [NO], i)
                    if a != NO:
                        self.exh[a[1]] = 1
                        if self.logs is not None:
                            self._log(f"§9.2 Compel: {self.name(a[1])} exhausts")
            if attacking and k & KW_RAVAGE:
                for x in self.kw_params(i, KW_RAVAGE):   # §9: each Ravage (X) with a distinct X is its own keyword
                    if (yield Decision("onwin", w, [YES, NO], ("Ravage", i))) == YES:
                        self._mill(s.defender, x)
            if attacking and k & KW_PROWESS and self.exh[i]:
                if (yield Decision("onwin", w, [YES, NO], ("Prowess", i))) == YES:
                    self.exh[i] = 0
            if not attacking and k & KW_WARY and self.exh[i]:
                if (yield Decision("onwin", w, [YES, NO], ("Wary", i))) == YES:
                    self.exh[i] = 0
            if attacking and k & KW_RUTHLESS:
                defenders = [j for j in s.defenders if self.zone[j] == FIELD]
                if defenders and (yield Decision("onwin", w, [YES, NO], ("Ruthless", i))) == YES:
                    j = defenders[0] if len(defenders) == 1 else \
                        (yield Decision("kill_own", s.defender, [("kill", x) for x in defenders], 1))[1]
                    yield from self._leave([j], "killed")

    def _mill(self, p: int, n: int) -> None:
        deck = self.deck[p]
        for _ in range(min(n, len(deck))):
            i = deck.pop()
            self.discard[p].append(i)
            self.zone[i] = DISCARD
            self.seen[i] = 1

    # §7 leaving play -----------------------------------------------------
    def _leave(self, iids: list[int], how: str, cannot_be_saved: bool = False, position: str = "top"):
        """§7.2: Halt (save) window, then the cards leave together; their consequences fire; responses."""
        cards = [i for i in iids if self.zone[i] == FIELD]
        if how == "killed":
            cards = [i for i in cards if self.cdef[i].is_unit and not self.has_rule(i, "cannot_be_killed")]
        if not cards:
            return
        saveable = how != "sacrificed" and not cannot_be_saved
        saved: set[int] = set()
        if saveable and self.live_ev.get("would_leave_play"):
            # one Halt (save) window per card, so a save names the card it saves (§7.3)
            for i in cards:
                info = {"cards": [i], "card": i, "how": how, "saved": saved, "player": self.ctrl[i]}
                yield from self._event("would_leave_play", info, halt_only=True)
        if saveable and self.dups:
            for i in cards:
                if i in saved or not self.dups.get(i):
                    continue
                own = self.owner[i]
                if (yield Decision("dup_save", own, [YES, NO], i)) == YES:
                    d = self.dups[i].pop()
                    self.zone[d] = DISCARD
                    self.seen[d] = 1
                    self.discard[self.owner[d]].append(d)
                    if self.logs is not None:
                        self._log(f"§7.3 a duplicate is discarded to save {self.name(i)}")
                    # §7.3: the opponent may cancel a duplicate save; the duplicate is still discarded
                    if self.live_ev.get("duplicate_save"):
                        dinfo = {"card": i, "cards": [i], "player": own, "cancelled": False}
                        yield from self._event("duplicate_save", dinfo, halt_only=True)
                        if dinfo["cancelled"]:
                            if self.logs is not None:
                                self._log(f"§7.3 the duplicate save of {self.name(i)} is cancelled")
                            continue
                    saved.add(i)
        leaving = [i for i in cards if i not in saved]
        replaced = []
        if self.has_replace and leaving:
            # §7.4: a replacement ("instead") swaps how the event resolves for that card (a saved card never
            # got here: a canceled event is never replaced)
            for i in leaving:
                r = self._replacement_for(i, how)
                if r is not None:
                    replaced.append(r)
            if replaced:
                swapped = {r[3]["card"] for r in replaced}
                leaving = [i for i in leaving if i not in swapped]
        prev_ctrl = {i: self.ctrl[i] for i in leaving}
        for i in leaving:
            self._remove_from_field(i, how, position)
        self._check_attachments()
        for q, src, ab, info in replaced:
            key = (src, ab.index, info["card"])
            self._replacing.add(key)
            try:
                if self.logs is not None:
                    self._log(f"§7.4 {self.name(info['card'])} would be {how}; {self.name(src)} replaces it")
                yield from self._use_ability(q, src, ab, info)
            finally:
                self._replacing.discard(key)
        if leaving and self.live_ev.get("leaves_play"):
            for i in leaving:
                yield from self._event("leaves_play", {"card": i, "how": how, "player": prev_ctrl[i]})

    def _replacement_for(self, i: int, how: str):
        """§7.4: the replacement that applies to card i leaving play `how` — the most recent one (the source that
        entered play last; faction, destiny and quest count as oldest) — as (controller, source, ability,
        event info), or None."""
        best, best_seq = None, -1
        cdef, emb = self.cdef, self.emb
        for q in (0, 1):
            for src in (self.faction_iid[q], self.destiny_iid[q], self.quest[q], *self.field[q]):
                if src < 0 or emb[src]:
                    continue
                reps = cdef[src].replacements
                if not reps:
                    continue
                for ab in reps:
                    if (src, ab.index, i) in self._replacing:
                        continue   # the replacement's own result is not replaced by it again
                    info = {"cards": [i], "card": i, "how": how, "player": self.ctrl[i]}
                    if self._when_matches(ab, q, src, info) and self._usable(q, src, ab, info, forced=True):
                        seq = self.entry_seq.get(src, 0)
                        if seq > best_seq:
                            best, best_seq = (q, src, ab, info), seq
        return best

    def _remove_from_field(self, i: int, how: str, position: str = "top") -> None:
        if i in self.retyped:   # §2.2: it leaves play as what it functioned as; elsewhere it is the printed card
            self._set_def(i, self.retyped.pop(i)[0])
        d = self.cdef[i]
        if self.lasting:   # a card that leaves play is a new object if it returns (§3.2 control ends with it)
            self.lasting = [x for x in self.lasting if not (x[2] == i and x[1] in ("control", "type"))]
        self.emb[i] = 0
        self.cnt[i] = 0     # §3.5 counters and emblems return to the supply
        self.exh[i] = 0
        self.pmod.pop(i, None)
        self.kgrant.pop(i, None)
        self.host.pop(i, None)
        for dup in self.dups.pop(i, []):      # duplicates go to their owner's discard pile (§3.7)
            self.zone[dup] = DISCARD
            self.seen[dup] = 1
            self.discard[self.owner[dup]].append(dup)
        self._drop_from_struggle(i)
        if d.is_token:
            self.field[self.ctrl[i]].remove(i)
            if d.hooks:
                self._hook(i, FIELD, -1, self.ctrl[i])
            self.zone[i] = GONE    # §3.8 a token ceases to exist
            self.ctrl[i] = self.owner[i]
            self._statics_cache = None
        elif how == "killed":
            self._move(i, DEAD)
        elif how == "returned":
            self._move(i, HAND)
        elif how == "returned_deck":
            self._move(i, DECK, top=position != "bottom")
        elif how == "removed":
            self._move(i, OUT)
        else:
            self._move(i, DISCARD)
        if self.logs is not None:
            self._log(f"§7.1 {d.name} is {how} ({ZONE_NAMES[self.zone[i]]})")
        # attachments on it are discarded, or return to hand with Lasting (§10.3)
        for a in [a for a, h in self.host.items() if h == i]:
            self.host.pop(a, None)
            if self.kw(a) & KW_LASTING:
                self._remove_attachment(a, HAND)
            else:
                self._remove_attachment(a, DISCARD)

    def _remove_attachment(self, a: int, z: int) -> None:
        self.emb[a] = self.cnt[a] = self.exh[a] = 0
        self.pmod.pop(a, None)
        self.kgrant.pop(a, None)
        self.host.pop(a, None)
        if self.cdef[a].is_token:
            self.field[self.ctrl[a]].remove(a)
            if self.cdef[a].hooks:
                self._hook(a, FIELD, -1, self.ctrl[a])
            self.zone[a] = GONE
        else:
            self._move(a, z)

    def _check_attachments(self) -> None:
        """§8.1/§10.3 state-based: an illegally attached attachment is discarded."""
        if not self.host:
            return
        for a, h in list(self.host.items()):
            if self.zone[h] != FIELD or (self.kw(h) & KW_NO_ATTACH) or not self._still_legal_host(a, h):
                self._remove_attachment(a, DISCARD)

    def _still_legal_host(self, a: int, h: int) -> bool:
        """§10.3: the host still fits the attachment's `attach` requirement (e.g. "a unit you control", read
        from the attachment's controller), as when it was attached."""
        ab = self.cdef[a].attach_ability
        sel = ab.target if ab is not None and ab.target else None
        if sel is None:
            return self.cdef[h].is_unit
        c = self.ctrl[a]
        who = sel.get("controller", "you")
        if (who == "you" and self.ctrl[h] != c) or (who == "opponent" and self.ctrl[h] == c):
            return False
        return self._match(sel, h, c, a)

    # lasting effects (§8.9) ------------------------------------------------
    def _expire(self, until: str) -> None:
        if not self.lasting:
            return
        keep = []
        for e in self.lasting:
            if e[0] != until:
                keep.append(e)
                continue
            _, kind, who, value = e
            if kind == "power":
                if who in self.pmod:
                    self.pmod[who] -= value
                    if not self.pmod[who]:
                        del self.pmod[who]
            elif kind == "type":
                stack = self.retyped.get(who)
                if stack is not None and value in stack:
                    stack.remove(value)
                    if len(stack) == 1:
                        del self.retyped[who]
                    self._set_def(who, stack[-1])
            elif kind == "control":
                # §3.2 a lasting change of control ends: the card goes back to who controlled it before
                if self.zone[who] == FIELD and self.ctrl[who] != value:
                    self._change_control(who, value)
            elif kind == "keyword":
                g = self.kgrant.get(who)
                if g:
                    for x in g:
                        if x[0] == value[0] and x[2] == until:
                            g.remove(x)
                            break
                    if not g:
                        del self.kgrant[who]
        self.lasting = keep

    def _drop_from_struggle(self, iid: int) -> None:
        """The card no longer takes part in the struggle in progress (it left play, changed sides or type, or an
        effect removed it, §6.5); it counts for neither side."""
        s = self.struggle
        if s is not None:
            if iid in s.attackers:
                s.attackers.remove(iid)
            if iid in s.defenders:
                s.defenders.remove(iid)

    def _printed(self, iid: int) -> CardDef:
        """The card's printed definition, whatever type change applies now (§2.2)."""
        stack = self.retyped.get(iid)
        return stack[0] if stack else self.cdef[iid]

    def _set_def(self, iid: int, new: CardDef) -> None:
        """Swap the definition a card in play functions as (§2.2 type change and its end), keeping the
        listener counts, the static-ability caches, attachments and the struggle consistent."""
        old = self.cdef[iid]
        if old is new:
            return
        inplay = self.zone[iid] == FIELD
        if inplay and old.hooks:
            self._hook(iid, FIELD, -1, self.ctrl[iid])
        self.cdef[iid] = new
        if inplay and new.hooks:
            self._hook(iid, FIELD, 1, self.ctrl[iid])
        self._statics_cache = None
        self._pw_cands = {}
        if old.is_attachment and not new.is_attachment:
            self.host.pop(iid, None)         # it no longer is an attachment: it stands on its own
        if not new.is_unit:
            self._drop_from_struggle(iid)
        if self.host:
            # attachments whose host stopped being a legal host (a unit by default, §10.3) are discarded
            for a, h in list(self.host.items()):
                if h == iid and h not in self.legal_hosts(self.ctrl[a], a):
                    self._remove_attachment(a, DISCARD)
        self._check_attachments()

    def _change_control(self, iid: int, p: int) -> bool:
        """§3.2 control of a card in the field passes to p. §3.7: it never becomes p's duplicate — a unique card
        whose name p already controls does not change control (the collision is prevented at the effect).
        A participating unit leaves the struggle (it is no longer on the side it was declared for); attachments
        stay on it and keep their own controller; its duplicates stay with their owner."""
        d = self.cdef[iid]
        old = self.ctrl[iid]
        if self.zone[iid] != FIELD or old == p or (d.unique and self.controls_unique_name(p, d.name)):
            return False
        if d.hooks:
            self._hook(iid, FIELD, -1, old)
        self.field[old].remove(iid)
        self.field[p].append(iid)
        self.ctrl[iid] = p
        if d.hooks:
            self._hook(iid, FIELD, 1, p)
        self._drop_from_struggle(iid)
        self._statics_cache = None
        self._pw_cands = {}
        if self.logs is not None:
            self._log(f"§3.2 player {p} takes control of {d.name}")
        self._check_attachments()
        self._check_win()   # Influence on the card now counts for its new controller (§3.2)
        return True

    def _run_delayed(self, at: str):
        """§8.8 (3): the delayed effects waiting for the end of this phase / struggle / round resolve, after the
        lasting effects have expired; the first player's before the other's ("first player orders
        simultaneous ones"), each player's in the order they were created. Ones created now wait for the next
        such point."""
        if not self.delayed:
            return
        due = [x for x in self.delayed if x[0] == at]
        if not due:
            return
        self.delayed = [x for x in self.delayed if x[0] != at]
        due.sort(key=lambda x: x[1].p != self.first)   # stable: creation order within each player
        for _at, ctx, effects in due:
            if self.logs is not None:
                self._log(f"§8.9 delayed effect of {self.name(ctx.src)} resolves at the end of the {at}")
            yield from self._resolve(ctx, effects)

    # ------------------------------------------------------------------ events and reaction windows (§8.4)
    def _event(self, name: str, info: dict, halt_only: bool = False, response_only: bool = False):
        """Halt → Disrupt → (the caller resolves) → Response windows for one event; each window opens only
        when some card where it lies could act in it (`live`)."""
        live = self.live
        if not response_only:
            keys = _LIVE_KEYS.get(name)
            if keys is None:
                keys = _LIVE_KEYS[name] = ("halt:" + name, "disrupt:" + name)
            if live.get(keys[0]):
                yield from self._reaction_window("halt", name, info)
            if live.get(keys[1]):
                yield from self._reaction_window("disrupt", name, info)
        if halt_only:
            return
        if live.get(name):
            yield from self._reaction_window("response", name, info)

    def _listeners(self, p: int, name: str) -> list:
        """(card, ability) pairs of p that react to event `name` where they lie, and reaction deeds in hand."""
        cdef, emb = self.cdef, self.emb
        out = []
        for i in (self.faction_iid[p], self.destiny_iid[p], self.quest[p]):
            if i >= 0 and not emb[i]:
                for ab in cdef[i].triggers.get(name, ()):
                    out.append((i, ab, False))
        for i in self.field[p]:
            trig = cdef[i].triggers
            if trig and not emb[i]:
                for ab in trig.get(name, ()):
                    out.append((i, ab, False))
        for i in self.hand[p]:
            d = cdef[i]
            pab = d.play_ability
            if d.hand_event is not None and pab is not None and pab.event == name:
                out.append((i, pab, True))
        return out

    def _reaction_window(self, timing: str, name: str, info: dict):
        """Forced abilities first (first player first), then optional ones with priority passing (§8.4)."""
        fired: set = set()
        pre: list[Any] = [None, None]   # each player's listeners, reused below while no Forced ability has resolved
        if timing == "response":
            for p in self.players():
                pre[p] = lst = self._listeners(p, name)
                for i, ab, is_deed in lst:
                    if not is_deed and ab.timing == "forced" and (i, ab.index) not in fired \
                            and self._when_matches(ab, p, i, info) and self._usable(p, i, ab, info, forced=True):
                        fired.add((i, ab.index))
                        yield from self._use_ability(p, i, ab, info)
            if fired:
                pre = [None, None]
        listeners: list[Any] = [None, None]
        p = self.first
        passes = 0
        while passes < 2:
            opts: list[tuple] = []
            if not (self.goldfish and p == 1):
                if listeners[p] is None:
                    base = pre[p]
                    if base is None:
                        base = self._listeners(p, name)
                    listeners[p] = [x for x in base if x[1].timing == timing]
                for i, ab, is_deed in listeners[p]:
                    if is_deed:
                        if self.zone[i] == HAND and self._when_matches(ab, p, i, info) \
                                and self._usable(p, i, ab, info, deed=True):
                            opts.append(("deed", i))
                    elif (i, ab.index) not in fired and self._when_matches(ab, p, i, info) \
                            and self._usable(p, i, ab, info):
                        opts.append(("ability", i, ab.index))
            if not opts:
                passes += 1
                p = 1 - p
                continue
            opts.append(PASS)
            a = yield Decision("react", p, opts, (timing, name))
            if a == PASS:
                passes += 1
            else:
                passes = 0
                listeners = [None, None]   # the action may have changed who can react
                pre = [None, None]
                if a[0] == "deed":
                    yield from self._play_deed(p, a[1], info)
                else:
                    i = a[1]
                    ab = next(x for x in self.cdef[i].abilities if x.index == a[2])
                    fired.add((i, ab.index))
                    yield from self._use_ability(p, i, ab, info)
            p = 1 - p

    def _when_matches(self, ab, p: int, src: int, info: dict) -> bool:
        w = ab.when
        if not w:
            return True
        for k, v in w.items():
            if k == "event":
                continue
            if k == "card":
                card = info.get("card", -1)
                if v == "self":
                    cards = info.get("cards") or [card]
                    if src not in cards:
                        return False
                elif isinstance(v, dict):
                    cards = info.get("cards") or [card]
                    if not any(c >= 0 and self._event_card_matches(v, c, p, src, info) for c in cards):
                        return False
            elif k == "how":
                if v != "any" and info.get("how") != v:
                    return False
            elif k == "type":
                t = info.get("type")
                if t is None or STRUGGLE_TYPES[t] != v:
                    return False
            elif k == "side":
                att = info.get("attacker")
                if att is None or (v == "attacker") != (att == p):
                    return False
            elif k == "participating":
                s = self.struggle
                if s is None or (v in ("self", True) and src not in s.attackers and src not in s.defenders):
                    return False
            elif k == "unopposed":
                if bool(info.get("unopposed")) != bool(v):
                    return False
            elif k == "phase":
                if info.get("phase") != v:
                    return False
            elif k == "player":
                pl = info.get("player")
                if pl is None or (v == "you") != (pl == p):
                    return False
        ev = ab.event
        if ev == "struggle_won" and info.get("winner") != p:
            return False
        if ev == "struggle_lost" and (info.get("winner") is None or info.get("winner") == p):
            return False
        return True

    def _event_card_matches(self, sel: dict, c: int, p: int, src: int, info: dict) -> bool:
        """An event's card against a `when.card` selector: its controller at the time of the event (the card
        may already have left play for leaves_play), then its characteristics."""
        who = sel.get("controller", "you")
        holder = info.get("player", self.ctrl[c])
        if (who == "you" and holder != p) or (who == "opponent" and holder == p):
            return False
        return self._match_props(sel, c, p, src)

    # ------------------------------------------------------------------ the interpreter (docs/engine-abilities.md)
    def _limit_key(self, iid: int, ab):
        return (iid, ab.index, ab.limit_per)

    def _usable(self, p: int, iid: int, ab, info, *, deed: bool = False, forced: bool = False,
                extra_cost: int = 0) -> bool:
        """§8.11: conditions hold, limit not reached, costs payable, a legal target exists, a real effect."""
        if ab.limit is not None and self.uses.get(self._limit_key(iid, ab), 0) >= ab.limit:
            return False
        if ab.phase is not None and ab.timing == "action":
            if ab.phase == "struggle":
                if self.struggle is None:
                    return False
            elif self.phase < 0 or PHASES[self.phase] != ab.phase:
                return False
        if ab.condition is not None and not self._cond(ab.condition, p, iid):
            return False
        d = self.cdef[iid]
        pay = 0
        if deed:
            if extra_cost >= 0:
                if d.cost == COST_DASH:
                    return False   # §2.5: "–" cannot be played from hand
                pay = max(d.cost, 0) + self.loyalty_surcharge(p, d)   # X costs: X = 0 is always payable
            if not self._max_ok(p, d):
                return False
        if not self._costs_payable(p, iid, ab, pay):
            return False
        if ab.target is not None and not self._has_target(ab.target, p, iid, info, deed):
            return False
        return self._can_change_state(p, iid, ab, info)

    def _has_target(self, sel, p: int, src: int, info, is_deed: bool) -> bool:
        """Whether at least one legal target exists (stops at the first)."""
        if not isinstance(sel, dict) or "each" in sel:
            return bool(self._target_candidates(sel, p, src, None, info, is_deed))
        z = ZONE_BY_NAME.get(sel.get("zone", "field"), FIELD)
        c = sel.get("controller", "you")
        players = (p,) if c == "you" else (1 - p,) if c == "opponent" else (0, 1)
        for q in players:
            for j in self._zone_list(q, z):
                if self._match_props(sel, j, p, src) and not (z == FIELD and self._immune(j, p, src, is_deed)):
                    return True
        return False

    def _can_change_state(self, p, iid, ab, info) -> bool:
        """§8.11: an ability may be initiated only if it could change the game state. Effects that need a
        struggle, an event or cards to act on must have them; one effect that could change something suffices
        (targets were checked already)."""
        if ab.target is not None:
            return self._effects_possible(p, iid, ab, info, require_all=True)
        return self._effects_possible(p, iid, ab, info, require_all=False)

    def _effects_possible(self, p, iid, ab, info, require_all: bool) -> bool:
        any_ok = False
        for e in ab.effects:
            k = next(k for k in e if k not in EFFECT_MODIFIERS)
            v = e[k]
            if k == "save":
                if info is None or not any(c not in info.get("saved", ()) for c in info.get("cards", ())):
                    return False
                ok = True
            elif k == "cancel":
                if info is None or "cancelled" not in info:
                    return False
                ok = True
            elif k in ("join_struggle", "remove_from_struggle", "modify_spoils"):
                if self.struggle is None:
                    return False
                ok = True
            elif isinstance(v, dict) and "each" in v:
                cards = self._select(v, p, iid, info)
                if k == "exhaust":
                    ok = any(not self.exh[c] for c in cards)
                elif k == "ready":
                    ok = any(self.exh[c] for c in cards)
                else:
                    ok = bool(cards)
            elif k in ("mill", "discard_random"):
                q = 1 - p if e.get("player") == "opponent" else p
                ok = bool(self.deck[q] if k == "mill" else self.hand[q])
            else:
                ok = True
            if ok:
                any_ok = True
                if not require_all:
                    return True
        return any_ok or not ab.effects

    def _costs_payable(self, p: int, iid: int, ab, extra_pay: int) -> bool:
        pay = extra_pay
        for c in ab.cost:
            k, v = next(iter(c.items()))
            if k == "pay":
                pay += 0 if v == "X" else self._amount(v, p, iid, None)
            elif k == "exhaust":
                if v == "self":
                    if self.zone[iid] not in (FIELD, FACTION) or self.exh[iid]:
                        return False
                elif not any(not self.exh[j] for j in self._select(v, p, iid)):
                    return False
            elif k == "sacrifice":
                if v == "self":
                    if self.zone[iid] != FIELD:
                        return False
                elif not self._select(v, p, iid):
                    return False
            elif k == "discard_from_hand":
                need = self._amount(v, p, iid, None) + (1 if self.zone[iid] == HAND else 0)
                if len(self.hand[p]) < need:
                    return False
            elif k == "remove_influence":
                if self.infl[p] < self._amount(v, p, iid, None):
                    return False
            elif k == "return_to_hand":
                if self.zone[iid] != FIELD:
                    return False
        return self.pool[p] >= pay

    def _max_x(self, p: int, iid: int, ab, base_pay: int) -> int:
        return max(self.pool[p] - base_pay - sum(self._amount(c["pay"], p, iid, None) for c in ab.cost
                                                 if "pay" in c and c["pay"] != "X"), 0)

    def _use_ability(self, p: int, iid: int, ab, info, *, is_deed: bool = False, x_preset: int | None = None):
        """Initiate and resolve one ability (§8.4, Appendix A): choose X and targets, pay the costs, resolve the
        effects. `x_preset`: X already chosen and paid (a deed printed with cost X)."""
        ctx = Ctx(iid, ab, p, info, is_deed)
        if x_preset is not None:
            ctx.x = x_preset
        elif ab.x is not None:
            # §8.7: X is chosen at initiation; never more than can be paid
            top = self._max_x(p, iid, ab, 0)
            xopts = [("x", n) for n in range(top + 1)]
            a = xopts[0] if len(xopts) == 1 else (yield Decision("x", p, xopts, iid))
            ctx.x = a[1]
        # targets, chosen at initiation
        if ab.target is not None:
            sel = ab.target
            cands = self._target_candidates(sel, p, iid, ab, info, is_deed)
            n = sel.get("count", 1) if isinstance(sel, dict) else 1
            if n == "X":
                n = ctx.x
            up_to = isinstance(sel, dict) and sel.get("up_to")
            while cands and len(ctx.targets) < n:
                opts: list[tuple] = [("target", j) for j in cands]
                if up_to:
                    opts.append(DONE)
                a = opts[0] if len(opts) == 1 else (yield Decision("target", p, opts, (iid, ab.harmful)))
                if a == DONE:
                    break
                ctx.targets.append(a[1])
                cands.remove(a[1])
        if self.logs is not None:
            tgt = (" on " + ", ".join(self.name(t) for t in ctx.targets)) if ctx.targets else ""
            xs = f", X = {ctx.x}" if (ab.x is not None or x_preset is not None) else ""
            self._log(f"§8 player {p} uses {self.name(iid)} ({ab.timing}{xs}){tgt}")
        if ab.limit is not None:
            key = self._limit_key(iid, ab)
            self.uses[key] = self.uses.get(key, 0) + 1
        # costs (immunity blocks effects, not costs)
        for c in ab.cost:
            k, v = next(iter(c.items()))
            if k == "pay":
                self._spend(p, ctx.x if v == "X" else self._amount(v, p, iid, ctx))
            elif k == "exhaust":
                if v == "self":
                    self.exh[iid] = 1
                else:
                    cands = [j for j in self._select(v, p, iid) if not self.exh[j]]
                    j = cands[0] if len(cands) == 1 else (yield Decision("cost", p, [("pick", j) for j in cands],
                                                                         "exhaust"))[1]
                    self.exh[j] = 1
            elif k == "sacrifice":
                if v == "self":
                    yield from self._leave([iid], "sacrificed")
                else:
                    cands = self._select(v, p, iid)
                    j = cands[0] if len(cands) == 1 else (yield Decision("cost", p, [("pick", j) for j in cands],
                                                                         "sacrifice"))[1]
                    yield from self._leave([j], "sacrificed")
            elif k == "discard_from_hand":
                for _ in range(self._amount(v, p, iid, ctx)):
                    cands = [j for j in self.hand[p] if j != iid]
                    if not cands:
                        break
                    j = (yield Decision("cost", p, [("pick", j) for j in cands], "discard"))[1]
                    self._move(j, DISCARD)
            elif k == "remove_influence":
                self.infl[p] -= min(self._amount(v, p, iid, ctx), self.infl[p])
            elif k == "return_to_hand":
                yield from self._leave([iid], "returned")
        yield from self._resolve(ctx, ab.effects)

    def _play_deed(self, p: int, iid: int, info, cost_override: int | None = None):
        """§10.4: pay, (Halt may cancel; still played), resolve, discard before the Response window.
        A deed printed with cost X has X chosen and paid here (§8.7); `cost_override` is a Secret reveal cost."""
        d = self.cdef[iid]
        ab: Any = d.play_ability
        x_preset = None
        if cost_override is not None:
            cost = cost_override
        else:
            cost = max(d.cost, 0) + self.loyalty_surcharge(p, d)
            if d.cost == COST_X:
                top = self._max_x(p, iid, ab, cost) if ab.x is not None else 0   # an X the text never uses: 0
                opts = [("x", n) for n in range(top + 1)]
                a = opts[0] if len(opts) == 1 else (yield Decision("x", p, opts, iid))
                x_preset = a[1]
                cost += x_preset
        self._spend(p, cost)
        self._move(iid, LIMBO)
        self._note_played(p, iid)
        if self.logs is not None:
            self._log(f"§10.4 player {p} plays the deed {d.name} for {cost}")
        pinfo = {"card": iid, "player": p, "cancelled": False}
        if self.live_ev.get("card_played") and not d.uncancelable:   # §8.11 "cannot be canceled"
            yield from self._event("card_played", pinfo, halt_only=True)
        if not pinfo["cancelled"]:
            yield from self._use_ability(p, iid, ab, info, is_deed=True, x_preset=x_preset)
        if self.zone[iid] == LIMBO:
            self._move(iid, DISCARD)
        if self.live_ev.get("card_played"):
            yield from self._event("card_played", {"card": iid, "player": p}, response_only=True)

    # selectors -------------------------------------------------------------
    def _target_candidates(self, sel, p, src, ab, info, is_deed=False) -> list[int]:
        cands = self._select(sel, p, src, info)
        if not cands:
            return cands
        out = []
        for j in cands:
            if self.zone[j] == FIELD and self._immune(j, p, src, is_deed):
                continue
            out.append(j)
        return out

    def _immune(self, j: int, p: int, src: int, is_deed: bool) -> bool:
        """§8.11 immunity: blocks targeting and effects (not costs)."""
        if not self.has_abilities:
            return False
        if self.ctrl[j] != p and self.has_rule(j, "immune_to_opponent_effects"):
            return True
        if (is_deed or self.cdef[src].is_deed) and self.has_rule(j, "immune_to_deeds"):
            return True
        return False

    def _select(self, sel, p: int, src: int, info=None) -> list[int]:
        """Cards matching a selector (relative to controller p and source card src)."""
        if sel == "self":
            return [src] if self.zone[src] in (FIELD, FACTION, HAND, LIMBO) else []
        if sel == "host":
            h = self.host.get(src, -1)
            return [h] if h >= 0 else []
        if sel == "event_card":
            c = (info or {}).get("card", -1)
            return [c] if c >= 0 else []
        if isinstance(sel, dict) and "each" in sel:
            sel = sel["each"]
        if not isinstance(sel, dict):
            return []
        z = ZONE_BY_NAME.get(sel.get("zone", "field"), FIELD)
        c = sel.get("controller", "you")
        players = (p,) if c == "you" else (1 - p,) if c == "opponent" else (0, 1)
        out = []
        for q in players:
            for j in self._zone_list(q, z):
                if self._match_props(sel, j, p, src):
                    out.append(j)
        return out

    def _match(self, sel, j: int, p: int, src: int) -> bool:
        """Does card j match the selector, including its zone and controller?"""
        if sel == "self":
            return j == src
        if not isinstance(sel, dict):
            return False
        if "each" in sel:
            sel = sel["each"]
        z = ZONE_BY_NAME.get(sel.get("zone", "field"), FIELD)
        if self.zone[j] != z:
            return False
        c = sel.get("controller", "you")
        holder = self.ctrl[j] if z == FIELD else self.owner[j]
        if (c == "you" and holder != p) or (c == "opponent" and holder == p):
            return False
        return self._match_props(sel, j, p, src)

    def _match_props(self, sel, j: int, p: int, src: int) -> bool:
        """Does card j have the characteristics and state the selector asks for (zone/controller aside)?"""
        got = _COMPILED.get(id(sel))
        if got is None or got[0] is not sel:
            got = _compile_selector(sel)
        for check in got[1]:
            if not check(self, j, src):
                return False
        return True

    def _amount(self, v, p: int, src: int, ctx) -> int:
        if isinstance(v, int):
            return v
        if v == "X":
            return ctx.x if ctx is not None else 0
        if isinstance(v, dict) and "count" in v:
            return len(self._select(v["count"], p, src))
        return 0

    def _cond(self, cond: dict, p: int, src: int) -> bool:
        for k, v in cond.items():
            if k == "min":
                continue
            if k == "controls":
                if len(self._select(v, p, src)) < cond.get("min", 1):
                    return False
            elif k == "opponent_controls":
                sel = dict(v)
                sel["controller"] = "opponent"
                if len(self._select(sel, p, src)) < cond.get("min", 1):
                    return False
            elif k == "influence_lte":
                if self.influence(p) > v:
                    return False
            elif k == "influence_gte":
                if self.influence(p) < v:
                    return False
            elif k == "behind_on_influence":
                if (self.influence(p) < self.influence(1 - p)) != bool(v):
                    return False
            elif k == "hand_gte":
                if len(self.hand[p]) < v:
                    return False
            elif k == "hand_lte":
                if len(self.hand[p]) > v:
                    return False
            elif k == "phase":
                if self.phase < 0 or PHASES[self.phase] != v:
                    return False
            elif k == "in_struggle":
                if (self.struggle is not None) != bool(v):
                    return False
            elif k == "participating":
                s = self.struggle
                if s is None or (src not in s.attackers and src not in s.defenders):
                    return False
            elif k == "holds_authority":
                if (self.authority == p) != bool(v):
                    return False
            elif k == "all":
                if not all(self._cond(c, p, src) for c in v):
                    return False
            elif k == "any":
                if not any(self._cond(c, p, src) for c in v):
                    return False
            elif k == "not":
                if self._cond(v, p, src):
                    return False
        return True

    def _refs(self, ctx: Ctx, ref) -> list[int]:
        if ref == "target":
            return list(ctx.targets)
        if ref == "self":
            return [ctx.src]
        if ref == "host":
            h = self.host.get(ctx.src, -1)
            return [h] if h >= 0 else []
        if ref == "event_card":
            c = (ctx.event or {}).get("card", -1)
            return [c] if c is not None and c >= 0 else []
        if isinstance(ref, dict):
            return [j for j in self._select(ref, ctx.p, ctx.src, ctx.event)
                    if not (self.zone[j] == FIELD and self._immune(j, ctx.p, ctx.src, ctx.is_deed))]
        return []

    def _player_of(self, ctx: Ctx, e: dict) -> int:
        return 1 - ctx.p if e.get("player") == "opponent" else ctx.p

    def _resolve(self, ctx: Ctx, effects):
        """Resolve effects in order; returns True when every one happened in full ("then", §8.11)."""
        full = True
        for e in effects:
            k = next(k for k in e if k not in EFFECT_MODIFIERS)
            v = e[k]
            if k == "then":
                if full:
                    ok = yield from self._resolve(ctx, v)
                    full = full and ok
                continue
            ok = yield from self._effect(ctx, k, v, e)
            if not ok:
                full = False
        return full

    def _effect(self, ctx: Ctx, k: str, v, e: dict):
        p = ctx.p
        if k == "draw":
            q = self._player_of(ctx, e)
            n = self._amount(v, p, ctx.src, ctx)
            self._draw(q, n)
            return n > 0
        if k == "gain_wealth":
            q = self._player_of(ctx, e)
            n = self._amount(v, p, ctx.src, ctx)
            self.pool[q] += n
            return n > 0
        if k == "gain_influence":
            q = self._player_of(ctx, e)
            n = self._amount(v, p, ctx.src, ctx)
            yield from self._gain_influence(q, n, f"{self.name(ctx.src)}")
            return n > 0
        if k == "place_influence":
            n = self._amount(v, p, ctx.src, ctx)
            cards = [c for c in self._refs(ctx, e.get("on", "self")) if self.zone[c] == FIELD]
            for c in cards:
                self.cnt[c] += n
            self._check_win()
            return bool(cards) and n > 0
        if k == "move_influence":
            n = self._amount(v, p, ctx.src, ctx)
            m = min(n, self.infl[1 - p])
            self.infl[1 - p] -= m
            self.infl[p] += m
            self._check_win()
            return m == n and n > 0
        if k == "lose_influence":
            q = self._player_of(ctx, e)
            n = self._amount(v, p, ctx.src, ctx)
            m = min(n, self.infl[q])
            self.infl[q] -= m
            return m == n and n > 0
        if k in ("exhaust", "ready"):
            cards = [c for c in self._refs(ctx, v) if self.zone[c] in (FIELD, FACTION)]
            done = 0
            for c in cards:
                if k == "exhaust":
                    if self.exh[c] or (self.ctrl[c] != p and self.has_rule(c, "cannot_be_exhausted_by_opponent")):
                        continue
                    self.exh[c] = 1
                else:
                    if not self.exh[c]:
                        continue
                    self.exh[c] = 0
                done += 1
            return bool(cards) and done == len(cards)
        if k in ("kill", "discard", "sacrifice", "return_to_hand", "return_to_deck"):
            cards = self._refs(ctx, v)
            how = {"kill": "killed", "discard": "discarded", "sacrifice": "sacrificed", "return_to_hand": "returned",
                   "return_to_deck": "returned_deck"}[k]
            in_field = [c for c in cards if self.zone[c] == FIELD]
            others = [c for c in cards if self.zone[c] in (HAND, DECK, DISCARD, DEAD, SECRET)]
            if in_field:
                yield from self._leave(in_field, how, cannot_be_saved=bool(e.get("cannot_be_saved")),
                                       position=e.get("position", "top"))
            for c in others:
                if k == "discard" and self.zone[c] != DISCARD:
                    self._move(c, DISCARD)
                elif k == "return_to_hand":
                    self._move(c, HAND)
                elif k == "return_to_deck":
                    self._move(c, DECK, top=e.get("position", "top") != "bottom")
            left = sum(1 for c in in_field if self.zone[c] != FIELD)
            return bool(cards) and left == len(in_field)
        if k == "modify_power":
            n = self._amount(v, p, ctx.src, ctx)
            until = e.get("until", "phase")
            cards = [c for c in self._refs(ctx, e.get("who", "self")) if self.zone[c] == FIELD]
            for c in cards:
                self.pmod[c] = self.pmod.get(c, 0) + n
                self.lasting.append((until, "power", c, n))
            return bool(cards)
        if k == "gain_keyword":
            bit, param = parse_keyword(v)
            until = e.get("until", "phase")
            cards = [c for c in self._refs(ctx, e.get("who", "self")) if self.zone[c] == FIELD]
            for c in cards:
                self.kgrant.setdefault(c, []).append((bit, param, until))
                self.lasting.append((until, "keyword", c, (bit, param)))
            return bool(cards)
        if k in ("place_emblem", "remove_emblem"):
            cards = [c for c in self._refs(ctx, v) if self.zone[c] == FIELD]
            done = 0
            for c in cards:
                if k == "place_emblem":
                    self.emb[c] += 1
                    done += 1
                elif self.emb[c]:
                    self.emb[c] -= 1
                    done += 1
            self._statics_cache = None
            self._check_attachments()
            return bool(cards) and done == len(cards)
        if k == "discard_random":
            q = self._player_of(ctx, e)
            n = self._amount(v, p, ctx.src, ctx)
            hand = self.hand[q]
            m = min(n, len(hand))
            for _ in range(m):
                self._move(hand[int(self.rng.random() * len(hand))], DISCARD)
            return m == n and n > 0
        if k == "discard_from_hand":
            q = self._player_of(ctx, e)
            n = self._amount(v, p, ctx.src, ctx)
            m = 0
            while m < n and self.hand[q]:
                a = yield Decision("discard_choice", q, [("discard", j) for j in self.hand[q]], n - m)
                self._move(a[1], DISCARD)
                m += 1
            return m == n and n > 0
        if k == "mill":
            q = self._player_of(ctx, e)
            n = self._amount(v, p, ctx.src, ctx)
            m = min(n, len(self.deck[q]))
            self._mill(q, n)
            return m == n and n > 0
        if k == "search":
            zname = e.get("zone", "deck")
            z = ZONE_BY_NAME[zname]
            sel = dict(v)
            sel["zone"] = zname
            sel.setdefault("controller", "you")
            count = e.get("count", 1)
            found = 0
            dest = e.get("to", "hand")
            while found < count:
                cands = self._select(sel, p, ctx.src)
                if dest == "field":
                    cands = [c for c in cands if self.can_enter(p, c)]
                if not cands:
                    break
                a = yield Decision("search", p, [("take", c) for c in cands] + [DONE], ctx.src)
                if a == DONE:
                    break
                found += 1
                if dest == "field":
                    self._move(a[1], LIMBO)
                    yield from self._enter(p, a[1], "put")
                else:
                    self._move(a[1], HAND)
            if z == DECK:
                fisher_yates(self.rng, self.deck[p])   # §8.10: the searched deck is shuffled either way
            return found == count
        if k == "put_into_play":
            cards = [c for c in self._refs(ctx, v) if self.zone[c] in (HAND, DECK, DISCARD, DEAD, SECRET)]
            done = 0
            for c in cards:
                owner = self.owner[c]
                sur = self.loyalty_surcharge(owner, self.cdef[c])
                if not self.can_enter(owner, c) or self.pool[owner] < sur:
                    continue
                self._spend(owner, sur)   # §8.6: Loyalty still applies
                self._move(c, LIMBO)
                yield from self._enter(owner, c, "put")
                done += 1
            return bool(cards) and done == len(cards)
        if k == "create_token":
            d = token_def(v)
            iid = len(self.cdef)
            self.cdef.append(d)
            self.owner.append(p)
            self.ctrl.append(p)
            self.zone.append(LIMBO)
            self.limbo.append(iid)
            self.exh.append(0)
            self.emb.append(0)
            self.cnt.append(0)
            self.seen.append(0)
            yield from self._enter(p, iid, "token")
            return True
        if k in ("join_struggle", "remove_from_struggle"):
            s = self.struggle
            if s is None:
                return False
            cards = [c for c in self._refs(ctx, v) if self.zone[c] == FIELD and self.cdef[c].is_unit]
            for c in cards:
                if k == "join_struggle":   # §6.5: no icon, ready state or Subtle check; no exhausting
                    side = s.attackers if self.ctrl[c] == s.attacker else s.defenders
                    if c not in s.attackers and c not in s.defenders:
                        side.append(c)
                else:
                    self._drop_from_struggle(c)
            return bool(cards)
        if k == "save":
            info = ctx.event or {}
            saved = info.get("saved")
            if saved is None:
                return False
            for c in info.get("cards", ()):
                if c not in saved:
                    saved.add(c)
                    if self.logs is not None:
                        self._log(f"§7.3 {self.name(c)} is saved")
                    return True
            return False
        if k == "cancel":
            info = ctx.event or {}
            if "cancelled" in info:
                info["cancelled"] = True
                return True
            return False
        if k == "modify_spoils":
            if self.struggle is None:
                return False
            self.struggle.spoils_mod += self._amount(v, p, ctx.src, ctx)
            return True
        if k == "scout":
            yield from self._scout(p, self._amount(v, p, ctx.src, ctx))
            return True
        if k == "delayed":
            # §8.9: waits for the end of this phase / struggle / round; targets and X stay as chosen now
            at = e.get("at", "phase")
            if at == "struggle" and self.struggle is None:
                return False
            self.delayed.append((at, ctx, v))
            return True
        if k == "become":
            # §2.2: the card functions wholly as the new type for the duration; its printed type is unchanged
            until = e.get("until", "phase")
            cards = [c for c in self._refs(ctx, e.get("who", "self")) if self.zone[c] == FIELD]
            for c in cards:
                new = self._printed(c).as_type(v["type"], v.get("power"), v.get("icons"))
                stack = self.retyped.get(c)
                if stack is None:
                    stack = self.retyped[c] = [self.cdef[c]]   # the printed definition first
                stack.append(new)
                self._set_def(c, new)
                self.lasting.append((until, "type", c, new))
                if self.logs is not None:
                    self._log(f"§2.2 {new.name} functions as a {new.type} until the end of the {until}")
            return bool(cards)
        if k == "take_control":
            cards = [c for c in self._refs(ctx, v) if self.zone[c] == FIELD and self.ctrl[c] != p]
            done = 0
            until = e.get("until")
            for c in cards:
                prev = self.ctrl[c]
                if self._change_control(c, p):
                    done += 1
                    if until is not None:
                        self.lasting.append((until, "control", c, prev))
            return bool(cards) and done == len(cards)
        if k == "script":
            fn = SCRIPTS[v]
            result = fn(self, ctx)
            if hasattr(result, "send"):
                result = yield from result
            return bool(result)
        return False


class PlayerView:
    """What player `player` may know of a game, read-only: the public zones (§3.1: fields, discard piles, dead
    piles, used quests, active quests, faction and destiny cards, counters, emblems, exhaustion, pools,
    Influence), its own hand and secret area, and only the sizes of the opponent's hand, secret area and both
    decks (never a deck's order). Policies receive this instead of the Game.

    The lists it exposes are the game's own (read them, never change them); `cdef` maps every card id to its
    definition because the decklists are known, but which hidden zone a card is in is not: a hidden card's id
    appears in no list of the view and `zone_of` answers -1 for it.

    `determinize(rng)` gives a whole Game consistent with what the player knows, for a search player.
    """

    def __init__(self, g: Game, p: int):
        self._g = g
        self.player = p
        self.opponent = 1 - p
        self.cdef = g.cdef
        self.owner = g.owner
        self.field = g.field
        self.discard = g.discard
        self.dead = g.dead
        self.qused = g.qused
        self.out = g.out
        self.exh = g.exh
        self.emb = g.emb
        self.cnt = g.cnt
        self.ctrl = g.ctrl
        self.pool = g.pool
        self.infl = g.infl
        self.quest = g.quest
        self.faction_iid = g.faction_iid
        self.destiny_iid = g.destiny_iid
        self.goldfish = g.goldfish
        self.has_abilities = g.has_abilities
        self.my_hand = g.hand[p]
        self.my_secret = g.secret[p]
        self.my_deck: Any = g.decks[p]   # the player's own decklist (a Deck), not its order

    # the state of the game --------------------------------------------------
    @property
    def round_no(self) -> int:
        return self._g.round_no

    @property
    def phase(self) -> int:
        return self._g.phase

    @property
    def active(self) -> int:
        return self._g.active

    @property
    def first(self) -> int:
        return self._g.first

    @property
    def authority(self) -> int:
        return self._g.authority

    @property
    def struggle(self) -> Struggle | None:
        return self._g.struggle

    @property
    def struggles_done(self) -> set:
        """The struggle types the active player already initiated this turn (§5.4)."""
        return self._g.struggles_done[self._g.active] if self._g.active >= 0 else set()

    @property
    def n_act(self) -> int:
        """How many of the player's cards could take an action in a window (0: it can only pass)."""
        return self._g.n_act[self.player]

    def hand_count(self, q: int) -> int:
        return len(self._g.hand[q])

    def deck_count(self, q: int) -> int:
        return len(self._g.deck[q])

    def secret_count(self, q: int) -> int:
        return len(self._g.secret[q])

    def quest_deck_count(self, q: int) -> int:
        return len(self._g.qdeck[q])

    def zone_of(self, iid: int) -> int:
        """The zone of a card (the ZONE constants), or -1 for a card in a zone this player cannot see."""
        g = self._g
        z = g.zone[iid]
        if PUBLIC_ZONE[z] or (g.owner[iid] == self.player and z != DECK and z != QDECK):
            return z
        return -1

    # characteristics (public for the cards the player can see) -------------
    def power(self, iid: int) -> int:
        return self._g.power(iid)

    def kw(self, iid: int) -> int:
        return self._g.kw(iid)

    def kw_param(self, iid: int, bit: int) -> int:
        return self._g.kw_param(iid, bit)

    def has_rule(self, iid: int, rule: str) -> bool:
        return self._g.has_rule(iid, rule)

    def rule_active(self, rule: str) -> bool:
        """Whether any static "cannot"/rule ability of that name is in force now (a cheap test before has_rule)."""
        g = self._g
        if not g.has_abilities:
            return False
        if g._statics_cache is None:
            g._statics()
        return rule in g._st_rule_by

    def play_cost(self, p: int, iid: int) -> int:
        return self._g.play_cost(p, iid)

    def loyalty_surcharge(self, p: int, d: CardDef) -> int:
        return self._g.loyalty_surcharge(p, d)

    def quest_stat(self, p: int, stat: str) -> int:
        return self._g.quest_stat(p, stat)

    def authority_total(self, p: int) -> int:
        return self._g.authority_total(p)

    def influence(self, p: int) -> int:
        return self._g.influence(p)

    def struggle_totals(self, s: Struggle) -> tuple[int, int]:
        return self._g.struggle_totals(s)

    def target_candidates(self, sel: Any, src: int, ab: Any, is_deed: bool = False) -> list[int]:
        """The cards an ability of the player's card `src` could target now, without the hidden ones."""
        g = self._g
        p = self.player
        return [j for j in g._target_candidates(sel, p, src, ab, None, is_deed)
                if PUBLIC_ZONE[g.zone[j]] or g.owner[j] == p]

    def state_text(self) -> str:
        """The game's state_text() with the opponent's hand hidden (only its size)."""
        g = self._g
        q = self.opponent
        lines = g.state_text().split("\n")
        hidden = ",".join("?" for _ in g.hand[q])
        lines[1 + q] = lines[1 + q].replace(
            "hand=[" + ",".join(g.cdef[i].code + ("*" if g.exh[i] else "") + ("!" * g.emb[i])
                                for i in g.hand[q]) + "]", "hand=[" + hidden + "]", 1)
        return "\n".join(lines)

    # a search player's sample ------------------------------------------------
    def unseen_groups(self) -> list[list[int]]:
        """The card ids whose identity this player does not know, in groups that may be dealt among themselves:
        its own deck (order only), and the opponent's draw cards in its hand, deck, secret area or facedown
        opening board that have never been in a public zone."""
        g = self._g
        p = self.player
        own = [i for i in g.deck[p]]
        q = 1 - p
        theirs = [i for z in (g.hand[q], g.deck[q], g.secret[q], g.aside[q]) for i in z if not g.seen[i]]
        return [own, theirs]

    def determinize(self, rng: random.Random, tries: int = 20) -> Game:
        """A Game consistent with what this player knows: the cards it has not seen are dealt again at random
        (own deck order; the opponent's unseen hand, secret area and deck, from the opponent's decklist), the
        game's recorded choices are replayed on that deal, and the random events after this point come from
        `rng`. A deal on which a recorded choice is no longer legal is drawn again (`tries` times; then only the
        decks are dealt again, then, as a last resort, the cards stay as they are). The result has no policies
        and no log: drive it with legal_actions / apply_action / clone / returns."""
        g = self._g
        groups = self.unseen_groups()
        base = list(g.card_map) if g.card_map is not None else list(range(len(g.cdef)))
        for attempt in range(tries + 2):
            cards = list(base)
            if attempt < tries + 1:
                if attempt == tries:   # only the decks: a card that was in a hand stays
                    groups = [[i for i in grp if g.zone[i] == DECK] for grp in groups]
                for grp in groups:
                    dealt = list(grp)
                    fisher_yates(rng, dealt)
                    for i, j in zip(grp, dealt):
                        cards[i] = base[j]
            try:
                out = g._replayed(g.history, cards, False)
            except IllegalAction:
                continue
            out.rng.seed(int(rng.random() * 281474976710656))
            return out
        raise AssertionError("unreachable: the cards as they are always replay")
