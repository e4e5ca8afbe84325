"""The public verbs of a game of ruleset r1: `Game` in the OpenSpiel / python-chess shape (`legal_actions()`,
`apply_action()`, `clone()`, `is_terminal()`, `returns()`, `play()` with policies).

The rules are the layers below, each a module and a class, each built on the one before:
`State` (state.py, §3) → `Characteristics` (characteristics.py) → `Changes` (changes.py) → `Resolution`
(resolution.py, with the effect primitives of effects.py) → `Struggles` (struggles.py) → `Setup` (opening.py, §4)
→ `Phases` (phases.py, §5) → `Game`. `Phases._run` is the whole game as one generator: it yields a `Decision`
when a player must choose and is resumed with the answer.
"""
from __future__ import annotations

from typing import Any

from .cards import STRUGGLE_TYPES, Deck
from .phases import Phases
from .state import (
    ASIDE, AUTHORITY_P, COMBAT, CONFRONT_P, CONTINUE, DEAD, DECK, DESTINY, DISCARD, DONE, DRAW_P, DRAW_PER_ROUND,
    DUP, FACTION, FAITH, FIELD, GONE, GUILE, HAND, HAND_SIZE, KINGDOM_P, LIMBO, NO, OUT, PASS, PHASES, PUBLIC_ZONE,
    QDECK, QUEST, QUEST_P, QUSED, REFRESH_P, SECRET, SECRET_PLACE_COST, SETUP_BUDGET, SORCERY, STRUGGLE_COUNTERS,
    TOLL_P, WIN_INFLUENCE, YES, ZONE_BY_NAME, ZONE_NAMES, Decision, GameOver, IllegalAction, Struggle, fisher_yates,
)
from .view import PlayerView

__all__ = [
    "ASIDE", "AUTHORITY_P", "COMBAT", "CONFRONT_P", "CONTINUE", "DEAD", "DECK", "DESTINY", "DISCARD", "DONE",
    "DRAW_P", "DRAW_PER_ROUND", "DUP", "FACTION", "FAITH", "FIELD", "GONE", "GUILE", "HAND", "HAND_SIZE", "KINGDOM_P",
    "LIMBO", "NO", "OUT", "PASS", "PHASES", "PUBLIC_ZONE", "QDECK", "QUEST", "QUEST_P", "QUSED", "REFRESH_P",
    "SECRET", "SECRET_PLACE_COST", "SETUP_BUDGET", "SORCERY", "STRUGGLE_COUNTERS", "STRUGGLE_TYPES", "TOLL_P",
    "WIN_INFLUENCE", "YES", "ZONE_BY_NAME", "ZONE_NAMES", "Decision", "Game", "GameOver", "IllegalAction",
    "PlayerView", "Struggle", "fisher_yates",
]


class Game(Phases):

    """One game between two decks (`deck_b=None`: the goldfish opponent of CONTRACTS §3).

    A deck of 60 vanilla Knights against the goldfish, every decision answered with its first option:

    >>> from simulator.engines.r1 import build_deck
    >>> faction = {"code": "camelot", "name": "Camelot", "type": "faction", "faction": "camelot"}
    >>> quest = {"code": "muster", "name": "Muster", "type": "quest", "faction": "camelot", "wealth": 4,
    ...          "momentum": 1, "spoils": 1, "levy": 7}
    >>> knight = {"code": "knight", "name": "Knight", "type": "unit", "faction": "camelot", "cost": 2, "power": 2,
    ...           "icons": ["combat", "faith"]}
    >>> g = Game(build_deck([(faction, 1), (quest, 7), (knight, 60)]), None, seed=1)
    >>> g.pending.kind, g.legal_actions()        # §4: the first decision is player 0's mulligan
    ('mulligan', [('yes',), ('no',)])
    >>> while not g.is_terminal(): g.apply_action(g.legal_actions()[0])
    >>> g.winner, g.reason, g.returns()          # §12: player 0 reached 15 Influence
    (0, 'influence', [1.0, -1.0])
    """

    def __init__(self, deck_a: Deck, deck_b: Deck | None = None, *, seed: int, first_player: int | None = None,
                 max_rounds: int = 50, log: bool = False, autostart: bool = True, observer=None,
                 policies: Any = None, cards: list[int] | None = None, template: Any = None):
        """`policies`: None, or a pair of policy objects (None for a player decided through `apply_action`) —
        each has `choose(view, decision)` and may have the shortcuts `wants_window`, `ability_filter` and
        `declare` (docs/engine.md); `play()` then plays the game out with them. `cards`: internal, used by
        `PlayerView.determinize`: card id i starts as the card the decks give id cards[i] (a permutation within
        one owner's draw cards). `template`: internal, a game whose state this one copies (clone): it starts
        where that game's current step started and is not advanced."""
        super().__init__(deck_a, deck_b, seed=seed, first_player=first_player, max_rounds=max_rounds, log=log,
                         observer=observer, cards=cards, template=template)
        if template is not None:
            return   # a copy gets its generator when it resumes (_resumed); a snapshot never runs
        self._gen = self._run()
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
        got: PlayerView | None = self._views[p]   # typed: look() is then a direct call in the compiled build
        if got is None:
            v = PlayerView(self, p)
            self._views[p] = v
            return v
        got.look()
        return got

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
        v0 = self.view(0)
        # the goldfish never chooses (CONTRACTS §3): no view of its own to build and keep up to date
        v1: PlayerView | None = None if self.goldfish else self.view(1)
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
                # the decision waits in `pending` while its policy chooses, as under apply_action: a view's
                # determinize then deals worlds that wait at this decision (with none there, every deal was
                # refused and the last resort kept the opponent's real hand)
                self.pending = dec
                if dec.player == 0:
                    v0.look()
                    a = c0(v0, dec)
                else:
                    if v1 is None:
                        v1 = self.view(1)
                    else:
                        v1.look()
                    a = c1(v1, dec)
                self.pending = None
                self._pcache = None
                hist.append(a)
                dec = gen.send(a)
        except StopIteration:
            self.pending = None
            self._release_views()

    def _release_views(self) -> None:
        """At the end of the game, forget the cached views: each refers back to the game, and a finished game
        that is only reachable through such a loop waits for the cycle collector instead of being freed at once
        (docs/performance.md, "A finished game is freed at once"). `view()` makes a new one when asked."""
        self._views[0] = None
        self._views[1] = None

    def _advance(self, action, first=False):
        try:
            self.pending = next(self._gen) if first else self._gen.send(action)
        except StopIteration:
            self.pending = None
            self._release_views()

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

    # the text and position verbs of the engine protocol (common/protocol.py); actions.py and positions.py are
    # loaded on demand, as play never needs them
    def action_text(self, action: Any) -> str:
        """The text of an option of the pending decision (CONTRACTS §6), e.g. `pass`."""
        from .actions import action_text
        return action_text(self, action)

    def parse_action(self, text: str) -> Any:
        """The option a printed text stands for at the pending decision (IllegalAction, naming the options, when
        it is none); a text naming several cards (`attackers A B`) stands for a list of options."""
        from .actions import parse_text
        steps = parse_text(self, text)
        return steps[0] if len(steps) == 1 else steps

    def to_position(self) -> dict:
        """The state as a position (CONTRACTS §6) that positions.from_position loads as this very state: only
        where a position starts the game again (positions.exact_position); ValueError elsewhere."""
        from .positions import exact_position
        return exact_position(self)

    def returns(self) -> list[float]:
        """[1, -1] when player 0 won, [-1, 1] when player 1 won, [0, 0] otherwise."""
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def clone(self, log: bool | None = None, policies: Any = None) -> "Game":
        """An independent copy of this game (no deepcopy, no shared state): the state at the start of the
        current step of the flow copied (`_snap`), then the choices made since replayed — a replay bounded by one
        step (a phase, or a player's Kingdom or Confrontation turn), not by the game. The copy has the `policies`
        given here (default none: each of its decisions waits in `pending`)."""
        want_log = self.logs is not None if log is None else log
        snap = self._snapshot(want_log)
        g = self._resumed(snap, want_log)
        if policies is not None:
            g._set_policies(policies)
        return g

    def _take_snapshot(self, log: bool = True) -> "Game":
        return Game(self.decks[0], self.decks[1], seed=self.seed, log=log and self.logs is not None, template=self)

    def _snapshot(self, log: bool = False) -> "Game":
        """The state at the start of the current step (with its log lines when `log`). A game that has not kept
        one (nobody copied it before: `keep_snap` was off) gets it once from a replay of its history, and keeps
        one at every step from then on."""
        snap = self._snap
        if snap is not None and (snap.logs is not None or not log):
            return snap
        base = self._base
        if base is not None and (base.logs is not None or not log):
            # a copy that played past the step it was copied in: from the snapshot it was made from
            g = self._resumed(base, log, keep_snap=True)
        else:
            g = self._replayed(self.history, self.card_map, log or self.logs is not None, keep_snap=True)
        self.keep_snap = True
        self._snap = g._snap
        assert self._snap is not None
        return self._snap

    def _resumed(self, snap: "Game", log: bool, keep_snap: bool = False) -> "Game":
        """A copy of `snap` (a snapshot of this game's current step, or of an earlier one of this game's line)
        resumed through the choices this game made since, so that it waits where this game waits. `keep_snap`:
        the copy keeps a snapshot at each step start on the way (else only `snap`, while it is current)."""
        g = Game(snap.decks[0], snap.decks[1], seed=snap.seed, log=log, template=snap)
        g._snap = snap   # shared: a snapshot is never changed, only copied
        g._base = snap
        g.keep_snap = keep_snap
        g._gen = g._run()
        g._replay_choices(self.history, self.reseeds[len(snap.reseeds):], len(snap.history))
        return g

    def _replayed(self, history: list, cards: list[int] | None, log: bool, log_hook: Any = None,
                  keep_snap: bool = False) -> "Game":
        """A new game on the same decks and seed that makes the choices of `history` (IllegalAction when one no
        longer applies); `log_hook`, the new game's (State.log_hook), called from its first line on; `keep_snap`:
        the new game keeps the state at the start of each step (so its `_snap` is that of its last step)."""
        if self.origin is not None:   # a game loaded from a position starts from it again
            g: Game = self.origin(cards, log)
            g.observer = self.observer
        else:
            g = Game(self.decks[0], self.decks[1], seed=self.seed, first_player=self.first_arg,
                     max_rounds=self.max_rounds, log=log, autostart=False, observer=self.observer, cards=cards)
        g.log_hook = log_hook
        g.keep_snap = keep_snap
        g._replay_choices(history, self.reseeds)
        return g

    def reseed(self, seed: int) -> None:
        """Draw the random events from here on from `seed` (PlayerView.determinize: a world's own future).
        The point is recorded with the seed, so that clone() and determinize(), which replay the game from its
        own seed, seed again at the same point: a copy made after further random events then draws them as
        this game did (otherwise the copy shuffles, discards at random, etc. from the old stream and its
        recorded choices stop being legal)."""
        self.rng.seed(seed)
        self.reseeds.append((len(self.history), seed))

    def _replay_choices(self, history: list, reseeds: list, start: int = 0) -> None:
        """Run this new, unstarted game through the choices of `history` from `start` on (the choices before it
        are those its state already holds: a copy of a snapshot; IllegalAction when one no longer applies),
        seeding its random stream again wherever `reseeds` says the recorded game was (reseed)."""
        self._replay = history
        self._rpos = start
        n = len(history)
        gen = self._gen
        k = 0
        at = reseeds[0][0] if reseeds else n + 1
        try:
            dec: Decision = next(gen)
            while True:
                # a reseed took place while the game waited at a decision, after `at` recorded choices; the
                # replay waits at the same decision when it has consumed as many
                while self._rpos >= at:
                    self.rng.seed(reseeds[k][1])
                    self.reseeds.append(reseeds[k])
                    k += 1
                    at = reseeds[k][0] if k < len(reseeds) else n + 1
                if self._rpos >= n:
                    break
                a = history[self._rpos]
                if type(a) is not tuple or a not in dec.options:
                    raise IllegalAction(f"replay: {a!r} is not an option of {dec!r}")
                self._rpos += 1
                self.history.append(a)
                dec = gen.send(a)
            self.pending = dec
        except StopIteration:
            self.pending = None
        self._replay = None
