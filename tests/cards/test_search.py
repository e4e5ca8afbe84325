"""The search language of CONTRACTS §5: parser, database query, and the same query on card dicts."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards.models import Card
from cards.search import (
    SearchError, card_matches, filter_cards, parse_query, register_owned_resolver, search_cards,
    unregister_owned_resolver,
)

from .factories import CardFactory, card_dict, load_search_set


@pytest.fixture
def srch(db):
    return load_search_set()


def codes(q, **kwargs):
    return [c.code for c in search_cards(f"s:srch ({q})" if q else "s:srch", **kwargs)]


def code_set(q, **kwargs):
    return set(codes(q, **kwargs))


# ---- parsing -------------------------------------------------------------------------------------------
def test_empty_query_matches_everything(srch):
    assert parse_query("").root is None
    assert parse_query("   ").root is None
    assert len(codes("")) == len(srch)


def test_terms_carry_their_one_based_position_and_text():
    terms = parse_query('t:unit  "of the" -c<=2').terms
    assert [(t.key, t.op, t.position, t.text) for t in terms] == [
        ("t", ":", 1, "t:unit"), ("name", ":", 9, '"of the"'), ("c", "<=", 19, "c<=2")]


@pytest.mark.parametrize("q, position, fragment", [
    ("foo:bar", 1, 'unknown key "foo"'),
    ("t:unit zz:3", 8, 'unknown key "zz"'),
    ("c:seven", 3, 'cost must be a whole number, x or -, not "seven"'),
    ("t:unit p>big", 10, 'Power must be a whole number or x, not "big"'),
    ("t:spell", 3, 'unknown type "spell"'),
    ("f:mordor", 3, 'unknown faction "mordor"'),
    ("i:fire", 3, 'unknown icon "fire"'),
    ("k:flying", 3, 'unknown keyword "flying"'),
    ("is:shiny", 4, 'unknown property "shiny"'),
    ("legal:neutral", 7, "not neutral"),
    ("owned:maybe", 7, "owned takes yes or no"),
    ("t<unit", 1, 'type cannot be compared with "<"'),
    ("c<x", 3, "X is not a number"),
    ("c>-", 3, "– is not a number"),
    ("c>-1", 3, 'not "-1"'),
    ("c<1000", 3, "too large"),
    ("a c<", 3, '"c<" at position 3 needs a value'),
    ("(t:unit", 1, '"(" at position 1 is never closed'),
    ("t:unit)", 7, '")" at position 7 has no matching "("'),
    ("()", 1, "empty parentheses"),
    ('knight "of the', 8, "unclosed quote at position 8"),
    ("knight -", 8, '"-" at position 8 must be followed by a term'),
    ("knight or", 8, '"or" at position 8 needs a term on both sides'),
    ("a|b", 2, '"|" at position 2 must sit between two values'),
    ("t:unit|", 7, '"|" at position 7 needs a value after it'),
    ('""', 1, "empty quotes"),
    # A stray "or" (first, doubled, after "(" or "-") is an operator with a missing side, not a card name.
    ("f:camelot or or", 14, '"or" at position 14 needs a term on both sides'),
    ("or t:unit", 1, '"or" at position 1 needs a term on both sides'),
    ("(OR t:unit)", 2, '"OR" at position 2 needs a term on both sides'),
    ("-or", 2, '"or" at position 2 needs a term on both sides'),
    # A second operator: the caret goes under the value that carries it, the message names the term.
    ("c>>3", 3, '"c>>3" (position 1): ">3" at position 3 has a second operator'),
    ("t:unit c>=>3", 11, '"c>=>3" (position 8): ">3" at position 11 has a second operator'),
    ("t:<unit", 3, '"t:<unit" (position 1): "<unit" at position 3 has a second operator'),
    ("c:2|>3", 5, '">3" at position 5 has a second operator'),
])
def test_malformed_queries_name_the_term_and_its_position(q, position, fragment):
    """Key and operator errors point at the term; a malformed value points at the value (CONTRACTS §5)."""
    with pytest.raises(SearchError) as err:
        parse_query(q)
    assert err.value.position == position
    assert fragment in err.value.message
    assert "position" in err.value.message


def test_the_word_or_in_quotes_is_a_name():
    assert parse_query('"or"').terms[0].values == ("or",)
    assert parse_query("a or b").root.__class__.__name__ == "Or"


@pytest.mark.parametrize("q, hint", [
    ("t:unt", '(did you mean "unit"?)'),
    ("f:camelott", '(did you mean "camelot"?)'),
    ("k:hast", '(did you mean "haste"?)'),
    ("i:combt", '(did you mean "combat"?)'),
    ("is:uniqe", '(did you mean "unique"?)'),
    ("typ:unit", '(did you mean "type"?)'),
])
def test_near_misses_suggest_the_intended_value(q, hint):
    with pytest.raises(SearchError) as err:
        parse_query(q)
    assert hint in err.value.message


def test_or_and_minus_inside_a_value_are_values():
    # The contextual lexer reads "t:or" as a value (and then rejects it as a type), and "c:-" as cost –.
    with pytest.raises(SearchError, match='unknown type "or"'):
        parse_query("t:or")
    assert parse_query("c:-").terms[0].values == ("-",)


def test_keys_values_and_aliases_are_case_insensitive(srch):
    assert code_set("T:UNIT F:Camelot") == code_set("type:unit faction:camelot") == code_set("t:unit f:camelot")


# ---- what the database finds -----------------------------------------------------------------------------
def test_bare_words_match_the_name_anywhere_in_any_case(srch):
    assert code_set("SQUIRE") == {"srch-squire", "srch-squire-vet"}
    assert code_set('"of the"') == {"srch-squire", "srch-squire-vet", "srch-lord", "srch-destiny"}
    assert code_set("morgan's") == {"srch-knot"}


def test_all_terms_must_match(srch):
    assert code_set("squire c:2") == {"srch-squire-vet"}


def test_cost_number_x_and_dash_are_distinct(srch):
    # §2.5: a cost is a number, X or –; comparisons only see numbers.
    assert code_set("c:x") == {"srch-witch"}
    assert code_set("c:-") == {"srch-shade"}
    assert code_set("c<=1") == {"srch-squire", "srch-blade", "srch-knot"}
    assert code_set("c>=5") == {"srch-rider", "srch-keep"}
    assert code_set("c=0") == {"srch-blade"}


def test_not_equal_is_the_complement_of_equal(srch):
    everything = code_set("")
    assert code_set("c!=2") == everything - code_set("c:2")
    assert code_set("c!=2") == code_set("-c:2")
    assert "srch-quest-gold" in code_set("c!=2")  # no cost at all is "not 2"


def test_power_and_struggle_icons(srch):
    assert code_set("p>=4") == {"srch-lord", "srch-rider"}
    assert code_set("p:x") == {"srch-witch"}
    assert code_set("i:guile") == {"srch-squire-vet", "srch-shade", "srch-guard"}


def test_attributes_match_whole_attributes(srch):
    assert code_set("a:knight") == {"srch-squire", "srch-squire-vet", "srch-lord", "srch-rider"}
    assert code_set("a:kni") == set()
    assert code_set('a:"round table"') == {"srch-shade"}
    assert code_set("a:knight|spy") == {"srch-squire", "srch-squire-vet", "srch-lord", "srch-rider", "srch-shade"}


def test_keywords_by_name_with_or_without_parameter(srch):
    assert code_set("k:haste") == {"srch-lord"}
    assert code_set('k:"haste (2)"') == {"srch-lord"}
    assert code_set('k:"no attachments"') == {"srch-guard"}
    assert code_set("k:bond") == code_set("k:bound")  # Appendix B: Bond is Bound
    assert code_set("k:ravage") == {"srch-rider"}


def test_rules_text_quest_stats_loyalty_and_set(srch):
    assert code_set("x:draw") == {"srch-squire", "srch-deed", "srch-quest-gold"}
    assert code_set('x:"gain 1 wealth"') == {"srch-lord", "srch-tower"}
    assert code_set("w>=4") == {"srch-quest-gold"}
    assert code_set("m:5 sp:3 lv:8") == {"srch-quest-war"}
    assert code_set("l:1") == {"srch-tower", "srch-deed", "srch-guard"}
    assert code_set("l>=2") == {"srch-lord", "srch-witch"}
    assert search_cards("s:SRCH").count() == len(srch)


def test_is_properties(srch):
    assert code_set("is:unique") == {"srch-lord", "srch-witch"}
    assert code_set("is:bound") == {"srch-witch", "srch-tower", "srch-knot"}
    assert code_set("is:restricted") == {"srch-shade"}
    assert code_set("is:secret") == {"srch-witch"}
    assert code_set("is:haste") == {"srch-lord"}


def test_legal_follows_section_11(srch):
    # §11: own-faction and Neutral cards always; other factions' cards unless Bound (§9.3); only one's own
    # faction card.
    legal = code_set("legal:winter")
    assert {"srch-guard", "srch-fac-winter", "srch-blade", "srch-quest-gold", "srch-destiny"} <= legal
    assert {"srch-squire", "srch-lord", "srch-shade", "srch-deed", "srch-rider"} <= legal
    assert not legal & {"srch-witch", "srch-tower", "srch-knot", "srch-fac-camelot"}
    assert "srch-witch" in code_set("legal:lefay")


def test_negation_or_and_parentheses(srch):
    assert code_set("t:unit -f:camelot") == {"srch-witch", "srch-shade", "srch-guard", "srch-rider"}
    assert code_set("f:summer or f:saracen") == {"srch-deed", "srch-rider"}
    assert code_set("f:summer|saracen") == code_set("f:summer or f:saracen")
    assert code_set("t:unit (i:combat or i:guile) -i:faith") == {"srch-squire", "srch-squire-vet", "srch-shade",
                                                                 "srch-guard"}
    assert code_set("-(t:unit or t:quest) -t:faction") == {"srch-tower", "srch-blade", "srch-knot", "srch-deed",
                                                           "srch-destiny", "srch-keep"}
    # "or" binds looser than the implicit "and": a b or c == (a b) or c
    assert code_set("t:unit f:camelot or t:deed") == {"srch-squire", "srch-squire-vet", "srch-lord", "srch-deed"}


def test_compiles_to_a_single_database_query(srch):
    with CaptureQueriesContext(connection) as ctx:
        list(search_cards("t:unit (a:knight or k:haste) -f:lefay legal:camelot c<=4", sort="cost"))
    assert len(ctx.captured_queries) == 1


# ---- sorting ---------------------------------------------------------------------------------------------
def test_sort_by_cost_puts_numbers_first_then_x_and_dash(srch):
    order = codes("t:unit", sort="cost")
    # Equal costs are ordered by name: Frost Guard before Squire of the Vale.
    assert order[:5] == ["srch-squire", "srch-guard", "srch-squire-vet", "srch-lord", "srch-rider"]
    assert set(order[5:]) == {"srch-witch", "srch-shade"}  # X and – after every number (§2.5)
    assert codes("t:unit", sort="-cost")[:2] == ["srch-rider", "srch-lord"]


def test_sort_by_power_reversed_and_by_name(srch):
    powers = [Card.objects.get(code=c).power for c in codes("t:unit -p:x", sort="-power")]
    assert powers == sorted(powers, reverse=True)
    names = [Card.objects.get(code=c).name for c in codes("")]
    assert names == sorted(names)


def test_sort_by_faction_type_and_set_number(srch):
    factions = [Card.objects.get(code=c).faction.position for c in codes("", sort="faction")]
    assert factions == sorted(factions)
    types = [Card.objects.get(code=c).type for c in codes("", sort="type")]
    assert types[0] == "faction" and types[-1] == "deed"
    assert codes("", sort="set") == [c.code for c in srch]


def test_unknown_sort_is_a_search_error():
    with pytest.raises(SearchError, match='unknown sort "colour"'):
        search_cards("", sort="colour")


# ---- owned: -----------------------------------------------------------------------------------------------
def test_owned_needs_a_signed_in_user_and_a_collection(srch, django_user_model):
    with pytest.raises(SearchError, match="owned: needs you to sign in"):
        search_cards("owned:yes")
    user = django_user_model.objects.create_user("collector", password="pw-123456789")
    installed = unregister_owned_resolver()  # the collection's own resolver (decks app), put back below
    try:
        with pytest.raises(SearchError, match="no collection yet"):
            search_cards("owned:yes", user=user)
        register_owned_resolver(lambda u: {"srch-lord", "srch-blade"} if u.username == "collector" else None)
        assert code_set("owned:yes", user=user) == {"srch-lord", "srch-blade"}
        assert code_set("t:unit owned:no", user=user) == code_set("t:unit") - {"srch-lord"}
        assert card_matches("owned:yes", card_dict(srch[2]), user=user)
        assert card_matches("owned:no", card_dict(srch[0]), owned={"srch-blade"})
        other = django_user_model.objects.create_user("newcomer", password="pw-123456789")
        with pytest.raises(SearchError, match="no collection yet"):
            search_cards("owned:yes", user=other)
    finally:
        register_owned_resolver(installed)


# ---- the same query without the database -------------------------------------------------------------------
DIFFERENTIAL_QUERIES = [
    "", "squire", '"of the"', "t:unit", "t:units", "f:lefay|eleven", "c:x", "c:-", "c<=1", "c!=2", "-c:2",
    "p>=3", "p:x", "p!=2", "i:combat i:guile", "a:knight", "a:knight|spy", 'a:"round table"', "k:haste",
    'k:"no attachments"', "k:bound", "x:wealth", "l:1", "l>=2", "w>2", "m<3", "sp>=1", "lv=8", "is:unique",
    "is:bound or is:restricted", "is:secret", "is:haste", "legal:winter", "legal:lefay", "legal:camelot t:faction",
    "t:unit f:camelot or t:deed", "-(t:unit or t:quest)", "s:srch", "s:core", "n:tower",
    "t:unit (i:combat or i:guile) -i:faith",
]


@pytest.mark.parametrize("q", DIFFERENTIAL_QUERIES)
def test_card_matches_agrees_with_the_database(srch, q):
    cards = [card_dict(c) for c in srch]
    in_python = {c["code"] for c in filter_cards(q, cards)}
    assert in_python == code_set(q) if q else in_python == {c.code for c in srch}


def test_card_matches_reads_plain_contract_dicts_without_a_database():
    squire = {"code": "x", "name": "Squire", "type": "unit", "faction": "camelot", "cost": 1, "power": 1,
              "icons": ["combat"], "keywords": ["Haste (1)"], "attributes": ["Knight"]}
    assert card_matches("t:unit c<=2", squire)
    assert card_matches("k:haste is:haste a:KNIGHT legal:winter", squire)
    assert not card_matches("c>1 or i:faith", squire)
    assert not card_matches("s:core", squire)  # no set in the dict: no set matches
    with pytest.raises(SearchError):
        card_matches("c:seven", squire)


def test_factory_cards_are_searchable(db):
    CardFactory(code="fx-unique-zzz", name="Zzyzx Warden", faction="keepers", cost_value=6, power=5)
    assert [c.code for c in search_cards("zzyzx f:keepers c:6 p:5")] == ["fx-unique-zzz"]
