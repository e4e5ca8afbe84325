"""Security headers on every kind of answer, HSTS in production, sanitised Markdown (decks/markdown.py),
upload limits through the admin (cards/uploads.py), and API tokens that stop working when revoked."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from decks.markdown import render_markdown
from roc_site.middleware import DEFAULT_POLICY, policy_header

from .conftest import client_for

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["/", "/cards/", "/cards/syntax/", "/decklists/", "/simulate/", "/accounts/login/", "/api/cards/",
         "/api/schema/", "/no-such-page/"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES)
def test_every_answer_carries_the_security_headers(url):
    r = Client().get(url)
    csp = r["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    assert "'unsafe-inline'" not in csp.split("script-src", 1)[1].split(";", 1)[0]
    assert r["X-Content-Type-Options"] == "nosniff"
    assert r["X-Frame-Options"] == "DENY"
    assert r["Referrer-Policy"] == "same-origin"
    assert "camera=()" in r["Permissions-Policy"]


@pytest.mark.django_db
def test_the_api_docs_page_has_the_sites_own_policy_and_loads_nothing_from_elsewhere():
    """Regression: /api/docs/ loaded Swagger UI from a CDN under a wider policy, and its inline script was blocked."""
    docs = Client().get("/api/docs/")
    assert docs["Content-Security-Policy"] == Client().get("/cards/")["Content-Security-Policy"]
    html = docs.content.decode()
    assert "http://" not in html and "https://" not in html  # every script and stylesheet from our own origin
    assert "<style" not in html and "<script>" not in html  # nothing inline for the policy to block
    script = Client().get("/api/docs/?script")
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


def test_policy_header_format():
    assert policy_header({"default-src": ["'self'"], "img-src": ["'self'", "data:"]}) == \
        "default-src 'self'; img-src 'self' data:"
    assert policy_header(DEFAULT_POLICY).startswith("default-src 'self'; script-src 'self';")


@pytest.mark.processes
def test_production_sends_hsts_and_redirects_to_https():
    code = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "r = Client().get('/api/schema/', secure=True)\n"
        "print(r['Strict-Transport-Security'])\n"
        "print(Client().get('/api/schema/').status_code)\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "roc_site.settings.production", "SECRET_KEY": "k" * 60,
           "ALLOWED_HOSTS": "testserver"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    hsts, plain_status = out.stdout.split()[:-1], out.stdout.split()[-1]
    assert " ".join(hsts) == "max-age=31536000; includeSubDomains; preload"
    assert plain_status == "301"  # SECURE_SSL_REDIRECT


@pytest.mark.parametrize("text,forbidden", [
    ("<script>alert(1)</script>", "<script"),
    ('<img src=x onerror="alert(1)">', "onerror"),
    ("[click](javascript:alert(1))", "javascript:"),
    ('<a href="javascript:alert(1)">x</a>', "javascript:"),
    ("[x](JaVaScRiPt:alert(1))", "javascript:"),
    ('<svg onload="alert(1)"></svg>', "onload"),
    ('<iframe src="https://evil.example"></iframe>', "<iframe"),
    ("<style>body{display:none}</style>", "<style"),
    ('[x](data:text/html;base64,PHNjcmlwdD4=)', "data:"),
    ('<p style="background:url(javascript:alert(1))">x</p>', "style="),
])
def test_markdown_removes_scripts_handlers_and_dangerous_urls(text, forbidden):
    html = render_markdown(text)
    assert forbidden.lower() not in html.lower(), html


def test_markdown_keeps_ordinary_formatting_and_safe_links():
    html = render_markdown("**Bold** and [rules](https://example.com/rules)\n\n- one\n- two")
    assert "<strong>Bold</strong>" in html and "<li>one</li>" in html
    assert 'href="https://example.com/rules"' in html and 'rel="nofollow noopener"' in html


@pytest.mark.django_db
def test_a_decklist_page_shows_a_hostile_description_harmlessly(alice, some_units):
    from decks.models import Decklist

    d = Decklist.objects.create(owner=alice, title="Hostile", slug="hostile", cards={some_units[0]: 1},
                                content_hash="h", description='<script>alert(1)</script>\n\n[x](javascript:alert(2))'
                                                              '\n\n<img src=x onerror=alert(3)>')
    r = Client().get(f"/decklists/{d.pk}/", follow=True)
    assert r.status_code == 200
    page = r.content.decode()
    assert "<script>alert(1)" not in page
    assert "javascript:alert(2)" not in page and "onerror" not in page


# --- upload limits, through the admin ---

@pytest.fixture
def admin_client(db):
    admin = get_user_model().objects.create_superuser("secadmin", "s@example.com", "pw-secadmin-123")
    return client_for(admin)


def _card_change(admin_client, card, upload_file):
    from tests.cards.test_images_uploads import _admin_post_data

    return admin_client.post(f"/admin/cards/card/{card.pk}/change/",
                             {**_admin_post_data(card), "illustration": upload_file})


@pytest.mark.django_db
def test_admin_refuses_an_upload_over_the_byte_limit(admin_client, settings, tmp_path):
    from cards.models import Card
    from tests.cards.test_images_uploads import png_bytes, upload

    settings.MEDIA_ROOT = tmp_path
    settings.MAX_ILLUSTRATION_BYTES = 2_000
    card = Card.objects.filter(type="unit").first()
    big = png_bytes(size=(400, 400), color=(1, 2, 3)) + os.urandom(4_000)
    r = _card_change(admin_client, card, upload(big))
    assert r.status_code == 200
    assert "limit" in r.content.decode().lower()
    card.refresh_from_db()
    assert not card.illustration and not any(tmp_path.rglob("*.*"))


@pytest.mark.django_db
def test_admin_refuses_an_upload_over_the_pixel_limit_before_decoding(admin_client, settings, tmp_path):
    from cards.models import Card
    from tests.cards.test_images_uploads import png_claiming_size, upload

    settings.MEDIA_ROOT = tmp_path
    card = Card.objects.filter(type="unit").first()
    r = _card_change(admin_client, card, upload(png_claiming_size(settings.MAX_ILLUSTRATION_PIXELS // 1000 + 1,
                                                                  1001)))
    assert r.status_code == 200
    assert "pixel" in r.content.decode().lower()
    card.refresh_from_db()
    assert not card.illustration


@pytest.mark.django_db
def test_the_request_body_itself_is_capped(settings):
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= 16 * 1024 * 1024
    r = Client().post("/api/decks/validate/", data=json.dumps({"text": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE
                                                                             + 10)}),
                      content_type="application/json")
    assert r.status_code == 413 and "too large" in r.json()["detail"]


# --- API tokens ---

@pytest.mark.django_db
def test_a_revoked_api_token_gets_401(alice):
    web = client_for(alice)
    web.post("/accounts/token/")
    key = web.get("/accounts/profile/").context["new_token"]
    api = Client()
    auth = {"HTTP_AUTHORIZATION": f"Token {key}"}
    assert api.get("/api/decks/", **auth).status_code == 200
    assert web.post("/accounts/token/revoke/").status_code == 302
    r = api.get("/api/decks/", **auth)
    assert r.status_code == 401 and "token" in r.json()["detail"].lower()


@pytest.mark.django_db
def test_a_new_token_replaces_the_old_one(alice):
    web = client_for(alice)
    web.post("/accounts/token/")
    first = web.get("/accounts/profile/").context["new_token"]
    web.post("/accounts/token/")
    second = web.get("/accounts/profile/").context["new_token"]
    assert first != second
    assert Client().get("/api/decks/", HTTP_AUTHORIZATION=f"Token {first}").status_code == 401
    assert Client().get("/api/decks/", HTTP_AUTHORIZATION=f"Token {second}").status_code == 200
