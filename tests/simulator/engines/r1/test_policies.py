"""The greedy policy's rules of thumb, pinned on small positions."""
from simulator.engines.r1.game import Decision
from simulator.engines.r1.policies import GreedyPolicy, RandomPolicy

from .helpers import card, load, logged, make_deck, new_game, play, policy_turn, position, side, to_hand

ALL = ["combat", "guile", "sorcery", "faith"]


def greedy_turn(me, them, cards, pol=None):
    """Player 0's Confrontation turn (§5.4) of the position `me` vs `them`, both players greedy."""
    return policy_turn(position(me, them), cards, (pol or GreedyPolicy(), GreedyPolicy()))


def attacks(g) -> list[str]:
    """The S.3 lines of player 0's declarations."""
    return logged(g, "S.3 player 0 declares")


def defend_with(g, pol):
    """Run the struggle player 0 declared in `g` to its end: player 1's every decision from `pol.choose` (its
    public API), player 0 passing its windows."""
    while g.pending is not None:
        d = g.pending
        if d.kind == "boundary":
            if d.info[0] == "struggle":
                return g
            g.apply_action(d.options[0])
        elif d.player == 1:
            g.apply_action(pol.choose(g.view(1), d))
        else:
            g.apply_action(("pass",) if d.kind in ("window", "react") else d.options[0])
    return g


def test_greedy_spreads_single_attackers_across_struggles_against_an_empty_defence():
    u3 = card("u3", power=3, icons=ALL)
    g = greedy_turn(side([{"card": "u3", "id": l} for l in "abc"]), side(), [u3])
    declared = attacks(g)
    assert len(declared) == 3                      # one struggle per ready unit, one unit each
    assert all(line.endswith(" with U3") for line in declared)
    v = g.view(0)
    assert [v.exh[i] for i in v.field[0]] == [1, 1, 1]      # so each of the three attacked once
    assert g.influence(0) == 3                     # three unopposed wins (S.10)


A3, A2, D5 = card("a3", power=3, icons=["combat"]), card("a2", power=2, icons=["combat"]), \
    card("d5", power=5, icons=["combat"])


def test_greedy_attacks_with_the_fewest_units_that_reach_the_possible_defence():
    # Authority is the opponent's anyway (its 9 wealth, §5.5), so attacking costs none
    g = greedy_turn(side(["a3", "a3", "a2"]), side(["d5"], pool=9), [A3, A2, D5])
    first = attacks(g)[0]
    assert sorted(first.split(" with ")[1].split(", ")) == ["A2", "A3"]     # 3 + 2 reaches 5: two units


def test_greedy_keeps_a_won_authority_claim_rather_than_a_small_struggle():
    # Authority 6 vs 5 is ours; attacking with both (6 >= 5) would hand it over
    g = greedy_turn(side(["a3", "a3"]), side(["d5"]), [A3, D5])
    assert not attacks(g)


def test_greedy_does_not_attack_what_it_cannot_beat():
    a2, d5 = card("a2", power=2, icons=["faith"]), card("d5", power=5, icons=["faith"])
    g = greedy_turn(side(["a2"]), side(["d5"]), [a2, d5])
    assert not attacks(g)


def test_greedy_defends_with_the_fewest_units_that_win_and_not_at_all_when_it_cannot():
    a4, d3, d2 = (card(c, power=n, icons=["guile"]) for c, n in (("a4", 4), ("d3", 3), ("d2", 2)))
    g = play(load(position(side(["a4"]), side(["d3", "d2", "d2"])), [a4, d3, d2]), "struggle guile", "attack a4")
    defend_with(g, GreedyPolicy())
    line = logged(g, "S.6 player 1 defends with")[0]
    assert sorted(line.split(" with ")[1].split(", ")) == ["D2", "D3"]    # 3 + 2 beats 4 (ties go to the attacker)
    assert logged(g, "S.8 Guile: 4 vs 5, defender wins")

    a9 = card("a9", power=9, icons=["guile"])
    g = play(load(position(side(["a9"]), side(["d3"])), [a9, d3]), "struggle guile", "attack a9")
    defend_with(g, GreedyPolicy())
    assert not logged(g, "S.6") and logged(g, "S.8 Guile: 9 vs 0")   # 3 cannot beat 9: kept for Authority


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
