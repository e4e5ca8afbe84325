"""The realms search player `expert` (simulator/engines/realms/search.py): its names, its candidates, that it
decides from its view only and gives the same game for the same seed. Its strength is measured by games with a 95%
interval (docs/games/realms.md, "The search player"), not asserted here."""
from __future__ import annotations

import pytest

from simulator.engines.realms import Game, make_policy, play_game
from simulator.engines.realms import search, sim
from simulator.engines.realms.game import A_DONE, A_PASS
from simulator.engines.realms.policies import GreedyPolicy
from simulator.engines.realms.view import PlayerView


def test_names_and_budgets():
    assert isinstance(make_policy("expert", 3), search.ExpertPolicy)
    assert make_policy("expert:40", 3).iterations == 40
    for bad in ("expert:many", "expert:1", "expert:20000"):
        with pytest.raises(ValueError, match="expert:"):
            make_policy(bad)
    sim.check_policy("policy", "expert:8")
    for bad in ("expert:x", "psychic", "first", 3):
        with pytest.raises(sim.SpecError):
            sim.check_policy("policy", bad)


def test_expert_runs_get_one_game_chunks():
    assert sim.chunk_plan("versus", 10, {"policy": "expert:8"})[0][2] == 1
    assert sim.chunk_plan("versus", 10, {"policy": "greedy"})[0][2] == 10


def _mid_game(decks, kind: str, seed: int = 3) -> Game:
    g = Game(decks["ashen"], decks["sunward"], seed=seed, first_player=0)
    pols = [GreedyPolicy(1), GreedyPolicy(2)]
    while not g.over:
        d = g.pending
        if d.kind == kind and len(d.options) > 2 and g.turn >= 3:
            return g
        g.apply_action(pols[d.player].choose(g.view(d.player), d))
    raise AssertionError(f"no {kind} decision")


@pytest.mark.parametrize("kind, extra", [("actions", (A_DONE,)), ("raid", (A_PASS,)), ("attack", (A_DONE,))])
def test_candidates_start_with_greedy_and_offer_the_alternatives(decks, kind, extra):
    try:
        g = _mid_game(decks, kind)
    except AssertionError:
        pytest.skip(f"this game has no {kind} decision with options")
    d = g.pending
    view = g.view(d.player)
    e = search.ExpertPolicy(5)
    a0 = e.greedy.choose(view, d)
    cands = e.candidates(view, d, a0)
    assert cands[0] == a0 and len(cands) <= search.MAX_CANDIDATES
    assert all(c in d.options for c in cands) and len(set(cands)) == len(cands)
    if a0 != extra:
        assert extra in cands


def test_expert_reads_only_its_view(decks):
    """It is handed a PlayerView, and every world it plays is dealt from it (the opponent's hand differs)."""
    g = _mid_game(decks, "actions")
    d = g.pending
    view = g.view(d.player)
    assert isinstance(view, PlayerView)
    import random
    worlds = [view.determinize(random.Random(k)) for k in range(6)]
    q = 1 - d.player
    assert len({tuple(w.z[q][1]) for w in worlds}) > 1     # the opponent's hand is dealt again
    assert all(w.z[d.player][1] == g.z[d.player][1] for w in worlds)   # its own hand is known
    a = make_policy("expert:4", 9).choose(view, d)
    assert a in d.options


def test_same_seed_same_game(decks):
    kw = dict(seed=11, first_player=1, policies=("expert:4", "greedy"), max_rounds=4)
    a = play_game(decks["deepwood"], decks["tideholm"], **kw)
    b = play_game(decks["deepwood"], decks["tideholm"], **kw)
    assert (a.winner, a.vp, a.rounds, a.stats, a.vp_by_turn) == (b.winner, b.vp, b.rounds, b.stats, b.vp_by_turn)


def test_score_prefers_wins_and_sooner_wins(decks):
    g = _mid_game(decks, "actions")
    g.over, g.winner = True, 0
    assert search.realms_score(g, 0, 1) > search.realms_score(g, 0, 5) > 1.0
    assert search.realms_score(g, 1, 1) < -1.0


def test_the_tree_player_names_and_budgets():
    p = make_policy("expert-tree", 3)
    assert isinstance(p, search.ExpertTreePolicy) and p.iterations == search.DEFAULT_ITERATIONS
    assert make_policy("expert-tree:40", 3).iterations == 40
    for bad in ("expert-tree:many", "expert-tree:1", "expert-tree:20000"):
        with pytest.raises(ValueError, match="expert-tree:"):
            make_policy(bad)
    sim.check_policy("policy", "expert-tree:8")
    assert sim.chunk_plan("versus", 10, {"opponent_policy": "expert-tree"})[0][2] == 1


def test_the_tree_player_searches_from_its_view_and_repeats_its_games(decks):
    g = _mid_game(decks, "actions")
    d = g.pending
    e = make_policy("expert-tree:6", 9)
    assert e.choose(g.view(d.player), d) in d.options and e.searched == 1
    kw = dict(seed=11, first_player=1, policies=("expert-tree:4", "greedy"), max_rounds=4)
    a = play_game(decks["deepwood"], decks["tideholm"], **kw)
    b = play_game(decks["deepwood"], decks["tideholm"], **kw)
    assert (a.winner, a.vp, a.rounds, a.stats, a.vp_by_turn) == (b.winner, b.vp, b.rounds, b.stats, b.vp_by_turn)


def test_the_tree_player_on_both_sides_finishes(decks):
    r = play_game(decks["sunward"], decks["ashen"], seed=5, first_player=0, policies=("expert-tree:4", "expert-tree:4"),
                  max_rounds=6)
    assert r.rounds <= 6
