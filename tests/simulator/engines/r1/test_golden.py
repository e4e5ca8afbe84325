"""A seeded golden transcript of a whole game on the engine's own test cards (OpenSpiel playthrough style).

If this changes, results for a seed changed: check the new transcript against the rulebook, then bump
ENGINE_VERSION and update the pinned lines.
"""
from simulator.engines.r1 import ENGINE_VERSION, build_deck, play_game

from .helpers import FACTION, card

KNIGHT = card("knight", name="Knight", cost=3, power=3, icons=["combat", "faith"], keywords=["Glory"])
SPY = card("spy", name="Spy", cost=2, power=1, icons=["guile", "sorcery"], keywords=["Subtle"])
WALL = card("wall", name="Wall", cost=4, power=4, icons=["combat", "guile", "sorcery"], keywords=["Wary"])
MUSTER = card("q1", "quest", name="Muster", wealth=5, momentum=1, spoils=1, levy=6)
RAID = card("q2", "quest", name="Raid", wealth=3, momentum=3, spoils=2, levy=5)
WINTER = card("winter-faction", "faction", faction="winter", name="Winter")


def decks():
    a = build_deck([(FACTION, 1), (MUSTER, 4), (RAID, 3), (KNIGHT, 20), (SPY, 20), (WALL, 20)])
    b = build_deck([(WINTER, 1), (MUSTER, 4), (RAID, 3), (dict(KNIGHT, faction="winter"), 20),
                    (dict(WALL, faction="winter"), 20), (dict(SPY, faction="winter"), 20)])
    return a, b


GOLDEN_OPENING = [
    'R0 §4 setup: player 0 is the first player',
    'R0 §4 player 0 places 2 card(s) facedown, budget 8/8',
    'R0 §4 player 1 places 2 card(s) facedown, budget 8/8',
    'R0 §4 reveal: player 0 fields Wall, Wall',
    'R0 §4 reveal: player 1 fields Wall, Wall',
    'R1 §5.1 Quest: player 0 embarks on Muster; player 1 embarks on Muster',
    'R1 §5.1 player 1 chooses player 0 as first player',
    'R1 §5.3 Kingdom: player 0 collects 5 wealth',
    'R1 §5.3 Kingdom: player 0 plays Wall for 4',
    'R1 §5.3 Kingdom: player 1 collects 5 wealth',
    'R1 §5.3 Kingdom: player 1 plays Wall for 4',
    'R1 §6.2 S.3 player 1 declares a Combat struggle with Wall, Wall, Wall',
    'R1 §6.2 S.6 player 0 defends with Wall',
    'R1 Confrontation S.8 Combat: 12 vs 4, attacker wins, margin 8',
]


def test_golden_transcript_seed_2026():
    a, b = decks()
    r = play_game(a, b, seed=2026, log=True)
    assert ENGINE_VERSION == "r1-engine-12"
    # the fixed greedy player (not greedy-v1): player 1 makes player 0 go first (§5.1), player 0 keeps its Walls home as
    # defenders and chump-defends the 12-Power attack (S.10: no unopposed Influence)
    assert (r.winner, r.reason, r.rounds, r.first_player) == (1, "influence", 9, 0)
    assert r.influence_by_round == [[1, 0], [1, 1], [1, 2], [1, 3], [3, 4], [3, 6], [3, 9], [5, 12], [4, 15]]
    assert r.log[:len(GOLDEN_OPENING)] == GOLDEN_OPENING
    assert r.log[-1].endswith("wins")
