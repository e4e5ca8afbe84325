"""Card-data fixes checked through the engine: the core cards do what their printed text says, read off the
position after playing them (cards/data/core.json)."""
from simulator.engines.r1.actions import action_text, option_texts
from simulator.engines.r1.policies import GreedyPolicy

from .helpers import after, card, codes, core_by_name, entry, load, logged, play, position, side

LOC = card("plain-location", "location", name="Plain Location")
SIEGE = core_by_name()["siege engineer"]     # "Action: Exhaust this unit and pay 2: Discard a location."
MINE = {"card": "plain-location", "id": "mine"}
THEIRS = {"card": "plain-location", "id": "theirs"}


def _siege(phase="kingdom", theirs=True):
    me = side([SIEGE["code"], MINE], pool=5)
    return position(me, side([THEIRS] if theirs else [], discard=[] if theirs else ["plain-location"]), phase=phase)


def test_siege_engineer_discards_own_location_printed_text_any_location():
    """'Discard a location' (core-147): any location, the controller's own included (§8.11 legal targets)."""
    g = play(load(_siege(), [SIEGE, LOC]), f"use {SIEGE['code']}")
    assert {"target mine", "target theirs"} <= set(option_texts(g))
    g, pos = after(_siege(), [SIEGE, LOC], f"use {SIEGE['code']}", "target mine", until="turn")
    assert codes(pos, 0, "discard") == ["plain-location"] and codes(pos, 1, "field") == ["plain-location"]
    assert pos["players"][0]["pool"] == 5 - 2                       # "pay 2"
    assert entry(pos, 0, SIEGE["code"])["exhausted"] is True         # "Exhaust this unit"


def test_siege_engineer_discards_opponent_location():
    g, pos = after(_siege(), [SIEGE, LOC], f"use {SIEGE['code']}", "target theirs", until="turn")
    assert codes(pos, 1, "discard") == ["plain-location"] and codes(pos, 0, "field") == [SIEGE["code"],
                                                                                          "plain-location"]


def test_gift_of_the_summer_queen_x_is_the_power_bonus():
    """core-094 'Choose a Fae you control. It gets +X Power until end of the round.', cost X (§8.7: one X for
    the cost and the effect): with X = 3 a Power 2 Fae attacks with 2 + 3."""
    gift = core_by_name()["gift of the summer queen"]
    summer = card("summer-faction", "faction", faction="summer", name="The Summer Court")
    fae = card("fae", power=2, faction="summer", attributes=["Fae"])
    me = side(["fae"], hand=[gift["code"]], pool=3, faction="summer-faction")
    g, pos = after(position(me), [gift, summer, fae], f"play {gift['code']}", "x 3", "struggle combat",
                   "attack fae")
    assert logged(g, "S.8 Combat: 5 vs 0")
    assert pos["players"][0]["pool"] == 3 - 3
    assert codes(pos, 0, "discard") == [gift["code"]]


def test_greedy_does_not_discard_its_own_location_with_siege_engineer():
    """The greedy player may use 'Discard a location' only against the opponent's locations."""
    use = f"use {SIEGE['code']}"
    g = load(_siege("confrontation", theirs=False), [SIEGE, LOC])
    assert use in option_texts(g)      # legal: its own location is a target
    assert action_text(g, GreedyPolicy().choose(g.view(0), g.pending)) != use
    g = load(_siege("confrontation"), [SIEGE, LOC])
    assert action_text(g, GreedyPolicy().choose(g.view(0), g.pending)) == use
