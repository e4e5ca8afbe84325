"""The fixed greedy player against greedy-v1 on constructed positions: each test is a situation where
one of greedy-v1's blind spots shows, and checks both what the fixed player does and that greedy-v1 did not."""
from simulator.engines.r1 import build_deck
from simulator.engines.r1.game import GUILE, KINGDOM_P, Decision
from simulator.engines.r1.policies import POLICIES, GreedyPolicy, GreedyV1Policy, make_policy, setup_budget

from .helpers import (
    FACTION, QUEST, card, field, load, logged, make_deck, new_game, play, policy_turn, position, side, to_hand,
    two_player,
)


def run_struggle(pos, cards, t, attackers, defender_policy):
    """Player 0 attacks with `attackers` (labels or codes) in a struggle of type t from the position `pos`;
    player 1's every decision comes from `defender_policy.choose` (windows included), player 0 passes its
    windows. The game at the struggle's end."""
    g = play(load(pos, cards), f"struggle {t}", "attack " + " ".join(attackers))
    while g.pending is not None:
        d = g.pending
        if d.kind == "boundary":
            if d.info[0] == "struggle":
                break
            g.apply_action(d.options[0])
        elif d.player == 1:
            g.apply_action(defender_policy.choose(g.view(1), d))
        else:
            g.apply_action(("pass",) if d.kind in ("window", "react") else d.options[0])
    return g


def exhausted(g, p, code) -> list[bool]:
    """Whether each of player p's `code` cards in the field is exhausted (read from the player's view)."""
    v = g.view(p)
    return [bool(v.exh[i]) for i in v.field[p] if v.cdef[i].code == code]


def test_greedy_v1_is_kept_under_its_own_name():
    assert POLICIES["greedy-v1"] is GreedyV1Policy and isinstance(make_policy("greedy-v1"), GreedyV1Policy)
    assert isinstance(make_policy("greedy"), GreedyPolicy) and make_policy("greedy").name == "greedy"


A4, D1 = card("a4", power=4, icons=["guile"]), card("d1", power=1, icons=["guile"])


def chump(me_pool=5, them=("d1",), them_pool=0, pol=None):
    """a4 attacks d1 in a Guile struggle; with 5 wealth the Authority claim is the attacker's either way (§5.5):
    exhausting d1 costs nothing."""
    return run_struggle(position(side(["a4"], pool=me_pool), side(list(them), pool=them_pool)), [A4, D1], "guile",
                        ["a4"], pol or GreedyPolicy())


def test_greedy_chump_defends_to_deny_the_unopposed_influence():
    g = chump()
    assert exhausted(g, 1, "d1") == [True]     # it defended with the 1-Power unit, though 1 cannot beat 4
    assert g.influence(0) == 0                 # §6.2 S.10: no unopposed Influence for the attacker

    g = chump(pol=GreedyV1Policy())
    assert exhausted(g, 1, "d1") == [False] and g.influence(0) == 1     # greedy-v1 let it through unopposed


def test_greedy_keeps_its_defender_when_exhausting_it_gives_away_authority():
    g = chump(me_pool=0, them=("d1", "d1"))    # Authority 2 vs 0 is ours; a second unit keeps it 1 vs 0
    assert g.influence(0) == 0                 # still worth it: the claim stays ours

    g = chump(me_pool=0)                       # d1 is our only Power: chumping makes Authority a 0-0 tie
    assert exhausted(g, 1, "d1") == [False] and g.influence(0) == 1


def test_greedy_defends_to_deny_a_winning_faith_struggle():
    a5, d3 = card("a5", power=5, icons=["faith"]), card("d3", power=3, icons=["faith"])
    # Faith spoils 1 moves 1 (13 -> 14) and unopposed +1 would make 15
    g = run_struggle(position(side(["a5"], influence=13), side(["d3", "d3"], influence=4)), [a5, d3], "faith",
                     ["a5"], GreedyPolicy())
    assert exhausted(g, 1, "d3") == [True, True]    # 3 + 3 beats 5: both defend
    assert g.winner is None and g.influence(0) == 13 and g.influence(1) == 4


def test_greedy_sends_the_weakest_unit_into_an_empty_defence():
    big, small = card("big", power=5, icons=["combat"]), card("small", power=1, icons=["combat", "guile"])
    # only Combat is left to initiate this turn (the contract's "struggles_made")
    pos = position(side(["big", "small"]), side(), struggles_made=["guile", "sorcery", "faith"])

    def first_attack(pol):
        return logged(policy_turn(pos, [big, small], (pol, GreedyPolicy())), "S.3 player 0 declares")
    assert first_attack(GreedyPolicy())[0].endswith(" with Small")    # §5.5: keep the 5 Power for Authority
    assert first_attack(GreedyV1Policy())[0].endswith(" with Big")    # greedy-v1 chose by fewest icons


def test_greedy_pumps_a_participant_not_a_bystander():
    trial = card("trial", "deed", cost=2, abilities=[
        {"timing": "action", "phase": "struggle", "target": {"type": "unit", "controller": "you"},
         "effects": [{"modify_power": 3, "who": "target", "until": "struggle"}]}])
    g = two_player(card("a3", power=3, icons=["guile"]), card("big", power=6, icons=["combat"]),
                   card("d4", power=4, icons=["guile"]), trial)
    att = field(g, 0, "a3")
    field(g, 0, "big")                     # a stronger unit outside the struggle: greedy-v1's favourite target
    to_hand(g, 0, "trial")
    g.pool[0] = 2
    from simulator.engines.r1.game import Struggle
    s = Struggle(GUILE, 0)
    s.attackers = [att]
    s.defenders = [field(g, 1, "d4")]
    g.struggle = s
    targets = [("target", i) for i in g.field[0]]
    a = GreedyPolicy().choose(g.view(0), Decision("target", 0, targets, (g.hand[0][0], False)))
    assert a == ("target", att)
    assert GreedyV1Policy().choose(g.view(0), Decision("target", 0, targets, (g.hand[0][0], False))) != ("target", att)


def secret_game():
    dash = card("dash", cost="-", power=3, icons=["guile"], keywords=["Secret (2)"])
    g = two_player(dash, card("d2", power=2, icons=["guile"]))
    return g


def test_greedy_secret_places_a_dash_card_in_its_kingdom_turn():
    g = secret_game()
    i = to_hand(g, 0, "dash")
    g.pool[0] = 3
    g.phase = KINGDOM_P
    opts = g._window_options(0, KINGDOM_P)
    assert ("secret", i) in opts
    assert GreedyPolicy().choose(g.view(0), Decision("window", 0, opts, KINGDOM_P)) == ("secret", i)
    assert GreedyV1Policy().choose(g.view(0), Decision("window", 0, opts, KINGDOM_P)) != ("secret", i)


def test_greedy_reveals_a_secret_unit_as_a_surprise_defender():
    dash = card("dash", cost="-", power=3, icons=["guile"], keywords=["Secret (2)"])
    d2 = card("d2", power=2, icons=["guile"])
    pos = position(side(["d2", "d2"], pool=9), side(secret=["dash"], pool=2))
    g = run_struggle(pos, [dash, d2], "guile", ["d2"], GreedyPolicy())
    assert logged(g, "§10.9 player 1 reveals")                # revealed at S.5 ...
    assert exhausted(g, 1, "dash") == [True]                  # ... then declared at S.6 (3 beats 2)
    assert g.influence(0) == 0


def test_greedy_plans_setup_with_the_destinys_bonus_budget():
    vow = card("vow", "destiny", faction="neutral", name="Vow", abilities=[
        {"timing": "static", "affects": "you", "modify": {"setup_budget": 2}}])
    five = card("five", cost=5, power=5, icons=["combat"])
    d = make_deck((five, 10), destiny=vow)
    g = new_game(d, None)
    g._statics_cache = None
    for _ in range(2):
        to_hand(g, 0, "five")
    assert setup_budget(g.view(0), 0) == 10
    plan = GreedyPolicy()._plan_setup(g.view(0), 0)
    assert len([a for a in plan if a[0] == "place"]) == 2        # 5 + 5 fits in 10, not in 8
    assert len(GreedyV1Policy()._plan_setup(g.view(0), 0)) == 1


def test_greedy_hides_a_secret_card_with_spare_setup_budget():
    sec = card("sec", cost=1, power=1, icons=["guile"], keywords=["Secret (1)"])
    four = card("four", cost=4, power=4, icons=["combat"])
    d = build_deck([(FACTION, 1), (QUEST, 7), (sec, 5), (four, 40)])
    g = new_game(d, None)
    f = to_hand(g, 0, "four")
    s1, s2 = to_hand(g, 0, "sec"), to_hand(g, 0, "sec")
    plan = GreedyPolicy._add_hides(g.view(0), 0, [("place", f), ("place", s1)], 8)   # 5 of 8 used: 3 left
    assert plan == [("place", f), ("place", s1), ("hide", s2)]             # §4: hiding costs 1 + 2
    assert GreedyPolicy._add_hides(g.view(0), 0, [("place", f), ("place", s1)], 7) == [("place", f), ("place", s1)]


def test_greedy_makes_the_opponent_first_player_unless_it_can_close_the_game():
    g = two_player(card("u", power=2))
    dec = Decision("first_player", 0, [("first", 0), ("first", 1)])
    assert GreedyPolicy().choose(g.view(0), dec) == ("first", 1)     # §5.1: the second player attacks last
    assert GreedyV1Policy().choose(g.view(0), dec) == ("first", 0)
    g.infl[0], g.infl[1] = 13, 9
    assert GreedyPolicy().choose(g.view(0), dec) == ("first", 0)     # 13 of 15: attack first and finish it


def test_greedy_takes_the_quest_whose_embark_gains_influence_near_the_end():
    wed = card("wed", "quest", name="Wedding", wealth=3, momentum=1, spoils=1, levy=6,
               abilities=[{"timing": "embark", "effects": [{"gain_influence": 1}]}])
    tax = card("tax", "quest", name="Tax", wealth=4, momentum=1, spoils=1, levy=6)
    d = make_deck(card("u", power=2), quests=[wed, tax, tax, tax, tax, tax, tax])
    g = new_game(d, d)
    g.infl[0] = 14                           # §1.1: the Embark Influence wins the game
    opts = [("quest", q) for q in g.qdeck[0]]
    a = GreedyPolicy().choose(g.view(0), Decision("quest", 0, opts))
    assert g.cdef[a[1]].name == "Wedding"
    assert g.cdef[GreedyV1Policy().choose(g.view(0), Decision("quest", 0, opts))[1]].name == "Tax"
