"""Throttling: failed log-ins per username+address (5 per 15 minutes by default) and simulation requests per
user / per address, on the API and the /simulate/ page alike."""
from __future__ import annotations

import json

import pytest
from django.test import Client

from .conftest import client_for

pytestmark = pytest.mark.django_db

RIGHT = "alice-pw-Camelot-1"


def _login(password: str, *, username: str = "alice", address: str = "10.0.0.1"):
    return Client(REMOTE_ADDR=address).post("/accounts/login/", {"username": username, "password": password})


def test_five_failures_then_even_the_right_password_is_refused_with_a_clear_message(alice):
    for _ in range(5):
        r = _login("wrong")
        assert r.status_code == 200 and "correct username and password" in r.content.decode()
    r = _login(RIGHT)
    assert r.status_code == 429
    text = r.content.decode()
    assert "Too many failed log-ins for this username from your address" in text
    assert "Try again in 15 minutes" in text
    assert "_auth_user_id" not in r.wsgi_request.session


def test_four_failures_do_not_lock_and_a_success_resets_the_count(alice):
    for _ in range(4):
        _login("wrong")
    assert _login(RIGHT).status_code == 302
    for _ in range(4):
        _login("wrong")
    assert _login(RIGHT).status_code == 302  # the count restarted after the success


def test_no_lockout_of_the_user_from_another_address_or_of_other_users(alice, bob):
    for _ in range(6):
        _login("wrong", address="203.0.113.9")
    assert _login(RIGHT, address="203.0.113.9").status_code == 429
    assert _login(RIGHT, address="198.51.100.7").status_code == 302  # Alice elsewhere
    assert _login("bob-pw-Avalon-2", username="bob", address="203.0.113.9").status_code == 302  # Bob, same address


def test_username_case_does_not_dodge_the_throttle(alice):
    for name in ("alice", "ALICE", "Alice", "aLiCe", "alicE"):
        _login("wrong", username=name)
    assert _login(RIGHT).status_code == 429


def test_the_window_ends(alice, settings):
    settings.LOGIN_FAILURE_WINDOW_S = 1
    for _ in range(5):
        _login("wrong")
    assert _login(RIGHT).status_code == 429
    import time

    time.sleep(1.1)
    assert _login(RIGHT).status_code == 302


@pytest.fixture
def low_simulation_rates(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "simulations_user": "3/minute", "simulations_anon": "2/minute"}}


def _simulate_api(client, i: int):
    # A bad request still counts: throttling comes before any work, so junk cannot be sent without limit.
    return client.post("/api/simulations/", data=json.dumps({"mode": "hands", "text": f"junk {i}"}),
                       content_type="application/json")


def test_simulation_api_requests_are_throttled_per_user(low_simulation_rates, alice, bob):
    c = client_for(alice)
    assert [_simulate_api(c, i).status_code for i in range(3)] == [400, 400, 400]
    r = _simulate_api(c, 3)
    assert r.status_code == 429
    assert "throttled" in r.json()["detail"].lower()
    assert int(r["Retry-After"]) > 0
    assert _simulate_api(client_for(bob), 0).status_code == 400  # Bob has his own allowance
    assert c.get("/api/simulations/").status_code == 200  # reading is never throttled


def test_simulation_api_requests_are_throttled_per_address_for_anonymous_visitors(low_simulation_rates):
    c = Client(REMOTE_ADDR="10.1.1.1")
    assert [_simulate_api(c, i).status_code for i in range(3)] == [400, 400, 429]
    assert _simulate_api(Client(REMOTE_ADDR="10.1.1.2"), 0).status_code == 400


def test_the_simulate_page_shares_the_limit(low_simulation_rates):
    c = Client(REMOTE_ADDR="10.2.2.2")
    _simulate_api(c, 0)
    assert c.post("/simulate/", {"mode": "hands", "text": "junk"}).status_code == 400
    r = c.post("/simulate/", {"mode": "hands", "text": "junk"})
    assert r.status_code == 429
    assert "Too many simulation requests" in r.content.decode()
    assert c.get("/simulate/").status_code == 200
