"""The flow held as data (phases.py: `steps`, the pipeline) and the copies made from it (Game.clone,
PlayerView.determinize): a copy is the state at the start of the current step copied, plus the choices made since
in that step replayed — never the whole game."""
from __future__ import annotations

import random

import pytest

from simulator.engines.r1 import ENGINE_BUILD, Game, make_policy
from simulator.engines.r1.phases import S_CWIN, S_KWIN, S_ROUND, S_SETUP
from simulator.engines.r1.spec import starter_decks

# what a copy shares with its original on purpose: what never changes during a game (the decks, the card map a
# deal made, the labels a position gave), the caches of static abilities (replaced, never changed, when the
# statics change), the functions a position and a test give
SHARED = {"decks", "card_map", "labels", "origin", "observer", "_statics_cache", "_st_power", "_st_grant", "_st_rule",
          "_st_cost", "_st_player", "_st_rule_by", "_st_power_prep"}


def greedy_game(seed: int, stop_round: int) -> Game:
    decks = starter_decks()
    g = Game(decks[seed % len(decks)], decks[(seed + 3) % len(decks)], seed=seed,
             policies=(make_policy("greedy", seed), make_policy("greedy", seed + 1)))
    g.play(stop=lambda g, d: g.round_no >= stop_round and d.kind == "window" and g.phase == 3)
    return g


def containers(x) -> bool:
    return isinstance(x, (list, dict, set, bytearray))


def test_a_new_game_holds_its_flow_as_steps():
    g = Game(starter_decks()[0], starter_decks()[1], seed=3)
    assert g.steps == [(S_ROUND, -1, -1)]   # §4 setup popped and under way, the rounds after it
    assert g.pending.kind == "mulligan"
    unstarted = Game(starter_decks()[0], starter_decks()[1], seed=3, autostart=False)
    assert unstarted.steps is None
    unstarted._advance(None, first=True)
    assert unstarted.steps == [(S_ROUND, -1, -1)] and S_SETUP not in [s[0] for s in unstarted.steps]


@pytest.mark.skipif(ENGINE_BUILD == "native", reason="compiled classes have no __dict__ to list; the same source is "
                                                     "checked on the plain-Python build")
@pytest.mark.parametrize("seed", [0, 5])
def test_a_copy_holds_every_attribute_and_shares_no_container(seed):
    g = greedy_game(seed, 3)
    g.clone()                      # the first copy: the game keeps a snapshot from now on
    g._set_policies((make_policy("greedy", 9), make_policy("greedy", 10)))
    g.play(stop=lambda g, d: g.round_no >= 4)
    snap = g._snap
    assert snap is not None
    copy = g.clone()
    assert sorted(vars(copy)) == sorted(vars(g)), "State.__init__ with a template must copy every attribute"
    for name, value in vars(g).items():
        if name in SHARED or not containers(value):
            continue
        assert getattr(copy, name) is not value, name
        if isinstance(value, list) and value and containers(value[0]):
            assert all(a is not b for a, b in zip(getattr(copy, name), value)), name
    if g.struggle is not None:
        assert copy.struggle is not g.struggle


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_copy_replays_only_the_choices_of_the_current_step(seed):
    g = greedy_game(seed, 4)
    first = g.clone()
    assert first.history == g.history and g.keep_snap   # the first copy replayed the game once
    g._set_policies((make_policy("greedy", 3), make_policy("greedy", 4)))
    late = []
    g.play(stop=lambda g, d: (late.append(len(g.history)) or len(late) > 40))
    snap = g._snap
    assert snap is not None and len(snap.history) <= len(g.history)
    replayed = len(g.history) - len(snap.history)
    assert replayed < 60 < len(snap.history)   # a step's choices, not the game's
    copy = g.clone()
    assert copy._base is snap and copy.history == g.history
    assert copy.pending.kind == g.pending.kind and copy.pending.options == g.pending.options
    assert copy.state_text() == g.state_text()
    # the turn windows go on as steps of their own after each action (§8.2)
    kinds = {s[0] for s in g.steps}
    assert S_ROUND in kinds
    del kinds


def test_a_copy_played_past_its_step_is_copied_from_its_base_and_plays_on_as_the_original():
    g = greedy_game(2, 3)
    world = g.view(g.current_player()).determinize(random.Random(4))
    base = world._snap
    assert world._base is base and not world.keep_snap
    rng = random.Random(5)
    for _ in range(30):                 # played on past the step it was dealt in, keeping no snapshots
        if world.pending is None:
            break
        world.apply_action(rng.choice(world.legal_actions()))
    twin = world.clone()
    assert twin._base is not None and world.keep_snap
    r1, r2 = random.Random(6), random.Random(6)
    while world.pending is not None:
        world.apply_action(r1.choice(world.legal_actions()))
        twin.apply_action(r2.choice(twin.legal_actions()))
    assert twin.state_text() == world.state_text() and twin.history == world.history
    assert twin.winner == world.winner and twin.rng.getstate() == world.rng.getstate()


def test_a_world_waits_at_the_players_own_decision_with_its_options():
    g = greedy_game(4, 3)
    p = g.current_player()
    plain = g.clone()             # no policies: every option, as a world offers them
    dealt = 0
    for k in range(10):
        w = g.view(p).determinize(random.Random(k))
        assert w.pending.kind == g.pending.kind and w.pending.player == p
        assert w.pending.options == plain.pending.options
        assert set(g.pending.options) <= set(w.pending.options)   # the greedy player's filter took some out
        dealt += w.state_text() != plain.state_text() or w.deck != plain.deck or w.cdef != plain.cdef
        w2 = plain.view(p).determinize(random.Random(k))
        assert w2.pending.options == plain.pending.options
    assert dealt >= 8   # the worlds are dealt, not the game as it is (the last resort)


def test_turn_windows_continue_as_steps():
    g = greedy_game(6, 2)
    g.clone()
    seen = set()
    g._set_policies((make_policy("greedy", 1), make_policy("greedy", 2)))
    g.play(stop=lambda g, d: (seen.add(g._snap.steps[-1][0]) if g._snap is not None else None) or g.round_no > 3)
    assert {S_KWIN, S_CWIN} <= seen


class _Dealer:
    """A policy that, at each of its decisions from round 3 on, deals a world from its own view (as a search player
    does) and records whether the world hides the opponent's hand, then plays the greedy choice."""

    def __init__(self, seed: int):
        self.greedy = make_policy("greedy", seed)
        self.rng = random.Random(seed)
        self.looks = []   # (world waits at the same decision, opponent's hand dealt differently)

    def choose(self, view, dec):
        g = view._g
        if g.round_no >= 3 and len(self.looks) < 12:
            w = view.determinize(self.rng)
            q = 1 - view.player
            real = [g.cdef[i].code for i in g.hand[q]]
            dealt = [w.cdef[i].code for i in w.hand[q]]
            same = w.pending is not None and (w.pending.kind, w.pending.player) == (dec.kind, dec.player)
            self.looks.append((same, sorted(real) != sorted(dealt)))
        return self.greedy.choose(view, dec)


def test_a_policy_deals_worlds_at_its_own_decision_inside_play():
    # While a policy chooses inside play(), the decision waits in `pending` as it does under apply_action, so a
    # world dealt from the policy's view waits at that decision with the opponent's hand dealt again. (With no
    # pending decision every deal was refused and the last resort kept the opponent's real hand: a search player
    # on a loaded position saw the cards it may not see.)
    decks = starter_decks()
    dealer = _Dealer(5)
    g = Game(decks[0], decks[3], seed=5, policies=(dealer, make_policy("greedy", 6)))
    g.play()
    assert len(dealer.looks) >= 6
    assert all(same for same, _ in dealer.looks)
    assert sum(differs for _, differs in dealer.looks) >= len(dealer.looks) // 2, dealer.looks
