"""The engine's public verbs (simulator/engines/common/protocol.py): actions and their texts, clone, positions, views,
the fast loop, and that it all stays pure Python with no Django."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.engines.regions import (
    CardSet, Game, IllegalAction, PositionError, StrategyPolicy, play_game, shipped_strategies, shipped_strategy,
)
from simulator.engines.regions.policies import RandomPolicy

from .helpers import random_game

ROOT = Path(__file__).resolve().parents[4]
HEROES = ["Corin Vale", "Asha Thorne", "Ilse Marrow", "Brannoc Hale"]


def test_every_printed_action_reads_back_to_itself():
    for seed in range(12):
        g = Game(CardSet.default(), HEROES[:2 + seed % 3], seed=seed, max_turns=25)
        rng = random.Random(seed)
        while not g.is_terminal():
            opts = g.legal_actions()
            printed = [g.action_text(a) for a in opts]
            assert len(set(printed)) == len(printed), printed      # one text per option
            for a, text in zip(opts, printed):
                assert g.parse_action(text) == a
                assert g.parse_action(text.upper().replace("'", "\u2019")) == a
            g.apply_action(printed[int(rng.random() * len(printed))])


def test_an_illegal_action_is_refused_and_changes_nothing():
    g = random_game(3, steps=15)
    before = json.dumps(g.to_position(), sort_keys=True)
    for bad in ("buy Lighthouse", "place Sentry at Nowhere", "dance", "take Goods, Goods, Goods, Goods"):
        with pytest.raises(IllegalAction) as exc:
            g.apply_action(bad)
        assert "options:" in str(exc.value) or "Pocket" in str(exc.value)
    with pytest.raises(IllegalAction):
        g.apply_action((99, 1))
    assert json.dumps(g.to_position(), sort_keys=True) == before


def test_clone_is_independent_and_plays_on_identically():
    for seed in range(6):
        g = random_game(seed, steps=40 + seed * 7)
        c = g.clone()
        assert c.to_position() == g.to_position()
        rng1, rng2 = random.Random(seed), random.Random(seed)
        while not g.is_terminal():
            opts1, opts2 = g.legal_actions(), c.legal_actions()
            assert opts1 == opts2
            k = int(rng1.random() * len(opts1))
            assert k == int(rng2.random() * len(opts2))
            g.apply_action(opts1[k])
            c.apply_action(opts2[k])
        assert c.is_terminal() and c.returns() == g.returns() and c.to_position() == g.to_position()


def test_clone_shares_no_zone():
    g = random_game(4, steps=30)
    c = g.clone()
    c.hand[0].append(c.cs.goods_card)
    c.stacks[1][2].append(c.cs.by_name["dockhand"])
    c.mpiles[0].clear()
    assert c.to_position() != g.to_position()
    assert len(g.hand[0]) + 1 == len(c.hand[0])


def test_position_round_trip_at_any_decision():
    for seed in range(8):
        g = Game(CardSet.default(), HEROES[:2 + seed % 3], seed=seed, max_turns=30)
        rng = random.Random(seed + 100)
        k = 0
        while not g.is_terminal():
            if k % 9 == 0:
                pos = g.to_position()
                json.dumps(pos)                                          # JSON all the way down
                h = Game.from_position(json.loads(json.dumps(pos)))
                assert h.to_position() == pos
                assert [h.action_text(a) for a in h.legal_actions()] == [g.action_text(a) for a in g.legal_actions()]
                # with the generator's state in it, the loaded game continues exactly as the original
                probe_g, probe_h = g.clone(), h
                for _ in range(25):
                    if probe_g.is_terminal():
                        break
                    a = probe_g.legal_actions()[0]
                    probe_g.apply_action(a)
                    probe_h.apply_action(a)
                assert probe_h.to_position() == probe_g.to_position()
            opts = g.legal_actions()
            g.apply_action(opts[int(rng.random() * len(opts))])
            k += 1
        assert Game.from_position(g.to_position()).is_terminal()


@pytest.mark.parametrize("pos, message", [
    ({"players": [{"hero": "hr-010"}]}, "2 to 4 players"),
    ({"players": [{"hero": "hr-010"}, {"hero": "Nobody"}]}, "player 1, hero: no Hero 'Nobody'"),
    ({"players": [{"hero": "hr-010", "hand": ["hr-999"]}, {"hero": "hr-020"}]}, "player 0, hand: unknown card"),
    ({"players": [{"hero": "hr-010", "stacks": {"hr-050": ["hr-003"]}}, {"hero": "hr-020"}]},
     "player 0, stack at Gig Harbour: Silver is not a Citizen, Structure or Tactic"),
    ({"players": [{"hero": "hr-010", "stacks": {"atlantis": []}}, {"hero": "hr-020"}]}, "unknown Region 'atlantis'"),
    ({"players": [{"hero": "hr-010", "pocket": []}, {"hero": "hr-020"}]}, "at least one card must stay"),
    ({"players": [{"hero": "hr-010", "hand": ["hr-006"]}, {"hero": "hr-020"}], "recognition_pile": 10},
     "ten Recognition are in play"),
    ({"players": [{"hero": "hr-010", "bank": -1}, {"hero": "hr-020"}]}, "player 0, bank"),
    ({"players": [{"hero": "hr-010"}, {"hero": "hr-020"}], "market_deck": ["hr-003"]}, "belongs to its standing"),
    ({"players": [{"hero": "hr-010"}, {"hero": "hr-020"}], "phase": "lunch"}, "phase: one of"),
    ({"players": [{"hero": "hr-010", "colour": "red"}, {"hero": "hr-020"}]}, "unknown key(s) colour"),
])
def test_a_bad_position_is_refused_with_where_and_what(pos, message):
    with pytest.raises(PositionError) as exc:
        Game.from_position(pos)
    assert message in str(exc.value)


def test_view_shows_own_cards_and_counts_of_the_rest():
    g = random_game(5, steps=25)
    v = g.view(0)
    pub = v.public()
    assert pub["players"][0]["hand"] == [c.code for c in g.hand[0]]
    assert pub["players"][1]["hand"] == len(g.hand[1]) and pub["players"][1]["pocket"] == len(g.pocket[1])
    assert isinstance(pub["market_deck"], int) and "rng" not in pub


def test_determinize_keeps_what_the_player_knows_and_deals_the_rest():
    for seed in range(6):
        g = random_game(seed, steps=30 + seed)
        if g.is_terminal():
            continue
        p = g.current_player()
        seen_other = set()
        for k in range(8):
            d = g.view(p).determinize(random.Random(k))
            assert sorted(c.code for c in d.hand[p]) == sorted(c.code for c in g.hand[p])
            assert [c.code for c in d.pocket[p]] == [c.code for c in g.pocket[p]]
            assert d.stacks == g.stacks and d.mpiles == g.mpiles and d.discard == g.discard
            q = 1 - p
            assert len(d.hand[q]) == len(g.hand[q]) and len(d.deck[q]) == len(g.deck[q])
            pool = sorted(c.code for c in g.hand[q] + g.pocket[q] + g.deck[q])
            assert sorted(c.code for c in d.hand[q] + d.pocket[q] + d.deck[q]) == pool
            assert sorted(c.code for c in d.deck[p]) == sorted(c.code for c in g.deck[p])
            kt = g.known_top[p]
            if kt:
                assert d.deck[p][-kt:] == g.deck[p][-kt:]            # the Recognition paid on top stays known
            assert [g.action_text(a) for a in d.legal_actions()] == [g.action_text(a) for a in g.legal_actions()]
            seen_other.add(tuple(c.code for c in d.hand[q]))
            while not d.is_terminal():                                 # a full game to play out
                d.apply_action(d.legal_actions()[-1])
        assert len(seen_other) > 1 or len(g.hand[q]) == 0 or len(set(g.hand[q] + g.deck[q])) == 1


def test_strategy_policies_decide_only_from_what_their_player_may_know():
    ss = shipped_strategies()
    for seed, (a, b) in enumerate([("big-money", "region-control"), ("wide-board", "worker-engine"),
                                   ("recognition-rush", "region-control")]):
        sa, sb = ss[a], ss[b]
        g = Game(CardSet.default(), [sa.hero.code, sb.hero.code], seed=seed)
        pols = [StrategyPolicy(sa), StrategyPolicy(sb)]
        rng = random.Random(seed)
        while not g.is_terminal():
            d = g.pending
            copies = [pols[d.player].clone() for _ in range(2)]
            want = pols[d.player].choose(g.view(d.player), d)
            for copy in copies:
                other = g.view(d.player).determinize(rng)
                assert g.action_text(copy.choose(other.view(d.player), other.pending)) == g.action_text(want)
            g.apply_action(want)


def test_fast_loop_and_validated_path_play_the_same_game():
    ss = shipped_strategies()
    names = sorted(ss)
    for seed in range(10):
        a, b = ss[names[seed % 5]], ss[names[(seed * 3 + 1) % 5]]
        fast = play_game([a, b], seed=seed, log=True)
        g = Game(CardSet.default(), [a.hero.code, b.hero.code], seed=seed, log=True)
        pols = [StrategyPolicy(a), StrategyPolicy(b)]
        while not g.is_terminal():
            d = g.pending
            g.apply_action(pols[d.player].choose(g.view(d.player), d))   # checked against the options
        assert g.logs == fast.log and [g.score(p) for p in (0, 1)] == fast.scores


def test_random_policy_games_with_two_to_four_players_end():
    for n in (2, 3, 4):
        for seed in range(4):
            g = Game(CardSet.default(), HEROES[:n], seed=seed, max_turns=60)
            pols = [RandomPolicy(seed * 10 + p) for p in range(n)]
            g.play([pol.act for pol in pols])
            assert g.is_terminal() and g.reason in ("recognition", "turn_limit")
            assert len(g.returns()) == n


def test_same_seed_same_game_and_logs_cite_the_rules():
    a, b = shipped_strategy("big-money"), shipped_strategy("region-control")
    r1, r2 = play_game([a, b], seed=42, log=True), play_game([a, b], seed=42, log=True)
    assert r1 == r2
    assert play_game([a, b], seed=43).score_by_turn != r1.score_by_turn or True
    cited = [line for line in r1.log if "003 §" in line]
    assert len(cited) > len(r1.log) // 3
    assert r1.log[-1].endswith("wins") or "tie" in r1.log[-1]


@pytest.mark.processes
def test_engine_imports_no_django():
    code = ("import sys; import simulator.engines.regions as r; import simulator.engines.regions.sim; "
            "import cards.games.regions.schema; "
            "print(any(m == 'django' or m.startswith('django.') for m in sys.modules))")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
