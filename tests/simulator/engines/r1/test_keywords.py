"""§9: one test per keyword, each a position (CONTRACTS §6) played with action texts and read back."""
from simulator.engines.r1.actions import option_texts

from .helpers import after, card, codes, entry, load, logged, play, position, side

U2 = card("u2", power=2)
U3 = card("u3", power=3)
U5 = card("u5", power=5)


def kw_unit(code, *kws, power=3, **extra):
    return card(code, power=power, keywords=list(kws), **extra)


def kingdom(me, them=None):
    return position(me, them or side(), phase="kingdom")


def test_9_1_subtle_bars_one_defender_eligible_enemy_without_subtle():
    sneak = kw_unit("sneak", "Subtle", power=3)
    g, pos = after(position(side(["sneak"]), side(["u5"])), [sneak, U5], "struggle guile", "attack sneak", "bar u5")
    assert logged(g, "§9.1 Subtle", "bars U5")
    assert logged(g, "S.8 Guile: 3 vs 0, attacker wins")     # U5 (Power 5) could not defend
    assert pos["players"][0]["influence"] == 1                 # unopposed (S.10)


def test_9_1_subtle_cannot_bar_a_subtle_unit():
    sneak = kw_unit("sneak", "Subtle", power=3)
    g = play(load(position(side(["sneak"]), side(["sneak"])), [sneak]), "struggle guile", "attack sneak")
    assert (g.pending.kind, g.pending.player) == ("defenders", 1)    # no Subtle decision came first
    assert "defend sneak" in option_texts(g)
    assert not logged(g, "Subtle")


def test_9_2_glory_places_influence_on_the_unit():
    g, pos = after(position(side(["glo"])), [kw_unit("glo", "Glory")], "struggle combat", "attack glo", "yes")
    assert entry(pos, 0, "glo")["influence"] == 1
    assert g.influence(0) == 1 + 1      # unopposed 1 on the faction card + Glory 1 on the unit


def test_9_2_mastery_draws_one():
    g, pos = after(position(side(["mas"])), [kw_unit("mas", "Mastery")], "struggle combat", "attack mas", "yes")
    assert codes(pos, 0, "hand") == ["filler"] and len(codes(pos, 0, "deck")) == 10 - 1


def test_9_2_cunning_gains_one_wealth():
    g, pos = after(position(side(["cun"])), [kw_unit("cun", "Cunning")], "struggle combat", "attack cun", "yes")
    assert pos["players"][0]["pool"] == 0 + 1


def test_9_2_compel_exhausts_an_enemy_unit_with_power_below_the_margin():
    com = kw_unit("com", "Compel", power=6)
    u1 = card("u1", power=1)
    # Power 6 against 1: margin 5; U3 (Power 3 < 5) may be exhausted
    g, pos = after(position(side(["com"]), side(["u1", "u3"])), [com, U3, u1],
                   "struggle faith", "attack com", "defend u1", "target u3")
    assert logged(g, "S.8 Faith: 6 vs 1, attacker wins, margin 5")
    assert entry(pos, 1, "u3")["exhausted"] is True
    # Power 4 unopposed: margin 4; U3 may be exhausted, U5 (Power 5, not below 4) may not
    com4 = kw_unit("com", "Compel", power=4)
    g = play(load(position(side(["com"]), side(["u3", "u5"])), [com4, U3, U5]),
             "struggle faith", "attack com", "defend none")
    assert g.pending.kind == "compel"
    assert "target u3" in option_texts(g) and "target u5" not in option_texts(g)


def test_9_2_ravage_mills_the_losing_defender():
    g, pos = after(position(side(["rav"])), [kw_unit("rav", "Ravage (2)")], "struggle combat", "attack rav", "yes")
    assert len(codes(pos, 1, "deck")) == 10 - 2 and codes(pos, 1, "discard") == ["filler", "filler"]


def test_9_2_prowess_readies_the_attacker():
    g, pos = after(position(side(["pro"])), [kw_unit("pro", "Prowess")], "struggle combat", "attack pro", "yes")
    assert entry(pos, 0, "pro")["exhausted"] is False


def test_9_2_wary_readies_a_winning_defender():
    war = kw_unit("war", "Wary", power=4)
    g, pos = after(position(side(["u2"]), side(["war"])), [war, U2], "struggle combat", "attack u2", "defend war",
                   "yes")
    assert logged(g, "S.8 Combat: 2 vs 4, defender wins")
    assert entry(pos, 1, "war")["exhausted"] is False and entry(pos, 0, "u2")["exhausted"] is True


def test_9_2_wary_does_nothing_for_an_attacker():
    war = kw_unit("war", "Wary", power=4)
    g, pos = after(position(side(["war"])), [war], "struggle combat", "attack war")
    assert entry(pos, 0, "war")["exhausted"] is True


def test_9_2_ruthless_the_loser_kills_one_defending_unit():
    ruth = kw_unit("ruth", "Ruthless", power=6)
    g, pos = after(position(side(["ruth"]), side(["u2"])), [ruth, U2], "struggle guile", "attack ruth", "defend u2",
                   "yes")
    assert codes(pos, 1, "dead") == ["u2"] and codes(pos, 1, "field") == []


def test_9_2_on_win_keywords_are_optional():
    g, pos = after(position(side(["glo"])), [kw_unit("glo", "Glory")], "struggle combat", "attack glo", "no")
    assert entry(pos, 0, "glo")["influence"] == 0


def test_9_2_on_win_keyword_lost_before_s12_does_not_resolve():
    blanked = {"card": "glo", "emblems": 1}     # a sorcery emblem blanks its printed keywords (§3.6)
    g = play(load(position(side([blanked])), [kw_unit("glo", "Glory")]), "struggle combat", "attack glo")
    assert g.pending.kind != "onwin"
    g, pos = after(position(side([blanked])), [kw_unit("glo", "Glory")], "struggle combat", "attack glo")
    assert entry(pos, 0, "glo")["influence"] == 0


def test_9_3_haste_fields_from_hand_in_confrontation_for_x():
    fast = kw_unit("fast", "Haste (1)", cost=4)
    g = load(kingdom(side(hand=["fast"], pool=1)), [fast])
    assert "play fast" not in option_texts(g)          # cost 4, pool 1
    g = load(position(side(hand=["fast"], pool=1)), [fast])
    assert "haste fast" in option_texts(g)
    g, pos = after(position(side(hand=["fast"], pool=1)), [fast], "haste fast", until="turn")
    assert codes(pos, 0, "field") == ["fast"] and pos["players"][0]["pool"] == 1 - 1


def test_9_3_secret_place_for_two_then_reveal_for_x():
    sec = kw_unit("sec", "Secret (1)", cost=5)
    g = play(load(kingdom(side(hand=["sec"], pool=3)), [sec]), "secret sec")
    assert g.pool[0] == 3 - 2 and "reveal sec" in option_texts(g)
    g, pos = after(kingdom(side(hand=["sec"], pool=3)), [sec], "secret sec", "reveal sec", until="turn")
    assert codes(pos, 0, "field") == ["sec"] and codes(pos, 0, "secret") == []
    assert pos["players"][0]["pool"] == 3 - 2 - 1


def test_9_3_secret_card_revealed_in_any_action_window():
    sec = kw_unit("sec", "Secret (1)", cost=5)
    g = load(position(side(secret=["sec"], pool=1)), [sec])      # a Confrontation window
    assert "reveal sec" in option_texts(g)


def test_9_3_scout_looks_at_the_top_and_reorders():
    sco = kw_unit("sco", "Scout (2)")
    deck = ["u2", "u3"] + ["filler"] * 8              # top first
    g, pos = after(kingdom(side(hand=["sco"], deck=deck, pool=2)), [sco, U2, U3],
                   "play sco", "bottom u2", "top u3", until="turn")
    assert codes(pos, 0, "deck") == ["u3"] + ["filler"] * 8 + ["u2"]


def test_9_3_restricted_counts_toward_the_round_limit():
    res = kw_unit("res", "Restricted")
    g = play(load(kingdom(side(hand=["res", "res"], pool=4)), [res]), "play res")
    assert "play res" not in option_texts(g)          # one Restricted card a round, pool or not
    g, pos = after(kingdom(side(hand=["res", "res"], pool=4)), [res], "play res", until="turn")
    assert pos["players"][0]["restricted_this_round"] == 1


def test_9_3_no_attachments():
    bare = kw_unit("bare", "No Attachments")
    att = card("att", "attachment")
    assert "play att" not in option_texts(load(kingdom(side(["bare"], hand=["att"], pool=5)), [bare, att]))
    assert "play att" in option_texts(load(kingdom(side(["u2"], hand=["att"], pool=5)), [U2, att]))


def test_9_3_lasting_returns_the_attachment_to_hand():
    cloak = card("cloak", "attachment", keywords=["Lasting"])
    them = side([{"card": "u2", "attachments": [{"card": "cloak"}]}])
    g, pos = after(position(side(["u5"]), them), [U2, U5, cloak], "struggle combat", "attack u5", "defend u2")
    assert codes(pos, 1, "dead") == ["u2"]            # killed by the Combat win (§6.1)
    assert codes(pos, 1, "hand") == ["cloak"]          # Lasting: to its owner's hand, not the discard pile


def test_9_3_bound_is_deckbuilding_only_and_plays_normally():
    bnd = kw_unit("bnd", "Bound")
    assert "play bnd" in option_texts(load(kingdom(side(hand=["bnd"], pool=2)), [bnd]))


def test_9_granted_keyword_from_a_static_ability():
    horse = card("horse", "attachment", abilities=[
        {"timing": "attach", "target": {"type": "unit"}},
        {"timing": "static", "affects": "host", "modify": {"power": 1}, "grant": ["Prowess"]}])
    me = side([{"card": "u2", "attachments": [{"card": "horse"}]}])
    g, pos = after(position(me), [U2, horse], "struggle combat", "attack u2", "yes")
    assert logged(g, "S.8 Combat: 3 vs 0")     # Power 2 + 1 from the horse
    assert entry(pos, 0, "u2")["exhausted"] is False     # Prowess readied it


def test_3_6_gained_keywords_survive_blanking():
    rally = card("rally", "deed", cost=0, abilities=[
        {"timing": "action", "target": {"type": "unit"},
         "effects": [{"gain_keyword": "Glory", "who": "target", "until": "round"}]}])
    me = side([{"card": "u2", "emblems": 1}], hand=["rally"])
    g, pos = after(position(me), [U2, rally], "play rally", "struggle combat", "attack u2", "yes")
    assert entry(pos, 0, "u2")["influence"] == 1


def _granting(code, keyword):
    """A location whose static ability grants `keyword` to its controller's units (§9, §8.1)."""
    return card(code, "location", abilities=[
        {"timing": "static", "affects": {"type": "unit", "controller": "you"}, "grant": [keyword]}])


def test_9_a_keyword_granted_by_a_static_ability_keeps_its_x():
    """§9: a granted Ravage (2) mills 2 (it milled 0: the granted X was dropped)."""
    g, pos = after(position(side(["banner", "u2"])), [U2, _granting("banner", "Ravage (2)")],
                   "struggle combat", "attack u2", "yes")
    assert len(codes(pos, 1, "deck")) == 10 - 2


def test_9_parameterised_keywords_with_different_x_are_distinct():
    """§9: printed Ravage (1) plus granted Ravage (2) are two keywords: they mill 1 and 2 (3 in all)."""
    rav = kw_unit("rav", "Ravage (1)")
    g, pos = after(position(side(["banner", "rav"])), [rav, _granting("banner", "Ravage (2)")],
                   "struggle combat", "attack rav", "yes", "yes")
    assert len(codes(pos, 1, "deck")) == 10 - 1 - 2 and len(codes(pos, 1, "discard")) == 3


def test_9_the_same_keyword_twice_with_the_same_x_is_one():
    rav = kw_unit("rav", "Ravage (2)")
    g, pos = after(position(side(["banner", "rav"])), [rav, _granting("banner", "Ravage (2)")],
                   "struggle combat", "attack rav", "yes")
    assert len(codes(pos, 1, "deck")) == 10 - 2


def test_9_3_a_granted_scout_keeps_its_x():
    deck = ["u3", "u5"] + ["filler"] * 8
    g = play(load(kingdom(side(["lookout"], hand=["u2"], deck=deck, pool=2)), [U2, U3, U5,
                                                                            _granting("lookout", "Scout (2)")]),
             "play u2", "top u3")
    assert g.pending.kind == "scout"                    # the second of the two cards Scout (2) looks at
    assert sorted(option_texts(g)) == ["bottom u5", "top u5"]


def test_9_3_a_granted_haste_keeps_its_x():
    """A static ability granting Haste (1) to units in hand: fielded for 1, not for its cost 4."""
    quick = card("quick", "location", abilities=[
        {"timing": "static", "affects": {"type": "unit", "zone": "hand", "controller": "you"},
         "grant": ["Haste (1)"]}])
    slow = card("slow", power=3, cost=4)
    assert "haste slow" in option_texts(load(position(side(["quick"], hand=["slow"], pool=1)), [slow, quick]))
    g, pos = after(position(side(["quick"], hand=["slow"], pool=1)), [slow, quick], "haste slow", until="turn")
    assert "slow" in codes(pos, 0, "field") and pos["players"][0]["pool"] == 1 - 1


def test_3_7_a_duplicate_fielded_by_haste_costs_0_whatever_the_pool_holds():
    knight = kw_unit("knight", "Haste (3)", unique=True, name="Sir Fast")
    me = side(["knight"], hand=["knight"], pool=0)
    assert "haste knight" in option_texts(load(position(me), [knight]))
    g, pos = after(position(me), [knight], "haste knight", until="turn")
    assert entry(pos, 0, "knight")["duplicates"] == 1 and pos["players"][0]["pool"] == 0
