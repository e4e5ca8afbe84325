"""The simulate page: a signed-in player picks one of their saved decks, for the deck and for the
opponent; the run records both versions; an edited list is simulated as pasted; "Load" works without JavaScript."""
from __future__ import annotations

import html

import pytest

from cards.starters import starter
from decks.decklist import parse_decklist
from decks.pool import CardPool
from decks.services import deck_create
from simulator.models import SimulationRun

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_queue(monkeypatch):
    from simulator import tasks

    monkeypatch.setattr(tasks.start_run, "apply_async", lambda *args, **kwargs: None)


def _deck(owner, slug: str, name: str, *, private: bool = True):
    pool = CardPool.from_db()
    return deck_create(owner=owner, name=name, counts=parse_decklist(starter(slug).text, pool).counts,
                       is_private=private, pool=pool).deck


@pytest.fixture
def decks(django_user_model):
    ada = django_user_model.objects.create_user("ada", password="pw-ada-12345")
    bob = django_user_model.objects.create_user("bob", password="pw-bob-12345")
    return {"ada": ada, "bob": bob, "mine": _deck(ada, "camelot", "My knights"),
            "mine2": _deck(ada, "winter", "My frost"), "bobs": _deck(bob, "lefay", "Bob's secret")}


def _textarea(page: str, name: str) -> str:
    return html.unescape(page.split(f'name="{name}"', 1)[1].split(">", 1)[1].split("</textarea>", 1)[0])


def test_only_my_own_decks_are_offered_and_visitors_see_no_choice(client, decks):
    assert 'id="sim-my-deck"' not in client.get("/simulate/").content.decode()
    client.force_login(decks["ada"])
    page = client.get("/simulate/").content.decode()
    for select in ('id="sim-my-deck"', 'id="sim-my-opponent"'):
        assert select in page
    assert f'<option value="{decks["mine"].pk}">My knights · Camelot</option>' in page
    assert "Bob&#x27;s secret" not in page and "Bob's secret" not in page


def test_choosing_my_decks_for_both_sides_records_both_versions(client, decks, no_queue):
    from simulator.selectors import deck_version_for

    client.force_login(decks["ada"])
    mine, other = decks["mine"], decks["mine2"]
    text = deck_version_for(user=decks["ada"], deck_id=mine.pk)[1]
    opponent = deck_version_for(user=decks["ada"], deck_id=other.pk)[1]
    answer = client.post("/simulate/", {"deck": mine.pk, "opponent_deck": other.pk, "text": text.replace("\n", "\r\n"),
                                        "opponent": opponent, "mode": "versus", "games": "100", "seed": "1"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    run = SimulationRun.objects.get()
    assert run.deck_version == mine.versions.get() and run.opponent_version == other.versions.get()
    assert (run.deck_name, run.opponent_name) == ("My knights", "My frost")


def test_an_edited_list_is_simulated_as_pasted(client, decks, no_queue):
    from simulator.selectors import deck_version_for

    client.force_login(decks["ada"])
    opponent = deck_version_for(user=decks["ada"], deck_id=decks["mine2"].pk)[1]
    edited = opponent.replace("# My frost", "# Tweaked frost")
    answer = client.post("/simulate/", {"opponent_deck": decks["mine2"].pk, "opponent": edited, "mode": "versus",
                                        "text": starter("camelot").text, "games": "100", "seed": "1"})
    assert answer.status_code == 302
    run = SimulationRun.objects.get()
    assert run.opponent_version is None and run.deck_version is None and run.opponent_name == "Tweaked frost"


def test_load_fills_the_chosen_decks_keeps_the_rest_and_runs_nothing(client, decks, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "simulations_user": "1/minute", "simulations_anon": "1/minute"}}
    client.force_login(decks["ada"])
    pasted = starter("summer").text
    for _ in range(3):  # loading is not a simulation: never throttled
        answer = client.post("/simulate/", {"load": "1", "deck": "", "opponent_deck": decks["mine2"].pk,
                                            "text": pasted, "opponent": "", "mode": "hands", "seed": "42"})
        assert answer.status_code == 200
    page = answer.content.decode()
    assert _textarea(page, "text").strip() == pasted.strip()  # my pasted list is kept
    assert _textarea(page, "opponent").startswith("# My frost")
    assert f'<option value="{decks["mine2"].pk}" selected>' in page
    assert 'value="versus" checked' in page and 'name="seed" inputmode="numeric" value="42"' in page
    assert SimulationRun.objects.count() == 0


def test_another_players_private_deck_cannot_be_the_opponent(client, decks):
    client.force_login(decks["ada"])
    assert client.get(f"/simulate/?opponent_deck={decks['bobs'].pk}").status_code == 404
    assert client.post("/simulate/", {"opponent_deck": decks["bobs"].pk, "mode": "versus", "text": "x",
                                      "opponent": "y"}).status_code == 404
    public = _deck(decks["bob"], "saracen", "Bob's public", private=False)
    page = client.get(f"/simulate/?opponent_deck={public.pk}").content.decode()
    assert "# Bob" in _textarea(page, "opponent")  # a public deck of another player, kept as a hidden choice
    assert f'<input type="hidden" name="opponent_deck" value="{public.pk}">' in page
