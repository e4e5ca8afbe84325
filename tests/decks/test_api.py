"""The decks API (CONTRACTS §3, §4): validation without login, owner-only CRUD, versions, stats and export."""
from __future__ import annotations

import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from decks.decklist import export_decklist
from decks.models import Deck, Format

from .cardsets import LEGAL_BASE

pytestmark = pytest.mark.django_db
VALIDATE = "/api/decks/validate/"


@pytest.fixture
def as_alice(alice):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    return client


@pytest.fixture
def legal_text(small_catalogue):
    return export_decklist(LEGAL_BASE, small_catalogue)


# ---- validate ------------------------------------------------------------------------------------------------
def test_validate_needs_no_login_and_answers_the_validatedeck_json(legal_text):
    response = APIClient().post(VALIDATE, {"text": legal_text}, format="json")
    assert response.status_code == 200
    assert response.json() == {"legal": True, "errors": [], "warnings": [],
                               "counts": {"draw": 60, "quests": 7, "faction": 1, "destiny": 1},
                               "faction": "camelot", "destiny": "The Long Reign", "format": None}


def test_validate_reports_every_problem(small_catalogue):
    text = "1x Camelot\n4x Knight 1\n3x Gawian\n2x Gawain\n1x Morgause\n1000000 Knight 2"
    data = APIClient().post(VALIDATE, {"text": text}, format="json").json()
    codes = {e["code"] for e in data["errors"]}
    assert codes == {"unknown_card", "ambiguous_card", "bad_line", "destiny_count", "quest_count", "draw_count",
                     "copy_limit", "bound_off_faction"}
    assert data["legal"] is False


def test_validate_accepts_a_plain_text_body(legal_text):
    response = APIClient().post(VALIDATE, legal_text.encode(), content_type="text/plain")
    assert response.status_code == 200 and response.json()["legal"] is True
    response = APIClient().post(VALIDATE, legal_text.encode(), content_type="application/octet-stream")
    assert response.status_code == 200 and response.json()["legal"] is True


@pytest.mark.parametrize("body,content_type", [
    (b"{not json", "application/json"),
    (json.dumps({"text": 5}).encode(), "application/json"),
    (json.dumps({}).encode(), "application/json"),
    (json.dumps(["a"]).encode(), "application/json"),
    (bytes(range(256)) * 50, "text/plain"),
    (json.dumps({"text": "3x Knight 1\x00\x01"}).encode(), "application/json"),
    (json.dumps({"text": "x" * (10 * 1024 * 1024)}).encode(), "application/json"),
    (b"3x Knight 1\n" * 900_000, "text/plain"),
    (bytes(range(256)) * 50, "application/octet-stream"),
    (b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "image/png"),
])
def test_validate_bad_input_is_a_400_with_detail_never_500(small_catalogue, body, content_type):
    response = APIClient().post(VALIDATE, body, content_type=content_type)
    assert response.status_code == 400
    assert isinstance(response.json()["detail"], str) and response.json()["detail"]


def test_validate_binary_garbage_text_gets_a_verdict(small_catalogue):
    garbage = bytes(range(1, 256)).decode("latin-1") * 10
    response = APIClient().post(VALIDATE, {"text": garbage}, format="json")
    assert response.status_code == 200 and response.json()["legal"] is False


def test_validate_empty_text_is_an_illegal_deck(small_catalogue):
    data = APIClient().post(VALIDATE, {"text": ""}, format="json").json()
    assert data["legal"] is False and data["counts"] == {"draw": 0, "quests": 0, "faction": 0, "destiny": 0}


def test_s11_active_format_applies_and_is_named(small_catalogue, legal_text):
    from cards.models import Card

    league = Format.objects.create(name="Winter League", slug="winter-league", active=True)
    league.banned.add(Card.objects.get(code="u01"))
    data = APIClient().post(VALIDATE, {"text": legal_text}, format="json").json()
    assert data["format"] == "Winter League" and [e["code"] for e in data["errors"]] == ["banned"]
    league.active = False
    league.save()
    assert APIClient().post(VALIDATE, {"text": legal_text}, format="json").json()["legal"] is True
    data = APIClient().post(VALIDATE, {"text": legal_text, "format": "winter-league"}, format="json").json()
    assert data["legal"] is False
    response = APIClient().post(VALIDATE, {"text": legal_text, "format": "nope"}, format="json")
    assert response.status_code == 400 and "nope" in response.json()["detail"]


# ---- CRUD ------------------------------------------------------------------------------------------------------
def test_create_read_update_delete_with_token(as_alice, small_catalogue):
    response = as_alice.post("/api/decks/", {"name": "Knights", "cards": LEGAL_BASE}, format="json")
    assert response.status_code == 201, response.json()
    deck = response.json()
    assert deck["cards"] == LEGAL_BASE and deck["is_private"] is True and deck["verdict"]["legal"] is True
    assert deck["faction"] == "camelot" and deck["destiny"] == "des-plain" and deck["version"] == 1
    url = f"/api/decks/{deck['id']}/"
    assert as_alice.get("/api/decks/").json()["count"] == 1
    response = as_alice.patch(url, {"cards": dict(LEGAL_BASE, u01=0), "base_version": 1}, format="json")
    assert response.status_code == 200
    assert response.json()["version"] == 2 and "u01" not in response.json()["cards"]
    assert response.json()["verdict"]["errors"][0]["code"] == "draw_count"
    assert as_alice.delete(url).status_code == 204
    assert as_alice.get(url).status_code == 404


def test_create_from_text_and_bad_text_saves_nothing(as_alice, small_catalogue, legal_text):
    response = as_alice.post("/api/decks/", {"name": "T", "text": "3x Gawian\n2x Knight 1"}, format="json")
    assert response.status_code == 400
    assert response.json()["problems"][0]["suggestions"]
    assert Deck.objects.count() == 0
    response = as_alice.post("/api/decks/", {"name": "T", "text": legal_text}, format="json")
    assert response.status_code == 201 and response.json()["cards"] == LEGAL_BASE


@pytest.mark.parametrize("payload", [
    {"name": "T", "cards": {"u01": 1000000}},
    {"name": "T", "cards": {"u01": -1}},
    {"name": "T", "cards": {"nope": 1}},
    {"name": "", "cards": {"u01": 1}},
    {"name": "T", "cards": ["u01"]},
    {"name": "T", "cards": {"u01": 1}, "text": "1x Knight 1"},
    {"name": "T" * 500},
])
def test_create_bad_input_is_400(as_alice, small_catalogue, payload):
    response = as_alice.post("/api/decks/", payload, format="json")
    assert response.status_code == 400 and response.json()["detail"]
    assert Deck.objects.count() == 0


def test_session_auth_works_and_anonymous_cannot_list(alice, small_catalogue):
    client = APIClient()
    assert client.get("/api/decks/").status_code in (401, 403)
    client.login(username="alice", password="pw-alice-12345")
    assert client.post("/api/decks/", {"name": "S", "cards": {"u01": 2}}, format="json").status_code == 201
    assert client.get("/api/decks/").json()["count"] == 1


def test_another_users_private_deck_is_404(as_alice, bob, small_catalogue):
    deck_id = as_alice.post("/api/decks/", {"name": "Mine", "cards": LEGAL_BASE}, format="json").json()["id"]
    other = APIClient()
    other.force_authenticate(bob)
    for suffix in ("", "versions/", "stats/", "export/"):
        assert other.get(f"/api/decks/{deck_id}/{suffix}").status_code == 404
    assert other.patch(f"/api/decks/{deck_id}/", {"name": "x"}, format="json").status_code == 404
    assert other.delete(f"/api/decks/{deck_id}/").status_code == 404
    assert other.get("/api/decks/").json()["count"] == 0
    # A deck made public can be read, never changed, by others.
    as_alice.patch(f"/api/decks/{deck_id}/", {"is_private": False}, format="json")
    assert other.get(f"/api/decks/{deck_id}/").status_code == 200
    assert other.patch(f"/api/decks/{deck_id}/", {"name": "x"}, format="json").status_code == 403
    assert other.get("/api/decks/abc/").status_code == 404


def test_versions_list_changes_and_restore(as_alice, small_catalogue):
    deck_id = as_alice.post("/api/decks/", {"name": "V", "cards": {"u01": 3}}, format="json").json()["id"]
    as_alice.patch(f"/api/decks/{deck_id}/", {"cards": {"u01": 2, "u02": 1}}, format="json")
    versions = as_alice.get(f"/api/decks/{deck_id}/versions/").json()
    assert [v["number"] for v in versions] == [2, 1]
    assert versions[0]["changes"] == {"added": {"u02": 1}, "removed": {"u01": 1}}
    response = as_alice.post(f"/api/decks/{deck_id}/versions/1/restore/")
    assert response.status_code == 201 and response.json()["cards"] == {"u01": 3} and response.json()["version"] == 3
    assert as_alice.post(f"/api/decks/{deck_id}/versions/42/restore/").status_code == 400


def test_two_tabs_conflict_is_reported_and_both_saves_kept(as_alice, small_catalogue):
    deck_id = as_alice.post("/api/decks/", {"name": "V", "cards": {"u01": 3}}, format="json").json()["id"]
    first = as_alice.patch(f"/api/decks/{deck_id}/", {"cards": {"u01": 1}, "base_version": 1}, format="json")
    second = as_alice.patch(f"/api/decks/{deck_id}/", {"cards": {"u02": 1}, "base_version": 1}, format="json")
    assert first.json()["conflict"] is False and second.json()["conflict"] is True
    cards = [v["cards"] for v in as_alice.get(f"/api/decks/{deck_id}/versions/").json()]
    assert cards == [{"u02": 1}, {"u01": 1}, {"u01": 3}]


def test_stats_and_export(as_alice, small_catalogue):
    deck_id = as_alice.post("/api/decks/", {"name": "E", "cards": dict(LEGAL_BASE, spy=1)},
                            format="json").json()["id"]
    stats = as_alice.get(f"/api/decks/{deck_id}/stats/").json()
    assert stats["draw"] == 61 and stats["loyalty_surcharges"] == {"Morgana's Spy": 2}
    text = as_alice.get(f"/api/decks/{deck_id}/export/?format=text")
    assert text.status_code == 200 and text["Content-Type"].startswith("text/plain")
    body = text.content.decode()
    assert body.startswith("# E\n") and "1x Morgana's Spy" in body
    plain = as_alice.get(f"/api/decks/{deck_id}/export/")
    assert plain.content == text.content
    data = as_alice.get(f"/api/decks/{deck_id}/export/?format=json").json()
    assert {c["code"]: c["count"] for c in data["cards"]} == dict(LEGAL_BASE, spy=1)
    bad = as_alice.get(f"/api/decks/{deck_id}/export/?format=xml")
    assert bad.status_code == 400 and "text" in bad.json()["detail"]
    # The export reads back as the same deck.
    again = as_alice.post(VALIDATE, {"text": body}, format="json").json()
    assert again["counts"]["draw"] == 61 and again["legal"] is True


def test_openapi_schema_describes_the_decks_api(client):
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for path in ("/api/decks/", "/api/decks/{id}/", "/api/decks/{id}/versions/", "/api/decks/{id}/stats/",
                 "/api/decks/{id}/export/", "/api/decks/validate/", "/api/decks/{id}/versions/{number}/restore/"):
        assert path in paths, path
    validate = paths["/api/decks/validate/"]["post"]
    assert validate["security"] == [{}] or {} in validate["security"]
    assert "Verdict" in json.dumps(validate["responses"]["200"])


def test_delete_is_undoable_and_copy_makes_a_private_deck(as_alice, bob, small_catalogue):
    deck_id = as_alice.post("/api/decks/", {"name": "Undo me", "cards": LEGAL_BASE}, format="json").json()["id"]
    as_alice.patch(f"/api/decks/{deck_id}/", {"cards": {"u01": 1}}, format="json")
    assert as_alice.delete(f"/api/decks/{deck_id}/").status_code == 204
    assert as_alice.get(f"/api/decks/{deck_id}/").status_code == 404
    assert as_alice.get("/api/decks/").json()["count"] == 0
    other = APIClient()
    other.force_authenticate(bob)
    assert other.post(f"/api/decks/{deck_id}/undelete/").status_code == 404
    back = as_alice.post(f"/api/decks/{deck_id}/undelete/")
    assert back.status_code == 200 and back.json()["version"] == 2
    assert len(as_alice.get(f"/api/decks/{deck_id}/versions/").json()) == 2
    copy = as_alice.post(f"/api/decks/{deck_id}/copy/")
    assert copy.status_code == 201 and copy.json()["cards"] == {"u01": 1} and copy.json()["is_private"] is True
    assert other.post(f"/api/decks/{deck_id}/copy/").status_code == 404  # private: not even visible
