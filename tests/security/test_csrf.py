"""CSRF: every form of the site refuses a POST without the token (403, nothing written), every rendered POST
form carries the token, and the session-authenticated API needs it too (token-authenticated scripts do not)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

from decks.models import Deck

ROOT = Path(__file__).resolve().parents[2]

FORM_POSTS = [
    "/accounts/signup/", "/accounts/login/", "/accounts/logout/", "/accounts/token/", "/accounts/token/revoke/",
    "/accounts/password/change/", "/accounts/password/reset/",
    "/decks/new/", "/decks/import/", "/decks/check/", "/decks/preview/", "/decks/{pk}/edit/",
    "/decks/{pk}/publish/", "/decks/{pk}/delete/", "/decks/{pk}/undelete/", "/decks/{pk}/copy/",
    "/decks/{pk}/versions/1/restore/", "/collection/", "/simulate/",
]


@pytest.fixture
def strict(alice) -> Client:
    c = Client(enforce_csrf_checks=True)
    c.force_login(alice)
    return c


@pytest.mark.django_db
@pytest.mark.parametrize("url", FORM_POSTS)
def test_a_form_post_without_the_csrf_token_is_refused(url, strict, private_deck):
    decks_before = Deck.objects.count()
    r = strict.post(url.format(pk=private_deck.pk), {"name": "x", "text": "1x Anything", "username": "alice",
                                                     "password": "alice-pw-Camelot-1", "mode": "hands"})
    assert r.status_code == 403, f"{url} accepted a POST without a CSRF token"
    assert Deck.objects.count() == decks_before


@pytest.mark.django_db
def test_a_form_post_with_the_token_is_accepted(strict):
    strict.get("/simulate/")
    token = strict.cookies["csrftoken"].value
    r = strict.post("/decks/preview/", {"notes": "**hi**", "csrfmiddlewaretoken": token})
    assert r.status_code == 200


@pytest.mark.django_db
def test_decklist_actions_need_the_token(strict, alice, some_units):
    from decks.models import Decklist

    decklist = Decklist.objects.create(owner=alice, title="Listed", slug="listed", cards={some_units[0]: 1},
                                       content_hash="x")
    for action in ("copy", "like", "favourite"):
        assert strict.post(f"/decklists/{decklist.pk}/{action}/").status_code == 403


@pytest.mark.django_db
def test_the_session_authenticated_api_needs_the_token_but_a_token_script_does_not(alice):
    from roc_site.accounts.services import api_token_create

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    body = json.dumps({"name": "via api", "text": ""})
    r = strict.post("/api/decks/", data=body, content_type="application/json")
    assert r.status_code == 403 and "CSRF" in r.json()["detail"]
    key = api_token_create(user=alice).key
    script = Client(enforce_csrf_checks=True)
    r = script.post("/api/decks/", data=body, content_type="application/json", HTTP_AUTHORIZATION=f"Token {key}")
    assert r.status_code != 403, r.content


def test_every_post_form_in_the_templates_carries_the_csrf_token():
    missing = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for form in re.finditer(r"<form\b[^>]*>.*?</form>", text, flags=re.S | re.I):
            opening = form.group(0).split(">", 1)[0]
            if re.search(r"method\s*=\s*[\"']?post", opening, re.I) and "csrf_token" not in form.group(0):
                missing.append(f"{path.relative_to(ROOT)}: {opening[:80]}")
    assert not missing, "POST forms without {% csrf_token %}: " + "; ".join(missing)


def test_htmx_requests_send_the_csrf_header_from_the_base_template():
    base = (ROOT / "templates" / "base.html").read_text(encoding="utf-8")
    assert 'hx-headers=\'{"X-CSRFToken": "{{ csrf_token }}"}\'' in base
