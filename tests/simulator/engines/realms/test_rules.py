"""Scenario tests of the realms rules (002_…, docs/games/realms.md), each named after its section or reading.

Most are positions (conftest.pos): the board is written out, the engine is asked what is legal and what happens.
"""
from __future__ import annotations

import pytest

from simulator.engines.realms import Game, IllegalAction, play_game
from simulator.engines.realms.cards import CvMod, OP_ADD, OP_DIV, OP_MUL, OP_SUB, ORD_AFTER, ORD_BEFORE, ORD_NORMAL
from simulator.engines.realms.game import Z_ANNIH, Z_ASIDE, Z_DISCARD, Z_HAND, pipeline, stats_dict

from .conftest import (
    BLADES, CALDWEN, CAMP, FARM, IRON_PIT, MARKET, MILITIA, ORLA, OUTRIDERS, PIKEMEN, QUEEN, RAM, SCOUT, SPEAR,
    SWORD, do, done_until, load, player, pos, texts,
)


def cells(game) -> set[str]:
    return {t for t in texts(game) if t.startswith("at ")}


# ---- 002 §10, §15, R1, R2: the Settlement grid -----------------------------------------------------------
def test_002_s10_adjacency_and_neighbor_count():
    # Woodcutters' Camp (Neighbor Count 2) at 1,0 already touches the Leader and a Farmstead at 2,0: a third
    # neighbour would exceed its count, so the cells beside it are refused; corner contact does not count
    g = load(pos(player(hand=[IRON_PIT], settlement=[{"card": CAMP, "at": [1, 0]}, {"card": FARM, "at": [2, 0]}])))
    do(g, f"build {IRON_PIT}")
    assert cells(g) == {"at -1,0", "at 0,1", "at 0,-1", "at 3,0", "at 2,1", "at 2,-1"}
    do(g, "at 2,1")
    assert g.cdef[g.grid[0][g.cell[g.z[0][6][-1]]]].code == IRON_PIT


def test_002_s10_the_new_place_keeps_its_own_neighbor_count():
    # cell 0,1 touches the Leader and Farmsteads at 1,1 and -1,1: an Iron Pit (NC 2) may not go there, a
    # Farmstead (NC 3) may
    board = [{"card": FARM, "at": [1, 0]}, {"card": FARM, "at": [-1, 0]}, {"card": FARM, "at": [1, 1]},
             {"card": FARM, "at": [-1, 1]}]
    g = load(pos(player(hand=[IRON_PIT, FARM], settlement=board)))
    pit = g.clone()
    do(pit, f"build {IRON_PIT}")
    assert "at 0,1" not in cells(pit)
    do(g, f"build {FARM}")
    assert "at 0,1" in cells(g)


def test_002_s15_supply_line_unsupplied_place_neither_pays_nor_provides_but_can_be_raided():
    # a Market Square at 2,0 with nothing at 1,0 is cut off: it does not pay its Timber nor make its 2 Gold
    g = load(pos(player(leader=ORLA, reserve=0, settlement=[{"card": MARKET, "at": [2, 0]}]),
                 player(strike_force=[BLADES])))
    market = g.z[0][6][1]
    assert not g.supplied[market]
    do(g, "done")   # the balancing: Orla's 2 Gold only; then player 1's turn
    assert g.reserve[0] == 2 and g.active == 1
    assert market in g.view(1).raid_targets(0)           # still a Place: it can be raided ...
    assert g.leader[0] not in g.view(1).raid_targets(0)  # ... and it keeps the Leader from being raided


def test_002_s15_destroying_a_place_cuts_the_supply_line():
    g = load(pos(player(strike_force=[BLADES, OUTRIDERS]),
                 player(settlement=[{"card": FARM, "at": [1, 0]}, {"card": MARKET, "at": [2, 0]}]),
                 step="raid"))
    farm, market = g.z[1][6][1], g.z[1][6][2]
    assert g.supplied[market]
    do(g, f"raid {FARM} front {BLADES}+{OUTRIDERS}")
    assert g.zone[farm] == 5 and g.vp[0] == 3          # the Farmstead is a VP marker worth its base CV
    assert not g.supplied[market]
    assert any("cut off from the Supply Line" in line for line in g.logs)


# ---- 002 §14: raids ----------------------------------------------------------------------------------------
def raid_board(p1_border, p0_strike):
    return pos(player(strike_force=p0_strike),
               player(settlement=[{"card": FARM, "at": [1, 0]}, {"card": IRON_PIT, "at": [0, 1]}],
                      borderlands=p1_border), step="raid")


def test_002_s14_a_blocked_tactic_cannot_be_announced():
    # Pikemen (left/front) in the Borderlands block every raid on the Front: the Farmstead (front only) cannot be
    # raided; the Iron Pit (right) can
    g = load(raid_board([PIKEMEN], [BLADES, MILITIA]))
    assert texts(g) == [f"raid {IRON_PIT} right {BLADES}", "pass"]
    with pytest.raises(IllegalAction):
        g.apply_action(f"raid {FARM} front {BLADES}")


def test_002_s14_raids_by_the_wayfinder_scout_alone_cannot_be_blocked():
    g = load(raid_board([PIKEMEN], [BLADES, SCOUT]))
    assert f"raid {FARM} front {SCOUT}" in texts(g)
    with pytest.raises(IllegalAction):   # with a blockable raider the raid is blocked again
        g.apply_action(f"raid {FARM} front {SCOUT}+{BLADES}")
    do(g, f"raid {FARM} front {SCOUT}")
    assert any("the raid fails" in line for line in g.logs)   # CV 1 vs 3


def test_002_s14_a_tie_in_a_raid_does_nothing():
    g = load(raid_board([], [BLADES]))
    farm = g.z[1][6][1]
    do(g, f"raid {FARM} front {BLADES}")   # 3 vs 3
    assert g.zone[farm] == 6 and g.vp == [0, 0]
    assert any("a tie: nothing happens" in line for line in g.logs)


def test_002_s14_a_raid_that_exceeds_destroys_the_place_for_its_base_cv():
    g = load(raid_board([], [BLADES, MILITIA]))
    do(g, f"raid {FARM} front {BLADES}+{MILITIA}")   # 4 vs 3
    assert g.vp[0] == 3 and len(g.z[0][5]) == 1


def test_002_s14_raiders_may_be_any_subset_of_the_printed_party():
    g = load(raid_board([], [BLADES, MILITIA]))
    do(g, f"raid {FARM} front {MILITIA}")
    assert g.vp[0] == 0 and any("raiders 1 vs Farmstead 3" in line for line in g.logs)


def test_002_s11_a_defensive_group_blocks_only_a_tactic_all_its_members_share():
    camp = [{"card": CAMP, "at": [1, 0]}]
    alone = load(pos(player(strike_force=[OUTRIDERS]),
                     player(settlement=camp, borderlands=[PIKEMEN, MILITIA]), step="raid"))
    assert alone.active == 1 and stats_dict(alone.stats[0])["raids"] == 0   # Pikemen block the Left Flank: no raid at all
    grouped = load(pos(player(strike_force=[OUTRIDERS]),
                       player(settlement=camp, borderlands=[{"card": PIKEMEN, "id": "pk"},
                                                             {"card": MILITIA, "id": "mi"}],
                              groups=[{"kind": "defensive", "members": ["pk", "mi"]}]), step="raid"))
    assert texts(grouped) == [f"raid {CAMP} left {OUTRIDERS}", "pass"]


def test_002_s11_a_defensive_group_is_attacked_as_one_on_a_shared_tactic():
    g = load(pos(player(leader=ORLA, strike_force=[OUTRIDERS]),
                 player(borderlands=[{"card": PIKEMEN, "id": "pk"}, {"card": MILITIA, "id": "mi"}],
                        groups=[{"kind": "defensive", "members": ["pk", "mi"]}]), step="attack"))
    # a card is printed by its code where no other card here has it, else by its label (CONTRACTS §6)
    assert texts(g) == [f"attack {OUTRIDERS} {PIKEMEN}+{MILITIA} front", "done"]
    do(g, f"attack {OUTRIDERS} pk+mi front")   # 3 vs 2+1 (Pikemen +1 defending) + 1 = 4: the attacker dies
    assert g.zone[g.z[0][2][0]] == Z_DISCARD


def test_002_s14_leader_raided_only_when_no_place_is_left():
    g = load(pos(player(strike_force=[BLADES, OUTRIDERS, {"card": BLADES}]), player(leader=ORLA), step="raid"))
    assert texts(g) == [f"raid leader left {OUTRIDERS}", f"raid leader right {BLADES}#1+{OUTRIDERS}+{BLADES}#2",
                        "pass"]


@pytest.mark.parametrize("reward", ["gold", "attachments", "discard", "vp"])
def test_002_s14_leader_raid_rewards(reward):
    p1 = player(leader={"card": ORLA, "attachments": ["fb-091"]}, reserve=4, discard=[MILITIA],
                set_aside=[PIKEMEN])
    g = load(pos(player(reserve=1, strike_force=[{"card": BLADES, "id": "b1"}, {"card": BLADES, "id": "b2"},
                                                   OUTRIDERS]), p1, step="raid"))
    do(g, f"raid leader right b1+b2+{OUTRIDERS}")   # 9 vs 7
    assert texts(g) == ["reward gold", "reward attachments", "reward discard", "reward vp"]
    do(g, f"reward {reward}")
    if reward == "gold":
        assert g.reserve == [5, 0]
    elif reward == "attachments":
        assert not g.atts.get(g.leader[1]) and len(g.z[1][Z_ANNIH]) == 1
    elif reward == "discard":
        # 002 §3: annihilated, not discarded: out of the game, never shuffled back (set-aside cards too)
        assert not g.z[1][Z_DISCARD] and not g.z[1][Z_ASIDE] and len(g.z[1][Z_ANNIH]) == 2
    else:
        assert g.vp[0] == 7 and g.vp_tokens[0] == 7


def test_002_s1_victory_at_once():
    # 45 VP and a raid on the goldfish Leader (CV 7) for 7 VP: the game ends there, Old Maro's raid_won trigger
    # never resolves
    g = load(pos(player(leader="fb-125", vp=45, reserve=0, strike_force=[BLADES, {"card": BLADES}, OUTRIDERS]),
                 step="raid"))
    # the goldfish Leader has every Tactic; with no Reserve, attachment or discard pile to take, VP is the only
    # reward, so the decision takes itself
    do(g, f"raid leader front {BLADES}#1+{BLADES}#2+{OUTRIDERS}")
    assert g.is_terminal() and g.winner == 0 and g.reason == "vp" and g.vp[0] == 52
    assert g.reserve[0] == 0 and g.returns() == [1.0, -1.0]


def test_002_s17_simplified_mode_wins_at_30_and_ignores_cavalry_vehicle_and_equipment_limits():
    board = player(vp=25, hand=[OUTRIDERS, RAM, SPEAR], borderlands=[{"card": PIKEMEN, "attachments": [SWORD]}])
    std = load(pos(board))
    assert not any(t.startswith(f"recruit {OUTRIDERS}") for t in texts(std))   # no Stables: CAVALRY locked (R8)
    assert not any(t.startswith(f"play {SPEAR}") for t in texts(std))          # a second Weapon (R10)
    simple = load(pos(board, format="simplified"))
    assert {f"recruit {OUTRIDERS} borderlands", f"recruit {RAM} borderlands", f"play {SPEAR} on {PIKEMEN}"} <= \
        set(texts(simple))
    raid = load(pos(player(vp=25, strike_force=[BLADES, {"card": BLADES}, OUTRIDERS]), step="raid",
                    format="simplified"))
    do(raid, f"raid leader front {BLADES}#1+{BLADES}#2+{OUTRIDERS}")
    assert raid.winner == 0 and raid.vp[0] == 32 and raid.target_vp == 30


# ---- 002 §12, R4: Resource Balancing -----------------------------------------------------------------------
def test_002_s12_balancing_discards_what_cannot_be_paid():
    # Orla gives 2 Food; three Village Militia eat 3: two are paid, the third is discarded
    g = load(pos(player(leader=ORLA, reserve=0, deck=[FARM] * 9,
                        borderlands=[MILITIA, {"card": MILITIA}, {"card": MILITIA}])))
    do(g, "done")
    assert g.pending.kind == "balance" and "pay all" not in texts(g)
    do(g, f"pay {MILITIA}#1", f"pay {MILITIA}#2")
    assert len(g.z[0][7]) == 2 and len(g.z[0][Z_DISCARD]) == 1
    assert any("cannot be paid and is discarded" in line for line in g.logs)
    assert g.reserve[0] == 2 and g.unpaid_by_turn[0] == [1]


def test_R4_first_consumes_then_provides():
    # an Iron Pit pays 1 Food and then provides the 2 Iron that keep an Iron Sword; unused Gold goes to the Reserve
    g = load(pos(player(leader=ORLA, reserve=1, settlement=[{"card": IRON_PIT, "at": [1, 0]}],
                        strike_force=[{"card": PIKEMEN, "attachments": [SWORD]}])))
    do(g, "done")
    assert "pay all" in texts(g)
    do(g, "pay all")
    assert not g.z[0][Z_DISCARD] and g.reserve[0] == 3   # 1 + Orla's 2 Gold


def test_002_s12_a_card_may_be_discarded_on_purpose():
    g = load(pos(player(leader=ORLA, reserve=0, deck=[FARM] * 9, strike_force=[BLADES])))
    do(g, "done", f"discard {BLADES}")
    assert g.reserve[0] == 2 and g.z[0][Z_DISCARD] and g.unpaid_by_turn[0] == [0]


def cut_farm_board():
    # Orla gives 2 Gold 2 Food 1 Timber; the Farmstead at 2,0 (2 Food) is supplied only through the Market Square
    # at 1,0 (pays 1 Timber, gives 2 Gold); four Village Militia eat 1 Food each
    return load(pos(player(leader=ORLA, reserve=0, deck=[FARM] * 9,
                           settlement=[{"card": MARKET, "at": [1, 0]}, {"card": FARM, "at": [2, 0]}],
                           borderlands=[MILITIA] * 4)))


def test_002_s15_a_place_cut_off_during_the_balancing_stops_providing_at_once():
    g = cut_farm_board()
    do(g, "done")
    assert g.bal_avail == [2, 4, 1, 0]                   # the supplied Farmstead's Food is counted
    do(g, f"discard {MARKET}")                           # on purpose: the Farmstead loses its Supply Line
    farm = g.z[0][6][1]
    assert not g.supplied[farm] and g.bal_avail == [2, 2, 1, 0]
    do(g, f"pay {MILITIA}#1", f"pay {MILITIA}#2")        # Orla's 2 Food feed two; the other two are discarded
    assert len(g.z[0][7]) == 2 and g.zone[farm] == 6     # the cut-off Farmstead stays, paying nothing
    assert g.reserve[0] == 2 and g.unpaid_by_turn[0] == [1]


def test_002_s15_cards_paid_with_a_cut_off_places_resources_are_unpaid_again():
    g = cut_farm_board()
    do(g, "done", *[f"pay {MILITIA}#{k}" for k in (1, 2, 3, 4)])   # all four fed with Orla's and the Farm's Food
    assert g.bal_avail[1] == 0
    do(g, f"discard {MARKET}")
    assert g.bal_avail == [2, 2, 1, 0] and len(g.bal_unpaid) == 4   # the Food spent is given back, and owed
    assert any("is no longer paid" in line for line in g.logs)
    do(g, f"pay {MILITIA}#1", f"pay {MILITIA}#2")
    assert len(g.z[0][7]) == 2 and g.reserve[0] == 2


def test_002_s15_a_paid_place_cut_off_gives_back_its_output_and_its_payment():
    # the Market Square (2 Gold for 1 Timber) is paid first, then the Iron Pit joining it to Orla is discarded
    g = load(pos(player(leader=ORLA, reserve=0, deck=[FARM] * 9,
                        settlement=[{"card": IRON_PIT, "at": [1, 0]}, {"card": MARKET, "at": [2, 0]}])))
    assert g.pending.kind == "balance"                   # nothing to do in the Actions step
    do(g, f"pay {MARKET}")
    assert g.bal_avail == [4, 2, 0, 0]
    do(g, f"discard {IRON_PIT}")                         # nothing is left to pay: the balancing ends
    assert g.reserve[0] == 2                             # Orla's 2 Gold only: the cut-off Market Square's 2 go


# ---- 002 §9: drawing, the reshuffle, R15 -----------------------------------------------------------------
def test_002_s9_the_discard_pile_is_shuffled_into_a_new_deck_when_the_deck_runs_out():
    p0 = player(hand=[FARM, FARM, FARM], deck=[MILITIA], discard=[PIKEMEN, BLADES, CAMP], set_aside=[MARKET, SWORD])
    g = load(pos(p0, step="turn_start"))
    assert len(g.z[0][Z_HAND]) == 7 and not g.z[0][Z_DISCARD] and not g.z[0][Z_ASIDE]
    assert len(g.z[0][0]) == 2 and stats_dict(g.stats[0])["reshuffles"] == 1
    assert g.cdef[g.z[0][Z_HAND][3]].code == MILITIA   # the old deck's card came first
    assert any("shuffled into a new deck" in line for line in g.logs)


def test_R15_with_deck_and_discard_pile_empty_drawing_stops():
    g = load(pos(player(hand=[FARM, FARM, FARM]), step="turn_start"))
    assert len(g.z[0][Z_HAND]) == 3 and not g.is_terminal()


# ---- 002 §13: attacks --------------------------------------------------------------------------------------
def attack(p0_strike, p1_border, leader=QUEEN):
    return load(pos(player(leader=leader, strike_force=p0_strike), player(borderlands=p1_border), step="attack"))


def test_002_s13_the_higher_cv_wins_and_the_loser_dies():
    g = attack([BLADES], [MILITIA], leader=CALDWEN)
    assert texts(g) == [f"attack {BLADES} {MILITIA} front", "done"]
    do(g, f"attack {BLADES} {MILITIA} front")
    assert g.z[1][Z_DISCARD] and g.reserve[0] == 6   # Ser Caldwen: +1 Gold for an attack won as the attacker
    assert g.attacked_t[g.z[0][8][0]] == g.turn and texts(g) == ["done"] or g.pending.kind == "raid"


def test_002_s13_the_attacker_that_loses_dies():
    g = attack([MILITIA], [PIKEMEN])   # 1 vs 2 + 1 while defending
    do(g, f"attack {MILITIA} {PIKEMEN} front")
    assert g.z[0][Z_DISCARD] and not g.z[0][8]


def test_002_s13_a_tie_kills_nobody():
    g = attack([BLADES], [PIKEMEN])   # 3 vs 3
    do(g, f"attack {BLADES} {PIKEMEN} front")
    assert g.z[0][8] and g.z[1][7] and any("a tie: nobody dies" in line for line in g.logs)


def test_002_s13_attacker_and_defender_must_share_a_tactic_and_each_attacks_once():
    g = attack([{"card": PIKEMEN, "id": "pk"}], [{"card": "fb-024", "id": "witch"}])   # left/front vs right
    assert g.pending.kind != "attack"
    g = attack([{"card": BLADES, "id": "bl"}], [{"card": MILITIA, "id": "m1"}, {"card": MILITIA, "id": "m2"}])
    do(g, "attack bl m1 front")
    assert g.pending is None or g.pending.kind != "attack"   # Hired Blades attacked: no attacker left


def test_002_s11_an_offensive_group_sums_its_cv_and_every_member_of_a_losing_group_dies():
    g = load(pos(player(strike_force=[{"card": MILITIA, "id": "m1"}, {"card": MILITIA, "id": "m2"}]),
                 player(borderlands=[{"card": BLADES, "id": "bl"}])))
    assert "group offensive m1+m2" in texts(g)
    do(g, "group offensive m1+m2")
    done_until(g, "attack")
    assert texts(g) == [f"attack m1+m2 {BLADES} front", "done"]
    do(g, "attack m1+m2 bl front")   # 2 vs 3
    assert len(g.z[0][Z_DISCARD]) == 2 and not g.groups


def test_002_s11_loners_cannot_join_groups():
    g = load(pos(player(strike_force=[SCOUT, MILITIA, {"card": "fb-083"}])))   # Scout and Lone Wolf are Loners
    assert not any(t.startswith("group") for t in texts(g))


# ---- 002 §16, R18: the CV modifier order; NEVER over ALWAYS --------------------------------------------------
def test_002_s16_cv_modifier_order():
    add3, half_first = CvMod(OP_ADD, 3, ORD_NORMAL), CvMod(OP_DIV, 2, ORD_BEFORE)
    assert pipeline(5, [add3, half_first]) == 5                                   # (5 / 2) + 3 = 5.5 -> 5
    assert pipeline(5, [CvMod(OP_MUL, 2, ORD_NORMAL), CvMod(OP_SUB, 1, ORD_AFTER)]) == 9
    assert pipeline(5, [CvMod(OP_ADD, 3, ORD_AFTER), CvMod(OP_MUL, 2, ORD_NORMAL)]) == 13
    assert pipeline(5, [CvMod(OP_MUL, 2, ORD_AFTER), CvMod(OP_ADD, 3, ORD_NORMAL)]) == 16
    assert pipeline(2, [CvMod(OP_SUB, 5, ORD_NORMAL)]) == 0                       # never below 0
    assert pipeline(7, [CvMod(OP_DIV, 2, ORD_NORMAL), CvMod(OP_DIV, 2, ORD_NORMAL)]) == 1   # exact, then down


def test_002_s16_unmaking_halves_before_all_and_oath_adds_after_all_in_one_fight():
    # the defender plays Oath of the Last Stand (+3 after all), the attacker Unmaking (halve the opposing side
    # before all): the defender's 3 becomes 3 / 2 + 3 = 4.5 -> 4, against the attacker's 5
    g = load(pos(player(leader="fb-097", reserve=5, hand=["fb-117"], strike_force=["fb-064"],
                        borderlands=["fb-109"]),
                 player(reserve=5, hand=["fb-067"], borderlands=[BLADES]), step="attack"))
    do(g, f"attack fb-064 {BLADES} front")
    assert g.pending.kind == "combat" and g.pending.player == 0
    do(g, "pass")
    do(g, "play fb-067")
    do(g, "play fb-117")
    do(g, "pass")
    assert any("Royal Champion 5 vs Hired Blades 4: the attacker wins" in line for line in g.logs)


def test_002_s16_never_takes_precedence_over_always():
    # Rally to the Walls lets Borderlands warriors ALWAYS block; the Cinder Zealot can NEVER block; Smoke Pots'
    # "cannot" loses to ALWAYS
    rally = [{"card": "zealot", "rule": {"block": "always"}, "until": "next_turn", "controller": 1},
             {"card": "pk", "rule": {"block": "always"}, "until": "next_turn", "controller": 1},
             {"card": "pk", "rule": {"block": "cannot"}, "until": "turn", "controller": 0}]
    g = load(pos(player(strike_force=[BLADES, OUTRIDERS]),
                 player(settlement=[{"card": MARKET, "at": [1, 0]}],
                        borderlands=[{"card": "fb-106", "id": "zealot"}, {"card": PIKEMEN, "id": "pk"}]),
                 step="raid", effects=rally))
    v = g.view(0)
    assert not v.allowed(g.z[1][7][0], 4) and v.allowed(g.z[1][7][1], 4)
    assert texts(g) == [f"raid {MARKET} right {BLADES}+{OUTRIDERS}", "pass"]   # front blocked by the Pikemen


def test_002_s16_can_overrides_cannot():
    # Prophecy of the Pack: "Your Loners can join Groups" overrides the Loner's cannot (002 §11)
    g = load(pos(player(leader={"card": "fb-073", "attachments": ["fb-092"]},
                        strike_force=[{"card": "fb-083", "id": "wolf"}, {"card": "fb-081", "id": "briar"}])))
    assert "group offensive fb-083+fb-081" in texts(g)


# ---- 002 §15, R19, R10, R8 ----------------------------------------------------------------------------------
def test_002_s15_a_unique_card_is_not_played_while_a_copy_is_in_play():
    g = load(pos(player(reserve=9, settlement=[{"card": "fb-051", "at": [1, 0]}], hand=["fb-061"],
                        strike_force=["fb-061"])))
    assert not any("fb-061" in t and t.startswith("recruit") for t in texts(g))


def test_R10_one_weapon_and_one_armor_on_each_warrior():
    g = load(pos(player(hand=[SPEAR, "fb-028"], borderlands=[{"card": PIKEMEN, "attachments": [SWORD]}])))
    t = texts(g)
    assert f"play fb-028 on {PIKEMEN}" in t and f"play {SPEAR} on {PIKEMEN}" not in t


def test_R8_vehicles_recruit_into_the_strike_force_cannot_act_that_turn_nor_move():
    g = load(pos(player(reserve=5, hand=[RAM], settlement=[{"card": "fb-007", "at": [1, 0]}])))
    assert [t for t in texts(g) if t.startswith("recruit")] == [f"recruit {RAM} strike"]
    do(g, f"recruit {RAM} strike")
    assert f"move {RAM}" not in texts(g)
    assert g.view(0).raiders(0, 2) == []   # recruited this turn: no raid


def test_R13_the_first_player_skips_attack_and_raid_on_its_first_turn(decks):
    g = Game(decks["deepwood"], decks["ashen"], seed=4, first_player=0, log=True)
    while g.turns_taken[0] < 2:
        kinds = g.pending.kind
        assert not (g.turns_taken[0] == 1 and g.active == 0 and kinds in ("attack", "raid"))
        g.apply_action(g.legal_actions()[-1] if kinds != "mulligan" else (1,))
    assert any("R13" in line for line in g.logs)


def test_002_s8_setup(decks):
    g = Game(decks["sunward"], decks["tideholm"], seed=11)
    assert g.pending.kind == "leader" and len(g.legal_actions()) == 3
    do(g, "leader fb-050")
    do(g, g.action_text(g.legal_actions()[0]))
    assert g.pending.kind == "mulligan"
    for p in (0, 1):
        assert len(g.z[p][Z_HAND]) == 7 and len(g.z[p][Z_ASIDE]) == 3 and len(g.z[p][0]) == 59 - 10
    do(g, "mulligan", "keep")
    assert len(g.z[0][Z_ASIDE]) == 10 and len(g.z[0][Z_HAND]) == 7   # R12: the hand goes to the discard pile
    assert g.reserve == [5, 5] and g.pending.kind == "actions" and g.active == g.first


def test_the_goldfish_opponent_never_acts(decks):
    r = play_game(decks["deepwood"], None, seed=2)
    assert r.first_player == 0 and r.stats[1]["cards_played"] == 0 and r.vp[1] == 0
