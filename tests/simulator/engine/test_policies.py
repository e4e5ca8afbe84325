"""The greedy policy's rules of thumb, pinned on small positions."""
from simulator.engine.game import COMBAT, CONFRONT_P, DONE, FAITH, GUILE, Decision
from simulator.engine.policies import GreedyPolicy, RandomPolicy

from .helpers import card, drive, field, make_deck, new_game, to_hand
from .helpers import two_player

ALL = ["combat", "guile", "sorcery", "faith"]


def confrontation_turn(g, p=0):
    """Drive player p's Confrontation window (§5.4) with the greedy policy."""
    pol = GreedyPolicy()
    g.fast_pass = [pol.wants_window, pol.wants_window]
    g.ability_filter = [pol.ability_filter, pol.ability_filter]
    g.active = p
    g.phase = CONFRONT_P
    drive(g._action_window(p, CONFRONT_P), default=lambda dec: pol.choose(g.view(dec.player), dec))


def test_greedy_spreads_single_attackers_across_struggles_against_an_empty_defence():
    g = two_player(card("u3", power=3, icons=ALL))
    units = [field(g, 0, "u3") for _ in range(3)]
    declared = []

    def observe(game, what, s):
        if what == "struggle_end":
            declared.append((s.type, list(s.declared_attackers)))
    g.observer = observe
    confrontation_turn(g)
    assert len(declared) == 3                      # one struggle per ready unit
    assert all(len(att) == 1 for _, att in declared)
    assert {a[0] for _, a in declared} == set(units)
    assert g.influence(0) == 3                     # three unopposed wins


def test_greedy_attacks_with_the_fewest_units_that_reach_the_possible_defence():
    g = two_player(card("a3", power=3, icons=["combat"]), card("a2", power=2, icons=["combat"]),
                   card("d5", power=5, icons=["combat"]))
    a, b = field(g, 0, "a3"), field(g, 0, "a3")
    c = field(g, 0, "a2")
    field(g, 1, "d5")
    g.pool[1] = 9            # Authority is the opponent's anyway (§5.5), so attacking costs none
    pol = GreedyPolicy()
    t = pol._plan_struggle(g.view(0), 0, [COMBAT])
    assert t == COMBAT and len(pol.attack_plan) == 2 and c in pol.attack_plan   # 3 + 2 reaches 5: two units


def test_greedy_keeps_a_won_authority_claim_rather_than_a_small_struggle():
    g = two_player(card("a3", power=3, icons=["combat"]), card("d5", power=5, icons=["combat"]))
    field(g, 0, "a3")
    field(g, 0, "a3")
    field(g, 1, "d5")       # Authority 6 vs 5 is ours; attacking with both (6 >= 5) would hand it over
    assert GreedyPolicy()._plan_struggle(g.view(0), 0, [COMBAT]) is None


def test_greedy_does_not_attack_what_it_cannot_beat():
    g = two_player(card("a2", power=2, icons=["faith"]), card("d5", power=5, icons=["faith"]))
    field(g, 0, "a2")
    field(g, 1, "d5")
    assert GreedyPolicy()._plan_struggle(g.view(0), 0, [FAITH]) is None


def test_greedy_defends_with_the_fewest_units_that_win_and_not_at_all_when_it_cannot():
    g = two_player(card("a4", power=4, icons=["guile"]), card("d3", power=3, icons=["guile"]),
                   card("d2", power=2, icons=["guile"]))
    att = field(g, 0, "a4")
    d3, d2, d2b = field(g, 1, "d3"), field(g, 1, "d2"), field(g, 1, "d2")
    pol = GreedyPolicy()
    chosen = []

    def defend(dec):
        if dec.kind == "attackers":
            return ("attacker", att) if ("attacker", att) in dec.options else DONE
        a = pol.choose(g.view(dec.player), dec)
        if dec.kind == "defenders" and a != DONE:
            chosen.append(a[1])
        return a
    drive(g._struggle(0, GUILE), default=defend)
    assert sum(g.cdef[i].power for i in chosen) > 4 and len(chosen) == 2   # 3 + 2 beats 4; ties go to the attacker

    g2 = two_player(card("a9", power=9, icons=["guile"]), card("d3", power=3, icons=["guile"]))
    att2 = field(g2, 0, "a9")
    field(g2, 1, "d3")
    drive(g2._struggle(0, GUILE), default=lambda dec: ("attacker", att2) if ("attacker", att2) in
          dec.options else pol.choose(g2.view(dec.player), dec))
    assert all(g2.exh[i] == 0 for i in g2.field[1])    # 3 cannot beat 9: it keeps its unit for Authority


def test_greedy_takes_the_quest_with_more_wealth_when_its_hand_is_expensive():
    rich = card("rich", "quest", name="Rich", wealth=6, momentum=0, spoils=1, levy=5)
    bold = card("bold", "quest", name="Bold", wealth=2, momentum=2, spoils=2, levy=5)
    d = make_deck(card("big", cost=6, power=6), quests=[rich, bold, rich, bold, rich, bold, rich])
    g = new_game(d, None)
    for _ in range(3):
        to_hand(g, 0, "big")
    opts = [("quest", q) for q in g.qdeck[0]]
    a = GreedyPolicy().choose(g.view(0), Decision("quest", 0, opts))
    assert g.cdef[a[1]].name == "Rich"


def test_random_policy_is_reproducible_from_its_seed():
    opts = [("x", n) for n in range(10)]
    dec = Decision("x", 0, opts)
    a = [RandomPolicy(7).choose(None, dec) for _ in range(3)]
    r = RandomPolicy(7)
    b = [r.choose(None, dec) for _ in range(5)]
    assert a[0] == b[0] and all(x in opts for x in b)
