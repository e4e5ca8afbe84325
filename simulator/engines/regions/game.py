"""The rules of Heroes and Regions (003) as a state machine: every decision a player makes is an action.

The state is plain lists and ints (zones hold `CardDef`s), so `clone()` copies lists and never replays history.
`_run()` advances the rules until a decision waits (`pending`) or the game is over. Policies answer decisions
through `apply_action`; `play()` is the fast loop that hands each decision to its player's `act(view, decision)`
(the player's `PlayerView`, never the game) and applies the answer without re-listing the options (the same rule
functions either way). The rules live in layers of module-level functions taking the game: `effects` (jobs,
abilities, effects), `market` (paying and buying), `cleanup` (Damage & Clean Up, Quests, scoring), `texts`.

Turn order (003 §3-§4): Hero, Purchase, Position, Contest, each played by every player in Priority order before the
next starts, then Damage & Clean Up; Priority passes to the next player every turn.
"""
from __future__ import annotations

import base64
import random
import struct

from simulator.engines.common.protocol import IllegalAction
from simulator.engines.common.shuffle import fisher_yates

from .cards import (
    CITIZEN, CONTEST, E_TRASH, HERO, PURCHASE, STRUCTURE, SUPPLIES, TACTIC, TYPE_NAMES, CardDef, CardSet, HeroDef,
)
from . import effects, market, cleanup, texts
from .view import PlayerView

# the engine's vocabulary lives in state.py; policies, positions, replays and tests also read it from here
from .state import (  # noqa: F401
    CLEANUP, OVER, ST_START, ST_WINDOW, ST_POCKET, ST_CAPACITY, N_REGIONS, N_MARKET_PILES, N_STANDING, A_DONE,
    A_BUY, A_STASH, A_TAKE, A_PLAY, A_USE, A_PLACE, A_TARGET, A_REGION, A_YES, A_NO, A_TRASH, A_KEEP, DONE, YES, NO,
    KEEP, J_AB, J_EFF, J_PAY, J_STACK, J_REVEAL, WINDOW_KINDS, CHOICE_KINDS, PHASE_KEYS, STEP_KEYS, IllegalAction,
    _KINDS, fisher_yates, Decision, _norm, _distinct, _card_index, _codes, _job_json, _pending_json,
)


class Game:
    """One game of Heroes and Regions for 2-4 players.

    >>> cs = CardSet.default()
    >>> g = Game(cs, ["Corin Vale", "Asha Thorne"], seed=7)
    >>> g.pending.kind, g.pending.player in (0, 1)
    ('hero', True)
    >>> while not g.is_terminal(): g.apply_action(g.legal_actions()[-1])   # always "done"
    >>> g.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    True
    """

    __slots__ = (
        "cs", "heroes", "n", "seed", "rng", "logs", "max_turns", "turn", "prio", "order", "phase", "ai", "step",
        "cu_r", "deck", "hand", "discard", "pocket", "played", "stacks", "known_top", "bank", "rbank", "spent",
        "bought", "fresh", "might", "level", "ctrl", "mpiles", "mdeck", "mdiscard", "rec_pile", "rec_owned", "owned", "owned_t",
        "n_ab", "jobs", "skip",
        "pending", "over", "winners", "reason", "first_player", "stat_score", "stat_presence", "stat_control",
        "stat_rec", "stat_bought", "history", "regions", "standing", "rng_shared", "ending", "_views",
    )

    def __init__(self, cardset: CardSet, heroes: list, *, seed: int, first_player: int | None = None,
                 max_turns: int = 60, log: bool = False, autostart: bool = True, _blank: bool = False):
        if not 2 <= len(heroes) <= 4:
            raise ValueError("Heroes and Regions is played by 2 to 4 players (003 §2)")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError("seed must be an int")
        n = len(heroes)
        if first_player is not None and not (isinstance(first_player, int) and 0 <= first_player < n):
            raise ValueError(f"first_player must be a player index 0..{n - 1} or None")
        self.cs = cardset
        # two players may play the same Hero (a mirror match: each has its own copy of the starting deck)
        self.heroes: list[HeroDef] = [cardset.hero(h) for h in heroes]
        self.n = n
        self.seed = seed
        self.skip: list | None = None
        self._views: list[PlayerView] | None = None   # one per player, made when first asked for
        if _blank:      # clone() and positions fill in every other field themselves
            return
        self.rng = random.Random(seed)
        self.rng_shared = False        # clone() shares the generator until one of the two games draws from it
        self.logs: list | None = [] if log else None
        self.max_turns = max_turns
        self.regions = cardset.regions
        self.standing = cardset.standing
        self.turn = 0
        self.prio = 0
        self.order: list[int] = list(range(n))
        self.phase = HERO
        self.ai = 0
        self.step = ST_START
        self.cu_r = 0
        self.deck: list[list[CardDef]] = [[] for _ in range(n)]
        self.hand: list[list[CardDef]] = [[] for _ in range(n)]
        self.discard: list[list[CardDef]] = [[] for _ in range(n)]
        self.pocket: list[list[CardDef]] = [[] for _ in range(n)]
        self.played: list[list[CardDef]] = [[] for _ in range(n)]
        self.stacks: list[list[list[CardDef]]] = [[[] for _ in range(N_REGIONS)] for _ in range(n)]
        self.known_top = [0] * n       # top cards of each Deck everyone knows (Recognition paid onto it, 003 §4.1)
        self.bank = [0] * n
        self.rbank: list[list[int]] = [[0] * 5 for _ in range(n)]   # restricted Goods by card type (003 §6.5)
        self.spent = [0] * n
        self.bought = [0] * n
        # the cards bought in this Purchase phase still in the Pocket: the only ones its end may move (003 §4.2)
        self.fresh: list[list[CardDef]] = [[] for _ in range(n)]
        self.might: list[list[int]] = [[0] * N_REGIONS for _ in range(n)]
        self.level = [0] * n
        self.ctrl = [-1] * N_REGIONS
        self.mpiles: list[list[CardDef]] = [[] for _ in range(N_MARKET_PILES)]   # top card last
        self.mdeck: list[CardDef] = []
        self.mdiscard: list[CardDef] = []
        self.rec_pile = cardset.recognition_total
        self.ending = False            # the Recognition pile has run out: this turn is the last (003 §8.3, §9.1)
        self.rec_owned = [0] * n
        self.owned: list[list[int]] = [[0] * len(cardset.cards) for _ in range(n)]   # cards each player owns
        self.owned_t: list[list[int]] = [[0] * 5 for _ in range(n)]                  # ... by type
        # per player and phase, the cards in its Stacks with a Stack ability of that phase (skips empty work)
        self.n_ab: list[list[int]] = [[0, 0, 0, 0] for _ in range(n)]
        self.jobs: list[tuple] = []
        self.pending: Decision | None = None
        self.over = False
        self.winners: list[int] = []
        self.reason: str | None = None
        self.first_player = 0
        self.stat_score: list[list[int]] = []      # per turn, each player's Recognition total (003 §9)
        self.stat_presence: list[list[int]] = []
        self.stat_control: list[list[int]] = []
        self.stat_rec: list[list[int]] = []        # Recognition cards owned
        self.stat_bought: list[dict[str, int]] = [{} for _ in range(n)]
        self.history: list = []
        # play(): per player, a policy's skip(game, kind, player) -> True when it would answer "done" to that
        # window (asked before the window is opened, so a policy that will not act costs no decision)
        self._setup(first_player)
        if autostart:
            self._run()

    # ------------------------------------------------------------------ setup (003 §2)
    def _setup(self, first_player: int | None) -> None:
        rng = self.rng
        for p, hero in enumerate(self.heroes):
            deck = list(hero.deck)                 # 003 §2.2: the 8 cards marked with the Hero's portrait
            fisher_yates(rng, deck)
            self.deck[p] = deck
            self.pocket[p].append(self.cs.goods_card)   # 003 §2.3: one Goods as the Pocket Card
            for c in deck:
                effects.gain(self, p, c)
            effects.gain(self, p, self.cs.goods_card)
        mdeck = list(self.cs.market_deck)
        fisher_yates(rng, mdeck)                   # 003 §2.5
        self.mdeck = mdeck
        for pile in self.mpiles:
            if mdeck:
                pile.append(mdeck.pop())
        if first_player is None:                   # 003 §2.6: highest roll of one die, re-rolling ties
            rolling = list(range(self.n))
            while len(rolling) > 1:
                rolls = [int(rng.random() * 6) + 1 for _ in rolling]
                best = max(rolls)
                rolling = [p for p, r in zip(rolling, rolls) if r == best]
            first_player = rolling[0]
        self.first_player = first_player
        self.prio = first_player
        if self.logs is not None:
            self._log(f"003 §2: {', '.join(f'p{p} {h.name}' for p, h in enumerate(self.heroes))}; "
                      f"p{first_player} has Priority on the first turn")
        self._begin_turn(first=True)

    def _begin_turn(self, first: bool = False) -> None:
        if not first:
            self.prio = (self.prio + 1) % self.n   # 003 §2.6: Priority alternates every turn
        self.turn += 1
        if self.turn > self.max_turns:
            self.turn -= 1
            cleanup.finish(self, "turn_limit")
            return
        n = self.n
        self.order = [(self.prio + k) % n for k in range(n)]
        self.phase = HERO
        self.ai = 0
        self.step = ST_START

    def _log(self, text: str, p: int | None = None) -> None:
        if self.logs is not None:
            phase = PHASE_KEYS[self.phase].title() if self.phase < OVER else "End"
            who = f" p{p}" if p is not None else ""
            self.logs.append(f"T{self.turn} {phase}{who} {text}")

    # ------------------------------------------------------------------ the loop
    def _run(self) -> None:
        jobs = self.jobs
        order = self.order
        while True:
            while jobs:
                if effects.do_job(self, jobs.pop()):
                    return
            if self.over:
                self.pending = None
                return
            phase = self.phase
            if phase == CLEANUP:
                cleanup.cleanup_step(self)
                order = self.order
                continue
            ai = self.ai
            if ai >= self.n:
                self._end_phase()
                continue
            p = order[ai]
            step = self.step
            if step == ST_START:
                self.step = ST_WINDOW
                self._start_player_phase(p)
                continue
            kind = _KINDS[phase][step]
            if not self._window_open(kind, p):
                self._window_done(p)               # only "done" is possible: taken by itself
                continue
            skip = self.skip
            if skip is not None:
                hook = skip[p]
                if hook is not None and hook(self.view(p), kind, p):
                    self._window_done(p)           # the player's policy would answer "done"
                    continue
            self.pending = Decision(self, kind, p)
            return

    def _window_open(self, kind: str, p: int) -> bool:
        """Whether the window has an option besides "done" (a window with only "done" is skipped)."""
        if kind == "purchase" or kind == "capacity":
            return True
        if kind == "hero":
            return bool(self.hand[p]) or len(self.pocket[p]) > 1
        if kind == "pocket":
            return len(self.pocket[p]) > 1 and bool(self.fresh[p])
        hand = self.hand[p]
        if kind == "position":
            for c in hand:
                if c.type == CITIZEN or c.type == STRUCTURE:
                    return True
            return False
        for c in hand:   # contest
            if c.type == TACTIC or (c.hand_ab[CONTEST] and market.usable(self, p, c, CONTEST)):
                return True
        return False

    def _start_player_phase(self, p: int) -> None:
        phase = self.phase
        jobs = self.jobs
        if phase == HERO:
            hero = self.heroes[p]
            todo: list[tuple] = []
            for lv in range(self.level[p] + 1):   # 003 §4.1: Skill Tree from Level 0 up to the current Level
                for ab in hero.hero_ab[lv]:
                    if ab.may or ab.req >= 0:
                        todo.append((J_AB, p, -1, ab))
                    else:
                        for e in ab.effects:
                            todo.append((J_EFF, p, -1, e[0], e[1], e[2]))
            if p in self.ctrl:
                todo.append((J_PAY, p))            # then each controlled Region pays one Recognition
            if self._has_stack_ab(p, HERO):
                todo.append((J_STACK, p, HERO))    # then Hero abilities in your Stacks
            todo.reverse()
            jobs.extend(todo)
            return
        if phase == PURCHASE:
            self.spent[p] = 0
            self.bought[p] = 0
            if self.fresh[p]:
                self.fresh[p] = []
        # 003 §4.2-§4.4: the exposed (and white-box) abilities of the phase in your Stacks come first
        if self._has_stack_ab(p, phase):
            jobs.append((J_STACK, p, phase))

    def _has_stack_ab(self, p: int, phase: int) -> bool:
        if self.n_ab[p][phase]:
            return True
        ctrl = self.ctrl
        for r in self.cs.reward_regions[phase]:
            if ctrl[r] == p:
                return True
        return False

    def _end_phase(self) -> None:
        phase = self.phase
        cleanup.check_quests(self, phase)                  # 003 §5.4: Quests are checked in the phase they name
        if phase == CONTEST:
            self.phase = CLEANUP
            self.cu_r = 0
            return
        self.phase = phase + 1
        self.ai = 0
        self.step = ST_START

    def _window_done(self, p: int) -> None:
        phase = self.phase
        if phase == PURCHASE:
            step = self.step
            if step == ST_WINDOW:
                self.step = ST_POCKET          # 003 §4.2: before the phase ends, move purchases into your Hand
                return
            if step == ST_POCKET and len(self.pocket[p]) > market.pocket_capacity(self, p):
                self.step = ST_CAPACITY        # capacity is checked only at the end of the phase
                return
            if self.fresh[p]:
                self.fresh[p] = []             # once the phase ends they are Pocket cards like any other
            self.bank[p] = 0                   # Goods in the bank last for the rest of the Purchase phase
            rb = self.rbank[p]
            for t in range(5):
                rb[t] = 0
        self.ai += 1
        self.step = ST_START

    def _own_rng(self) -> random.Random:
        """The game's generator, copied first if a clone still shares it (so neither game moves the other's)."""
        if self.rng_shared:
            rng = random.Random(0)
            rng.setstate(self.rng.getstate())
            self.rng = rng
            self.rng_shared = False
        return self.rng

    @staticmethod
    def _has_restricted(hand: list, ctype: int) -> bool:
        for c in hand:
            if c.plain and c.only == ctype:
                return True
        return False

    # ------------------------------------------------------------------ public API (OpenSpiel shape)
    def current_player(self) -> int:
        """The player who must decide now (-1 when the game is over)."""
        return self.pending.player if self.pending is not None else -1

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        """+1 for the sole winner and -1 for the others; a shared win gives 0 to the tied players."""
        if not self.over:
            return [0.0] * self.n
        if len(self.winners) == 1:
            return [1.0 if p == self.winners[0] else -1.0 for p in range(self.n)]
        return [0.0 if p in self.winners else -1.0 for p in range(self.n)]

    @property
    def winner(self) -> int | None:
        return self.winners[0] if self.over and len(self.winners) == 1 else None

    def legal_actions(self) -> list:
        """The options of the pending decision (empty when the game is over)."""
        return list(self.pending.options) if self.pending is not None else []

    def apply_action(self, action) -> None:
        """Resolve the pending decision with `action` (an option or its printed text) and run the rules up to the
        next decision. An action that is not an option raises IllegalAction and changes nothing."""
        if self.pending is None:
            raise IllegalAction("the game is over")
        if isinstance(action, str):
            action = texts.parse_action(self, action)
        elif isinstance(action, list):
            action = tuple(action)
        if isinstance(action, tuple) and len(action) > 2 and action[0] == A_TAKE:
            texts.check_take_many(self, action)
        elif action not in self.pending.options:
            raise IllegalAction(f"{action!r} is not an option of the {self.pending.kind} decision of player "
                                f"{self.pending.player}; options: "
                                + ", ".join(texts.action_text(self, a) for a in self.pending.options))
        self.history.append(action)
        self._apply(action)

    def play(self, actors: list, skips: list | None = None) -> None:
        """The fast loop: each decision goes to `actors[player](view, decision)` (the player's view, never the
        game), whose answer is applied as it stands (trusted: the same rule functions as apply_action, without
        listing the options). `skips[player]`, when given, is asked (with the view) before a window opens whether
        that player would only answer "done"."""
        if skips is not None:
            self.skip = skips
            d = self.pending
            if d is not None and d.kind in WINDOW_KINDS and skips[d.player] is not None and \
                    skips[d.player](self.view(d.player), d.kind, d.player):
                self.pending = None
                self._window_done(d.player)
                self._run()
        apply = self._apply
        try:
            while self.pending is not None:
                d = self.pending
                assert d is not None
                apply(actors[d.player](self.view(d.player), d))
        finally:
            self.skip = None

    def _apply(self, a: tuple) -> None:
        d = self.pending
        assert d is not None
        p = d.player
        self.pending = None
        code = a[0]
        logs = self.logs
        if code == A_BUY:
            market.buy(self, p, a[1])
            self.pending = Decision(self, "purchase", p)   # the window stays open: nothing else to run
            return
        if code == A_TAKE:
            cards = self.cs.cards
            pocket = self.pocket[p]
            hand = self.hand[p]
            fresh = self.fresh[p]
            for i in range(1, len(a)):     # one card, or several listed in one action
                card = cards[a[i]]
                pocket.remove(card)
                hand.append(card)
                if card in fresh:
                    fresh.remove(card)
                if logs is not None:
                    self._log(f"takes {card.name} from the Pocket into the Hand", p)
            kind = d.kind
            if kind == "capacity":
                if len(self.pocket[p]) <= market.pocket_capacity(self, p):
                    self._window_done(p)
            elif self._window_open(kind, p):
                self.pending = Decision(self, kind, p)
                return
        elif code == A_DONE:
            self._window_done(p)
        elif code == A_PLACE:
            card = self.cs.cards[a[1]]
            r = a[2]
            self.hand[p].remove(card)              # 003 §4.3: placement is final
            self.stacks[p][r].append(card)
            if card.has_stack_ab:
                for ph in card.ab_phases:
                    self.n_ab[p][ph] += 1
            if logs is not None:
                self._log(f"003 §5.3: places {card.name} at {self.regions[r].short}", p)
            if card.reveal:
                self.jobs.append((J_REVEAL, p, r, card))
            elif self._window_open(d.kind, p):
                self.pending = Decision(self, d.kind, p)   # the same window, nothing else to run
                return
        elif code == A_STASH:
            card = self.cs.cards[a[1]]
            self.hand[p].remove(card)
            self.pocket[p].append(card)
            if logs is not None:
                self._log(f"003 §4.1: moves {card.name} from the Hand to the Pocket", p)
            self.pending = Decision(self, "hero", p)
            return
        elif code == A_PLAY:
            card = self.cs.cards[a[1]]
            self.hand[p].remove(card)
            self.played[p].append(card)
            if card.only < 0:
                self.bank[p] += card.goods
            else:
                self.rbank[p][card.only] += card.goods
            if logs is not None:
                self._log(f"003 §8.4: plays {card.name} for {card.goods} Goods", p)
        elif code == A_USE:
            card = self.cs.cards[a[1]]
            phase = PURCHASE if d.kind == "purchase" else CONTEST
            ab = card.hand_ab[phase][a[2]]
            self.hand[p].remove(card)
            if ab.cost == "trash":                 # 003 §6.3: Trash me leaves your deck for good
                effects.trash(self, p, card)
            else:
                self.discard[p].append(card)
            if logs is not None:
                self._log(f"003 §6.3: {'trashes' if ab.cost == 'trash' else 'discards'} {card.name} for its "
                          f"ability", p)
            self.jobs.append((J_AB, p, -1, ab))
        elif code == A_TARGET:
            amount = d.info[0]
            effects.strike(self, a[1], a[2], a[3], amount, p)
        elif code == A_REGION:
            self.might[p][a[1]] += d.info
            if logs is not None:
                self._log(f"+{d.info} Damage at {self.regions[a[1]].short} this turn", p)
        elif code == A_YES:
            r, ab = d.info
            effects.push_effects(self, p, r, ab)
        elif code == A_NO:
            pass
        elif code == A_TRASH:
            card = self.cs.cards[a[1]]
            self.hand[p].remove(card)
            effects.trash(self, p, card)
            if logs is not None:
                self._log(f"003 §8.2: trashes {card.name} from the Hand", p)
            if d.info > 1:
                self.jobs.append((J_EFF, p, -1, E_TRASH, d.info - 1, -1))
        elif code == A_KEEP:
            pass
        else:  # pragma: no cover - parse_action and the options only make known actions
            raise IllegalAction(f"unknown action {a!r}")
        self._run()

    def _options(self, d: Decision) -> list:
        kind = d.kind
        p = d.player
        if kind == "target":
            amount, r, where = d.info
            return [(A_TARGET, q, rr, i) for q, rr, i in effects.strike_targets(self, p, r, where)]
        if kind == "region":
            return [(A_REGION, r) for r in range(N_REGIONS) if self.stacks[p][r]]
        if kind == "may":
            return [YES, NO]
        if kind == "trash":
            return [(A_TRASH, c.index) for c in _distinct(self.hand[p])] + [KEEP]
        out: list[tuple] = []
        hand = self.hand[p]
        if kind == "hero":
            out = [(A_STASH, c.index) for c in _distinct(hand)]
            if len(self.pocket[p]) > 1:
                out += [(A_TAKE, c.index) for c in _distinct(self.pocket[p])]
            return out + [DONE]
        if kind == "purchase":
            out = market.buy_options(self, p)
            for c in _distinct(hand):
                if c.type == SUPPLIES and not c.plain:
                    out.append((A_PLAY, c.index))
            for c in _distinct(hand):
                for k, ab in enumerate(c.hand_ab[PURCHASE]):
                    if ab.req < 0 or effects.req_count(self, p, ab.req) >= ab.req_n:
                        out.append((A_USE, c.index, k))
            return out + [DONE]
        if kind == "pocket":
            # 003 §4.2: before the phase ends, the cards bought in it may move into the Hand; the others wait
            # for the next Hero phase (§4.1)
            if len(self.pocket[p]) > 1:
                out = [(A_TAKE, c.index) for c in _distinct(self.fresh[p])]
            return out + [DONE]
        if kind == "capacity":
            # over capacity, any card may go (the Pocket may have shrunk since the Hero phase)
            if len(self.pocket[p]) > 1:
                out = [(A_TAKE, c.index) for c in _distinct(self.pocket[p])]
            return out
        if kind == "position":
            for c in _distinct(hand):
                if c.type == CITIZEN or c.type == STRUCTURE:
                    out += [(A_PLACE, c.index, r) for r in range(N_REGIONS)]
            return out + [DONE]
        # contest
        for c in _distinct(hand):
            if c.type == TACTIC:
                out += [(A_PLACE, c.index, r) for r in range(N_REGIONS)]
        for c in _distinct(hand):
            for k, ab in enumerate(c.hand_ab[CONTEST]):
                if ab.req < 0 or effects.req_count(self, p, ab.req) >= ab.req_n:
                    out.append((A_USE, c.index, k))
        return out + [DONE]

    # ------------------------------------------------------------------ copies, views, positions
    def clone(self) -> "Game":
        """An independent copy of the state (lists copied, card definitions shared; no replay)."""
        g = Game(self.cs, self.heroes, seed=self.seed, _blank=True)
        g.heroes = self.heroes
        # the generator is shared, copy-on-draw: copying its state costs more than the rest of the clone, and most
        # clones (a search's playouts) never shuffle; the first of the two games to draw takes a copy
        g.rng = self.rng
        g.rng_shared = True
        self.rng_shared = True
        g.logs = list(self.logs) if self.logs is not None else None
        g.max_turns = self.max_turns
        g.regions = self.regions
        g.standing = self.standing
        g.turn = self.turn
        g.prio = self.prio
        g.order = list(self.order)
        g.phase = self.phase
        g.ai = self.ai
        g.step = self.step
        g.cu_r = self.cu_r
        g.deck = [list(x) for x in self.deck]
        g.hand = [list(x) for x in self.hand]
        g.discard = [list(x) for x in self.discard]
        g.pocket = [list(x) for x in self.pocket]
        g.played = [list(x) for x in self.played]
        g.stacks = [[list(s) for s in ss] for ss in self.stacks]
        g.known_top = list(self.known_top)
        g.bank = list(self.bank)
        g.rbank = [list(x) for x in self.rbank]
        g.spent = list(self.spent)
        g.bought = list(self.bought)
        g.fresh = [list(x) for x in self.fresh]
        g.might = [list(x) for x in self.might]
        g.level = list(self.level)
        g.ctrl = list(self.ctrl)
        g.mpiles = [list(x) for x in self.mpiles]
        g.mdeck = list(self.mdeck)
        g.mdiscard = list(self.mdiscard)
        g.rec_pile = self.rec_pile
        g.ending = self.ending
        g.rec_owned = list(self.rec_owned)
        g.owned = [list(x) for x in self.owned]
        g.owned_t = [list(x) for x in self.owned_t]
        g.n_ab = [list(x) for x in self.n_ab]
        g.jobs = list(self.jobs)
        g.over = self.over
        g.winners = list(self.winners)
        g.reason = self.reason
        g.first_player = self.first_player
        g.stat_score = [list(x) for x in self.stat_score]
        g.stat_presence = [list(x) for x in self.stat_presence]
        g.stat_control = [list(x) for x in self.stat_control]
        g.stat_rec = [list(x) for x in self.stat_rec]
        g.stat_bought = [dict(x) for x in self.stat_bought]
        g.history = list(self.history)
        d = self.pending
        assert d is not None
        g.pending = Decision(g, d.kind, d.player, d.info) if d is not None else None
        return g

    def view(self, player: int) -> PlayerView:
        """What `player` may know (its own Hand and Pocket, counts of the rest, the public board): the one view
        of this game for that player, which policies decide from."""
        views = self._views
        if views is None:
            views = self._views = [PlayerView(self, q) for q in range(self.n)]
        return views[player]

    def to_position(self, *, rng_state: bool = True) -> dict:
        """The state as JSON (docs/games/regions.md, "Positions"): load it back with `Game.from_position`.
        With `rng_state`, the random generator's state too, so the loaded game continues identically."""
        codes = _codes
        players = []
        for p in range(self.n):
            players.append({
                "hero": self.heroes[p].code, "level": self.level[p],
                "deck": codes(self.deck[p][::-1]), "known_top": self.known_top[p],
                "hand": codes(self.hand[p]), "pocket": codes(self.pocket[p]),
                "discard": codes(self.discard[p]), "played": codes(self.played[p]),
                "stacks": {self.regions[r].code: codes(self.stacks[p][r]) for r in range(N_REGIONS)},
                "bank": self.bank[p],
                "restricted": {TYPE_NAMES[t]: v for t, v in enumerate(self.rbank[p]) if v},
                "might": {self.regions[r].code: v for r, v in enumerate(self.might[p]) if v},
                "spent": self.spent[p], "bought": self.bought[p], "purchased": codes(self.fresh[p]),
            })
        pos: dict = {
            "game": "regions", "set": self.cs.code, "seed": self.seed, "turn": self.turn, "max_turns": self.max_turns,
            "priority": self.prio, "first_player": self.first_player, "phase": PHASE_KEYS[self.phase],
            "actor": self.ai, "step": STEP_KEYS[self.step], "cleanup_region": self.cu_r,
            "recognition_pile": self.rec_pile, "ending": self.ending,
            "market_deck": codes(self.mdeck[::-1]), "market_piles": [codes(x[::-1]) for x in self.mpiles],
            "market_discard": codes(self.mdiscard),
            "control": {self.regions[r].code: (c if c >= 0 else None) for r, c in enumerate(self.ctrl)},
            "players": players,
            "jobs": [_job_json(self, j) for j in self.jobs],
            "pending": _pending_json(self.pending),
        }
        if self.over:
            pos["result"] = {"winners": self.winners, "reason": self.reason}
        if rng_state:
            version, internal, gauss = self.rng.getstate()
            pos["rng"] = base64.b64encode(struct.pack(f"<{len(internal)}I", *internal)).decode()
        return pos

    @classmethod
    def from_position(cls, pos: dict, cardset: CardSet | None = None, *, log: bool = False) -> "Game":
        """Load a position printed by `to_position` (or written by hand: see docs/games/regions.md).
        Raises PositionError naming the player, zone and card of anything it cannot load."""
        from .position import load_position
        return load_position(cls, pos, cardset or CardSet.default(), log=log)

    # ---- the questions policies, views and positions ask (each answered by its layer) -----------------
    def pocket_capacity(self, p: int) -> int:
        return market.pocket_capacity(self, p)

    def goods_for(self, p: int, ctype: int) -> int:
        return market.goods_for(self, p, ctype)

    def buy_options(self, p: int) -> list[tuple]:
        return market.buy_options(self, p)

    def stack_damage(self, p: int, r: int) -> int:
        return cleanup.stack_damage(self, p, r)

    def score_parts(self, p: int) -> dict:
        return cleanup.score_parts(self, p)

    def score(self, p: int) -> int:
        return cleanup.score(self, p)

    def tiebreak_key(self, p: int) -> tuple:
        return cleanup.tiebreak_key(self, p)

    def action_text(self, a: tuple) -> str:
        return texts.action_text(self, a)

    def parse_action(self, text: str) -> tuple:
        return texts.parse_action(self, text)

    def state_text(self) -> str:
        return texts.state_text(self)

