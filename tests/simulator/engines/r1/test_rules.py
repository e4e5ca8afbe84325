"""Pinned rule scenarios, one per rule, named after the rulebook section (python-chess perft style).

Each scenario is a position (CONTRACTS §6) played with action texts and read back: the position where the run
stops, its log (every line cites its rule) and the public verbs (`option_texts`, `influence`, `authority_total`).
"""
import pytest

from simulator.engines.r1 import DeckError, build_deck, play_game
from simulator.engines.r1.actions import option_texts
from simulator.engines.r1.positions import to_position

from .helpers import (
    FACTION, QUEST, after, card, codes, entry, finish, load, logged, make_deck, play, position, settle, side,
)

U7 = card("u7", power=7)
U4 = card("u4", power=4)
U3 = card("u3", power=3)
U2 = card("u2", power=2)
U0 = card("u0", power=0)
NOICON = card("noicon", power=5, icons=[])
UNITS = [U7, U4, U3, U2, U0, NOICON]


def duel(me, them=(), *actions, cards=(), until="struggle", **pos):
    """(game, position) after a struggle of `me`'s units against `them`'s (field lists of side())."""
    return after(position(side(list(me)), side(list(them)), **pos), [*UNITS, *cards], *actions, until=until)


def test_s8_7_vs_4_attacker_wins_with_margin_3():
    g, pos = duel(["u7"], ["u4"], "struggle combat", "attack u7", "defend u4")
    assert logged(g, "S.8 Combat: 7 vs 4, attacker wins, margin 3")


def test_s8_defender_wins_with_more_power_and_no_spoils():
    g, pos = duel(["u4"], ["u7"], "struggle combat", "attack u4", "defend u7")
    assert logged(g, "S.8 Combat: 4 vs 7, defender wins, margin 3")
    assert codes(pos, 0, "field") == ["u4"] and codes(pos, 1, "field") == ["u7"]    # no spoils for a defender


def test_s8_attacker_wins_a_tie_that_is_not_zero_zero():
    g, pos = duel(["u4"], ["u4"], "struggle faith", "attack u4", "defend u4")
    assert logged(g, "S.8 Faith: 4 vs 4, attacker wins, margin 0")


def test_s8_zero_zero_has_no_winner_no_spoils_no_unopposed():
    g, pos = after(position(side(["u0"]), side(influence=3)), UNITS, "struggle faith", "attack u0")
    assert logged(g, "S.8 Faith: 0 vs 0") and not logged(g, "wins")
    assert (g.influence(0), g.influence(1)) == (0, 3)


def test_s10_unopposed_means_defending_total_zero_not_no_defenders():
    g, pos = duel(["u2"], ["u0"], "struggle combat", "attack u2", "defend u0")   # a 0-Power defender is declared
    assert g.struggle_counts[0][0]["defended"] == 1                              # declared (S.6), Power 0
    assert logged(g, "S.8 Combat: 2 vs 0, attacker wins")
    assert logged(g, "S.10 unopposed") and g.influence(0) == 1                    # ... still unopposed (S.10)


def test_s10_no_unopposed_bonus_when_defence_has_power():
    g, pos = duel(["u3"], ["u2"], "struggle guile", "attack u3", "defend u2")
    assert logged(g, "S.8 Guile: 3 vs 2, attacker wins")
    assert not logged(g, "S.10") and g.influence(0) == 0


def test_6_1_faith_moves_influence_rather_than_gaining_it():
    listener = card("listener", type="location", abilities=[
        {"timing": "forced", "when": {"event": "influence_gained", "player": "you"}, "effects": [{"draw": 1}]}])
    g, pos = after(position(side(["listener", "u4"]), side(["u3"], influence=5)), [*UNITS, listener],
                   "struggle faith", "attack u4", "defend u3")
    assert logged(g, "S.8 Faith: 4 vs 3, attacker wins")
    assert (pos["players"][0]["influence"], pos["players"][1]["influence"]) == (0 + 1, 5 - 1)   # spoils 1 moved
    assert codes(pos, 0, "hand") == []           # a move is not a gain: the listener did not draw


def test_6_1_faith_spoils_as_far_as_possible_from_an_empty_faction_card():
    g, pos = duel(["u4"], [], "struggle faith", "attack u4")
    assert (pos["players"][0]["influence"], pos["players"][1]["influence"]) == (1, 0)   # only the unopposed +1


def test_6_1_combat_spoils_the_defender_kills_units_of_its_choice_into_the_dead_pile():
    q2 = card("q2", "quest", spoils=2)
    them = side([{"card": "u2", "id": "d1"}, {"card": "u3", "id": "d2"}, {"card": "u2", "id": "d3"}])
    g, pos = after(position(side(["u7"], quest="q2"), them), [*UNITS, q2],
                   "struggle combat", "attack u7", "defend d1", "kill d3 d2")
    assert [e["id"] for e in pos["players"][1]["field"]] == ["d1"]
    assert sorted(e["id"] for e in pos["players"][1]["dead"]) == ["d2", "d3"]      # spoils 2: two units killed


def test_6_1_guile_spoils_discard_at_random_from_hand():
    g, pos = after(position(side(["u4"]), side(hand=["u2", "u2"])), UNITS, "struggle guile", "attack u4")
    assert codes(pos, 1, "hand") == ["u2"] and codes(pos, 1, "discard") == ["u2"]


def test_6_1_sorcery_spoils_place_an_emblem_that_blanks():
    subtle = card("subtle", power=1, keywords=["Subtle"])
    g, pos = after(position(side(["u4"]), side(["subtle"])), [*UNITS, subtle],
                   "struggle sorcery", "attack u4", "defend none")   # the one unit: its emblem
    assert entry(pos, 1, "subtle")["emblems"] == 1
    # §3.6: blanked, it loses its printed Subtle (it can no longer bar) but keeps its Power 1
    g = play(load(position(side(["u4"]), side([{"card": "subtle", "emblems": 1}]), active=1), [*UNITS, subtle]),
             "struggle guile", "attack subtle")
    assert g.pending.kind == "defenders" and not logged(g, "§9.1")
    g, pos = after(position(side(["u0"]), side([{"card": "subtle", "emblems": 1}]), active=1), [*UNITS, subtle],
                   "struggle guile", "attack subtle", "defend none")
    assert logged(g, "S.8 Guile: 1 vs 0")


def test_6_3_authority_emblem_adds_one_to_its_holders_attacks_only():
    g, pos = duel(["u3"], ["u3"], "struggle combat", "attack u3", "defend u3", authority=0)
    assert logged(g, "S.8 Combat: 4 vs 3")
    g, pos = duel(["u3"], ["u3"], "struggle combat", "attack u3", "defend u3", authority=1)
    assert logged(g, "S.8 Combat: 3 vs 3")      # the defender's emblem gives nothing when defending


def test_6_5_declared_units_need_the_icon_and_to_be_ready():
    me = side([{"card": "noicon", "id": "n"}, {"card": "u3", "id": "e", "exhausted": True},
               {"card": "u3", "id": "r"}, {"card": "u3", "id": "r2"}])
    g = play(load(position(me), UNITS), "struggle combat")
    assert g.pending.kind == "attackers" and sorted(option_texts(g)) == ["attack r", "attack r2"]


def test_6_5_a_unit_added_by_an_effect_needs_no_icon_and_does_not_exhaust():
    rally = card("rally", "deed", cost=0, abilities=[
        {"timing": "action", "phase": "struggle", "target": {"type": "unit", "participating": False},
         "effects": [{"join_struggle": "target"}]}])
    me = side(["u2", {"card": "noicon", "exhausted": True}], hand=["rally"])
    g, pos = after(position(me), [*UNITS, rally], "struggle combat", "attack u2", "play rally")
    assert logged(g, "S.8 Combat: 7 vs 0")          # 2 + the joined unit's 5
    assert entry(pos, 0, "noicon")["exhausted"] is True   # it was exhausted before, and joining changes nothing


def test_6_5_a_participant_that_leaves_play_contributes_zero():
    kill = card("kill", "deed", cost=0, abilities=[
        {"timing": "action", "phase": "struggle", "target": {"controller": "opponent", "type": "unit",
                                                            "participating": True},
         "effects": [{"kill": "target"}]}])
    g, pos = after(position(side(["u3"], hand=["kill"]), side(["u4"])), [*UNITS, kill],
                   "struggle combat", "attack u3", "defend u4", "play kill")
    assert codes(pos, 1, "dead") == ["u4"]
    assert logged(g, "S.8 Combat: 3 vs 0, attacker wins") and logged(g, "S.10 unopposed")


def test_6_6_power_floors_at_zero_in_struggles_and_authority():
    hex_ = card("hex", "attachment", abilities=[
        {"timing": "attach", "target": {"type": "unit", "controller": "opponent"}},
        {"timing": "static", "affects": "host", "modify": {"power": -5}}])
    me = side([{"card": "u2", "attachments": [{"card": "hex", "owner": 1, "controller": 1}]}, "u3"])
    g = load(position(me), [*UNITS, hex_])
    assert g.authority_total(0) == 0 + 3          # 2 - 5 counts as 0, not -3
    g, pos = after(position(me), [*UNITS, hex_], "struggle combat", "attack u2 u3")
    assert logged(g, "S.8 Combat: 3 vs 0")


def test_5_5_authority_highest_total_gains_influence_and_emblem():
    g = load(position(side(["u4"], pool=1), side(["u3"]), phase="authority"), UNITS)
    assert (g.authority_total(0), g.authority_total(1)) == (4 + 1, 3)
    g, pos = after(position(side(["u4"], pool=1), side(["u3"]), phase="authority"), UNITS, until="phase")
    assert pos["authority"] == 0 and (g.influence(0), g.influence(1)) == (1, 0)


def test_5_5_authority_counts_ready_units_and_pool_wealth():
    me = side([{"card": "u4", "exhausted": True}], pool=2)
    g = load(position(me, side(["u3"]), phase="authority"), UNITS)
    assert (g.authority_total(0), g.authority_total(1)) == (2, 3)


def test_5_5_authority_tie_strips_the_emblem():
    g, pos = after(position(side(["u3"]), side(["u3"]), phase="authority", authority=1), UNITS, until="phase")
    assert pos["authority"] is None and (g.influence(0), g.influence(1)) == (0, 0)


def test_5_6_refresh_readies_all_and_removes_one_sorcery_emblem():
    me = side([{"card": "u3", "id": "a", "exhausted": True, "emblems": 2},
               {"card": "u3", "id": "b", "exhausted": True, "emblems": 1}])
    g, pos = after(position(me, phase="refresh"), UNITS, "emblem b", until="phase")
    field_ = {e["id"]: e for e in pos["players"][0]["field"]}
    assert not field_["a"]["exhausted"] and not field_["b"]["exhausted"]
    assert (field_["a"]["emblems"], field_["b"]["emblems"]) == (2, 0)


def test_5_7_toll_returns_wealth_and_discards_to_levy():
    q = card("q-levy", "quest", levy=2)
    me = side(hand=["filler"] * 4, pool=3, quest="q-levy")
    g, pos = after(position(me, side(pool=1), phase="toll"), [*UNITS, q], until="phase")
    assert (pos["players"][0]["pool"], pos["players"][1]["pool"]) == (0, 0)
    assert len(codes(pos, 0, "hand")) == 2 and len(codes(pos, 0, "discard")) == 2


def test_5_7_a_hand_at_levy_discards_nothing():
    g, pos = after(position(side(hand=["filler"] * 3), phase="toll"), UNITS, until="phase")
    assert len(codes(pos, 0, "hand")) == 3 and codes(pos, 0, "discard") == []   # Levy 7


def test_5_1_highest_momentum_chooses_the_first_player():
    fast = card("fast", "quest", momentum=3)
    slow = card("slow", "quest", momentum=1)
    pos = position(side(quest=None, quest_deck=["fast"]), side(quest=None, quest_deck=["slow"]), phase="quest",
                   first=1)
    g = settle(load(pos, [fast, slow]))
    assert (g.pending.kind, g.pending.player) == ("first_player", 0)
    g, after_pos = after(pos, [fast, slow], "first 0", until="phase")
    assert after_pos["first_player"] == 0


def test_5_1_momentum_tie_lowest_influence_chooses():
    pos = position(side(quest=None, quest_deck=["quest"], influence=4),
                   side(quest=None, quest_deck=["quest"], influence=2), phase="quest")
    g = settle(load(pos, []))
    assert (g.pending.kind, g.pending.player) == ("first_player", 1)


def test_5_1_quest_deck_reshuffles_when_embarking_empties_it():
    qs = [card(f"q{i}", "quest", name=f"Quest {i}") for i in range(7)]
    me = side(quest="q5", quest_deck=["q6"], used_quests=[f"q{i}" for i in range(5)])
    g, pos = after(position(me, phase="quest"), qs, "first 0", until="phase")
    assert pos["players"][0]["quest"] == "q6"
    assert len(pos["players"][0]["quest_deck"]) == 6 and pos["players"][0]["used_quests"] == []


def test_5_2_draw_two_and_12_elimination_on_an_empty_deck():
    g = finish(load(position(side(deck=["filler"]), phase="draw"), []), "phase")
    assert g.is_terminal() and (g.winner, g.reason) == (1, "elimination")


def test_12_simultaneous_elimination_highest_influence_wins():
    pos = position(side(deck=[], influence=3), side(deck=[], influence=5), phase="draw")
    g = finish(load(pos, []), "phase")
    assert g.is_terminal() and g.winner == 1


def test_12_simultaneous_elimination_influence_tie_authority_holder_wins():
    pos = position(side(deck=[]), side(deck=[]), phase="draw", authority=1)
    g = finish(load(pos, []), "phase")
    assert g.is_terminal() and g.winner == 1


def test_12_fifteen_influence_wins_at_once():
    g = finish(play(load(position(side(["u4"], influence=14)), UNITS), "struggle combat", "attack u4"))
    assert g.is_terminal() and (g.winner, g.reason) == (0, "influence")   # S.10 unopposed +1 -> 15


def test_1_1_glory_influence_on_units_counts_toward_fifteen():
    g = load(position(side([{"card": "u4", "influence": 1}], influence=13)), UNITS)
    assert g.influence(0) == 13 + 1


def _deed(code, effect):
    """A 0-cost Action deed whose effect acts on a unit its player chooses (§10.4)."""
    return card(code, "deed", cost=0, abilities=[
        {"timing": "action", "target": {"type": "unit", "controller": "any"}, "effects": [{effect: "target"}]}])


KILL, DISCARD_IT, RETURN_IT, SACRIFICE_IT = (_deed("k", "kill"), _deed("dd", "discard"), _deed("rr", "return_to_hand"),
                                             _deed("sac", "sacrifice"))
DEEDS = [KILL, DISCARD_IT, RETURN_IT, SACRIFICE_IT]


def ids(pos, p, zone):
    return sorted(e["id"] for e in pos["players"][p][zone] if isinstance(e, dict) and "id" in e)


def test_7_1_destinations_killed_dead_discarded_discard_returned_hand():
    me = side([{"card": "u2", "id": "a"}, {"card": "u2", "id": "b"}, {"card": "u2", "id": "c"}],
              hand=["k", "dd", "rr"])
    g, pos = after(position(me), [*UNITS, *DEEDS], "play k", "target a", "play dd", "target b", "play rr",
                   until="turn")                 # the last unit is the deed's only target: taken by itself
    assert (ids(pos, 0, "dead"), ids(pos, 0, "discard"), ids(pos, 0, "hand")) == (["a"], ["b"], ["c"])


UQ = card("uq", unique=True, name="Unique Knight", cost=5)


def test_7_3_duplicate_save_discards_the_duplicate():
    me = side([{"card": "uq", "duplicates": 1}], hand=["k"])
    g, pos = after(position(me), [UQ, *DEEDS], "play k", "yes", until="turn")
    assert entry(pos, 0, "uq")["duplicates"] == 0 and codes(pos, 0, "dead") == []
    assert sorted(codes(pos, 0, "discard")) == ["k", "uq"]        # the duplicate, and the deed (§10.4)


def test_7_3_sacrifice_cannot_be_saved():
    me = side([{"card": "uq", "duplicates": 1}], hand=["sac"])
    g = play(load(position(me), [UQ, *DEEDS]), "play sac")
    assert g.pending.kind != "dup_save"
    g, pos = after(position(me), [UQ, *DEEDS], "play sac", until="turn")
    assert codes(pos, 0, "field") == [] and sorted(codes(pos, 0, "discard")) == ["sac", "uq", "uq"]   # §7.2


def test_3_7_a_second_copy_of_a_unique_is_a_free_duplicate():
    me = side(["uq"], hand=["uq"], pool=0)
    assert "play uq" in option_texts(load(position(me, phase="kingdom"), [UQ]))     # costs 0 as a duplicate
    g, pos = after(position(me, phase="kingdom"), [UQ], "play uq", until="turn")
    assert entry(pos, 0, "uq")["duplicates"] == 1 and pos["players"][0]["pool"] == 0


def test_10_3_attachment_discarded_with_its_host_and_lasting_returns_to_hand():
    plain = card("plain", "attachment")
    lasting = card("lasting", "attachment", keywords=["Lasting"])
    me = side([{"card": "u3", "attachments": [{"card": "plain"}, {"card": "lasting"}]}], hand=["k"])
    g, pos = after(position(me), [*UNITS, *DEEDS, plain, lasting], "play k", until="turn")
    assert codes(pos, 0, "dead") == ["u3"]
    assert sorted(codes(pos, 0, "discard")) == ["k", "plain"] and codes(pos, 0, "hand") == ["lasting"]


def test_10_3_an_attachment_with_no_legal_host_cannot_be_played():
    att = card("att", "attachment", cost=0)
    assert "play att" not in option_texts(load(position(side(hand=["att"]), phase="kingdom"), [att]))


def test_9_3_no_attachments_rejects_attachments():
    giant = card("giant", keywords=["No Attachments"])
    att = card("att", "attachment", cost=0)
    assert "play att" not in option_texts(load(position(side(["giant"], hand=["att"]), phase="kingdom"),
                                               [giant, att]))


def test_9_3_restricted_one_entry_per_round_counting_every_entry():
    r1 = card("r1", keywords=["Restricted"], cost=1)
    r2 = card("r2", keywords=["Restricted", "Haste (1)"], cost=1)
    g = play(load(position(side(hand=["r1", "r2"], pool=10), phase="kingdom"), [r1, r2]), "play r1")
    assert "play r2" not in option_texts(g)                                  # Kingdom play
    g = load(position(side(["r1"], hand=["r2"], pool=10, restricted_this_round=1)), [r1, r2])
    assert "haste r2" not in option_texts(g)                                 # Haste entry counts too
    g = load(position(side(["r1"], hand=["r2"], pool=10), round=2), [r1, r2])   # the next round
    assert "haste r2" in option_texts(g)


def test_9_3_loyalty_surcharge_for_off_faction_cards():
    off = card("off", faction="winter", cost=2, loyalty=2)
    neutral = card("neu", faction="neutral", cost=2, loyalty=2)
    kingdom = lambda pool: load(position(side(hand=["off", "neu"], pool=pool), phase="kingdom"), [off, neutral])
    assert "play off" not in option_texts(kingdom(3))        # cost 2 + Loyalty 2 = 4
    assert "play off" in option_texts(kingdom(4))
    assert "play neu" in option_texts(kingdom(2))            # neutral: no surcharge


def _setup_game(*pairs):
    """A game at its §4 setup (the mulligan pending), player 0's draw deck exactly `pairs` (so the hand is known)."""
    from simulator.engines.r1 import Game
    g = Game(build_deck([(FACTION, 1), (QUEST, 7), *pairs]), None, seed=1, log=True)
    g.stops = True
    return g


def test_4_setup_budget_places_within_eight_and_never_x_dash_or_deeds():
    big, small = card("big", cost=6), card("small", cost=2)
    pairs = [(big, 2), (small, 2), (card("xcost", cost="X"), 1), (card("dash", cost="-"), 1),
             (card("deedy", "deed", cost=0), 1)]
    g = play(_setup_game(*pairs), "keep")
    assert sorted(option_texts(g)) == ["done", "place big", "place small"]
    play(g, "place big")                                     # 8 - 6 = 2 left
    assert sorted(option_texts(g)) == ["done", "place small"]


def test_4_setup_secret_hide_costs_two_more_and_duplicates_are_free():
    sec = card("sec", cost=3, keywords=["Secret (2)"])
    g = play(_setup_game((sec, 1), (UQ, 2), (U2, 4)), "keep")
    assert "hide sec" in option_texts(g)                     # 3 + 2 = 5 of 8
    play(g, "place uq")                                      # 5 of 8: 3 left
    assert "place uq" in option_texts(g)                     # the second copy is a duplicate: 0
    assert "hide sec" not in option_texts(g)                 # 5 > 3


def test_4_setup_reveal_fires_no_enters_play_and_draws_back_to_seven():
    drawer = card("drawer", cost=2, abilities=[{"timing": "enters", "effects": [{"gain_wealth": 3}]}])
    g = play(_setup_game((drawer, 30), (U2, 30)), "keep", "place drawer", "done")
    g = finish(g, "phase")
    pos = to_position(g)
    assert "drawer" in codes(pos, 0, "field") and pos["players"][0]["pool"] == 0
    assert len(codes(pos, 0, "hand")) == 7


def test_4_setup_one_restricted_card_only():
    r = card("rr", cost=1, keywords=["Restricted"])
    g = play(_setup_game((r, 3), (U2, 4)), "keep", "place rr")
    assert "place rr" not in option_texts(g) and "place u2" in option_texts(g)


def test_4_mulligan_is_all_or_nothing():
    g = _setup_game((U2, 3), (U3, 3), (U4, 3), (card("filler", cost=9, power=1, icons=[], name="Filler"), 40))
    assert g.pending.kind == "mulligan"
    before = list(g.view(0).my_hand)
    play(g, "mulligan")
    hand = g.view(0).my_hand
    assert len(hand) == 7 and not set(before) & set(hand)
    assert g.view(0).deck_count(0) == 49 - 7


def test_3_8_a_token_ceases_to_exist_on_leaving_play():
    maker = card("maker", abilities=[{"timing": "enters", "effects": [
        {"create_token": {"name": "Squire Token", "power": 1, "icons": ["combat"]}}]}])
    g, pos = after(position(side(hand=["maker", "k"], pool=2), phase="kingdom"), [maker, *DEEDS],
                   "play maker", "play k", "target token-squire-token", until="turn")
    assert codes(pos, 0, "field") == ["maker"]
    assert codes(pos, 0, "dead") == [] and codes(pos, 0, "discard") == ["k"]   # the token went to no pile
    assert logged(g, "Squire Token")


def test_8_11_then_does_not_resolve_when_the_first_part_did_not_happen():
    foresight = card("foresight", "deed", cost=0, abilities=[
        {"timing": "action", "effects": [{"mill": 1, "player": "opponent"}, {"then": [{"gain_wealth": 3}]}]}])
    g, pos = after(position(side(hand=["foresight"]), side(deck=[])), [foresight], "play foresight", until="turn")
    assert pos["players"][0]["pool"] == 0          # nothing to mill: the "then" part does not resolve
    g, pos = after(position(side(hand=["foresight"]), side(deck=["filler"])), [foresight], "play foresight",
                   until="turn")
    assert pos["players"][0]["pool"] == 3


SNIPE = card("snipe", "deed", cost=0, abilities=[
    {"timing": "action", "target": {"controller": "opponent", "type": "unit"}, "effects": [{"kill": "target"}]}])


def test_8_11_an_ability_needs_a_legal_target_to_be_initiated():
    assert "play snipe" not in option_texts(load(position(side(hand=["snipe"])), [SNIPE]))
    assert "play snipe" in option_texts(load(position(side(hand=["snipe"]), side(["filler"])), [SNIPE]))


def test_8_11_immune_cards_cannot_be_targeted():
    shy = card("shy", abilities=[{"timing": "static", "affects": "self", "rule": ["immune_to_opponent_effects"]}])
    assert "play snipe" not in option_texts(load(position(side(hand=["snipe"]), side(["shy"])), [SNIPE, shy]))


def test_8_11_cannot_beats_must_cannot_be_killed_ignores_combat_spoils():
    galahad = card("galahad", abilities=[{"timing": "static", "affects": "self", "rule": ["cannot_be_killed"]}])
    g, pos = after(position(side(["u4"]), side(["galahad"])), [*UNITS, galahad],
                   "struggle combat", "attack u4", "defend none")
    assert logged(g, "S.8 Combat: 4 vs 0, attacker wins")
    assert codes(pos, 1, "field") == ["galahad"] and codes(pos, 1, "dead") == []


XDEED = card("xdeed", "deed", cost="X", abilities=[
    {"timing": "action", "x": {"max": "wealth"}, "effects": [{"draw": "X"}]}])


def test_8_7_x_is_chosen_once_and_paid():
    g = play(load(position(side(hand=["xdeed"], pool=3)), [XDEED]), "play xdeed")
    assert g.pending.kind == "x" and option_texts(g)[-1] == "x 3"      # at most the wealth in the pool
    g, pos = after(position(side(hand=["xdeed"], pool=3)), [XDEED], "play xdeed", "x 2", until="turn")
    assert pos["players"][0]["pool"] == 3 - 2 and codes(pos, 0, "hand") == ["filler", "filler"]   # drew X = 2


def test_8_4_halt_save_keeps_the_card_in_play():
    nimue = card("nimue", abilities=[{"timing": "halt", "when": {"event": "would_leave_play", "card": {
        "type": "unit", "not_self": True}, "how": "killed"}, "cost": [{"exhaust": "self"}],
        "effects": [{"save": "event_card"}]}])
    me = side(["nimue", "u2"], hand=["k", "k"])
    g, pos = after(position(me), [U2, nimue, *DEEDS], "play k", "target u2", "use nimue", until="turn")
    assert codes(pos, 0, "field") == ["nimue", "u2"] and entry(pos, 0, "nimue")["exhausted"] is True
    g, pos = after(position(me), [U2, nimue, *DEEDS], "play k", "target u2", "use nimue", "play k", "target u2",
                   until="turn")
    assert codes(pos, 0, "dead") == ["u2"]          # Nimue is exhausted: no second save


def test_8_4_forced_abilities_resolve_and_responses_are_once_per_event():
    bell = card("bell", "location", abilities=[
        {"timing": "forced", "when": {"event": "phase_start", "phase": "kingdom"}, "effects": [{"gain_wealth": 1}]}])
    pool = [after(position(side(f, deck=["filler"] * 10), phase="draw"), [bell], until="phase")[1]["players"][0]["pool"]
            for f in ([], ["bell"])]
    assert pool[1] == pool[0] + 1


def test_8_9_lasting_power_change_expires_at_end_of_phase():
    pump = card("pump", abilities=[{"timing": "action", "effects": [{"modify_power": 2, "who": "self",
                                                                     "until": "phase"}]}])
    g, pos = after(position(side(["pump"])), [pump], "use pump", "struggle combat", "attack pump")
    assert logged(g, "S.8 Combat: 4 vs 0")            # Power 2 + 2 in the phase it was used in
    g = finish(play(load(position(side(["pump"]), phase="kingdom"), [pump]), "use pump"), "phase")
    g = finish(play(g, "struggle combat", "attack pump"))
    assert logged(g, "S.8 Combat: 2 vs 0")            # used in the Kingdom phase: gone by the Confrontation


def test_deck_errors_name_what_is_missing():
    with pytest.raises(DeckError, match="faction"):
        build_deck([(QUEST, 7), (U2, 10)])
    with pytest.raises(DeckError, match="quests"):
        build_deck([(FACTION, 1), (U2, 10)])
    with pytest.raises(DeckError, match="draw deck is empty"):
        build_deck([(FACTION, 1), (QUEST, 7)])


def test_unsupported_cards_are_listed_by_name():
    mystery = card("mystery", name="Mystery Card", text="Action: Do something odd.")
    odd = card("odd", name="Odd Card", text="x", abilities=[{"timing": "action", "effects": [{"teleport": 1}]}])
    fine = card("fine", name="Fine Card", text="Subtle.", keywords=["Subtle"])
    empty = card("empty", name="Empty List", text="Response: After you win, draw 1 card.", abilities=[])
    rules = card("rules", "destiny", name="Rules Only", text="Deckbuilding: Your deck may include Bound cards.",
                 abilities=[])
    d = make_deck(mystery, odd, fine, empty, destiny=rules)
    assert d.unsupported_cards == ["Empty List", "Mystery Card", "Odd Card"]


def test_goldfish_opponent_never_acts_and_is_never_eliminated():
    d = make_deck(U3, U4, filler=20)
    r = play_game(d, None, seed=5)
    assert r.winner == 0 and r.reason == "influence"
    assert all(pair[1] == 0 for pair in r.influence_by_round)


def test_10_5_a_deck_with_a_single_quest_embarks_on_it_every_round():
    d = build_deck([(FACTION, 1), (QUEST, 1), (U2, 40)])
    r = play_game(d, None, seed=1)
    assert r.winner == 0 and r.rounds >= 2


def test_4_setup_attachment_needs_a_placed_unit_its_attach_selector_accepts():
    crown = card("crown", "attachment", cost=1, abilities=[{"timing": "attach", "target": {
        "type": "unit", "attribute": "King"}}])
    hex_ = card("hex2", "attachment", cost=1, abilities=[{"timing": "attach", "target": {
        "type": "unit", "controller": "opponent"}}])
    king = card("king", cost=2, attributes=["King"])
    pairs = [(crown, 1), (hex_, 1), (king, 1), (U2, 4)]
    g = play(_setup_game(*pairs), "keep", "place u2")
    assert "place crown" not in option_texts(g)               # a plain unit is no King
    g = play(_setup_game(*pairs), "keep", "place king")
    assert "place crown" in option_texts(g)
    play(g, "place u2")
    assert "place hex2" not in option_texts(g)                # no enemy unit at your setup


def test_4_setup_hidden_secret_card_uses_no_restricted_allowance():
    rs = card("rs", cost=1, keywords=["Restricted", "Secret (1)"])
    r = card("rr", cost=1, keywords=["Restricted"])
    g = play(_setup_game((rs, 1), (r, 1), (U2, 5)), "keep", "hide rs")
    assert "place rr" in option_texts(g)
    play(g, "place rr", "done")
    assert logged(g, "§4 player 0 places 2 card(s) facedown, budget 4/8")    # 1 + 2 hidden + 1
    assert logged(g, "§4 reveal: player 0 fields Rr") and not logged(g, "fields Rs")   # Rs stays secret


HERALD = card("herald", "location", abilities=[
    {"timing": "response", "when": {"event": "enters_play", "card": {"type": "unit"}},
     "effects": [{"gain_wealth": 1}]}])


def test_8_5_nested_triggers_resolve_last_in_first_out():
    maker = card("maker", abilities=[{"timing": "enters", "effects": [
        {"create_token": {"name": "Squire Token", "power": 1, "icons": ["combat"]}}]}])
    g, pos = after(position(side(["herald"], hand=["maker"], pool=2), phase="kingdom"), [HERALD, maker],
                   "play maker", "use herald", "use herald", until="turn")
    assert pos["players"][0]["pool"] == 2 - 2 + 1 + 1
    uses = logged(g, "uses")
    # maker's "enters" ability runs first and creates the token; the token's enters_play window opens and
    # resolves (herald +1) before the window for the maker itself (herald +1 again)
    assert uses[0].endswith("uses Maker (enters)")
    assert [line.split("uses ")[1] for line in uses[1:]] == ["Herald (response)", "Herald (response)"]


def test_8_4_a_response_fires_once_per_occurrence():
    g = play(load(position(side(["herald"], hand=["u2"], pool=2), phase="kingdom"), [HERALD, U2]),
             "play u2", "use herald")
    assert g.pending.kind != "react"                 # no second Response to the same entry
    g = finish(g, "turn")
    assert to_position(g)["players"][0]["pool"] == 2 - 2 + 1


def test_8_11_an_each_effect_with_nothing_to_act_on_cannot_be_initiated():
    night = card("night", "deed", cost=0, abilities=[
        {"timing": "action", "effects": [{"exhaust": {"each": {"controller": "opponent", "type": "unit"}}}]}])
    offered = lambda them: "play night" in option_texts(load(position(side(hand=["night"]), side(them)),
                                                             [night, U2]))
    assert not offered([])
    assert not offered([{"card": "u2", "exhausted": True}])   # already exhausted: nothing would change
    assert offered(["u2"])


def test_10_4_a_halted_deed_is_still_played_and_its_x_cost_stays_paid():
    veto = card("veto", "location", abilities=[
        {"timing": "halt", "when": {"event": "card_played", "player": "opponent"}, "cost": [{"exhaust": "self"}],
         "effects": [{"cancel": "event"}]}])
    g, pos = after(position(side(hand=["xdeed"], pool=3), side(["veto"])), [XDEED, veto],
                   "play xdeed", "x 3", "use veto", until="turn")
    assert pos["players"][0]["pool"] == 0 and codes(pos, 0, "discard") == ["xdeed"]
    assert codes(pos, 0, "hand") == []               # canceled: nothing drawn
