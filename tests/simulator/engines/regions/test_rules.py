"""Scenario tests of Heroes and Regions, named after the rules' sections (rules 003), on positions written by hand."""
from __future__ import annotations

import pytest

from simulator.engines.regions import CardSet, Game, IllegalAction, PositionError, cleanup, effects

from .helpers import CS, load, names, position

COINS = ["t-seamus-coin"] * 8
FINN_COINS = ["t-finn-coin"] * 8
GIG, ATOS, MANGAN, IOS, PINE = "hr-050", "hr-051", "hr-052", "hr-053", "hr-054"


def texts(g: Game) -> list[str]:
    return [g.action_text(a) for a in g.legal_actions()]


# ---- 003 §7.3: the worked exchange, exactly as written -------------------------------------------------------
def test_7_3_worked_exchange():
    g = load([{"deck": COINS, "stacks": {PINE: ["t-izzy", "t-lyla"], ATOS: ["t-jarl"]}},
              {"deck": FINN_COINS, "stacks": {PINE: ["t-cassian", "t-jarae"], ATOS: ["hr-004"]}}],
             phase="cleanup", control={PINE: 0, ATOS: 1})
    assert g.level == [1, 1]                                   # both dropped from 2 to 1 at the recount
    # Pinehurst: Seamus deals 1, Finn deals 2 + 1 = 3; Finn's 3 destroys Izzy & Bren and the spare 1 Lyla
    assert names(g.stacks[0][4]) == []
    assert names(g.stacks[1][4]) == ["Cassian", "Ja'Rae"]      # Seamus's 1 is not enough for Cassian
    # Atos: Jarl (1 Damage, 2 Health) survives; Finn's lone Worker is destroyed
    assert names(g.stacks[0][1]) == ["Jarl"]
    assert names(g.stacks[1][1]) == []
    assert sorted(names(g.discard[0])) == ["Izzy & Bren", "Lyla"]
    assert names(g.discard[1]) == ["Worker"]
    # at Clean Up Pinehurst resets for Seamus and Atos for Finn: neither has a card left there
    assert g.ctrl == [-1, -1, -1, -1, -1]
    assert any("at Pinehurst: Damage dealt p0 1, p1 3" in line for line in g.logs)
    assert any("at Atos: Damage dealt p0 1, p1 1" in line for line in g.logs)


def test_7_1_excess_carries_through_every_card_and_both_stacks_resolve_at_once():
    g = load([{"deck": COINS, "stacks": {IOS: ["t-cassian", "t-jarae", "t-lyla"]}},
              {"deck": FINN_COINS, "stacks": {IOS: ["t-cassian", "t-cassian"]}}], phase="cleanup")
    # p1 deals 4: Cassian (2) and Ja'Rae (1) destroyed, 1 left for Lyla (1): destroyed; p0 deals 3: one Cassian
    # destroyed (a destroyed card still deals its damage in the same exchange), 1 absorbed by the second
    assert names(g.stacks[0][3]) == []
    assert names(g.stacks[1][3]) == ["Cassian"]


def test_7_1_damage_with_nothing_left_to_hit_is_ignored():
    g = load([{"deck": COINS, "stacks": {IOS: ["t-spear", "t-spear"]}},   # two Tactics deal 6
              {"deck": FINN_COINS, "stacks": {IOS: ["t-lyla"], GIG: ["t-jarae"]}}], phase="cleanup")
    assert names(g.stacks[1][3]) == []
    assert names(g.stacks[1][0]) == ["Ja'Rae"]       # nothing carries over to another Region


# ---- 003 §4.4, §6.2: Tactics (our reading: their Shields absorb damage first) ------------------------------
def test_4_4_tactic_shields_absorb_damage_for_the_cards_behind():
    g = load([{"deck": COINS, "stacks": {IOS: ["t-lyla", "t-wall"]}},      # Lyla 0/1 behind a Wall of 3 Shields
              {"deck": FINN_COINS, "stacks": {IOS: ["t-cassian", "t-jarae"]}}], phase="cleanup")
    # Finn's 3 Damage is absorbed by the Wall's 3 Shields: Lyla survives; every Tactic is discarded at Clean Up
    assert names(g.stacks[0][3]) == ["Lyla"]
    assert names(g.discard[0]) == ["Wall"]


def test_4_5_every_tactic_is_discarded_at_clean_up_even_unopposed():
    g = load([{"deck": COINS, "stacks": {GIG: ["t-jarl", "t-spear"]}}, {"deck": FINN_COINS}], phase="cleanup")
    assert names(g.stacks[0][0]) == ["Jarl"]
    assert names(g.discard[0]) == ["Spear"]


# ---- 003 §5.3, §6.4: Reveal fires as placed and again on re-exposure ------------------------------------------
def test_5_3_reveal_fires_again_when_a_covering_tactic_leaves_at_clean_up():
    g = load([{"deck": COINS, "stacks": {IOS: ["t-herald", "t-wall"]}}, {"deck": FINN_COINS}], phase="cleanup")
    # the Wall covered the Herald; discarding it exposes the Herald again and its Reveal fires: +1 Recognition
    assert g.rec_pile == 9 and g.rec_owned[0] == 1
    assert any("Reveal: Herald at Ios" in line for line in g.logs)


def test_5_3_reveal_fires_as_placed_and_again_when_the_covering_card_is_destroyed():
    g = load([{"deck": COINS, "hand": ["t-herald"], "stacks": {IOS: ["t-lyla"]}},
              {"deck": FINN_COINS, "hand": ["t-archer"]}], phase="position", step="window")
    g.apply_action("place Herald at Ios")                    # Reveal as placed: +1 Recognition
    assert g.rec_owned[0] == 1
    assert g.pending.player == 1 and g.pending.kind == "position"   # Seamus has nothing left to place
    g.apply_action("place Archer at Ios")                    # Reveal: 1 damage to a card in an opposing Stack here
    assert g.pending.kind == "target"
    assert texts(g) == ["target Lyla at Ios #1 of p0", "target Herald at Ios #2 of p0"]
    g.apply_action("target Herald at Ios #2 of p0")          # destroys the exposed Herald ...
    assert names(g.stacks[0][3]) == ["Lyla"]
    # ... which exposes Lyla again (she has no Reveal); the Herald is in the Discard, it never fired a third time
    assert g.rec_owned[0] == 1 and names(g.discard[0]) == ["Herald"]


def test_4_5_priority_player_resolves_reveals_first_and_a_destroyed_triggered_card_still_resolves():
    g = load([{"deck": COINS, "stacks": {IOS: ["t-archer", "t-wall"]}},
              {"deck": FINN_COINS, "stacks": {IOS: ["t-herald", "t-wall"]}}], phase="cleanup", priority=0)
    # both Walls leave: Seamus (Priority) resolves his Archer first, destroying Finn's Herald; Finn still
    # resolves the Herald's Reveal
    assert names(g.stacks[1][3]) == []
    assert "Herald" in names(g.discard[1])
    assert g.rec_owned == [0, 1]
    reveals = [line for line in g.logs if "Reveal:" in line]
    assert reveals[0].startswith("T3 Cleanup p0") and reveals[1].startswith("T3 Cleanup p1")


# ---- 003 §5.4: Quests and control ----------------------------------------------------------------------------
def test_5_4_quest_completed_in_its_phase_flips_the_region_and_it_pays_from_the_next_hero_phase():
    # Mangan's Landing: a Position Quest, 4 or more cards in your Stack there
    g = load([{"deck": COINS, "hand": ["t-lyla"], "stacks": {MANGAN: ["t-jarl", "t-jarl", "t-jarl"]}},
              {"deck": FINN_COINS}], phase="position", step="window")
    g.apply_action("place Lyla at Mangan's Landing")
    g.apply_action("done")
    assert g.ctrl[2] == 0                                      # checked when the Position phase ends
    while g.phase != 0 or g.pending is None or g.pending.player != 0:
        g.apply_action("done")
    # the next Hero phase: the Region pays one Recognition onto the top of Seamus's Deck
    assert g.rec_pile == 9 and g.deck[0][-1].name == "Recognition" and g.known_top[0] == 1
    assert any("Mangan's Landing pays 1 Recognition" in line for line in g.logs)


def test_5_4_priority_player_takes_a_quest_both_meet():
    g = load([{"deck": COINS, "stacks": {MANGAN: ["t-jarl"] * 4}}, {"deck": FINN_COINS,
              "stacks": {MANGAN: ["t-jarl"] * 4}}], phase="position", priority=1)
    while g.phase == 2:
        g.apply_action("done")
    assert g.ctrl[2] == 1


def test_5_4_a_held_region_cannot_be_claimed_until_it_resets():
    g = load([{"deck": COINS, "stacks": {MANGAN: ["t-jarl"] * 4}}, {"deck": FINN_COINS,
              "stacks": {MANGAN: ["t-jarl"] * 5}}], phase="position", control={MANGAN: 0}, priority=1)
    while g.phase == 2:
        g.apply_action("done")
    assert g.ctrl[2] == 0


def test_5_1_region_resets_when_the_holders_stack_empties_at_clean_up_and_can_be_claimed_again():
    g = load([{"deck": COINS, "stacks": {MANGAN: ["t-lyla"]}},
              {"deck": FINN_COINS, "stacks": {MANGAN: ["t-jarl", "t-jarl", "t-jarl", "t-jarl"]}}],
             phase="cleanup", control={MANGAN: 0})
    assert g.ctrl[2] == -1 and any("Mangan's Landing resets" in line for line in g.logs)
    # next turn, Finn meets the Quest in the Position phase and takes it
    while g.phase != 2:
        g.apply_action("done")
    while g.phase == 2:
        g.apply_action("done")
    assert g.ctrl[2] == 1


def test_5_4_a_quest_needs_a_card_of_yours_there():
    # Ios is a Hero Quest, Level 4 or higher: Level 4 but no card at Ios does not complete it
    g = load([{"deck": COINS, "level": 4, "stacks": {GIG: ["t-lyla"], ATOS: ["t-lyla"], MANGAN: ["t-lyla"],
                                                     PINE: ["t-lyla"]}}, {"deck": FINN_COINS}], phase="hero")
    while g.phase == 0:
        g.apply_action("done")
    assert g.ctrl[3] == -1


# ---- 003 §4.1: the Hero phase ----------------------------------------------------------------------------------
def test_4_1_skill_tree_fires_from_level_0_up_to_the_current_level():
    cs = CardSet.default()
    pos = {"players": [{"hero": "hr-010", "level": 2, "deck": ["hr-011"] * 8}, {"hero": "hr-020"}], "phase": "hero"}
    g = Game.from_position(pos, cs, log=True)
    # Corin Vale, Level 2: Level 0 draws 4, Level 1 gives +1 Goods, Level 2 is a static Pocket +1
    assert len(g.hand[0]) == 4 and g.bank[0] == 1 and g.pocket_capacity(0) == 2


def test_4_1_level_0_draws_4_and_a_deck_running_out_mid_draw_reshuffles_the_discard():
    g = load([{"deck": ["t-coin", "t-coin"], "discard": ["t-lyla", "t-lyla", "t-lyla"]}, {"deck": FINN_COINS}],
             phase="hero")
    assert sorted(names(g.hand[0])) == ["Coin", "Coin", "Lyla", "Lyla"]
    assert len(g.deck[0]) == 1 and g.discard[0] == []
    assert any("Discard shuffled into a new Deck" in line for line in g.logs)


def test_4_1_pocket_and_hand_swap_but_one_card_stays_in_the_pocket():
    g = load([{"deck": COINS, "hand": ["t-coin", "t-lyla"], "pocket": ["t-gem"]}, {"deck": FINN_COINS}],
             phase="hero", step="window")
    assert "take Gem" not in texts(g)                          # it is the only card in the Pocket
    g.apply_action("stash Lyla")
    assert "take Gem" in texts(g) and "take Lyla" in texts(g)
    g.apply_action("take Gem")
    assert names(g.pocket[0]) == ["Lyla"] and "Gem" in names(g.hand[0])


# ---- 003 §4.2, §8.4: Purchase -----------------------------------------------------------------------------------
def test_4_2_pay_with_goods_in_hand_and_overpayment_stays_in_the_bank():
    g = load([{"hand": ["t-purse", "hr-003"]}, {"deck": FINN_COINS}], phase="purchase", step="window")
    g.apply_action("buy Silver")                               # 2 paid with the Purse's 3: 1 stays in the bank
    assert g.bank[0] == 1 and names(g.hand[0]) == ["Silver"] and names(g.played[0]) == ["Purse"]
    g.apply_action("buy Worker")                               # 3 = the 1 in the bank + the Silver
    assert g.bank[0] == 0 and names(g.pocket[0]) == ["Goods", "Silver", "Worker"]
    assert g.spent[0] == 5 and g.bought[0] == 2
    assert "buy Aim" not in [g.action_text(a) for a in g.legal_actions()]


def test_4_2_buying_the_top_of_a_market_pile_exposes_the_one_beneath():
    g = load([{"hand": ["hr-003"] * 3}, {"deck": FINN_COINS}], phase="purchase", step="window",
             market_piles=[["t-lyla", "t-cassian"], [], [], []])
    assert "buy Lyla" in texts(g) and "buy Cassian" not in texts(g)
    g.apply_action("buy Lyla")
    assert "buy Cassian" in texts(g)


def test_6_5_restricted_goods_pay_only_toward_their_type():
    g = load([{"hand": ["t-crate"]}, {"deck": FINN_COINS}], phase="purchase", step="window",
             market_piles=[["t-cassian"], [], [], []])
    opts = texts(g)
    assert "buy Cassian" in opts and "buy Worker" in opts       # Citizens: the Crate pays 3
    assert "buy Silver" not in opts and "buy Aim" not in opts   # nothing else
    g.apply_action("buy Cassian")
    assert g.rbank[0][1] == 0 and names(g.played[0]) == ["Crate"]


def test_6_5_trash_for_goods_puts_goods_in_the_bank_and_the_card_leaves_the_deck():
    g = load([{"hand": ["t-gem"]}, {"deck": FINN_COINS}], phase="purchase", step="window")
    assert "use Gem" in texts(g) and "play Gem" in texts(g)
    g.apply_action("use Gem")
    assert g.bank[0] == 3 and names(g.mdiscard) == ["Gem"] and g.owned[0][CS.by_code["t-gem"].index] == 0


def test_4_2_pocket_capacity_is_checked_at_the_end_of_the_phase():
    g = load([{"hand": ["hr-003"] * 3}, {"deck": FINN_COINS}], phase="purchase", step="window")
    for _ in range(3):
        g.apply_action("buy Silver")
    assert len(g.pocket[0]) == 4                               # no limit while buying
    g.apply_action("done")
    assert g.pending.kind == "pocket" and "done" in texts(g)
    g.apply_action("done")
    # over capacity (1): only moving cards to the Hand is possible now
    assert g.pending.kind == "capacity" and texts(g) == ["take Goods", "take Silver"]
    g.apply_action("take Silver, Silver")                      # several cards in one action
    assert g.pending.kind == "capacity"
    g.apply_action("take Goods")
    assert len(g.pocket[0]) == 1 and g.pending.player == 1


def test_4_2_pocket_capacity_counts_cards_in_play():
    g = load([{"hand": ["hr-003"] * 2, "stacks": {GIG: ["t-store", "t-lyla"]}}, {"deck": FINN_COINS}],
             phase="purchase", step="window")
    assert g.pocket_capacity(0) == 2                           # a white box keeps working when covered
    g.apply_action("buy Silver")
    g.apply_action("buy Silver")
    g.apply_action("done")
    g.apply_action("done")
    assert g.pending.kind == "capacity"
    g.apply_action("take Silver")
    assert len(g.pocket[0]) == 2 and g.pending.player == 1


def test_4_2_the_last_pocket_card_cannot_be_taken():
    g = load([{"hand": ["hr-003"]}, {"deck": FINN_COINS}], phase="purchase", step="window")
    g.apply_action("buy Silver")
    g.apply_action("done")
    with pytest.raises(IllegalAction):
        g.apply_action("take Goods, Silver")
    before = g.to_position()
    with pytest.raises(IllegalAction):
        g.apply_action("buy Silver")                           # not an option here: nothing changes
    assert g.to_position() == before


# ---- 003 §4.3: Position -----------------------------------------------------------------------------------------
def test_4_3_placement_is_final_and_the_new_card_covers_the_exposed_one():
    g = load([{"hand": ["t-lyla", "t-jarl"], "deck": COINS}, {"deck": FINN_COINS}], phase="position", step="window")
    g.apply_action("place Lyla at Ios")
    g.apply_action("place Jarl at Ios")
    assert names(g.stacks[0][3]) == ["Lyla", "Jarl"]           # Jarl behind Lyla, and exposed
    assert g.pending.player == 1                               # nothing left to place: the window closed itself


def test_5_3_supplies_never_go_into_stacks():
    g = load([{"hand": ["t-coin", "t-lyla"]}, {"deck": FINN_COINS}], phase="position", step="window")
    assert all("Coin" not in t for t in texts(g))


# ---- 003 §7.2: non-Contest damage --------------------------------------------------------------------------------
def test_7_2_non_contest_damage_hits_the_named_card_only_and_does_not_carry():
    g = load([{"hand": ["hr-002"]}, {"deck": FINN_COINS, "stacks": {IOS: ["t-jarl", "t-lyla"]}}],
             phase="contest", step="window")
    g.apply_action("use Aim")                                  # Trash me: 1 damage to a card in an opposing Stack
    assert g.pending.kind == "target"
    g.apply_action("target Jarl at Ios #1 of p1")             # 1 is not enough for Jarl (2 Health)
    assert names(g.stacks[1][3]) == ["Jarl", "Lyla"]          # nothing carries to Lyla
    assert "Aim" not in names(g.mdiscard)                      # Aim came from its standing pile, and goes back


# ---- 003 §8: deck, trash, the Market -----------------------------------------------------------------------------
# ---- 003 §4.2: the end of the Purchase phase -----------------------------------------------------------------
def test_4_2_only_the_cards_bought_in_the_phase_move_from_the_pocket_at_its_end():
    g = load([{"hand": ["hr-003"] * 2, "pocket": ["hr-001", "t-coin"], "deck": COINS}, {"deck": FINN_COINS}],
             phase="purchase", step="window")
    g.apply_action("buy Silver")
    g.apply_action("done")
    assert g.pending.kind == "pocket"
    assert texts(g) == ["take Silver", "done"]                 # the Goods and Coin were not bought this turn
    for bad in ("take Coin", "take Goods"):
        with pytest.raises(IllegalAction, match="is not an option of the pocket decision"):
            g.apply_action(bad)
    with pytest.raises(IllegalAction, match="Coin was not bought in this Purchase phase"):
        g.apply_action("take Silver, Coin")
    assert g.to_position()["players"][0]["purchased"] == ["hr-003"]
    g.apply_action("take Silver")
    assert g.pending.kind == "capacity"                        # nothing bought is left: over capacity, any card
    assert sorted(texts(g)) == ["take Coin", "take Goods"]


def test_4_2_a_pocket_without_purchases_opens_no_window_at_the_end_of_the_phase():
    g = load([{"hand": [], "pocket": ["hr-001"], "deck": COINS}, {"deck": FINN_COINS}],
             phase="purchase", step="window")
    g.apply_action("done")
    assert (g.pending.kind, g.pending.player) == ("purchase", 1)


def test_4_2_purchased_must_name_cards_in_the_pocket():
    with pytest.raises(PositionError, match="player 0, purchased: Silver is not in the Pocket"):
        load([{"pocket": ["hr-001"], "purchased": ["hr-003"]}, {"deck": FINN_COINS}], phase="purchase",
             step="pocket")


def test_8_2_trashing_a_standing_card_returns_it_to_its_pile():
    g = load([{"hand": ["hr-006", "hr-003"], "deck": COINS}, {"deck": FINN_COINS}], phase="hero", step="window",
             recognition_pile=9)
    effects.trash(g, 0, g.hand[0].pop(0))                             # a Recognition trashed from the hand
    assert g.rec_pile == 10 and g.rec_owned[0] == 0 and g.mdiscard == []


def test_8_3_market_piles_are_topped_every_clean_up_and_the_market_discard_is_reshuffled():
    g = load([{"deck": COINS}, {"deck": FINN_COINS}], phase="cleanup",
             market_deck=["t-lyla", "t-jarl"], market_discard=["t-cassian", "t-jarae"],
             market_piles=[["t-archer"], [], [], []])
    # four piles need four cards: two from the Market Deck, then the Market Discard becomes the new Market Deck
    assert sorted(len(p) for p in g.mpiles) == [1, 1, 1, 2]
    assert names(g.mpiles[0]) == ["Archer", "Lyla"]            # topped, covering what nobody bought
    assert g.mdiscard == [] and g.mdeck == []
    assert any("Market Discard is shuffled" in line for line in g.logs)


# ---- 003 §9: the end --------------------------------------------------------------------------------------------
def test_9_1_the_recognition_clock_ends_the_game_after_the_current_turn():
    g = load([{"hand": ["hr-003"] * 3, "deck": COINS},
              {"hand": ["hr-003"] * 3, "deck": FINN_COINS, "discard": ["hr-006"] * 9}],
             phase="purchase", step="window", recognition_pile=1, turn=6)
    g.apply_action("buy Recognition")
    assert g.rec_pile == 0 and not g.is_terminal()
    g.apply_action("done")
    g.apply_action("done")
    g.apply_action("take Goods")                               # Pocket capacity: the Recognition stays in it
    assert g.pending.player == 1 and g.pending.kind == "purchase"   # the turn goes on for Finn
    assert "buy Recognition" not in texts(g)                          # the pile stays empty
    while not g.is_terminal():
        g.apply_action("done")
    assert g.reason == "recognition" and g.turn == 6
    assert g.winners == [1] and g.returns() == [-1.0, 1.0]
    assert g.score(0) == 1 and g.score_parts(0)["cards"] == 1 and g.score(1) == 9


def test_9_1_a_recognition_trashed_back_after_the_pile_ran_out_does_not_stop_the_end():
    # our reading of §8.3 ("the pile stays empty and the game is ending") over §4.5 step 7: the last Recognition
    # bought starts the end; one trashed back to the pile later in the turn (§8.2) goes back, but the turn is
    # still the last
    g = load([{"hand": ["hr-003"] * 3 + ["t-pyre"], "deck": COINS},
              {"deck": FINN_COINS, "discard": ["hr-006"] * 9}],
             phase="purchase", step="window", recognition_pile=1, turn=6)
    g.apply_action("buy Recognition")
    assert g.rec_pile == 0 and g.ending
    g.apply_action("done")
    g.apply_action("take Recognition")                         # into the Hand, to be trashed
    while g.pending.kind != "position":
        g.apply_action("done")
    g.apply_action("place Pyre Keeper at Ios")                 # Reveal: trash a card from your Hand
    assert g.pending.kind == "trash"
    g.apply_action("trash Recognition")
    assert g.rec_pile == 1 and g.rec_owned[0] == 0             # back to its pile (§8.2) ...
    assert g.to_position()["ending"] is True
    while not g.is_terminal():
        g.apply_action("done")
    assert g.reason == "recognition" and g.turn == 6           # ... and the game still ends with this turn


def test_9_1_the_end_already_under_way_is_part_of_a_position():
    players = [{"hand": ["hr-003"], "deck": COINS}, {"deck": FINN_COINS, "discard": ["hr-006"] * 9}]
    g = load(players, phase="contest", step="window", recognition_pile=1, ending=True, turn=4)
    while not g.is_terminal():
        g.apply_action("done")
    assert g.reason == "recognition" and g.turn == 4
    assert not load(players, phase="hero", step="window", recognition_pile=1).ending
    with pytest.raises(PositionError, match="ending: expected true or false"):
        load(players, phase="hero", step="window", recognition_pile=1, ending="yes")


def test_9_2_scoring_counts_cards_presence_control_and_exposed_finish_flags():
    g = load([{"deck": COINS + ["hr-006"], "stacks": {GIG: ["t-flag"], ATOS: ["t-flag", "t-lyla"]}},
              {"deck": FINN_COINS}], phase="hero", step="window", control={GIG: 0}, recognition_pile=9)
    # 1 Recognition card, 2 Regions with presence, 1 controlled, 1 Flag exposed (2 points; the covered one scores
    # nothing)
    assert g.score_parts(0) == {"cards": 1, "presence": 2, "control": 1, "finish": 2}
    assert g.score(0) == 6


def test_9_3_tiebreakers_regions_controlled_first():
    g = load([{"deck": COINS, "stacks": {GIG: ["t-lyla"]}},
              {"deck": FINN_COINS, "stacks": {GIG: ["t-jarl"], ATOS: ["t-lyla"]}}],
             phase="hero", step="window", control={GIG: 0}, recognition_pile=10)
    assert g.score(0) == g.score(1) == 2
    cleanup.finish(g, "recognition")
    assert g.winners == [0]                                     # control breaks the tie


def test_9_3_a_full_tie_is_a_draw():
    g = load([{"deck": COINS}, {"deck": FINN_COINS}], phase="hero", step="window")
    cleanup.finish(g, "recognition")
    assert g.winners == [0, 1] and g.returns() == [0.0, 0.0] and g.winner is None


# ---- 003 §2: setup and Priority -----------------------------------------------------------------------------------
def test_2_setup():
    cs = CardSet.default()
    g = Game(cs, ["Corin Vale", "Asha Thorne"], seed=11, autostart=False)
    for p in (0, 1):
        assert len(g.deck[p]) == 8 and names(g.pocket[p]) == ["Goods"] and g.hand[p] == [] and g.level[p] == 0
    assert g.rec_pile == 10 and all(len(pile) == 1 for pile in g.mpiles)
    assert len(g.mdeck) == len(cs.market_deck) - 4
    assert g.first_player in (0, 1)


def test_2_6_priority_alternates_every_turn():
    g = Game(CardSet.default(), ["Corin Vale", "Asha Thorne", "Ilse Marrow"], seed=5, first_player=2)
    seen = []
    while not g.is_terminal() and g.turn <= 4:
        if g.turn not in [t for t, _ in seen]:
            seen.append((g.turn, g.prio))
        g.apply_action(g.legal_actions()[-1])
    assert seen[:4] == [(1, 2), (2, 0), (3, 1), (4, 2)]


def test_more_than_two_players_each_stack_takes_every_opposing_stacks_damage():
    g = Game.from_position(position([{"deck": COINS, "stacks": {IOS: ["t-cassian"]}},
                                     {"deck": FINN_COINS, "stacks": {IOS: ["t-jarae"]}},
                                     {"deck": ["t-third-coin"] * 8, "stacks": {IOS: ["t-jarl"]}}],
                                    phase="cleanup"), CS)
    # Cassian takes 1 + 1 = 2 (destroyed); Ja'Rae takes 2 + 1 (destroyed); Jarl takes 2 + 1 = 3 (destroyed)
    assert [names(g.stacks[p][3]) for p in range(3)] == [[], [], []]
