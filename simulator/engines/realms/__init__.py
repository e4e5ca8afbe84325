"""The realms rules engine (rules `002_…`, docs/games/realms.md): pure Python, no Django import.

Public interface (docs/games/realms-engine.md):

>>> deck = deck_from_decklist(text)                             # doctest: +SKIP
>>> r = play_game(deck, None, seed=7)                           # goldfish: a Leader and nothing else
>>> r.winner, r.reason, r.turns                                 # doctest: +SKIP
(0, 'vp', 11)
>>> g = Game(deck, other, seed=7)                               # every decision is an action
>>> g.legal_actions(), g.action_text(a), g.parse_action("build fb-001"), g.clone(), g.view(0)  # doctest: +SKIP

`sim.goldfish(...)` and `sim.versus(...)` are the simulation entry points (chunked and seeded like r1's runner).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .buildinfo import BUILD

# The engine's modules are plain Python, and `make install` (scripts/build_realms.py) also compiles them to C with
# mypyc, unchanged, for speed. The compiled modules are used only when they were built from exactly these sources;
# otherwise, or with ROC_REALMS_PURE=1, the .py files are imported.


ENGINE_BUILD = BUILD.select()   # "native" (compiled with mypyc) or "pure"

from .cards import CardDef, Deck, DeckError, build_deck
from .decks import deck_from_decklist, starter_deck, starter_decks
from .game import Decision, Game, IllegalAction, PositionError, stats_dict
from .policies import GreedyPolicy, RandomPolicy, evaluate, make_policy, play_out
from .positions import from_position, to_position
from .view import HiddenCard, PlayerView

# Bump whenever results for the same seed would change.
ENGINE_VERSION = "realms-engine-2"

__all__ = [
    "ENGINE_BUILD", "ENGINE_VERSION", "CardDef", "Deck", "DeckError", "Decision", "Game", "GameResult", "GreedyPolicy",
    "HiddenCard", "IllegalAction", "PlayerView", "PositionError", "RandomPolicy", "build_deck",
    "deck_from_decklist", "evaluate", "from_position", "make_policy", "play_game", "starter_deck", "starter_decks",
    "support_report", "to_position",
]


def support_report(cards: list[dict]) -> list[dict]:
    """Whether the engine executes each card's text (fireplace-style implementation report).

    >>> support_report([{"code": "x", "name": "X", "type": "place", "cv": 2, "tactics": ["front"],
    ...                  "neighbor_count": 2, "text": "Something odd."}])
    [{'code': 'x', 'name': 'X', 'supported': False, 'reason': 'no abilities for its text'}]
    """
    out = []
    for card in cards:
        try:
            d = CardDef(card)
            out.append({"code": d.code, "name": d.name, "supported": d.supported, "reason": d.unsupported_reason})
        except (DeckError, KeyError, TypeError, ValueError) as exc:
            out.append({"code": str(card.get("code", "?")) if isinstance(card, dict) else "?",
                        "name": str(card.get("name", "?")) if isinstance(card, dict) else "?",
                        "supported": False, "reason": str(exc)})
    return out


@dataclass
class GameResult:
    """The outcome of one game. Per-turn lists are player 0's figures at the end of each of its turns."""

    winner: int | None
    reason: str                   # "vp" (reached the VP to win) or "stalemate" (R22: the round cap)
    turns: int                    # player 0's turns
    rounds: int                   # rounds begun (one turn of each player)
    first_player: int
    vp: list = field(default_factory=list)                 # final VP [p0, p1]
    vp_by_turn: list = field(default_factory=list)         # player 0's VP after each of its turns
    gold_by_turn: list = field(default_factory=list)       # player 0's Reserve after each of its turns
    unpaid_by_turn: list = field(default_factory=list)     # 1 where red icons went unpaid (cards discarded)
    stuck_in_hand: dict = field(default_factory=dict)      # player 0's hand when the game ended (name -> copies)
    cards_played: dict = field(default_factory=dict)       # player 0's plays (name -> times)
    stats: list = field(default_factory=list)              # [p0, p1] counters (attacks, raids, rewards, ...)
    leaders: list = field(default_factory=list)            # the Leaders revealed [p0, p1]
    log: list | None = None
    seed: int = 0
    engine_version: str = ENGINE_VERSION


def _policy_seed(seed: int, player: int) -> int:
    # A stream of its own per player, derived from the game seed (never the global random).
    return (seed * 1_000_003 + 7919 * (player + 1)) & 0xFFFFFFFFFFFF


def result_of(game: Game) -> GameResult:
    """The GameResult of a finished (or abandoned) game."""
    stuck: dict[str, int] = {}
    for i in game.z[0][1]:
        n = game.cdef[i].name
        stuck[n] = stuck.get(n, 0) + 1
    return GameResult(
        winner=game.winner,
        reason=game.reason or "stalemate",
        turns=game.turns_taken[0],
        rounds=game.round,
        first_player=game.first,
        vp=list(game.vp),
        vp_by_turn=list(game.vp_by_turn[0]),
        gold_by_turn=list(game.gold_by_turn[0]),
        unpaid_by_turn=list(game.unpaid_by_turn[0]),
        stuck_in_hand=stuck,
        cards_played=dict(game.played[0]),
        stats=[stats_dict(game.stats[0]), stats_dict(game.stats[1])],
        leaders=[game.cdef[game.leader[p]].name if game.leader[p] >= 0 else None for p in (0, 1)],
        log=game.logs,
        seed=game.seed,
    )


def play_game(deck_a: Deck, deck_b: Deck | None = None, *, seed: int, first_player: int | None = None,
              policies=("greedy", "greedy"), fmt: str = "standard", max_rounds: int = 50, log: bool = False,
              goldfish_leader: CardDef | None = None) -> GameResult:
    """Play one whole game. `deck_b=None` is the goldfish opponent (its Leader and nothing else; it never acts).

    `policies` are names (`random`, `greedy`) or policy objects (`choose(view, decision)`). Same decks, seed and
    arguments give an identical GameResult.
    """
    if not isinstance(deck_a, Deck) or (deck_b is not None and not isinstance(deck_b, Deck)):
        raise TypeError("play_game takes decks made by build_deck() or deck_from_decklist()")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError("seed must be an int")
    if isinstance(policies, str) or len(policies) != 2:
        raise ValueError("policies must be a pair, e.g. ('greedy', 'greedy')")
    pols = [make_policy(x, _policy_seed(seed, k)) if isinstance(x, str) else x for k, x in enumerate(policies)]
    game = Game(deck_a, deck_b, seed=seed, first_player=first_player, fmt=fmt, max_rounds=max_rounds, log=log,
                goldfish_leader=goldfish_leader)
    play_out(game, pols[0], pols[1])
    return result_of(game)
