"""Pinned scenarios for the rules no core card uses yet but later sets may: change of control (§3.2, §3.7),
delayed effects (§8.8, §8.9), replacements ("instead", §7.4) and "cannot be canceled" (§8.11).

Each is a position of synthetic cards (CONTRACTS §6, tests/simulator/engines/r1/helpers.py) played with action texts
and read back from the resulting position and the log.
"""
from simulator.engines.r1 import build_deck, play_game
from simulator.engines.r1.cards import CardDef
from simulator.engines.r1.game import PASS

import pytest

from simulator.engines.r1.actions import option_texts
from simulator.engines.r1.positions import to_position

from .helpers import FACTION, after, card, codes, entry, finish, load, logged, play, position, settle, side

U2 = card("u2", power=2)
U3 = card("u3", power=3, unique=True, name="Lancelot")


U7 = card("u7", power=7)


def _deed(code, effect):
    """A 0-cost Action deed whose effect acts on a unit its player chooses (§10.4)."""
    return card(code, "deed", cost=0, abilities=[
        {"timing": "action", "target": {"type": "unit", "controller": "any"}, "effects": [{effect: "target"}]}])


DEEDS = [_deed("k", "kill"), _deed("dd", "discard"), _deed("sac", "sacrifice")]


# §3.2 change of control ----------------------------------------------------------------------------
SEDUCE = card("seduce", "deed", abilities=[
    {"timing": "action", "target": {"controller": "opponent", "type": "unit"},
     "effects": [{"take_control": "target"}]}])
BRIBE = card("bribe", "deed", abilities=[
    {"timing": "action", "target": {"controller": "opponent", "type": "unit"},
     "effects": [{"take_control": "target", "until": "phase"}]}])


def test_3_2_take_control_moves_the_card_and_its_influence_to_the_taker():
    pos = position(side(hand=["seduce"], pool=1), side([{"card": "u2", "influence": 2}]))
    assert load(pos, CARDS).influence(1) == 2        # Influence on it counts for its controller (§1.1, §3.2)
    g, pos = after(pos, CARDS, "play seduce", until="turn")
    assert codes(pos, 0, "field") == ["u2"] and codes(pos, 1, "field") == []
    assert entry(pos, 0, "u2")["owner"] == 1
    assert (g.influence(0), g.influence(1)) == (2, 0)


def test_3_2_a_card_that_leaves_play_goes_to_its_owners_pile():
    g, pos = after(position(side(hand=["seduce", "k"], pool=1), side(["u2"])), CARDS, "play seduce", "play k",
                   until="turn")
    assert codes(pos, 1, "dead") == ["u2"] and codes(pos, 0, "dead") == []


def test_3_2_control_until_end_of_phase_returns_at_the_phase_end():
    g = play(load(position(side(hand=["bribe"], pool=1), side(["u2"]), phase="kingdom"), CARDS), "play bribe")
    assert codes(to_position(g), 0, "field") == ["u2"]      # player 1's Kingdom turn begins: still player 0's
    finish(g, "phase")
    assert codes(to_position(g), 1, "field") == ["u2"] and codes(to_position(g), 0, "field") == []


def test_3_2_control_taken_from_a_participating_unit_removes_it_from_the_struggle():
    pos = position(side([{"card": "u2", "id": "mine"}], hand=["seduce"], pool=1), side([{"card": "u2", "id": "theirs"}]))
    g, pos = after(pos, CARDS, "struggle combat", "attack mine", "defend theirs", "play seduce")
    assert logged(g, "S.8 Combat: 2 vs 0")           # the defender left the struggle with its control


def test_3_7_control_never_makes_an_opponents_card_your_duplicate():
    """§3.7 (clarified 2026-07-27): the collision is prevented at the effect: the unique card stays put."""
    pos = position(side(["u3"], hand=["seduce"], pool=1), side(["u3"]))
    g = load(pos, CARDS)
    if "play seduce" in option_texts(g):
        g, pos = after(pos, CARDS, "play seduce", until="turn")
    assert codes(pos, 1, "field") == ["u3"] and entry(pos, 0, "u3")["duplicates"] == 0


def test_take_control_is_a_known_effect_and_unknown_durations_are_reported():
    ok = CardDef(SEDUCE)
    assert ok.supported
    bad = CardDef(card("bad", "deed", abilities=[{"timing": "action", "target": {"controller": "opponent"},
                                                  "effects": [{"take_control": "target", "until": "ever"}]}]))
    assert not bad.supported and "duration" in bad.unsupported_reason


# §8.8-§8.9 delayed effects --------------------------------------------------------------------------
LATE_DRAW = card("late-draw", abilities=[
    {"timing": "action", "cost": [{"exhaust": "self"}],
     "effects": [{"delayed": [{"draw": 2}], "at": "phase"}]}])
ROUND_WEALTH = card("round-wealth", abilities=[
    {"timing": "action", "cost": [{"exhaust": "self"}],
     "effects": [{"delayed": [{"gain_influence": 1}], "at": "round"}]}])
PUMP_THEN_KILL = card("pump-kill", abilities=[
    {"timing": "action", "cost": [{"exhaust": "self"}],
     "effects": [{"modify_power": 3, "who": "self", "until": "phase"},
                 {"delayed": [{"kill": {"each": {"type": "unit", "power_gte": 4}}}], "at": "phase"}]}])


CARDS = [SEDUCE, BRIBE, U2, U3, LATE_DRAW, ROUND_WEALTH, PUMP_THEN_KILL, *DEEDS]


def test_8_9_a_delayed_effect_waits_for_the_end_of_the_phase():
    g = play(load(position(side(["late-draw"]), phase="kingdom"), CARDS), "use late-draw")
    assert g.view(0).my_hand == []
    finish(g, "phase")
    assert codes(to_position(g), 0, "hand") == ["filler", "filler"]      # "at the end of the phase: draw 2"
    finish(g, "phase")                                                   # once only
    assert codes(to_position(g), 0, "hand") == ["filler", "filler"]


def test_8_8_lasting_effects_expire_before_delayed_effects_resolve():
    """§8.8: (2) "until end of" effects expire, then (3) "at end of" effects resolve: "kill each unit with 4 or
    more Power" no longer sees the +3 that ended with the phase."""
    g = finish(play(load(position(side(["pump-kill"]), phase="kingdom"), CARDS), "use pump-kill"), "phase")
    assert codes(to_position(g), 0, "field") == ["pump-kill"]          # 2 + 3 ended first: Power 2 < 4
    # the same delayed kill with the Power still on (a round-long pump) does kill it
    round_pump = card("pump-kill", abilities=[
        {"timing": "action", "cost": [{"exhaust": "self"}],
         "effects": [{"modify_power": 3, "who": "self", "until": "round"},
                     {"delayed": [{"kill": {"each": {"type": "unit", "power_gte": 4}}}], "at": "phase"}]}])
    g = finish(play(load(position(side(["pump-kill"]), phase="kingdom"), [round_pump]), "use pump-kill"), "phase")
    assert codes(to_position(g), 0, "dead") == ["pump-kill"]


def test_8_9_at_end_of_round_waits_through_the_phases():
    g = finish(play(load(position(side(["round-wealth"]), phase="kingdom"), CARDS), "use round-wealth"), "phase")
    assert g.influence(0) == 0
    for _ in range(6):
        if g.round_no == 2:
            break
        finish(g, "phase")
    assert g.round_no == 2 and g.influence(0) == 1                     # at the end of round 1, once


def test_8_8_simultaneous_delayed_effects_first_player_first():
    late_b = card("late-draw-b", abilities=LATE_DRAW["abilities"])
    pos = position(side(["late-draw"]), side(["late-draw-b"]), phase="kingdom", first=1, active=1)
    g = finish(play(load(pos, [*CARDS, late_b]), "use late-draw-b", "pass", "use late-draw"), "phase")
    order = [line.split(" delayed effect of ")[1].split(" resolves")[0] for line in logged(g, "§8.9 delayed")]
    assert order == ["Late Draw B", "Late Draw"]   # player 1 (first player) first


def test_8_9_delayed_needs_a_known_point():
    bad = CardDef(card("bad", abilities=[{"timing": "action", "effects": [{"delayed": [{"draw": 1}],
                                                                          "at": "tuesday"}]}]))
    assert not bad.supported and "delayed" in bad.unsupported_reason


# §7.4 replacement ("instead") -----------------------------------------------------------------------
PHOENIX = card("phoenix", name="Phoenix Knight", abilities=[
    {"timing": "replace", "when": {"event": "would_leave_play", "card": "self", "how": "killed"},
     "effects": [{"return_to_hand": "event_card"}]}])


def _ward(code: str, effect: str, how: str = "killed") -> dict:
    """A location whose replacement does `effect` to a unit instead of it leaving play `how`."""
    return card(code, "location", abilities=[
        {"timing": "replace", "when": {"event": "would_leave_play", "card": {"type": "unit"}, "how": how},
         "effects": [{effect: "event_card"}]}])


WARD = _ward("ward", "exhaust")
WARD2 = _ward("ward2", "discard")
ANY_WARD = _ward("any-ward", "return_to_hand", how="any")
SAVER = card("saver", "location", abilities=[
    {"timing": "halt", "when": {"event": "would_leave_play", "card": {"type": "unit"}, "how": "killed"},
     "cost": [{"exhaust": "self"}], "effects": [{"save": "event_card"}]}])


LEAVE = {"killed": "k", "discarded": "dd", "sacrificed": "sac"}


@pytest.mark.parametrize("cards,in_play,leaving,how,zone", [
    ((PHOENIX,), [], "phoenix", "killed", "hand"),             # the replacement swaps how the event resolves
    ((PHOENIX,), [], "phoenix", "discarded", "discard"),       # ... only for the event it names
    ((ANY_WARD, U2), ["any-ward"], "u2", "killed", "hand"),    # its own result (a return) is not replaced again
    ((ANY_WARD, U2), ["any-ward"], "u2", "sacrificed", "hand"),  # sacrifice cannot be saved, but can be replaced
    ((WARD, WARD2, U2), ["ward", "ward2"], "u2", "killed", "discard"),   # the most recent replacement wins
    ((WARD, WARD2, U2), ["ward2", "ward"], "u2", "killed", "field"),
])
def test_7_4_replacements(cards, in_play, leaving, how, zone):
    deed = LEAVE[how]
    g, pos = after(position(side([*in_play, leaving], hand=[deed])), [*cards, *DEEDS], f"play {deed}", until="turn")
    assert leaving in codes(pos, 0, zone) and leaving not in codes(pos, 0, "dead")
    if zone == "field":
        assert entry(pos, 0, leaving)["exhausted"] is True    # WARD: exhausted instead of killed


def test_7_4_a_prevented_kill_still_counts_as_chosen_for_combat_spoils():
    """§7.4: a prevented outcome does not apply but still counts as having occurred (one of the units chosen)."""
    them = side(["ward", {"card": "u2", "id": "a"}, {"card": "u2", "id": "b"}])
    g, pos = after(position(side(["u7"]), them), [*CARDS, WARD, U7], "struggle combat", "attack u7",
                   "defend none", "kill a")     # spoils 1: one unit chosen, its kill replaced by exhausting it
    field_ = {e.get("id"): e for e in pos["players"][1]["field"]}
    assert field_["a"]["exhausted"] is True and field_["b"]["exhausted"] is False
    assert codes(pos, 1, "dead") == []


def test_7_4_a_saved_card_is_never_replaced():
    g, pos = after(position(side(["saver", "phoenix"], hand=["k"])), [SAVER, PHOENIX, *DEEDS], "play k", "use saver",
                   until="turn")
    assert "phoenix" in codes(pos, 0, "field") and entry(pos, 0, "saver")["exhausted"] is True


def test_7_4_replacement_needs_a_replaceable_event():
    bad = CardDef(card("bad", abilities=[{"timing": "replace", "when": {"event": "enters_play"},
                                          "effects": [{"draw": 1}]}]))
    assert not bad.supported and "replacement" in bad.unsupported_reason


# §8.11 cannot be canceled ----------------------------------------------------------------------------
VETO = card("veto", "location", abilities=[
    {"timing": "halt", "when": {"event": "card_played", "player": "opponent"}, "cost": [{"exhaust": "self"}],
     "effects": [{"cancel": "event"}]}])
SURE_DEED = card("sure-deed", "deed", abilities=[
    {"timing": "action", "cannot_be_canceled": True, "effects": [{"gain_wealth": 3}]}])
PLAIN_DEED = card("plain-deed", "deed", abilities=[{"timing": "action", "effects": [{"gain_wealth": 3}]}])
SURE_UNIT = card("sure-unit", abilities=[{"timing": "static", "affects": "self", "rule": ["cannot_be_canceled"]}])


def test_8_11_a_halt_is_not_a_legal_response_to_an_uncancelable_deed():
    pos = position(side(hand=["sure-deed", "plain-deed"], pool=5), side(["veto"]))
    g = play(load(pos, [SURE_DEED, PLAIN_DEED, VETO]), "play sure-deed")
    assert g.pending.player == 0 and "use veto" not in option_texts(g)   # no Halt was offered to player 1
    g, pos = after(pos, [SURE_DEED, PLAIN_DEED, VETO], "play sure-deed", "play plain-deed", "use veto",
                   until="turn")
    assert pos["players"][0]["pool"] == 5 - 1 + 3 - 1           # the ordinary deed is cancelled: no +3
    assert entry(pos, 1, "veto")["exhausted"] is True


def test_8_11_an_uncancelable_unit_enters_play_despite_a_halt():
    g, pos = after(position(side(hand=["sure-unit"], pool=5), side(["veto"]), phase="kingdom"), [SURE_UNIT, VETO],
                   "play sure-unit", until="turn")
    assert codes(pos, 0, "field") == ["sure-unit"] and entry(pos, 1, "veto")["exhausted"] is False


# whole games ---------------------------------------------------------------------------------------
def _deck():
    return build_deck([(FACTION, 1), (card("quest", "quest", name="Plain Quest"), 7), (SEDUCE, 3), (BRIBE, 3),
                       (LATE_DRAW, 3), (ROUND_WEALTH, 3), (PHOENIX, 3), (WARD, 3), (ANY_WARD, 3), (SURE_DEED, 3),
                       (VETO, 3), (SPOILER, 3), (ANIMATE, 3), (PETRIFY, 3), (KEEP, 3), (BLADE, 3), (U2, 20),
                       (U3, 3)])


def test_random_games_with_these_cards_keep_every_invariant():
    """The property checks of test_properties.py (every card in one zone, Influence >= 0, Toll limits...)."""
    from .test_properties import run_checked_game
    deck = _deck()
    for seed in range(40):
        run_checked_game(deck, deck, seed)


def test_games_with_these_cards_run_to_the_end_under_every_policy():
    deck = _deck()
    assert deck.unsupported_cards == []
    for seed in range(30):
        for pols in (("greedy", "greedy"), ("random", "random"), ("random", "greedy")):
            r = play_game(deck, deck, seed=seed, policies=pols)
            assert r.reason in ("influence", "elimination", "round_limit")
            again = play_game(deck, deck, seed=seed, policies=pols)
            assert again.influence_by_round == r.influence_by_round
    assert PASS


# §7.3 the opponent cancels a duplicate save ---------------------------------------------------------
SPOILER = card("spoiler", "location", abilities=[
    {"timing": "halt", "when": {"event": "duplicate_save", "player": "opponent"}, "cost": [{"exhaust": "self"}],
     "effects": [{"cancel": "event"}]}])


def test_7_3_the_opponent_may_cancel_a_duplicate_save_and_the_duplicate_is_still_discarded():
    me = side([{"card": "u3", "duplicates": 1}], hand=["k"])
    g, pos = after(position(me, side(["spoiler"])), [U3, SPOILER, *DEEDS], "play k", "yes", "use spoiler",
                   until="turn")
    assert codes(pos, 0, "dead") == ["u3"] and sorted(codes(pos, 0, "discard")) == ["k", "u3"]
    assert entry(pos, 1, "spoiler")["exhausted"] is True
    # without the spoiler's Halt the duplicate saves it
    g, pos = after(position(me), [U3, *DEEDS], "play k", "yes", until="turn")
    assert entry(pos, 0, "u3")["duplicates"] == 0 and sorted(codes(pos, 0, "discard")) == ["k", "u3"]


# §2.2 card-type change -------------------------------------------------------------------------------
ANIMATE = card("animate", "deed", abilities=[
    {"timing": "action", "target": {"controller": "any", "type": "location"},
     "effects": [{"become": {"type": "unit", "power": 3, "icons": ["combat"]}, "who": "target", "until": "phase"}]}])
PETRIFY = card("petrify", "deed", abilities=[
    {"timing": "action", "target": {"controller": "opponent", "type": "unit"},
     "effects": [{"become": {"type": "location"}, "who": "target", "until": "round"}]}])
KEEP = card("keep", "location", name="Old Keep")
BLADE = card("blade", "attachment", name="Blade", abilities=[
    {"timing": "static", "affects": "host", "modify": {"power": 1}}])


def test_2_2_a_location_that_becomes_a_unit_functions_wholly_as_one_until_the_effect_ends():
    g, pos = after(position(side(["keep"], hand=["animate"], pool=1)), [ANIMATE, KEEP], "play animate",
                   "struggle combat", "attack keep")
    assert logged(g, "S.8 Combat: 3 vs 0")        # a unit with Power 3 and a Combat icon now
    h = play(load(position(side(["keep"], hand=["animate"], pool=1), phase="kingdom"), [ANIMATE, KEEP]))
    keep = h.field[0][0]
    printed = h.cdef[keep]
    assert [h.view(p).cdef[keep] for p in (0, 1)] == [printed, printed]
    play(h, "play animate")
    assert [h.view(p).cdef[keep].type for p in (0, 1)] == ["unit", "unit"]   # the views read the new definition
    h._set_def(keep, printed)    # the swap alone, no card moving: the views follow it too
    assert [h.view(p).cdef[keep] for p in (0, 1)] == [printed, printed]
    g = finish(play(load(position(side(["keep"], hand=["animate"], pool=1), phase="kingdom"), [ANIMATE, KEEP]),
                    "play animate"), "phase")
    assert codes(to_position(g), 0, "field") == ["keep"]
    assert "struggle combat" not in option_texts(settle(g))   # the effect ended with the Kingdom phase


def test_2_2_killed_while_a_unit_it_goes_to_the_dead_pile_as_the_printed_card():
    g, pos = after(position(side(["keep"], hand=["animate", "k"], pool=1)), [ANIMATE, KEEP, *DEEDS],
                   "play animate", "play k", until="turn")
    assert codes(pos, 0, "dead") == ["keep"]


def test_2_2_a_unit_that_becomes_a_location_leaves_the_struggle_and_loses_its_attachments():
    them = side([{"card": "u2", "id": "theirs", "attachments": [{"card": "blade"}]}])
    pos = position(side([{"card": "u2", "id": "mine"}], hand=["petrify"], pool=1), them)
    g, pos = after(pos, [PETRIFY, U2, BLADE], "struggle combat", "attack mine", "defend theirs", "play petrify")
    assert logged(g, "S.8 Combat: 2 vs 0")                 # Power 2 + 1 left the struggle as a location
    assert codes(pos, 1, "discard") == ["blade"]            # a location is not a legal host (§10.3)


def test_2_2_become_is_checked_like_any_effect():
    assert CardDef(ANIMATE).supported and CardDef(PETRIFY).supported
    bad = CardDef(card("bad", "deed", abilities=[{"timing": "action", "effects": [
        {"become": {"type": "deed"}, "who": "self"}]}]))
    assert not bad.supported and "become" in bad.unsupported_reason


def test_3_7_controlling_an_opponents_copy_of_a_unique_prevents_playing_your_own():
    """§3.7: with the opponent's Lancelot under your control, your own Lancelot is not offered at all (it was
    offered, paid for and discarded)."""
    g = play(load(position(side(hand=["seduce", "u3"], pool=9), side(["u3"]), phase="kingdom"), CARDS),
             "play seduce")
    assert "play u3" not in option_texts(g)


def test_10_3_an_attachment_illegally_attached_after_a_change_of_control_is_discarded_at_once():
    """§10.3: "attach to a unit you control"; its host changes control: the attachment is discarded."""
    banner = card("banner", "attachment", abilities=[{"timing": "attach", "target": {"type": "unit",
                                                                                    "controller": "you"}}])
    them = side([{"card": "u2", "attachments": [{"card": "banner"}]}])
    g, pos = after(position(side(hand=["seduce"], pool=1), them), [*CARDS, banner], "play seduce", until="turn")
    assert codes(pos, 0, "field") == ["u2"] and codes(pos, 1, "discard") == ["banner"]


