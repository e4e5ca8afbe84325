"""Hostile or careless input at the edge (roc_site/inputs.py, roc_site/parsers.py and the views' own bounds):
every case a clear 400 (or 413) naming what was wrong, nothing stored. The fuzz targets (scripts/fuzz/http.py,
tests/reliability/test_fuzz.py) send the same kinds of input to every endpoint; these pin the messages."""
from __future__ import annotations

import json
import time
from types import SimpleNamespace

import pytest
from django.test import Client

from scripts.fuzz.http import DECK, REALMS_DECK, prepare, table_counts
from tests.security.conftest import client_for

pytestmark = pytest.mark.django_db

NESTED = "[" * 5000 + "]" * 5000


def _post_json(path, body: str, client=None):
    return (client or Client()).generic("POST", path, body.encode(), content_type="application/json")


def _refused(response, *words, status=400):
    assert response.status_code == status, (response.status_code, response.content[:300])
    detail = response.json()["detail"]
    for word in words:
        assert word in detail, (word, detail)
    return detail


# ---- deeply nested JSON -------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/api/decks/validate/", "/api/simulations/", "/api/tuning/",
                                  "/realms/api/simulations/", "/regions/api/simulations/",
                                  "/realms/api/decks/validate/", "/realms/api/hands/"])
def test_deeply_nested_json_is_a_400_naming_the_depth(path):
    before = table_counts()
    _refused(_post_json(path, NESTED), "nested more than 32 levels")
    _refused(_post_json(path, '{"text": "x", "settings": ' + NESTED + "}"), "nested more than 32 levels")
    assert table_counts() == before


def test_nested_json_in_a_signed_in_body_and_the_archive_import(alice):
    c = client_for(alice)
    _refused(_post_json("/api/decks/", '{"name": "x", "cards": ' + NESTED + "}", c), "nested")
    _refused(_post_json("/api/decks/archive/", NESTED, c), "nested")
    from django.core.files.uploadedfile import SimpleUploadedFile
    page = c.post("/decks/archive/import/", {"file": SimpleUploadedFile("a.json", NESTED.encode())})
    assert page.status_code == 400 and "nested more than 32 levels" in page.content.decode()


@pytest.mark.parametrize("fields", [{"op": "load", "position": NESTED}, {"op": "step", "start": NESTED},
                                    {"op": "step", "start": '{"players": []}', "actions": NESTED}])
def test_nested_json_in_the_sandbox_is_a_400_on_the_page(fields):
    page = Client().post("/play/sandbox/", fields)
    assert page.status_code == 400 and "nested more than 32 levels" in page.content.decode()


def test_a_document_just_inside_the_depth_still_reads():
    deep = '{"text": "1x core-004", "x": ' + "[" * 30 + "]" * 30 + "}"
    r = _post_json("/api/decks/validate/", deep)
    assert r.status_code == 200, r.content[:200]


# ---- lone surrogates ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("path, body, where", [
    ("/api/decks/validate/", '{"text": "3x Gawain\\ud800"}', "text: contains a lone surrogate"),
    ("/api/simulations/", '{"mode": "goldfish", "text": "x", "settings": {"\\udc00": 1}}', "settings: a key"),
    ("/api/tuning/", '{"kind": "compare", "decks": [{"name": "\\ud800", "text": "x"}, "y"]}', "decks[0].name"),
    ("/realms/api/simulations/", '{"mode": "goldfish", "text": "\\ud800"}', "text: contains a lone surrogate"),
    ("/regions/api/simulations/", '{"mode": "versus", "name": "a\\udfff"}', "name: contains a lone surrogate"),
])
def test_a_lone_surrogate_is_a_400_naming_the_field(path, body, where):
    before = table_counts()
    _refused(_post_json(path, body), where, "\\ud" if "\\ud" in body else "")
    assert table_counts() == before


def test_a_lone_surrogate_in_a_decks_card_names(alice):
    _refused(_post_json("/api/decks/", '{"name": "x", "cards": {"\\ud800": 1}}', client_for(alice)),
             "cards: a key contains a lone surrogate")


# ---- range and type -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("game, body", [
    ("realms", {"mode": "goldfish", "text": REALMS_DECK}),
    ("regions", {"mode": "versus", "strategy": "big-money", "opponent_strategy": "big-money"}),
])
def test_a_hosted_games_seed_beyond_64_bits_is_a_400(game, body):
    prepare()
    before = table_counts()
    _refused(_post_json(f"/{game}/api/simulations/", json.dumps(dict(body, seed=2**63))), "seed: from 0 to")
    _refused(_post_json(f"/{game}/api/simulations/", json.dumps(dict(body, seed=-1))), "seed: from 0 to")
    page = Client().post(f"/{game}/simulate/", {"mode": body["mode"], "text": body.get("text", ""),
                                                "seed": str(2**64)})
    assert page.status_code == 400 and "seed: from 0 to" in page.content.decode()
    assert table_counts() == before


def test_a_regions_strategy_given_as_a_list_is_a_400():
    _refused(_post_json("/regions/api/simulations/", json.dumps({"mode": "versus", "strategy": ["big-money"]})),
             "strategy: a string")


def test_a_superscript_digit_in_the_realms_collection_is_a_400(alice):
    prepare()
    from scripts.fuzz.http import REALMS_CODE
    page = client_for(alice).post("/realms/collection/", {f"own_{REALMS_CODE}": "²"})
    assert page.status_code == 400 and "owned copies are a whole number" in page.content.decode()
    page = client_for(alice).post("/realms/collection/", {f"own_{REALMS_CODE}": "9" * 5000})
    assert page.status_code == 400


def test_sandbox_actions_that_are_not_a_list_are_a_400():
    start = json.dumps({"players": [{"faction": "core-001"}, {"faction": "core-096"}]})
    page = Client().post("/play/sandbox/", {"op": "step", "start": start, "actions": '{"a": 1}'})
    assert page.status_code == 400 and "actions: a list of action texts" in page.content.decode()


def test_tune_with_a_5000_digit_seed_is_a_400():
    page = Client().post("/tune/", {"kind": "compare", "a": DECK, "b": DECK, "seed": "9" * 5000})
    assert page.status_code == 400 and "a 5,000-digit number" in page.content.decode()
    page = Client().post("/tune/", {"kind": "compare", "a": DECK, "b": DECK, "seed": "²"})
    assert page.status_code == 400 and "seed must be a whole number" in page.content.decode()


# ---- NUL characters and long names (PostgreSQL refuses NUL; the columns hold 200) -----------------------------
@pytest.mark.parametrize("path", ["/api/cards/a%00b/", "/play/a%00b/", "/realms/cards/a%00b/"])
def test_a_nul_in_the_path_is_a_400(path):
    r = Client().get(path)
    assert r.status_code == 400 and b"NUL character" in r.content


def test_a_nul_in_a_query_parameter_is_a_400_naming_it():
    _refused(Client().get("/api/simulations/?game=a%00b"), "game contains a NUL character")


@pytest.mark.parametrize("fields", [
    {"kind": "compare", "a": "# Bad\x00title\n" + DECK, "b": DECK},
    {"kind": "compare", "a": DECK, "b": DECK, "seed": "1\x00"},
])
def test_a_nul_in_a_form_field_is_a_400_and_stores_nothing(fields):
    before = table_counts()
    page = Client().post("/tune/", fields)
    assert page.status_code == 400 and "NUL character" in page.content.decode()
    assert table_counts() == before


def test_a_nul_in_a_realms_run_name_and_a_long_one(alice):
    prepare()
    before = table_counts()
    body = {"mode": "goldfish", "text": REALMS_DECK}
    _refused(_post_json("/realms/api/simulations/", json.dumps(dict(body, name="a\x00b"))), "name: contains a NUL")
    _refused(_post_json("/realms/api/simulations/", json.dumps(dict(body, name="n" * 201))),
             "name: at most 200 characters")
    assert table_counts() == before


def test_a_regions_strategy_named_at_length_is_stored_clipped(monkeypatch):
    from simulator import services
    from simulator.engines.regions.sim import shipped_texts
    from simulator.models import SimulationRun

    monkeypatch.setattr(services, "run_dispatch", lambda run: None)   # stored, not queued (every game's runs)
    text = shipped_texts()["big-money"]
    long_name = "L" * 250
    lines = [f"name: {long_name}" if line.lower().startswith("name:") else line for line in text.splitlines()]
    r = _post_json("/regions/api/simulations/", json.dumps({"mode": "versus", "text": "\n".join(lines),
                                                            "opponent_strategy": "big-money"}))
    assert r.status_code == 202, r.content[:300]
    assert SimulationRun.objects.get(pk=r.json()["id"]).deck_name == "L" * 200


# ---- the sandbox's size and the cost of naming many copies --------------------------------------------------
def test_a_sandbox_position_with_5000_cards_is_refused_at_once():
    from tests.simulator.test_sandbox import BUILD

    before = table_counts()
    started = time.perf_counter()
    page = Client().post("/play/sandbox/", dict(BUILD, p0_hand=" core-004" * 5000, phase="toll"))
    assert page.status_code == 400
    assert 'id="p0_hand-error">player 0, hand: 5,000 cards, 5,005 in all zones; a player has at most 500' \
        in page.content.decode()
    assert time.perf_counter() - started < 5
    assert table_counts() == before


def test_naming_the_copies_of_one_code_is_linear():
    """names_for over 6,000 copies of one code, each in its own state: a list's `in` and `index` made this
    quadratic (about 36 million steps, seconds); a dict keeps it to milliseconds."""
    from simulator.engines.r1.actions import names_for

    n = 6000
    g = SimpleNamespace(cdef=[SimpleNamespace(code="core-004")] * n, zone=[1] * n, ctrl=[0] * n,
                        exh=[i % 2 == 0 for i in range(n)], emb=[0] * n, cnt=[0] * n, host={}, dups={}, labels={})
    started = time.perf_counter()
    names = names_for(g, list(range(n)))
    elapsed = time.perf_counter() - started
    assert names[0] == "core-004.1" and names[n - 1] == f"core-004.{n}"
    assert elapsed < 0.3, elapsed


def test_a_huge_body_is_a_413_with_a_message():
    r = Client().generic("POST", "/api/decks/validate/", b'{"text": "x"}', content_type="application/json",
                         CONTENT_LENGTH=str(13 * 2**20))
    assert r.status_code == 413 and "too large" in r.json()["detail"]
    page = Client().generic("POST", "/play/sandbox/", b"op=load", content_type="application/x-www-form-urlencoded",
                            CONTENT_LENGTH=str(13 * 2**20))
    assert page.status_code == 413 and b"too large" in page.content


# ---- unclear or silent answers ------------------------------------------------------------------------------
def test_nested_field_errors_read_as_plain_text(alice):
    r = _post_json("/api/decks/", json.dumps({"name": "x", "text": "1x core-004", "tags": ["t" * 500]}),
                   client_for(alice))
    detail = _refused(r, "tags[0]: ")
    assert "ErrorDetail" not in detail and "{" not in detail


def test_realms_hands_k_that_is_not_a_number_is_a_plain_400():
    prepare()
    body = {"text": REALMS_DECK, "groups": [{"query": "t:place", "k": "x"}]}
    detail = _refused(_post_json("/realms/api/hands/", json.dumps(body)), "groups[0].k")
    assert "invalid literal" not in detail


def test_a_setting_of_another_mode_is_a_400_naming_it():
    body = {"mode": "goldfish", "text": DECK, "settings": {"mulligan": "x"}}
    _refused(_post_json("/api/simulations/", json.dumps(body)), "mulligan", "'hands'")


@pytest.mark.parametrize("policy", ["expert:", "expert: 24", "expert:2_4", "expert:٢٤"])
def test_an_expert_budget_must_be_digits(policy):
    body = {"mode": "goldfish", "text": DECK, "policy": policy}
    _refused(_post_json("/api/simulations/", json.dumps(body)), "after the colon goes the budget")
    body = {"kind": "compare", "decks": [DECK, DECK], "policy": policy}
    _refused(_post_json("/api/tuning/", json.dumps(body)), "after the colon goes the budget")


@pytest.mark.parametrize("change, field", [({"round": 10**30}, "round: 10000"),
                                           ({"active_player": 7}, "active_player: 7"),
                                           ({"phase": "quest", "active_player": 7}, "active_player: 7")])
def test_a_sandbox_position_out_of_range_names_the_field(change, field):
    position = {"game": "r1", "round": 2, "phase": "confrontation",
                "players": [{"faction": "core-001"}, {"faction": "core-096"}]} | change
    page = Client().post("/play/sandbox/", {"op": "load", "position": json.dumps(position)})
    assert page.status_code == 400 and field in page.content.decode(), page.content.decode()[:500]


def test_the_schema_says_what_decklists_and_versions_answer():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    props = schema["components"]["schemas"]["Decklist"]["properties"]
    assert props["derived_from"].get("nullable") and props["previous"].get("nullable")
    versions = schema["paths"]["/api/decks/{id}/versions/"]["get"]["responses"]["200"]["content"]
    assert versions["application/json"]["schema"]["type"] == "array"


def test_versions_still_answer_an_array(alice, private_deck):
    r = client_for(alice).get(f"/api/decks/{private_deck.pk}/versions/")
    assert r.status_code == 200 and isinstance(r.json(), list) and r.json()[0]["number"] == 1
