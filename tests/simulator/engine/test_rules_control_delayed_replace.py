"""Pinned scenarios for the rules no core card uses yet but later sets may: change of control (§3.2, §3.7),
delayed effects (§8.8, §8.9), replacements ("instead", §7.4) and "cannot be canceled" (§8.11).

Each builds the exact position with synthetic cards (tests/simulator/engine/helpers.py) and runs one procedure.
"""
from simulator.engine import build_deck, play_game
from simulator.engine.cards import CardDef
from simulator.engine.game import DEAD, DISCARD, FIELD, HAND, PASS, Struggle

import pytest

from .helpers import FACTION, card, drive, field, to_hand, two_player

U2 = card("u2", power=2)
U3 = card("u3", power=3, unique=True, name="Lancelot")


def use(g, p, iid, index=0, script=()):
    return drive(g._use_ability(p, iid, g.cdef[iid].abilities[index], None), script)


# §3.2 change of control ----------------------------------------------------------------------------
SEDUCE = card("seduce", "deed", abilities=[
    {"timing": "action", "target": {"controller": "opponent", "type": "unit"},
     "effects": [{"take_control": "target"}]}])
BRIBE = card("bribe", "deed", abilities=[
    {"timing": "action", "target": {"controller": "opponent", "type": "unit"},
     "effects": [{"take_control": "target", "until": "phase"}]}])


def test_3_2_take_control_moves_the_card_and_its_influence_to_the_taker():
    g = two_player(SEDUCE, U2)
    theirs = field(g, 1, "u2")
    g.cnt[theirs] = 2                         # Influence on it counts for its controller (§1.1, §3.2)
    s = to_hand(g, 0, "seduce")
    assert g.influence(1) == 2
    drive(g._play_deed(0, s, None))
    assert g.ctrl[theirs] == 0 and theirs in g.field[0] and theirs not in g.field[1]
    assert g.owner[theirs] == 1
    assert g.influence(0) == 2 and g.influence(1) == 0


def test_3_2_a_card_that_leaves_play_goes_to_its_owners_pile():
    g = two_player(SEDUCE, U2)
    theirs = field(g, 1, "u2")
    drive(g._play_deed(0, to_hand(g, 0, "seduce"), None))
    drive(g._leave([theirs], "killed"))
    assert g.zone[theirs] == DEAD and theirs in g.dead[1] and g.ctrl[theirs] == 1


def test_3_2_control_until_end_of_phase_returns_at_the_phase_end():
    g = two_player(BRIBE, U2)
    g.phase = 2
    theirs = field(g, 1, "u2")
    drive(g._play_deed(0, to_hand(g, 0, "bribe"), None))
    assert g.ctrl[theirs] == 0
    drive(g._phase_end(2))
    assert g.ctrl[theirs] == 1 and theirs in g.field[1]


def test_3_2_control_taken_from_a_participating_unit_removes_it_from_the_struggle():
    g = two_player(SEDUCE, U2)
    mine = field(g, 0, "u2")
    theirs = field(g, 1, "u2")
    g.struggle = s = Struggle(0, 0)
    s.attackers.append(mine)
    s.defenders.append(theirs)
    drive(g._play_deed(0, to_hand(g, 0, "seduce"), None))
    assert theirs not in s.defenders and theirs not in s.attackers
    assert g.struggle_totals(s) == (2, 0)


def test_3_7_control_never_makes_an_opponents_card_your_duplicate():
    """§3.7 (clarified 2026-07-27): the collision is prevented at the effect: the unique card stays put."""
    g = two_player(SEDUCE, U3)
    field(g, 0, "u3")
    theirs = field(g, 1, "u3")
    s = to_hand(g, 0, "seduce")
    drive(g._play_deed(0, s, None))
    assert g.ctrl[theirs] == 1 and theirs in g.field[1] and not g.dups


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


def test_8_9_a_delayed_effect_waits_for_the_end_of_the_phase():
    g = two_player(LATE_DRAW, U2)
    g.phase = 2
    u = field(g, 0, "late-draw")
    use(g, 0, u)
    assert len(g.hand[0]) == 0
    drive(g._phase_end(2))
    assert len(g.hand[0]) == 2
    drive(g._phase_end(3))                     # once only
    assert len(g.hand[0]) == 2


def test_8_8_lasting_effects_expire_before_delayed_effects_resolve():
    """§8.8: (2) "until end of" effects expire, then (3) "at end of" effects resolve: "kill each unit with 4 or
    more Power" no longer sees the +3 that ended with the phase."""
    g = two_player(PUMP_THEN_KILL)
    g.phase = 2
    u = field(g, 0, "pump-kill")
    use(g, 0, u)
    assert g.power(u) == 5
    drive(g._phase_end(2))
    assert g.zone[u] == FIELD and g.power(u) == 2
    # the same delayed kill with the Power still on (a round-long pump) does kill it
    g2 = two_player(card("pump-kill", abilities=[
        {"timing": "action", "cost": [{"exhaust": "self"}],
         "effects": [{"modify_power": 3, "who": "self", "until": "round"},
                     {"delayed": [{"kill": {"each": {"type": "unit", "power_gte": 4}}}], "at": "phase"}]}]))
    g2.phase = 2
    u2 = field(g2, 0, "pump-kill")
    use(g2, 0, u2)
    drive(g2._phase_end(2))
    assert g2.zone[u2] == DEAD


def test_8_9_at_end_of_round_waits_through_the_phases():
    g = two_player(ROUND_WEALTH)
    g.phase = 2
    u = field(g, 0, "round-wealth")
    use(g, 0, u)
    drive(g._phase_end(2))
    assert g.infl[0] == 0 and g.delayed
    g.phase = 6
    drive(g._toll_phase())
    assert g.infl[0] == 1 and not g.delayed


def test_8_8_simultaneous_delayed_effects_first_player_first():
    g = two_player(LATE_DRAW, card("late-draw-b", abilities=LATE_DRAW["abilities"]))
    g.first = 1
    g.phase = 2
    a = field(g, 0, "late-draw")
    b = field(g, 1, "late-draw-b")
    use(g, 0, a)
    use(g, 1, b)
    g.logs = []
    drive(g._phase_end(2))
    order = [line.split(" delayed effect of ")[1].split(" resolves")[0] for line in g.logs if "§8.9 delayed" in line]
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


def _leaves(cards, in_play: list[str], leaving: str, how: str):
    """Player 0 has `in_play` (in that order) and `leaving` in the field; `leaving` would leave play `how`."""
    g = two_player(*cards)
    for code in in_play:
        field(g, 0, code)
    u = field(g, 0, leaving)
    drive(g._leave([u], how))
    return g, u


@pytest.mark.parametrize("cards,in_play,leaving,how,zone", [
    ((PHOENIX,), [], "phoenix", "killed", HAND),             # the replacement swaps how the event resolves
    ((PHOENIX,), [], "phoenix", "discarded", DISCARD),       # ... only for the event it names
    ((ANY_WARD, U2), ["any-ward"], "u2", "killed", HAND),    # its own result (a return) is not replaced again
    ((ANY_WARD, U2), ["any-ward"], "u2", "sacrificed", HAND),  # sacrifice cannot be saved, but can be replaced
    ((WARD, WARD2, U2), ["ward", "ward2"], "u2", "killed", DISCARD),   # the most recent replacement wins
    ((WARD, WARD2, U2), ["ward2", "ward"], "u2", "killed", FIELD),
])
def test_7_4_replacements(cards, in_play, leaving, how, zone):
    g, u = _leaves(cards, in_play, leaving, how)
    assert g.zone[u] == zone
    assert u not in g.dead[0]
    if zone == FIELD:
        assert g.exh[u] == 1    # WARD: exhausted instead of killed


def test_7_4_a_prevented_kill_still_counts_as_chosen_for_combat_spoils():
    """§7.4: a prevented outcome does not apply but still counts as having occurred (one of the units chosen)."""
    g = two_player(WARD, U2)
    field(g, 1, "ward")
    a = field(g, 1, "u2")
    b = field(g, 1, "u2")
    g.struggle = s = Struggle(0, 0)
    s.winner = 0
    drive(g._spoils(s), [("kill", a)])         # spoils 1: one unit chosen, its kill replaced by exhausting it
    assert g.zone[a] == FIELD and g.exh[a] == 1 and g.zone[b] == FIELD and g.exh[b] == 0


def test_7_4_a_saved_card_is_never_replaced():
    g = two_player(SAVER, PHOENIX)
    sv = field(g, 0, "saver")
    u = field(g, 0, "phoenix")
    drive(g._leave([u], "killed"), [("ability", sv, 0)])
    assert g.zone[u] == FIELD and g.exh[sv] == 1


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
    g = two_player(SURE_DEED, PLAIN_DEED, VETO)
    v = field(g, 1, "veto")
    g.pool[0] = 5
    seen = drive(g._play_deed(0, to_hand(g, 0, "sure-deed"), None), [("ability", v, 0)])
    assert not any(getattr(d, "kind", None) == "react" for d in seen)
    assert g.pool[0] == 4 + 3 and g.exh[v] == 0
    # the same play of an ordinary deed is cancelled
    drive(g._play_deed(0, to_hand(g, 0, "plain-deed"), None), [("ability", v, 0)])
    assert g.pool[0] == 6 and g.exh[v] == 1


def test_8_11_an_uncancelable_unit_enters_play_despite_a_halt():
    g = two_player(SURE_UNIT, VETO)
    v = field(g, 1, "veto")
    g.pool[0] = 5
    h = to_hand(g, 0, "sure-unit")
    drive(g._play_from_hand(0, h, "play"), [("ability", v, 0)])
    assert g.zone[h] == FIELD and g.exh[v] == 0


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
    g = two_player(U3, SPOILER)
    sp = field(g, 1, "spoiler")
    u = field(g, 0, "u3")
    dup = to_hand(g, 0, "u3")
    drive(g._enter(0, dup, "played"))
    assert g.dups[u] == [dup]
    drive(g._leave([u], "killed"), [("ability", sp, 0)])
    assert g.zone[u] == DEAD and g.zone[dup] == DISCARD and g.exh[sp] == 1
    # without the spoiler's Halt the duplicate saves it
    g2 = two_player(U3, SPOILER)
    u2 = field(g2, 0, "u3")
    d2 = to_hand(g2, 0, "u3")
    drive(g2._enter(0, d2, "played"))
    drive(g2._leave([u2], "killed"))
    assert g2.zone[u2] == FIELD and g2.zone[d2] == DISCARD


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
    g = two_player(ANIMATE, KEEP)
    g.phase = 2
    k = field(g, 0, "keep")
    drive(g._play_deed(0, to_hand(g, 0, "animate"), None))
    d = g.cdef[k]
    assert d.is_unit and not d.is_location and g.power(k) == 3 and d.icons == 1
    assert g.attack_icons(0) & 1                 # it can attack in a Combat struggle now
    assert g._printed(k).type == "location"      # its printed type is unchanged
    drive(g._phase_end(2))
    assert g.cdef[k].is_location and g.power(k) == 0 and k not in g.retyped


def test_2_2_killed_while_a_unit_it_goes_to_the_dead_pile_as_the_printed_card():
    g = two_player(ANIMATE, KEEP)
    g.phase = 2
    k = field(g, 0, "keep")
    drive(g._play_deed(0, to_hand(g, 0, "animate"), None))
    drive(g._leave([k], "killed"))
    assert g.zone[k] == DEAD and g.cdef[k].is_location and not g.retyped
    assert not [x for x in g.lasting if x[2] == k]


def test_2_2_a_unit_that_becomes_a_location_leaves_the_struggle_and_loses_its_attachments():
    g = two_player(PETRIFY, U2, BLADE)
    mine = field(g, 0, "u2")
    theirs = field(g, 1, "u2")
    blade = field(g, 1, "blade")
    g.host[blade] = theirs
    g._pw_cands = {}
    g.struggle = s = Struggle(0, 0)
    s.attackers.append(mine)
    s.defenders.append(theirs)
    assert g.power(theirs) == 3
    drive(g._play_deed(0, to_hand(g, 0, "petrify"), None))
    assert g.cdef[theirs].is_location and theirs not in s.defenders
    assert g.zone[blade] == DISCARD               # a location is not a legal host (§10.3)
    assert g.struggle_totals(s) == (2, 0)
    g.struggle = None
    g._expire("round")
    assert g.cdef[theirs].is_unit and g.power(theirs) == 2


def test_2_2_become_is_checked_like_any_effect():
    assert CardDef(ANIMATE).supported and CardDef(PETRIFY).supported
    bad = CardDef(card("bad", "deed", abilities=[{"timing": "action", "effects": [
        {"become": {"type": "deed"}, "who": "self"}]}]))
    assert not bad.supported and "become" in bad.unsupported_reason


def test_3_7_controlling_an_opponents_copy_of_a_unique_prevents_playing_your_own():
    """§3.7: with the opponent's Lancelot under your control, your own Lancelot is not offered at all (it was
    offered, paid for and discarded)."""
    from simulator.engine.game import KINGDOM_P
    g = two_player(SEDUCE, U3)
    theirs = field(g, 1, "u3")
    drive(g._play_deed(0, to_hand(g, 0, "seduce"), None))
    assert g.ctrl[theirs] == 0
    mine = to_hand(g, 0, "u3")
    g.pool[0] = 9
    assert ("play", mine) not in g._window_options(0, KINGDOM_P)
    assert not g.can_enter(0, mine)


def test_10_3_an_attachment_illegally_attached_after_a_change_of_control_is_discarded_at_once():
    """§10.3: "attach to a unit you control"; its host changes control: the attachment is discarded."""
    banner = card("banner", "attachment", abilities=[{"timing": "attach", "target": {"type": "unit",
                                                                                    "controller": "you"}}])
    g = two_player(SEDUCE, U2, banner)
    host = field(g, 1, "u2")
    att = field(g, 1, "banner")
    g.host[att] = host
    drive(g._play_deed(0, to_hand(g, 0, "seduce"), None))
    assert g.ctrl[host] == 0
    assert g.zone[att] == DISCARD and att not in g.host and att in g.discard[1]
