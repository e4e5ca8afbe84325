"""Properties of whole random-policy games (003 §1.1, §8): cards are conserved across decks, hands, pockets,
discards, stacks, market piles, the Market Deck and the Market Discard; ten Recognition are in play, never more."""
from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.engines.regions import CardSet, Game
from simulator.engines.regions.cards import TACTIC

HEROES = ["Corin Vale", "Asha Thorne", "Ilse Marrow", "Brannoc Hale"]


def player_cards(g: Game, p: int) -> Counter:
    out: Counter = Counter()
    for zone in (g.deck[p], g.hand[p], g.discard[p], g.pocket[p], g.played[p], *g.stacks[p]):
        out.update(c.code for c in zone)
    return out


def check_invariants(g: Game, start: Counter) -> None:
    cs = g.cs
    market: Counter = Counter(c.code for c in g.mdeck)
    market.update(c.code for c in g.mdiscard)
    for pile in g.mpiles:
        market.update(c.code for c in pile)
    everything = Counter(market)
    recognition = 0
    for p in range(g.n):
        mine = player_cards(g, p)
        # the engine's ownership counts agree with the zones
        assert {cs.cards[i].code: n for i, n in enumerate(g.owned[p]) if n} == dict(mine)
        assert g.rec_owned[p] == mine.get(cs.recognition.code, 0) >= 0
        recognition += g.rec_owned[p]
        everything.update(mine)
        assert g.pocket[p], "at least one card stays in the Pocket (003 §4.2)"
        assert 0 <= g.level[p] <= 5
        assert g.bank[p] >= 0 and min(g.rbank[p]) >= 0
        for stack in g.stacks[p]:
            assert all(c.type in (1, 2, 3) for c in stack)     # Citizens, Structures, Tactics only (003 §5.3)
            if g.phase == 0:
                assert all(c.type != TACTIC for c in stack)     # every Tactic left at the last Clean Up
    # ten Recognition in play: the pile and the players' cards (003 §1.1)
    assert g.rec_pile + recognition == cs.recognition_total
    assert 0 <= g.rec_pile <= 10
    # cards that are not from a standing pile are conserved exactly (003 §8.2: trashed ones go to the Market Discard)
    for code, n in start.items():
        assert everything.get(code, 0) == n, code
    for code in everything:
        card = cs.by_code[code]
        assert card.pile == "standing" or code in start, code
    for c in g.mdeck + g.mdiscard:
        assert c.pile != "standing"


def starting_counts(g: Game) -> Counter:
    out: Counter = Counter(c.code for c in g.cs.market_deck)
    for h in g.heroes:
        out.update(c.code for c in h.deck)
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=4))
def test_random_games_conserve_cards_and_recognition(seed, players):
    rng = random.Random(seed)
    heroes = rng.sample(HEROES, players)
    g = Game(CardSet.default(), heroes, seed=seed, max_turns=30)
    start = starting_counts(g)
    check_invariants(g, start)
    steps = 0
    while not g.is_terminal():
        opts = g.legal_actions()
        assert opts, "a pending decision always has an option"
        g.apply_action(opts[int(rng.random() * len(opts))])
        steps += 1
        if steps % 3 == 0:
            check_invariants(g, start)
    check_invariants(g, start)
    assert g.reason in ("recognition", "turn_limit")
    assert sorted(g.returns()) in ([-1.0, 1.0], [0.0, 0.0]) if players == 2 else True
    if g.reason == "recognition":
        # the pile ran out during the game; a Recognition trashed after the last was taken goes back to the pile
        # without stopping the ending (003 §8.2-§8.3, docs/games/regions.md "Readings")
        assert g.ending


def test_shipped_strategy_games_keep_the_invariants_too():
    from simulator.engines.regions import StrategyPolicy, shipped_strategies

    ss = shipped_strategies()
    names = sorted(ss)
    for seed in range(25):
        a, b = ss[names[seed % 5]], ss[names[(seed // 5) % 5]]
        g = Game(CardSet.default(), [a.hero.code, b.hero.code], seed=seed)
        start = starting_counts(g)
        pols = [StrategyPolicy(a), StrategyPolicy(b)]
        while not g.is_terminal():
            d = g.pending
            g.apply_action(pols[d.player].act(g, d))
            check_invariants(g, start)
        assert g.reason == "recognition" and len(g.stat_score) == g.turn
