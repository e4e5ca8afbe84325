"""Fuzzing the search parser ("Bad input"): any text either searches or raises SearchError, and the
database and card_matches always agree on generated queries."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card
from cards.search import SearchError, card_matches, compile_q, parse_query, search_cards

from .factories import card_dict, load_search_set

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# Pieces that steer random text towards the parser's corners.
TOKENS = st.sampled_from([
    "t:", "f:", "c", "p", "<=", ">=", "!=", "<", ">", "=", ":", "-", "|", "(", ")", '"', " ", "or", "OR", "x", "–",
    "is:", "legal:", "owned:", "k:", "a:", "unit", "camelot", "haste", "2", "999", "1000", "s:", "sp", "lv",
    "\\", "%", "_", "'", "é", "\x00", "\n", "\t", "knight",
])
QUERY_TEXT = st.one_of(st.text(max_size=60), st.lists(TOKENS, max_size=14).map("".join))


@given(QUERY_TEXT)
@FUZZ
def test_parser_raises_nothing_but_search_error(q):
    try:
        query = parse_query(q)
    except SearchError as e:
        assert 1 <= e.position <= len(q) + 1, (q, e.position)
        assert e.message
        return
    compile_q(query)
    card_matches(query, {"code": "c", "name": "N", "type": "unit", "faction": "camelot"})


@given(QUERY_TEXT)
@FUZZ
def test_database_search_raises_nothing_but_search_error(db, q):
    try:
        search_cards(q).count()
    except SearchError:
        pass


# ---- differential: generated valid queries, database vs card_matches ---------------------------------------
VALUES = {
    "t": st.sampled_from(["unit", "location", "attachment", "deed", "quest", "destiny", "faction"]),
    "f": st.sampled_from(["camelot", "eleven", "lefay", "keepers", "summer", "winter", "saracen", "neutral"]),
    "i": st.sampled_from(["combat", "guile", "sorcery", "faith"]),
    "a": st.sampled_from(["knight", "Lord", '"round table"', "spy", "weapon", "guard"]),
    "k": st.sampled_from(["haste", "bound", "wary", '"no attachments"', "secret", "glory", "ravage", "bond"]),
    "x": st.sampled_from(["draw", "wealth", '"gain 1"', "unit", "emblem"]),
    "is": st.sampled_from(["unique", "bound", "restricted", "secret", "haste"]),
    "legal": st.sampled_from(["camelot", "lefay", "winter", "keepers"]),
}
NUMERIC = ["c", "p", "l", "w", "m", "sp", "lv"]


@st.composite
def terms(draw):
    kind = draw(st.sampled_from(["word", "choice", "number"]))
    if kind == "word":
        return draw(st.sampled_from(["squire", "of", '"of the"', "knot", "gold", "morgan's"]))
    if kind == "choice":
        key = draw(st.sampled_from(sorted(VALUES)))
        values = draw(st.lists(VALUES[key], min_size=1, max_size=2))
        op = draw(st.sampled_from([":", "=", "!="]))
        return f"{key}{op}{'|'.join(values)}"
    key = draw(st.sampled_from(NUMERIC))
    op = draw(st.sampled_from([":", "=", "!=", "<", "<=", ">", ">="]))
    special = {"c": ["x", "-"], "p": ["x"]}.get(key, [])
    if special and op in (":", "=", "!=") and draw(st.booleans()):
        return f"{key}{op}{draw(st.sampled_from(special))}"
    return f"{key}{op}{draw(st.integers(0, 8))}"


def expressions(depth=0):
    leaf = st.tuples(st.booleans(), terms()).map(lambda t: ("-" if t[0] else "") + t[1])
    if depth >= 2:
        return leaf
    sub = expressions(depth + 1)
    return st.one_of(
        leaf,
        st.lists(sub, min_size=2, max_size=3).map(" ".join),
        st.lists(sub, min_size=2, max_size=3).map(" or ".join),
        sub.map(lambda s: f"({s})"),
        sub.map(lambda s: f"-({s})"),
    )


@pytest.fixture
def srch_cards(db):
    load_search_set()
    return [card_dict(c) for c in Card.objects.filter(card_set__code="srch").select_related("faction", "card_set")]


@given(expressions())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_database_and_card_matches_agree(srch_cards, q):
    in_db = {c.code for c in search_cards(f"s:srch ({q})")}
    in_python = {c["code"] for c in srch_cards if card_matches(q, c)}
    assert in_db == in_python, q


PARAM_TEXT = st.one_of(st.none(), st.text(max_size=12), st.sampled_from(["1", "2", "0", "-1", "cost", "-power", "99"]))


@given(q=QUERY_TEXT, sort=PARAM_TEXT, page=PARAM_TEXT, page_size=PARAM_TEXT)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_card_api_answers_200_or_400_with_a_detail(db, q, sort, page, page_size):
    # CONTRACTS §4: a bad query or an impossible request is a 400 with {"detail": ...}, never a 500.
    from django.test import Client

    params = {k: v for k, v in {"q": q, "sort": sort, "page": page, "page_size": page_size}.items()
              if v is not None}
    response = Client().get("/api/cards/", params)
    assert response.status_code in (200, 400), (params, response.content[:300])
    body = response.json()
    if response.status_code == 400:
        assert isinstance(body["detail"], str) and body["detail"]
    else:
        assert set(body) == {"count", "next", "previous", "results"}


@given(q=QUERY_TEXT, f=PARAM_TEXT, t=PARAM_TEXT, sort=PARAM_TEXT, page=PARAM_TEXT, view=PARAM_TEXT)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_card_page_always_renders(db, q, f, t, sort, page, view):
    # A malformed search is an inline message on the page ("Bad input"), never an error page; a NUL is refused.
    from django.test import Client

    params = {k: v for k, v in {"q": q, "f": f, "t": t, "sort": sort, "page": page, "view": view}.items()
              if v is not None}
    response = Client().get("/cards/", params)
    if any("\x00" in v for v in params.values()):
        # a NUL is refused for every page before any view runs, with a page that names the parameter
        assert response.status_code == 400 and b"NUL" in response.content
    else:
        assert response.status_code == 200
