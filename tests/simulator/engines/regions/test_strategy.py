"""The strategy format (docs/games/regions.md, "Strategies"): parsing, errors with line and column, what the rules
mean when a strategy plays."""
from __future__ import annotations

import pytest

from simulator.engines.regions import (
    CardSet, Game, StrategyError, StrategyPolicy, parse_strategy, shipped_strategies,
)
from simulator.engines.regions.game import A_BUY, A_PLACE

from .helpers import CS, load

HEAD = "hero: Corin Vale\n"
SEAMUS = "hero: Seamus\n"          # the test set's Hero (tests/.../helpers.py)


@pytest.mark.parametrize("text, line, column, message", [
    ("buy:\n  Silver\n", 1, 1, "needs a 'hero: NAME' line"),
    ("hero: Corin Vael\nbuy:\n  Silver\n", 1, 7, "unknown Hero 'Corin Vael' (did you mean 'Corin Vale'?)"),
    (HEAD + "buy:\n  Silvr if goods >= 2\n", 3, 3, "unknown card or card type 'Silvr' (did you mean 'Silver'?)"),
    (HEAD + "buy:\n  Silver if gods >= 2\n", 3, 13, "unknown variable 'gods' (did you mean 'goods'?)"),
    (HEAD + "buy:\n  Silver if goods >=\n", 3, 21, "the condition ends too early"),
    (HEAD + "buy:\n  Silver if goods 5\n", 3, 19, "expected a comparison such as 'goods >= 5'"),
    (HEAD + "buy:\n  Silver if (goods >= 2\n", 3, 24, "missing ')'"),
    (HEAD + "buy:\n  Silver if goods >= 2 turn < 3\n", 3, 24, "unexpected 'turn' after the condition"),
    (HEAD + "buy:\n  Silver if count(Silvr) < 2\n", 3, 19, "unknown card or card type 'Silvr'"),
    (HEAD + "buy:\n  Silver if\n", 3, 12, "'if' needs a condition"),
    (HEAD + "place:\n  citizen\n", 3, 10, "a place rule says where"),
    (HEAD + "place:\n  citizen at Gig Harbor\n", 3, 14, "unknown Region 'Gig Harbor' (did you mean 'Gig Harbour'?)"),
    (HEAD + "place:\n  Silver at empty\n", 3, 3, "Silver never goes into a Stack (003 §5.3)"),
    (HEAD + "buy:\n  Silver at empty\n", 3, 10, "'at' places a card: it belongs in place: or use: rules"),
    (HEAD + "  Silver\n", 2, 3, "a rule outside a section"),
    (HEAD + "bye:\n  Silver\n", 2, 1, "unknown header 'bye' (did you mean 'buy'?)"),
    (HEAD + "buy:\n  Silver\nbuy:\n  Goods\n", 4, 1, "the buy: section appears twice"),
    (HEAD, 1, 1, "no buy: or place: rules"),
    (HEAD + "use:\n  Silver\n", 3, 3, "Silver has no Hand ability to use"),
    (HEAD + "hero: Asha Thorne\nbuy:\n  Silver\n", 2, 1, "hero: is given twice (first on line 1)"),
])
def test_errors_name_line_and_column(text, line, column, message):
    with pytest.raises(StrategyError) as exc:
        parse_strategy(text)
    first = exc.value.errors[0]
    assert (first.line, first.column) == (line, column), str(exc.value)
    assert message in first.message
    assert str(exc.value).startswith(f"line {line}, column {column}: ")
    assert exc.value.as_json()[0] == {"line": line, "column": column, "message": first.message}


def test_every_problem_is_reported_not_just_the_first():
    with pytest.raises(StrategyError) as exc:
        parse_strategy("hero: Nobody\nbuy:\n  Silvr\n  Goods if tunr > 1\nplace:\n  citizen at Atlantis\n")
    assert [e.line for e in exc.value.errors] == [1, 3, 4, 6]


def test_comments_blank_lines_one_line_sections_and_case():
    s = parse_strategy("# a comment\nNAME: Tiny\nHero: corin vale   // trailing\n\nBUY:\n  silver  # cheap\n"
                       "pocket: Recognition, tactic\n")
    assert s.name == "Tiny" and s.hero.name == "Corin Vale"
    assert [r.text for r in s.buy] == ["silver"]
    assert [r.selector.text for r in s.pocket] == ["Recognition", "tactic"]


def test_shipped_strategies_parse_and_cover_the_heroes():
    ss = shipped_strategies()
    assert {"big-money", "recognition-rush", "region-control", "worker-engine", "wide-board"} <= set(ss)
    assert {s.hero.name for s in ss.values()} == {h.name for h in CardSet.default().heroes}
    for s in ss.values():
        assert s.buy and s.place and s.summary()["hero"] == s.hero.name


def _cond(expr: str):
    return parse_strategy(HEAD + f"buy:\n  Silver if {expr}\n").buy[0].cond


def test_conditions_read_the_players_view():
    g = load([{"hand": ["hr-003", "hr-003", "t-coin"], "deck": ["t-coin"] * 5, "stacks": {"hr-053": ["t-lyla"]}},
              {"deck": ["t-finn-coin"] * 8}], phase="purchase", step="window", turn=4)
    g.bank[0] = 1
    cs = g.cs
    v = g.view(0)   # conditions read the player's view, as the policy hands it to them

    def strat(text, cs):
        return parse_strategy(text.replace(HEAD, SEAMUS), cs)

    env = {"goods": 6, "turn": 4, "regions": 1, "hand": 3, "deck": 5, "pile": 10, "players": 2, "level": 1}
    for var, value in env.items():
        cond = strat(HEAD + f"buy:\n  Silver if {var} == {value}\n", cs).buy[0].cond
        assert cond(v, 0), var
    assert strat(HEAD + "buy:\n  Silver if count(Silver) == 2 and count(supplies) == 9\n", cs).buy[0].cond(v, 0)
    assert strat(HEAD + "buy:\n  Silver if inhand(Silver) = 2 and stack(Ios) = 1 and opp_stack(Ios) = 0\n",
                 cs).buy[0].cond(v, 0)
    assert strat(HEAD + "buy:\n  Silver if (count(Silver) + 1) * 2 >= goods or not turn < 5\n", cs).buy[0].cond(v, 0)
    assert not strat(HEAD + "buy:\n  Silver if not (goods > 1 and turn > 1)\n", cs).buy[0].cond(v, 0)
    assert strat(HEAD + "buy:\n  Silver if lead == score - opp_score and -1 < 0\n", cs).buy[0].cond(v, 0)


def test_buy_rules_are_read_in_order_after_every_purchase():
    strat = parse_strategy(SEAMUS + "buy:\n  Worker if count(Worker) < 1\n  Silver\n", CS)
    g = load([{"hand": ["hr-003"] * 4, "deck": ["t-coin"] * 5}, {"deck": ["t-finn-coin"] * 8}], phase="purchase",
             step="window")
    pol = StrategyPolicy(strat)
    assert pol.act(g, g.pending) == (A_BUY, 3)                  # Worker first (3 Goods of 8)
    g.apply_action(pol.act(g, g.pending))
    assert g.action_text(pol.act(g, g.pending)) == "buy Silver"  # then the first rule no longer holds


def test_a_type_rule_buys_the_dearest_card_of_that_type_it_can_afford():
    strat = parse_strategy(SEAMUS + "buy:\n  citizen\n", CS)
    g = load([{"hand": ["hr-003"], "deck": ["t-coin"] * 5}, {"deck": ["t-finn-coin"] * 8}], phase="purchase",
             step="window", market_piles=[["t-jarl"], ["t-cassian"], ["t-lyla"], []])
    assert g.action_text(StrategyPolicy(strat).act(g, g.pending)) == "buy Jarl"       # 2 Goods: Jarl (2) > Lyla (1)
    g.hand[0].append(g.cs.by_code["t-coin"])
    # 3 Goods: Cassian and the Worker cost 3; on a tie the standing pile comes first
    assert g.action_text(StrategyPolicy(strat).act(g, g.pending)) == "buy Worker"


def test_place_rules_pick_the_first_region_word_that_applies():
    strat = parse_strategy(SEAMUS + "place:\n  Jarl at contested, empty\n  citizen at Pinehurst\n", CS)
    g = load([{"hand": ["t-lyla", "t-jarl"], "deck": ["t-coin"] * 5, "stacks": {"hr-050": ["t-lyla"]}},
              {"deck": ["t-finn-coin"] * 8, "stacks": {"hr-052": ["t-jarl", "t-jarl"]}}], phase="position",
             step="window")
    pol = StrategyPolicy(strat)
    assert g.action_text(pol.act(g, g.pending)) == "place Lyla at Pinehurst"
    g.apply_action(pol.act(g, g.pending))
    assert pol.act(g, g.pending) == (A_PLACE, g.cs.by_code["t-jarl"].index, 2)   # where the opponent is


def test_quest_word_finds_the_region_a_placement_completes():
    strat = parse_strategy(SEAMUS + "place:\n  citizen at quest, any\n", CS)
    g = load([{"hand": ["t-lyla"], "deck": ["t-coin"] * 5, "stacks": {"hr-052": ["t-jarl"] * 3}},
              {"deck": ["t-finn-coin"] * 8}], phase="position", step="window")
    assert g.action_text(StrategyPolicy(strat).act(g, g.pending)) == "place Lyla at Mangan's Landing"


def test_pocket_rules_keep_what_they_rank_and_take_the_rest_in_one_action():
    strat = parse_strategy(SEAMUS + "buy:\n  Recognition\n  Silver\npocket:\n  Recognition\n", CS)
    g = load([{"hand": ["hr-003"] * 4, "deck": ["t-coin"] * 5, "discard": ["hr-006"] * 9},
              {"deck": ["t-finn-coin"] * 8}], phase="purchase", step="window", recognition_pile=1)
    pol = StrategyPolicy(strat)
    while g.pending.kind == "purchase":
        g.apply_action(pol.act(g, g.pending))
    assert sorted(c.name for c in g.pocket[0]) == ["Goods", "Recognition", "Silver"]
    assert g.pending.kind == "pocket"
    assert g.action_text(pol.act(g, g.pending)) == "take Silver"   # only this phase's purchases move (003 §4.2)
    g.apply_action(pol.act(g, g.pending))
    assert g.pending.kind == "pocket" and g.action_text(pol.act(g, g.pending)) == "done"   # Recognition stays
    g.apply_action(pol.act(g, g.pending))
    assert g.pending.kind == "capacity"                             # the Goods from before must make room
    assert g.action_text(pol.act(g, g.pending)) == "take Goods"
    g.apply_action(pol.act(g, g.pending))
    assert [c.name for c in g.pocket[0]] == ["Recognition"]


def test_policies_are_handed_the_players_view_which_hides_the_rest():
    from simulator.engines.regions import CardSet, Game, PlayerView, StrategyPolicy, shipped_strategy
    from simulator.engines.regions.view import HiddenInfo

    cs = CardSet.default()
    strat = shipped_strategy("big-money", cs)
    pols = [StrategyPolicy(strat, 1), StrategyPolicy(strat, 2)]
    g = Game(cs, [strat.hero.code, strat.hero.code], seed=3)
    handed = []

    def actor(view, d):
        handed.append(view)
        assert isinstance(view, PlayerView) and view.player == d.player
        with pytest.raises(HiddenInfo):
            view.hand[1 - d.player]
        return pols[d.player].act(view, d)

    g.play([actor, actor], [pols[0].skip, pols[1].skip])
    assert g.is_terminal() and len(handed) > 20 and not any(isinstance(v, Game) for v in handed)
