"""The rules of Heroes and Regions (003) as a state machine: every decision a player makes is an action.

The state is plain lists and ints (zones hold `CardDef`s), so `clone()` copies lists and never replays history.
`_run()` advances the rules until a decision waits (`pending`) or the game is over. Policies answer decisions
through `apply_action`; `play()` is the fast loop that hands each decision to its player's `act(game, decision)`
and applies the answer without re-listing the options (the same rule functions either way).

Turn order (003 §3-§4): Hero, Purchase, Position, Contest, each played by every player in Priority order before the
next starts, then Damage & Clean Up; Priority passes to the next player every turn.
"""
from __future__ import annotations

import base64
import random
import struct
from typing import Any

from simulator.engines.common.protocol import IllegalAction
from simulator.engines.common.shuffle import fisher_yates

from .cards import (
    CITIZEN, CONTEST, E_DRAW, E_GOODS, E_MIGHT, E_RECOGNITION, E_STRIKE, E_TRASH, HERO, PHASE_NAMES, POSITION,
    PURCHASE, RECOGNITION, STRUCTURE, SUPPLIES, TACTIC, TYPE_NAMES, W_ALL, W_ANY, W_CHOOSE, W_HERE, Ability, CardDef,
    CardSet, HeroDef,
)

CLEANUP, OVER = 4, 5
ST_START, ST_WINDOW, ST_POCKET, ST_CAPACITY = range(4)
N_REGIONS = 5
N_MARKET_PILES = 4          # 003 §1.1: four Market Piles
N_STANDING = 6

# actions (internal form: small tuples; `action_text` prints them, `parse_action` reads them back)
A_DONE, A_BUY, A_STASH, A_TAKE, A_PLAY, A_USE, A_PLACE, A_TARGET, A_REGION, A_YES, A_NO, A_TRASH, A_KEEP = range(13)
DONE = (A_DONE,)
YES = (A_YES,)
NO = (A_NO,)
KEEP = (A_KEEP,)

# jobs: the rules' pending work, a stack (the last one runs next)
J_AB, J_EFF, J_PAY, J_STACK, J_REVEAL = range(5)

WINDOW_KINDS = ("hero", "purchase", "pocket", "capacity", "position", "contest")
CHOICE_KINDS = ("target", "region", "may", "trash")
PHASE_KEYS = ("hero", "purchase", "position", "contest", "cleanup", "over")
STEP_KEYS = ("start", "window", "pocket", "capacity")


# the window of each phase and step (ST_WINDOW, ST_POCKET, ST_CAPACITY)
_KINDS = (("hero", "hero", "hero", "hero"), ("purchase", "purchase", "pocket", "capacity"),
          ("position", "position", "position", "position"), ("contest", "contest", "contest", "contest"))


class Decision:
    """The decision waiting for `player`: its `kind` (a window or a choice), `info` and its `options` (listed on
    first use: the fast loop never needs them)."""

    __slots__ = ("kind", "player", "info", "_game", "_options")

    def __init__(self, game: "Game", kind: str, player: int, info: Any = None):
        self._game = game
        self.kind = kind
        self.player = player
        self.info = info
        self._options: list | None = None

    @property
    def options(self) -> list:
        opts = self._options
        if opts is None:
            opts = self._options = self._game._options(self)
        return opts

    def __repr__(self) -> str:
        return f"Decision({self.kind}, p{self.player})"


def _norm(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").replace("\u2018", "'").lower().split())


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
        "bought", "might", "level", "ctrl", "mpiles", "mdeck", "mdiscard", "rec_pile", "rec_owned", "owned", "owned_t",
        "n_ab", "jobs", "skip",
        "pending", "over", "winners", "reason", "first_player", "stat_score", "stat_presence", "stat_control",
        "stat_rec", "stat_bought", "history", "regions", "standing", "rng_shared",
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
        self.might: list[list[int]] = [[0] * N_REGIONS for _ in range(n)]
        self.level = [0] * n
        self.ctrl = [-1] * N_REGIONS
        self.mpiles: list[list[CardDef]] = [[] for _ in range(N_MARKET_PILES)]   # top card last
        self.mdeck: list[CardDef] = []
        self.mdiscard: list[CardDef] = []
        self.rec_pile = cardset.recognition_total
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
                self._gain(p, c)
            self._gain(p, self.cs.goods_card)
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
            self._finish("turn_limit")
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
        do_job = self._do_job
        order = self.order
        while True:
            while jobs:
                if do_job(jobs.pop()):
                    return
            if self.over:
                self.pending = None
                return
            phase = self.phase
            if phase == CLEANUP:
                self._cleanup_step()
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
                if hook is not None and hook(self, kind, p):
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
            return len(self.pocket[p]) > 1
        hand = self.hand[p]
        if kind == "position":
            for c in hand:
                if c.type == CITIZEN or c.type == STRUCTURE:
                    return True
            return False
        for c in hand:   # contest
            if c.type == TACTIC or (c.hand_ab[CONTEST] and self._usable(p, c, CONTEST)):
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
        self._check_quests(phase)                  # 003 §5.4: Quests are checked in the phase they name
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
            if step == ST_POCKET and len(self.pocket[p]) > self.pocket_capacity(p):
                self.step = ST_CAPACITY        # capacity is checked only at the end of the phase
                return
            self.bank[p] = 0                   # Goods in the bank last for the rest of the Purchase phase
            rb = self.rbank[p]
            for t in range(5):
                rb[t] = 0
        self.ai += 1
        self.step = ST_START

    # ------------------------------------------------------------------ jobs: abilities and effects
    def _do_job(self, job: tuple) -> bool:
        """Run one job; True when it left a decision pending."""
        kind = job[0]
        if kind == J_EFF:
            return self._effect(job[1], job[2], job[3], job[4], job[5])
        if kind == J_AB:
            p, r, ab = job[1], job[2], job[3]
            if ab.req >= 0 and self._req_count(p, ab.req) < ab.req_n:
                if self.logs is not None:
                    self._log(f"003 §6.4: requirement not met, {self._ab_name(ab)} does nothing", p)
                return False
            if ab.may:
                self.pending = Decision(self, "may", p, (r, ab))
                return True
            self._push_effects(p, r, ab)
            return False
        if kind == J_STACK:
            self._stack_abilities(job[1], job[2])
            return False
        if kind == J_PAY:
            self._region_pay(job[1])
            return False
        # J_REVEAL: 003 §6.4 Reveal fires as the card is placed and each time it is uncovered
        p, r, card = job[1], job[2], job[3]
        if self.logs is not None:
            self._log(f"003 §6.4 Reveal: {card.name} at {self.regions[r].short}", p)
        todo = [(J_AB, p, r, ab) for ab in card.reveal]
        todo.reverse()
        self.jobs.extend(todo)
        return False

    def _push_effects(self, p: int, r: int, ab: Ability) -> None:
        effects = ab.effects
        if len(effects) == 1:
            e = effects[0]
            self.jobs.append((J_EFF, p, r, e[0], e[1], e[2]))
            return
        for e in reversed(effects):
            self.jobs.append((J_EFF, p, r, e[0], e[1], e[2]))

    def _stack_abilities(self, p: int, phase: int) -> None:
        """Stack abilities of `phase` that can be read: white boxes anywhere, the exposed card's own; the Region
        cards this player holds (their Reward side sits at the front of the Stack, always readable).
        Worked from the Region nearest the Market outward, front to back (our reading, docs/games/regions.md)."""
        todo: list[tuple] = []
        ctrl = self.ctrl
        stacks = self.stacks[p]
        for r in range(N_REGIONS):
            if ctrl[r] == p:
                for ab in self.regions[r].reward_ab[phase]:
                    todo.append((J_AB, p, r, ab))
            stack = stacks[r]
            if not stack:
                continue
            for c in stack:
                if c.has_stack_ab:
                    for ab in c.white_ab[phase]:
                        todo.append((J_AB, p, r, ab))
            for ab in stack[-1].exposed_ab[phase]:
                todo.append((J_AB, p, r, ab))
        if todo:
            todo.reverse()
            self.jobs.extend(todo)

    def _region_pay(self, p: int) -> None:
        """003 §4.1: each Region you control pays one Recognition onto the top of your Deck, from the Market out."""
        rec = self.cs.recognition
        for r in range(N_REGIONS):
            if self.ctrl[r] == p and self.rec_pile > 0:
                self.rec_pile -= 1
                self._gain(p, rec)
                self.deck[p].append(rec)
                self.known_top[p] += 1
                if self.logs is not None:
                    self._log(f"003 §4.1: {self.regions[r].short} pays 1 Recognition onto the Deck "
                              f"({self.rec_pile} left)", p)

    def _req_count(self, p: int, what: int) -> int:
        """003 §6.4 Requirements: cards of a type across your Stacks, Goods in your bank, cards in Hand, ..."""
        if what <= 3:
            total = 0
            for stack in self.stacks[p]:
                if what == 3:
                    total += len(stack)
                else:
                    t = (CITIZEN, STRUCTURE, TACTIC)[what]
                    for c in stack:
                        if c.type == t:
                            total += 1
            return total
        if what == 4:
            return self.bank[p]
        if what == 5:
            return len(self.hand[p])
        if what == 6:
            return self.level[p]
        return self.ctrl.count(p)

    def _effect(self, p: int, r: int, prim: int, amount: int, param: int) -> bool:
        if prim == E_DRAW:
            self._draw(p, amount)
            return False
        if prim == E_GOODS:
            if param < 0:
                self.bank[p] += amount
            else:
                self.rbank[p][param] += amount
            if self.logs is not None:
                self._log(f"+{amount} Goods{' toward ' + TYPE_NAMES[param] + 's' if param >= 0 else ''} "
                          f"(bank {self.bank[p]})", p)
            return False
        if prim == E_STRIKE:
            targets = self._strike_targets(p, r, param)
            if not targets:
                return False
            if len(targets) == 1:
                q, rr, i = targets[0]
                self._strike(q, rr, i, amount, p)
                return False
            self.pending = Decision(self, "target", p, (amount, r, param))
            return True
        if prim == E_MIGHT:
            if param == W_HERE:
                if r >= 0:
                    self.might[p][r] += amount
            elif param == W_ALL:
                m = self.might[p]
                for rr in range(N_REGIONS):
                    m[rr] += amount
            else:
                regions = [rr for rr in range(N_REGIONS) if self.stacks[p][rr]]
                if not regions:
                    return False
                if len(regions) == 1:
                    self.might[p][regions[0]] += amount
                else:
                    self.pending = Decision(self, "region", p, amount)
                    return True
            if self.logs is not None:
                self._log(f"+{amount} Damage this turn ({'here' if param == W_HERE else 'chosen' if param == W_CHOOSE else 'each Stack'})", p)
            return False
        if prim == E_TRASH:
            if not self.hand[p]:
                return False
            self.pending = Decision(self, "trash", p, amount)
            return True
        if prim == E_RECOGNITION:
            for _ in range(amount):
                if self.rec_pile > 0:
                    self.rec_pile -= 1
                    self._gain(p, self.cs.recognition)
                    self.deck[p].append(self.cs.recognition)
                    self.known_top[p] += 1
            return False
        return False  # pragma: no cover - the card table has no other primitive

    def _strike_targets(self, p: int, r: int, where: int) -> list[tuple[int, int, int]]:
        """003 §7.2: the cards a non-Contest strike may name: in opposing Stacks here, or anywhere."""
        out = []
        regions = (r,) if where == W_HERE and r >= 0 else range(N_REGIONS)
        for q in range(self.n):
            if q == p:
                continue
            stacks = self.stacks[q]
            for rr in regions:
                for i in range(len(stacks[rr])):
                    out.append((q, rr, i))
        return out

    def _strike(self, q: int, r: int, i: int, amount: int, by: int) -> None:
        """003 §7.2: non-Contest damage hits the named card at once; it destroys it if it meets its Health and
        never carries to the card behind."""
        stack = self.stacks[q][r]
        card = stack[i]
        if amount >= card.health:
            last = i == len(stack) - 1
            del stack[i]
            self.discard[q].append(card)
            if card.has_stack_ab:
                for ph in card.ab_phases:
                    self.n_ab[q][ph] -= 1
            if self.logs is not None:
                self._log(f"003 §7.2: {amount} damage destroys p{q}'s {card.name} at {self.regions[r].short}", by)
            if last and stack and stack[-1].reveal:
                self.jobs.append((J_REVEAL, q, r, stack[-1]))   # 003 §5.3: the card beneath is exposed again
        elif self.logs is not None:
            self._log(f"003 §7.2: {amount} damage to p{q}'s {card.name} at {self.regions[r].short} "
                      f"(Health {card.health}) is not enough", by)

    # ------------------------------------------------------------------ zones
    def _draw(self, p: int, n: int) -> None:
        """003 §4.1: "+N" draws; if the Deck runs out mid-draw, shuffle the Discard into a new Deck and keep going."""
        deck = self.deck[p]
        hand = self.hand[p]
        if len(deck) >= n:                          # the common case: no reshuffle
            drawn = n
            if n == 1:
                hand.append(deck.pop())
            else:
                taken = deck[-n:]
                taken.reverse()
                hand.extend(taken)
                del deck[-n:]
        else:
            drawn = 0
            for _ in range(n):
                if not deck:
                    disc = self.discard[p]
                    if not disc:
                        break
                    fisher_yates(self._own_rng(), disc)    # 003 §8.1
                    self.deck[p] = deck = disc
                    self.discard[p] = []
                    self.known_top[p] = 0
                    if self.logs is not None:
                        self._log(f"003 §8.1: Discard shuffled into a new Deck ({len(deck)} cards)", p)
                hand.append(deck.pop())
                drawn += 1
        kt = self.known_top[p]
        if kt:
            self.known_top[p] = kt - drawn if kt > drawn else 0
        if self.logs is not None:
            self._log(f"draws {drawn} ({', '.join(c.name for c in hand[len(hand) - drawn:])})", p)

    def _own_rng(self) -> random.Random:
        """The game's generator, copied first if a clone still shares it (so neither game moves the other's)."""
        if self.rng_shared:
            rng = random.Random(0)
            rng.setstate(self.rng.getstate())
            self.rng = rng
            self.rng_shared = False
        return self.rng

    def _gain(self, p: int, card: CardDef) -> None:
        self.owned[p][card.index] += 1
        self.owned_t[p][card.type] += 1
        if card.type == RECOGNITION:
            self.rec_owned[p] += 1

    def _trash(self, p: int, card: CardDef) -> None:
        """003 §8.2: standing-pile cards go back to their pile, everything else to the Market Discard."""
        self.owned[p][card.index] -= 1
        self.owned_t[p][card.type] -= 1
        if card.type == RECOGNITION:
            self.rec_owned[p] -= 1
        if card.pile == "standing":
            if card.type == RECOGNITION:
                self.rec_pile += 1
        else:
            self.mdiscard.append(card)

    def pocket_capacity(self, p: int) -> int:
        """003 §4.2: one card plus any increase granted by cards in play (Skill Tree, held Regions, Stacks)."""
        cap = 1 + self.heroes[p].pocket[self.level[p]]
        ctrl = self.ctrl
        for r in range(N_REGIONS):
            if ctrl[r] == p:
                cap += self.regions[r].pocket
            stack = self.stacks[p][r]
            if stack:
                for c in stack:
                    if c.pocket_white:
                        cap += c.pocket_white
                cap += stack[-1].pocket_exposed
        return cap

    def _hand_money(self, p: int) -> tuple[int, list[int]]:
        """Goods the plain Supplies in hand can pay: (general, restricted by type)."""
        general = 0
        restricted = [0, 0, 0, 0, 0]
        for c in self.hand[p]:
            if c.plain:
                if c.only < 0:
                    general += c.goods
                else:
                    restricted[c.only] += c.goods
        return general, restricted

    def goods_for(self, p: int, ctype: int) -> int:
        """Goods available now toward a card of type `ctype`: bank plus what the plain Supplies in hand pay."""
        total = self.bank[p] + self.rbank[p][ctype]
        for c in self.hand[p]:
            if c.plain and (c.only < 0 or c.only == ctype):
                total += c.goods
        return total

    @staticmethod
    def _has_restricted(hand: list, ctype: int) -> bool:
        for c in hand:
            if c.plain and c.only == ctype:
                return True
        return False

    def _pay(self, p: int, cost: int, ctype: int) -> None:
        """003 §4.2, §8.4: pay with restricted Goods toward this type first, then the bank, then plain Supplies
        from the hand (played cards wait in the play area until Clean Up); overpayment stays in the bank."""
        need = cost
        rb = self.rbank[p]
        hand = self.hand[p]
        if need and (rb[ctype] or self._has_restricted(hand, ctype)):
            i = 0
            while rb[ctype] < need and i < len(hand):
                c = hand[i]
                if c.plain and c.only == ctype:
                    del hand[i]
                    self.played[p].append(c)
                    rb[ctype] += c.goods
                else:
                    i += 1
            x = need if rb[ctype] >= need else rb[ctype]
            rb[ctype] -= x
            need -= x
        if need:
            bank = self.bank[p]
            i = 0
            while bank < need and i < len(hand):
                c = hand[i]
                if c.plain and c.only < 0:
                    del hand[i]
                    self.played[p].append(c)
                    bank += c.goods
                else:
                    i += 1
            if bank < need:  # pragma: no cover - buy options are affordable by construction
                raise IllegalAction("not enough Goods")
            self.bank[p] = bank - need
        self.spent[p] += cost

    # ------------------------------------------------------------------ Damage & Clean Up (003 §4.5, §7)
    def stack_damage(self, p: int, r: int) -> int:
        """003 §7.1: the total Damage of p's Stack at r: every card, Tactics included, plus this turn's bonuses."""
        stack = self.stacks[p][r]
        if not stack:
            return 0
        total = self.might[p][r] + self.heroes[p].might[self.level[p]]
        for c in stack:
            total += c.damage + c.might_white
        total += stack[-1].might_exposed
        if self.ctrl[r] == p:
            total += self.regions[r].might
        return total

    def _cleanup_step(self) -> None:
        while self.cu_r < N_REGIONS:
            r = self.cu_r
            self.cu_r = r + 1
            busy = 0
            for ss in self.stacks:
                if ss[r]:
                    busy += 1
                    if busy > 1 or ss[r][-1].type == TACTIC:
                        break
            else:
                continue                           # nobody fights here and there is no Tactic to discard
            self._exchange(r)
            return
        self._cleanup_rest()

    def _exchange(self, r: int) -> None:
        """003 §4.5 steps 1-2 at one Region: both Stacks deal their Damage at once, front card first, excess
        carrying on (§7.1); then every destroyed card and every Tactic is discarded together; then Reveals on
        cards left exposed fire, Priority Player first."""
        n = self.n
        stacks = [self.stacks[p][r] for p in range(n)]
        if sum(1 for s in stacks if s) < 2:
            if not any(s and s[-1].type == TACTIC for s in stacks):
                return
            dmg = [0] * n
        else:
            dmg = [self.stack_damage(p, r) for p in range(n)]
        total = sum(dmg)
        logs = self.logs
        reveals: list[tuple] = []
        for p in self.order:
            stack = stacks[p]
            if not stack:
                continue
            incoming = total - dmg[p]          # every opposing Stack's Damage (docs: more than two players)
            # our reading of §4.4/§6.2: a Tactic's Shields absorb damage for the cards behind it, so Contest
            # damage meets the Stack's Tactics first (in the order placed), then the front card and on back
            k = len(stack)
            while k > 0 and stack[k - 1].type == TACTIC:
                k -= 1
            keep = [True] * len(stack)
            left = incoming
            if left:
                for i in list(range(k, len(stack))) + list(range(k)):
                    h = stack[i].health
                    if left >= h:
                        keep[i] = False
                        left -= h
                        if not left:
                            break
                    else:
                        break
            for i in range(k, len(stack)):
                keep[i] = False                  # every Tactic is discarded at Clean Up
            if all(keep):
                continue
            last = len(stack) - 1
            survivors = []
            disc = self.discard[p]
            top = -1
            for i, c in enumerate(stack):
                if keep[i]:
                    survivors.append(c)
                    top = i
                else:
                    disc.append(c)
                    if c.has_stack_ab:
                        for ph in c.ab_phases:
                            self.n_ab[p][ph] -= 1
            if logs is not None:
                gone = [c.name for i, c in enumerate(stack) if not keep[i]]
                self._log(f"003 §7.1 at {self.regions[r].short}: takes {incoming} Damage; discards "
                          f"{', '.join(gone)}", p)
            stack[:] = survivors
            if survivors and top != last and survivors[-1].reveal:
                reveals.append((J_REVEAL, p, r, survivors[-1]))
        if logs is not None and total:
            self._log(f"003 §7.1 at {self.regions[r].short}: Damage dealt "
                      f"{', '.join(f'p{p} {dmg[p]}' for p in range(n) if stacks[p] or dmg[p])}")
        if reveals:
            reveals.reverse()                    # the Priority Player resolves theirs first
            self.jobs.extend(reveals)

    def _cleanup_rest(self) -> None:
        n = self.n
        # step 3: reset any Region whose holder has no cards left in that Stack (003 §5.1)
        for r in range(N_REGIONS):
            c = self.ctrl[r]
            if c >= 0 and not self.stacks[c][r]:
                self.ctrl[r] = -1
                if self.logs is not None:
                    self._log(f"003 §5.4: {self.regions[r].short} resets (p{c}'s Stack is empty)")
        # step 4: recount every Hero Level (003 §5.2)
        for p in range(n):
            self.level[p] = N_REGIONS - self.stacks[p].count([])
        # step 5: top each Market Pile with one fresh card (003 §8.3), reshuffling the Market Discard when needed
        for pile in self.mpiles:
            if not self.mdeck:
                if not self.mdiscard:
                    break
                self.mdeck = self.mdiscard
                self.mdiscard = []
                fisher_yates(self._own_rng(), self.mdeck)
                if self.logs is not None:
                    self._log(f"003 §8.3: the Market Discard is shuffled into a new Market Deck "
                              f"({len(self.mdeck)} cards)")
            pile.append(self.mdeck.pop())
        # step 6: discard all Hands (and the cards played this turn)
        for p in range(n):
            disc = self.discard[p]
            if self.hand[p]:
                disc.extend(self.hand[p])
                self.hand[p] = []
            if self.played[p]:
                disc.extend(self.played[p])
                self.played[p] = []
            m = self.might[p]
            if m.count(0) != N_REGIONS:
                for r in range(N_REGIONS):
                    m[r] = 0
        self._record_turn()
        # step 7: the Recognition clock (003 §9.1)
        if self.rec_pile <= 0:
            self._finish("recognition")
            return
        self._begin_turn()

    def _record_turn(self) -> None:
        n = self.n
        self.stat_score.append([self.score(p) for p in range(n)])
        self.stat_presence.append([N_REGIONS - self.stacks[p].count([]) for p in range(n)])
        self.stat_control.append([self.ctrl.count(p) for p in range(n)])
        self.stat_rec.append(list(self.rec_owned))

    # ------------------------------------------------------------------ Quests (003 §5.4)
    def _check_quests(self, phase: int) -> None:
        regions = self.regions
        for r in self.cs.quest_regions[phase]:
            if self.ctrl[r] >= 0:
                continue
            region = regions[r]
            for p in self.order:                   # if several meet it, the Priority Player takes it
                if self.stacks[p][r] and self._quest_met(p, r):
                    self.ctrl[r] = p
                    if self.logs is not None:
                        self._log(f"003 §5.4: completes the Quest of {region.short} and takes control", p)
                    break

    def _quest_met(self, p: int, r: int) -> bool:
        stack = self.stacks[p][r]
        for what, n in self.regions[r].need:
            if what == 0:
                v = len(stack)
            elif what == 1:
                v = self.stack_damage(p, r)
            elif what == 2:
                v = sum(1 for c in stack if c.type == CITIZEN)
            elif what == 3:
                v = sum(1 for c in stack if c.type == STRUCTURE)
            elif what == 4:
                v = self.spent[p]
            elif what == 5:
                v = self.bought[p]
            elif what == 6:
                v = self.level[p]
            elif what == 7:
                v = self._req_count(p, 1)
            else:
                v = len(self.hand[p])
            if v < n:
                return False
        return True

    # ------------------------------------------------------------------ end and scoring (003 §9)
    def score_parts(self, p: int) -> dict:
        """003 §1.2, §9.2: Recognition cards owned, presence, control, exposed Finish abilities."""
        presence = control = finish = 0
        ctrl = self.ctrl
        for r in range(N_REGIONS):
            stack = self.stacks[p][r]
            if stack:
                presence += 1
                for c in stack:
                    finish += c.finish_white
                finish += stack[-1].finish_exposed
            if ctrl[r] == p:
                control += 1
                finish += self.regions[r].finish
        finish += self.heroes[p].finish[self.level[p]]
        return {"cards": self.rec_owned[p], "presence": presence, "control": control, "finish": finish}

    def score(self, p: int) -> int:
        presence = control = finish = 0
        ctrl = self.ctrl
        stacks = self.stacks[p]
        regions = self.regions
        for r in range(N_REGIONS):
            stack = stacks[r]
            if stack:
                presence += 1
                for c in stack:
                    if c.finish_white:
                        finish += c.finish_white
                finish += stack[-1].finish_exposed
            if ctrl[r] == p:
                control += 1
                finish += regions[r].finish
        return self.rec_owned[p] + presence + control + finish + self.heroes[p].finish[self.level[p]]

    def tiebreak_key(self, p: int) -> tuple:
        """Our reading of 003 §9.3 (its list was lost): Regions controlled, then Recognition cards owned, then
        cards in Stacks, then the fewer cards owned (docs/games/regions.md)."""
        control = self.ctrl.count(p)
        in_stacks = sum(len(s) for s in self.stacks[p])
        return (self.score(p), control, self.rec_owned[p], in_stacks, -sum(self.owned_t[p]))

    def _finish(self, reason: str) -> None:
        self.over = True
        self.reason = reason
        self.phase = OVER
        self.pending = None
        self.jobs.clear()
        keys = [self.tiebreak_key(p) for p in range(self.n)]
        best = max(keys)
        self.winners = [p for p in range(self.n) if keys[p] == best]
        if self.logs is not None:
            scores = ", ".join(f"p{p} {keys[p][0]}" for p in range(self.n))
            why = "the Recognition pile is empty" if reason == "recognition" else f"turn limit {self.max_turns}"
            won = (f"p{self.winners[0]} wins" if len(self.winners) == 1
                   else "tie between " + " and ".join(f"p{p}" for p in self.winners))
            self._log(f"003 §9: game over ({why}); Recognition {scores}; {won}")

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
            action = self.parse_action(action)
        elif isinstance(action, list):
            action = tuple(action)
        if isinstance(action, tuple) and len(action) > 2 and action[0] == A_TAKE:
            self._check_take_many(action)
        elif action not in self.pending.options:
            raise IllegalAction(f"{action!r} is not an option of the {self.pending.kind} decision of player "
                                f"{self.pending.player}; options: "
                                + ", ".join(self.action_text(a) for a in self.pending.options))
        self.history.append(action)
        self._apply(action)

    def play(self, actors: list, skips: list | None = None) -> None:
        """The fast loop: each decision goes to `actors[player](game, decision)`, whose answer is applied as it
        stands (trusted: the same rule functions as apply_action, without listing the options). `skips[player]`,
        when given, is asked before a window opens whether that player would only answer "done"."""
        if skips is not None:
            self.skip = skips
            d = self.pending
            if d is not None and d.kind in WINDOW_KINDS and skips[d.player] is not None and \
                    skips[d.player](self, d.kind, d.player):
                self.pending = None
                self._window_done(d.player)
                self._run()
        apply = self._apply
        try:
            while self.pending is not None:
                d = self.pending
                assert d is not None
                apply(actors[d.player](self, d))
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
            self._buy(p, a[1])
            self.pending = Decision(self, "purchase", p)   # the window stays open: nothing else to run
            return
        if code == A_TAKE:
            cards = self.cs.cards
            pocket = self.pocket[p]
            hand = self.hand[p]
            for i in range(1, len(a)):     # one card, or several listed in one action
                card = cards[a[i]]
                pocket.remove(card)
                hand.append(card)
                if logs is not None:
                    self._log(f"takes {card.name} from the Pocket into the Hand", p)
            kind = d.kind
            if kind == "capacity":
                if len(self.pocket[p]) <= self.pocket_capacity(p):
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
                self._trash(p, card)
            else:
                self.discard[p].append(card)
            if logs is not None:
                self._log(f"003 §6.3: {'trashes' if ab.cost == 'trash' else 'discards'} {card.name} for its "
                          f"ability", p)
            self.jobs.append((J_AB, p, -1, ab))
        elif code == A_TARGET:
            amount = d.info[0]
            self._strike(a[1], a[2], a[3], amount, p)
        elif code == A_REGION:
            self.might[p][a[1]] += d.info
            if logs is not None:
                self._log(f"+{d.info} Damage at {self.regions[a[1]].short} this turn", p)
        elif code == A_YES:
            r, ab = d.info
            self._push_effects(p, r, ab)
        elif code == A_NO:
            pass
        elif code == A_TRASH:
            card = self.cs.cards[a[1]]
            self.hand[p].remove(card)
            self._trash(p, card)
            if logs is not None:
                self._log(f"003 §8.2: trashes {card.name} from the Hand", p)
            if d.info > 1:
                self.jobs.append((J_EFF, p, -1, E_TRASH, d.info - 1, -1))
        elif code == A_KEEP:
            pass
        else:  # pragma: no cover - parse_action and the options only make known actions
            raise IllegalAction(f"unknown action {a!r}")
        self._run()

    def _buy(self, p: int, k: int) -> None:
        """003 §4.2: buy from a standing pile (k < 6) or the top of Market Pile k - 6; the card goes to the Pocket."""
        if k < N_STANDING:
            card = self.standing[k]
            if card.type == RECOGNITION:
                self.rec_pile -= 1
        else:
            card = self.mpiles[k - N_STANDING].pop()   # buying the top card exposes the one beneath
        self._gain(p, card)
        self._pay(p, card.cost, card.type)
        self.pocket[p].append(card)
        self.bought[p] += 1
        sb = self.stat_bought[p]
        sb[card.name] = sb.get(card.name, 0) + 1
        if self.logs is not None:
            self._log(f"003 §4.2: buys {card.name} for {card.cost} Goods"
                      + (f" ({self.rec_pile} Recognition left)" if card.type == RECOGNITION else ""), p)

    # ------------------------------------------------------------------ options and their texts
    def _usable(self, p: int, card: CardDef, phase: int) -> bool:
        for ab in card.hand_ab[phase]:
            if ab.req < 0 or self._req_count(p, ab.req) >= ab.req_n:
                return True
        return False

    def buy_options(self, p: int) -> list[tuple]:
        """The piles p can afford now: standing piles first (cost order), then the Market Piles."""
        general, restricted = self._hand_money(p)
        base = self.bank[p] + general
        rb = self.rbank[p]
        out = []
        for k, card in enumerate(self.standing):
            if card.type == RECOGNITION and self.rec_pile <= 0:
                continue
            if card.cost <= base + rb[card.type] + restricted[card.type]:
                out.append((A_BUY, k))
        for m, pile in enumerate(self.mpiles):
            if pile:
                card = pile[-1]
                if card.cost <= base + rb[card.type] + restricted[card.type]:
                    out.append((A_BUY, N_STANDING + m))
        return out

    def _options(self, d: Decision) -> list:
        kind = d.kind
        p = d.player
        if kind == "target":
            amount, r, where = d.info
            return [(A_TARGET, q, rr, i) for q, rr, i in self._strike_targets(p, r, where)]
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
            out = self.buy_options(p)
            for c in _distinct(hand):
                if c.type == SUPPLIES and not c.plain:
                    out.append((A_PLAY, c.index))
            for c in _distinct(hand):
                for k, ab in enumerate(c.hand_ab[PURCHASE]):
                    if ab.req < 0 or self._req_count(p, ab.req) >= ab.req_n:
                        out.append((A_USE, c.index, k))
            return out + [DONE]
        if kind == "pocket" or kind == "capacity":
            if len(self.pocket[p]) > 1:
                out = [(A_TAKE, c.index) for c in _distinct(self.pocket[p])]
            return out if kind == "capacity" else out + [DONE]
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
                if ab.req < 0 or self._req_count(p, ab.req) >= ab.req_n:
                    out.append((A_USE, c.index, k))
        return out + [DONE]

    def action_text(self, a: tuple) -> str:
        """The printed form of an option (read back by parse_action): `buy Silver`, `place Sentry at Ios`, ..."""
        code = a[0]
        cards = self.cs.cards
        if code == A_DONE:
            return "done"
        if code == A_BUY:
            k = a[1]
            if k < N_STANDING:
                return f"buy {self.standing[k].name}"
            pile = self.mpiles[k - N_STANDING]
            name = pile[-1].name if pile else "?"
            same = sum(1 for q in self.mpiles if q and q[-1].name == name)
            return f"buy {name}" + (f" (pile {k - N_STANDING + 1})" if same > 1 else "")
        if code == A_STASH:
            return f"stash {cards[a[1]].name}"
        if code == A_TAKE:
            return "take " + ", ".join(cards[i].name for i in a[1:])
        if code == A_PLAY:
            return f"play {cards[a[1]].name}"
        if code == A_USE:
            card = cards[a[1]]
            several = any(len(x) > 1 for x in card.hand_ab)
            return f"use {card.name}" + (f" {a[2] + 1}" if several else "")
        if code == A_PLACE:
            return f"place {cards[a[1]].name} at {self.regions[a[2]].short}"
        if code == A_TARGET:
            q, r, i = a[1], a[2], a[3]
            stack = self.stacks[q][r]
            name = stack[i].name if i < len(stack) else "?"
            return f"target {name} at {self.regions[r].short} #{i + 1} of p{q}"
        if code == A_REGION:
            return f"at {self.regions[a[1]].short}"
        if code == A_YES:
            return "yes"
        if code == A_NO:
            return "no"
        if code == A_TRASH:
            return f"trash {cards[a[1]].name}"
        if code == A_KEEP:
            return "trash none"
        return repr(a)

    def parse_action(self, text: str) -> tuple:
        """Read a printed action back (case and apostrophes do not matter; `buy NAME (pile N)` always works)."""
        if self.pending is None:
            raise IllegalAction("the game is over")
        want = _norm(text)
        options = self.pending.options
        for a in options:
            if _norm(self.action_text(a)) == want:
                return a
        if want.startswith("take ") and "," in want:   # several Pocket cards in one action
            names = {_norm(c.name): c for c in self.pocket[self.pending.player]}
            picked = []
            for part in want[5:].split(","):
                card = names.get(part.strip())
                if card is None:
                    break
                picked.append(card.index)
            else:
                action = (A_TAKE, *picked)
                try:
                    self._check_take_many(action)
                except IllegalAction:
                    pass
                else:
                    return action
        for a in options:
            if a[0] == A_BUY and a[1] >= N_STANDING:
                pile = self.mpiles[a[1] - N_STANDING]
                if pile and _norm(f"buy {pile[-1].name} (pile {a[1] - N_STANDING + 1})") == want:
                    return a
        raise IllegalAction(f"{text!r} is not an option of the {self.pending.kind} decision of player "
                            f"{self.pending.player}; options: " + ", ".join(self.action_text(a) for a in options))

    def _check_take_many(self, action: tuple) -> None:
        """`take A, B, ...`: several Pocket cards at once, where taking them one by one would be legal."""
        d = self.pending
        assert d is not None
        if d.kind not in ("hero", "pocket", "capacity"):
            raise IllegalAction(f"{self.action_text(action)!r}: cards are taken from the Pocket only in the Hero "
                                f"phase and at the end of the Purchase phase, not in a {d.kind} decision")
        left = list(self.pocket[d.player])
        for i in action[1:]:
            card = self.cs.cards[i] if isinstance(i, int) and 0 <= i < len(self.cs.cards) else None
            if card is None or card not in left:
                raise IllegalAction(f"{self.action_text(action) if card else action!r}: not all these cards are "
                                    "in the Pocket")
            left.remove(card)
        if not left:
            raise IllegalAction("at least one card must stay in the Pocket (003 §4.2)")

    def _ab_name(self, ab: Ability) -> str:
        if ab.ref[0] == "card":
            return self.cs.by_code[ab.ref[1]].name
        if ab.ref[0] == "skill":
            return f"{self.cs.hero_by_code[ab.ref[1]].name} Level {ab.ref[2]}"
        return self.cs.region_by_code[ab.ref[1]].short

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
        g.might = [list(x) for x in self.might]
        g.level = list(self.level)
        g.ctrl = list(self.ctrl)
        g.mpiles = [list(x) for x in self.mpiles]
        g.mdeck = list(self.mdeck)
        g.mdiscard = list(self.mdiscard)
        g.rec_pile = self.rec_pile
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

    def view(self, player: int) -> "PlayerView":
        """What `player` may know (its own Hand and Pocket, counts of the rest, the public board)."""
        return PlayerView(self, player)

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
                "spent": self.spent[p], "bought": self.bought[p],
            })
        pos: dict = {
            "game": "regions", "set": self.cs.code, "seed": self.seed, "turn": self.turn, "max_turns": self.max_turns,
            "priority": self.prio, "first_player": self.first_player, "phase": PHASE_KEYS[self.phase],
            "actor": self.ai, "step": STEP_KEYS[self.step], "cleanup_region": self.cu_r,
            "recognition_pile": self.rec_pile,
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

    def state_text(self) -> str:
        """One canonical line per player and one for the board (handy in tests and bug reports)."""
        lines = [f"turn {self.turn} {PHASE_KEYS[self.phase]} prio p{self.prio} recognition {self.rec_pile} "
                 f"control {self.ctrl} market {[x[-1].name if x else '-' for x in self.mpiles]}"]
        for p in range(self.n):
            lines.append(f"p{p} {self.heroes[p].name} L{self.level[p]} score {self.score(p)} "
                         f"hand {[c.name for c in self.hand[p]]} pocket {[c.name for c in self.pocket[p]]} "
                         f"deck {len(self.deck[p])} discard {len(self.discard[p])} stacks "
                         + " | ".join(",".join(c.name for c in s) for s in self.stacks[p]))
        return "\n".join(lines)


def _distinct(cards: list[CardDef]) -> list[CardDef]:
    """The cards in a zone with copies that are alike listed once, in first-seen order."""
    seen = set()
    out = []
    for c in cards:
        if c.index not in seen:
            seen.add(c.index)
            out.append(c)
    return out


def _card_index(c: CardDef) -> int:
    return c.index


def _codes(cards) -> list[str]:
    return [c.code for c in cards]


def _job_json(game: Game, job: tuple) -> list:
    kind = job[0]
    if kind == J_AB:
        return ["ability", job[1], job[2], list(job[3].ref)]
    if kind == J_EFF:
        return ["effect", job[1], job[2], job[3], job[4], job[5]]
    if kind == J_PAY:
        return ["pay", job[1]]
    if kind == J_STACK:
        return ["stack", job[1], job[2]]
    return ["reveal", job[1], job[2], job[3].code]


def _pending_json(d: Decision | None):
    if d is None:
        return None
    info = d.info
    if d.kind == "may":
        info = [info[0], list(info[1].ref)]
    elif d.kind == "target":
        info = list(info)
    return {"kind": d.kind, "player": d.player, "info": info}


class PlayerView:
    """What one player may know (003: Hand and Pocket are private, Deck order is unknown to everyone).

    Policies read the game through it; `determinize(rng)` deals every card this player cannot see at random from
    what could be there (other players' Hands, Pockets and Decks pooled per player, every Deck order below the
    cards everyone knows are on top, the Market Deck order) and returns a full game to play out.
    """

    __slots__ = ("_game", "player")

    def __init__(self, game: Game, player: int):
        self._game = game
        self.player = player

    # what a policy reads ------------------------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def hand(self) -> list[CardDef]:
        return list(self._game.hand[self.player])

    @property
    def pocket(self) -> list[CardDef]:
        return list(self._game.pocket[self.player])

    def hidden_counts(self, q: int) -> dict:
        g = self._game
        return {"hand": len(g.hand[q]), "pocket": len(g.pocket[q]), "deck": len(g.deck[q])}

    def public(self) -> dict:
        """The board everyone sees, as JSON (stacks, control, market tops, discards, counts, scores)."""
        g = self._game
        pos = g.to_position(rng_state=False)
        for q, pl in enumerate(pos["players"]):
            if q != self.player:
                pl["hand"] = len(g.hand[q])
                pl["pocket"] = len(g.pocket[q])
            pl["deck"] = len(g.deck[q])
        pos["market_deck"] = len(g.mdeck)
        del pos["jobs"]
        return pos

    def game_for_policy(self) -> Game:
        """The game itself, for the shipped policies that read only what this player may know (tested by
        comparing their choices on determinized games)."""
        return self._game

    def determinize(self, rng: random.Random) -> Game:
        """Each pool of unseen cards is put in a fixed order (by card) before it is dealt, so the worlds depend
        only on what this player knows and on `rng`, never on how the hidden cards really lie (the search
        player's worlds, search.py)."""
        g = self._game.clone()
        g.logs = None
        me = self.player
        for q in range(g.n):
            kt = g.known_top[q]
            deck = g.deck[q]
            top = deck[len(deck) - kt:] if kt else []
            rest = deck[:len(deck) - kt] if kt else deck
            if q == me:
                rest = sorted(rest, key=_card_index)
                fisher_yates(rng, rest)
                g.deck[q] = rest + top
                continue
            pool = sorted(list(rest) + g.hand[q] + g.pocket[q], key=_card_index)
            fisher_yates(rng, pool)
            nh, npk = len(g.hand[q]), len(g.pocket[q])
            g.hand[q] = pool[:nh]
            g.pocket[q] = pool[nh:nh + npk]
            g.deck[q] = pool[nh + npk:] + top
        g.mdeck.sort(key=_card_index)
        fisher_yates(rng, g.mdeck)
        g.rng = random.Random(rng.getrandbits(64))
        g.rng_shared = False
        if g.pending is not None:
            g.pending = Decision(g, g.pending.kind, g.pending.player, g.pending.info)
        return g
