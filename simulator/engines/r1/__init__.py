"""The rules engine for A Reign of Kings, ruleset r1. Plain Python that imports nothing from Django; `make engine`
also compiles it with mypyc for speed (the sources run unchanged either way).

Public interface (see docs/engine.md):

>>> deck = build_deck([(faction, 1), (quest, 7), (knight, 60)])      # doctest: +SKIP
>>> result = play_game(deck, None, seed=7)                          # goldfish  # doctest: +SKIP
>>> result.winner, result.reason, result.rounds                     # doctest: +SKIP
(0, 'influence', 4)

`Game` exposes every decision as an action (`legal_actions()`, `apply_action()`, `clone()`, `is_terminal()`,
`returns()`), `play_game` is the fast entry point that calls policies directly on each decision.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .buildinfo import BUILD

# The engine's modules are plain Python, and `make engine` (scripts/build_engine.py) also compiles them to C
# with mypyc, unchanged, for speed (docs/engine.md, "Compiled build"). The compiled modules are used only when
# they were built from exactly these sources; otherwise, or with ROC_ENGINE_PURE=1, the .py files are imported.


ENGINE_BUILD = BUILD.select()   # "native" (compiled with mypyc) or "pure"

from .cards import CardDef, Deck, DeckError, build_deck
from .game import Decision, Game, GameOver, IllegalAction, PlayerView
from .policies import GreedyPolicy, RandomPolicy, make_policy

# Bump whenever results for the same seed would change (a rule or a policy plays differently, or the log says
# something else: results are stored with their logs).
ENGINE_VERSION = "r1-engine-12"

__all__ = [
    "ENGINE_BUILD", "ENGINE_VERSION", "CardDef", "Deck", "DeckError", "Decision", "Game", "GameOver", "GameResult",
    "GreedyPolicy", "IllegalAction", "PlayerView", "RandomPolicy", "build_deck", "make_policy", "play_game", "support_report",
]


def support_report(cards: list[dict]) -> list[dict]:
    """Whether the engine executes each card's text (fireplace-style implementation report).

    >>> support_report([{"code": "x", "name": "X", "type": "unit", "faction": "camelot", "text": "Odd."}])
    [{'code': 'x', 'name': 'X', 'supported': False, 'reason': 'no abilities for its text'}]
    """
    out = []
    for card in cards:
        try:
            d = CardDef(card)
            out.append({"code": d.code, "name": d.name, "supported": d.supported, "reason": d.unsupported_reason})
        except DeckError as exc:
            out.append({"code": str(card.get("code", "?")) if isinstance(card, dict) else "?",
                        "name": str(card.get("name", "?")) if isinstance(card, dict) else "?",
                        "supported": False, "reason": str(exc)})
    return out


@dataclass
class GameResult:
    """The outcome of one game (CONTRACTS §3). Per-round lists hold `[player0, player1]` pairs."""

    winner: int | None
    reason: str
    rounds: int
    first_player: int
    influence_by_round: list = field(default_factory=list)
    wealth_spent_by_round: list = field(default_factory=list)
    cards_played_by_round: list = field(default_factory=list)
    struggles_won_by_round: list = field(default_factory=list)
    stuck_in_hand: dict = field(default_factory=dict)
    cards_played: dict = field(default_factory=dict)
    log: list | None = None
    seed: int = 0
    engine_version: str = ENGINE_VERSION
    struggles: list = field(default_factory=list)   # Game.struggle_counts: [player][type] counters (§6.2)


def _policy_seed(seed: int, player: int) -> int:
    # A stream of its own per player, derived from the game seed (never the global random).
    return (seed * 1_000_003 + 7919 * (player + 1)) & 0xFFFFFFFFFFFF


def result_of(game: Game) -> GameResult:
    """The GameResult of a finished (or abandoned) game."""
    br = game.by_round
    return GameResult(
        winner=game.winner,
        reason=game.reason or "round_limit",
        rounds=len(br["influence"]),
        first_player=game.round1_first,
        influence_by_round=br["influence"],
        wealth_spent_by_round=br["spent"],
        cards_played_by_round=br["played"],
        struggles_won_by_round=br["won"],
        stuck_in_hand={game.cdef[i].name: 1 for i in game.hand[0]},
        cards_played=dict(game.cards_played),
        log=game.logs,
        seed=game.seed,
        struggles=game.struggle_counts,
    )


def play_game(deck_a: Deck, deck_b: Deck | None = None, *, seed: int, first_player: int | None = None,
              policies=("greedy", "greedy"), max_rounds: int = 50, log: bool = False) -> GameResult:
    """Play one whole game. `deck_b=None` is the goldfish opponent (CONTRACTS §3).

    Same decks + same seed + same arguments => identical GameResult.

    >>> r = play_game(deck, deck, seed=3, policies=("greedy", "random"), log=True)   # doctest: +SKIP
    >>> r.log[0]                                                                    # doctest: +SKIP
    'R0 §4 setup: player 1 is the first player'
    """
    if not isinstance(deck_a, Deck) or (deck_b is not None and not isinstance(deck_b, Deck)):
        raise TypeError("play_game takes decks made by build_deck()")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError("seed must be an int")
    if isinstance(policies, str) or len(policies) != 2:
        raise ValueError("policies must be a pair, e.g. ('greedy', 'greedy')")
    pols = [make_policy(policies[0], _policy_seed(seed, 0)), make_policy(policies[1], _policy_seed(seed, 1))]
    game = Game(deck_a, deck_b, seed=seed, first_player=first_player, max_rounds=max_rounds, log=log,
                autostart=False, policies=pols)
    game.play()
    return result_of(game)
