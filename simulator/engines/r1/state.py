"""The game state of ruleset r1 (§3) and the moves of cards between zones.

Cards are indices ("iids") into per-game tables (`cdef`, `owner`, `ctrl`, `zone`, `exh`, `emb`, `cnt`); each zone
of §3.1 is a list of iids per player (a deck's top is its end). `State` holds all of it, moves cards (`_move`),
keeps the listener counts of the reaction windows in step (`_hook`) and prints the state (`state_text`). The rule
procedures are the layers above it, one module each (docs/engine.md, "How the rules map to code"):
characteristics.py, changes.py, resolution.py, struggles.py, opening.py, phases.py and game.py.
"""
from __future__ import annotations

from typing import Any, Final

import random

from cards.games.r1 import facts
from simulator.engines.common.protocol import IllegalAction
from simulator.engines.common.shuffle import fisher_yates

from .abilities import Ability
from .cards import CardDef, Deck

# r1's facts: §1.1/§12 the Influence that wins, §4 hand size and setup budget, §10.9 secret-placing, §5.2 draws
WIN_INFLUENCE = facts.WIN_INFLUENCE
HAND_SIZE = facts.HAND_SIZE
SETUP_BUDGET = facts.SETUP_BUDGET
SECRET_PLACE_COST = facts.SECRET_PLACE_COST
DRAW_PER_ROUND = facts.DRAWS_PER_ROUND

# Zones (§3.1). FIELD is "in play"; FACTION/DESTINY/QUEST are the permanent slots.
DECK, HAND, FIELD, DISCARD, DEAD, SECRET, QDECK, QUSED, OUT, DUP, FACTION, DESTINY, QUEST, GONE, LIMBO, ASIDE = \
    range(16)
ZONE_NAMES = ("deck", "hand", "field", "discard", "dead", "secret", "quest_deck", "used_quests", "out",
              "duplicate", "faction", "destiny", "active_quest", "gone", "resolving", "aside")
# zones whose cards both players see (§3.1); the others are a hand, a deck, a secret area or a facedown board
PUBLIC_ZONE = bytes(0 if z in (DECK, HAND, SECRET, QDECK, ASIDE) else 1 for z in range(16))
# the zones where a player may not see a card (PlayerView._sees: its own deck; the opponent's hand, deck, secret area
# or facedown board): a move between two other zones changes what nobody sees. As constants the compiled build
# inlines (the names above are looked up in the module)
_Z_DECK: Final = 0
_Z_HAND: Final = 1
_Z_SECRET: Final = 5
_Z_ASIDE: Final = 15
assert (_Z_DECK, _Z_HAND, _Z_SECRET, _Z_ASIDE) == (DECK, HAND, SECRET, ASIDE)
ZONE_BY_NAME = {"field": FIELD, "hand": HAND, "deck": DECK, "discard": DISCARD, "dead": DEAD, "secret": SECRET}

PHASES = facts.PHASES   # §5
QUEST_P, DRAW_P, KINGDOM_P, CONFRONT_P, AUTHORITY_P, REFRESH_P, TOLL_P = range(7)
COMBAT, GUILE, SORCERY, FAITH = range(4)

PASS = ("pass",)
DONE = ("done",)
CONTINUE = ("continue",)
STRUGGLE_COUNTERS = ("initiated", "won", "unopposed", "defended", "won_defending")
YES = ("yes",)
NO = ("no",)


# (source card, its controller, the static ability): one active static ability (§8.1)
StaticEntry = tuple[int, int, Ability]
# A Power static that could apply to a card (Characteristics._power_candidates): source, controller, kind (0 self,
# 1 host, 2 selector), zone, "you" True / "opponent" False / "any" None, remaining selector checks, condition, amount
PowerCand = tuple[int, int, int, int, Any, tuple, Any, Any]


class GameOver(Exception):
    """Raised inside the rules when the game ends (§12); caught by `_run`."""

    def __init__(self, winner, reason):
        super().__init__(reason)
        self.winner = winner
        self.reason = reason


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

    def copy(self) -> "Struggle":
        s = Struggle(self.type, self.attacker)
        s.defender = self.defender
        s.attackers = list(self.attackers)
        s.defenders = list(self.defenders)
        s.declared_attackers = list(self.declared_attackers)
        s.declared_defenders = list(self.declared_defenders)
        s.barred = set(self.barred)
        s.att_total = self.att_total
        s.def_total = self.def_total
        s.winner = self.winner
        s.margin = self.margin
        s.spoils_mod = self.spoils_mod
        s.unopposed = self.unopposed
        return s


class State:
    """The state of one game (§3): the card tables, the zones, the round's progress and what the layers above
    keep of it (caches of the static abilities, listener counts, the recorded history)."""

    def __init__(self, deck_a: Deck, deck_b: Deck | None, *, seed: int, first_player: int | None,
                 max_rounds: int, log: bool, observer: Any, cards: list[int] | None, template: Any = None):
        """`cards`: card id i starts as the card the decks give id cards[i] (a permutation within one owner's
        draw cards; PlayerView.determinize). `template`: a game whose state this one copies (Game.clone; the
        other arguments are then ignored). The other arguments are Game's."""
        if template is None:
            if first_player not in (None, 0, 1):
                raise ValueError("first_player must be 0, 1 or None")
            self.decks = (deck_a, deck_b)
            self.goldfish = deck_b is None
            self.seed = seed
            self.first_arg = first_player
            self.max_rounds = max_rounds
            # the game's random stream (`rng`); a copy holds the stream's state as a tuple instead (`_rng_state`) and
            # makes its Random only if it draws: most copies a search player makes never do
            self._rng: random.Random | None = random.Random(seed)
            self._rng_state: Any = None
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
            self.printed = len(cdef)   # the decks' card ids; tokens made during play (§10) come after them
            n = len(cdef)
            # which cards have been in a public zone (field, discard, dead pile, ...): PlayerView.determinize keeps
            # those as they are and deals the others again
            self.seen = bytearray(n)
            # the card ids whose place, definition or openness changed, in order (a card moved, drawn, milled,
            # revealed, made as a token, its definition swapped by §2.2, shown to its owner by a Scout or a
            # search): a PlayerView brings its card table up to date from the ids logged since it last looked
            self.shown: list[int] = []
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
            self._st_power_prep: list[tuple[int, int, Ability, Any, bool, PowerCand]] | None = None   # _power_statics
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
            # len(history) where the game last stood where a position (CONTRACTS §6) starts it again: the start of
            # a phase or of a turn's window; -1 before round 1 (Game.to_position prints only there)
            self.pos_at = -1
            self._replay: list[Any] | None = None   # while replaying a history (clone, determinize)
            # (choices made, seed): where the random stream was seeded again (Game.reseed), for the replays
            self.reseeds: list[tuple[int, int]] = []
            self._rpos = 0
            # §6.2 counters per player and struggle type, for the struggles that player initiated: initiated, won
            # (as the attacker), unopposed (S.10), defended (the defending player declared at least one defender,
            # S.6); and won_defending, the struggles of that type the player won as the defender
            self._sc = [0] * 40   # (player * 4 + type) * 5 + counter, counters in STRUGGLE_COUNTERS order
            self._round_open = False   # a round is under way whose statistics are not recorded yet (Phases._run)
            self._gen: Any = None   # the rules as a generator (Phases._run), made by Game
            self.pending: Decision | None = None
            self.round1_first = first_player if first_player is not None else 0
            # the policies' shortcuts (Game._set_policies): per player, wants_window(view, p, kind) -> bool, asked
            # before an action window's options are built; ability_filter(view, ability, kind) -> bool; and
            # declare(view, kind, p, eligible, stype) -> list of ids, which answers a whole S.1-S.3 / S.6 declaration
            # at once (the same picks its one-by-one decisions would make)
            self.fast_pass: list[Any] = [None, None]
            self.ability_filter: list[Any] = [None, None]
            self.declare_hook: list[Any] = [None, None]
            # effective Power memo, only while nothing can change: a policy's choice, building window options
            self._pcache: dict | None = None
            # tests: observer(game, what, info) with ("phase_end", phase) before each phase closes, ("toll_done", phase)
            # and ("struggle_end", the Struggle record) at S.13 before "until the end of the struggle" effects expire
            self.observer = observer
            # replays (simulator/replay.py): log_hook(game) right after each line is added to `logs`, so a board can be
            # taken at each logged event; reads only, never changes the game (None: no call)
            self.log_hook: Any = None
            self.policies: list[Any] = [None, None]
            self._views: list[Any] = [None, None]   # each player's PlayerView, made on first use (Game.view)
            # the rest of the game's flow as data (phases.py): a stack of steps (kind, player, start), the next on
            # top; None until the game starts
            self.steps: list[tuple[int, int, int]] | None = None
            # keep_snap: keep the state as it was at the start of the current step (`_snap`, a game that never runs),
            # so that a copy is that state copied plus the choices made since replayed (Game.clone). Off until a
            # game is first copied, so that games nobody copies pay nothing for it.
            self.keep_snap = False
            self._snap: Any = None
            # a copy: the snapshot it was made from (the start of the step it was copied in), from which it can be
            # copied again once it has played past that step without keeping snapshots (Game._snapshot)
            self._base: Any = None

        else:
            # a copy of game `template` (Game.clone): every list, dict and set its own; card definitions, abilities
            # and the caches of static abilities, which are replaced rather than changed, shared. It has no
            # policies, no views, no generator and no pending decision yet; `log`: keep the template's log lines
            # (it must keep a log). Written out here rather than in a method so that the compiled build still sees
            # every attribute set in __init__ (tests/simulator/engines/r1/test_resume.py checks none is missed).
            t: State = template   # typed, so that the compiled build reads its attributes directly
            self.decks = t.decks
            self.goldfish = t.goldfish
            self.seed = t.seed
            self.first_arg = t.first_arg
            self.max_rounds = t.max_rounds
            self._rng = None
            self._rng_state = t._rng.getstate() if t._rng is not None else t._rng_state
            self.logs = list(t.logs) if log else None
            self.faction_iid = list(t.faction_iid)
            self.destiny_iid = list(t.destiny_iid)
            self.deck = [list(t.deck[0]), list(t.deck[1])]
            self.qdeck = [list(t.qdeck[0]), list(t.qdeck[1])]
            self.card_map = t.card_map
            self.cdef = list(t.cdef)
            self.owner = list(t.owner)
            self.printed = t.printed
            self.seen = bytearray(t.seen)
            self.shown = []   # this copy's views are its own, built from nothing
            self.zone = list(t.zone)
            self.ctrl = list(t.ctrl)
            self.exh = list(t.exh)
            self.emb = list(t.emb)
            self.cnt = list(t.cnt)
            self.host = dict(t.host)
            self.dups = {k: list(v) for k, v in t.dups.items()} if t.dups else {}
            self.hand = [list(t.hand[0]), list(t.hand[1])]
            self.field = [list(t.field[0]), list(t.field[1])]
            self.discard = [list(t.discard[0]), list(t.discard[1])]
            self.dead = [list(t.dead[0]), list(t.dead[1])]
            self.secret = [list(t.secret[0]), list(t.secret[1])]
            self.qused = [list(t.qused[0]), list(t.qused[1])]
            self.out = [list(t.out[0]), list(t.out[1])]
            self.limbo = list(t.limbo)
            self.aside = [list(t.aside[0]), list(t.aside[1])]
            self.quest = list(t.quest)
            self.infl = list(t.infl)
            self.pool = list(t.pool)
            self.authority = t.authority
            self.first = t.first
            self.round_no = t.round_no
            self.phase = t.phase
            self.active = t.active
            self.struggle = t.struggle.copy() if t.struggle is not None else None
            self.struggles_done = [set(t.struggles_done[0]), set(t.struggles_done[1])]
            self.start_phase = t.start_phase
            self.start_active = t.start_active
            self.stops = t.stops
            self.origin = t.origin
            self.queued = list(t.queued)
            self.labels = t.labels   # set once, when a position is loaded
            self.restricted_used = list(t.restricted_used)
            self.plays_by_name = [dict(t.plays_by_name[0]), dict(t.plays_by_name[1])]
            self.uses = dict(t.uses)
            self.lasting = list(t.lasting)
            # a delayed effect keeps its resolution's targets and X (§8.9): each copy its own
            self.delayed = [(x[0], x[1].copy(), x[2]) for x in t.delayed] if t.delayed else []
            self.retyped = {k: list(v) for k, v in t.retyped.items()} if t.retyped else {}
            self.pmod = dict(t.pmod)
            self.kgrant = {k: list(v) for k, v in t.kgrant.items()} if t.kgrant else {}
            self._statics_cache = t._statics_cache
            self._st_power = t._st_power
            self._st_grant = t._st_grant
            self._st_grant_mask = t._st_grant_mask
            self._st_rule = t._st_rule
            self._st_cost = t._st_cost
            self._st_player = t._st_player
            self._st_rule_by = t._st_rule_by
            self._pw_cands = dict(t._pw_cands)   # filled card by card
            self._st_power_prep = t._st_power_prep
            self.has_abilities = t.has_abilities
            self.has_replace = t.has_replace
            self.entry_seq = dict(t.entry_seq)
            self._seq = t._seq
            self._replacing = set(t._replacing)
            self.live = dict(t.live)
            self.live_ev = dict(t.live_ev)
            self.n_act = list(t.n_act)
            self.stat_spent = list(t.stat_spent)
            self.stat_played = list(t.stat_played)
            self.stat_won = list(t.stat_won)
            self.by_round = {k: list(v) for k, v in t.by_round.items()}
            self.cards_played = dict(t.cards_played)
            self.winner = t.winner
            self.reason = t.reason
            self.over = t.over
            self.history = list(t.history)
            self.pos_at = t.pos_at
            self._replay = None
            self.reseeds = list(t.reseeds)
            self._rpos = 0
            self._sc = list(t._sc)
            self._round_open = t._round_open
            self._gen = None
            self.pending = None
            self.round1_first = t.round1_first
            self.fast_pass = [None, None]
            self.ability_filter = [None, None]
            self.declare_hook = [None, None]
            self._pcache = None
            self.observer = t.observer
            self.log_hook = None
            self.policies = [None, None]
            self._views = [None, None]
            self.steps = list(t.steps) if t.steps is not None else None
            self.keep_snap = False
            self._snap = None
            self._base = None

    @property
    def rng(self) -> random.Random:
        """The game's random stream (a copy makes it from the state it was given on first use)."""
        r = self._rng
        if r is None:
            r = random.Random.__new__(random.Random)
            r.setstate(self._rng_state)
            self._rng = r
            self._rng_state = None
        return r

    def _take_snapshot(self, log: bool = True) -> Any:
        """A copy of the state now (with the log lines when `log` and this game keeps them), for the copies made
        later in this step (Game)."""
        raise NotImplementedError

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

    def view(self, p: int) -> Any:
        """Player p's PlayerView (Game.view; the windows and declarations below ask for it)."""
        raise NotImplementedError

    def players(self):
        """Players in first-player order, without the goldfish (which never acts)."""
        f = self.first
        if self.goldfish:
            return (0,)
        return (f, 1 - f)

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

    def _log(self, msg: str) -> None:
        self.logs.append(f"R{self.round_no} {msg}")
        if self.log_hook is not None:
            self.log_hook(self)

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
        if oz <= _Z_HAND or z <= _Z_HAND or oz == _Z_SECRET or z == _Z_SECRET or oz == _Z_ASIDE or z == _Z_ASIDE:
            self.shown.append(iid)   # a player's view may see it now, or no longer
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
