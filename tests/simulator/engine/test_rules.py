"""Pinned rule scenarios, one per rule, named after the rulebook section (python-chess perft style)."""
import pytest

from simulator.engine import DeckError, build_deck, play_game
from simulator.engine.game import (
    COMBAT, DEAD, DISCARD, DONE, DUP, FAITH, FIELD, GONE, GUILE, HAND, NO, SECRET, SORCERY,
    YES, GameOver,
)

from .helpers import (
    FACTION, QUEST, attach, card, drive, field, find, make_deck, new_game, to_hand, two_player,
)

U7 = card("u7", power=7)
U4 = card("u4", power=4)
U3 = card("u3", power=3)
U2 = card("u2", power=2)
U0 = card("u0", power=0)
NOICON = card("noicon", power=5, icons=[])


def struggle(g, p, t, attackers, defenders=(), extra=()):
    """Run §6.2 S.1–S.14 with the given attackers/defenders; returns the Struggle record."""
    atk, dfn = list(attackers), list(defenders)

    def declare(dec):
        if dec.kind == "attackers":
            return ("attacker", atk.pop(0)) if atk else DONE
        if dec.kind == "defenders":
            return ("defender", dfn.pop(0)) if dfn else DONE
        return None
    script = [declare] * (len(atk) + len(dfn) + 2) + list(extra)
    rec = {}

    def observe(game, what, info):
        if what == "struggle_end":
            rec["s"] = info
    g.observer = observe
    drive(g._struggle(p, t), script)
    g.observer = None
    return rec["s"]


def test_s8_7_vs_4_attacker_wins_with_margin_3():
    g = two_player(U7, U4)
    a = field(g, 0, "u7")
    d = field(g, 1, "u4")
    s = struggle(g, 0, COMBAT, [a], [d])
    assert (s.att_total, s.def_total, s.winner, s.margin) == (7, 4, 0, 3)


def test_s8_defender_wins_with_more_power_and_no_spoils():
    g = two_player(U7, U4)
    a = field(g, 0, "u4")
    d = field(g, 1, "u7")
    s = struggle(g, 0, COMBAT, [a], [d])
    assert (s.winner, s.margin) == (1, 3)
    assert g.zone[d] == FIELD and g.zone[a] == FIELD


def test_s8_attacker_wins_a_tie_that_is_not_zero_zero():
    g = two_player(U4)
    a = field(g, 0, "u4")
    d = field(g, 1, "u4")
    s = struggle(g, 0, FAITH, [a], [d])
    assert (s.winner, s.margin) == (0, 0)


def test_s8_zero_zero_has_no_winner_no_spoils_no_unopposed():
    g = two_player(U0)
    g.infl[1] = 3
    a = field(g, 0, "u0")
    s = struggle(g, 0, FAITH, [a])
    assert s.winner is None
    assert g.influence(0) == 0 and g.influence(1) == 3


def test_s10_unopposed_means_defending_total_zero_not_no_defenders():
    g = two_player(U2, U0)
    a = field(g, 0, "u2")
    d = field(g, 1, "u0")           # a 0-Power defender is declared ...
    s = struggle(g, 0, COMBAT, [a], [d])
    assert s.declared_defenders == [d] and s.def_total == 0   # declared, with 0 Power
    assert s.unopposed
    assert g.influence(0) == 1      # ... and the attacker still gains +1 Influence (S.10)


def test_s10_no_unopposed_bonus_when_defence_has_power():
    g = two_player(U3, U2)
    a = field(g, 0, "u3")
    d = field(g, 1, "u2")
    s = struggle(g, 0, GUILE, [a], [d])
    assert s.winner == 0 and not s.unopposed and g.influence(0) == 0


def test_6_1_faith_moves_influence_rather_than_gaining_it():
    gained = card("listener", type="location", abilities=[
        {"timing": "forced", "when": {"event": "influence_gained", "player": "you"}, "effects": [{"draw": 1}]}])
    g = two_player(U3, U4, gained)
    field(g, 0, "listener")
    g.infl[1] = 5
    a = field(g, 0, "u4")
    d = field(g, 1, "u3")
    hand_before = len(g.hand[0])
    s = struggle(g, 0, FAITH, [a], [d])
    assert s.winner == 0
    assert (g.infl[0], g.infl[1]) == (1, 4)        # spoils 1 moved
    assert len(g.hand[0]) == hand_before           # a move is not a gain: the listener did not fire


def test_6_1_faith_spoils_as_far_as_possible_from_an_empty_faction_card():
    g = two_player(U4)
    a = field(g, 0, "u4")
    struggle(g, 0, FAITH, [a])
    assert (g.infl[0], g.infl[1]) == (1, 0)        # only the unopposed +1


def test_6_1_combat_spoils_the_defender_kills_units_of_its_choice_into_the_dead_pile():
    q2 = card("q2", "quest", spoils=2)
    g = two_player(U7, U2, U3, quests=[q2] * 7)
    a = field(g, 0, "u7")
    d1, d2, d3 = field(g, 1, "u2"), field(g, 1, "u3"), field(g, 1, "u2")
    struggle(g, 0, COMBAT, [a], [d1], extra=[("kill", d3), ("kill", d2)])
    assert g.zone[d3] == DEAD and g.zone[d2] == DEAD and g.zone[d1] == FIELD
    assert d3 in g.dead[1]


def test_6_1_guile_spoils_discard_at_random_from_hand():
    g = two_player(U4, U2)
    a = field(g, 0, "u4")
    h = [to_hand(g, 1, "u2"), to_hand(g, 1, "u2")]
    struggle(g, 0, GUILE, [a])
    assert len(g.hand[1]) == 1
    assert sum(1 for i in h if g.zone[i] == DISCARD) == 1


def test_6_1_sorcery_spoils_place_an_emblem_that_blanks():
    subtle = card("subtle", power=1, keywords=["Subtle"])
    g = two_player(U4, subtle)
    a = field(g, 0, "u4")
    t = field(g, 1, "subtle")
    struggle(g, 0, SORCERY, [a], extra=[("emblem", t)])
    assert g.emb[t] == 1 and g.blanked(t)
    assert g.kw(t) == 0          # §3.6 printed keywords are lost ...
    assert g.cdef[t].power == 1  # ... Power is kept


def test_6_3_authority_emblem_adds_one_to_its_holders_attacks_only():
    g = two_player(U3)
    g.authority = 0
    a = field(g, 0, "u3")
    d = field(g, 1, "u3")
    s = struggle(g, 0, COMBAT, [a], [d])
    assert (s.att_total, s.def_total) == (4, 3)
    g2 = two_player(U3)
    g2.authority = 1
    a2 = field(g2, 0, "u3")
    d2 = field(g2, 1, "u3")
    s2 = struggle(g2, 0, COMBAT, [a2], [d2])
    assert (s2.att_total, s2.def_total) == (3, 3)   # the defender's emblem gives nothing when defending


def test_6_5_declared_units_need_the_icon_and_to_be_ready():
    g = two_player(NOICON, U3)
    n = field(g, 0, "noicon")
    e = field(g, 0, "u3", exhausted=True)
    r = field(g, 0, "u3")
    assert g._eligible_attackers(0, COMBAT) == [r]
    assert n not in g._eligible_attackers(0, COMBAT) and e not in g._eligible_attackers(0, COMBAT)


def test_6_5_a_unit_added_by_an_effect_needs_no_icon_and_does_not_exhaust():
    rally = card("rally", "deed", cost=0, abilities=[
        {"timing": "action", "phase": "struggle", "target": {"type": "unit", "participating": False},
         "effects": [{"join_struggle": "target"}]}])
    g = two_player(U2, NOICON, rally)
    a = field(g, 0, "u2")
    n = field(g, 0, "noicon", exhausted=True)
    to_hand(g, 0, "rally")
    g.phase = 3
    seen = []

    def play_rally(dec):
        return ("deed", find(g, 0, "rally", HAND)) if dec.kind == "window" else None
    s = struggle(g, 0, COMBAT, [a], extra=[play_rally, ("target", n)])
    assert n in s.attackers
    assert s.att_total == 7
    assert g.exh[n] == 1   # it was exhausted before, and joining changes nothing


def test_6_5_a_participant_that_leaves_play_contributes_zero():
    kill = card("kill", "deed", cost=0, abilities=[
        {"timing": "action", "phase": "struggle", "target": {"controller": "opponent", "type": "unit",
                                                            "participating": True},
         "effects": [{"kill": "target"}]}])
    g = two_player(U4, U3, kill)
    a = field(g, 0, "u3")
    d = field(g, 1, "u4")
    to_hand(g, 0, "kill")
    g.phase = 3
    s = struggle(g, 0, COMBAT, [a], [d],
                 extra=[lambda dec: ("deed", find(g, 0, "kill", HAND)) if dec.kind == "window" else None])
    assert g.zone[d] == DEAD
    assert (s.att_total, s.def_total, s.winner) == (3, 0, 0)
    assert s.unopposed


def test_6_6_power_floors_at_zero_in_struggles_and_authority():
    hex_ = card("hex", "attachment", abilities=[
        {"timing": "attach", "target": {"type": "unit", "controller": "opponent"}},
        {"timing": "static", "affects": "host", "modify": {"power": -5}}])
    g = two_player(U2, U3, hex_)
    a1 = field(g, 0, "u2")
    a2 = field(g, 0, "u3")
    attach(g, 1, "hex", a1)
    assert g.power(a1) == -3
    assert g.authority_total(0) == 3          # -3 counts as 0, not -3
    s = struggle(g, 0, COMBAT, [a1, a2])
    assert s.att_total == 3


def test_5_5_authority_highest_total_gains_influence_and_emblem():
    g = two_player(U4, U3)
    field(g, 0, "u4")
    field(g, 1, "u3")
    g.pool[0] = 1
    assert (g.authority_total(0), g.authority_total(1)) == (5, 3)
    drive(g._authority_phase())
    assert g.authority == 0 and g.influence(0) == 1 and g.influence(1) == 0


def test_5_5_authority_counts_ready_units_and_pool_wealth():
    g = two_player(U4, U3)
    field(g, 0, "u4", exhausted=True)
    field(g, 1, "u3")
    g.pool[0] = 2
    assert g.authority_total(0) == 2 and g.authority_total(1) == 3


def test_5_5_authority_tie_strips_the_emblem():
    g = two_player(U3)
    g.authority = 1
    field(g, 0, "u3")
    field(g, 1, "u3")
    drive(g._authority_phase())
    assert g.authority == -1
    assert g.influence(0) == 0 and g.influence(1) == 0


def test_5_6_refresh_readies_all_and_removes_one_sorcery_emblem():
    g = two_player(U3)
    a = field(g, 0, "u3", exhausted=True)
    b = field(g, 0, "u3", exhausted=True)
    g.emb[a] = 2
    g.emb[b] = 1
    drive(g._refresh_phase(), [("emblem", b)])
    assert g.exh[a] == 0 and g.exh[b] == 0
    assert (g.emb[a], g.emb[b]) == (2, 0)


def test_5_7_toll_returns_wealth_and_discards_to_levy():
    q = card("q-levy", "quest", levy=2)
    g = two_player(U3, quests=[q] * 7)
    for _ in range(4):
        to_hand(g, 0, "filler")
    g.pool[0] = 3
    drive(g._toll_phase())
    assert g.pool == [0, 0]
    assert len(g.hand[0]) == 2 and len(g.discard[0]) == 2


def test_5_7_a_hand_at_levy_discards_nothing():
    g = two_player(U3)
    for _ in range(3):
        to_hand(g, 0, "filler")
    seen = drive(g._toll_phase())
    assert len(g.hand[0]) == 3
    assert not [d for d in seen if getattr(d, "kind", None) == "toll_discard"]


def test_5_1_highest_momentum_chooses_the_first_player():
    fast = card("fast", "quest", momentum=3)
    slow = card("slow", "quest", momentum=1)
    da = make_deck(U2, quests=[fast] * 7)
    db = make_deck(U2, quests=[slow] * 7)
    g = new_game(da, db, first=1)
    seen = drive(g._quest_phase(), [("first", 0)])
    choice = next(d for d in seen if getattr(d, "kind", None) == "first_player")
    assert choice.player == 0 and g.first == 0


def test_5_1_momentum_tie_lowest_influence_chooses():
    g = new_game(make_deck(U2), make_deck(U2), first=0)
    g.infl[0] = 4
    g.infl[1] = 2
    seen = drive(g._quest_phase())
    assert next(d for d in seen if getattr(d, "kind", None) == "first_player").player == 1


def test_5_1_quest_deck_reshuffles_when_embarking_empties_it():
    qs = [card(f"q{i}", "quest", name=f"Quest {i}") for i in range(7)]
    d = make_deck(U2, quests=qs)
    g = new_game(d, None)
    for _ in range(7):
        drive(g._quest_phase())
    assert len(g.qdeck[0]) == 6 and g.qused[0] == []
    drive(g._quest_phase())
    assert len(g.qdeck[0]) == 5 and len(g.qused[0]) == 1


def test_5_2_draw_two_and_12_elimination_on_an_empty_deck():
    g = two_player(U2)
    g.deck[0] = g.deck[0][:1]
    with pytest.raises(GameOver) as end:
        drive(g._draw_phase())
    assert end.value.winner == 1 and end.value.reason == "elimination"


def test_12_simultaneous_elimination_highest_influence_wins():
    g = two_player(U2)
    g.deck[0] = []
    g.deck[1] = []
    g.infl[0], g.infl[1] = 3, 5
    with pytest.raises(GameOver) as end:
        drive(g._draw_phase())
    assert end.value.winner == 1


def test_12_simultaneous_elimination_influence_tie_authority_holder_wins():
    g = two_player(U2)
    g.deck[0] = []
    g.deck[1] = []
    g.authority = 1
    with pytest.raises(GameOver) as end:
        drive(g._draw_phase())
    assert end.value.winner == 1


def test_12_fifteen_influence_wins_at_once():
    g = two_player(U4)
    g.infl[0] = 14
    a = field(g, 0, "u4")
    with pytest.raises(GameOver) as end:
        struggle(g, 0, COMBAT, [a])       # S.10 unopposed +1 -> 15 before spoils
    assert end.value.winner == 0 and end.value.reason == "influence"


def test_1_1_glory_influence_on_units_counts_toward_fifteen():
    g = two_player(U4)
    a = field(g, 0, "u4")
    g.infl[0] = 13
    g.cnt[a] = 1
    assert g.influence(0) == 14


def test_7_1_destinations_killed_dead_discarded_discard_returned_hand():
    g = two_player(U2)
    a, b, c = field(g, 0, "u2"), field(g, 0, "u2"), field(g, 0, "u2")
    drive(g._leave([a], "killed"))
    drive(g._leave([b], "discarded"))
    drive(g._leave([c], "returned"))
    assert (g.zone[a], g.zone[b], g.zone[c]) == (DEAD, DISCARD, HAND)


def test_7_3_duplicate_save_discards_the_duplicate():
    uq = card("uq", unique=True, name="Unique Knight")
    g = two_player(uq)
    a = field(g, 0, "uq")
    dup = to_hand(g, 0, "uq")
    drive(g._enter(0, dup, "played"))
    assert g.zone[dup] == DUP and g.dups[a] == [dup]
    drive(g._leave([a], "killed"), [YES])
    assert g.zone[a] == FIELD and g.zone[dup] == DISCARD


def test_7_3_sacrifice_cannot_be_saved():
    uq = card("uq", unique=True, name="Unique Knight")
    g = two_player(uq)
    a = field(g, 0, "uq")
    dup = to_hand(g, 0, "uq")
    drive(g._enter(0, dup, "played"))
    seen = drive(g._leave([a], "sacrificed"))
    assert g.zone[a] == DISCARD
    assert not [d for d in seen if getattr(d, "kind", None) == "dup_save"]
    assert g.zone[dup] == DISCARD   # its duplicate goes with it (§7.2)


def test_3_7_a_second_copy_of_a_unique_is_a_free_duplicate():
    uq = card("uq", unique=True, name="Unique Knight", cost=5)
    g = two_player(uq)
    a = field(g, 0, "uq")
    h = to_hand(g, 0, "uq")
    g.pool[0] = 0
    g.active = 0
    assert ("play", h) in g._window_options(0, 2)   # costs 0 as a duplicate
    drive(g._play_from_hand(0, h, "play"))
    assert g.zone[h] == DUP and g.pool[0] == 0 and len(g.field[0]) == 1


def test_3_8_a_token_ceases_to_exist_on_leaving_play():
    maker = card("maker", abilities=[{"timing": "enters", "effects": [
        {"create_token": {"name": "Squire Token", "power": 1, "icons": ["combat"]}}]}])
    g = two_player(maker)
    m = to_hand(g, 0, "maker")
    drive(g._enter(0, m, "played"))
    tok = [i for i in g.field[0] if g.cdef[i].is_token]
    assert len(tok) == 1 and g.power(tok[0]) == 1
    drive(g._leave(tok, "killed"))
    assert g.zone[tok[0]] == GONE and tok[0] not in g.dead[0]


def test_10_3_attachment_discarded_with_its_host_and_lasting_returns_to_hand():
    plain = card("plain", "attachment")
    lasting = card("lasting", "attachment", keywords=["Lasting"])
    g = two_player(U3, plain, lasting)
    u = field(g, 0, "u3")
    p = attach(g, 0, "plain", u)
    l_ = attach(g, 0, "lasting", u)
    drive(g._leave([u], "killed"))
    assert g.zone[p] == DISCARD and g.zone[l_] == HAND


def test_10_3_an_attachment_with_no_legal_host_cannot_be_played():
    att = card("att", "attachment", cost=0)
    g = two_player(att)
    h = to_hand(g, 0, "att")
    assert ("play", h) not in g._window_options(0, 2)


def test_9_3_no_attachments_rejects_attachments():
    giant = card("giant", keywords=["No Attachments"])
    att = card("att", "attachment", cost=0)
    g = two_player(giant, att)
    field(g, 0, "giant")
    assert g.legal_hosts(0, to_hand(g, 0, "att")) == []


def test_9_3_restricted_one_entry_per_round_counting_every_entry():
    r1 = card("r1", keywords=["Restricted"], cost=1)
    r2 = card("r2", keywords=["Restricted", "Haste (1)"], cost=1)
    g = two_player(r1, r2)
    g.pool[0] = 10
    h1 = to_hand(g, 0, "r1")
    h2 = to_hand(g, 0, "r2")
    drive(g._play_from_hand(0, h1, "play"))
    assert g.zone[h1] == FIELD
    assert ("play", h2) not in g._window_options(0, 2)      # Kingdom play
    assert ("haste", h2) not in g._window_options(0, 3)     # Haste entry counts too
    g.restricted_used = [0, 0]                               # next round
    assert ("haste", h2) in g._window_options(0, 3)


def test_9_3_loyalty_surcharge_for_off_faction_cards():
    off = card("off", faction="winter", cost=2, loyalty=2)
    neutral = card("neu", faction="neutral", cost=2, loyalty=2)
    g = two_player(off, neutral)
    assert g.play_cost(0, to_hand(g, 0, "off")) == 4
    assert g.play_cost(0, to_hand(g, 0, "neu")) == 2


def test_4_setup_budget_places_within_eight_and_never_x_dash_or_deeds():
    big = card("big", cost=6)
    small = card("small", cost=2)
    xcost = card("xcost", cost="X")
    dash = card("dash", cost="-")
    deed = card("deedy", "deed", cost=0)
    d = build_deck([(FACTION, 1), (QUEST, 7), (big, 2), (small, 2), (xcost, 1), (dash, 1), (deed, 1)])
    g = new_game(d, None)
    hand = [find(g, 0, c) for c in ("big", "small", "xcost", "dash", "deedy")]
    for i in hand:
        g._move(i, HAND, 0)
    opts = g._setup_options(0, 8, 0, [])
    placeable = {g.cdef[o[1]].code for o in opts if o != DONE}
    assert placeable == {"big", "small"}
    chosen = [(hand[0], "place", -1)]
    assert {g.cdef[o[1]].code for o in g._setup_options(0, 2, 0, chosen) if o != DONE} == {"small"}


def test_4_setup_secret_hide_costs_two_more_and_duplicates_are_free():
    sec = card("sec", cost=3, keywords=["Secret (2)"])
    uq = card("uq", unique=True, name="Unique Knight", cost=5)
    d = build_deck([(FACTION, 1), (QUEST, 7), (sec, 1), (uq, 2), (U2, 40)])
    g = new_game(d, None)
    s = find(g, 0, "sec")
    u1 = find(g, 0, "uq")
    g._move(s, HAND, 0)
    g._move(u1, HAND, 0)
    u2 = find(g, 0, "uq")
    g._move(u2, HAND, 0)
    assert g._setup_cost(0, s, "hide", []) == 5
    assert g._setup_cost(0, u2, "place", [(u1, "place", -1)]) == 0


def test_4_setup_reveal_fires_no_enters_play_and_draws_back_to_seven():
    drawer = card("drawer", cost=2, abilities=[{"timing": "enters", "effects": [{"gain_wealth": 3}]}])
    d = build_deck([(FACTION, 1), (QUEST, 7), (drawer, 30), (U2, 30)])
    g = new_game(d, None)
    seen = drive(g._setup(), [lambda dec: next((o for o in dec.options if o[0] == "place"), DONE)
                              if dec.kind == "setup" else None] * 5)
    assert len(g.field[0]) >= 1
    assert g.pool[0] == 0
    assert len(g.hand[0]) == 7


def test_4_setup_one_restricted_card_only():
    r = card("rr", cost=1, keywords=["Restricted"])
    d = build_deck([(FACTION, 1), (QUEST, 7), (r, 3), (U2, 40)])
    g = new_game(d, None)
    for _ in range(3):
        g._move(find(g, 0, "rr"), HAND, 0)
    first = g.hand[0][0]
    opts = g._setup_options(0, 8, 1, [(first, "place", -1)])
    assert not [o for o in opts if o != DONE and g.cdef[o[1]].code == "rr"]


def test_4_mulligan_is_all_or_nothing():
    d = make_deck(U2, U3, U4)
    g = new_game(d, None)
    gen = g._setup()
    dec = next(gen)
    assert dec.kind == "mulligan"
    before = list(g.hand[0])
    try:
        gen.send(YES)
    except StopIteration:
        pass
    assert len(g.hand[0]) == 7 and not set(before) & set(g.hand[0])
    assert len(g.deck[0]) == len(d.draw) - 7


def test_8_11_then_does_not_resolve_when_the_first_part_did_not_happen():
    foresight = card("foresight", "deed", cost=0, abilities=[
        {"timing": "action", "effects": [{"mill": 1, "player": "opponent"}, {"then": [{"gain_wealth": 3}]}]}])
    g = two_player(foresight)
    h = to_hand(g, 0, "foresight")
    g.deck[1] = []
    drive(g._play_deed(0, h, None))
    assert g.pool[0] == 0
    h2 = to_hand(g, 0, "foresight")
    g.deck[1] = [find(g, 1, "filler")]
    drive(g._play_deed(0, h2, None))
    assert g.pool[0] == 3


def test_8_11_an_ability_needs_a_legal_target_to_be_initiated():
    snipe = card("snipe", "deed", cost=0, abilities=[
        {"timing": "action", "target": {"controller": "opponent", "type": "unit"}, "effects": [{"kill": "target"}]}])
    g = two_player(snipe)
    h = to_hand(g, 0, "snipe")
    assert ("deed", h) not in g._window_options(0, -1)
    field(g, 1, "filler")
    assert ("deed", h) in g._window_options(0, -1)


def test_8_11_immune_cards_cannot_be_targeted():
    shy = card("shy", abilities=[{"timing": "static", "affects": "self", "rule": ["immune_to_opponent_effects"]}])
    snipe = card("snipe", "deed", cost=0, abilities=[
        {"timing": "action", "target": {"controller": "opponent", "type": "unit"}, "effects": [{"kill": "target"}]}])
    g = two_player(shy, snipe)
    field(g, 1, "shy")
    h = to_hand(g, 0, "snipe")
    assert ("deed", h) not in g._window_options(0, -1)


def test_8_11_cannot_beats_must_cannot_be_killed_ignores_combat_spoils():
    galahad = card("galahad", abilities=[{"timing": "static", "affects": "self", "rule": ["cannot_be_killed"]}])
    g = two_player(U4, galahad)
    a = field(g, 0, "u4")
    d = field(g, 1, "galahad")
    struggle(g, 0, COMBAT, [a])
    assert g.zone[d] == FIELD


def test_8_7_x_is_chosen_once_and_paid():
    xdeed = card("xdeed", "deed", cost="X", abilities=[
        {"timing": "action", "x": {"max": "wealth"}, "effects": [{"draw": "X"}]}])
    g = two_player(xdeed)
    g.pool[0] = 3
    h = to_hand(g, 0, "xdeed")
    seen = drive(g._play_deed(0, h, None), [("x", 2)])
    xdec = next(d for d in seen if getattr(d, "kind", None) == "x")
    assert xdec.options[-1] == ("x", 3)
    assert g.pool[0] == 1 and len(g.hand[0]) == 2


def test_8_4_halt_save_keeps_the_card_in_play():
    nimue = card("nimue", abilities=[{"timing": "halt", "when": {"event": "would_leave_play", "card": {
        "type": "unit", "not_self": True}, "how": "killed"}, "cost": [{"exhaust": "self"}],
        "effects": [{"save": "event_card"}]}])
    g = two_player(U2, nimue)
    n = field(g, 0, "nimue")
    u = field(g, 0, "u2")
    drive(g._leave([u], "killed"), [("ability", n, 0)])
    assert g.zone[u] == FIELD and g.exh[n] == 1
    drive(g._leave([u], "killed"))     # Nimue is exhausted: no second save
    assert g.zone[u] == DEAD


def test_8_4_forced_abilities_resolve_and_responses_are_once_per_event():
    bell = card("bell", "location", abilities=[
        {"timing": "forced", "when": {"event": "phase_start", "phase": "kingdom"}, "effects": [{"gain_wealth": 1}]}])
    g = two_player(bell)
    field(g, 0, "bell")
    drive(g._phase_start(2))
    assert g.pool[0] == 1


def test_8_9_lasting_power_change_expires_at_end_of_phase():
    pump = card("pump", abilities=[{"timing": "action", "cost": [{"exhaust": "self"}],
                                    "effects": [{"modify_power": 2, "who": "self", "until": "phase"}]}])
    g = two_player(pump)
    g.phase = 2
    u = field(g, 0, "pump")
    drive(g._use_ability(0, u, g.cdef[u].abilities[0], None))
    assert g.power(u) == 4
    drive(g._phase_end(2))
    assert g.power(u) == 2


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


def test_4_setup_attachment_needs_a_placed_unit_its_attach_selector_accepts():
    crown = card("crown", "attachment", cost=1, abilities=[{"timing": "attach", "target": {
        "type": "unit", "attribute": "King"}}])
    hex_ = card("hex2", "attachment", cost=1, abilities=[{"timing": "attach", "target": {
        "type": "unit", "controller": "opponent"}}])
    king = card("king", cost=2, attributes=["King"])
    d = build_deck([(FACTION, 1), (QUEST, 7), (crown, 1), (hex_, 1), (king, 1), (U2, 40)])
    g = new_game(d, None)
    c, h, k, u = (find(g, 0, x) for x in ("crown", "hex2", "king", "u2"))
    for i in (c, h, k, u):
        g._move(i, HAND, 0)
    codes = lambda chosen: {g.cdef[o[1]].code for o in g._setup_options(0, 8, 0, chosen) if o != DONE}
    assert "crown" not in codes([(u, "place", -1)])          # a plain unit is no King
    assert "crown" in codes([(k, "place", -1)])
    assert "hex2" not in codes([(k, "place", -1), (u, "place", -1)])   # no enemy unit at your setup


def test_4_setup_hidden_secret_card_uses_no_restricted_allowance():
    rs = card("rs", cost=1, keywords=["Restricted", "Secret (1)"])
    r = card("rr", cost=1, keywords=["Restricted"])
    d = build_deck([(FACTION, 1), (QUEST, 7), (rs, 1), (r, 1), (U2, 40)])
    g = new_game(d, None)
    a, b = find(g, 0, "rs"), find(g, 0, "rr")
    g._move(a, HAND, 0)
    g._move(b, HAND, 0)
    seen = drive(g._setup(), [NO, ("hide", a), ("place", b), DONE])
    assert g.zone[a] == SECRET and g.zone[b] == FIELD


def test_10_5_a_deck_with_a_single_quest_embarks_on_it_every_round():
    d = build_deck([(FACTION, 1), (QUEST, 1), (U2, 40)])
    r = play_game(d, None, seed=1)
    assert r.winner == 0 and r.rounds >= 2


def test_8_5_nested_triggers_resolve_last_in_first_out():
    herald = card("herald", "location", abilities=[
        {"timing": "response", "when": {"event": "enters_play", "card": {"type": "unit"}},
         "effects": [{"gain_wealth": 1}]}])
    maker = card("maker", abilities=[{"timing": "enters", "effects": [
        {"create_token": {"name": "Squire Token", "power": 1, "icons": ["combat"]}}]}])
    d = make_deck(herald, maker)
    g = new_game(d, d)
    g.logs = []
    field(g, 0, "herald")
    m = to_hand(g, 0, "maker")
    drive(g._enter(0, m, "played"), [("ability", find(g, 0, "herald", FIELD), 0)] * 2)
    assert g.pool[0] == 2
    uses = [line for line in g.logs if "uses" in line]
    # maker's "enters" ability runs first and creates the token; the token's enters_play window opens and
    # resolves (herald +1) before the window for the maker itself (herald +1 again)
    assert uses[0].endswith("uses Maker (enters)")
    assert [line.split("uses ")[1] for line in uses[1:]] == ["Herald (response)", "Herald (response)"]


def test_8_4_a_response_fires_once_per_occurrence():
    herald = card("herald", "location", abilities=[
        {"timing": "response", "when": {"event": "enters_play", "card": {"type": "unit"}},
         "effects": [{"gain_wealth": 1}]}])
    d = make_deck(herald, U2)
    g = new_game(d, d)
    h = field(g, 0, "herald")
    u = to_hand(g, 0, "u2")
    seen = drive(g._enter(0, u, "played"), [("ability", h, 0), ("ability", h, 0)])
    assert g.pool[0] == 1
    reacts = [x for x in seen if getattr(x, "kind", None) == "react"]
    assert len(reacts) == 1


def test_8_11_an_each_effect_with_nothing_to_act_on_cannot_be_initiated():
    night = card("night", "deed", cost=0, abilities=[
        {"timing": "action", "effects": [{"exhaust": {"each": {"controller": "opponent", "type": "unit"}}}]}])
    g = two_player(night, U2)
    h = to_hand(g, 0, "night")
    assert ("deed", h) not in g._window_options(0, -1)
    e = field(g, 1, "u2", exhausted=True)
    assert ("deed", h) not in g._window_options(0, -1)      # already exhausted: nothing would change
    g.exh[e] = 0
    assert ("deed", h) in g._window_options(0, -1)


def test_10_4_a_halted_deed_is_still_played_and_its_x_cost_stays_paid():
    xdeed = card("xdeed", "deed", cost="X", abilities=[
        {"timing": "action", "x": {"max": "wealth"}, "effects": [{"draw": "X"}]}])
    veto = card("veto", "location", abilities=[
        {"timing": "halt", "when": {"event": "card_played", "player": "opponent"}, "cost": [{"exhaust": "self"}],
         "effects": [{"cancel": "event"}]}])
    g = two_player(xdeed, veto)
    v = field(g, 1, "veto")
    g.pool[0] = 3
    h = to_hand(g, 0, "xdeed")
    drive(g._play_deed(0, h, None), [("x", 3), ("ability", v, 0)])
    assert g.pool[0] == 0 and g.zone[h] == DISCARD and len(g.hand[0]) == 0
