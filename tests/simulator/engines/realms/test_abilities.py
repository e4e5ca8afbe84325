"""One test per kind of the realms ability format (docs/games/realms.md §14): every timing, event, effect, cost,
condition, static modifier and duration, played through the engine's public verbs (fireplace-style: play the card,
assert the number its text promises). Set cards are used where the set has one; the rest of the format is
exercised by small synthetic cards (codes `x-…`), checked by the same `check_abilities` as the set.
"""
from __future__ import annotations

import pytest

from cards.games.realms.abilities import check_abilities
from simulator.engines.realms import support_report
from simulator.engines.realms.game import Z_ANNIH, Z_DISCARD, Z_HAND

from .conftest import (
    BLADES, FARM, MILITIA, ORLA, OUTRIDERS, PIKEMEN, SWORD, do, load, player, pos, texts,
)


def card(code, ctype, abilities, **kw):
    base = {"code": code, "name": kw.pop("name", code), "type": ctype, "affiliation": None, "text": "x",
            "abilities": abilities}
    if ctype in ("place", "warrior", "leader"):
        base.update(cv=kw.pop("cv", 1), tactics=kw.pop("tactics", ["front"]))
    if ctype == "place":
        base["neighbor_count"] = kw.pop("nc", 4)
    if ctype == "warrior":
        base["warrior_type"] = kw.pop("warrior_type", "INFANTRY")
    if ctype == "leader":
        base["affiliation"] = "sunward"
        base["provides"] = kw.pop("provides", {"gold": 2, "food": 2, "timber": 1})
    else:
        base["cost"] = kw.pop("cost", 0)
    base.update(kw)
    assert check_abilities(abilities) == [], check_abilities(abilities)
    return base


SYNTH = [
    card("x-bal", "leader", [{"timing": "trigger", "when": {"event": "balancing"}, "effects": [{"gain_gold": 1}]}],
         cv=7),
    card("x-built", "leader", [{"timing": "trigger", "when": {"event": "built", "card": {"type": "place"}},
                                "effects": [{"gain_gold": 1}]}], cv=7),
    card("x-recruited", "place", [{"timing": "trigger", "when": {"event": "recruited", "card": {"type": "warrior"}},
                                   "effects": [{"draw": 1}]}]),
    card("x-destroyed", "leader", [{"timing": "trigger", "when": {"event": "place_destroyed",
                                                                  "controller": "opponent"},
                                    "effects": [{"gain_gold": 2}]}], cv=7),
    card("x-grant", "intrigue", [{"timing": "play", "target": {"type": "warrior"},
                                  "effects": [{"grant_tactic": "right", "who": "target"}]}]),
    card("x-annihilate", "intrigue", [{"timing": "play", "target": {"zone": "discard", "controller": "opponent"},
                                       "effects": [{"annihilate": "target"}]}]),
    card("x-return", "intrigue", [{"timing": "play", "target": {"type": "warrior", "controller": "opponent"},
                                   "effects": [{"return_to_hand": "target"}]}]),
    card("x-disband", "intrigue", [{"timing": "play", "effects": [
        {"disband": {"each": {"type": "warrior", "controller": "opponent", "in_group": True}}}]}]),
    card("x-choose-discard", "intrigue", [{"timing": "play", "effects": [{"discard_from_hand": 1,
                                                                          "player": "opponent"}]}]),
    card("x-cost-discard", "intrigue", [{"timing": "play", "cost": [{"discard_from_hand": 1}],
                                         "effects": [{"draw": 2}]}]),
    card("x-cost-self", "warrior", [{"timing": "action", "cost": [{"discard": "self"}],
                                     "effects": [{"gain_gold": 3}]}], consumes={"food": 1}),
    card("x-cost-annihilate", "warrior", [{"timing": "action", "cost": [{"annihilate": "self"}],
                                           "effects": [{"draw": 2}]}], consumes={"food": 1}),
    card("x-worthy", "leader", [{"timing": "static", "affects": {"type": "warrior"},
                                 "grant": {"keywords": ["Worthy"]}}], cv=7),
    card("x-tactic", "intrigue", [{"timing": "combat", "condition": {"tactic": "front"},
                                   "effects": [{"modify_cv": 2, "who": "our_side"}]}]),
    card("x-optional", "leader", [{"timing": "trigger", "when": {"event": "turn_start"},
                                   "cost": [{"pay_gold": 1}], "effects": [{"draw": 1}]}], cv=7),
    card("x-raid-place", "intrigue", [{"timing": "raid", "condition": {"taking_part": "raided"},
                                       "effects": [{"modify_cv": {"op": "multiply", "value": 2}, "who": "our_side"}]}]),
]


def with_cond(code, condition):
    return card(code, "warrior", [{"timing": "static", "modify": {"cv": 5}, "condition": condition}],
                consumes={"food": 1})


CONDITIONS = {
    "controls": ({"controls": {"type": "place"}, "min": 2}, {"settlement": [{"card": FARM, "at": [1, 0]},
                                                                           {"card": FARM, "at": [-1, 0]}]},
                 {"settlement": [{"card": FARM, "at": [1, 0]}]}),
    "controls_max": ({"controls": {"type": "place"}, "max": 0}, {}, {"settlement": [{"card": FARM, "at": [1, 0]}]}),
    "opponent_controls": ({"opponent_controls": {"type": "warrior"}}, {"opp": {"borderlands": [MILITIA]}}, {}),
    "reserve_gte": ({"reserve_gte": 4}, {"reserve": 4}, {"reserve": 3}),
    "vp_gte": ({"vp_gte": 10}, {"vp": 10}, {"vp": 9}),
    "vp_lte": ({"vp_lte": 10}, {"vp": 10}, {"vp": 11}),
    "behind": ({"behind": True}, {"opp": {"vp": 3}}, {}),
    "hand_lte": ({"hand_lte": 1}, {"hand": [FARM]}, {"hand": [FARM, FARM]}),
    "hand_gte": ({"hand_gte": 2}, {"hand": [FARM, FARM]}, {"hand": [FARM]}),
    "zone": ({"zone": "strike_force"}, {"zone": "strike_force"}, {}),
    "all": ({"all": [{"reserve_gte": 4}, {"vp_gte": 1}]}, {"reserve": 4, "vp": 1}, {"reserve": 4}),
    "any": ({"any": [{"reserve_gte": 4}, {"vp_gte": 1}]}, {"vp": 1}, {"reserve": 0}),
    "not": ({"not": {"reserve_gte": 4}}, {"reserve": 3}, {"reserve": 4}),
}
for _k, (_c, _, _) in CONDITIONS.items():
    SYNTH.append(with_cond(f"x-cond-{_k.replace('_', '-')}", _c))


@pytest.fixture(scope="module")
def cat(catalogue):
    return {**catalogue, **{c["code"]: c for c in SYNTH}}


def L(doc, cat):
    return load(doc, catalogue=cat)


def test_every_synthetic_card_is_supported():
    assert all(r["supported"] for r in support_report(SYNTH))


# ---- timings -----------------------------------------------------------------------------------------------
def test_static_queen_ysolde_gives_cavalry_one_cv(cat):
    g = L(pos(player(strike_force=[OUTRIDERS, PIKEMEN])), cat)
    assert [g.view(0).cv(w) for w in g.z[0][8]] == [4, 2]


def test_play_tax_levy_gains_two_gold(cat):
    g = L(pos(player(reserve=1, hand=["fb-035"])), cat)
    do(g, "play fb-035")   # then the turn ends by itself: Queen Ysolde's 2 Gold come in the balancing
    assert "T5 P0 §14.4 Tax Levy: gains 2 Gold (Reserve 3)" in g.logs and g.reserve[0] == 5
    assert g.cdef[g.z[0][Z_DISCARD][0]].code == "fb-035"


def test_enters_crossroads_inn_draws_one_when_built(cat):
    g = L(pos(player(hand=["fb-010"], deck=[MILITIA])), cat)
    do(g, "build fb-010", "at 1,0")
    assert [g.cdef[i].code for i in g.z[0][Z_HAND]] == [MILITIA]


def test_action_dawnspire_cathedral_pays_two_gold_to_draw_once_a_turn(cat):
    g = L(pos(player(reserve=5, deck=[MILITIA, FARM], settlement=[{"card": "fb-053", "at": [1, 0]}])), cat)
    assert "use fb-053" in texts(g)
    do(g, "use fb-053")
    assert g.reserve[0] == 3 and len(g.z[0][Z_HAND]) == 1 and "use fb-053" not in texts(g)


def test_combat_ambush_gives_the_defender_three(cat):
    g = L(pos(player(strike_force=[BLADES]), player(reserve=1, hand=["fb-032"], borderlands=[MILITIA]),
              step="attack"), cat)
    do(g, f"attack {BLADES} {MILITIA} front", "play fb-032")   # the attacker has nothing: its turn passes itself
    assert any("Hired Blades 3 vs Village Militia 4: the defender wins" in x for x in g.logs)


def test_raid_night_raid_gives_the_raider_two(cat):
    g = L(pos(player(reserve=1, hand=["fb-037"], strike_force=[BLADES]),
              player(settlement=[{"card": FARM, "at": [1, 0]}]), step="raid"), cat)
    do(g, f"raid {FARM} front {BLADES}", "play fb-037")
    assert g.vp[0] == 3


def test_raid_ability_of_the_raided_side_multiplies(cat):
    g = L(pos(player(strike_force=[BLADES, {"card": BLADES}]),
              player(reserve=1, hand=["x-raid-place"], settlement=[{"card": FARM, "at": [1, 0]}]), step="raid"), cat)
    do(g, f"raid {FARM} front {BLADES}#1+{BLADES}#2", "play x-raid-place")
    assert g.vp[0] == 0   # 6 vs 3 x 2 = 6: a tie


# ---- events ------------------------------------------------------------------------------------------------
def test_event_turn_start_harbormaster_quill(cat):
    for reserve, after in ((3, 4), (4, 4)):
        g = L(pos(player(leader="fb-123", reserve=reserve, hand=[FARM] * 7), step="turn_start"), cat)
        assert g.reserve[0] == after


def test_event_turn_start_optional_trigger_with_a_cost(cat):
    g = L(pos(player(leader="x-optional", reserve=2, hand=[FARM] * 6, deck=[MILITIA, MILITIA]),
              step="turn_start"), cat)
    assert g.pending.kind == "trigger" and texts(g) == ["yes", "no"]
    do(g, "yes")
    assert g.reserve[0] == 1 and len(g.z[0][Z_HAND]) == 7


def test_event_balancing(cat):
    g = L(pos(player(leader="x-bal", reserve=0)), cat)   # nothing to decide: the turn plays itself
    assert g.reserve[0] == 3   # 1 from the trigger, 2 from the Leader's Gold


def test_event_built(cat):
    g = L(pos(player(leader="x-built", reserve=2, hand=[FARM])), cat)
    do(g, f"build {FARM}", "at 1,0")
    assert any("x-built: gains 1 Gold (Reserve 2)" in x for x in g.logs)


def test_event_recruited(cat):
    g = L(pos(player(hand=[MILITIA], deck=[FARM], settlement=[{"card": "x-recruited", "at": [1, 0]}])), cat)
    do(g, f"recruit {MILITIA} strike")
    assert len(g.z[0][Z_HAND]) == 1


def test_event_attack_won_grave_hounds_draws(cat):
    g = L(pos(player(strike_force=["fb-108"], deck=[FARM]), player(borderlands=["fb-080"]), step="attack"), cat)
    do(g, "attack fb-108 fb-080 left")
    assert len(g.z[0][Z_HAND]) == 1


def test_event_dies_morvane_gains_gold_for_each_opposing_death(cat):
    g = L(pos(player(leader="fb-098", reserve=0, strike_force=["fb-106"]), player(borderlands=[MILITIA]),
              step="attack"), cat)
    do(g, f"attack fb-106 {MILITIA} front")
    assert g.reserve[0] == 1


def test_event_place_destroyed_and_raid_won(cat):
    g = L(pos(player(leader="x-destroyed", reserve=0, strike_force=[BLADES, MILITIA]),
              player(settlement=[{"card": FARM, "at": [1, 0]}]), step="raid"), cat)
    do(g, f"raid {FARM} front {BLADES}+{MILITIA}")
    assert g.reserve[0] == 2
    g = L(pos(player(leader="fb-125", reserve=0, strike_force=[BLADES, MILITIA]),
              player(settlement=[{"card": FARM, "at": [1, 0]}]), step="raid"), cat)
    do(g, f"raid {FARM} front {BLADES}+{MILITIA}")
    assert g.reserve[0] == 2   # Old Maro: when you win a raid, gain 2 Gold


# ---- effects -----------------------------------------------------------------------------------------------
def test_effect_draw_council_of_war(cat):
    g = L(pos(player(hand=["fb-038"], deck=[FARM, FARM, FARM])), cat)
    do(g, "play fb-038")
    assert len(g.z[0][Z_HAND]) == 2 and g.reserve[0] == 4


def test_effect_gain_gold_counted_toll_roads(cat):
    g = L(pos(player(reserve=1, hand=["fb-145"], settlement=[{"card": FARM, "at": [1, 0]},
                                                              {"card": FARM, "at": [-1, 0]}])), cat)
    do(g, "play fb-145")
    assert any("Toll Roads: gains 2 Gold (Reserve 2)" in x for x in g.logs)   # 1 - 1 + 2 Places


def test_effect_take_gold_grave_tithe_takes_what_there_is(cat):
    g = L(pos(player(reserve=0, hand=["fb-122"], borderlands=[PIKEMEN]), player(reserve=1)), cat)
    do(g, "play fb-122")
    assert g.reserve == [1, 0]


def test_effect_modify_cv_rousing_cry(cat):
    g = L(pos(player(reserve=1, hand=["fb-033"], strike_force=[MILITIA]), player(borderlands=[PIKEMEN]),
              step="attack"), cat)
    do(g, f"attack {MILITIA} {PIKEMEN} front", "play fb-033")
    assert any("Village Militia 3 vs Pikemen 3" in x for x in g.logs)


def test_effect_grant_tactic_for_the_turn(cat):
    g = L(pos(player(hand=["x-grant"], strike_force=[MILITIA], deck=[FARM] * 8)), cat)
    militia = g.z[0][8][0]
    do(g, "play x-grant")
    assert g.tactics(militia) == 2 | 4
    do(g, "done", "pay all", "pass")
    assert g.tactics(militia) == 2   # "this turn" ended


def test_effect_rule_hunters_snare_until_your_next_turn(cat):
    g = L(pos(player(reserve=1, hand=["fb-095"], deck=[FARM] * 9), player(strike_force=[BLADES], deck=[FARM] * 9)),
          cat)
    g.max_rounds = 9
    do(g, "play fb-095", "done")
    assert g.active == 1 and not g.view(1).attackers(1) and g.view(1).raiders(1, 2) == []


def test_effect_kill_ember_bolt_needs_a_sorcerer(cat):
    g = L(pos(player(reserve=1, hand=["fb-114"]), player(borderlands=[PIKEMEN, BLADES])), cat)
    assert "play fb-114" not in texts(g)
    g = L(pos(player(reserve=1, hand=["fb-114"], borderlands=["fb-024"]), player(borderlands=[PIKEMEN, BLADES])),
          cat)
    do(g, "play fb-114")
    assert g.zone[g.z[1][Z_DISCARD][0]] == Z_DISCARD and g.cdef[g.z[1][Z_DISCARD][0]].code == PIKEMEN


def test_effect_discard_sabotage(cat):
    g = L(pos(player(hand=["fb-036"]), player(deck=[FARM] * 9,
                                               borderlands=[{"card": PIKEMEN, "attachments": [SWORD]}])), cat)
    do(g, "play fb-036")
    assert [g.cdef[i].code for i in g.z[1][Z_DISCARD]] == [SWORD]


def test_effect_annihilate_a_card_from_a_discard_pile(cat):
    g = L(pos(player(hand=["x-annihilate"]), player(discard=[MILITIA, PIKEMEN])), cat)
    do(g, "play x-annihilate", f"target {PIKEMEN}")
    assert [g.cdef[i].code for i in g.z[1][Z_ANNIH]] == [PIKEMEN]


def test_effect_return_to_hand_discards_attachments(cat):
    g = L(pos(player(hand=["x-return"], borderlands=[MILITIA]),
              player(borderlands=[{"card": PIKEMEN, "attachments": [SWORD]}])), cat)
    do(g, "play x-return")
    assert [g.cdef[i].code for i in g.z[1][Z_HAND]] == [PIKEMEN] and g.z[1][Z_DISCARD]


def test_effect_move_forced_march_up_to_two(cat):
    g = L(pos(player(hand=["fb-031"], borderlands=[MILITIA, PIKEMEN, BLADES])), cat)
    do(g, "play fb-031", f"target {MILITIA}", "done")
    assert [g.cdef[i].code for i in g.z[0][8]] == [MILITIA]
    assert f"move {MILITIA}" in texts(g)   # it did not use its own move


def test_effect_disband(cat):
    g = L(pos(player(hand=["x-disband"]),
              player(borderlands=[{"card": PIKEMEN, "id": "a"}, {"card": MILITIA, "id": "b"}],
                     groups=[{"kind": "defensive", "members": ["a", "b"]}])), cat)
    do(g, "play x-disband")
    assert not g.groups


def test_effect_recover_salvage(cat):
    g = L(pos(player(hand=["fb-041"], discard=[BLADES, FARM])), cat)
    do(g, "play fb-041")
    assert g.pending.kind == "take" and texts(g) == [f"take {BLADES}", f"take {FARM}"]
    do(g, f"take {BLADES}")
    assert [g.cdef[i].code for i in g.z[0][Z_HAND]] == [BLADES]


def test_effect_search_thessaly_finds_a_prophecy_and_the_opponent_sees_it(cat):
    g = L(pos(player(reserve=2, hand=["fb-087"], deck=[FARM, "fb-090", FARM])), cat)
    do(g, "recruit fb-087 strike")
    assert [g.cdef[i].code for i in g.z[0][Z_HAND]] == ["fb-090"]
    assert g.view(1).known_hand(0) == g.z[0][Z_HAND]   # revealed


def test_effect_recruit_call_of_the_horn_free(cat):
    g = L(pos(player(reserve=0, hand=["fb-094", "fb-111"])), cat)
    do(g, "play fb-094", "recruit fb-111 strike")
    assert g.reserve[0] == 0 and g.z[0][8]


def test_effect_discard_from_hand_at_random_and_by_choice(cat):
    g = L(pos(player(reserve=2, hand=["fb-040"], borderlands=[PIKEMEN]), player(hand=[FARM, MILITIA])), cat)
    do(g, "play fb-040")
    assert len(g.z[1][Z_HAND]) == 1 and len(g.z[1][Z_DISCARD]) == 1
    g = L(pos(player(hand=["x-choose-discard"], borderlands=[PIKEMEN]), player(hand=[FARM, MILITIA])), cat)
    do(g, "play x-choose-discard")
    assert g.pending.kind == "discard" and g.pending.player == 1
    do(g, f"discard {MILITIA}")
    assert [g.cdef[i].code for i in g.z[1][Z_DISCARD]] == [MILITIA]


def test_effect_add_resources_supply_caravan(cat):
    g = L(pos(player(leader=ORLA, reserve=1, hand=["fb-034"], deck=[FARM] * 9,
                     borderlands=[MILITIA, {"card": MILITIA}, {"card": MILITIA}, {"card": "fb-021"}])), cat)
    do(g, "play fb-034", "done")
    assert "pay all" in texts(g)   # 2 + 2 Food for three Militia, 1 Timber for the Ram


# ---- costs -------------------------------------------------------------------------------------------------
def test_cost_pay_gold_bribed_sentries(cat):
    g = L(pos(player(reserve=2, hand=["fb-142"], strike_force=[MILITIA]), player(borderlands=[PIKEMEN]),
              step="attack"), cat)
    do(g, f"attack {MILITIA} {PIKEMEN} front", "play fb-142")
    assert g.reserve[0] == 0 and any("Village Militia 1 vs Pikemen 0: the attacker wins" in x for x in g.logs)


def test_cost_discard_from_hand(cat):
    g = L(pos(player(hand=["x-cost-discard", FARM, MILITIA], deck=[FARM, FARM])), cat)
    do(g, "play x-cost-discard", f"discard {MILITIA}")
    assert len(g.z[0][Z_HAND]) == 3 and g.cdef[g.z[0][Z_DISCARD][0]].code == MILITIA


def test_cost_discard_self_and_annihilate_self(cat):
    g = L(pos(player(reserve=0, borderlands=["x-cost-self"])), cat)
    do(g, "use x-cost-self")
    assert any("x-cost-self: gains 3 Gold (Reserve 3)" in x for x in g.logs) and g.z[0][Z_DISCARD]
    g = L(pos(player(deck=[FARM, FARM], borderlands=["x-cost-annihilate"])), cat)
    do(g, "use x-cost-annihilate")
    assert len(g.z[0][Z_HAND]) == 2 and g.z[0][Z_ANNIH]


def test_cost_kill_ashen_communion(cat):
    g = L(pos(player(reserve=0, hand=["fb-121"], deck=[FARM, FARM], borderlands=[MILITIA])), cat)
    do(g, "play fb-121")
    assert g.reserve[0] == 1 and len(g.z[0][Z_HAND]) == 2 and g.cdef[g.z[0][Z_DISCARD][0]].code == MILITIA


# ---- conditions --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(CONDITIONS))
def test_condition(cat, name):
    cond, yes, no = CONDITIONS[name]
    code = f"x-cond-{name.replace('_', '-')}"

    def cv(extra):
        extra = dict(extra)
        opp = extra.pop("opp", {})
        zone = extra.pop("zone", "borderlands")
        p0 = player(**{zone: [code]}, **extra)
        g = L(pos(p0, player(**opp)), cat)
        return g.view(0).cv(g.z[0][7 if zone == "borderlands" else 8][0])
    assert (cv(yes), cv(no)) == (6, 1)


def test_condition_taking_part_and_tactic(cat):
    g = L(pos(player(reserve=1, hand=["x-tactic"], strike_force=[BLADES]), player(borderlands=[PIKEMEN]),
              step="attack"), cat)
    do(g, f"attack {BLADES} {PIKEMEN} front", "play x-tactic")   # Pikemen +1 while defending
    assert any("Hired Blades 5 vs Pikemen 3" in x for x in g.logs)


def test_condition_controls_hallowed_ground_can_never_be_raided_with_a_patriarch(cat):
    g = L(pos(player(strike_force=[BLADES, OUTRIDERS]),
              player(settlement=[{"card": "fb-012", "at": [1, 0]}], strike_force=["fb-025"]), step="raid"), cat)
    assert g.view(0).raid_targets(1) == []


# ---- static modifiers --------------------------------------------------------------------------------------
def test_static_provides_granary(cat):
    g = L(pos(player(settlement=[{"card": "fb-008", "at": [1, 0]}, {"card": FARM, "at": [-1, 0]}])), cat)
    assert g.icons(g.z[0][6][2])[0] == (0, 3, 0, 0)


def test_static_consumes_ledger_of_the_free_companies(cat):
    g = L(pos(player(borderlands=["fb-134"], rituals=["fb-146"])), cat)
    assert g.icons(g.z[0][7][0])[1] == (1, 0, 0, 0)


def test_static_cost_smithy(cat):
    g = L(pos(player(reserve=0, hand=[SWORD], borderlands=[PIKEMEN],
                     settlement=[{"card": "fb-011", "at": [1, 0]}])), cat)
    assert f"play {SWORD} on {PIKEMEN}" in texts(g)   # 1 - 1 = 0


def test_static_grant_tactics_war_spear_and_sefa(cat):
    g = L(pos(player(leader="fb-074", strike_force=[{"card": "fb-015", "attachments": ["fb-027"]}])), cat)
    assert g.view(0).tactics(g.z[0][8][0]) == 1 | 2 | 4


def test_static_grant_keyword_worthy_makes_a_dark_harmony_host(cat):
    g = L(pos(player(leader="x-worthy", hand=["fb-118"], borderlands=[MILITIA])), cat)
    assert f"play fb-118 on {MILITIA}" in texts(g)


def test_static_rule_thornwall(cat):
    g = L(pos(player(strike_force=[BLADES, OUTRIDERS]),
              player(settlement=[{"card": "fb-078", "at": [1, 0]}], borderlands=["fb-024"]), step="raid"), cat)
    assert g.view(0).raid_targets(1) == []


# ---- kinds of Intrigue, durations ------------------------------------------------------------------------
def test_ritual_lasts_until_the_start_of_its_owners_next_turn(cat):
    g = L(pos(player(reserve=2, hand=["fb-065"], deck=[FARM] * 9, borderlands=["fb-062", MILITIA])), cat)
    do(g, "play fb-065")
    militia = g.z[0][7][1]
    assert g.view(0).cv(militia) == 2
    g.max_rounds = 9
    do(g, "done", "pay all")          # the goldfish takes no turn: the Ritual ends as this player's turn begins
    assert g.view(0).cv(militia) == 1 and g.cdef[g.z[0][Z_DISCARD][0]].code == "fb-065"


def test_prophecy_is_attached_to_the_leader_for_the_game(cat):
    g = L(pos(player(leader="fb-072", reserve=1, hand=["fb-046"], borderlands=["fb-023"])), cat)
    do(g, "play fb-046")
    assert g.view(0).cv(g.leader[0]) == 9 and g.atts[g.leader[0]]


def test_duration_attack_ends_with_the_attack(cat):
    g = L(pos(player(reserve=1, hand=["fb-070"], strike_force=[MILITIA, {"card": MILITIA}]),
              player(borderlands=[PIKEMEN, {"card": PIKEMEN}]), step="attack"), cat)
    do(g, f"attack {MILITIA}#1 {PIKEMEN}#1 front", "play fb-070")   # 1 + 3 vs 3
    assert g.cb is None and g.pending.kind == "attack"
    assert any("Village Militia 4 vs Pikemen 3: the attacker wins" in x for x in g.logs)
    do(g, f"attack {MILITIA}#2 {PIKEMEN}#2 front")
    assert any("Village Militia 1 vs Pikemen 3" in x for x in g.logs)


def test_the_whole_set_is_supported(catalogue):
    report = support_report(list(catalogue.values()))
    assert len(report) == 147 and [r for r in report if not r["supported"]] == []


def test_every_starter_is_fully_supported(decks):
    assert {name: d.unsupported_cards for name, d in decks.items()} == {name: [] for name in decks}
