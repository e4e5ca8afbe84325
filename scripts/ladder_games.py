"""What the policy ladder (scripts/ladder.py) needs of each game: its players, its decks, one game played and timed.

scripts/ladder.py is written once for every game; each game here says only what differs:

- `players()`: the ladder's players, taken from the engine's own policy table (its search player included), in
  order from the weakest kind to the strongest; `anchor`, the player rated 1500 (the game's greedy player);
- `check(player)`: raises ValueError for a name the engine does not know;
- `deck_pairs(a, b)`: the (deck of a, deck of b) pairs a pairing cycles through;
- `play(a, b, deck_a, deck_b, seed, a_seat, first)`: one seeded game, returning a's score (1 win, 0.5 draw, 0
  loss), the game's CPU seconds and each search player's own decisions' CPU seconds (None for a fast player);
- `slow(player)`: whether the player searches (its pairings get the smaller game count);
- `default_games(a, b)`: the pairing's game count in the standard run (docs/engine.md, "Policy ladder");
- `target`: the issue's target for the search player against the greedy one, printed with the tables.

A search player's decisions are timed by wrapping its policy (`_Timed`), so its own cost a game is measured in
the same games; the wrapper changes no choice (the policy is built with the seed `play_game` would give it, and
every hook the engine asks of it is passed through).
"""
from __future__ import annotations

import importlib
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class _Timed:
    """A policy whose every call's CPU time is added up (`secs`); answers exactly as the policy would. Every method
    of the policy is passed through timed, the engines' hooks too (r1 asks `wants_window`, `ability_filter` and
    `declare` of its policies, regions `act` and `skip`): a hook hidden by the wrapper would change the game."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.secs = 0.0

    def _timed(self, method):
        def call(*args, **kwargs):
            t = time.process_time()
            try:
                return method(*args, **kwargs)
            finally:
                self.secs += time.process_time() - t
        return call

    def choose(self, view, decision):
        t = time.process_time()
        try:
            return self.inner.choose(view, decision)
        finally:
            self.secs += time.process_time() - t

    def __getattr__(self, name):
        if name == "inner":
            raise AttributeError(name)
        value = getattr(self.inner, name)
        return self._timed(value) if callable(value) else value


@dataclass(frozen=True)
class Target:
    """The search player against the greedy one: at least `rate` (if given), the interval's lower bound above
    `lower`, at most `cpu` CPU-s a game (both players, if given)."""

    searcher: str
    greedy: str
    lower: float
    rate: float | None = None
    cpu: float | None = None
    games: int | None = None   # the pairing's game count the target is stated on

    def text(self) -> str:
        parts = [f"{self.searcher} against {self.greedy}"]
        if self.rate is not None:
            parts.append(f"≥ {100 * self.rate:.0f}%")
        parts.append(f"95% lower bound above {100 * self.lower:.0f}%")
        if self.cpu is not None:
            parts.append(f"≤ {self.cpu} CPU-s a game")
        return ", ".join(parts) + (f" (over {self.games} games)" if self.games else "")


class LadderGame:
    slug = ""
    anchor = "greedy"
    target: Target | None = None
    decks_text = ""      # how the pairings are dealt, for the docs

    def __init__(self) -> None:
        self._decks: dict | None = None

    def decks(self) -> dict:
        if self._decks is None:
            self._decks = self.load_decks()
        return self._decks

    def load_decks(self) -> dict:
        raise NotImplementedError

    def build(self) -> str:
        """"native" (compiled with mypyc) or "pure": the engine build the games ran on."""
        return importlib.import_module(f"simulator.engines.{self.slug}").ENGINE_BUILD

    def players(self) -> list[str]:
        raise NotImplementedError

    def check(self, player: str) -> None:
        raise NotImplementedError

    def slow(self, player: str) -> bool:
        raise NotImplementedError

    def default_games(self, a: str, b: str) -> int:
        raise NotImplementedError

    def deck_pairs(self, a: str, b: str) -> list[tuple[str, str]]:
        """Every starter mirror, then every ordered pair of different starters."""
        names = sorted(self.decks())
        return [(d, d) for d in names] + [(x, y) for x in names for y in names if x != y]

    def play(self, a: str, b: str, deck_a: str, deck_b: str, seed: int, a_seat: int, first: int) -> tuple:
        raise NotImplementedError

    def _timed(self, player: str, policy):
        """Only the search players' decisions are timed: for a player that decides in microseconds the timer
        would cost as much as the decision (and slow the whole game by a third)."""
        return _Timed(policy) if self.slow(player) else policy

    def _play_decks(self, a, b, deck_a, deck_b, seed, a_seat, first):
        """One game of a game played with a deck a side (its engine's `play_game`, `_policy_seed` and
        `policies.make_policy`): (a's score, the game's CPU-s, a's and b's own timed CPU-s or None)."""
        engine = importlib.import_module(f"simulator.engines.{self.slug}")
        make_policy = importlib.import_module(f"simulator.engines.{self.slug}.policies").make_policy
        decks = self.decks()
        names = (a, b) if a_seat == 0 else (b, a)
        pols = [self._timed(n, make_policy(n, engine._policy_seed(seed, k))) for k, n in enumerate(names)]
        seat_decks = (decks[deck_a], decks[deck_b]) if a_seat == 0 else (decks[deck_b], decks[deck_a])
        c0 = time.process_time()
        r = engine.play_game(seat_decks[0], seat_decks[1], seed=seed, first_player=first, policies=pols)
        secs = time.process_time() - c0
        score = 0.5 if r.winner is None else (1.0 if r.winner == a_seat else 0.0)
        return score, secs, _secs(pols[a_seat]), _secs(pols[1 - a_seat])


def _secs(policy) -> float | None:
    return policy.secs if isinstance(policy, _Timed) else None


class R1(LadderGame):
    """A Reign of Kings: the seven frozen 2026 starters (tests/fixtures/starters_2026, as scripts/bench_engine.py
    reads them, so the figures stay comparable when the shipped starters change)."""

    slug = "r1"
    target = Target("expert", "greedy", lower=0.65, rate=0.72, cpu=0.5, games=490)
    decks_text = ("the seven frozen 2026 starter mirrors, then cross matches of every ordered pair of different "
                  "starters, each deal played with the seats swapped (98 games a cycle; 490 is every ordered pair "
                  "five times)")
    ORDER = ("random", "greedy-v1", "greedy", "expert")
    FAST = ("random", "greedy-v1", "greedy", "first")

    def load_decks(self) -> dict:
        sys.path.insert(0, str(ROOT))
        from scripts.bench_engine import starter_decks
        return starter_decks()

    def players(self) -> list[str]:
        from simulator.engines.r1.policies import POLICIES
        names = [p for p in POLICIES if p != "first"]   # "first" always takes option 0: a test fixture
        return [p for p in self.ORDER if p in names] + [p for p in names if p not in self.ORDER]

    def check(self, player: str) -> None:
        from simulator.engines.r1.policies import make_policy
        make_policy(player, 0)

    def slow(self, player: str) -> bool:
        # every player but the rule-of-thumb ones searches (expert, and any search player added to the table)
        return player.partition(":")[0] not in self.FAST

    def default_games(self, a: str, b: str) -> int:
        if self.slow(a) and self.slow(b):
            return 98
        if self.slow(a) or self.slow(b):
            # the target is stated on the 490 games against greedy; the rest is a smaller sample
            return 490 if {a.partition(":")[0], b.partition(":")[0]} == {"expert", "greedy"} else 196
        return 1960

    def play(self, a, b, deck_a, deck_b, seed, a_seat, first):
        return self._play_decks(a, b, deck_a, deck_b, seed, a_seat, first)


class Realms(LadderGame):
    """The Realm duel: the four frozen 2026 starters (tests/fixtures/starters_2026/realms, as scripts/bench_realms.py
    reads them)."""

    slug = "realms"
    target = Target("expert", "greedy", lower=0.60)
    decks_text = ("the four frozen 2026 starter mirrors, then cross matches of every ordered pair of different "
                  "starters, each deal played with the seats swapped (32 games a cycle)")
    ORDER = ("random", "greedy")

    def load_decks(self) -> dict:
        from simulator.engines.realms import starter_decks
        return starter_decks(ROOT / "tests" / "fixtures" / "starters_2026" / "realms")

    def players(self) -> list[str]:
        from simulator.engines.realms.policies import POLICIES, SEARCH_POLICIES
        names = [p for p in POLICIES if p != "first"] + list(SEARCH_POLICIES)
        return [p for p in self.ORDER if p in names] + [p for p in names if p not in self.ORDER]

    def check(self, player: str) -> None:
        from simulator.engines.realms.policies import make_policy
        make_policy(player, 0)

    def slow(self, player: str) -> bool:
        from simulator.engines.realms.policies import POLICIES
        return player.partition(":")[0] not in POLICIES   # the table of the rule-of-thumb players; the rest search

    def default_games(self, a: str, b: str) -> int:
        if self.slow(a) and self.slow(b):
            return 32
        if self.slow(a) or self.slow(b):
            return 256 if "greedy" in (a, b) else 64
        return 960

    def play(self, a, b, deck_a, deck_b, seed, a_seat, first):
        return self._play_decks(a, b, deck_a, deck_b, seed, a_seat, first)


class Regions(LadderGame):
    """Heroes and Regions: a player is a shipped strategy (each with its own Hero, its "deck"), the random player
    or the search player; the random and the search player play the search's base strategy's Hero (Big Money's),
    and the search player plays over that strategy (simulator/engines/regions/search.py)."""

    slug = "regions"
    BASE = "big-money"       # the search player's strategy, and the ladder's "greedy" player
    anchor = BASE
    target = Target("search", BASE, lower=0.60)
    decks_text = ("each player with its own Hero (a strategy's; the random and the search player Big Money's), "
                  "games alternating the seats")

    def _strategies(self) -> dict:
        from simulator.engines.regions import shipped_strategies
        return shipped_strategies()

    def load_decks(self) -> dict:
        return {name: s.hero.code for name, s in self._strategies().items()}

    def players(self) -> list[str]:
        return ["random"] + sorted(self._strategies()) + ["search"]

    def _kind(self, player: str) -> str:
        from simulator.engines.regions.search import parse_policy
        if player in self.decks():
            return "strategy"
        kind, _ = parse_policy(player)
        if kind == "strategy":
            raise ValueError(f"unknown regions player {player!r}: a shipped strategy, random, search or search:N")
        return kind

    def check(self, player: str) -> None:
        self._kind(player)

    def slow(self, player: str) -> bool:
        return self._kind(player) == "search"

    def default_games(self, a: str, b: str) -> int:
        if self.slow(a) and self.slow(b):
            return 40
        if self.slow(a) or self.slow(b):
            return 160
        return 400

    def deck_pairs(self, a: str, b: str) -> list[tuple[str, str]]:
        def deck(p):
            return p if p in self.decks() else self.BASE
        return [(deck(a), deck(b))]

    def _policy(self, player: str, seed: int):
        from simulator.engines.regions import make_policy
        from simulator.engines.regions.search import make_search
        strategies = self._strategies_cached()
        kind = self._kind(player)
        if kind == "search":
            return make_search(strategies[self.BASE], seed, player)
        return make_policy(strategies[player] if kind == "strategy" else "random", seed)

    _parsed: dict | None = None

    def _strategies_cached(self) -> dict:
        if self._parsed is None:
            self._parsed = self._strategies()
        return self._parsed

    def play(self, a, b, deck_a, deck_b, seed, a_seat, first):
        from simulator.engines.regions import CardSet, Game, policy_seed
        from simulator.engines.regions.sim import DEFAULT_MAX_TURNS
        decks = self.decks()
        names = (a, b) if a_seat == 0 else (b, a)
        heroes = [decks[deck_a], decks[deck_b]] if a_seat == 0 else [decks[deck_b], decks[deck_a]]
        pols = [self._timed(n, self._policy(n, policy_seed(seed, k))) for k, n in enumerate(names)]
        c0 = time.process_time()
        game = Game(CardSet.default(), heroes, seed=seed, first_player=first, max_turns=DEFAULT_MAX_TURNS)
        game.play([p.act for p in pols], [getattr(p, "skip", None) for p in pols])
        secs = time.process_time() - c0
        score = (game.returns()[a_seat] + 1) / 2
        return score, secs, _secs(pols[a_seat]), _secs(pols[1 - a_seat])


_ALL = {g.slug: g for g in (R1(), Realms(), Regions())}


def games() -> list[str]:
    """The registered games that have a ladder here, in the registry's order."""
    from cards.games import registry
    return [g.slug for g in registry.games() if g.slug in _ALL]


def get(slug: str) -> LadderGame:
    if slug not in _ALL:
        raise ValueError(f"no ladder for the game {slug!r}; ladders: {', '.join(games())}")
    return _ALL[slug]
