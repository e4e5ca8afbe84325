"""§9: one test per keyword."""
from simulator.engine.game import COMBAT, CONFRONT_P, DEAD, DONE, FAITH, FIELD, GUILE, HAND, KINGDOM_P, NO, SECRET

from .helpers import card, drive, field, to_hand
from .test_rules import struggle, two_player

U2 = card("u2", power=2)
U3 = card("u3", power=3)
U5 = card("u5", power=5)


def kw_unit(code, *kws, power=3, **extra):
    return card(code, power=power, keywords=list(kws), **extra)


def test_9_1_subtle_bars_one_defender_eligible_enemy_without_subtle():
    g = two_player(kw_unit("sneak", "Subtle", power=3), U5)
    a = field(g, 0, "sneak")
    big = field(g, 1, "u5")
    s = struggle(g, 0, GUILE, [a], [big], extra=[("bar", big)])
    assert big in s.barred and s.defenders == [] and s.winner == 0


def test_9_1_subtle_cannot_bar_a_subtle_unit():
    g = two_player(kw_unit("sneak", "Subtle", power=3))
    a = field(g, 0, "sneak")
    field(g, 1, "sneak")
    s = struggle(g, 0, GUILE, [a])
    assert not s.barred


def test_9_2_glory_places_influence_on_the_unit():
    g = two_player(kw_unit("glo", "Glory"))
    a = field(g, 0, "glo")
    struggle(g, 0, COMBAT, [a])
    assert g.cnt[a] == 1
    assert g.influence(0) == 2      # unopposed 1 + Glory 1


def test_9_2_mastery_draws_one():
    g = two_player(kw_unit("mas", "Mastery"))
    a = field(g, 0, "mas")
    struggle(g, 0, COMBAT, [a])
    assert len(g.hand[0]) == 1


def test_9_2_cunning_gains_one_wealth():
    g = two_player(kw_unit("cun", "Cunning"))
    a = field(g, 0, "cun")
    struggle(g, 0, COMBAT, [a])
    assert g.pool[0] == 1


def test_9_2_compel_exhausts_an_enemy_unit_with_power_below_the_margin():
    g = two_player(kw_unit("com", "Compel", power=6), U2, U3, card("u1", power=1))
    a = field(g, 0, "com")
    d = field(g, 1, "u1")          # 6 vs 1: margin 5
    bystander = field(g, 1, "u3")  # Power 3 < 5: exhausted by Compel (the first option)
    s = struggle(g, 0, FAITH, [a], [d], extra=[("exhaust", bystander)])
    assert s.margin == 5 and g.exh[bystander] == 1
    g2 = two_player(kw_unit("com", "Compel", power=4), U3, U5)
    a2 = field(g2, 0, "com")
    weak = field(g2, 1, "u3")      # Power 3 < margin 4: can be exhausted
    strong = field(g2, 1, "u5")    # Power 5: cannot
    seen = drive(g2._struggle(0, FAITH), [("attacker", a2), DONE, DONE, ("exhaust", weak)])
    compel = next(x for x in seen if getattr(x, "kind", None) == "compel")
    assert ("exhaust", weak) in compel.options and ("exhaust", strong) not in compel.options
    assert g2.exh[weak] == 1


def test_9_2_ravage_mills_the_losing_defender():
    g = two_player(kw_unit("rav", "Ravage (2)"))
    a = field(g, 0, "rav")
    before = len(g.deck[1])
    struggle(g, 0, COMBAT, [a])
    assert len(g.deck[1]) == before - 2 and len(g.discard[1]) == 2


def test_9_2_prowess_readies_the_attacker():
    g = two_player(kw_unit("pro", "Prowess"))
    a = field(g, 0, "pro")
    struggle(g, 0, COMBAT, [a])
    assert g.exh[a] == 0


def test_9_2_wary_readies_a_winning_defender():
    g = two_player(kw_unit("war", "Wary", power=4), U2)
    a = field(g, 0, "u2")
    d = field(g, 1, "war")
    s = struggle(g, 0, COMBAT, [a], [d])
    assert s.winner == 1 and g.exh[d] == 0 and g.exh[a] == 1


def test_9_2_wary_does_nothing_for_an_attacker():
    g = two_player(kw_unit("war", "Wary", power=4))
    a = field(g, 0, "war")
    struggle(g, 0, COMBAT, [a])
    assert g.exh[a] == 1


def test_9_2_ruthless_the_loser_kills_one_defending_unit():
    g = two_player(kw_unit("ruth", "Ruthless", power=6), U2)
    a = field(g, 0, "ruth")
    d = field(g, 1, "u2")
    struggle(g, 0, GUILE, [a], [d])
    assert g.zone[d] == DEAD


def test_9_2_on_win_keywords_are_optional():
    g = two_player(kw_unit("glo", "Glory"))
    a = field(g, 0, "glo")
    struggle(g, 0, COMBAT, [a], extra=[NO])
    assert g.cnt[a] == 0


def test_9_2_on_win_keyword_lost_before_s12_does_not_resolve():
    g = two_player(kw_unit("glo", "Glory"))
    a = field(g, 0, "glo")
    g.emb[a] = 1               # blanked: printed keywords gone
    struggle(g, 0, COMBAT, [a])
    assert g.cnt[a] == 0


def test_9_3_haste_fields_from_hand_in_confrontation_for_x():
    g = two_player(kw_unit("fast", "Haste (1)", cost=4))
    h = to_hand(g, 0, "fast")
    g.pool[0] = 1
    assert ("haste", h) in g._window_options(0, CONFRONT_P)
    assert ("play", h) not in g._window_options(0, KINGDOM_P)
    drive(g._play_from_hand(0, h, "haste"))
    assert g.zone[h] == FIELD and g.pool[0] == 0


def test_9_3_secret_place_for_two_then_reveal_for_x():
    g = two_player(kw_unit("sec", "Secret (1)", cost=5))
    h = to_hand(g, 0, "sec")
    g.pool[0] = 3
    drive(g._window_action(0, ("secret", h)))
    assert g.zone[h] == SECRET and g.pool[0] == 1
    assert ("reveal", h) in g._window_options(0, -1)    # any action window
    drive(g._window_action(0, ("reveal", h)))
    assert g.zone[h] == FIELD and g.pool[0] == 0


def test_9_3_scout_looks_at_the_top_and_reorders():
    g = two_player(kw_unit("sco", "Scout (2)"))
    h = to_hand(g, 0, "sco")
    top2 = g.deck[0][-2:]
    drive(g._enter(0, h, "played"), [("bottom", top2[1]), ("top", top2[0])])
    assert g.deck[0][0] == top2[1] and g.deck[0][-1] == top2[0]


def test_9_3_restricted_counts_toward_the_round_limit():
    g = two_player(kw_unit("res", "Restricted"))
    a = to_hand(g, 0, "res")
    b = to_hand(g, 0, "res")
    drive(g._enter(0, a, "played"))
    assert g.restricted_used[0] == 1 and not g.can_enter(0, b)


def test_9_3_no_attachments():
    g = two_player(kw_unit("bare", "No Attachments"), card("att", "attachment"))
    field(g, 0, "bare")
    assert not g.can_enter(0, to_hand(g, 0, "att"))


def test_9_3_lasting_returns_the_attachment_to_hand():
    g = two_player(U2, card("cloak", "attachment", keywords=["Lasting"]))
    u = field(g, 0, "u2")
    c = field(g, 0, "cloak")
    g.host[c] = u
    drive(g._leave([u], "discarded"))
    assert g.zone[c] == HAND


def test_9_3_bound_is_deckbuilding_only_and_plays_normally():
    g = two_player(kw_unit("bnd", "Bound"))
    h = to_hand(g, 0, "bnd")
    g.pool[0] = 2
    assert ("play", h) in g._window_options(0, KINGDOM_P)


def test_9_granted_keyword_from_a_static_ability():
    horse = card("horse", "attachment", abilities=[
        {"timing": "attach", "target": {"type": "unit"}},
        {"timing": "static", "affects": "host", "modify": {"power": 1}, "grant": ["Prowess"]}])
    g = two_player(U2, horse)
    u = field(g, 0, "u2")
    h = field(g, 0, "horse")
    g.host[h] = u
    g._statics_cache = None
    assert g.power(u) == 3
    struggle(g, 0, COMBAT, [u])
    assert g.exh[u] == 0     # Prowess readied it


def test_3_6_gained_keywords_survive_blanking():
    g = two_player(U2)
    u = field(g, 0, "u2")
    g.kgrant[u] = [(1 << 1, None, "round")]   # Glory granted by an effect
    g.emb[u] = 1
    struggle(g, 0, COMBAT, [u])
    assert g.cnt[u] == 1


def _granting(code, keyword):
    """A location whose static ability grants `keyword` to its controller's units (§9, §8.1)."""
    return card(code, "location", abilities=[
        {"timing": "static", "affects": {"type": "unit", "controller": "you"}, "grant": [keyword]}])


def test_9_a_keyword_granted_by_a_static_ability_keeps_its_x():
    """§9: a granted Ravage (2) mills 2 (it milled 0: the granted X was dropped)."""
    g = two_player(U2, _granting("banner", "Ravage (2)"))
    field(g, 0, "banner")
    a = field(g, 0, "u2")
    g._statics_cache = None
    before = len(g.deck[1])
    struggle(g, 0, COMBAT, [a])
    assert len(g.deck[1]) == before - 2


def test_9_parameterised_keywords_with_different_x_are_distinct():
    """§9: printed Ravage (1) plus granted Ravage (2) are two keywords: they mill 1 and 2 (3 in all)."""
    g = two_player(kw_unit("rav", "Ravage (1)"), _granting("banner", "Ravage (2)"))
    field(g, 0, "banner")
    a = field(g, 0, "rav")
    g._statics_cache = None
    before = len(g.deck[1])
    struggle(g, 0, COMBAT, [a])
    assert len(g.deck[1]) == before - 3 and len(g.discard[1]) == 3


def test_9_the_same_keyword_twice_with_the_same_x_is_one():
    g = two_player(kw_unit("rav", "Ravage (2)"), _granting("banner", "Ravage (2)"))
    field(g, 0, "banner")
    a = field(g, 0, "rav")
    g._statics_cache = None
    before = len(g.deck[1])
    struggle(g, 0, COMBAT, [a])
    assert len(g.deck[1]) == before - 2


def test_9_3_a_granted_scout_keeps_its_x():
    g = two_player(U2, _granting("lookout", "Scout (2)"))
    field(g, 0, "lookout")
    g._statics_cache = None
    u = to_hand(g, 0, "u2")
    looked = []
    drive(g._enter(0, u, "played"), [lambda dec: looked.append(dec.info) or ("top", dec.info)
                                     if dec.kind == "scout" else None] * 2)
    assert len(looked) == 2


def test_9_3_a_granted_haste_keeps_its_x():
    """A static ability granting Haste (1) to units in hand: fielded for 1, not for its cost 4."""
    quick = card("quick", "location", abilities=[
        {"timing": "static", "affects": {"type": "unit", "zone": "hand", "controller": "you"},
         "grant": ["Haste (1)"]}])
    g = two_player(card("slow", power=3, cost=4), quick)
    field(g, 0, "quick")
    g._statics_cache = None
    h = to_hand(g, 0, "slow")
    g.pool[0] = 1
    assert ("haste", h) in g._window_options(0, CONFRONT_P)
    drive(g._play_from_hand(0, h, "haste"))
    assert g.zone[h] == FIELD and g.pool[0] == 0


def test_3_7_a_duplicate_fielded_by_haste_costs_0_whatever_the_pool_holds():
    g = two_player(kw_unit("knight", "Haste (3)", unique=True, name="Sir Fast"))
    first = field(g, 0, "knight")
    dup = to_hand(g, 0, "knight")
    g.pool[0] = 0
    assert ("haste", dup) in g._window_options(0, CONFRONT_P)
    drive(g._play_from_hand(0, dup, "haste"))
    assert dup in g.dups[first] and g.pool[0] == 0
