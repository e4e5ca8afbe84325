"""The card API's whole-answer cache (cards/cache.py): a replayed answer is byte for byte the fresh one, headers
included; a catalogue change (loadcards, the admin) is seen at once; signed-in callers and `owned:` never touch
the cache; a broken cache backend only makes answers uncached.

The test settings keep the "api" cache as a DummyCache (tests change the catalogue inside transactions that
are rolled back); every test here switches it to local memory.
"""
from __future__ import annotations

import json

import pytest
from django import forms
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cards import cache as card_cache
from cards.forms import CardAdminForm
from cards.models import Card, CardSet

from .factories import SEARCH_CARDS, SEARCH_SET, load_search_set

LOCMEM = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "test-card-api",
          "OPTIONS": {"MAX_ENTRIES": 1000}}
DUMMY = {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}


@pytest.fixture
def api_cache(settings):
    settings.CACHES = {**settings.CACHES, "api": LOCMEM}
    caches["api"].clear()
    yield caches["api"]
    caches["api"].clear()


@pytest.fixture
def srch(db):
    return load_search_set()


def entries(store) -> int:
    return len(store._cache)  # LocMemCache's own dict


def answer(response) -> tuple:
    return response.status_code, list(response.items()), response.content


URLS = [
    "/api/cards/?q=s%3Asrch%20t%3Aunit&page_size=3",
    "/api/cards/?q=s%3Asrch%20t%3Aunit&page_size=3&page=2",
    "/api/cards/?q=s%3Asrch&sort=-cost",
    "/api/cards/?q=f%3Acamelot%20t%3Aunit%20c%3C%3D3",
    "/api/cards/",
    "/api/cards/srch-lord/",
    "/api/cards/srch-destiny/",
    "/api/cards/no-such-card/",                       # 404
    "/api/cards/?q=c%3Aseven",                        # 400 bad value
    "/api/cards/?q=t%3Aunit%20zz%3A1",                # 400 unknown key, with position
    "/api/cards/?q=%22unclosed",                      # 400 syntax
    "/api/cards/?sort=colour",                        # 400 sort
    "/api/cards/?q=s%3Asrch&page=99",                 # 400 no such page
    "/api/cards/?page_size=-5",                       # 400
]


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("secure", [False, True])
def test_a_replayed_answer_is_exactly_the_fresh_one(srch, settings, url, secure):
    settings.CACHES = {**settings.CACHES, "api": DUMMY}
    fresh = answer(Client().get(url, secure=secure))
    settings.CACHES = {**settings.CACHES, "api": LOCMEM}
    store = caches["api"]
    store.clear()
    first = answer(Client().get(url, secure=secure))
    assert entries(store) == 1
    with CaptureQueriesContext(connection) as queries:
        replayed = Client().get(url, secure=secure)
    assert len(queries) == 0  # served from the cache: no database at all
    assert answer(replayed) == first == fresh
    headers = dict(replayed.items())
    assert headers["Content-Type"] == "application/json" and "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"
    assert "camera=()" in headers["Permissions-Policy"] and headers["Vary"] == "Accept, Cookie"
    store.clear()


def test_the_key_holds_host_scheme_query_and_accept(srch, api_cache):
    url = "/api/cards/srch-lord/"
    plain = Client().get(url).json()["url"]
    other_host = Client(HTTP_HOST="cards.example.org").get(url).json()["url"]
    secure = Client().get(url, secure=True).json()["url"]
    assert (plain, other_host, secure) == ("http://testserver/cards/srch-lord/",
                                           "http://cards.example.org/cards/srch-lord/",
                                           "https://testserver/cards/srch-lord/")
    # The browsable API (HTML, with a CSRF token) is never stored, and a stored JSON answer is never given to it.
    html = Client().get(url, HTTP_ACCEPT="text/html")
    assert html["Content-Type"].startswith("text/html")
    assert Client().get(url, HTTP_ACCEPT="text/html")["Content-Type"].startswith("text/html")
    assert entries(api_cache) == 3
    # Two query strings, two entries (the query string is part of the key as sent).
    Client().get("/api/cards/?q=s%3Asrch&page_size=2")
    Client().get("/api/cards/?page_size=2&q=s%3Asrch")
    assert entries(api_cache) == 5


def test_only_plain_gets_of_the_card_api_are_cached(srch, api_cache):
    client = Client()
    for url in ("/api/cards", "/api/cards/srch-lord/extra/", "/api/decklists/", "/cards/", "/api/schema/"):
        client.get(url)
    client.head("/api/cards/srch-lord/")
    client.options("/api/cards/")
    client.post("/api/cards/", {})
    assert entries(api_cache) == 0


def test_misses_cost_no_session_query(srch, api_cache):
    with CaptureQueriesContext(connection) as queries:
        assert Client().get("/api/cards/?q=s%3Asrch%20t%3Aunit").status_code == 200
    tables = [q["sql"].split(" FROM ", 1)[1].split()[0] for q in queries.captured_queries]
    assert tables == ['"cards_card"', '"cards_card"']  # the page's count, then its rows
    with CaptureQueriesContext(connection) as queries:
        assert Client().get("/api/cards/srch-lord/").status_code == 200
    assert len(queries) == 1


# ---- a catalogue change is seen at once -------------------------------------------------------------------------
def test_loadcards_is_seen_at_once(srch, api_cache, tmp_path):
    url = "/api/cards/?q=s%3Asrch%20n%3Asquire"
    before = Client().get(url).json()
    assert before["count"] == 2 and Client().get(url).json() == before  # cached
    cards = [dict(c) for c in SEARCH_CARDS]
    next(c for c in cards if c["code"] == "srch-squire")["name"] = "Page of the Vale"
    path = tmp_path / "srch.json"
    path.write_text(json.dumps({"set": SEARCH_SET, "cards": cards}), encoding="utf-8")
    call_command("loadcards", str(path), verbosity=0)  # seen at once, inside the (test's) transaction
    after = Client().get(url).json()
    assert after["count"] == 1 and after["results"][0]["code"] == "srch-squire-vet"
    assert Client().get("/api/cards/srch-squire/").json()["name"] == "Page of the Vale"


def _admin_data(instance, form_class) -> dict:
    form = form_class(instance=instance)
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if isinstance(field, forms.BooleanField):
            if value:
                data[name] = "on"
        elif isinstance(field, forms.FileField):
            continue
        else:
            data[name] = "" if value is None else value
    return data


def test_admin_edits_are_seen_at_once(srch, api_cache, django_capture_on_commit_callbacks):
    admin = get_user_model().objects.create_superuser("cacheadmin", "a@example.com", "pw-cacheadmin-1")
    staff = Client()
    staff.force_login(admin)
    lord = Card.objects.get(code="srch-lord")
    assert Client().get("/api/cards/srch-lord/").json()["power"] == 4
    with django_capture_on_commit_callbacks(execute=True):
        r = staff.post(f"/admin/cards/card/{lord.pk}/change/", {**_admin_data(lord, CardAdminForm), "power": 5})
    assert r.status_code == 302, r.content.decode()[:2000]
    assert Client().get("/api/cards/srch-lord/").json()["power"] == 5
    # A set's position orders sort=set; editing a set in the admin is a catalogue change too.
    url = "/api/cards/?q=s%3Asrch%20or%20s%3Acore&sort=set&page_size=1"
    assert Client().get(url).json()["results"][0]["code"].startswith("core-")
    core = CardSet.objects.get(code="core")
    with django_capture_on_commit_callbacks(execute=True):
        r = staff.post(f"/admin/cards/cardset/{core.pk}/change/", {"code": "core", "name": core.name,
                                                                   "position": 50})
    assert r.status_code == 302, r.content.decode()[:2000]
    assert Client().get(url).json()["results"][0]["code"].startswith("srch-")
    # Deleting a card in the admin.
    with django_capture_on_commit_callbacks(execute=True):
        r = staff.post(f"/admin/cards/card/{lord.pk}/delete/", {"post": "yes"})
    assert r.status_code == 302
    assert Client().get("/api/cards/srch-lord/").status_code == 404


def test_the_stamp_changes_at_the_first_write_after_a_read_and_at_commit(transactional_db, api_cache):
    from django.db import transaction

    # A real transaction (no test transaction around it), as loadcards runs in production.
    if not Card.objects.filter(type="unit").exists():
        load_search_set()   # a transactional test before this one may have emptied the tables
    start = card_cache.catalogue_version()
    with transaction.atomic():
        card = Card.objects.filter(type="unit").order_by("code").first()
        card.save()
        first = card_cache.catalogue_version()
        assert first != start
        card.save()
        assert card_cache.catalogue_version() != first  # the stamp was read in between: bump again
        second = card_cache.catalogue_version()
        card_cache._read_since_bump = False
        card.save()
        card.save()
        assert caches["default"].get(card_cache.VERSION_KEY) == second  # not read since: no bump per card
        assert sum(f is card_cache.bump_catalogue_version
                   for _s, f, _r in transaction.get_connection().run_on_commit) == 1
    assert card_cache.catalogue_version() != second  # and once more at commit


def test_a_lost_stamp_is_replaced_by_a_new_one(srch, api_cache):
    url = "/api/cards/srch-lord/"
    Client().get(url)
    old = card_cache.catalogue_version()
    caches["default"].delete(card_cache.VERSION_KEY)
    Client().get(url)
    assert card_cache.catalogue_version() != old and entries(api_cache) == 2


# ---- signed-in callers and owned: ----------------------------------------------------------------------------
@pytest.fixture
def collector(db):
    from decks.services import collection_set

    user = get_user_model().objects.create_user("collector", "c@example.com", "pw-collector-1")
    collection_set(user=user, counts={"srch-lord": 1})
    return user


def test_an_owned_search_is_never_cached_nor_served_from_the_cache(srch, api_cache, collector):
    url = "/api/cards/?q=s%3Asrch%20owned%3Ayes"
    anonymous = Client().get(url)
    assert anonymous.status_code == 400 and "sign in" in anonymous.json()["detail"]
    signed_in = Client()
    signed_in.force_login(collector)
    mine = signed_in.get(url)
    assert mine.status_code == 200 and [c["code"] for c in mine.json()["results"]] == ["srch-lord"]
    from roc_site.accounts.services import api_token_create

    token = api_token_create(user=collector).key
    by_token = Client(HTTP_AUTHORIZATION=f"Token {token}").get(url)
    assert by_token.json() == mine.json()
    # Spelled any other way (percent-encoded, upper case, as a second q) it is still never cached.
    for other in ("/api/cards/?q=s%3Asrch%20%6Fwned%3Ayes", "/api/cards/?q=s%3Asrch%20OWNED%3Ayes",
                  "/api/cards/?q=t%3Aunit&q=owned%3Ano"):
        Client().get(other)
        signed_in.get(other)
    assert entries(api_cache) == 0


def test_signed_in_callers_bypass_the_cache(srch, api_cache, collector):
    url = "/api/cards/?q=s%3Asrch"
    signed_in = Client()
    signed_in.force_login(collector)
    signed_in.get(url)
    assert entries(api_cache) == 0
    Client().get(url)  # anonymous: stored
    assert entries(api_cache) == 1
    with CaptureQueriesContext(connection) as queries:
        signed_in.get(url)
    assert len(queries) > 0  # computed, not replayed
    with CaptureQueriesContext(connection) as queries:
        Client(HTTP_AUTHORIZATION="Token not-a-real-token").get(url)
    assert len(queries) > 0


def test_a_broken_cache_backend_only_means_uncached_answers(srch, api_cache, monkeypatch):
    url = "/api/cards/?q=s%3Asrch"
    expected = Client().get(url).content

    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(caches["default"], "get", down)
    r = Client().get(url)
    assert r.status_code == 200 and r.content == expected
    monkeypatch.undo()
    monkeypatch.setattr(type(caches["api"]), "set", down)
    api_cache.clear()
    r = Client().get("/api/cards/srch-lord/")
    assert r.status_code == 200 and r.json()["code"] == "srch-lord"
    monkeypatch.setattr(type(caches["default"]), "set", down)
    Card.objects.get(code="srch-lord").save()  # a failed bump is logged; the write goes through


ODD = [
    "/api/cards/?" + "&".join(f"a{i}=1" for i in range(1100)),  # over DATA_UPLOAD_MAX_NUMBER_FIELDS
    "/api/cards/%F0%9F%83%8F/",                                  # a non-ASCII code: 404
    "/api/cards/%FF%FE/",                                        # not UTF-8
    "/api/cards/?q=%FF%FE",
    "/api/cards/?q=" + "x" * 600,                                # over the query length limit
]


@pytest.mark.parametrize("url", ODD)
def test_odd_requests_get_the_same_answer_with_the_cache(srch, settings, url):
    settings.CACHES = {**settings.CACHES, "api": DUMMY}
    fresh = answer(Client().get(url))
    settings.CACHES = {**settings.CACHES, "api": LOCMEM}
    caches["api"].clear()
    assert answer(Client().get(url)) == fresh
    assert answer(Client().get(url)) == fresh
    caches["api"].clear()
