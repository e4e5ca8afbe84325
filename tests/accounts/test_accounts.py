import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


def test_signup_logs_the_new_user_in_and_lands_on_decks():
    c = Client()
    r = c.post("/accounts/signup/", {"username": "gareth", "email": "g@example.org",
                                     "password1": "beaumains-kitchen-77", "password2": "beaumains-kitchen-77"})
    assert r.status_code == 302 and r["Location"] == "/decks/"
    assert c.get("/accounts/profile/").status_code == 200


def test_signup_with_mismatched_passwords_explains_and_creates_nothing():
    r = Client().post("/accounts/signup/", {"username": "x", "password1": "aaaa-bbbb-1234", "password2": "nope"})
    assert r.status_code == 200
    assert b"password" in r.content.lower() and b"error" in r.content
    assert not User.objects.filter(username="x").exists()


def test_profile_needs_login():
    r = Client().get("/accounts/profile/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_login_and_logout():
    User.objects.create_user("kay", password="seneschal-pw-9")
    c = Client()
    assert c.post("/accounts/login/", {"username": "kay", "password": "seneschal-pw-9"}).status_code == 302
    assert c.get("/accounts/profile/").status_code == 200
    assert c.post("/accounts/logout/").status_code == 302
    assert c.get("/accounts/profile/").status_code == 302


def test_password_reset_sends_an_email():
    User.objects.create_user("bors", email="bors@example.org", password="x-pw-123456")
    r = Client().post("/accounts/password/reset/", {"email": "bors@example.org"})
    assert r.status_code == 302
    assert len(mail.outbox) == 1 and "/accounts/reset/" in mail.outbox[0].body


def test_api_token_is_created_shown_once_replaced_and_revoked():
    user = User.objects.create_user("lucan", password="butler-pw-42")
    c = Client()
    c.force_login(user)
    c.post("/accounts/token/")
    first = Token.objects.get(user=user).key
    page = c.get("/accounts/profile/").content.decode()
    assert first in page
    assert first not in c.get("/accounts/profile/").content.decode()  # shown once
    c.post("/accounts/token/")
    assert Token.objects.get(user=user).key != first  # replacing revokes the old one
    c.post("/accounts/token/revoke/")
    assert not Token.objects.filter(user=user).exists()


def test_token_endpoints_need_post_and_csrf():
    user = User.objects.create_user("dagonet", password="fool-pw-777")
    c = Client(enforce_csrf_checks=True)
    c.force_login(user)
    assert c.get("/accounts/token/").status_code == 405
    assert c.post("/accounts/token/").status_code == 403
    assert not Token.objects.filter(user=user).exists()
