"""The simulate page offers the core set's starter decks (cards/starters.py), so a new player can try the simulator
without typing a list: /simulate/?starter=SLUG fills the decklist, ?opponent_starter=SLUG the opponent."""
import html

import pytest

from cards.starters import starter, starters

pytestmark = pytest.mark.django_db


def test_every_faction_has_a_named_starter():
    found = starters()
    assert len(found) == 7
    camelot = starter("camelot")
    assert camelot.faction == "Camelot" and camelot.title == "The Fellowship of the Round Table"
    assert "Camelot, Court of the High King" in camelot.text
    assert starter("no-such-deck") is None and starter("") is None and starter(None) is None


def test_simulate_page_offers_every_starter(client):
    page = client.get("/simulate/").content.decode()
    for s in starters():
        assert f'name="use_starter" value="{s.slug}"' in page
        assert f'name="use_opponent_starter" value="{s.slug}"' in page


def test_a_starter_button_fills_its_box_and_keeps_what_was_typed(client):
    """Regression: the opponent's starter buttons were links, and following one wiped the pasted list."""
    mine = "# My deck\n1x Camelot, Court of the High King\n3x Hedge Knight"
    response = client.post("/simulate/", {"mode": "goldfish", "text": mine, "games": "321", "seed": "7",
                                          "use_opponent_starter": "winter"})
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert mine in page and starter("winter").text.strip() in page
    assert 'value="versus" checked' in response.content.decode() and 'value="321"' in page
    assert 'value="winter" class="chip active"' in page
    response = client.post("/simulate/", {"mode": "versus", "text": mine, "opponent": starter("winter").text,
                                          "use_starter": "camelot"})
    page = html.unescape(response.content.decode())
    assert starter("camelot").text.strip() in page and starter("winter").text.strip() in page


def test_starter_fills_the_decklist(client):
    response = client.get("/simulate/?starter=winter")
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert starter("winter").text.strip() in page
    assert 'aria-pressed="true"' in response.content.decode()


def test_opponent_starter_fills_the_opponent_and_picks_head_to_head(client):
    response = client.get("/simulate/?starter=camelot&opponent_starter=eleven")
    page = html.unescape(response.content.decode())
    assert starter("camelot").text.strip() in page and starter("eleven").text.strip() in page
    assert 'value="versus" checked' in response.content.decode()


def test_unknown_starter_is_just_an_empty_form(client):
    response = client.get("/simulate/?starter=../../etc/passwd&opponent_starter=nope")
    assert response.status_code == 200
    assert "Camelot, Court of the High King" not in response.content.decode()


def test_a_starter_can_be_simulated_as_it_is(client, settings):
    """What the page fills in is a list the simulator accepts: the goldfish run is created and redirected to."""
    from unittest import mock

    from simulator import tasks

    text = starter("summer").text
    with mock.patch.object(tasks.start_run, "apply_async", lambda *a, **k: None):
        response = client.post("/simulate/", {"mode": "goldfish", "text": text, "games": "100", "seed": "1",
                                              "opponent": "", "mulligan_kind": "min_units", "mulligan_value": "2",
                                              "query": "", "query_k": "1"})
    assert response.status_code == 302 and "/simulate/runs/" in response["Location"]


def test_my_decks_import_form_can_start_from_a_starter(client, django_user_model):
    user = django_user_model.objects.create_user("starter-fan", password="pw-starter-12345")
    client.force_login(user)
    page = client.get("/decks/").content.decode()
    assert "?starter=camelot" in page
    response = client.get("/decks/?starter=keepers")
    text = html.unescape(response.content.decode())
    assert starter("keepers").text.strip() in text and "Keepers of the Old Way — The Groves Awaken" in text
    # importing it as it is makes a legal deck
    response = client.post("/decks/import/", {"name": "Groves", "text": starter("keepers").text})
    assert response.status_code == 302
    from decks.models import Deck
    deck = Deck.objects.get(owner=user, name="Groves")
    assert deck.faction.slug == "keepers"


def test_a_published_decklist_can_be_simulated_from_its_page(client, django_user_model):
    from decks.models import Decklist
    from decks.services import deck_import_text, decklist_publish

    user = django_user_model.objects.create_user("publisher", password="pw-publisher-12345")
    deck = deck_import_text(owner=user, text=starter("saracen").text, name="Silk").deck
    published = decklist_publish(deck=deck, title="Silk and Steel")
    page = client.get(published.get_absolute_url()).content.decode()
    assert f"/simulate/?decklist={published.pk}" in page
    response = client.get(f"/simulate/?decklist={published.pk}")
    text = html.unescape(response.content.decode())
    assert response.status_code == 200 and "Silk and Steel" in text and "Saracen" in text
    assert client.get("/simulate/?decklist=999999").status_code == 404
    assert client.get("/simulate/?decklist=abc").status_code == 404
    assert Decklist.objects.count() == 1
