"""Properties over whole random-policy games between the starters: checked at every decision.

Every card is in exactly one zone (the one its zone code says), VP is never negative and equals the tokens plus the
VP pile's printed CVs, Gold is never negative, attachments sit on cards in play, Groups have 2+ members in one zone
sharing a Tactic, every printed action reads back as itself, and the Actions options are those built afresh. More
games under `-m slow`.
"""
from __future__ import annotations

import pytest

from simulator.engines.realms import Game, make_policy
from simulator.engines.realms import settlement
from simulator.engines.realms.game import N_ZONES, Z_ATTACHED, Z_BORDER, Z_SETTLE, Z_STRIKE, Z_VP

NAMES = ("sunward", "deepwood", "ashen", "tideholm")


def check_state(g: Game) -> None:
    n = len(g.cdef)
    count = [0] * n
    for p in (0, 1):
        for z in range(N_ZONES):
            for i in g.z[p][z]:
                count[i] += 1
                assert g.zone[i] == z and g.where[i] == p, (g.cdef[i].name, z, g.zone[i])
    assert count == [1] * n, [g.cdef[i].name for i in range(n) if count[i] != 1]
    for p in (0, 1):
        assert g.vp[p] >= 0 and g.reserve[p] >= 0
        pile = sum(g.cdef[i].cv for i in g.z[p][Z_VP])
        assert g.vp[p] == g.vp_tokens[p] + pile
        for i in g.z[p][Z_ATTACHED]:
            h = g.host[i]
            assert Z_SETTLE <= g.zone[h] <= Z_STRIKE and i in g.atts[h]
        for c, i in g.grid[p].items():
            assert g.cell[i] == c and g.zone[i] == Z_SETTLE
    for kind, o, members in g.groups.values():
        assert len(members) >= 2 and len({g.zone[w] for w in members}) == 1
        assert g.zone[members[0]] in (Z_BORDER, Z_STRIKE) and g.group_tactics(members)


def play(decks, a: str, b: str | None, seed: int, pols=("random", "random"), fmt="standard") -> Game:
    g = Game(decks[a], decks[b] if b else None, seed=seed, fmt=fmt)
    players = [make_policy(pols[0], seed), make_policy(pols[1], seed + 1)]
    steps = 0
    while not g.is_terminal():
        check_state(g)
        dec = g.pending
        if steps % 5 == 0:
            for o in dec.options:
                assert g.parse_action(g.action_text(o)) == o
        if dec.kind == "actions":
            # the options kept between decisions (the Group options) are those built afresh (a clone keeps none)
            assert g.clone().action_options(dec.player) == dec.options
        g.apply_action(players[dec.player].choose(g.view(dec.player), dec))
        steps += 1
        assert steps < 20_000
    check_state(g)
    assert g.pending is None and g.current_player() == -1 and g.legal_actions() == []
    return g


@pytest.mark.parametrize("k", range(16))
def test_random_games_keep_the_state_whole(decks, k):
    a, b = NAMES[k % 4], NAMES[k // 4]
    g = play(decks, a, b, seed=1000 + k)
    assert g.winner in (0, 1, None) and g.reason in ("vp", "stalemate")


@pytest.mark.parametrize("k", range(4))
def test_random_goldfish_and_simplified_games(decks, k):
    play(decks, NAMES[k], None, seed=77 + k)
    play(decks, NAMES[k], NAMES[3 - k], seed=88 + k, fmt="simplified", pols=("greedy", "random"))


@pytest.mark.slow
@pytest.mark.parametrize("k", range(200))
def test_many_random_games(decks, k):
    play(decks, NAMES[k % 4], NAMES[(k // 4) % 4] if k % 5 else None, seed=5000 + k,
         pols=(("random", "random"), ("greedy", "random"), ("greedy", "greedy"))[k % 3])


def _frontier_by_the_rule(grid: dict[int, int], g: Game) -> list[tuple[int, int]]:
    """002 §10, R2 read directly: an empty cell edge-adjacent to the Settlement, none of whose card neighbours already
    touches as many cards as its Neighbor Count; with the number of cards it touches; sorted by cell."""
    from simulator.engines.realms.game import NEIGHBOURS
    out = set()
    for c in grid:
        for dn in NEIGHBOURS:
            e = c + dn
            if e in grid:
                continue
            near = [e + dm for dm in NEIGHBOURS if e + dm in grid]
            if all(sum(f + dm in grid for dm in NEIGHBOURS) < g.cdef[grid[f]].nc for f in near):
                out.add((e, len(near)))
    return sorted(out)


def test_building_frontier_matches_the_rule_on_random_settlements(decks):
    """The cached frontier (a window over the Settlement, game.py `_frontier`) against the rule read directly, on
    random Settlements of random Places (Neighbor Counts 1-4 among them), including the empty one."""
    import random

    from simulator.engines.realms.game import NEIGHBOURS, cell_of
    g = Game(decks["ashen"], decks["deepwood"], seed=3)
    ids = [i for i, d in enumerate(g.cdef) if d.is_place or d.is_leader]
    assert len({g.cdef[i].nc for i in ids}) >= 2
    rng = random.Random(7)
    for _ in range(400):
        grid: dict[int, int] = {}
        cells = [cell_of(0, 0)]
        for _ in range(rng.randint(0, 20)):
            c = rng.choice(cells) + rng.choice(NEIGHBOURS)
            if c not in grid:
                grid[c] = rng.choice(ids)
                cells.append(c)
        g.grid[0] = grid
        g.grid_v[0] += 1
        assert settlement.frontier(g, 0) == _frontier_by_the_rule(grid, g)
