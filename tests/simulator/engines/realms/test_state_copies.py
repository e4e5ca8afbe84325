"""clone(), view(p), view(p).determinize(rng), determinism, positions printed and loaded."""
from __future__ import annotations

import json
import random

import pytest

from simulator.engines.realms import (
    Game, HiddenCard, PositionError, from_position, make_policy, play_game, to_position,
)
from simulator.engines.realms import statics
from simulator.engines.realms.game import Z_ASIDE, Z_DECK, Z_HAND

from .conftest import FARM, MILITIA, PIKEMEN, SWORD, player, pos

NAMES = ("sunward", "deepwood", "ashen", "tideholm")


def advance(g: Game, pols, steps: int) -> None:
    for _ in range(steps):
        if g.is_terminal():
            return
        dec = g.pending
        g.apply_action(pols[dec.player].choose(g.view(dec.player), dec))


def finish(g: Game, pols) -> Game:
    while not g.is_terminal():
        dec = g.pending
        g.apply_action(pols[dec.player].choose(g.view(dec.player), dec))
    return g


# ---- clone -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("k", range(8))
def test_a_clone_taken_mid_game_plays_on_identically(decks, k):
    g = Game(decks[NAMES[k % 4]], decks[NAMES[(k + 1) % 4]], seed=k, log=True)
    advance(g, [make_policy("random", 1), make_policy("random", 2)], 40 + 17 * k)
    c = g.clone()
    assert c.to_position() == g.to_position() if g.pending and g.pending.kind in (
        "actions", "balance", "attack", "raid") and not g.stack and g.cb is None else True
    finish(g, [make_policy("random", 9), make_policy("greedy", 9)])
    finish(c, [make_policy("random", 9), make_policy("greedy", 9)])
    assert (c.winner, c.reason, c.vp, c.turn, c.logs) == (g.winner, g.reason, g.vp, g.turn, g.logs)


def test_a_clone_is_independent(decks):
    g = Game(decks["deepwood"], decks["ashen"], seed=3)
    advance(g, [make_policy("greedy"), make_policy("greedy")], 30)
    before = (g.turn, list(g.vp), [list(x) for x in g.z[0]], g.pending.kind)
    c = g.clone()
    finish(c, [make_policy("random", 1), make_policy("random", 2)])
    assert (g.turn, list(g.vp), [list(x) for x in g.z[0]], g.pending.kind) == before


# ---- determinism -------------------------------------------------------------------------------------------
def test_same_decks_same_seed_same_game(decks):
    for pols in (("greedy", "greedy"), ("random", "greedy")):
        a = play_game(decks["sunward"], decks["tideholm"], seed=42, policies=pols, log=True)
        b = play_game(decks["sunward"], decks["tideholm"], seed=42, policies=pols, log=True)
        assert a == b
    assert play_game(decks["ashen"], None, seed=5, log=True) == play_game(decks["ashen"], None, seed=5, log=True)
    assert play_game(decks["ashen"], None, seed=5).log is None


def test_different_seeds_different_games(decks):
    logs = {tuple(play_game(decks["ashen"], decks["deepwood"], seed=s, log=True).log) for s in range(5)}
    assert len(logs) == 5


# ---- the view ----------------------------------------------------------------------------------------------
def mid_game(decks, seed=7, steps=90) -> Game:
    g = Game(decks["deepwood"], decks["sunward"], seed=seed)
    advance(g, [make_policy("greedy"), make_policy("greedy")], steps)
    return g


def test_the_view_hides_the_opponents_hand_and_both_decks(decks):
    g = mid_game(decks)
    v = g.view(0)
    assert v.hand() == g.z[0][Z_HAND]
    for i in g.z[1][Z_HAND] + g.z[1][Z_DECK] + g.z[0][Z_DECK]:
        if i not in v.known_hand(1):
            with pytest.raises(HiddenCard):
                v.card(i)
    assert v.hand_size(1) == len(g.z[1][Z_HAND]) and v.deck_size(1) == len(g.z[1][Z_DECK])
    for i in statics.in_play(g, 1):
        assert v.card(i) is g.cdef[i]


@pytest.mark.parametrize("seed", range(5))
def test_determinize_deals_only_what_the_viewer_cannot_see(decks, seed):
    g = mid_game(decks, seed=seed, steps=60 + 10 * seed)
    p = g.current_player()
    q = 1 - p
    d = g.view(p).determinize(random.Random(seed))
    assert d.z[p][Z_HAND] == g.z[p][Z_HAND]                       # own hand as it is
    for zone in range(5, 11):                                   # every public zone unchanged
        assert d.z[0][zone] == g.z[0][zone] and d.z[1][zone] == g.z[1][zone]
    assert d.reserve == g.reserve and d.vp == g.vp and d.turn == g.turn
    for who, zones in ((q, (Z_HAND, Z_DECK, Z_ASIDE)), (p, (Z_DECK, Z_ASIDE))):
        for z in zones:   # same sizes, same cards overall
            assert len(d.z[who][z]) == len(g.z[who][z])
        assert sorted(i for z in zones for i in d.z[who][z]) == sorted(i for z in zones for i in g.z[who][z])
    for i in g.view(p).known_hand(q):
        assert i in d.z[q][Z_HAND]
    # a policy that decides from the view alone chooses the same in every determinization
    choice = make_policy("greedy").choose(g.view(p), g.pending)
    assert make_policy("greedy").choose(d.view(p), d.pending) == choice
    finish(d, [make_policy("greedy"), make_policy("greedy")])   # a determinized game plays on to its end


def test_determinize_varies_the_hidden_cards(decks):
    g = mid_game(decks)
    p = g.current_player()
    deals = {tuple(g.view(p).determinize(random.Random(s)).z[1 - p][Z_HAND]) for s in range(8)}
    assert len(deals) > 1


# ---- positions ---------------------------------------------------------------------------------------------
def test_positions_round_trip_over_whole_games(decks):
    n = 0
    for s in range(12):
        g = Game(decks[NAMES[s % 4]], decks[NAMES[(s + 2) % 4]] if s % 3 else None, seed=s, first_player=s % 2)
        pols = [make_policy("random" if s % 2 else "greedy", s), make_policy("greedy", s + 1)]
        steps = 0
        while not g.is_terminal():
            dec = g.pending
            if steps % 5 == 0 and dec.kind in ("actions", "balance", "attack", "raid") and not g.stack \
                    and g.cb is None:
                doc = json.loads(json.dumps(to_position(g)))
                h = from_position(doc)
                assert to_position(h) == doc
                assert [h.action_text(a) for a in h.legal_actions()] == [g.action_text(a) for a in g.legal_actions()]
                n += 1
            g.apply_action(pols[dec.player].choose(g.view(dec.player), dec))
            steps += 1
    assert n > 200


@pytest.mark.parametrize("k", range(4))
def test_a_loaded_position_plays_on_as_the_game_did(decks, k):
    g = Game(decks[NAMES[k]], decks[NAMES[3 - k]], seed=30 + k, log=True)
    pols = [make_policy("greedy"), make_policy("greedy")]
    advance(g, pols, 60 + 20 * k)
    while not (g.pending.kind == "actions" and not g.stack):
        advance(g, pols, 1)
    h = from_position(to_position(g), log=True)
    mark = len(g.logs)
    finish(g, pols)
    finish(h, pols)
    assert (h.winner, h.reason, h.vp, h.turn) == (g.winner, g.reason, g.vp, g.turn)
    assert h.logs == g.logs[mark:]


def test_to_position_refuses_a_state_inside_a_resolution(decks):
    g = Game(decks["deepwood"], None, seed=1)
    assert g.pending.kind == "leader"
    with pytest.raises(PositionError, match="setup"):
        to_position(g)


BROKEN = [
    (lambda d: d["players"][0]["hand"].append("fb-999"), "player 0, hand: unknown card code 'fb-999'"),
    (lambda d: d["players"][0]["hand"].append("fb-049"), "player 0, hand: Aldric Varrow is a Leader"),
    (lambda d: d["players"][0]["borderlands"].append(FARM), "player 0, borderlands: Farmstead is not a Warrior"),
    (lambda d: d["players"][0]["settlement"].append({"card": MILITIA, "at": [1, 0]}),
     "player 0, settlement: Village Militia is not a Place"),
    (lambda d: d["players"][0]["settlement"].extend([{"card": FARM, "at": [1, 0]}, {"card": FARM, "at": [1, 0]}]),
     "player 0, settlement: Farmstead at 1,0: that cell holds Farmstead already"),
    (lambda d: d["players"][0]["settlement"].append({"card": FARM, "at": [0, 0]}),
     "that cell holds Queen Ysolde already"),
    (lambda d: d["players"][0]["settlement"].extend([{"card": "fb-002", "at": [1, 0]}, {"card": FARM, "at": [2, 0]},
                                                     {"card": FARM, "at": [1, 1]}]),
     "Woodcutters' Camp at 1,0 touches 3 cards, more than its Neighbor Count 2"),
    (lambda d: d["players"][0]["borderlands"].append({"card": PIKEMEN, "attachments": [SWORD, "fb-027"]}),
     "Pikemen carries two Weapons"),
    (lambda d: d["players"][0]["settlement"].append({"card": FARM, "at": [1, 0], "attachments": [SWORD]}),
     "Iron Sword is EQUIPMENT on Farmstead, which is not a Warrior"),
    (lambda d: d["players"][0]["strike_force"].extend(["fb-061", "fb-061"]),
     "player 0, strike_force: Knight of the Lantern is unique and is in play twice"),
    (lambda d: d["players"][0].update(reserve=-1), "player 0, reserve: must be a whole number of at least 0"),
    (lambda d: d["players"][0].update(vp=50), "player 0, vp: 50 VP: the game was over at 50"),
    (lambda d: d["players"][0]["borderlands"].extend([{"card": PIKEMEN, "id": "a"}]) or
     d["players"][0]["groups"].append({"kind": "defensive", "members": ["a"]}),
     "a Group has at least 2 warriors"),
    (lambda d: d["players"][0]["rituals"].append(FARM), "player 0, rituals: Farmstead is not a RITUAL"),
    (lambda d: d.update(step="dinner"), "step must be one of"),
    (lambda d: d.update(active_player=1), "player 1, active_player: the goldfish opponent never takes a turn"),
]


@pytest.mark.parametrize("breaks,message", BROKEN)
def test_a_broken_position_is_refused_naming_player_zone_and_card(breaks, message):
    doc = pos(player())
    breaks(doc)
    with pytest.raises(PositionError) as exc:
        from_position(doc)
    assert message in str(exc.value)


def test_card_labels_made_once_per_pair_of_decks(decks):
    """The labels (code#k, k counting copies over both decks, player 0's first) are made once per card table: games
    of the same decks share one list, equal to default_labels; other decks, or the same decks swapped, get theirs."""
    from simulator.engines.realms.game import default_labels
    a = Game(decks["sunward"], decks["ashen"], seed=1)
    b = Game(decks["sunward"], decks["ashen"], seed=2)
    assert a.labels is b.labels
    assert a.labels == default_labels(a.cdef)
    swapped = Game(decks["ashen"], decks["sunward"], seed=1)
    assert swapped.labels is not a.labels and swapped.labels == default_labels(swapped.cdef)
    assert swapped.labels[0] != a.labels[0] or swapped.cdef[0] is a.cdef[0]
    solo = Game(decks["sunward"], None, seed=1)
    assert solo.labels == default_labels(solo.cdef) and len(solo.labels) < len(a.labels)
    codes = [lab.split("#")[0] for lab in a.labels]
    assert codes == [d.code for d in a.cdef]
    assert all(lab.split("#")[1] == str(codes[:k + 1].count(codes[k])) for k, lab in enumerate(a.labels))
