"""The hosted games' simulate form at r1's standard: pickers for starters, my decks and published decklists on both
sides (regions: shipped strategies and a Hero), one Fast/Strong player with its time, no command line; a bad pick is
a form error (400) that runs nothing."""
from html import unescape
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from cards.games.realms import SET_FILE, STARTERS_DIR
from decks.game_services import game_decklist_publish
from simulator import services
from simulator.models import SimulationRun

from .test_game_web import _realms_deck

pytestmark = pytest.mark.django_db
SUNWARD = (STARTERS_DIR / "sunward.txt").read_text()
DEEPWOOD = (STARTERS_DIR / "deepwood.txt").read_text()
ASHEN_STARTER = "The Ashen Covenant — the Cinder Choir"
TIDE_STARTER = "The Tideholm League — the Free Companies"


@pytest.fixture
def realms(capsys):
    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()


@pytest.fixture
def queued(monkeypatch):
    """Runs are created but not played: the form's job ends at the run it makes."""
    from simulator import tasks
    monkeypatch.setattr(tasks.start_run, "apply_async", lambda *a, **k: None)


@pytest.fixture
def people(realms):
    users = get_user_model().objects
    ada, bo = users.create_user("ada", password="pw-ada-12345"), users.create_user("bo", password="pw-bo-12345")
    mine = _realms_deck(ada, "Dawn riders", SUNWARD)
    secret = _realms_deck(bo, "Bo's secret", DEEPWOOD)
    published = game_decklist_publish(deck=_realms_deck(bo, "Bo's wardens", DEEPWOOD, private=False),
                                       title="Marches of the Deepwood")
    c = Client()
    c.force_login(ada)
    return {"client": c, "mine": mine, "secret": secret, "published": published}


def _select(html: str, name: str) -> str:
    m = re.search(rf'<select[^>]*name="{name}".*?</select>', html, re.S)
    assert m, name
    return m.group(0)


def test_realms_pickers_list_starters_my_decks_and_decklists_on_both_sides(people):
    html = people["client"].get("/realms/simulate/").content.decode()
    for button in ("use_starter", "use_opponent_starter"):   # the four starters, for each side
        assert len(re.findall(rf'name="{button}" value="[^"]+"', html)) == 4
        assert f'name="{button}" value="{ASHEN_STARTER}"' in html
    for picker in ("deck_pick", "opponent_deck_pick"):
        box = _select(html, picker)
        assert f'value="deck:{people["mine"].pk}">Dawn riders<' in box
        assert f'value="decklist:{people["published"].pk}">Marches of the Deepwood (by bo)<' in box
        assert "Bo&#x27;s secret" not in box   # another player's private deck is not offered
    # one player choice, with its time; no separate policy fields and no command line
    assert html.count('name="player"') == 2 and 'name="policy"' not in html and 'name="opponent_policy"' not in html
    assert re.search(r"1,000 games take about [\d,.]+ (s|min|h) goldfish", html)
    assert "manage.py" not in html and "--game" not in html and "api/simulations" not in html
    # signed out: the published decklists, no decks of anyone's, and a way to sign in for one's own
    anon = Client().get("/realms/simulate/").content.decode()
    assert "Marches of the Deepwood" in anon and "Dawn riders" not in anon and "Sign in</a> to pick" in anon


def test_realms_each_pick_fills_the_run_with_its_list_and_name(people, queued):
    c = people["client"]
    # a starter button fills its box (and runs nothing)
    page = c.post("/realms/simulate/", {"mode": "goldfish", "text": "", "use_opponent_starter": TIDE_STARTER,
                                        "player": "fast"})
    assert page.status_code == 200 and not SimulationRun.objects.exists()
    html = page.content.decode()
    assert f'value="starter:{TIDE_STARTER}"' in html and 'value="versus" checked' in html
    assert re.search(r'name="use_opponent_starter" value="The Tideholm[^"]*" class="chip active"', html)
    # my deck on my side, a published decklist on the other, chosen in the lists: Simulate runs them by name
    r = c.post("/realms/simulate/", {"mode": "versus", "text": "", "opponent": "", "games": "4", "seed": "2",
                                     "player": "fast", "deck_pick": f"deck:{people['mine'].pk}",
                                     "opponent_deck_pick": f"decklist:{people['published'].pk}"})
    assert r.status_code == 302, r.content.decode()[:2000]
    run = SimulationRun.objects.get()
    assert run.deck_name == "Dawn riders" and run.opponent_name == "Marches of the Deepwood"
    assert run.deck_counts == people["mine"].cards and run.opponent_counts == people["published"].cards
    assert run.settings["policy"] == run.settings["opponent_policy"] == "greedy"
    run.delete()
    # a starter chosen for my side, Strong for both
    c.post("/realms/simulate/", {"mode": "goldfish", "use_starter": ASHEN_STARTER, "player": "strong"})
    loaded = {"mode": "goldfish", "text": (STARTERS_DIR / "ashen.txt").read_text(), "deck_loaded":
              f"starter:{ASHEN_STARTER}", "games": "2", "player": "strong"}
    assert c.post("/realms/simulate/", loaded).status_code == 302
    run = SimulationRun.objects.get()
    assert run.deck_name == ASHEN_STARTER and run.settings["policy"] == "expert"
    assert "opponent_policy" not in run.settings   # goldfish: no opponent's player
    run.delete()
    # the list edited after it was loaded: a pasted list, no longer under that name
    edited = dict(loaded, text=loaded["text"].replace("3x", "2x", 1), player="fast")
    assert c.post("/realms/simulate/", edited).status_code == 302
    assert SimulationRun.objects.get().deck_name == ""


@pytest.mark.parametrize("field, value, words", [
    ("deck_pick", "deck:{secret}", "someone else's private deck"),
    ("opponent_deck_pick", "deck:99999", "No saved deck number 99999"),
    ("deck_pick", "decklist:99999", "No published decklist number 99999"),
    ("deck_pick", "deck:abc", "not a saved deck's number"),
    ("use_starter", "Nobody's starter", "no starter deck called"),
    ("deck_pick", "chess:1", "not something to simulate here"),
    ("player", "psychic", "Player: choose Fast or Strong"),
])
def test_a_bad_pick_is_a_form_error_and_runs_nothing(people, queued, field, value, words):
    body = {"mode": "versus", "text": SUNWARD, "opponent": DEEPWOOD, "games": "4", "player": "fast",
            field: value.format(secret=people["secret"].pk)}
    r = people["client"].post("/realms/simulate/", body)
    assert r.status_code == 400 and words in unescape(r.content.decode()), r.content.decode()[:3000]
    assert 'role="alert"' in r.content.decode() and not SimulationRun.objects.exists()


def test_the_form_still_goes_through_the_run_throttle(people, queued, settings, monkeypatch):
    from roc_site import throttling
    monkeypatch.setattr(throttling, "page_throttle", lambda request: "Too many runs: wait a minute.")
    from simulator.games import views
    monkeypatch.setattr(views, "page_throttle", lambda request: "Too many runs: wait a minute.")
    r = people["client"].post("/realms/simulate/", {"mode": "goldfish", "text": SUNWARD, "player": "fast"})
    assert r.status_code == 429 and not SimulationRun.objects.exists()
    # filling a box is not a run, so it is not throttled
    assert people["client"].post("/realms/simulate/", {"mode": "goldfish", "use_starter": ASHEN_STARTER,
                                                       "player": "fast"}).status_code == 200


def test_regions_strategy_and_hero_pickers_and_one_player(queued):
    c = Client()
    html = c.get("/regions/simulate/").content.decode()
    for picker in ("deck_pick", "opponent_deck_pick"):
        box = _select(html, picker)
        assert 'value="strategy:big-money"' in box and "Big Money — Corin Vale" in box
    assert "Ilse Marrow" in _select(html, "hero") and "Ilse Marrow" in _select(html, "opponent_hero")
    assert html.count('name="player"') == 2 and 'name="policy"' not in html and "manage.py" not in html
    assert "head-to-head" in html and "goldfish" not in html   # regions has only head-to-head times
    r = c.post("/regions/simulate/", {"mode": "versus", "text": "", "opponent": "", "games": "2",
                                      "deck_pick": "strategy:big-money", "opponent_deck_pick": "strategy:wide-board",
                                      "hero": "Ilse Marrow", "player": "fast"})
    assert r.status_code == 302, r.content.decode()[:2000]
    run = SimulationRun.objects.get()
    assert run.spec["deck"]["name"] == "Big Money" and run.spec["opponent"]["name"] == "Wide Board"
    from simulator.games.regions import heroes
    from simulator.engines.regions import CardSet
    assert CardSet.default().hero(run.spec["deck"]["hero"]).name == "Ilse Marrow" and "Ilse Marrow" in heroes()
    bad = c.post("/regions/simulate/", {"mode": "versus", "deck_pick": "strategy:nope", "player": "fast"})
    assert bad.status_code == 400 and "no shipped strategy called" in bad.content.decode()
    bad = c.post("/regions/simulate/", {"mode": "versus", "hero": "Nobody", "player": "fast"})
    assert bad.status_code == 400 and "no Hero called" in bad.content.decode()


def test_a_published_decklist_links_its_simulation_which_fills_the_form(people):
    c, published = Client(), people["published"]
    detail = c.get(published.get_absolute_url()).content.decode()
    assert f'href="/realms/simulate/?decklist={published.pk}"' in detail
    page = c.get(f"/realms/simulate/?decklist={published.pk}").content.decode()
    assert f'value="decklist:{published.pk}" selected' in page and "Marches of the Deepwood" in page
    assert c.get("/realms/simulate/?decklist=99999").status_code == 404
    assert c.get("/realms/simulate/?opponent_decklist=x1").status_code == 404
