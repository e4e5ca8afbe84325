"""GET /api/cards/ and /api/cards/CODE/ (CONTRACTS §4)."""
import pytest
from django.test import Client

from cards.cardfile import KNOWN_KEYS

from .factories import SEARCH_CARDS, load_search_set


@pytest.fixture
def srch(db):
    return load_search_set()


@pytest.fixture
def api():
    return Client()


def test_card_list_is_paginated_and_filtered_by_q(srch, api):
    r = api.get("/api/cards/", {"q": "s:srch t:unit", "page_size": 3})
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == 7
    assert len(body["results"]) == 3
    assert body["previous"] is None and "page=2" in body["next"] and body["next"].startswith("http://testserver/")
    page3 = api.get(body["next"].replace("page=2", "page=3")).json()
    assert len(page3["results"]) == 1 and page3["next"] is None


def test_a_card_has_exactly_the_contract_fields_plus_url_and_image_url(srch, api):
    r = api.get("/api/cards/srch-lord/")
    assert r.status_code == 200
    card = r.json()
    assert set(card) == {*KNOWN_KEYS, "url", "image_url"}
    assert card["url"] == "http://testserver/cards/srch-lord/"
    assert card["image_url"] == "http://testserver/cards/srch-lord.png"
    source = next(c for c in SEARCH_CARDS if c["code"] == "srch-lord")
    for key, value in source.items():
        assert card[key] == value, key
    assert card["subtitle"] is None and card["abilities"] is None and card["wealth"] is None


def test_costs_x_and_dash_and_destiny_rules_round_trip(srch, api):
    witch = api.get("/api/cards/srch-witch/").json()
    assert witch["cost"] == "X" and witch["power"] == "X" and witch["keywords"] == ["Bound", "Secret (3)"]
    assert api.get("/api/cards/srch-shade/").json()["cost"] == "-"
    destiny = api.get("/api/cards/srch-destiny/").json()
    assert destiny["deckbuilding"] == {"max_copies": 2, "bound_factions": ["lefay"]}


def test_sort_parameter(srch, api):
    names = [c["name"] for c in api.get("/api/cards/", {"q": "s:srch t:unit -p:x", "sort": "-power"}).json()["results"]]
    assert names[0] == "Desert Rider"
    costs = [c["cost"] for c in api.get("/api/cards/", {"q": "s:srch c<9", "sort": "cost"}).json()["results"]]
    assert costs == sorted(costs)


def test_unknown_card_is_404_with_detail(db, api):
    r = api.get("/api/cards/no-such-card/")
    assert r.status_code == 404
    assert "detail" in r.json()


@pytest.mark.parametrize("params, fragment", [
    ({"q": "c:seven"}, 'cost must be a whole number, x or -, not "seven"'),
    ({"q": "t:unit foo:bar"}, 'unknown key "foo" in "foo:bar" (position 8)'),
    ({"q": '"unclosed'}, "unclosed quote at position 1"),
    ({"q": "(t:unit"}, "never closed"),
    ({"q": "owned:yes"}, "owned: needs you to sign in"),
    ({"sort": "colour"}, 'unknown sort "colour"'),
    ({"page": "abc"}, 'page must be a whole number ≥ 1, not "abc"'),
    ({"page": "0"}, "page must be a whole number"),
    ({"page_size": "-5"}, "page_size must be a whole number"),
    ({"q": "s:srch", "page": "99"}, "page 99 does not exist; there is 1 page"),
])
def test_bad_requests_answer_400_with_a_detail(srch, api, params, fragment):
    r = api.get("/api/cards/", params)
    assert r.status_code == 400, r.content
    assert fragment in r.json()["detail"]


def test_bad_query_reports_the_position(srch, api):
    body = api.get("/api/cards/", {"q": "t:unit zz:1"}).json()
    assert body["position"] == 8


def test_read_only(srch, api):
    assert api.post("/api/cards/", {"code": "x"}).status_code in (401, 403, 405)
    assert api.delete("/api/cards/srch-lord/").status_code in (401, 403, 405)


def test_schema_documents_the_q_parameter_and_responses(db, api):
    r = api.get("/api/schema/", {"format": "json"})
    assert r.status_code == 200
    schema = r.json()
    op = schema["paths"]["/api/cards/"]["get"]
    params = {p["name"]: p for p in op["parameters"]}
    assert {"q", "sort", "page", "page_size"} <= set(params)
    assert "CONTRACTS §5" in params["q"]["description"]
    assert {"200", "400"} <= set(op["responses"])
    assert "/api/cards/{code}/" in schema["paths"]
    card_schema = schema["components"]["schemas"]["Card"]["properties"]
    assert {*KNOWN_KEYS, "url", "image_url"} == set(card_schema)


def test_api_docs_page(db, api):
    assert api.get("/api/docs/").status_code == 200


def test_api_rows_give_exactly_the_export_form_of_every_card(srch):
    # The list endpoint builds cards from plain rows (selectors.card_data_from_row); they must never drift from
    # Card.to_data(), the form exportcards writes.
    from cards.models import Card
    from cards.search import search_cards
    from cards.selectors import card_data_from_row, card_rows

    cards = {c.code: c.to_data() for c in Card.objects.select_related("faction")}
    rows = {r["code"]: card_data_from_row(r) for r in card_rows(search_cards(""))}
    assert rows == cards
    assert list(next(iter(rows.values()))) == list(KNOWN_KEYS)
