"""The search player (simulator/engines/regions/search.py): its policy names and budgets, the same moves from the
same seed, decisions only from what its player may know (the same answer on every deal of the hidden cards), its
candidates, and its plumbing through sim.py (spec, chunks, the policy names of the versus JSON). Its strength is
measured by games with intervals in docs/games/regions.md, never asserted here."""
from __future__ import annotations

import random

import pytest

from simulator.engines.regions import CardSet, Game, StrategyPolicy, shipped_strategies, sim
from simulator.engines.regions.game import A_BUY, A_PLACE, DONE
from simulator.engines.regions.search import (
    DEFAULT_ITERATIONS, MAX_CANDIDATES, SearchPolicy, make_search, parse_policy, regions_score,
)

SS = shipped_strategies()


@pytest.mark.parametrize("name, want", [(None, ("strategy", None)), ("strategy", ("strategy", None)),
                                        ("random", ("random", None)), ("search", ("search", DEFAULT_ITERATIONS)),
                                        ("search:6", ("search", 6))])
def test_policy_names(name, want):
    assert parse_policy(name) == want


@pytest.mark.parametrize("name, words", [("search:x", "whole number"), ("search:1", "from 2 to"),
                                         ("search:20000", "from 2 to"), ("expert", "unknown policy"),
                                         ("greedy", "unknown policy")])
def test_bad_policy_names_say_what_to_write(name, words):
    with pytest.raises(ValueError, match=words):
        parse_policy(name)
    with pytest.raises(sim.SpecError, match=words):
        sim.versus_spec(sim.shipped_text("big-money"), sim.shipped_text("big-money"), games=2, policy=name)


def _play(seed: int, budget: int) -> tuple[list, SearchPolicy]:
    a, b = SS["big-money"], SS["region-control"]
    g = Game(CardSet.default(), [a.hero.code, b.hero.code], seed=seed, log=True)
    me = SearchPolicy(a, seed=seed, iterations=budget)
    other = StrategyPolicy(b, seed + 1)
    g.play([me.act, other.act], [me.skip, other.skip])
    return list(g.logs), me


def test_the_same_seed_gives_the_same_moves():
    h1, p1 = _play(5, 4)
    h2, p2 = _play(5, 4)
    assert h1 == h2 and p1.searched == p2.searched > 0
    h3, _ = _play(6, 4)
    assert h1 and h3 != h1


def test_it_decides_only_from_what_its_player_may_know():
    """Asked the same decision on another deal of every card its player cannot see (the other Hand, Pocket and
    Deck, its own Deck order, the Market Deck), a search player seeded alike answers the same."""
    a, b = SS["big-money"], SS["worker-engine"]
    g = Game(CardSet.default(), [a.hero.code, b.hero.code], seed=11)
    pols = [StrategyPolicy(a, 1), StrategyPolicy(b, 2)]
    rng = random.Random(3)
    checked = 0
    while not g.is_terminal() and checked < 6:
        d = g.pending
        if d.player == 0 and d.kind in ("purchase", "position"):
            want = SearchPolicy(a, seed=99, iterations=6).act(g, d)
            other = g.view(0).determinize(rng)
            assert other.hand[1] != g.hand[1] or other.deck[1] != g.deck[1] or not g.deck[1]
            got = SearchPolicy(a, seed=99, iterations=6).act(other, other.pending)
            assert g.action_text(got) == g.action_text(want)
            checked += 1
        g.apply_action(pols[d.player].act(g, d))
    assert checked >= 3


def test_candidates_start_with_the_strategys_choice():
    a, b = SS["region-control"], SS["big-money"]
    g = Game(CardSet.default(), [a.hero.code, b.hero.code], seed=2)
    sp = SearchPolicy(a, seed=1, iterations=4)
    seen = set()
    while not g.is_terminal():
        d = g.pending
        pol = StrategyPolicy(a if d.player == 0 else b)
        a0 = pol.act(g, d)
        if d.player == 0 and d.kind in ("purchase", "position", "contest"):
            cands = sp._candidates(g, d, a0)
            assert cands[0] == a0 and len(cands) <= MAX_CANDIDATES and len(set(cands)) == len(cands)
            opts = d.options
            assert all(c in opts for c in cands)
            if len(cands) > 1:
                seen.add(d.kind)
                assert DONE in cands
                assert all(c == DONE or c[0] in (A_BUY, A_PLACE) for c in cands)
        g.apply_action(a0)
    assert "purchase" in seen


def test_score_is_the_result_plus_a_small_margin():
    a, b = SS["big-money"], SS["region-control"]
    g = Game(CardSet.default(), [a.hero.code, b.hero.code], seed=4)
    pols = [StrategyPolicy(a), StrategyPolicy(b)]
    assert abs(regions_score(g, 0)) <= 0.2
    g.play([p.act for p in pols], [p.skip for p in pols])
    w = g.winner
    assert w is not None
    assert regions_score(g, w) >= 1.0 and regions_score(g, 1 - w) <= -1.0


def test_versus_with_the_search_player():
    spec = sim.versus_spec(sim.shipped_text("big-money"), sim.shipped_text("region-control"), games=3, seed=2,
                           policy="search:4")
    assert spec["policies"] == ["search:4", "strategy"] and spec["settings"]["search"] == ["search:4", "strategy"]
    assert [size for _, _, size in sim.chunk_plan(3, sim.is_slow(spec["settings"]))] == [2, 1]
    plain = sim.versus_spec(sim.shipped_text("big-money"), sim.shipped_text("region-control"), games=3, seed=2)
    assert "search" not in plain["settings"] and sim.request_key(plain) != sim.request_key(spec)
    r = sim.run_in_process(spec)
    assert r["policies"] == ["search:4:Big Money", "strategy:Region Control"]
    assert r["wins"] + r["losses"] + r["draws"] == 3
    again = sim.run_in_process(spec)
    assert {k: v for k, v in r.items() if k != "elapsed_s"} == {k: v for k, v in again.items() if k != "elapsed_s"}
    assert make_search(SS["big-money"], 1, "search:3").iterations == 3


def test_the_tree_search_player_names_and_plumbing():
    assert parse_policy("search-tree") == ("search-tree", DEFAULT_ITERATIONS)
    assert parse_policy("search-tree:6") == ("search-tree", 6)
    with pytest.raises(ValueError, match="from 2 to"):
        parse_policy("search-tree:1")
    p = make_search(SS["big-money"], 1, "search-tree:5")
    assert p.tree and p.iterations == 5 and p.name == "search-tree:5:Big Money"
    assert not make_search(SS["big-money"], 1, "search").tree
    spec = sim.versus_spec(sim.shipped_text("big-money"), sim.shipped_text("big-money"), games=2, seed=3,
                           policy="search-tree:4", opponent_policy="search-tree:4")
    assert spec["policies"] == ["search-tree:4", "search-tree:4"]
    r = sim.run_in_process(spec)
    assert r["policies"] == ["search-tree:4:Big Money", "search-tree:4:Big Money"]
    assert r["wins"] + r["losses"] + r["draws"] == 2


@pytest.mark.parametrize("tree", [False, True])
def test_search_on_both_sides_finishes_and_departs_from_its_strategy(tree):
    a, b = SS["big-money"], SS["recognition-rush"]
    for seed in (1, 2):
        g = Game(CardSet.default(), [a.hero.code, b.hero.code], seed=seed)
        p0 = SearchPolicy(a, seed=1, iterations=6, tree=tree)
        p1 = SearchPolicy(b, seed=2, iterations=6, tree=tree)
        g.play([p0.act, p1.act], [p0.skip, p1.skip])
        assert g.is_terminal() and g.turn <= g.max_turns
        assert p0.searched > 0 and p1.searched > 0
    assert p0.departed + p1.departed > 0


class _GoodsLover(SearchPolicy):
    """A search whose simulations always find one more (free) Goods at least as good as stopping."""

    def _search(self, v, d, cands):
        for k, c in enumerate(cands):
            if c[0] == A_BUY and self._card(v, c).cost == 0:
                return k
        return 0


def test_a_search_buys_no_more_than_the_strategies_cap_a_phase():
    """Goods costs nothing and its pile never runs out: a search preferring one more Goods each time the window
    reopens stops at the strategies' cap on buys a phase (without it such a game never ends)."""
    from simulator.engines.regions.policies import MAX_BUYS
    a, b = SS["big-money"], SS["big-money"]
    g = Game(CardSet.default(), [a.hero.code, b.hero.code], seed=5)
    p0 = _GoodsLover(a, seed=1, iterations=2)
    other = StrategyPolicy(b, 2)
    buys: dict = {}
    calls = [0]

    def act(v, d):
        calls[0] += 1
        assert calls[0] < 5000, "the game does not end"
        c = p0.act(v, d)
        if c[0] == A_BUY:
            buys[g.turn] = buys.get(g.turn, 0) + 1
        return c

    g.play([act, other.act], [p0.skip, other.skip])
    assert g.is_terminal() and p0.departed > 0
    assert max(buys.values()) == MAX_BUYS
