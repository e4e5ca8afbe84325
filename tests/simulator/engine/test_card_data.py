"""Card-data fixes checked through the engine (cards/data/core.json abilities match the printed text)."""
from simulator.engine.game import DISCARD, FIELD, PHASES

from .helpers import card, core_by_name, drive, field, make_deck, new_game

LOC = card("plain-location", "location", name="Plain Location")


def _siege_game():
    siege = core_by_name()["siege engineer"]
    deck = make_deck(siege, LOC)
    g = new_game(deck, make_deck(LOC))
    g.phase = PHASES.index("kingdom")
    src = field(g, 0, siege["code"])
    own = field(g, 0, "plain-location")
    theirs = field(g, 1, "plain-location")
    g.pool[0] = 5
    ab = g.cdef[src].actions[0]
    return g, src, ab, own, theirs


def test_siege_engineer_discards_own_location_printed_text_any_location():
    """'Discard a location' (core-147): any location, the controller's own included (§8.11 legal targets)."""
    g, src, ab, own, theirs = _siege_game()
    seen = drive(g._use_ability(0, src, ab, None), [("target", own)])
    targets = next(d.options for d in seen if getattr(d, "kind", None) == "target")
    assert ("target", own) in targets and ("target", theirs) in targets
    assert g.zone[own] == DISCARD and g.zone[theirs] == FIELD
    assert g.pool[0] == 3 and g.exh[src] == 1


def test_siege_engineer_discards_opponent_location():
    g, src, ab, own, theirs = _siege_game()
    drive(g._use_ability(0, src, ab, None), [("target", theirs)])
    assert g.zone[theirs] == DISCARD and g.zone[own] == FIELD


def test_gift_of_the_summer_queen_cost_x_is_the_power_bonus():
    """core-094 prints cost X and its text gives +X Power (§8.7: one X for cost and effect)."""
    gift = core_by_name()["gift of the summer queen"]
    assert gift["cost"] == "X"
    ab = gift["abilities"][0]
    assert ab["x"] == {"max": "wealth"}
    assert ab["effects"][0]["modify_power"] == "X"


def test_greedy_does_not_discard_its_own_location_with_siege_engineer():
    """The greedy player may use 'Discard a location' only against the opponent's locations."""
    from simulator.engine.game import CONFRONT_P
    from simulator.engine.policies import GreedyPolicy
    from simulator.engine.game import Decision
    g, src, ab, own, theirs = _siege_game()
    g.phase = CONFRONT_P
    pol = GreedyPolicy()
    g._move(theirs, DISCARD, 1)
    opts = g._window_options(0, CONFRONT_P)
    assert ("ability", src, ab.index) in opts      # legal: its own location is a target
    assert pol._window(g.view(0), Decision("window", 0, opts, CONFRONT_P)) != ("ability", src, ab.index)
    g._move(theirs, FIELD, 1)
    opts = g._window_options(0, CONFRONT_P)
    assert pol._window(g.view(0), Decision("window", 0, opts, CONFRONT_P)) == ("ability", src, ab.index)
