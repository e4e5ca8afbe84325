"""An evaluation of an r1 position for the search player: how likely player p is to win from here, as a score in
(-1, 1), read at the start of a round (where the search cuts its play-outs: after §5.6 Refresh every unit is
ready, so the board's Power is what the next Confrontation can use).

It is a logistic model over differences of a few counts between the two players (so the two players' scores are
each other's negatives), fitted by `python -m scripts.r1_fit_evaluation` on greedy-against-greedy games over every
ordered pair of the frozen 2026 starters: the search's play-outs are greedy games, so the evaluation predicts how
those games end. A finished game scores its result (§12).
"""
from __future__ import annotations

import math
from typing import Any

WIN = 15   # §12: 15 Influence wins

# the features, per player; the model reads each one's difference between the two players
FEATURES = ("influence", "near_win", "power", "units", "hand", "others", "deck_low")

# fitted by `python -m scripts.r1_fit_evaluation --games-per-pair 20` (980 greedy games; 2,971 positions to fit,
# 2,918 held out): held-out log-loss 0.360 and accuracy 83.8%, against 0.444 and 79.6% for Influence alone
WEIGHTS = (0.3758, 0.1262, 0.0305, 0.2101, -0.0720, 0.2264, -1.8291)


def features(game: Any, p: int) -> list[float]:
    """The counts of player p the evaluation weighs (FEATURES)."""
    infl = game.influence(p)
    cdef = game.cdef
    power = units = others = 0
    for i in game.field[p]:
        if cdef[i].is_unit:
            units += 1
            pw = game.power(i)
            if pw > 0:
                power += pw
        else:
            others += 1
    deck = len(game.deck[p])
    return [float(infl), float(max(0, infl - 10) ** 2), float(power), float(units), float(len(game.hand[p])),
            float(others), float(max(0, 6 - deck))]


def logit(game: Any, p: int, weights: tuple = WEIGHTS) -> float:
    """The model's log-odds that p wins."""
    fp = features(game, p)
    fq = features(game, 1 - p)
    return sum(w * (a - b) for w, a, b in zip(weights, fp, fq))


def evaluate(game: Any, p: int, weights: tuple = WEIGHTS) -> float:
    """Player p's score in [-1, 1]: its result in a finished game, else 2 * P(p wins) - 1 under the model
    (tanh of half the log-odds)."""
    if game.pending is None or game.winner is not None:
        w = game.winner
        return 0.0 if w is None else (1.0 if w == p else -1.0)
    if game.goldfish:
        return math.tanh((game.influence(p) - 7.5) / 6.0) if p == 0 else 0.0
    return math.tanh(0.5 * logit(game, p, weights))
