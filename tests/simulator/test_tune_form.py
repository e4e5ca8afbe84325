"""The /tune/ form, as a player uses it: every decklist box takes a starter deck or one of my saved decks (the
same picker as /simulate/), the players are chosen as on /simulate/ (Fast or Strong, mapped to the same policies
the API takes), the pages speak in percentages and words, and a bad pick is the field's error, not a 500."""
from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from cards.starters import starter
from decks.decklist import parse_decklist
from decks.pool import CardPool
from decks.services import deck_create
from simulator.models import TuningRun

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_queue(monkeypatch):
    """Runs are created and left in the queue's hands (nothing plays): the form's result is the stored run."""
    from simulator import tuning_tasks

    monkeypatch.setattr(tuning_tasks.tuning_start, "apply_async", lambda *args, **kwargs: None)


def _deck(owner, slug: str, name: str):
    pool = CardPool.from_db()
    return deck_create(owner=owner, name=name, counts=parse_decklist(starter(slug).text, pool).counts,
                       is_private=True, pool=pool).deck


@pytest.fixture
def ada(django_user_model):
    user = django_user_model.objects.create_user("ada", password="pw-ada-12345")
    bob = django_user_model.objects.create_user("bob", password="pw-bob-12345")
    return {"user": user, "mine": _deck(user, "camelot", "My knights"), "mine2": _deck(user, "winter", "My frost"),
            "bobs": _deck(bob, "lefay", "Bob's secret")}


def _textarea(page: str, name: str) -> str:
    return html.unescape(page.split(f'name="{name}"', 1)[1].split(">", 1)[1].split("</textarea>", 1)[0])


def _visible(page: str) -> str:
    """The page's text as read (no tags, no comments, no scripts)."""
    page = re.sub(r"<script.*?</script>|<!--.*?-->", "", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("kind,selects", [("compare", ["my_a", "my_b", "my_gauntlet"]),
                                          ("tune", ["my_deck", "my_gauntlet"]), ("matrix", ["my_decks"])])
def test_every_deck_box_offers_my_decks_and_the_starters(client, ada, kind, selects):
    assert 'name="my_' not in client.get(f"/tune/?kind={kind}").content.decode()   # a visitor has no decks
    client.force_login(ada["user"])
    page = client.get(f"/tune/?kind={kind}").content.decode()
    for name in selects:
        box = page.split(f'name="{name}"', 1)[1].split("</select>", 1)[0]
        assert f'<option value="{ada["mine"].pk}">My knights · Camelot</option>' in box
        assert f'<option value="{ada["mine2"].pk}">My frost · The Winter Court</option>' in box
        assert "Bob" not in box
        field = name.removeprefix("my_")
        assert f'name="use_starter_{field}" value="camelot"' in page   # the starter buttons, for the same box
    assert "simulate-decks.js" in page   # choosing fills the box at once, as on /simulate/


def test_loading_my_deck_fills_its_box_and_keeps_the_others(client, ada):
    from simulator.selectors import deck_version_for

    client.force_login(ada["user"])
    text = deck_version_for(user=ada["user"], deck_id=ada["mine"].pk)[1]
    page = client.post("/tune/", {"kind": "compare", "a": "typed by hand", "b": "", "my_b": ada["mine"].pk,
                                  "load": "1", "player": "strong"})
    assert page.status_code == 200
    body = page.content.decode()
    assert _textarea(body, "b").strip() == text.strip() and "# My knights" in _textarea(body, "b")
    assert _textarea(body, "a") == "typed by hand"
    assert 'value="strong" checked' in body   # the rest of the form stays as chosen


def test_a_starter_button_fills_one_box_and_a_box_of_several_lists_gets_it_added(client, ada):
    page = client.post("/tune/", {"kind": "tune", "deck": "mine", "use_starter_deck": "winter"}).content.decode()
    assert _textarea(page, "deck").strip() == starter("winter").text.strip()
    first = client.post("/tune/", {"kind": "matrix", "decks": starter("camelot").text, "use_starter_decks": "winter"})
    decks = _textarea(first.content.decode(), "decks")
    assert decks.count("\n---\n") == 1 and starter("camelot").text.strip() in decks
    assert starter("winter").text.strip() in decks
    client.force_login(ada["user"])
    added = client.post("/tune/", {"kind": "matrix", "decks": decks, "my_decks": ada["mine2"].pk, "load": "1"})
    assert _textarea(added.content.decode(), "decks").count("\n---\n") == 2
    assert "# My frost" in _textarea(added.content.decode(), "decks")


@pytest.mark.parametrize("post,field", [
    ({"kind": "compare", "a": "x", "b": "y", "my_a": "999999", "load": "1"}, "Deck A"),
    ({"kind": "compare", "a": "x", "b": "y", "my_b": "abc", "load": "1"}, "Deck B"),
    ({"kind": "tune", "deck": "x", "use_starter_deck": "atlantis"}, "Deck"),
    ({"kind": "matrix", "decks": "x", "my_decks": "BOBS", "load": "1"}, "Decklists"),
    ({"kind": "compare", "a": "x", "b": "y", "player": "expert"}, "Players"),
])
def test_a_bad_pick_is_the_fields_error_and_starts_nothing(client, ada, post, field):
    client.force_login(ada["user"])
    post = {k: (ada["bobs"].pk if v == "BOBS" else v) for k, v in post.items()}
    page = client.post("/tune/", post)
    assert page.status_code == 400
    body = _visible(page.content.decode())
    assert f"{field}: " in body and ("pick one from the list" in body or "press one of the starter" in body
                                     or "choose Fast or Strong" in body)
    assert not TuningRun.objects.exists()


def test_someone_elses_deck_is_refused_even_when_signed_out(client, ada):
    page = client.post("/tune/", {"kind": "compare", "a": "", "b": "", "my_a": ada["mine"].pk, "load": "1"})
    assert page.status_code == 400 and "Deck A: that is not one of your saved decks" in _visible(
        page.content.decode())


def test_the_player_choice_reads_fast_and_strong_with_its_time_and_maps_to_the_apis_policies(client, no_queue):
    page = _visible(client.get("/tune/").content.decode())
    assert "Fast" in page and "Strong" in page and "1,000 games take about" in page
    for player, policy in (("fast", "greedy"), ("strong", "expert")):
        client = Client()   # a visitor has one run in flight at a time (these stay queued)
        r = client.post("/tune/", {"kind": "compare", "a": starter("camelot").text, "b": starter("winter").text,
                                   "gauntlet": starter("lefay").text, "games": "10", "seed": str(len(policy)),
                                   "player": player})
        assert r.status_code == 302, r.content.decode()[:1500]
        run = TuningRun.objects.latest("pk")
        assert (run.policy, run.opponent_policy) == (policy, policy)
        shown = _visible(client.get(r["Location"]).content.decode())
        assert f"players: {player.title()}" in shown and policy not in shown


@pytest.mark.parametrize("kind", ["compare", "tune", "matrix"])
def test_no_engine_names_or_fractions_on_the_form(client, kind):
    page = _visible(client.get(f"/tune/?kind={kind}").content.decode())
    for word in ("{#", "#}", "greedy-v1", "(0-1)", "(0–1)", "docs/", ".md", "manage.py", "Opponents' player"):
        assert word not in page, word


def test_a_card_swap_report_speaks_in_percentage_points(client, no_queue):
    """A finished win-rate search as stored (its JSON keeps "win rate (0-1)" for the API): the page says points."""
    from simulator import tuning_services as services
    from tests.simulator.conftest import own

    run, _ = services.tuning_request(kind="tune", decks=[("deck", starter("camelot").text)], target="winrate",
                                     games=40, session_key="s:z", dispatch=False)
    swap = {"out": [{"code": "x", "name": "Hedge Knight", "copies": 1}], "in": [{"code": "y", "name": "Squire",
            "copies": 1}], "label": "−1 Hedge Knight / +1 Squire", "delta": 0.031, "ci95": [-0.012, 0.074],
            "games": 40, "finalist": True, "dropped_after_round": None, "why": "played rarely"}
    result = {"kind": "tune", "target": "winrate", "candidates": 1, "rounds": [{"candidates": 1, "games": 40}],
              "swaps": [swap], "best": swap, "dead_weight": [], "cut_ranking": [], "opponent_only": [],
              "delta_means": "win rate (0-1) against the gauntlet", "games_spent": 40, "elapsed_s": 1,
              "policies": ["random", "greedy-v1"], "deck": {"name": "deck"}}
    TuningRun.objects.filter(pk=run.pk).update(status="done", result=result, policy="random",
                                              opponent_policy="greedy-v1")
    own(client, run)
    page = _visible(client.get(run.get_absolute_url()).content.decode())
    assert "(0-1)" not in page and "greedy-v1" not in page and "needs_opponent" not in page
    assert "+3.1 points" in page and "−1.2 to +7.4 points" in page
    assert "percentage points of win rate against the gauntlet" in page
    assert "players: Random moves / Fast (its first version)" in page


def test_the_simulate_page_shows_its_shared_picker_parts_without_template_comments(client, ada):
    client.force_login(ada["user"])
    page = client.get("/simulate/").content.decode()
    assert 'id="sim-my-deck"' in page and 'name="use_opponent_starter"' in page and 'id="sim-players"' in page
    assert "{#" not in _visible(page) and "#}" not in _visible(page)
