"""The rules engine of Heroes and Regions (rules 003): a market deckbuilder for 2 to 4 players.

Plain Python, no Django import; the shape of simulator/engines/common/protocol.py (docs/games/regions.md):

>>> cs = CardSet.default()
>>> a, b = shipped_strategy("big-money"), shipped_strategy("region-control")
>>> r = play_game([a, b], seed=7)
>>> r.reason, r.turns > 0, len(r.scores)
('recognition', True, 2)
>>> g = Game(cs, ["Corin Vale", "Asha Thorne"], seed=7)     # decisions as actions
>>> g.pending.kind, g.action_text(g.legal_actions()[-1])
('hero', 'done')

`simulate.versus(...)` and `simulate.round_robin(...)` run many games from one seed in chunks (sim.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .buildinfo import BUILD

# The modules are plain Python, and `make regions-engine` (scripts/build_regions.py) also compiles them to C with
# mypyc, unchanged, for speed. The compiled modules are used only when they were built from exactly these sources;
# otherwise, or with ROC_REGIONS_PURE=1, the .py files are imported.


ENGINE_BUILD = BUILD.select()   # "native" (compiled with mypyc) or "pure"

from .cards import CardDef, CardSet, HeroDef, RegionDef, SetError
from .game import Decision, Game, IllegalAction, PlayerView, fisher_yates
from .policies import RandomPolicy, StrategyPolicy
from .position import PositionError
from .strategy import Strategy, StrategyError, StrategyProblem, parse_strategy

# Bump whenever the same seed, strategies and arguments would give a different game.
ENGINE_VERSION = "regions-2"
STRATEGY_DIR = Path(__file__).resolve().parent / "strategies"

__all__ = [
    "ENGINE_BUILD", "ENGINE_VERSION", "CardDef", "CardSet", "Decision", "Game", "GameResult", "HeroDef", "IllegalAction",
    "PlayerView", "PositionError", "RandomPolicy", "RegionDef", "SetError", "Strategy", "StrategyError",
    "StrategyPolicy", "StrategyProblem", "fisher_yates", "make_policy", "parse_strategy", "play_game",
    "shipped_strategies", "shipped_strategy",
]


def shipped_strategies(cardset: CardSet | None = None) -> dict[str, Strategy]:
    """The baseline strategies in strategies/, by file stem (`big-money`, `region-control`, ...)."""
    cs = cardset or CardSet.default()
    return {path.stem: parse_strategy(path.read_text(encoding="utf-8"), cs)
            for path in sorted(STRATEGY_DIR.glob("*.txt"))}


def shipped_strategy(stem: str, cardset: CardSet | None = None) -> Strategy:
    path = STRATEGY_DIR / f"{stem}.txt"
    if not path.is_file():
        names = ", ".join(sorted(p.stem for p in STRATEGY_DIR.glob("*.txt")))
        raise KeyError(f"no shipped strategy {stem!r}; they are {names}")
    return parse_strategy(path.read_text(encoding="utf-8"), cardset or CardSet.default())


def make_policy(spec, seed: int = 0):
    """A policy from a Strategy, the name "random", or an object that already has `choose` and `act`."""
    if isinstance(spec, Strategy):
        return StrategyPolicy(spec, seed)
    if spec == "random":
        return RandomPolicy(seed)
    if hasattr(spec, "choose") and hasattr(spec, "act"):
        return spec
    raise ValueError(f"unknown policy {spec!r}: give a Strategy or 'random'")


@dataclass
class GameResult:
    """The outcome of one game. Per-turn lists hold one value per player."""

    winner: int | None
    winners: list
    scores: list
    score_parts: list
    reason: str
    turns: int
    first_player: int
    heroes: list
    score_by_turn: list = field(default_factory=list)
    recognition_by_turn: list = field(default_factory=list)
    presence_by_turn: list = field(default_factory=list)
    control_by_turn: list = field(default_factory=list)
    bought: list = field(default_factory=list)
    log: list | None = None
    seed: int = 0
    engine_version: str = ENGINE_VERSION


def policy_seed(seed: int, player: int) -> int:
    """A stream of its own per player, derived from the game seed (never the global random)."""
    return (seed * 1_000_003 + 7919 * (player + 1)) & 0xFFFFFFFFFFFF


def result_of(game: Game) -> GameResult:
    return GameResult(
        winner=game.winner, winners=list(game.winners), scores=[game.score(p) for p in range(game.n)],
        score_parts=[game.score_parts(p) for p in range(game.n)], reason=game.reason or "unfinished",
        turns=game.turn, first_player=game.first_player, heroes=[h.code for h in game.heroes],
        score_by_turn=game.stat_score, recognition_by_turn=game.stat_rec, presence_by_turn=game.stat_presence,
        control_by_turn=game.stat_control, bought=game.stat_bought, log=game.logs, seed=game.seed)


def play_game(players: list, *, seed: int, cardset: CardSet | None = None, heroes: list | None = None,
              first_player: int | None = None, max_turns: int = 60, log: bool = False) -> GameResult:
    """Play one whole game between strategies (or "random" with `heroes` given) and return its GameResult.

    Same players, seed and arguments => the same game. Strategies choose their own Hero; `heroes` overrides.
    """
    cs = cardset or CardSet.default()
    if not 2 <= len(players) <= 4:
        raise ValueError("2 to 4 players")
    hero_list = []
    for k, spec in enumerate(players):
        if heroes is not None and heroes[k] is not None:
            hero_list.append(heroes[k])
        elif isinstance(spec, Strategy):
            hero_list.append(spec.hero.code)
        else:
            raise ValueError(f"player {k}: a random player needs its Hero in heroes=[...]")
    for k, spec in enumerate(players):
        if isinstance(spec, Strategy) and spec.cardset is not None and spec.cardset is not cs:
            raise ValueError(f"player {k}: the strategy {spec.name!r} was read for another card set; parse it with "
                             "the set the game is played with")
    pols = [make_policy(spec, policy_seed(seed, k)) for k, spec in enumerate(players)]
    game = Game(cs, hero_list, seed=seed, first_player=first_player, max_turns=max_turns, log=log)
    game.play([pol.act for pol in pols], [getattr(pol, "skip", None) for pol in pols])
    return result_of(game)
