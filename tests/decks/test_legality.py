"""Deck legality (§2.1, §2.3, §9.3, §10.6, §11): one test per rule, with the rulebook's edge cases."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks.decklist import check_decklist_text
from decks.legality import FormatRules, check_deck, effective_cost
from decks.pool import CardPool

from .cardsets import LEGAL_BASE, small_cards

POOL = CardPool.from_cards(small_cards())


def codes(verdict, *, warnings=False):
    return [p.code for p in (verdict.warnings if warnings else verdict.errors)]


def with_destiny(deck, destiny):
    deck = dict(deck)
    del deck["des-plain"]
    deck[destiny] = 1
    return deck


def test_s11_legal_deck_has_no_errors_and_json_is_the_contract_shape(pool, legal):
    verdict = check_deck(legal, pool)
    assert verdict.legal
    data = verdict.to_json()
    assert data == {"legal": True, "errors": [], "warnings": [],
                    "counts": {"draw": 60, "quests": 7, "faction": 1, "destiny": 1},
                    "faction": "camelot", "destiny": "The Long Reign", "format": None}


@pytest.mark.parametrize("n", [0, 2])
def test_s2_1_s11_exactly_one_faction_card(pool, legal, n):
    deck = dict(legal)
    if n == 0:
        del deck["fac-camelot"]
    else:
        deck["fac-lefay"] = 1
    verdict = check_deck(deck, pool)
    assert codes(verdict) == ["faction_count"]
    assert verdict.errors[0].rule == "§2.1, §11"
    assert f"has {n}" in verdict.errors[0].message
    assert verdict.counts["faction"] == n


def test_s2_1_s11_exactly_one_destiny(pool, legal):
    deck = dict(legal, **{"des-fifty": 1})
    verdict = check_deck(deck, pool)
    assert codes(verdict) == ["destiny_count"]
    assert "The Long Reign" in verdict.errors[0].message and "The Short Road" in verdict.errors[0].message
    deck = dict(legal)
    del deck["des-plain"]
    assert codes(check_deck(deck, pool)) == ["destiny_count"]


@pytest.mark.parametrize("quests,legal_expected", [(6, False), (7, True), (8, False)])
def test_s2_1_s11_quest_deck_is_exactly_seven(pool, legal, quests, legal_expected):
    deck = {c: n for c, n in legal.items() if not c.startswith("q")}
    deck.update({f"q{i}": 1 for i in range(1, quests + 1)})
    verdict = check_deck(deck, pool)
    assert verdict.legal is legal_expected
    assert verdict.counts["quests"] == quests
    if not legal_expected:
        assert codes(verdict) == ["quest_count"]
        assert f"this one has {quests}" in verdict.errors[0].message


@pytest.mark.parametrize("draw,legal_expected", [(59, False), (60, True), (61, True)])
def test_s2_1_s11_at_least_sixty_draw_cards(pool, legal, draw, legal_expected):
    deck = dict(legal)
    if draw == 59:
        deck["u20"] = 2
    elif draw == 61:
        deck["deed1"] = 1
    verdict = check_deck(deck, pool)
    assert verdict.counts["draw"] == draw
    assert verdict.legal is legal_expected
    if not legal_expected:
        assert codes(verdict) == ["draw_count"]
        assert "add 1" in verdict.errors[0].message


def test_s2_3_s11_copy_limit_counts_name_not_subtitle(pool, legal):
    # Two cards named Gawain with different subtitles share one limit of 3 (§2.3).
    deck = dict(legal, **{"gawain-green": 2, "gawain-lot": 2})
    verdict = check_deck(deck, pool)
    assert codes(verdict) == ["copy_limit"]
    error = verdict.errors[0]
    assert error.cards == ("Gawain",)
    assert error.message.startswith("4 copies of Gawain (at most 3)")
    assert "share one name" in error.message
    assert check_deck(dict(legal, **{"gawain-green": 2, "gawain-lot": 1}), pool).legal


def test_s11_copy_limit_applies_to_quests_too(pool, legal):
    deck = {c: n for c, n in legal.items() if not c.startswith("q")}
    deck.update({"q1": 4, "q2": 3})
    assert codes(check_deck(deck, pool)) == ["copy_limit"]


def test_s9_3_s11_bound_card_only_in_its_own_faction(pool, legal):
    verdict = check_deck(dict(legal, morgause=1), pool)
    assert codes(verdict) == ["bound_off_faction"]
    assert verdict.errors[0].cards == ("Morgause",)
    assert "Le Fay's Circle" in verdict.errors[0].message and "Camelot" in verdict.errors[0].message


def test_s9_3_bound_card_legal_in_its_own_faction(pool, legal):
    deck = dict(legal, morgause=1)
    del deck["fac-camelot"]
    deck["fac-lefay"] = 1
    verdict = check_deck(deck, pool)
    assert "bound_off_faction" not in codes(verdict)
    # The Camelot units are now the off-faction ones; they have no Loyalty, so they cost nothing extra.
    assert verdict.legal


def test_s9_3_neutral_bound_card_is_always_legal(pool, legal):
    assert check_deck(dict(legal, hermit=1), pool).legal


def test_s9_3_destiny_bound_factions_permits_bound_cards(pool, legal):
    deck = with_destiny(legal, "des-alliance")
    deck["morgause"] = 1
    verdict = check_deck(deck, pool)
    assert verdict.legal
    # ... and the permitted card still pays its Loyalty when played (§9.3).
    assert codes(verdict, warnings=True) == ["loyalty_surcharge"]


def test_s9_3_bound_destiny_of_another_faction_is_illegal(pool, legal):
    verdict = check_deck(with_destiny(legal, "des-bound-lefay"), pool)
    assert codes(verdict) == ["bound_off_faction"]


def test_s9_3_off_faction_card_is_legal_with_a_loyalty_surcharge_warning(pool, legal):
    verdict = check_deck(dict(legal, spy=3, **{"deed-lefay": 1}), pool)
    assert verdict.legal
    warnings = {w.cards[0]: w for w in verdict.warnings}
    assert set(warnings) == {"Morgana's Spy", "Hex"}
    assert all(w.code == "loyalty_surcharge" and w.rule == "§9.3" for w in warnings.values())
    assert "costs 2 more" in warnings["Morgana's Spy"].message
    assert "costs 1 more" in warnings["Hex"].message  # an off-faction deed pays its Loyalty too
    assert effective_cost(pool.get("spy"), "camelot") == 4
    assert effective_cost(pool.get("spy"), "lefay") == 2


def test_s10_6_destiny_raises_the_draw_minimum(pool, legal):
    deck = with_destiny(legal, "des-seventy")
    verdict = check_deck(deck, pool)
    assert codes(verdict) == ["destiny_rule"]
    assert "at least 70" in verdict.errors[0].message and "The Endless Road" in verdict.errors[0].cards
    deck["u20"] = 2  # 59: below the rulebook's 60 as well -> reported once, as draw_count
    assert codes(check_deck(deck, pool)) == ["draw_count"]


def test_s10_6_destiny_may_lower_the_draw_minimum(pool, legal):
    deck = with_destiny(legal, "des-fifty")
    deck.update({"u19": 1, "u20": 1})  # 56 draw cards
    assert check_deck(deck, pool).legal
    deck.update({f"u{i:02d}": 1 for i in range(10, 21)})  # 38
    assert codes(check_deck(deck, pool)) == ["destiny_rule"]


def test_s10_6_destiny_max_copies(pool, legal):
    single = with_destiny(legal, "des-single")
    verdict = check_deck(single, pool)
    assert set(codes(verdict)) == {"destiny_rule"}
    assert len(verdict.errors) == 20  # every tripled unit, each named
    four = with_destiny(legal, "des-four")
    four["u01"] = 4
    assert check_deck(four, pool).legal
    four["u01"] = 5
    verdict = check_deck(four, pool)
    assert codes(verdict) == ["copy_limit"] and "at most 4" in verdict.errors[0].message


def test_s10_6_destiny_forbidden_types(pool, legal):
    deck = with_destiny(legal, "des-nodeeds")
    assert check_deck(dict(deck, loc1=1), pool).legal
    verdict = check_deck(dict(deck, deed1=2), pool)
    assert codes(verdict) == ["destiny_rule"]
    assert "Sudden Charge" in verdict.errors[0].cards


def test_s10_6_destiny_max_printed_cost_ignores_x(pool, legal):
    deck = {c: n for c, n in with_destiny(legal, "des-cheap").items()}
    verdict = check_deck(deck, pool)  # units of cost 4 and 5 are in the base deck
    assert codes(verdict) == ["destiny_rule"]
    assert "Knight 4" in verdict.errors[0].cards and "Knight 3" not in verdict.errors[0].cards
    assert "Knight of X" not in check_deck(dict(deck, xknight=1), pool).errors[0].cards


def test_s11_default_format_has_no_lists_and_names_no_format(pool, legal):
    verdict = check_deck(dict(legal, hidden=1), pool)
    assert verdict.legal and verdict.format is None


def test_s11_format_banned_list_names_the_format(pool, legal):
    fmt = FormatRules.of("Winter League", banned=["Knight 1"])
    verdict = check_deck(legal, pool, fmt)
    assert codes(verdict) == ["banned"]
    assert "Winter League" in verdict.errors[0].message
    assert verdict.to_json()["format"] == "Winter League"


def test_s11_format_restricted_list_allows_one_card_from_the_list(pool, legal):
    fmt = FormatRules.of("Winter League", restricted=["Knight 1", "Knight 2", "Round Table"])
    assert check_deck({**legal, "u02": 0} | {"u02": 3}, pool, fmt).legal is False
    one = {c: n for c, n in legal.items() if c != "u02"} | {"u21": 3}
    assert check_deck(one, pool, fmt).legal  # Knight 1 alone, three copies: fine
    verdict = check_deck(dict(one, loc1=1), pool, fmt)
    assert codes(verdict) == ["restricted_list"]
    assert set(verdict.errors[0].cards) == {"Knight 1", "Round Table"}


def test_s11_restricted_list_is_not_the_restricted_keyword(legal):
    cards = small_cards() + [{"code": "r1", "name": "Iron Crown", "type": "attachment", "faction": "camelot",
                              "cost": 1, "keywords": ["Restricted"]},
                             {"code": "r2", "name": "Gold Crown", "type": "attachment", "faction": "camelot",
                              "cost": 1, "keywords": ["Restricted"]}]
    verdict = check_deck(dict(legal, r1=3, r2=3), CardPool.from_cards(cards), FormatRules.of("Open"))
    assert verdict.legal


def test_s11_every_problem_is_reported_at_once(pool):
    deck = {"fac-camelot": 2, "q1": 4, "u01": 5, "morgause": 1}
    verdict = check_deck(deck, pool, FormatRules.of("League", banned=["Knight 1"]))
    # Two Camelot faction cards: the deck's faction is still known, so Bound is still judged.
    assert set(codes(verdict)) == {"faction_count", "destiny_count", "quest_count", "draw_count", "copy_limit",
                                   "bound_off_faction", "banned"}
    # Two different faction cards: no faction to judge Bound and Loyalty against, only the count is reported.
    deck["fac-lefay"] = 1
    verdict = check_deck(deck, pool)
    assert "bound_off_faction" not in codes(verdict) and verdict.faction is None


def test_s11_unknown_codes_and_impossible_counts_are_errors(pool, legal):
    verdict = check_deck(dict(legal, nope=1, u01=0), pool)
    assert set(codes(verdict)) == {"unknown_card", "bad_line", "draw_count"}


def test_s11_text_problems_come_first_with_line_numbers(pool):
    verdict = check_decklist_text("1x Camelot\n3x Gawian\nnonsense", pool)
    data = verdict.to_json()
    assert [e["code"] for e in data["errors"][:2]] == ["unknown_card", "bad_line"]
    assert [e["line"] for e in data["errors"][:2]] == [2, 3]
    assert not verdict.legal


# ---- properties ---------------------------------------------------------------------------------------------
QUEST_CODES = [f"q{i}" for i in range(1, 10)]
DRAW_CODES = [f"u{i:02d}" for i in range(1, 26)] + ["deed1", "loc1", "att1", "spy"]
COUNT_CODE = {"faction": "faction_count", "destiny": "destiny_count", "quest": "quest_count",
              "unit": "draw_count", "location": "draw_count", "attachment": "draw_count", "deed": "draw_count"}

decks = st.fixed_dictionaries({
    "fac-camelot": st.integers(0, 2), "des-plain": st.integers(0, 2),
}).flatmap(lambda base: st.tuples(
    st.just(base),
    st.dictionaries(st.sampled_from(QUEST_CODES), st.integers(1, 3), max_size=9),
    st.dictionaries(st.sampled_from(DRAW_CODES), st.integers(1, 3), min_size=15, max_size=29),
)).map(lambda t: {k: v for k, v in {**t[0], **t[1], **t[2]}.items() if v})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=decks, added=st.sampled_from(["fac-camelot", "des-plain", *QUEST_CODES, *DRAW_CODES]))
def test_s11_property_adding_a_card_never_makes_an_illegal_by_count_deck_legal_unless_it_fixes_the_count(
        deck, added):
    before = check_deck(deck, POOL)
    after = check_deck(dict(deck, **{added: deck.get(added, 0) + 1}), POOL)
    count_codes = set(COUNT_CODE.values())
    before_counts = {c for c in codes(before) if c in count_codes}
    fixed_by_added = COUNT_CODE[POOL.get(added)["type"]]
    if before_counts and after.legal:
        assert before_counts == {fixed_by_added}
    # A count problem of another part of the deck is never touched by this card.
    after_counts = {c for c in codes(after) if c in count_codes}
    assert before_counts - {fixed_by_added} == after_counts - {fixed_by_added}


@settings(max_examples=40, deadline=None)
@given(deck=decks, data=st.data())
def test_s11_property_verdict_does_not_depend_on_line_order(deck, data):
    from decks.decklist import export_decklist

    lines = [line for line in export_decklist(deck, POOL).splitlines() if line and not line.endswith(":")]
    shuffled = data.draw(st.permutations(lines))
    assert (check_decklist_text("\n".join(shuffled), POOL).to_json()
            == check_decklist_text("\n".join(lines), POOL).to_json() == check_deck(deck, POOL).to_json())


def test_base_deck_constant_is_legal():
    assert check_deck(LEGAL_BASE, POOL).legal
